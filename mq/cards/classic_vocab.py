"""The closed vocabularies of the Classic card data (CLASSIC.md C-COMP) and its effect schemas.

Everything a Classic data file (``mq/data/classic``) may say is listed here; the Classic loader
(:mod:`mq.cards.classic_loader`) rejects any other word. The words "as Q-x" share are the Quest
vocabulary's own (:mod:`mq.cards.vocab`): the same races, classes, genders, monster and item
keywords, and for the effects whose meaning is the same in both modes the same name and parameter
schema (``lose_levels``, ``runaway``, ``next_combat``...). Only the places an effect may appear
(its *contexts*) and its plain-words phrase are Classic's own.

The Classic engine (mq.classic) implements these names (docs/classic.md lists those it does not
yet). Nothing here or in the loader enforces a rule of play; the loader only checks that the data
says something the engine understands. A pack that needs a new mechanic (C-PACK) adds its effect here, with its rule id,
together with the engine code for it; its cards then name it like any other.

Invariants:
- All lists are tuples in a fixed order; no word is in two of races/classes/genders, and no item
  keyword is a race, class or gender, so a bare word always means one thing.
- Every effect has a phrase, and every ``{key}`` of the phrase is one of its parameters.
- A shared effect keeps the Quest schema exactly (checked at import), so a change to it there is a
  change here too.
"""
from __future__ import annotations

import dataclasses
import re

from mq.cards import vocab as Q
from mq.cards.defs import Effect
from mq.cards.vocab import INT, STR, EffectSpec, ParamSpec

# --- who a munchkin is (C-CHAR-4/5, C-SETUP-4; as Q-CHAR-4) -------------------------------------

# The packs' races and classes (C-PACK-2, 3, 6), after Quest's: the orc, the gnome, the bard, the ranger.
PACK_RACES = ("orc", "gnome")
PACK_CLASSES = ("bard", "ranger")
RACES = Q.RACES + PACK_RACES  # human is the absence of a race card (C-CHAR-2)
CLASSES = Q.CLASSES + PACK_CLASSES
GENDERS = Q.GENDERS
WHO = RACES + CLASSES + GENDERS
RACE_CARD_KEYS = Q.RACE_CARD_KEYS + PACK_RACES

# --- cards (C-COMP-2..5) --------------------------------------------------------------------------

DECKS = ("door", "treasure")  # C-COMP-1


class ClassicKind(Q.CardKind):
    """The names of the Classic card kinds: Quest's (the same words, as Q-CARD), plus the monster
    (a Door card here) and the "other specials" of either deck."""

    MONSTER = "monster"
    SPECIAL = "special"
    STEED = "steed"  # C-PACK-5: ridden, one at a time
    HIRELING = "hireling"  # C-PACK-5: a follower, one at a time
    PORTAL = "portal"  # C-PACK-7: turns up the next dungeon


K = ClassicKind
DOOR_KINDS = (K.MONSTER, K.ENHANCER, K.WANDERING, K.MATE, K.CURSE, K.RACE, K.CLASS, K.HALFBREED,
              K.SUPERMUNCHKIN, K.CHEAT, K.SPECIAL, K.PORTAL)  # C-COMP-2, C-PACK-7
TREASURE_KINDS = (K.ITEM, K.ONESHOT, K.LEVEL, K.SPECIAL, K.STEED, K.HIRELING)  # C-COMP-3, C-PACK-5
FOLLOWERS = (K.STEED, K.HIRELING)  # C-PACK-5: the two kinds a munchkin has one of each in play
MONSTER_KEYWORDS = Q.MONSTER_KEYWORDS  # C-COMP-4 (undead...)
ITEM_KEYWORDS = Q.ITEM_KEYWORDS
# C-COMP-5 / C-ITEM-2: headgear, armour, footgear, hands (one or two), none (any number in use).
SLOTS = ("head", "armour", "feet", "hands", "none")


class Timing:
    """When a special may be played (C-TURN-6/7/8)."""

    ANYTIME = "anytime"
    COMBAT = "combat"  # only in a combat
    OWN_TURN = "own_turn"  # on your own turn, outside combat


class CurseKind:
    """How long a curse acts (C-CARD-8), decided by its effects (:func:`curse_kind`)."""

    IMMEDIATE = "immediate"  # acts at once and is discarded
    NEXT_COMBAT = "next_combat"  # waits for the victim's next combat
    LASTING = "lasting"  # stays in play until a card removes it


