"""Bot policies: they decide from ``view(state, seat)`` only, never from the full state."""
from mq.bots.policy import choose

__all__ = ["choose"]
