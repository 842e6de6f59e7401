"""The default card set's content (RULES Q-COMP, Q-DATA): counts, coverage of every mechanic,
uniqueness, use of every vocabulary word, agreement between card text and fields, originality."""
from __future__ import annotations

import importlib.resources
import re
from collections import Counter
from pathlib import Path

import pytest

from mq.cards import Condition, ConditionKind, load_default, vocab

CS = load_default()
FACES = [f for t in CS.rooms for f in t.faces]
MONSTERS = CS.monsters
TREASURES = CS.treasures
DXM = CS.dxm
ITEMS = [t for t in TREASURES if t.kind == "item"]
ONESHOTS = [t for t in TREASURES if t.kind == "oneshot"]
DOCS = Path(__file__).resolve().parent.parent / "docs" / "data.md"


def effect_names(defs, field="effects"):
    return Counter(e.name for d in defs for e in getattr(d, field))


_PLURAL = {"elf": "elves", "dwarf": "dwarves", "thief": "thieves"}


def mentions(text: str, who: str) -> bool:
    """Whether ``text`` names a race/class/gender, singular or plural."""
    return re.search(rf"\b({who}|{_PLURAL.get(who, who + 's')})\b", text.lower()) is not None


def states(text: str, c: Condition) -> bool:
    """Whether ``text`` states condition ``c`` (Q-COMBAT-6) in words: "elves", "munchkins of odd
    level", "levels 1-3", "with a fire item"."""
    t = text.lower()
    if c.kind == ConditionKind.IS:
        return mentions(t, c.word)
    if c.kind == ConditionKind.LEVELS:
        return (f"level {c.lo}" if c.lo == c.hi else f"levels {c.lo}-{c.hi}") in t
    if c.kind == ConditionKind.CARRYING:
        return f"{c.word} item" in t
    return c.kind == ConditionKind.ANY or f"munchkins of {c.kind}" in t


def base_id(card_id: str) -> str:
    return card_id.split(".")[0]


# --- counts (Q-COMP) ---------------------------------------------------------------------------------

def test_counts():
    """Q-COMP-1, Q-COMP-2, Q-COMP-3: about 200 cards (68 Monster, about 81 Treasure, about 51 DxM),
    24 double-sided room tiles and 73 connectors."""
    assert len(CS.rooms) == 24 and len(FACES) == 48  # Q-COMP-2
    assert len(CS.connectors) == 73  # Q-COMP-3
    assert len(MONSTERS) == 68  # Q-COMP-1
    assert 75 <= len(TREASURES) <= 90  # Q-COMP-1: about 81
    assert 50 <= len(DXM) <= 65  # Q-COMP-1: about 51
    assert 190 <= len(MONSTERS) + len(TREASURES) + len(DXM) <= 220  # Q-COMP-1: about 200 in all


def test_ids_unique_and_well_formed():
    ids = [c.id for c in MONSTERS + TREASURES + DXM]
    assert len(ids) == len(set(ids))
    face_ids = [CS.entrance.id] + [f.id for f in FACES]
    assert len(face_ids) == len(set(face_ids))
    for i, t in enumerate(CS.rooms, 1):
        assert t.id == f"R{i:02d}"
        assert [f.id for f in t.faces] == [t.id + "a", t.id + "b"]
        assert all(f.tile == t.id for f in t.faces)
    assert [c.id for c in CS.connectors] == [f"C{i:02d}" for i in range(1, 74)]
    for prefix, deck in (("M", MONSTERS), ("T", TREASURES), ("D", DXM)):
        assert all(re.fullmatch(prefix + r"\d\d(\.\d+)?", c.id) for c in deck)


def test_names_unique_and_every_card_has_text():
    for deck in (MONSTERS, TREASURES, DXM):
        by_name = {}
        for c in deck:
            assert c.name and c.text
            # Copies made by `count` share a name; distinct entries never do.
            assert by_name.setdefault(c.name, base_id(c.id)) == base_id(c.id), c.name
    names = [f.name for f in FACES] + [CS.entrance.name]
    assert len(names) == len(set(names))
    assert all(f.text for f in FACES)


def test_count_is_used():
    assert any("." in c.id for c in MONSTERS)
    assert any("." in c.id for c in DXM)
    assert any("." in c.id for c in TREASURES)


