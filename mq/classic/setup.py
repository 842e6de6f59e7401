"""Setting up a Classic game (C-SETUP) and its validated table options (C-OPT)."""
from __future__ import annotations

from mq.cards.classic_defs import ClassicSet
from mq.cards.classic_packs import UnknownPack, check_packs
from mq.classic import dungeons
from mq.classic import effects as fx
from mq.classic.state import ClassicParams, ClassicState, CPlayer, DungeonState
from mq.classic.tx import DOOR, TREASURE, Tx
from mq.rules.errors import IllegalAction
from mq.rules.newgame import GENDER_CHOICES, GENDERS, ROLLED, TableRules, check_table, roll_order
from mq.rules.state import Deck

START_CARDS = (4, 2)  # C-OPT-2: 4 + 4 (default) or 2 + 2
# C-OPT-1, C-SETUP-1: 2 to 6 players, as in Quest (mq.rules.newgame.MIN_PLAYERS, MAX_PLAYERS).
CLASSIC_TABLE = TableRules("Classic", GENDER_CHOICES, "one gender, male, female or rolled, per player", START_CARDS,
                           "Classic starting hands are 4 or 2 cards of each deck (C-OPT-2)", "C-OPT-5", "C-OPT-5")


def make_params(players: int, genders: tuple[str, ...] | None = None, start_cards: int = 4, epic: bool = False,
                window_ms: int = 10_000, away: str = "wait", away_s: int = 60, packs=()) -> ClassicParams:
    """Validated Classic parameters (C-OPT); genders default to alternating by seat (C-SETUP-4); a
    seat's gender may be ROLLED: the game's seed decides it (as Q-SETUP-3; bots and players who
    leave it to chance); ``packs``: pack names (or ``all``), kept in the packs' own order (C-OPT-4)."""
    genders = check_table(CLASSIC_TABLE, players, genders, start_cards, window_ms, away, away_s)
    if isinstance(packs, str) or not all(type(x) is str for x in packs):
        raise IllegalAction("action/malformed", "the packs are a list of pack names (C-OPT-4)")
    try:
        chosen = check_packs(packs)
    except UnknownPack as exc:
        raise IllegalAction("action/malformed", str(exc)) from None
    return ClassicParams(players=players, genders=genders, start_door=start_cards,
                         start_treasure=start_cards, epic=bool(epic), packs=chosen, window_ms=window_ms, away=away,
                         away_s=away_s)


def new_game(params: ClassicParams, seed: int, cards: ClassicSet) -> ClassicState:
    """C-SETUP-2..6: the two decks shuffled, 4 + 4 (or 2 + 2) cards each, every munchkin a level-1
    human with the player's gender, the first player rolled; then the setup phase, in which
    everyone may put a race, a class and items into play and declares ready.  A ROLLED gender is
    rolled last (so the rest of the set-up is the same as with it chosen)."""
    if not 0 <= seed < 2**64:
        raise IllegalAction("action/malformed", "the seed is a 64-bit unsigned integer")
    players = tuple(CPlayer(seat=i, gender=g if g != ROLLED else GENDERS[0]) for i, g in enumerate(params.genders))
    kind = DungeonState if cards.dungeon else ClassicState  # C-PACK-7
    state = kind(params=params, rng_seed=seed, rng_n=0, order=(), players=players,
                         door=Deck(()), treasure=Deck(()))
    tx = Tx(state, cards)
    tx.decks[DOOR] = Deck(tx.shuffle(tuple(c.id for c in cards.door)))
    tx.decks[TREASURE] = Deck(tx.shuffle(tuple(c.id for c in cards.treasure)))
    for seat in range(params.players):
        for _ in range(params.start_door):
            fx.draw_to_hand(tx, seat, DOOR)
        for _ in range(params.start_treasure):
            fx.draw_to_hand(tx, seat, TREASURE)
    tx.order = roll_order(tx, params.players)  # C-SETUP-6, as Q-SETUP-4
    for seat, chosen in enumerate(params.genders):
        if chosen == ROLLED:  # C-SETUP-4, as Q-SETUP-3: the seed decides, as a die would
            tx.set_player(seat, gender=GENDERS[tx.below(len(GENDERS))])
    dungeons.setup(tx)  # C-PACK-7: last, so a game without the pack is the same as before it
    return tx.commit()
