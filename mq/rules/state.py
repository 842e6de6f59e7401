"""The game state: small immutable nodes (mq.rules.node) holding only plain data.

Invariants:
- Everything is a tuple, int, str, bool, None or another node; no dicts, sets or floats.
- Cards are referred to by id (mq.cards); rooms by their placement index (0 = the Entrance);
  monsters by a uid that is never reused; seats 0..n-1 and seat i plays colour i (Q-COMP-5).
- Hidden information (hands, deck order, the RNG seed) lives here too; only mq.rules.view may
  decide who sees it (Q-DIGI-4).
"""
from __future__ import annotations

from typing import ClassVar, Generic, TypeVar

from mq.rules.errors import IllegalAction
from mq.rules.node import Node, node

COLOURS = ("red", "green", "blue", "yellow", "purple", "orange")  # Q-COMP-5, monster die order
DIRS = ("north", "east", "south", "west")
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)

# Item places (Q-ITEM-1).
WORN, CARRIED, BELT, BACKPACK = "worn", "carried", "belt", "backpack"

# Room marks (Q-SEARCH-1, 2).
UNMARKED, SEARCHED, LOOTED = 0, 1, 2

# Top-level phases.
SETUP, TURN, OVER = "setup", "turn", "over"


class Stage:
    """The stages of a fight (``Combat.stage``, described there)."""

    PREPARE = "prepare"
    WINDOW = "window"
    OUTCOME = "outcome"
    HELP = "help"
    RUN = "run"
    ESCAPE = "escape"
    REROLL = "reroll"


class FirstPick:
    """Who picks first among a won fight's Treasures: part of a deal for help (Q-HELP-2)."""

    HELPER = "helper"
    FIGHTER = "fighter"


class PendingKind:
    """The kinds of decision a seat must take before the game goes on (``Pending.kind``)."""

    COLOUR = "colour"
    LOSE_ITEM = "lose_item"
    CHARITY = "charity"
    CURSE = "curse"
    RESURRECT = "resurrect"
    PICK = "pick"


@node
class Params(Node):
    """Game parameters every peer agrees on (part of the hash; Q-OPT).  The mode is the node's
    type (a Classic game's parameters are mq.classic.state.ClassicParams), so it is in the hash."""

    mode: ClassVar[str] = "quest"

    players: int
    genders: tuple[str, ...]
    start_treasure: int = 3  # Q-OPT-3
    start_dxm: int = 3
    hand_limit: int = 5  # Q-CHARITY
    window_ms: int = 10_000  # Q-OPT-1: interrupt window timer for humans (bots never wait)
    away: str = "wait"  # Q-OPT-2, Q-DIGI-5: "wait" for a disconnected player, or "bot" after away_s seconds
    away_s: int = 60


@node
class Item(Node):
    """A card in play and where it is (Q-ITEM-1)."""

    card: str
    place: str
    cheat: str = ""  # a Cheat! card on it (Q-ITEM-4): no restrictions, no hands needed


@node
class Player(Node):
    """A munchkin and the tokens of their seat (Q-COMP-7): HP, move (derived), gold, level."""

    seat: int
    gender: str
    level: int = 1
    hp: int = 4  # red tokens left (Q-CHAR-6)
    max_hp: int = 4  # tokens owned before item bonuses
    gold: int = 300
    room: int = 0
    alive: bool = True
    hand: tuple[str, ...] = ()
    races: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    hybrids: tuple[str, ...] = ()  # Half-Breed / Super Munchkin cards in play (Q-CARD-5)
    items: tuple[Item, ...] = ()
    ready: bool = False  # Q-SETUP-3: done putting cards into play before the first turn
    cursed: int = 0  # strength change waiting for this munchkin's next fight (Q-CARD-8)
    curses: tuple[str, ...] = ()  # lasting curse cards on this munchkin, until removed (Q-CARD-8)
    fresh: tuple[str, ...] = ()  # Treasure drawn into the hand this turn (anyone's): it may go into play
    # outside combat on anyone's turn (Q-CARD-3, Q-TURN-3); cleared when the next turn starts


@node
class Room(Node):
    """A placed room face at a grid cell with its four connector kinds (docs/core.md)."""

    face: str
    x: int
    y: int
    sides: tuple[int, int, int, int]
    mark: int = UNMARKED
    pile: tuple[str, ...] = ()  # dropped item cards (Q-SEARCH-4)
    pile_gold: int = 0