# --- rooms ---------------------------------------------------------------------------------------------

def test_entrance():
    e = CS.entrance
    assert e.id == e.tile == "ENTRANCE"
    assert e.no_search and e.arrows == (-1,) * 6 and not e.effects and not e.green and not e.red


def test_every_face_has_lively_arrows():
    for f in FACES:
        arrows = [a for a in f.arrows if a != -1]
        assert 3 <= len(arrows) <= 6, f.id
        assert len(set(arrows)) >= 2, f.id  # not all one way
        assert all(0 <= a <= 3 for a in arrows)


def test_arrows_spread_over_colours_and_directions():
    per = Counter((c, f.arrows[c]) for f in FACES for c in range(6) if f.arrows[c] != -1)
    for c in range(6):
        for d in range(4):
            assert 6 <= per[(c, d)] <= 12, (vocab.COLOURS[c], vocab.DIRECTIONS[d], per[(c, d)])


def test_icons_cover_every_race_and_class():
    green = {c.text for f in FACES for c in f.green}
    red = {c.text for f in FACES for c in f.red}
    for who in vocab.RACES + vocab.CLASSES:
        assert who in green, f"no green icon for {who}"
        assert who in red, f"no red icon for {who}"


def test_rooms_are_good_and_bad_for_conditions_beyond_race_and_class():
    """Q-COMBAT-6, Q-DATA-1: the default rooms use every kind of condition an icon can name — a
    gender, odd and even level (the rulebook's own example), a level range and an item keyword."""
    icons = [c for f in FACES for c in f.green + f.red]
    kinds = {c.kind for c in icons}
    assert kinds == {ConditionKind.IS, ConditionKind.ODD_LEVEL, ConditionKind.EVEN_LEVEL, ConditionKind.LEVELS,
                     ConditionKind.CARRYING}
    assert {c.word for c in icons if c.kind == ConditionKind.IS} >= set(vocab.GENDERS)


def test_search_modifiers_and_no_search():
    assert {f.search for f in FACES} == set(range(-2, 3))
    no_search = [f for f in FACES if f.no_search]
    assert 3 <= len(no_search) <= 10
    assert all(f.search == 0 for f in no_search)


def test_every_room_effect_is_used():
    used = effect_names(FACES)
    for name in vocab.effects_for(vocab.ROOM):
        assert used[name], name


def test_an_item_that_flies_and_a_room_that_hurts_flyers():
    """Q-DATA-1: an item that lets a munchkin fly (the item keyword flying) and a room that hurts
    flying munchkins on entering (a condition, Q-COMBAT-6); a room also weakens flying monsters."""
    fliers = [t for t in ITEMS if "flying" in t.keywords]
    assert fliers and all("fly" in t.text for t in fliers)
    assert any(e.name == "hurt_on_enter" and str(e.get("who")) == "carrying flying"
               for f in FACES for e in f.effects)
    assert any(e.name == "monster_bonus" and e.get("keyword") == "flying" and e.get("amount") < 0
               for f in FACES for e in f.effects)


def test_good_for_and_bad_for_rooms_both_ways():
    assert any(e.name == "munchkin_bonus" and e.get("amount") > 0 for f in FACES for e in f.effects)
    assert any(e.name == "munchkin_bonus" and e.get("amount") < 0 for f in FACES for e in f.effects)
    assert any(e.name == "monster_bonus" and e.get("keyword") == "any" for f in FACES for e in f.effects)
    assert any(e.name == "hurt_on_enter" and str(e.get("who")) != "any" for f in FACES for e in f.effects)


def test_room_texts_state_their_rules():
    for f in FACES:
        t = f.text.lower()
        if f.search:
            assert f"{f.search:+d}" in f.text and "search" in t, f.id
        if f.no_search:
            assert "search" in t, f.id
        for c in f.green:
            assert "good for" in t and states(t, c), (f.id, c.text)
        for c in f.red:
            assert "bad for" in t and states(t, c), (f.id, c.text)
        for e in f.effects:
            if e.name == "deal_buy":
                assert f"{e.get('price')} gold" in f.text and "once per turn" in t, (f.id, e)
                continue
            if e.name == "deal_sell":
                assert "sell" in t and "once per turn" in t, (f.id, e)
                continue
            amount = e.get("amount", e.get("hits"))
            assert f"{amount:+d}" in f.text or f"{amount} hit" in f.text, (f.id, e)
            if e.get("who") is not None:
                assert states(t, e.get("who")), (f.id, e)


