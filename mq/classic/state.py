"""The Classic game state (CLASSIC.md): small immutable nodes (mq.rules.node) of plain data.

Invariants (as Quest's mq.rules.state):
- Everything is a tuple, int, str, bool, None or another node; no dicts, sets or floats.
- Cards are referred to by id (mq.cards.classic_defs); seats are 0..n-1; a monster of a combat by
  its index in ``Combat.monsters`` (monsters never leave that tuple during the combat: one taken
  out is marked ``out``).
- Hidden information (hands, deck order, the RNG seed) lives here too; only mq.classic.view decides
  who sees it (C-DIGI-4).
- The mode is part of the parameters, so of the hash: a Classic state's parameters are a
  :class:`ClassicParams` node, whose tag the digest covers.
"""
from __future__ import annotations

from typing import ClassVar

from mq.rules.node import Node, node
from mq.rules.state import Current, Deck

CLASSIC = "classic"
WIN_LEVEL, EPIC_WIN_LEVEL = 10, 20  # C-WIN-1, C-EPIC-1


class Phase:
    """Where the game is (``ClassicState.phase``: setup, play or over, C-SETUP-5) and where a turn
    is (``Turn.phase``: kick, trouble, end, C-TURN-1, then the turn-end window of C-DIGI-2 f)."""

    SETUP = "setup"
    PLAY = "play"  # the game's phase between setup and the end; the turn's phase is Turn.phase
    KICK = "kick"  # (1) kick open the door
    TROUBLE = "trouble"  # (2) look for trouble or (3) loot the room: no monster met
    END = "end"  # after the combat or the loot: play cards, sell, then end the turn (4, charity)
    CLOSING = "closing"  # the turn has ended: the turn-end window for the others (C-DIGI-2 f)
    OVER = "over"


class Stage:
    """The stages of a combat (C-COMBAT-8, C-HELP-1, C-RUN)."""

    PREPARE = "prepare"  # the main fighter plays cards, asks for help, accepts an offer, resolves
    HELP = "help"  # the others answer a call for help: an offer or a pass
    WINDOW = "window"  # the last-chance window (C-COMBAT-8): every other seat plays or passes
    RUN = "run"  # the munchkin side lost: each runner rolls per monster (C-RUN)


class Out:
    """How a monster left its combat early (C-COMBAT-7); "" while it is still fought."""

    KILLED = "killed"  # levels and Treasure if the combat is won
    DEFEATED = "defeated"  # Treasure only
    AWAY = "away"  # no reward
    PET = "pet"  # taken as an epic human's pet (C-EPIC-6): no reward, the card is the pet now
    STEED = "steed"  # tamed by a ranger (C-PACK-6): no reward, the card is their steed now


class PendingKind:
    """A decision one seat must take before the game goes on (C-DIGI-5)."""

    LOSE_ITEM = "lose_item"  # which item in play to lose (C-ITEM-8)
    LOSE_HAND = "lose_hand"  # which card of the hand to discard (Bad Stuff, curses)
    LOOT = "loot"  # which card of a body to take (C-DEATH-2)
    CHARITY = "charity"  # the excess cards: give or discard (C-CHARITY)
    SEARCH = "search"  # which card of a discard pile to take (a special's search_discards)
    LUCK = "luck"  # which Treasure drawn for the combat the bard discards (C-PACK-4, C-EPIC-10)
    BIG = "big"  # which big item over the limit to give up (C-ITEM-4)
    SALVAGE = "salvage"  # a cleric's face-down draw: draw, or a card of the hand for the top discard (C-CHAR-5)
    BIG_GIFT = "big_gift"  # the big items given up, off one's turn: give them as charity gives cards (C-ITEM-4)
    PORTAL = "portal"  # the dungeon a portal turned up (``arg``): which active one it replaces, or joining (C-PACK-7)
    PICK = "pick"  # which Treasure card laid out after a helped win to take (C-HELP-3, mq.classic.picks)


class Picks:
    """Who picks first among a helped win's Treasure cards (C-HELP-3, C-DIGI-3: part of a deal)."""

    HELPER = "helper"  # the helper picks all of their share first, the fighter takes the rest
    FIGHTER = "fighter"  # the fighter picks all of theirs first, the helper takes the rest
    TURNS = "turns"  # one card each in turn, the helper first, while both are due one