TIMINGS = (Timing.ANYTIME, Timing.COMBAT, Timing.OWN_TURN)
CURSE_KINDS = (CurseKind.IMMEDIATE, CurseKind.NEXT_COMBAT, CurseKind.LASTING)

LEVEL_MIN, LEVEL_MAX = 1, 20  # C-COMP-4: a monster's printed level
LEVELS_GIVEN_MAX = 2  # C-COMP-4: 1, or 2 for very dangerous monsters
TREASURE_MAX = Q.TREASURE_MAX
BONUS_MIN, BONUS_MAX = Q.BONUS_MIN, Q.BONUS_MAX
ITEM_BONUS_MIN, ITEM_BONUS_MAX = Q.ITEM_BONUS_MIN, Q.ITEM_BONUS_MAX
VALUE_MAX, VALUE_STEP = Q.VALUE_MAX, 100  # C-COMP-6: values in steps of 100 (C-ITEM-7 sells per 1000)
COUNT_MAX = Q.COUNT_MAX

# Kinds in plain words, for messages and listings.
KIND_WORDS = {K.MONSTER: "monster", K.ENHANCER: "enhancer", K.WANDERING: "Wandering Monster", K.MATE: "Mate",
              K.CURSE: "curse", K.RACE: "race", K.CLASS: "class", K.HALFBREED: "Half-Breed",
              K.SUPERMUNCHKIN: "Super Munchkin", K.CHEAT: "Cheat!", K.SPECIAL: "special", K.ITEM: "item",
              K.ONESHOT: "one-shot", K.LEVEL: "go-up-a-level", K.STEED: "steed", K.HIRELING: "hireling",
              K.PORTAL: "portal"}

# --- where an effect may appear -------------------------------------------------------------------

MONSTER = "monster"  # a monster's `effects`: its special text
BAD_STUFF = "bad_stuff"  # a monster's `bad_stuff` and `on_escape`
ENHANCER = "enhancer"  # an enhancer's `effects`
CURSE = "curse"  # a curse's `effects`
POWER = "power"  # a race or class card's `powers` and `drawbacks`
EPIC = "epic"  # a race or class card's and the human's `epic` powers (C-EPIC-2)
ITEM = "item"  # an item's `effects`, while it is in use; a steed's or hireling's while in play (C-PACK-5)
USE = "use"  # an item's `use`: discard it from play for these; a hireling's sacrifice (C-PACK-5)
ONESHOT = "oneshot"  # a one-shot's `effects`
SPECIAL = "special"  # a Door or Treasure special's `effects`
DUNGEON = "dungeon"  # a dungeon card's `effects`: a rule for the whole table while it is active (C-PACK-7)
CONTEXTS = (MONSTER, BAD_STUFF, ENHANCER, CURSE, POWER, EPIC, ITEM, USE, ONESHOT, SPECIAL, DUNGEON)

_SPECS: list[EffectSpec] = []
PHRASES: dict[str, str] = {}  # effect name -> plain words; see describe()


def _shared(name: str, contexts: tuple[str, ...], rule: str, doc: str, phrase: str) -> None:
    """An effect of the Quest vocabulary, same name and parameters, in Classic's contexts."""
    _SPECS.append(dataclasses.replace(Q.EFFECTS[name], contexts=contexts, rule=rule, doc=doc))
    PHRASES[name] = phrase


def _new(name: str, params: tuple[ParamSpec, ...], contexts: tuple[str, ...], rule: str, doc: str,
         phrase: str) -> None:
    """An effect only Classic has."""
    _SPECS.append(EffectSpec(name, params, contexts, rule, doc))
    PHRASES[name] = phrase


def _int(key: str, lo: int, hi: int, doc: str, nonzero: bool = True) -> ParamSpec:
    return ParamSpec(key, INT, lo=lo, hi=hi, nonzero=nonzero, doc=doc)


def _word(key: str, choices: tuple[str, ...], doc: str) -> ParamSpec:
    return ParamSpec(key, STR, choices=choices, doc=doc)


_WHO = _word("who", WHO, "race, class or gender")
_MAX_LEVEL = _int("max_level", LEVEL_MIN, LEVEL_MAX, "highest printed level it works on")