# --- connectors ------------------------------------------------------------------------------------------

def test_connector_mix():
    mix = Counter(vocab.CONNECTOR_KINDS[c.back] for c in CS.connectors)
    assert mix == {"door": 30, "locked": 15, "secret": 10, "wall": 18}  # documented in docs/data.md


# --- monsters --------------------------------------------------------------------------------------------

def test_level_curve():
    levels = Counter(m.level for m in MONSTERS)
    assert set(levels) == set(range(1, 21))
    low = sum(n for lvl, n in levels.items() if lvl <= 10)
    assert low >= 2 * (len(MONSTERS) - low)  # more low than high
    # Falls off: each band of five levels has no more cards than the one below it.
    bands = [sum(levels[lvl] for lvl in range(b, b + 5)) for b in (1, 6, 11, 16)]
    assert bands == sorted(bands, reverse=True), bands
    assert all(m.treasure >= 1 for m in MONSTERS)


def test_sizes_follow_the_standees():
    """Q-COMP-4: 8 tiny, 8 small, 14 human, 8 huge standees of 38."""
    sizes = Counter(m.size for m in MONSTERS)
    for size, standees in (("tiny", 8), ("small", 8), ("human", 14), ("huge", 8)):
        expected = len(MONSTERS) * standees / 38
        assert abs(sizes[size] - expected) <= 2, (size, sizes[size], expected)


def test_every_movement_type():
    moves = Counter(m.movement for m in MONSTERS)
    assert moves["normal"] == max(moves.values())
    for mv in ("fast", "slow", "lurking", "backwards"):
        assert moves[mv] >= 4, mv


def test_special_movement():
    passes = Counter(p for m in MONSTERS for p in m.passes)
    assert passes["locked"] >= 3 and passes["secret"] >= 3 and passes["wall"] >= 2
    assert sum(m.smashes for m in MONSTERS) >= 3
    # Passing or smashing would be pointless on a monster that never moves by itself.
    assert not any((m.passes or m.smashes) for m in MONSTERS if m.movement == "lurking")


def test_mighty_and_dice():
    mighty = [m for m in MONSTERS if m.mighty]
    assert 5 <= len(mighty) <= 20
    assert sum(m.level for m in mighty) / len(mighty) > sum(m.level for m in MONSTERS) / len(MONSTERS)
    assert {m.dice for m in MONSTERS} == {0, 1, 2, 3}


def test_bonuses_ignores_runaway():
    who = {w for m in MONSTERS for w, _ in m.bonuses}
    assert who & set(vocab.RACES) and who & set(vocab.CLASSES) and who & set(vocab.GENDERS)
    assert set(vocab.GENDERS) <= who
    assert any(a > 0 for m in MONSTERS for _, a in m.bonuses)
    assert any(a < 0 for m in MONSTERS for _, a in m.bonuses)
    ignored = {w for m in MONSTERS for w in m.ignores}
    assert len(ignored) >= 3
    assert any(m.runaway > 0 for m in MONSTERS) and any(m.runaway < 0 for m in MONSTERS)


def test_every_bad_stuff_family_and_reward():
    assert all(m.bad_stuff for m in MONSTERS)
    bad = effect_names(MONSTERS, "bad_stuff")
    for name in vocab.effects_for(vocab.BAD_STUFF):
        assert bad[name], name
    assert {e.get("slot") for m in MONSTERS for e in m.bad_stuff if e.name == "lose_slot"} == \
        set(vocab.LOSABLE_SLOTS)
    assert any(e.name == "lose_gold" and e.get("amount") == 0 for m in MONSTERS for e in m.bad_stuff)
    rewards = effect_names(MONSTERS, "rewards")
    for name in vocab.effects_for(vocab.REWARD):
        assert rewards[name], name
    # Death is for the top of the deck only.
    assert all(m.level >= 15 for m in MONSTERS if any(e.name == "death" for e in m.bad_stuff))