@node
class Monster(Node):
    uid: int
    card: str
    room: int
    colour: int  # base colour = owner and target (Q-MON-3)
    boss: bool = False
    enhancers: tuple[str, ...] = ()  # enhancer cards on it; they stay while it survives (Q-COMBAT-13)
    mate: str = ""  # the Mate card that brought it: it fights as a copy of ``card`` (Q-CARD-6)
    standee: str = ""  # the size of the figure it stands on (Q-COMP-4; mq.rules.monsters.standee_for)


@node
class Deck(Node):
    """A draw pile (top = index 0) and its face-up discard pile (Q-SETUP-1)."""

    draw: tuple[str, ...]
    discard: tuple[str, ...] = ()


@node
class Turn(Node):
    seat: int
    number: int
    spent: int = 0  # move spent (Q-MOVE-3)
    dashed: bool = False  # the once-per-turn spend-all crossing was used (Q-MOVE-2)
    searched: tuple[int, ...] = ()  # rooms searched this turn (Q-SEARCH-1)
    summon_room: int = -1  # Q-EXPLORE-7: the monster-free room just entered, once complete
    free_pickup: int = -1  # Q-SEARCH-4: a search's free pick-up, owed after the fight it caused
    double_sale: bool = False  # a halfling's once-per-turn double-value sale was used (Q-CHAR-4)
    stole: bool = False  # the thief's once-per-turn steal was tried (Q-CHAR-5)
    deals: tuple[int, ...] = ()  # rooms whose deal was made this turn (Q-SEARCH-5)
    over: bool = False  # the turn ended in this action (death, Q-DEATH-1; cornered, Q-RUN-5): the monster turn comes next


@node
class Combat(Node):
    """A fight in progress (Q-COMBAT).  Stages:
    ``prepare``  the fighter may use one-shots, then declares rolling;
    ``window``   the interrupt window (Q-COMBAT-7, Q-DIGI-2): ``waiting`` seats must act or pass;
                 a card played there gives everyone else a new chance to answer; when it closes
                 after another player's card (``interfered``), the fighter answers in ``prepare``
                 and declares rolling again (at most ANSWER_ROUNDS times, ``answers``);
    ``outcome``  the dice are rolled; ``waiting`` are the seats holding a card that may be used
                 after the roll (a die changer); when they have passed, the result applies;
    ``help``     the fighter asked for help: ``waiting`` seats may offer (``offers``: (seat, gold,
                 Treasure picks, one of the fighter's items in play or "", who picks first,
                 ``FirstPick``); negative gold: the helper pays it) or pass; then the fighter
                 accepts one offer, declines, or makes a counter-offer to one bidder (an entry
                 under the fighter's own seat; that bidder alone waits, to accept it, bid again or
                 pass); until a bid is accepted its bidder may change it (``rebids``, bounded)
                 (Q-HELP-1, 2, Q-DIGI-3);
    ``run``      the munchkins lost; ``runner`` chooses where to run (Q-RUN-1) or a magic escape;
    ``escape``   ``runner`` rolls against each monster in ``to_escape`` in an order they choose;
    ``reroll``   a halfling runner's first escape roll of the fight failed (against ``failed``): they
                 may discard a card to roll it again, or pass and take its Bad Stuff (the halfling
                 card's text, mq/data/dxm.toml); then ``escape`` goes on.
    The fighter runs first, then the helper, each on their own (Q-HELP-4); ``dests`` records where
    each runner will arrive once all are done.
    """

    fighter: int
    room: int
    monsters: tuple[int, ...]
    boss: bool = False
    stage: str = Stage.PREPARE
    waiting: tuple[int, ...] = ()
    bonus: int = 0  # one-shot bonuses for the munchkin side
    monster_bonus: int = 0  # one-shot bonuses others played for the monsters (Q-HELP-3)
    used: tuple[str, ...] = ()  # one-shots played in this fight (Q-COMBAT-12) ...
    used_by: tuple[int, ...] = ()  # ... and who played each
    owed: tuple[tuple[int, int], ...] = ()  # (seat, Treasures) of monsters sent away mid-fight (Q-COMBAT-12)
    helper: int = -1  # Q-HELP-1: at most one
    share: int = 0  # Treasures the helper takes when the fight is won (Q-HELP-2) ...
    first: str = FirstPick.HELPER  # ... and who picks first among them, as the deal says
    asked: bool = False  # help was asked for once already in this fight
    offers: tuple[tuple[int, int, int, str, str], ...] = ()  # (seat, gold, picks, item in play or "", first pick)
    runner: int = -1
    run_to: int = -1
    to_escape: tuple[int, ...] = ()
    run_bonus: int = 0
    failed: int = -1  # the monster a halfling's failed first escape roll was against (``reroll``)
    dests: tuple[tuple[int, int], ...] = ()  # (seat, room) of runners who got away
    cornered: bool = False  # the fighter had nowhere to run: their turn ends (Q-RUN-5)
    powers: tuple[str, ...] = ()  # class powers used in this fight, "seat:power[:target]" (Q-CHAR-5)
    my_dice: tuple[int, ...] = ()  # the dice as rolled (and changed) in the ``outcome`` stage
    their_dice: tuple[tuple[int, ...], ...] = ()
    extra_dice: int = 0  # extra munchkin dice from powers
    rounds: int = 0  # calls for help and counter-offers made in this fight (Q-HELP-2), bounded
    rebids: int = 0  # bids changed unasked before one was accepted (Q-HELP-2), bounded
    interfered: bool = False  # another player played a card in the open interrupt window (Q-COMBAT-7) ...
    answers: int = 0  # ... and the times the fighter went back to answer such cards, bounded


