"""Table options (Q-OPT) as a LAN lobby carries them: ``Peer.opts``, sent in ``welcome`` and ``lobby``.

The host chooses them in the lobby; each player chooses their own munchkin's gender (Q-SETUP-3);
everyone sees them all before the start.  On the wire they are a few named ints and short strs
(net.wire.OPTS):

- ``seats`` (Q-OPT-4), ``window_ms`` (Q-OPT-1), ``away`` and ``away_s`` (Q-OPT-2);
- ``start``: the starting hand, 3 or 4 of each deck (Q-OPT-3), in Classic 4 or 2 (C-OPT-2);
- ``mode``: "quest" or "classic" (CLASSIC.md); ``epic``: 1 for the Epic option of Classic, else 0
  (C-OPT-3); ``packs``: Classic's packs, one letter each (mq.cards.classic_packs; C-OPT-4), present
  only when some are chosen;
- ``genders``: one letter per seat (:data:`LETTERS`): male, female, or rolled from the game's seed
  (bots, open seats, and players who leave it to chance).

Invariants: the engine judges every value (:func:`params` asks ``make_params``, which refuses what
the rules do not allow, in words); the game parameters are made from the options alone, so what the
lobby showed is what the game (and its hash) gets.
"""
from __future__ import annotations

from mq.cards.classic_packs import BY_LETTER, BY_NAME
from mq.rules import MODES, QUEST, Params, make_params
from mq.rules.errors import IllegalAction
from mq.rules.newgame import GENDER_CHOICES, ROLLED

LETTERS = {"male": "m", "female": "f", ROLLED: "r"}  # a gender choice -> its letter in ``genders``
_CHOICES = {letter: choice for choice, letter in LETTERS.items()}


def make(seats: int, window_ms: int = 10_000, away: str = "wait", away_s: int = 60, start: int | None = None,
         genders: tuple[str, ...] | None = None, mode: str = QUEST, epic: bool = False,
         packs: tuple[str, ...] = ()) -> dict:
    """Options for a new lobby, checked by the engine (IllegalAction in words when it refuses);
    ``start``: None for the mode's own starting hand; ``genders``: one GENDER_CHOICES word per
    seat, all rolled if None."""
    chosen = tuple(genders) if genders is not None else (ROLLED,) * seats
    p = make_params(seats, chosen, start, window_ms, away, away_s, mode, epic, packs)
    opts = {"seats": seats, "window_ms": window_ms, "away": away, "away_s": away_s, "start": p.start_treasure,
            "genders": "".join(LETTERS[g] for g in chosen), "mode": mode, "epic": int(epic)}
    return with_packs(opts, getattr(p, "packs", ()))


def packs(opts: dict) -> tuple[str, ...]:
    """The packs the options name (C-OPT-4), in the packs' order; IllegalAction in words for a
    letter that is no pack."""
    letters = opts.get("packs", "")
    if type(letters) is not str or any(x not in BY_LETTER for x in letters):
        raise IllegalAction("action/malformed", f"no such packs: {letters!r}")
    return tuple(p for p in BY_NAME if BY_NAME[p].letter in letters)


def with_packs(opts: dict, chosen: tuple[str, ...]) -> dict:
    """The options with the packs ``chosen`` (pack names; none: no ``packs`` key)."""
    out = {k: v for k, v in opts.items() if k != "packs"}
    if chosen:
        out["packs"] = "".join(BY_NAME[name].letter for name in chosen)
    return out


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
                       mode_of(opts), opts.get("epic") == 1, packs(opts))


def from_params(p: Params) -> dict:
    """The options a game was made with, from its parameters (a sequencer resumed from a log)."""
    return make(p.players, p.window_ms, p.away, p.away_s, p.start_treasure, p.genders, p.mode,
                getattr(p, "epic", False), getattr(p, "packs", ()))
