"""The closed vocabularies of the card data (RULES Q-DATA-2) and the effect schemas.

Everything a data file may say is listed here; the loader rejects any other word. The engine
implements exactly the effects of :data:`EFFECTS` (name, parameters, where they may appear): adding
an effect here without engine code for it would let data ask for behaviour nobody implements, so
new effects are added together with their implementation. docs/data.md documents every list.

Invariants:
- All lists are tuples in a fixed order; codes that the engine and ``mq.core`` use as ints are the
  index in their tuple (``COLOURS``, ``DIRECTIONS``, ``CONNECTOR_KINDS``).
- No word is in two of the lists races/classes/genders, and no monster keyword is a size or a
  movement (those are fields of their own), so a bare word always means one thing.
"""
from __future__ import annotations

from dataclasses import dataclass

# --- board --------------------------------------------------------------------------------------

# Q-COMP-5: the faces of the monster die, in seat order; a colour's code is its index.
COLOURS = ("red", "green", "blue", "yellow", "purple", "orange")
# docs/core.md: 0 N (y-1), 1 E (x+1), 2 S (y+1), 3 W (x-1). Rooms are never rotated (Q-EXPLORE-1).
DIRECTIONS = ("N", "E", "S", "W")
NO_ARROW = -1
# Q-COMP-3: a connector's kind code is its index (docs/core.md); every connector's front is a
# corridor, its back one of the other four.
CONNECTOR_KINDS = ("corridor", "door", "locked", "secret", "wall")
CONNECTOR_BACKS = CONNECTOR_KINDS[1:]
SEARCH_MIN, SEARCH_MAX = -2, 2  # Q-SEARCH-1

# --- who a munchkin is (Q-CHAR-4) ---------------------------------------------------------------

RACES = ("human", "elf", "dwarf", "halfling")
CLASSES = ("warrior", "wizard", "thief", "cleric")
GENDERS = ("male", "female")
# Every "who" field (monster bonuses and ignores, item only/not_for, room icons, effect "who"
# parameters) takes one of these names.
WHO = RACES + CLASSES + GENDERS
# Human is the absence of a race card (Q-CHAR-4), so race cards carry only these keys.
RACE_CARD_KEYS = ("elf", "dwarf", "halfling")
ANY = "any"  # effect parameters that name a group may also say "any"

# --- monsters -----------------------------------------------------------------------------------

SIZES = ("tiny", "small", "human", "huge")  # Q-COMP-4 standee sizes
STANDEES_MAX = 99  # of one size (the box has 8 / 8 / 14 / 8)
MONSTERS_ON_BOARD_MAX = 3 * len(COLOURS)  # Q-MON-2: 3 bases per colour, so the standees must be at least this
MOVEMENTS = ("normal", "fast", "slow", "lurking", "backwards")  # Q-MT-3
PASSABLE = ("locked", "secret", "wall")  # connectors a "special" monster may also cross (Q-MT-3)

# What a monster is. Rooms, items and (later) class powers key rules on these.
MONSTER_KINDS = (
    "undead",  # clerics' favourite customers
    "dragon",
    "demon",
    "beast",  # animals, natural or otherwise
    "insect",
    "plant",
    "fungus",
    "ooze",
    "goblinoid",  # goblins, kobolds, orcs and their cousins
    "giant",  # trolls, ogres and other oversized people
    "construct",  # golems, animated objects, machinery
    "elemental",
    "humanoid",  # people with jobs, mostly bad ones
    "bureaucrat",  # the true horror of the dungeon
    "aquatic",
)
# What a monster can do.
MONSTER_ABILITIES = (
    "fire",
    "cold",
    "flying",
    "poison",
    "acid",
    "magic",
    "stinky",
)
MONSTER_KEYWORDS = MONSTER_KINDS + MONSTER_ABILITIES

LEVEL_MIN, LEVEL_MAX = 1, 20
DICE_MIN, DICE_MAX = 0, 3  # Q-COMBAT-5
TREASURE_MAX = 6
RUNAWAY_MIN, RUNAWAY_MAX = -5, 5
BONUS_MIN, BONUS_MAX = -10, 10