@node
class ClassicParams(Node):
    """Game parameters and table options every peer agrees on (C-OPT; part of the hash)."""

    mode: ClassVar[str] = CLASSIC

    players: int
    genders: tuple[str, ...]  # C-OPT-7, C-SETUP-4
    start_door: int = 4  # C-OPT-2, C-SETUP-3: 4 + 4 or 2 + 2
    start_treasure: int = 4
    epic: bool = False  # C-OPT-3
    packs: tuple[str, ...] = ()  # C-OPT-4: pack names in mq.cards.classic_packs.PACKS order
    windows: int = 5  # C-OPT-6: last-chance windows the fighter may answer
    window_ms: int = 10_000  # C-OPT-5 (as Q-OPT-1)
    away: str = "wait"  # C-OPT-5, C-DIGI-6 (as Q-OPT-2)
    away_s: int = 60

    @property
    def win_level(self) -> int:  # C-WIN-1, C-WIN-3
        return EPIC_WIN_LEVEL if self.epic else WIN_LEVEL


class DealKind:
    """What a deal in a combat buys (mq.classic.deals, C-DIGI-3, C-HELP-1, 3, 7)."""

    HELP = "help"  # the main fighter's terms for helping them
    HELPER = "helper"  # help offered for terms (a share, an item of the fighter's)
    ABSTAIN = "abstain"  # an item for not helping in this combat


@node
class Deal(Node):
    """An offer from ``by`` to ``to`` in a combat (DealKind ``what``); its terms: a card in play
    (``item``, "" for none: an item, steed or hireling, C-PACK-5) and ``share`` of the Treasure
    cards for the helper, picked in ``order`` (Picks); it binds once ``to`` accepts it (C-HELP-3)."""

    by: int
    to: int
    what: str
    item: str
    won_only: bool = False  # the item passes only if the combat is won
    share: int = 0
    order: str = Picks.HELPER


@node
class CItem(Node):
    """An item in play (C-ITEM-1): in use or not; a Cheat! card on it (C-ITEM-5)."""

    card: str
    in_use: bool
    cheat: str = ""
    fresh: bool = False  # received from another player: not sold before the receiver's next turn (C-ITEM-6)
    over: bool = False  # a big item over the limit, given up: not in use, sold or given after the combat (C-ITEM-4)


@node
class CPlayer(Node):
    """A munchkin: level, the cards in play, the hand, and whether dead until their next turn."""

    seat: int
    gender: str
    level: int = 1
    hand: tuple[str, ...] = ()
    races: tuple[str, ...] = ()  # race cards in play (two only with a Half-Breed, C-CHAR-7)
    classes: tuple[str, ...] = ()  # class cards in play (two only with a Super Munchkin, C-CHAR-8)
    halfbreed: str = ""  # the Half-Breed card in play, if any
    supermunchkin: str = ""
    items: tuple[CItem, ...] = ()
    curses: tuple[str, ...] = ()  # lasting curses in play on this munchkin (C-CARD-8)
    next_combat: tuple[str, ...] = ()  # next-combat curses waiting for this munchkin's next combat
    pet: str = ""  # an epic human's pet, a monster card face-up before them (C-EPIC-6)
    shown: tuple[int, ...] = ()  # the seats this hand is shown to until the turn ends (C-ITEM-10)
    steed: str = ""  # one steed in play (C-PACK-5): a steed card, or a tamed monster (C-PACK-6, C-EPIC-14)
    hireling: str = ""  # one hireling in play (C-PACK-5)
    dead: bool = False  # C-DEATH-3: until the start of their next turn
    ready: bool = False  # C-SETUP-5


@node
class CMonster(Node):
    """A monster of a combat: its card (for a Mate, the card it copies, C-COMBAT-5), the enhancers
    played on it (C-COMBAT-6), and how it left the combat early, if it did (C-COMBAT-7)."""

    card: str
    enhancers: tuple[str, ...] = ()
    mate: str = ""  # the Mate card, when this monster is a copy
    of: int = -1  # a Mate: the index of the monster it copies (whose enhancers it shares)
    out: str = ""


@node
class Combat(Node):
    """A combat (C-COMBAT). ``extra`` holds (seat, amount) strength changes of single munchkins
    (berserk discards, backstabs, next-combat curses); ``used`` names powers used, as
    (seat, what) pairs, for their per-combat limits; ``played`` the one-shots and combat specials
    as (seat, card), for C-COMBAT-13."""

    fighter: int
    stage: str = Stage.PREPARE
    monsters: tuple[CMonster, ...] = ()
    helper: int = -1  # joined under an accepted deal, whose terms share the Treasure (C-HELP-3)
    asked: tuple[int, ...] = ()  # the seats asked for help since the last window, in order (C-HELP-1)
    waiting: tuple[int, ...] = ()  # seats still to answer the call or the window
    card_played: bool = False  # a card was played in the current window
    windows: int = 0  # last-chance windows opened so far (C-COMBAT-8, C-OPT-6)
    munchkin_bonus: int = 0  # one-shots on the munchkin side
    monster_bonus: int = 0  # one-shots on the monster side
    extra: tuple[tuple[int, int], ...] = ()
    used: tuple[tuple[int, str], ...] = ()
    played: tuple[tuple[int, str], ...] = ()
    runners: tuple[int, ...] = ()  # C-RUN: the seats still to run, the current one first
    rolled: tuple[int, ...] = ()  # monsters the current runner has rolled against or escaped
    boost: int = 0  # the current runner's extra to every run-away roll (one-shots, escape boost)
    die: tuple[int, ...] = ()  # (monster, roll) of a run-away roll in its die window (C-DIGI-2 c)
    proposed: tuple[Deal, ...] = ()  # open offers of deals (mq.classic.deals)
    deals: tuple[Deal, ...] = ()  # accepted deals, carried out when the combat is over
    dealt: tuple[tuple[int, int], ...] = ()  # (by, to): one unasked offer per pair a combat (our rule: bounded)