def test_every_monster_keyword_is_used():
    used = {k for m in MONSTERS for k in m.keywords}
    assert used == set(vocab.MONSTER_KEYWORDS)
    assert all(m.keywords for m in MONSTERS)


_MOVE_WORDS = {"fast": "fast", "slow": "slow", "lurking": "lurk", "backwards": "backwards"}
_PASS_WORDS = {"locked": "locked", "secret": "secret", "wall": "wall"}
_SLOT_WORDS = {"head": "headgear", "armour": "armour", "feet": "footgear", "hands": "hands"}


def test_monster_texts_state_their_rules():
    for m in MONSTERS:
        t = m.text.lower()
        assert "bad stuff:" in t, m.id
        if m.movement != "normal":
            assert _MOVE_WORDS[m.movement] in t, (m.id, m.movement)
        for p in m.passes:
            assert _PASS_WORDS[p] in t, (m.id, p)
        if m.smashes:
            assert "smash" in t, m.id
        assert ("mighty" in t) == m.mighty, m.id
        for who, amount in m.bonuses:
            plural = _PLURAL.get(who, who + "s")
            assert re.search(re.escape(f"{amount:+d}") + rf" against {plural}\b", m.text), (m.id, who)
        for who in m.ignores:
            assert re.search(rf"ignores {_PLURAL.get(who, who + 's')}\b", t), (m.id, who)
        if m.runaway:
            assert f"{m.runaway:+d} to run away" in m.text, m.id
        for e in m.bad_stuff:
            if e.name == "lose_slot":
                assert _SLOT_WORDS[e.get("slot")] in t, (m.id, e)
            if e.name == "lose_gold":
                assert (str(e.get("amount")) in t) if e.get("amount") else "all" in t, (m.id, e)
            if e.name == "death":
                assert "dead" in t, m.id
        if m.rewards:
            assert "reward:" in t, m.id


# --- treasure ------------------------------------------------------------------------------------------

def test_every_slot_and_hand_count():
    assert {t.slot for t in ITEMS} == set(vocab.SLOTS)
    assert {t.hands for t in ITEMS if t.slot == "hands"} == {1, 2}
    assert all(t.slot == "belt" for t in ONESHOTS)
    assert all(t.slot is None for t in TREASURES if t.kind == "level")
    assert 1 <= sum(t.kind == "level" for t in TREASURES) <= 2  # levels should come mostly from fights
    # Every slot is well stocked, not just present (Q-COMP-1: a deck of about 81).
    per_slot = Counter((t.slot, t.hands) for t in ITEMS)
    for slot in ("head", "armour", "feet", "accessory", "clothing"):
        assert per_slot[(slot, 0)] >= 5, (slot, per_slot[(slot, 0)])
    assert per_slot[("hands", 1)] >= 8 and per_slot[("hands", 2)] >= 5
    assert per_slot[("belt", 0)] >= 2  # permanent bonuses that take no slot


def test_item_mechanics_present():
    assert sum(t.big for t in ITEMS) >= 3
    assert any(t.big and t.slot != "hands" for t in ITEMS)  # big is not only for weapons
    assert any(t.only for t in ITEMS) and any(t.not_for for t in ITEMS)
    restricted = {w for t in ITEMS for w in t.only + t.not_for}
    assert restricted & set(vocab.RACES) and restricted & set(vocab.CLASSES)
    assert restricted & set(vocab.GENDERS)
    assert "human" in restricted  # human is a race too, even without a race card (Q-CHAR-4)
    assert sum(bool(t.only or t.not_for) for t in ITEMS) >= 15
    assert sum(t.throwable for t in ITEMS) >= 2 and any(t.throwable for t in ONESHOTS)
    used = effect_names(ITEMS)
    for name in vocab.effects_for(vocab.ITEM):
        assert used[name], name
    assert any(e.name == "move" and e.get("amount") < 0 for t in ITEMS for e in t.effects)


def test_oneshot_mechanics_present():
    used = effect_names(ONESHOTS)
    for name in vocab.effects_for(vocab.ONESHOT):
        assert used[name], name
    assert {t.bonus for t in ONESHOTS if t.bonus} >= {2, 3, 4, 5}


