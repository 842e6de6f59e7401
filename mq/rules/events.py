"""Events: what an action caused, for narration, the client and tests (``step`` returns them).

One small named type per kind.  Each is a tuple whose first field is its ``kind``, followed by
the fields in the order below, so an event reads by name (``e.seat``, ``e.card``) and still
equals, unpacks and prints its fields as the plain tuple it was: the events are never hashed,
logged or sent (each peer computes them by applying the log), so nothing outside the process
depends on their form.  ``Tx.event(kind, *fields)`` builds the type of ``kind`` (``TYPES``); a
test checks that every event of seeded games has exactly its type's fields.

Some fields hold a card only some seats may see: ``Draw.card`` of a face-down draw and
``Charity.card``.  ``mq.rules.view.view_events`` masks them, beside ``view`` for the state.
"""
from __future__ import annotations

from typing import NamedTuple


# -- turns and moving (Q-TURN, Q-MOVE, Q-EXPLORE) ------------------------------------------------
class Turn(NamedTuple):
    """Q-TURN-1: ``seat``'s turn ``number`` begins."""
    kind: str
    seat: int
    number: int


class Respawn(NamedTuple):
    """Q-DEATH-3: a dead munchkin comes back in the Entrance."""
    kind: str
    seat: int


class Move(NamedTuple):
    """Q-MOVE-1, 2: from ``room`` to ``dest``; ``dash``: spending all the move left."""
    kind: str
    seat: int
    room: int
    dest: int
    dash: bool


class Explore(NamedTuple):
    """Q-EXPLORE-1..3: room ``room`` (its ``face``) is placed at cell (``x``, ``y``)."""
    kind: str
    seat: int
    room: int
    face: str
    x: int
    y: int


class RoomHurts(NamedTuple):
    """Q-EXPLORE-4: entering ``room`` hurts ``seat`` (hits follow)."""
    kind: str
    seat: int
    room: int


class Search(NamedTuple):
    """Q-SEARCH-1: the dice rolled searching ``room``, and the result with its modifiers."""
    kind: str
    seat: int
    room: int
    dice: tuple[int, ...]
    result: int


class SearchFound(NamedTuple):
    """Q-SEARCH-1, 2: what the search found, and the room's mark after it."""
    kind: str
    seat: int
    gold: int
    treasures: int
    mark: int


class PickUp(NamedTuple):
    """Q-SEARCH-4: the pile of the room (cards and gold) is taken."""
    kind: str
    seat: int
    cards: tuple[str, ...]
    gold: int


class Deal(NamedTuple):
    """Q-SEARCH-5: a room's deal; ``what`` is "buy" (``gold``: the price) or "sell" (``gold``: paid)."""
    kind: str
    seat: int
    what: str
    gold: int


class BossArrives(NamedTuple):
    """Q-BOSS-1: a level-10 munchkin in the Entrance calls out the Boss."""
    kind: str
    seat: int


class GameWon(NamedTuple):
    """Q-BOSS-4: the game is over."""
    kind: str
    winners: tuple[int, ...]


class MonstersWin(NamedTuple):
    """Q-DEATH-5: every munchkin is dead: the game is over with no winner."""
    kind: str


# -- cards and decks (Q-CARD, Q-CHAR, Q-ITEM) -----------------------------------------------------
class Draw(NamedTuple):
    """A card drawn into ``seat``'s hand from ``deck``; face-down unless ``public`` (Q-SEARCH-3):
    only the drawer may see ``card`` then (``view_events``)."""
    kind: str
    seat: int
    deck: str
    card: str
    public: bool


class Reshuffle(NamedTuple):
    """Q-SETUP-1: an empty ``deck`` is rebuilt from its discards."""
    kind: str
    deck: str


class Level(NamedTuple):
    """``seat`` is now at ``level``; ``why``: "card", "bought", "kill", "heal", "bad stuff",
    "curse" or "boss"."""
    kind: str
    seat: int
    level: int
    why: str


class Race(NamedTuple):
    """Q-CHAR-4: a race card into play."""
    kind: str
    seat: int
    card: str


class Class(NamedTuple):
    """Q-CHAR-4, Q-CARD-5: a class card (or Half-Breed, Super Munchkin) into play."""
    kind: str
    seat: int
    card: str


class ItemPlayed(NamedTuple):
    """Q-CARD-3, Q-ITEM-1: an item from hand into play, at ``place``."""
    kind: str
    seat: int
    card: str
    place: str


class Equip(NamedTuple):
    """Q-TURN-3: an item in play moved to ``place``."""
    kind: str
    seat: int
    card: str
    place: str


