"""The full-screen terminal client (prompt_toolkit).

- :mod:`mq.tui.model`  the UI model: the seat's view, selection, menu, log, banners, and what each
  key asks for; pure, no prompt_toolkit.
- :mod:`mq.tui.render` the model -> formatted text (map, panels, help), pure functions of
  (model, width, height).
- :mod:`mq.tui.keys`   key bindings, each with a docstring; the help screen is generated from them.
- :mod:`mq.tui.app`    the layout, the Application and ``run(table)``.
- :mod:`mq.tui.cli`    ``mq play``.
- :mod:`mq.tui.replay` a game log stepped through in the same client as one seat saw it
  (``mq replay LOG --as SEAT|table``, net/cli.py).

Invariant: the client shows only what its seat may see.  It never keeps a full game state: every
state that reaches it goes through ``mq.rules.view(state, seat)`` first (Q-DIGI-4).
"""