# Phrases: `{key}` is the parameter's value; `{key+}` a signed number; `{key noun}` the number
# with the noun, plural when it is not 1 ("2 cards"). Words of a few parameters read better in
# full (VALUE_WORDS).

# -- shared with Quest ("as Q-x")
_shared("runaway", (MONSTER, POWER, ITEM, ONESHOT), "C-RUN-2 (as Q-RUN-2)",
        "Run-away rolls get +amount: against this monster (negative: a fast one) / for the race or "
        "class / while the item is in use / for the run the one-shot is played in.",
        "{amount+} to run away")
_shared("bonus_vs", (ITEM,), "C-COMBAT-2 (as Q-COMBAT-4)",
        "While the item is in use, +amount more against a monster with keyword `who`.",
        "{amount+} more against {who} monsters")
_shared("lose_levels", (BAD_STUFF, CURSE), "C-CHAR-1 (as Q-CHAR-2)",
        "Lose n levels (never below 1, C-LAW-1).", "lose {n level}")
_shared("lose_item", (BAD_STUFF, CURSE), "C-ITEM-8 (as Q-ITEM-6)",
        "Lose n items in play, in use or not; the victim chooses.", "lose {n item} in play (your choice)")
_shared("lose_slot", (BAD_STUFF, CURSE), "C-ITEM-8 (as Q-ITEM-6)",
        "Lose the item in use in that slot (hands: one hand item, the victim's choice); none in use, "
        "nothing happens.", "lose your {slot}")
_shared("death", (BAD_STUFF,), "C-DEATH-1 (as Q-DEATH-1)",
        "You die (C-DEATH); must be the only Bad Stuff of its monster.", "you die")
_shared("extra_treasure", (ENHANCER,), "C-COMBAT-6 (as Q-COMBAT-9)",
        "The monster it enhances carries n more Treasure cards.", "{n Treasure card} more")
_shared("fewer_treasure", (ENHANCER,), "C-COMBAT-6 (as Q-COMBAT-13)",
        "The monster it enhances carries n Treasure cards fewer, never fewer than none.",
        "{n Treasure card} fewer")
_shared("escape", (ONESHOT, USE), "C-RUN-3 (as Q-RUN-4)",
        "Escape every monster of the combat without rolling.", "escape every monster without rolling")
_shared("change_die", (ONESHOT,), "C-RUN-3, C-DIGI-2 (as Q-COMBAT-7)",
        "Right after a die is rolled (a run-away roll, a theft, a dodge), turn it to `to`.",
        "turn a die just rolled to {to}")
_shared("cancel_curse", (ONESHOT, SPECIAL), "C-CARD-8",
        "Cancel a curse in its curse window, before it acts.", "cancel a curse before it acts")
_shared("next_combat", (CURSE,), "C-CARD-8 (as Q-CARD-8)",
        "The victim gets `amount` in their next combat (this one, if they are fighting).",
        "{amount+} in your next combat")
_shared("lasting_strength", (CURSE,), "C-CARD-8 (as Q-CARD-8)",
        "The curse stays in play on the victim: `amount` in every combat until a card removes it.",
        "{amount+} in every combat until a card removes the curse")

# -- monsters
_new("bonus_vs_item",
     (_int("amount", BONUS_MIN, BONUS_MAX, "level change"),
      _word("keyword", ITEM_KEYWORDS, "item keyword")),
     (MONSTER,), "C-COMBAT-3",
     "+amount to its level while a munchkin of the side fighting it has an item in use with the "
     "keyword (once per monster).",
     "{amount+} against anyone using a {keyword} item")
_new("auto_defeat", (_WHO,), (MONSTER,), "C-COMBAT-7",
     "Defeated without a fight when a `who` is on the munchkin side: its Treasure counts if the "
     "combat is won; no levels.",
     "any {who} on the munchkin side defeats it automatically (Treasure, no levels)")
_new("auto_kill", (_WHO,), (MONSTER,), "C-COMBAT-7",
     "Killed without a fight when a `who` is on the munchkin side: levels and Treasure as if beaten.",
     "any {who} on the munchkin side kills it automatically (levels and Treasure)")
_new("no_pursuit", (_int("max_level", LEVEL_MIN, LEVEL_MAX - 1, "highest level it ignores"),),
     (MONSTER,), "C-RUN-3",
     "It does not pursue a munchkin of level `max_level` or lower: they escape it without rolling.",
     "does not pursue munchkins of level {max_level} or lower")