class Discard(NamedTuple):
    """A card discarded from play (Q-CHAR-4, Q-CARD-5)."""
    kind: str
    seat: int
    card: str


class ItemLost(NamedTuple):
    """Q-ITEM-6: an item in play lost to Bad Stuff or a curse."""
    kind: str
    seat: int
    card: str


class Drop(NamedTuple):
    """Q-SEARCH-4: an item in play dropped into ``room``'s pile."""
    kind: str
    seat: int
    card: str
    room: int


class DropGold(NamedTuple):
    """Q-SEARCH-4: gold dropped into ``room``'s pile."""
    kind: str
    seat: int
    gold: int
    room: int


class Gift(NamedTuple):
    """Q-ITEM-7: an item in play (a card id) or gold (an int) given to ``to``."""
    kind: str
    seat: int
    to: int
    what: str | int


class Buy(NamedTuple):
    """Q-CHAR-3: ``items`` sold plus ``gold`` paid for a level."""
    kind: str
    seat: int
    items: tuple[str, ...]
    gold: int


class Heal(NamedTuple):
    """Q-CHAR-6: ``amount`` HP back."""
    kind: str
    seat: int
    amount: int


class Cheat(NamedTuple):
    """Q-ITEM-4: Cheat! (``card``) on ``item``."""
    kind: str
    seat: int
    card: str
    item: str


class Charity(NamedTuple):
    """Q-CHARITY: ``card`` given from ``seat``'s hand to ``to``'s: only those two may see it."""
    kind: str
    seat: int
    to: int
    card: str


class CharityDiscard(NamedTuple):
    """Q-CHARITY: the lowest-level giver discards ``card`` (face up)."""
    kind: str
    seat: int
    card: str


class Resurrect(NamedTuple):
    """Q-CHAR-5: a cleric takes ``card`` from ``deck``'s discards, discarding ``discarded``."""
    kind: str
    seat: int
    deck: str
    card: str
    discarded: str


class Power(NamedTuple):
    """Q-CHAR-5: a discard power; ``detail``: the bonus, or the backstabbed seat."""
    kind: str
    seat: int
    power: str
    detail: int


class D10(NamedTuple):
    """Q-CHAR-5: the d10 of ``power``: it works (``ok``) if ``roll`` is no more than the level."""
    kind: str
    seat: int
    power: str
    roll: int
    ok: bool


class Stolen(NamedTuple):
    """Q-CHAR-5: the thief took ``card`` (in play) from ``victim``."""
    kind: str
    seat: int
    victim: int
    card: str


# -- curses (Q-CARD-8) ----------------------------------------------------------------------------
class CursePlayed(NamedTuple):
    """A curse is played and someone may answer it before it acts."""
    kind: str
    by: int
    victim: int
    card: str


class Curse(NamedTuple):
    """A curse acts on ``victim``."""
    kind: str
    by: int
    victim: int
    card: str


class CurseCancelled(NamedTuple):
    """``card`` (a curse) is cancelled by ``shield``: a card, or "sanctuary" (Q-CHAR-5)."""
    kind: str
    seat: int
    card: str
    shield: str


# -- monsters (Q-MON, Q-MT) -----------------------------------------------------------------------
class MonsterAppears(NamedTuple):
    """Q-EXPLORE-5, Q-MON-1: monster ``uid`` (its ``card``) in ``room`` on base ``colour``
    (-1: to be chosen)."""
    kind: str
    uid: int
    card: str
    room: int
    colour: int
    boss: bool


class NoMonster(NamedTuple):
    """Both Monster piles are empty: nothing appears in ``room``."""
    kind: str
    room: int


class ColourChosen(NamedTuple):
    """Q-MON-1: ``seat`` chose base ``colour`` for monster ``uid``."""
    kind: str
    seat: int
    uid: int
    colour: int


class MonsterEvicted(NamedTuple):
    """Q-MON-2: with no free base, the highest monsters leave."""
    kind: str
    uid: int
    card: str


class MonsterTurn(NamedTuple):
    """Q-MT-1: ``roller`` rolls the monster die: ``colour``."""
    kind: str
    roller: int
    colour: int


class MonsterMoves(NamedTuple):
    """Q-MT-2..8: monster ``uid`` from ``room`` to ``dest``."""
    kind: str
    uid: int
    room: int
    dest: int


class DoorSmashed(NamedTuple):
    """Q-MT-6: the connector on ``side`` of ``room`` is now a corridor."""
    kind: str
    room: int
    side: int


# -- fights (Q-COMBAT, Q-HELP, Q-RUN) -------------------------------------------------------------
class CombatStarts(NamedTuple):
    """Q-COMBAT-1..3: ``seat`` fights ``monsters`` (uids) in ``room``."""
    kind: str
    seat: int
    room: int
    monsters: tuple[int, ...]