@node
class CurseCast(Node):
    """A curse on its way (C-CARD-8): the curse window in which others may cancel it."""

    card: str
    by: int  # -1: kicked open from the deck
    victim: int
    waiting: tuple[int, ...] = ()


@node
class Claim(Node):
    """C-EPIC-14, C-DIGI-2 (e): monster cards discarded while an epic ranger is at the table; once
    the game is at rest (``open``), the claim window in which such rangers may take one as steed."""

    cards: tuple[str, ...]
    waiting: tuple[int, ...] = ()
    open: bool = False


@node
class Effect(Node):
    """A Bad Stuff or curse effect still to act on ``seat`` (queued: one may wait for a choice)."""

    seat: int
    name: str
    n: int = 0
    arg: str = ""


@node
class Body(Node):
    """A dead munchkin's cards, laid out to be looted (C-DEATH-2); ``looters`` still to take one."""

    seat: int
    cards: tuple[str, ...]
    looters: tuple[int, ...] = ()
    started: bool = False  # the looters' order has been rolled


@node
class Pending(Node):
    """A decision ``seat`` must take (``PendingKind``); ``n`` is how many more picks it needs;
    ``gifts`` the (seat, cards given) counts of a charity, for the even split (C-CHARITY-1), or
    the (seat, cards due) of a helped win's share (C-HELP-3) and ``order`` its Picks."""

    kind: str
    seat: int
    n: int = 1
    arg: str = ""
    gifts: tuple[tuple[int, int], ...] = ()
    order: str = ""


@node
class Trade(Node):
    """An open offer of a trade (mq.classic.trades, C-ITEM-6): ``by`` gives the items ``gives`` of
    their play for the items ``takes`` of ``to``'s play, once ``to`` accepts."""

    by: int
    to: int
    gives: tuple[str, ...]
    takes: tuple[str, ...]


@node
class Turn(Node):
    seat: int
    number: int
    phase: str = Phase.KICK
    doubled: int = 0  # items sold at double value this turn (C-CHAR-4)
    picked: bool = False  # an epic thief's pickpocket used this turn (C-EPIC-12)
    waiting: tuple[int, ...] = ()  # the seats the turn-end window still waits for (Phase.CLOSING)
    trades: tuple[Trade, ...] = ()  # open offers of trades (C-ITEM-6): they lapse when the turn ends
    offered: tuple[tuple[int, int], ...] = ()  # (by, to): one offer of a trade per pair a turn (our rule: bounded)


@node
class ClassicState(Node, Current[Turn, Combat, Pending]):
    params: ClassicParams
    rng_seed: int
    rng_n: int
    order: tuple[int, ...]
    players: tuple[CPlayer, ...]
    door: Deck
    treasure: Deck
    phase: str = Phase.SETUP
    turn: Turn | None = None
    combat: Combat | None = None
    curse: CurseCast | None = None
    queue: tuple[Effect, ...] = ()
    bodies: tuple[Body, ...] = ()
    pending: Pending | None = None
    winners: tuple[int, ...] = ()
    claim: Claim | None = None  # C-EPIC-14

    # C-PACK-7: without the dungeons pack there is no dungeon deck and no active dungeon; a game with
    # it has a DungeonState, whose fields these are (so a game without it keeps its fields and hash).
    @property
    def dungeons(self) -> Deck:
        return _NO_DUNGEONS

    @property
    def active(self) -> tuple[str, ...]:
        return ()


_NO_DUNGEONS = Deck(())


@node
class DungeonState(ClassicState):
    """A Classic state with the dungeons pack (C-PACK-7): the dungeon deck and the active dungeons
    (at most two, the first turned up first)."""

    dungeons: Deck = _NO_DUNGEONS
    active: tuple[str, ...] = ()


NODE_TYPES: dict[str, type[Node]] = {cls.__name__: cls for cls in (ClassicParams, Deal, CItem, CPlayer, CMonster, Combat, CurseCast,
                                            Effect, Body, Pending, Trade, Turn, ClassicState, Deck, Claim,
                                            DungeonState)}