_new("friendly", (_WHO,), (MONSTER,), "C-TURN-3",
     "It does not fight a main fighter who is `who`: kicked open or played for trouble by them it "
     "counts as no monster met, and it leaves a combat of theirs with no reward (sent away).",
     "friendly to any {who}: no fight, it counts as no monster met")

# -- Bad Stuff and curses
_new("lose_hand", (_int("n", 1, 10, "cards discarded"),), (BAD_STUFF, CURSE), "C-COMP-7",
     "Discard n cards from your hand, your choice (all of them if fewer).",
     "discard {n card} from your hand (your choice)")
_new("lose_whole_hand", (), (BAD_STUFF, CURSE), "C-COMP-7", "Discard your whole hand.",
     "discard your whole hand")
_new("lose_race", (), (BAD_STUFF, CURSE), "C-CHAR-2",
     "Discard your race cards (and a Half-Breed with them): you are human.",
     "discard your race card: you are human")
_new("lose_class", (), (BAD_STUFF, CURSE), "C-CHAR-2",
     "Discard your class cards (and a Super Munchkin with them).", "discard your class card")
_new("change_gender", (), (CURSE,), "C-CHAR-6", "You change gender.", "you change gender")
_new("lose_steed", (), (BAD_STUFF, CURSE), "C-PACK-5", "Discard your steed (none: nothing happens).",
     "lose your steed")
_new("lose_hireling", (), (BAD_STUFF, CURSE), "C-PACK-5", "Your hireling is killed: discard it (none: nothing happens).",
     "lose your hireling")
_new("lasting_runaway", (_int("amount", -3, -1, "run-away roll change"),), (CURSE,), "C-CARD-8",
     "The curse stays in play on the victim: `amount` to every run-away roll until a card removes it.",
     "{amount+} to run away until a card removes the curse")

# -- race and class powers (C-CHAR-4/5)
_new("help_levels", (), (POWER,), "C-HELP-5",
     "As a helper in a won combat, go up 1 level per monster killed (may be the winning level).",
     "helping in a won combat, go up 1 level per monster killed")
_new("hand_limit", (_int("n", 5, 20, "cards"),), (POWER,), "C-TURN-9",
     "At the end of your turn you may hold n cards instead of 5.", "hand limit {n}")
_new("any_big_items", (), (POWER,), "C-ITEM-4", "Any number of big items in play.",
     "any number of big items")
_new("double_sale", (_int("items", 1, 3, "items a turn"),), (POWER, EPIC), "C-CHAR-4, C-EPIC-5",
     "Once per turn, when selling, `items` items count at double their value.",
     "once per turn, {items item} sold at double value")
_new("wins_ties", (), (POWER,), "C-COMBAT-4", "The munchkin side wins ties.",
     "the munchkin side wins ties")
_new("discard_bonus",
     (_int("amount", 1, 5, "bonus per card"),
      _word("keyword", MONSTER_KEYWORDS + (Q.ANY,), "monster keyword or any"),
      _int("max_cards", 1, 5, "cards at most")),
     (POWER,), "C-CHAR-5",
     "In a combat against a monster with the keyword (or any), discard up to max_cards cards for "
     "+amount each.",
     "in combat, discard up to {max_cards card} for {amount+} each against {keyword} monsters")
_new("escape_boost", (_int("amount", 1, 3, "bonus per card"), _int("max_cards", 1, 5, "cards at most")),
     (POWER,), "C-CHAR-5",
     "When running away, discard up to max_cards cards for +amount each to all your run-away rolls "
     "of that combat.",
     "when running away, discard up to {max_cards card} for {amount+} each to your rolls")
_new("enthral", (_int("min_cards", 1, 10, "cards at least"),), (POWER,), "C-CHAR-5, C-COMBAT-7",
     "As main fighter, discard your whole hand (at least min_cards cards) to defeat one monster "
     "without killing it: its Treasure, no levels.",
     "as main fighter, discard your whole hand (at least {min_cards card}) to defeat one monster")
_new("backstab", (_int("amount", -5, -1, "strength change"),), (POWER,), "C-CHAR-5",
     "In any combat, discard a card to give one munchkin `amount`, once per victim per combat, "
     "never yourself.",
     "discard a card: {amount+} to one munchkin in any combat")