@node
class Pending(Node):
    """A decision one seat must take before the game goes on.

    ``colour``    pick a base colour for monster ``data[0]`` (Q-MON-1);
    ``lose_item`` pick an item to lose (Q-ITEM-6); ``data`` = (source kind "monster"/"curse",
                  monster uid or curse card, index of the effect, items still to lose);
    ``charity``   give or discard excess cards (Q-CHARITY), or first play race, class, item and
                  one-shot cards (onto the belt); ``data`` = gifts so far per recipient;
    ``curse``     a curse was played (Q-CARD-8): its victim, then each other cleric in the
                  victim's room in turn, may answer with one of ``options`` (a card that cancels
                  curses — the victim only —, "sanctuary" for a cleric) or "accept";
                  ``data`` = (curse card, who played it, victim);
    ``resurrect`` a cleric's face-down draw was put off (Resurrection, Q-CHAR-5): ``options`` =
                  "draw" (as usual) or a card of the hand to discard for the top card of that
                  deck's discard pile; ``data`` = (deck kind, that top card, the draws still owed
                  as (seat, deck kind) pairs);
    ``pick``      a fight won with a helper whose deal shares its Treasures: they lie face up
                  (``options``) and the two pick one at a time, the deal's first picker first
                  (Q-HELP-2); ``data`` = ((seat, picks still due), (seat, picks still due)).
    """

    seat: int
    kind: str
    options: tuple = ()
    data: tuple = ()


_T = TypeVar("_T", bound=Node)
_C = TypeVar("_C", bound=Node)
_P = TypeVar("_P", bound=Node)


class Current(Generic[_T, _C, _P]):
    """The parts of a game that exist only at times: the turn (not in setup), a fight, a pending
    decision.  A rule that runs only while one exists reads it here, typed as present; where it
    is absent that is said in words (an IllegalAction) instead of failing on None.  Each mode's
    state and transaction (mq.rules.tx.Tx, mq.classic.tx.Tx) share these reads, with the mode's
    own node types."""

    turn: _T | None
    combat: _C | None
    pending: _P | None

    @property
    def current_turn(self) -> _T:
        t = self.turn
        if t is None:
            raise IllegalAction("phase/wrong", "no turn is in progress")
        return t

    @property
    def fight(self) -> _C:
        c = self.combat
        if c is None:
            raise IllegalAction("combat/none")
        return c

    @property
    def decision(self) -> _P:
        p = self.pending
        if p is None:
            raise IllegalAction("phase/wrong", "no decision is pending")
        return p


@node
class State(Node, Current[Turn, Combat, Pending]):
    params: Params
    rng_seed: int
    rng_n: int
    order: tuple[int, ...]  # turn order of seats (Q-SETUP-4)
    players: tuple[Player, ...]
    rooms: tuple[Room, ...]
    room_deck: Deck  # tile ids; discard unused
    connector_deck: Deck  # connector ids; discard unused
    monster_deck: Deck
    treasure_deck: Deck
    dxm_deck: Deck
    monsters: tuple[Monster, ...] = ()
    next_uid: int = 1
    phase: str = SETUP
    turn: Turn | None = None
    combat: Combat | None = None
    pending: Pending | None = None
    winners: tuple[int, ...] = ()
    last_colour: int = -1  # the last monster-die colour of a monster turn (Q-MT-1)
