"""Bot policies: they decide from ``view(state, seat)`` only, never from the full state.

:func:`choose` plays either mode: the view's parameters name it (mq.bots.policy for Quest,
mq.bots.classic for Classic), so a caller that holds one card set whatever the mode (a LAN peer)
needs no mode switch of its own."""
from mq.bots import classic as _classic
from mq.bots import policy as _policy
from mq.classic import is_classic
from mq.rules import Action, State, cards_for


def choose(view: State, seat: int, cards=None) -> Action:
    """The move of the mode's bot for ``seat``; ``view`` must be ``mq.rules.view(state, seat)``;
    ``cards``: the game's card set (one of the other mode's stands for the mode's default)."""
    policy = _classic.choose if is_classic(view) else _policy.choose
    return policy(view, seat, cards_for(view, cards))


__all__ = ["choose"]