_new("theft", (_int("roll", 2, 6, "d6 roll needed"),), (POWER,), "C-CHAR-5",
     "On your turn outside combat, discard a card, name a small item in another player's play and "
     "roll a d6: `roll` or more takes it into your play, else you lose a level.",
     "on your turn, discard a card and roll {roll}+ to steal a small item, else lose a level")
_new("salvage", (), (POWER,), "C-CHAR-5",
     "When you draw a card face-down you may take the top card of that deck's discard pile instead, "
     "discarding a card from your hand for each.",
     "draw from the discards instead, one card from your hand for each")

# -- epic powers (C-EPIC), had from level 10 with Epic
_new("no_hand_limit", (), (EPIC,), "C-EPIC-4", "No hand limit.", "no hand limit")
_new("big_items", (_int("n", 2, 5, "big items"),), (EPIC,), "C-EPIC-13",
     "Up to n big items in play, all usable.", "up to {n} big items")
_new("giant_grip", (), (EPIC,), "C-EPIC-13", "A two-handed item takes one hand.",
     "a two-handed item takes one hand")
_new("arrows", (_int("amount", -5, -1, "strength change per arrow"), _int("n", 1, 3, "arrows a combat")),
     (EPIC,), "C-EPIC-3",
     "In a combat you are neither fighter nor helper in, shoot up to n arrows, each costing a card "
     "from your hand: `amount` to one monster or one munchkin.",
     "in others' combats, up to {n arrow} at a card each: {amount+} to one monster or munchkin")
_new("pet", (_MAX_LEVEL,), (EPIC,), "C-EPIC-6",
     "As main fighter with no pet, take a monster of printed level `max_level` or less entering your "
     "combat as your pet instead of fighting it; sacrifice it later for a bonus or a foe.",
     "take a monster of level {max_level} or less entering your combat as your pet")
_new("dodge_curses", (), (EPIC,), "C-EPIC-9",
     "When a curse would hit you, discard a card and make a run-away roll: 5+ cancels it; again while "
     "you have cards.",
     "when a curse would hit you, discard a card and roll 5+ to cancel it")
_new("prayer", (_int("discards", 1, 5, "cards discarded"),), (EPIC,), "C-EPIC-11",
     "At any time, discard `discards` cards (hand or play) to draw a Treasure face-down.",
     "at any time, discard {discards card} to draw a Treasure face-down")
_new("pickpocket", (), (EPIC,), "C-EPIC-12",
     "Once per turn, on your turn outside combat, discard a card to take a random card from another "
     "player's hand.",
     "once per turn, discard a card to take a random card from another's hand")

# -- the packs' races and classes (C-PACK-2, 3, 4, 6) and their epic powers
_new("alone_bonus", (_int("amount", 1, 5, "strength"),), (POWER,), "C-PACK-2",
     "+amount in combat as main fighter without a helper (the orc's default power).",
     "{amount+} as main fighter without a helper")
_new("eat_weak", (_MAX_LEVEL,), (EPIC,), "C-EPIC-8",
     "When the monster you kick open or play to look for trouble has printed level `max_level` or less, "
     "eat it at once: it is discarded, you go up 1 level as for a kill (it may be the winning level); "
     "no Treasure.",
     "eat a monster of level {max_level} you kick open or look for: up a level, as a kill")
_new("clean_escape", (_int("treasure", 1, 3, "Treasure cards"),), (EPIC,), "C-EPIC-7",
     "Ignore every negative modifier to your run-away rolls; escaping every monster of a combat, draw "
     "`treasure` Treasure face-down.",
     "no run-away penalties; escaping them all, draw {treasure Treasure card}")
_new("luck", (_int("extra", 1, 3, "cards"),), (POWER, EPIC), "C-PACK-4, C-EPIC-10",
     "Winning a combat as main fighter, draw `extra` Treasure more than the monsters give, then discard "
     "`extra` of the Treasure drawn for it (your choice) before any share is given.",
     "winning, draw {extra card} more Treasure, then discard as many of them")
_new("tame", (), (POWER,), "C-PACK-6",
     "Once per combat, as main fighter, discard as many hand cards as a monster's Treasure (at least 1): "
     "it leaves with no levels, Treasure or Bad Stuff and becomes your steed (bonus: its Treasure).",
     "as main fighter, discard a monster's Treasure in cards to tame it as your steed")