def test_die_changing_cards():
    # Q-DATA-1 "die-changing cards"; Q-COMBAT-7: the only cards playable after the roll.
    changers = [(c, e.get("to")) for c in ONESHOTS + [d for d in DXM if d.kind == "oneshot"]
                for e in c.effects if e.name == "change_die"]
    assert 3 <= len(changers) <= 4, [c.id for c, _ in changers]
    assert {to for _, to in changers} >= {1, 6}  # good for your die, bad for theirs
    for c, to in changers:
        assert len(c.effects) == 1 and not c.bonus, c.id  # only after the roll: nothing else to do
        assert "after the dice of a fight are rolled" in c.text, c.id
        assert f"turn one die of either side to {to}." in c.text, c.id


def test_curse_cancelling_cards():
    # Q-DATA-1 "Wishing-Ring-like cancel", Q-CARD-8: one-shots that ride on the belt.
    cancels = [t for t in ONESHOTS if any(e.name == "cancel_curse" for e in t.effects)]
    assert len(cancels) == 2
    for t in cancels:
        assert t.slot == "belt" and len(t.effects) == 1 and not t.bonus, t.id
        assert "cancel a curse as it is played on you" in t.text, t.id
    assert not any(e.name == "cancel_curse" for d in DXM for e in d.effects)  # Treasure only


def test_values():
    values = [t.value for t in TREASURES if t.kind != "level"]
    assert min(values) == 0 and max(values) == 1000
    assert sum(v % 100 == 0 for v in values) >= 0.9 * len(values)


def test_every_item_keyword_is_used():
    assert {k for t in TREASURES for k in t.keywords} == set(vocab.ITEM_KEYWORDS)


def test_treasure_texts_state_their_rules():
    for t in TREASURES:
        text = t.text
        if t.kind == "level":
            assert "go up a level" in text.lower() and "10th level" in text, t.id
            continue
        if t.bonus:
            assert f"{t.bonus:+d}" in text, t.id
        if t.big:
            assert "Big." in text, t.id
        if t.throwable:
            assert "Throwable" in text, t.id
        if t.kind == "oneshot":
            assert text.startswith("One-shot"), t.id
        if t.slot == "hands":
            assert ("One hand" if t.hands == 1 else "Two hands") in text, t.id
        for w in t.only:
            assert "only by" in text and mentions(text, w), (t.id, w)
        for w in t.not_for:
            assert "Not usable by" in text and mentions(text, w), (t.id, w)
        for e in t.effects:
            if e.get("amount") is not None:
                assert f"{e.get('amount'):+d}" in text or f"{e.get('amount')} " in text, (t.id, e)


# --- DxM ---------------------------------------------------------------------------------------------------

def test_dxm_content():
    races = Counter(d.key for d in DXM if d.kind == "race")
    assert set(races) == set(vocab.RACE_CARD_KEYS) and all(2 <= n <= 3 for n in races.values())
    classes = Counter(d.key for d in DXM if d.kind == "class")
    assert classes == {c: 2 for c in vocab.CLASSES}
    # Few enough that levels come mostly from fights (measured with `mq sim`: 6 made games of 2 rounds).
    assert 2 <= sum(d.kind == "level" for d in DXM) <= 4
    oneshots = [d for d in DXM if d.kind == "oneshot"]
    assert {d.bonus for d in oneshots if d.bonus} >= {2, 3, 4, 5}
    used = effect_names(oneshots)
    for name in ("escape", "heal", "teleport"):
        assert used[name], name
    # Cheat! (Q-ITEM-4, Q-DATA-1): plain cards; what they do is engine code.
    cheats = [d for d in DXM if d.kind == "cheat"]
    assert len(cheats) == 2
    assert all(d.key is None and not d.bonus and not d.effects for d in cheats)


def test_dxm_texts():
    for d in DXM:
        if d.kind in ("race", "class"):
            assert d.text.startswith(f"{d.kind.capitalize()}: {d.key}."), d.id
        if d.kind == "class":
            assert "(discard power)" in d.text and "(d10 power)" in d.text, d.id  # Q-CHAR-5
        if d.kind == "level":
            assert "Go up a level" in d.text and "10th level" in d.text, d.id  # Q-LAW-2
        if d.kind == "oneshot":
            assert d.text.startswith("One-shot"), d.id
            if d.bonus:
                assert f"{d.bonus:+d}" in d.text, d.id
        if d.kind == "cheat":
            assert d.text.startswith("Cheat!: play on an item you have in play"), d.id
            for word in ("restrictions", "race", "class", "gender", "hands", "stays with the item"):
                assert word in d.text, (d.id, word)


