"""Setting up a game (Q-SETUP)."""
from __future__ import annotations

from dataclasses import dataclass

from mq.cards import CardSet, load_default
from mq.rules import draws
from mq.rules.errors import IllegalAction
from mq.rules.state import Deck, Params, Player, Room, State
from mq.rules.tx import Draws, Tx

MIN_PLAYERS, MAX_PLAYERS = 2, 6  # Q-OPT-4
GENDERS = ("male", "female")
# A seat's gender choice (Q-SETUP-3): one of GENDERS, or ROLLED: the game's seed decides it as the
# game is set up (bots, and players who leave it to chance).
ROLLED = "rolled"
GENDER_CHOICES = (*GENDERS, ROLLED)


@dataclass(frozen=True)
class TableRules:
    """What a mode's table options may be, and how a refusal says so (with the rule it cites):
    one checker, ``check_table``, serves both modes."""

    name: str  # how a refusal names the game
    genders: tuple[str, ...]  # the gender words a seat may choose
    genders_said: str
    start_cards: tuple[int, ...]  # the starting hands the mode offers
    start_said: str
    timer_rule: str  # the rule of the interrupt window timer ...
    away_rule: str  # ... and of a disconnected seat


QUEST_TABLE = TableRules("mq", GENDER_CHOICES, "one gender per player: male, female or rolled (Q-SETUP-3)",
                         (3, 4), "starting hands are 3 or 4 of each deck (Q-OPT-3)", "Q-OPT-1", "Q-OPT-2")


def check_table(rules: TableRules, players: int, genders: tuple[str, ...] | None, start_cards: int,
                window_ms: int, away: str, away_s: int) -> tuple[str, ...]:
    """The table options checked against a mode's ``rules`` (Q-OPT, C-OPT): an IllegalAction that
    says which one is wrong, or the seats' genders (alternating by seat when not given)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("action/malformed", f"{players} players: {rules.name} plays with 2 to 6")
    if genders is None:
        genders = tuple(GENDERS[i % 2] for i in range(players))
    if len(genders) != players or any(g not in rules.genders for g in genders):
        raise IllegalAction("action/malformed", rules.genders_said)
    if start_cards not in rules.start_cards:
        raise IllegalAction("action/malformed", rules.start_said)
    if not 0 <= window_ms <= 120_000:
        raise IllegalAction("action/malformed", f"the interrupt window timer is 0 to 120 s ({rules.timer_rule})")
    if away not in ("wait", "bot") or not 0 <= away_s <= 3600:
        raise IllegalAction("action/malformed", f"a disconnected seat is waited for or botted ({rules.away_rule})")
    return tuple(genders)


def make_params(players: int, genders: tuple[str, ...] | None = None, start_cards: int = 3,
                window_ms: int = 10_000, away: str = "wait", away_s: int = 60) -> Params:
    """Validated game parameters and table options (Q-OPT); genders (Q-SETUP-3: each a GENDER_CHOICES
    word) default to alternating by seat."""
    genders = check_table(QUEST_TABLE, players, genders, start_cards, window_ms, away, away_s)
    return Params(players=players, genders=genders, start_treasure=start_cards, start_dxm=start_cards,
                  window_ms=window_ms, away=away, away_s=away_s)


def new_game(params: Params, seed: int, cards: CardSet | None = None) -> State:
    """Q-SETUP-1..4: shuffled decks, the Entrance with four corridors, every munchkin a level-1
    human with 4 HP, 3 move, 300 gold and a starting hand of the chosen gender, and the turn order
    rolled; a ROLLED gender is rolled last (so the rest of the set-up is the same as with it chosen)."""
    cards = cards or load_default()
    if not 0 <= seed < 2**64:
        raise IllegalAction("action/malformed", "the seed is a 64-bit unsigned integer")
    players = tuple(Player(seat=i, gender=params.genders[i]) for i in range(params.players))
    empty = Deck(())
    state = State(
        params=params, rng_seed=seed, rng_n=0, order=(), players=players,
        rooms=(Room(face=cards.entrance.id, x=0, y=0, sides=(0, 0, 0, 0)),),  # Q-SETUP-2
        room_deck=empty, connector_deck=empty, monster_deck=empty, treasure_deck=empty, dxm_deck=empty,
    )
    tx = Tx(state, cards)
    tx.room_deck = Deck(tx.shuffle(tuple(t.id for t in cards.rooms)))
    tx.connector_deck = Deck(tx.shuffle(tuple(c.id for c in cards.connectors)))
    tx.decks["monster"] = Deck(tx.shuffle(tuple(c.id for c in cards.monsters)))
    tx.decks["treasure"] = Deck(tx.shuffle(tuple(c.id for c in cards.treasures)))
    tx.decks["dxm"] = Deck(tx.shuffle(tuple(c.id for c in cards.dxm)))
    for seat in range(params.players):
        for _ in range(params.start_treasure):
            draws.draw_to_hand(tx, seat, "treasure")
        for _ in range(params.start_dxm):
            draws.draw_to_hand(tx, seat, "dxm")
    tx.order = roll_order(tx, params.players)
    for seat, chosen in enumerate(params.genders):
        if chosen == ROLLED:  # Q-SETUP-3: the seed decides, as a die would
            tx.set_player(seat, gender=GENDERS[tx.below(len(GENDERS))])
    tx.events.clear()
    return tx.commit()


def roll_order(tx: Draws, n: int) -> tuple[int, ...]:
    """Q-SETUP-4: everyone rolls a d6, the tied highest re-roll; play then goes in seat order."""
    contenders = list(range(n))
    while len(contenders) > 1:
        rolls = [(tx.d6(), s) for s in contenders]
        top = max(r for r, _ in rolls)
        contenders = [s for r, s in rolls if r == top]
    first = contenders[0]
    return tuple((first + i) % n for i in range(n))