_new("claim", (_int("min_cards", 1, 10, "cards at least"),), (EPIC,), "C-EPIC-14",
     "Whenever a monster card is discarded, discard your whole hand (at least `min_cards` cards) to take "
     "it as your steed (bonus: its Treasure).",
     "discard your whole hand (at least {min_cards card}) to take a discarded monster as your steed")

# -- one-shots and specials
_new("kill", (_MAX_LEVEL,), (ONESHOT,), "C-COMBAT-7",
     "Kill one monster of printed level `max_level` or less: it counts as beaten (levels and "
     "Treasure if the combat is won).",
     "kill one monster of level {max_level} or less")
_new("defeat", (_MAX_LEVEL,), (ONESHOT, SPECIAL), "C-COMBAT-7",
     "Defeat one monster of printed level `max_level` or less without killing it: its Treasure "
     "counts if the combat is won; no levels.",
     "defeat one monster of level {max_level} or less without killing it")
_new("send_away", (), (ONESHOT, SPECIAL), "C-COMBAT-7",
     "Send one monster away from the combat: no reward for it.", "send one monster away (no reward)")
_new("end_combat", (), (SPECIAL,), "C-COMBAT-13",
     "End the combat without result: no levels, Treasure or Bad Stuff.",
     "end the combat without result")
_new("send_monster", (), (SPECIAL,), "C-COMBAT-12",
     "Outside a combat, on another living player whose turn it is not: turn up the top Door card; a monster (not friendly to "
     "them) fights that player at once, on any turn (C-COMBAT-12); any other card goes to their hand.",
     "turn up the top Door card: a monster there fights the player you choose, at once")
_new("level_up_all", (_WHO,), (SPECIAL,), "C-LAW-2",
     "Every munchkin who is `who` goes up 1 level; the card explicitly allows the winning level.",
     "every {who} goes up 1 level, even to the winning level")
_new("draw", (_word("deck", DECKS, "door or treasure"), _int("n", 1, 3, "cards")), (SPECIAL,), "C-CARD-2",
     "Draw n cards of that deck face-down into your hand.", "draw {n card} from the {deck} deck face-down")
_new("search_discards", (_word("deck", DECKS, "door or treasure"),), (SPECIAL,), "C-SETUP-2",
     "Look through that deck's discard pile and take one card into your hand.",
     "take a card of your choice from the {deck} discards")

# -- dungeons (C-PACK-7): rules for the whole table, monsters included, while the dungeon is active.
# Each only adds a modifier to a number the rules already compute, so a card's own text still acts
# in full (card > dungeon); where a card sets a number itself (a hand limit), the card's stands.
_AMOUNT = _int("amount", -3, 3, "change")
_new("monsters_stronger", (_AMOUNT,), (DUNGEON,), "C-PACK-7, C-COMBAT-3",
     "Every monster's level changes by `amount` (never below 1, C-LAW-1).", "every monster {amount+}")
_new("keyword_stronger", (_AMOUNT, _word("keyword", MONSTER_KEYWORDS, "monster keyword")), (DUNGEON,),
     "C-PACK-7, C-COMBAT-3", "Every monster with the keyword changes its level by `amount`.",
     "{keyword} monsters {amount+}")
_new("who_strength", (_AMOUNT, _WHO), (DUNGEON,), "C-PACK-7, C-COMBAT-2",
     "Every munchkin who is `who` gets `amount` in combat.", "every {who} {amount+} in combat")
_new("alone_strength", (_AMOUNT,), (DUNGEON,), "C-PACK-7, C-COMBAT-2",
     "A main fighter without a helper gets `amount`.", "{amount+} to a main fighter without a helper")
_new("helper_strength", (_AMOUNT,), (DUNGEON,), "C-PACK-7, C-HELP-1",
     "A helper gets `amount`.", "{amount+} to a helper")
_new("slot_strength", (_AMOUNT, _word("slot", SLOTS[:-1], "slot")), (DUNGEON,), "C-PACK-7, C-ITEM-2",
     "A munchkin gets `amount` for each item in use in that slot.", "{amount+} for each {slot} in use")
_new("table_runaway", (_AMOUNT,), (DUNGEON,), "C-PACK-7, C-RUN-2",
     "Every run-away roll gets `amount`.", "{amount+} to every run-away roll")