# --- the whole set -------------------------------------------------------------------------------------

def test_every_effect_is_used_somewhere():
    """Q-DATA-1: every mechanic the data can ask for is exercised by at least one card or room."""
    used = (set(effect_names(FACES)) | set(effect_names(MONSTERS, "bad_stuff"))
            | set(effect_names(MONSTERS, "rewards")) | set(effect_names(TREASURES))
            | set(effect_names(DXM)))
    assert used == set(vocab.EFFECTS)


def test_docs_cover_every_vocabulary_word():
    """Q-DATA-2: the vocabularies are closed and documented (docs/data.md)."""
    doc = DOCS.read_text(encoding="utf-8")
    words = (vocab.COLOURS + vocab.DIRECTIONS + vocab.CONNECTOR_KINDS + vocab.WHO + vocab.SIZES
             + vocab.MOVEMENTS + vocab.PASSABLE + vocab.MONSTER_KEYWORDS + vocab.TREASURE_KINDS
             + vocab.SLOTS + vocab.ITEM_KEYWORDS + vocab.DXM_KINDS
             + tuple(vocab.EFFECTS))
    for w in words:
        assert f"`{w}`" in doc, w


# Commercial card names from the seeds' games (a sample): Q-DATA-1 forbids them, including
# near-verbatim translations. Checked case-insensitively against every name.
FORBIDDEN = (
    "munchkin", "plutonium dragon", "gelatinous octahedron", "floating nose", "net troll",
    "large angry chicken", "drooling slime", "lame goblin", "bigfoot", "squidzilla",
    "tongue demon", "wannabe vampire", "undead horse", "pit bull", "potted plant",
    "flying frogs", "shrieking geek", "screaming geek", "maul rat", "insurance salesman",
    "leperchaun", "mr. bones", "face sucker", "hippogriff", "ghoulfiends", "king tut",
    "stoned golem", "unspeakably awful", "3,872 orcs", "snails on speed", "gazebo", "kneebiter",
    "bullrog", "platycore", "pukachu", "wight brothers", "harpies", "amazon", "lawyers",
    "neurotic squirrel", "shadow nose", "argh eye", "padded cell", "fan club", "odd room",
    "boots of butt-kicking", "staff of napalm", "kneepads of allure", "flaming armor",
    "pointy hat of power", "firefighter", "eleven-foot pole", "rat on a stick", "stepladder",
    "horny helmet", "mace of sharpness", "wishing ring", "loaded die", "half-breed",
    "super munchkin", "wandering monster", "bribe gm", "boil an anthill", "invoke obscure rules",
    "whine at the gm", "convenient addition error", "cotion of ponfusion", "yuppie water",
    "pretty balloons", "hoard", "doppleganger", "sneaky bastard sword", "chainsaw of bloody",
    "cheese grater of peace", "singing & dancing sword", "swiss army polearm", "tuba of charm",
    "hireling", "sandals of protection", "short wide armor", "slimy armor", "leather armor",
    "mithril armor", "buckler of swashing", "gentlemen's club", "hammer of kneecapping",
    "helm of courage", "huge rock", "limburger", "pantyhose", "rapier of unfairness",
    "really impressive title", "spiky knees", "bad-ass bandanna", "cloak of obscurity",
    "dagger of treachery", "instant wall", "magic lamp", "polymorph potion", "transferral potion",
)


@pytest.mark.parametrize("card", [*MONSTERS, *TREASURES, *DXM, *FACES, CS.entrance],
                         ids=lambda c: c.id)
def test_names_are_original(card):
    """Q-DATA-1: original names, never a commercial card's."""
    name = card.name.lower()
    for bad in FORBIDDEN:
        assert bad not in name, (card.id, card.name, bad)


def test_data_files_are_package_data():
    root = importlib.resources.files("mq") / "data"
    for name in ("rooms.toml", "connectors.toml", "monsters.toml", "treasure.toml", "dxm.toml"):
        assert (root / name).is_file()