class CombatEnds(NamedTuple):
    """The fight is over; ``result``: whether it had one (Q-COMBAT-12)."""
    kind: str
    fighter: int
    result: bool


class Enhance(NamedTuple):
    """Q-COMBAT-13: an enhancer on monster ``uid``."""
    kind: str
    seat: int
    card: str
    uid: int


class Wander(NamedTuple):
    """Q-CARD-6: a Wandering Monster card is played (the monster appears next)."""
    kind: str
    seat: int
    card: str


class Mate(NamedTuple):
    """Q-CARD-6: a Mate card on monster ``uid`` (its copy appears next)."""
    kind: str
    seat: int
    card: str
    uid: int


class Use(NamedTuple):
    """Q-COMBAT-11, Q-HELP-3: a one-shot for ``side`` ("munchkins" or "monsters")."""
    kind: str
    seat: int
    card: str
    side: str


class AskHelp(NamedTuple):
    """Q-HELP-1: the fighter asks for help."""
    kind: str
    fighter: int


class OffersHelp(NamedTuple):
    """Q-HELP-2: ``seat`` bids to help ``fighter`` for ``gold`` (negative: paying it), ``share``
    Treasure picks and ``item`` (one of the fighter's, or ""), ``first`` picking first
    (``FirstPick``: "helper" or "fighter")."""
    kind: str
    seat: int
    fighter: int
    gold: int
    share: int
    item: str
    first: str


class CounterOffer(NamedTuple):
    """Q-DIGI-3: the fighter answers ``seat``'s bid with other terms."""
    kind: str
    fighter: int
    seat: int
    gold: int
    share: int
    first: str


class CounterRefused(NamedTuple):
    """Q-DIGI-3: ``seat`` refuses the counter-offer and withdraws the bid."""
    kind: str
    seat: int
    fighter: int


class Helps(NamedTuple):
    """Q-HELP-2: the deal is made and carried out; ``seat`` joins the fight."""
    kind: str
    seat: int
    fighter: int
    gold: int
    share: int
    item: str
    first: str


class TreasureLaidOut(NamedTuple):
    """Q-HELP-2: the Treasures of a fight won with a helper who shares them lie face up, to be picked."""
    kind: str
    fighter: int
    cards: tuple


class Pick(NamedTuple):
    """Q-HELP-2: ``seat`` takes ``card`` of the Treasures laid out."""
    kind: str
    seat: int
    card: str


class NoHelp(NamedTuple):
    """Q-HELP-1: the fighter fights alone (no bid, or every bid declined)."""
    kind: str
    fighter: int


class AutoPass(NamedTuple):
    """Q-COMBAT-7, Q-DIGI-2: ``seat`` cannot act in the reaction window ``stage`` and passes."""
    kind: str
    seat: int
    stage: str


class WindowClosed(NamedTuple):
    """Q-COMBAT-7: everyone passed the interrupt window: the dice roll (or the fighter answers)."""
    kind: str
    fighter: int


class Answer(NamedTuple):
    """Q-COMBAT-7: others played cards in the window: the fighter may answer before rolling again."""
    kind: str
    fighter: int


class NoAnswer(NamedTuple):
    """Q-COMBAT-7: the fighter has answered as often as the engine allows: the dice roll."""
    kind: str
    fighter: int


class DieChanged(NamedTuple):
    """Q-COMBAT-7: ``card`` turned die ``die`` of ``side`` to ``to``."""
    kind: str
    seat: int
    card: str
    side: str
    die: int
    to: int


class CombatResult(NamedTuple):
    """Q-COMBAT-4, 8: both sides term by term with their dice, the totals and who won."""
    kind: str
    fighter: int
    terms: tuple[tuple[str, int], ...]
    dice: tuple[int, ...]
    monster_terms: tuple[tuple[tuple[str, int], ...], ...]
    monster_dice: tuple[tuple[int, ...], ...]
    total: int
    monster_total: int
    won: bool


class MonsterKilled(NamedTuple):
    """Q-COMBAT-9: monster ``uid`` is slain."""
    kind: str
    seat: int
    uid: int
    card: str


class Charmed(NamedTuple):
    """Q-CHAR-5: the wizard's Charm sends monster ``uid`` away."""
    kind: str
    seat: int
    uid: int
    card: str


class Hit(NamedTuple):
    """Q-CHAR-6: ``seat`` takes ``n`` hits, ``hp`` left."""
    kind: str
    seat: int
    n: int
    hp: int


