"""Table options (Q-OPT) as a LAN lobby carries them: ``Peer.opts``, sent in ``welcome`` and ``lobby``.

The host chooses them in the lobby; each player chooses their own munchkin's gender (Q-SETUP-3);
everyone sees them all before the start.  On the wire they are a few named ints and short strs
(net.wire.OPTS):

- ``seats`` (Q-OPT-4), ``window_ms`` (Q-OPT-1), ``away`` and ``away_s`` (Q-OPT-2);
- ``start``: the starting hand, 3 or 4 of each deck (Q-OPT-3), in Classic 4 or 2 (C-OPT-2);
- ``mode``: "quest" or "classic" (CLASSIC.md); ``epic``: 1 for the Epic option of Classic, else 0
  (C-OPT-3);
- ``genders``: one letter per seat (:data:`LETTERS`): male, female, or rolled from the game's seed
  (bots, open seats, and players who leave it to chance).

Invariants: the engine judges every value (:func:`params` asks ``make_params``, which refuses what
the rules do not allow, in words); the game parameters are made from the options alone, so what the
lobby showed is what the game (and its hash) gets.
"""
from __future__ import annotations

from mq.rules import MODES, QUEST, Params, make_params
from mq.rules.newgame import GENDER_CHOICES, ROLLED

LETTERS = {"male": "m", "female": "f", ROLLED: "r"}  # a gender choice -> its letter in ``genders``
_CHOICES = {letter: choice for choice, letter in LETTERS.items()}


def make(seats: int, window_ms: int = 10_000, away: str = "wait", away_s: int = 60, start: int | None = None,
         genders: tuple[str, ...] | None = None, mode: str = QUEST, epic: bool = False) -> dict:
    """Options for a new lobby, checked by the engine (IllegalAction in words when it refuses);
    ``start``: None for the mode's own starting hand; ``genders``: one GENDER_CHOICES word per
    seat, all rolled if None."""
    chosen = tuple(genders) if genders is not None else (ROLLED,) * seats
    p = make_params(seats, chosen, start, window_ms, away, away_s, mode, epic)
    return {"seats": seats, "window_ms": window_ms, "away": away, "away_s": away_s, "start": p.start_treasure,
            "genders": "".join(LETTERS[g] for g in chosen), "mode": mode, "epic": int(epic)}


def mode_of(opts: dict) -> str:
    """The game's mode the options name (none named: Quest)."""
    return opts.get("mode", QUEST) if opts.get("mode") in MODES else QUEST


def genders(opts: dict) -> tuple[str, ...]:
    """Each seat's gender choice (a seat the options do not name: rolled)."""
    letters = opts.get("genders", "") if type(opts.get("genders")) is str else ""
    n = opts.get("seats", len(letters)) if type(opts.get("seats")) is int else len(letters)
    return tuple(_CHOICES.get(letters[s], ROLLED) if s < len(letters) else ROLLED for s in range(n))


def with_gender(opts: dict, seat: int, gender: str) -> dict:
    """The options with ``seat``'s gender choice changed (``gender`` one of GENDER_CHOICES)."""
    if gender not in GENDER_CHOICES:
        raise ValueError(f"{gender!r} is not a gender: {', '.join(GENDER_CHOICES)}")
    chosen = list(genders(opts))
    chosen[seat] = gender
    return dict(opts, genders="".join(LETTERS[g] for g in chosen))


def params(opts: dict, bots: tuple[int, ...] = ()) -> Params:
    """The game parameters the options make (the engine checks them): seats in ``bots`` get a gender
    rolled from the seed, whatever was chosen for them (Q-SETUP-3)."""
    chosen = tuple(ROLLED if s in bots else g for s, g in enumerate(genders(opts)))
    return make_params(opts["seats"], chosen, opts.get("start"), opts["window_ms"], opts["away"], opts["away_s"],
                       mode_of(opts), opts.get("epic") == 1)


def from_params(p: Params) -> dict:
    """The options a game was made with, from its parameters (a sequencer resumed from a log)."""
    return make(p.players, p.window_ms, p.away, p.away_s, p.start_treasure, p.genders, p.mode,
                getattr(p, "epic", False))
