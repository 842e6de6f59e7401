"""The game as net sees it: the one port through which the peer's roles and its replica ask the game
layer anything (DESIGN "Networking contract": net knows nothing of the rules beyond "apply this
action, give me the hash").

| call | answers |
|---|---|
| ``start(params, seed, cards)`` | the game's first state (the log header's parameters and seed) |
| ``apply(state, action, cards)`` | ``(state, events)`` after the action; ``IllegalAction`` if refused |
| ``hash(state)`` | the 64-bit state hash every entry carries and every peer compares |
| ``actors(state)`` | the seats the game waits for (who may act now) |
| ``is_over(state)`` | whether the game has ended |
| ``table_may_act(state, kinds, action, cards)`` | whether the table (author -1) may make that entry there |
| ``Steward`` | what the table authors now: the window timer's passes (``saw``, ``due``) |
| ``takes_over(params, away_since, now)`` | whether the table's bot plays a seat away since then |
| ``bot_move(state, seat, cards)`` | the move the table's bot makes for a seat it plays |

The values that cross it (``Action``, ``State``, ``Params``, the wire forms of actions and
parameters) are the engine's; net carries them without looking inside, except the seat an action
is for.  Everything behind the port is deterministic (no clock of its own: the time is the caller's).
"""
from __future__ import annotations

from mq.rules import actors, is_over
from mq.rules import new_game as start
from mq.rules import state_hash as hash  # noqa: A004 - the port's verb
from mq.rules import step as apply
from mq.steward import Steward, bot_move, table_may_act, takes_over

__all__ = ["Steward", "actors", "apply", "bot_move", "hash", "is_over", "start", "table_may_act", "takes_over"]