# --- treasure -----------------------------------------------------------------------------------

class CardKind:
    """The names of the card kinds (a Treasure or DxM card's ``kind``); the engine tests a card's
    kind against these, never against a bare string."""

    ITEM = "item"
    ONESHOT = "oneshot"
    LEVEL = "level"
    RACE = "race"
    CLASS = "class"
    ENHANCER = "enhancer"
    WANDERING = "wandering"
    CURSE = "curse"
    HALFBREED = "halfbreed"
    SUPERMUNCHKIN = "supermunchkin"
    CHEAT = "cheat"
    MATE = "mate"


TREASURE_KINDS = (CardKind.ITEM, CardKind.ONESHOT, CardKind.LEVEL)
# Q-ITEM-1: head/armour/feet are the single worn slots; accessories and clothing are worn without
# limit; "hands" items are carried (1 or 2 hands); "belt" items take no slot and no hand.
SLOTS = ("head", "armour", "feet", "hands", "accessory", "clothing", "belt")
# Slots a "lose_slot" Bad Stuff can name: the ones holding exactly one worn/carried thing per
# place, so "lose your headgear" means one definite item (Q-ITEM-6); "hands" = a carried item.
LOSABLE_SLOTS = ("head", "armour", "feet", "hands")
ITEM_KEYWORDS = (
    "weapon",
    "shield",
    "sharp",
    "blunt",
    "magic",
    "holy",
    "fire",
    "cold",
    "potion",
    "scroll",
    "food",
    "shiny",
    "flying",  # an ability: the munchkin flies while the item works (Q-DATA-1; rooms may hurt flyers)
)
ITEM_BONUS_MIN, ITEM_BONUS_MAX = -5, 10
VALUE_MIN, VALUE_MAX = 0, 5000

# --- DxM ----------------------------------------------------------------------------------------

DXM_KINDS = (CardKind.RACE, CardKind.CLASS, CardKind.LEVEL, CardKind.ONESHOT, CardKind.ENHANCER,
             CardKind.WANDERING, CardKind.CURSE, CardKind.HALFBREED, CardKind.SUPERMUNCHKIN, CardKind.CHEAT,
             CardKind.MATE)

COUNT_MAX = 20  # copies one entry may expand to

# --- effects ------------------------------------------------------------------------------------

# Where an effect may appear; each is one field of one kind of entry.
ROOM = "room"  # rooms.toml face `effects`
REWARD = "reward"  # monsters.toml `rewards`
BAD_STUFF = "bad_stuff"  # monsters.toml `bad_stuff`
ITEM = "item"  # treasure.toml `effects` of kind "item"
ONESHOT = "oneshot"  # treasure.toml `effects` of kind "oneshot"
DXM_ONESHOT = "dxm_oneshot"  # dxm.toml `effects` of kind "oneshot"
ENHANCER = "enhancer"  # dxm.toml `effects` of kind "enhancer"
CURSE = "curse"  # dxm.toml `effects` of kind "curse"
CONTEXTS = (ROOM, REWARD, BAD_STUFF, ITEM, ONESHOT, DXM_ONESHOT, ENHANCER, CURSE)