class Death(NamedTuple):
    """Q-DEATH-1: ``seat`` dies in ``room``; ``cause``: "hits", "bad stuff" or "suicide"."""
    kind: str
    seat: int
    room: int
    cause: str


class Runs(NamedTuple):
    """Q-RUN-1: ``seat`` runs towards ``room``."""
    kind: str
    seat: int
    room: int


class Cornered(NamedTuple):
    """Q-RUN-5: nowhere to run: every Bad Stuff applies."""
    kind: str
    seat: int


class EscapeRoll(NamedTuple):
    """Q-RUN-2: ``roll`` + ``mod`` against monster ``uid``: 5 or more escapes."""
    kind: str
    seat: int
    uid: int
    roll: int
    mod: int
    escaped: bool


class BadStuff(NamedTuple):
    """Q-RUN-2: monster ``uid``'s Bad Stuff on ``seat`` (its effects follow)."""
    kind: str
    seat: int
    uid: int


class Reroll(NamedTuple):
    """The halfling's second chance: ``card`` discarded to roll the failed escape from ``uid`` again."""
    kind: str
    seat: int
    uid: int
    card: str


class MagicMove(NamedTuple):
    """Q-HELP-1: the chosen helper spends ``card`` to move into the fight's ``room`` by magic."""
    kind: str
    seat: int
    card: str
    room: int


class Teleport(NamedTuple):
    """Q-CARD-3, Q-TURN-5: outside combat, ``seat`` moves by magic (a one-shot) to ``room``."""
    kind: str
    seat: int
    room: int


class GoldLost(NamedTuple):
    """Bad Stuff or a curse takes ``gold``."""
    kind: str
    seat: int
    gold: int


class MagicEscape(NamedTuple):
    """Q-RUN-4, Q-COMBAT-12: ``seat`` leaves the fight by ``card``."""
    kind: str
    seat: int
    card: str


class Arrives(NamedTuple):
    """Q-RUN-3: a runner who got away arrives in ``room``."""
    kind: str
    seat: int
    room: int


TYPES: dict[str, type[tuple]] = {
    "turn": Turn, "respawn": Respawn, "move": Move, "explore": Explore, "room_hurts": RoomHurts,
    "search": Search, "search_found": SearchFound, "pick_up": PickUp, "deal": Deal,
    "boss_arrives": BossArrives, "game_won": GameWon, "monsters_win": MonstersWin,
    "draw": Draw, "reshuffle": Reshuffle, "level": Level, "race": Race, "class": Class,
    "item": ItemPlayed, "equip": Equip, "discard": Discard, "item_lost": ItemLost, "drop": Drop,
    "drop_gold": DropGold, "gift": Gift, "buy": Buy, "heal": Heal, "cheat": Cheat, "charity": Charity,
    "charity_discard": CharityDiscard, "resurrect": Resurrect, "power": Power, "d10": D10, "stolen": Stolen,
    "curse_played": CursePlayed, "curse": Curse, "curse_cancelled": CurseCancelled,
    "monster_appears": MonsterAppears, "no_monster": NoMonster, "colour_chosen": ColourChosen,
    "monster_evicted": MonsterEvicted, "monster_turn": MonsterTurn, "monster_moves": MonsterMoves,
    "door_smashed": DoorSmashed,
    "combat_starts": CombatStarts, "combat_ends": CombatEnds, "enhance": Enhance, "wander": Wander,
    "mate": Mate, "use": Use, "asks_help": AskHelp, "offers_help": OffersHelp,
    "counter_offer": CounterOffer, "counter_refused": CounterRefused, "helps": Helps, "no_help": NoHelp,
    "treasure_laid_out": TreasureLaidOut, "pick": Pick,
    "auto_pass": AutoPass, "window_closed": WindowClosed, "answer": Answer, "no_answer": NoAnswer,
    "die_changed": DieChanged,
    "combat_result": CombatResult, "monster_killed": MonsterKilled, "charmed": Charmed, "hit": Hit,
    "death": Death, "runs": Runs, "cornered": Cornered, "escape_roll": EscapeRoll, "bad_stuff": BadStuff,
    "reroll": Reroll, "magic_move": MagicMove, "teleport": Teleport, "gold_lost": GoldLost, "magic_escape": MagicEscape, "arrives": Arrives,
}

_new = tuple.__new__


def make(fields: tuple) -> tuple:
    """The event of kind ``fields[0]`` with these fields (unknown kind: KeyError).  Built as the
    tuple itself, without the named constructor's argument binding: ``step`` makes one or two
    events per action, and tests/test_rules_events.py checks every field count."""
    return _new(TYPES[fields[0]], fields)