_new("hand_limit_change", (_AMOUNT,), (DUNGEON,), "C-PACK-7, C-TURN-9",
     "The hand limit of 5 changes by `amount`; a card's own hand limit stands (card > dungeon).",
     "{amount+} to the hand limit of 5 (a card's own limit stands)")
_new("kill_levels", (_int("n", 1, 1, "levels"),), (DUNGEON,), "C-PACK-7, C-COMBAT-9",
     "Each monster killed in a won combat gives `n` level more (it may be the winning level, as a kill).",
     "{n level} more for each monster killed")
_new("bad_stuff_levels", (_int("n", 1, 2, "levels"),), (DUNGEON,), "C-PACK-7, C-RUN-4",
     "Whoever a monster catches loses `n` levels more, after its Bad Stuff (never below 1).",
     "caught by a monster, lose {n level} more")
_new("treasure_change", (_int("amount", -2, 2, "Treasure cards"),), (DUNGEON,), "C-PACK-7, C-COMBAT-9",
     "Every monster's Treasure count changes by `amount` (never below 0).", "{amount+} Treasure from every monster")
_new("sale_gold", (_int("amount", -500, 500, "gold per item"),), (DUNGEON,), "C-PACK-7, C-ITEM-7",
     "Every item of value sold is worth `amount` gold more (never below nothing).",
     "{amount+} gold for every item sold")

EFFECTS: dict[str, EffectSpec] = {s.name: s for s in _SPECS}

# How a curse acts (C-CARD-8): a lasting effect keeps the curse in play; next_combat makes it wait.
LASTING_EFFECTS = ("lasting_strength", "lasting_runaway")
NEXT_COMBAT_EFFECTS = ("next_combat",)
TREASURE_CHANGES = {"extra_treasure": 1, "fewer_treasure": -1}  # C-COMBAT-6: direction of each

# Words read better in full, by parameter key and value.
VALUE_WORDS = {
    "slot": {"head": "headgear", "armour": "armour", "feet": "footgear", "hands": "hand item"},
    "deck": {"door": "Door", "treasure": "Treasure"},
    "keyword": {Q.ANY: "all"},
}

_TOKEN = re.compile(r"\{(\w+)(\+| [\w ]+)?\}")


def effects_for(context: str) -> tuple[str, ...]:
    """Effect names allowed in ``context``, in :data:`EFFECTS` order."""
    return tuple(s.name for s in _SPECS if context in s.contexts)


def curse_kind(effects: tuple[Effect, ...]) -> str:
    """The :class:`CurseKind` of a curse with these effects (C-CARD-8). The loader refuses a curse
    that would be both lasting and next-combat."""
    names = {e.name for e in effects}
    if names & set(LASTING_EFFECTS):
        return CurseKind.LASTING
    if names & set(NEXT_COMBAT_EFFECTS):
        return CurseKind.NEXT_COMBAT
    return CurseKind.IMMEDIATE


def describe(effect: Effect) -> str:
    """The effect in plain words: ``lose_levels(n=2)`` -> ``"lose 2 levels"``."""

    def fill(m: re.Match) -> str:
        key, mod = m.group(1), m.group(2)
        value = effect.get(key)
        if mod == "+":
            return f"{value:+d}"
        if mod:
            noun = mod.strip()
            return f"{value} {noun}" + ("" if value == 1 else "s")
        return VALUE_WORDS.get(key, {}).get(value, str(value))

    return _TOKEN.sub(fill, PHRASES[effect.name])


def _check() -> None:
    # Import-time sanity: the invariants of the module docstring.
    assert len(set(WHO)) == len(WHO) and not set(ITEM_KEYWORDS) & set(WHO)
    assert set(KIND_WORDS) == set(DOOR_KINDS) | set(TREASURE_KINDS)
    assert len(EFFECTS) == len(_SPECS) == len(PHRASES), "an effect is defined twice"
    for s in _SPECS:
        assert set(s.contexts) <= set(CONTEXTS), s.name
        assert [p.key for p in s.params] == sorted(p.key for p in s.params), s.name
        keys = {p.key for p in s.params}
        assert {m.group(1) for m in _TOKEN.finditer(PHRASES[s.name])} <= keys, s.name
        if s.name in Q.EFFECTS:
            assert s.params == Q.EFFECTS[s.name].params, f"{s.name}: a shared effect keeps its Quest schema"


_check()