INT, STR, BOOL, STRS = "int", "str", "bool", "strs"  # parameter types (STRS = tuple of str)
COND = "condition"  # a condition on a munchkin or "any" (mq.cards.conditions, Q-COMBAT-6)


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of an effect: its type and the values it accepts."""

    key: str
    type: str  # INT | STR | BOOL | STRS | COND
    lo: int | None = None  # INT: inclusive range
    hi: int | None = None
    nonzero: bool = False  # INT: 0 would make the effect a no-op, so it is refused
    choices: tuple[str, ...] = ()  # STR/STRS: closed set of accepted words (empty = any word)
    doc: str = ""


@dataclass(frozen=True)
class EffectSpec:
    name: str
    params: tuple[ParamSpec, ...]  # sorted by key, like Effect.params
    contexts: tuple[str, ...]
    rule: str  # the RULES id it implements
    doc: str


def _p(key: str, type_: str, **kw) -> ParamSpec:
    return ParamSpec(key, type_, **kw)


def _amount(lo: int, hi: int, doc: str, nonzero: bool = True) -> ParamSpec:
    return _p("amount", INT, lo=lo, hi=hi, nonzero=nonzero, doc=doc)


_KEYWORD_OR_ANY = MONSTER_KEYWORDS + (ANY,)

_SPECS = (
    # rooms
    EffectSpec("monster_bonus",
               (_amount(BONUS_MIN, BONUS_MAX, "strength change"),
                _p("keyword", STR, choices=_KEYWORD_OR_ANY, doc="monster keyword or any")),
               (ROOM,), "Q-COMBAT-4",
               "Monsters with the keyword (or any monster) get +amount strength in this room."),
    EffectSpec("munchkin_bonus",
               (_amount(BONUS_MIN, BONUS_MAX, "strength change"),
                _p("who", COND, doc="a condition (Q-COMBAT-6) or any")),
               (ROOM,), "Q-COMBAT-4",
               "Munchkins who meet `who` (or any munchkin) get +amount strength in this room."),
    EffectSpec("heal_on_enter", (_amount(1, 10, "hits healed"),),
               (ROOM,), "Q-CHAR-6",
               "A munchkin entering this room on their own turn heals `amount` hits."),
    EffectSpec("hurt_on_enter",
               (_p("hits", INT, lo=1, hi=10, doc="hits taken"),
                _p("who", COND, doc="a condition (Q-COMBAT-6) or any")),
               (ROOM,), "Q-CHAR-6",
               "A munchkin who meets `who` (or any munchkin) takes `hits` hits on entering."),
    # room deals (Q-SEARCH-5): 1 move, never with a monster present, once per turn
    EffectSpec("deal_buy",
               (_p("n", INT, lo=1, hi=3, doc="Treasures bought"),
                _p("price", INT, lo=100, hi=3000, doc="gold paid, no change")),
               (ROOM,), "Q-SEARCH-5", "Pay `price` gold for n Treasure cards, once per turn."),
    EffectSpec("deal_sell", (_p("percent", INT, lo=10, hi=200, doc="of the item's value"),),
               (ROOM,), "Q-SEARCH-5",
               "Sell one item (from hand or play) for `percent`% of its value in gold, once per turn."),
    # rooms, items (while worn/carried) and treasure one-shots (for this run)
    EffectSpec("runaway", (_amount(-5, 5, "run-away roll modifier"),),
               (ROOM, ITEM, ONESHOT), "Q-RUN-2",
               "Run-away rolls get +amount: from this room / while the item is worn or carried / "
               "for the run the one-shot is used in."),
    # monster rewards
    EffectSpec("extra_treasure", (_p("n", INT, lo=1, hi=5, doc="extra Treasure cards"),),
               (REWARD, ENHANCER), "Q-COMBAT-9", "Killing it (the monster it enhances) draws n more Treasures."),
    EffectSpec("fewer_treasure", (_p("n", INT, lo=1, hi=5, doc="Treasure cards fewer"),),
               (ENHANCER,), "Q-COMBAT-13",
               "Killing the monster it enhances draws n Treasures fewer (never fewer than none)."),
    EffectSpec("gold", (_amount(1, VALUE_MAX, "gold pieces"),),
               (REWARD,), "Q-COMBAT-9", "Killing it gives `amount` gold."),
    # monster rewards and one-shots
    EffectSpec("heal", (_amount(1, 10, "hits healed"),),
               (REWARD, ONESHOT, DXM_ONESHOT), "Q-CHAR-6",
               "Heal `amount` hits (never above max HP)."),
    # bad stuff
    EffectSpec("hits", (_p("n", INT, lo=1, hi=10, doc="hits taken"),),
               (BAD_STUFF, CURSE), "Q-RUN-2", "Take n hits."),
    EffectSpec("lose_levels", (_p("n", INT, lo=1, hi=9, doc="levels lost"),),
               (BAD_STUFF, CURSE), "Q-CHAR-2", "Lose n levels (never below 1, Q-LAW-1)."),
    EffectSpec("lose_slot", (_p("slot", STR, choices=LOSABLE_SLOTS, doc="head/armour/feet/hands"),),
               (BAD_STUFF, CURSE), "Q-ITEM-6",
               "Lose the item worn in that slot (hands: one carried item, victim's choice)."),
    EffectSpec("lose_item", (_p("n", INT, lo=1, hi=10, doc="items lost"),),
               (BAD_STUFF, CURSE), "Q-ITEM-6",
               "Lose n items in play, backpack and belt included; the victim chooses."),
    EffectSpec("lose_gold", (_amount(0, 100_000, "gold lost; 0 = all", nonzero=False),),
               (BAD_STUFF, CURSE), "Q-ITEM-5", "Lose `amount` gold (what you have if less); 0 = all."),
    EffectSpec("death", (), (BAD_STUFF,), "Q-DEATH-1", "You die."),
    # items while worn/carried
    EffectSpec("move", (_amount(-3, 3, "move change"),),
               (ITEM,), "Q-CHAR-7", "+amount move while worn or carried."),
    EffectSpec("max_hp", (_amount(-3, 5, "max HP change"),),
               (ITEM,), "Q-CHAR-6", "+amount max HP while worn or carried."),
    EffectSpec("bonus_vs",
               (_amount(BONUS_MIN, BONUS_MAX, "extra bonus"),
                _p("who", STR, choices=MONSTER_KEYWORDS, doc="monster keyword")),
               (ITEM,), "Q-COMBAT-4",
               "Extra +amount while fighting a monster with keyword `who`."),
    # one-shots
    EffectSpec("escape", (), (ONESHOT, DXM_ONESHOT), "Q-RUN-4",
               "Escape every monster of this fight without rolling."),
    EffectSpec("teleport", (), (ONESHOT, DXM_ONESHOT), "Q-TURN-5",
               "Move magically to the Entrance (also escapes a fight, Q-RUN-4)."),
    # after the roll (Q-COMBAT-7) and against curses (Q-CARD-8)
    EffectSpec("change_die", (_p("to", INT, lo=1, hi=6, doc="the value the die now shows"),),
               (ONESHOT, DXM_ONESHOT), "Q-COMBAT-7",
               "After the dice of a fight are rolled, turn one die (of either side) to `to`."),
    EffectSpec("cancel_curse", (), (ONESHOT,), "Q-CARD-8",
               "Cancel a curse as it is played on you."),
    # curses
    EffectSpec("lasting_move", (_amount(-3, -1, "move change"),),
               (CURSE,), "Q-CARD-8", "The curse stays on the victim: `amount` move, until removed."),
    EffectSpec("lasting_strength", (_amount(-5, -1, "strength change in every fight"),),
               (CURSE,), "Q-CARD-8", "The curse stays on the victim: `amount` in every fight, until removed."),
    EffectSpec("next_combat", (_amount(-10, -1, "strength change in the victim's next fight"),),
               (CURSE,), "Q-CARD-8",
               "The victim's side gets `amount` in their next fight (this one, if they are fighting)."),
)

EFFECTS: dict[str, EffectSpec] = {s.name: s for s in _SPECS}


def effects_for(context: str) -> tuple[str, ...]:
    """Effect names allowed in ``context``, in :data:`EFFECTS` order."""
    return tuple(s.name for s in _SPECS if context in s.contexts)


def _check() -> None:
    # Import-time sanity: the invariants of the module docstring.
    assert len(set(WHO)) == len(WHO), "a who name is in two groups"
    assert not set(MONSTER_KEYWORDS) & (set(SIZES) | set(MOVEMENTS)), "keyword clash"
    assert len(set(MONSTER_KEYWORDS)) == len(MONSTER_KEYWORDS)
    assert len(set(ITEM_KEYWORDS)) == len(ITEM_KEYWORDS)
    assert ANY not in WHO and ANY not in MONSTER_KEYWORDS
    assert len(EFFECTS) == len(_SPECS)
    for s in _SPECS:
        assert [p.key for p in s.params] == sorted(p.key for p in s.params), s.name
        assert "name" not in (p.key for p in s.params), s.name  # "name" names the effect in TOML
        assert set(s.contexts) <= set(CONTEXTS), s.name


_check()
