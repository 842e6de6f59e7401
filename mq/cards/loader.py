"""TOML data files -> validated, frozen card definitions (RULES Q-DATA; schema in docs/data.md).

A card set is a directory holding five files: ``rooms.toml``, ``connectors.toml``,
``monsters.toml``, ``treasure.toml`` and ``dxm.toml``. :func:`load_cards` reads one;
:func:`load_default` reads the set shipped in ``mq/data`` (package data, read through
``importlib.resources`` so it works from a wheel or a zip too) and caches it.

Invariants:
- Everything is validated before a definition is built: types (a bool is never accepted as an int
  nor the reverse), ranges, the closed vocabularies of :mod:`mq.cards.vocab`, required fields,
  and **unknown keys are errors** at every level, so a typo can never be silently ignored.
- The first problem found raises :class:`DataError`, whose message names the file, the entry id
  and the field: ``monsters.toml: M12: keywords: unknown keyword 'flyng' (did you mean 'flying'?)``.
- Loading is a pure function of the files' bytes: same files, equal (and equally ordered) defs on
  every peer. Order is the file's order; ``count = k`` expands an entry in place into ids
  ``X, X.2 .. X.k``.
"""
from __future__ import annotations

import dataclasses
import difflib
import functools
import importlib.resources
import os
import re
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

from mq.cards import conditions
from mq.cards import vocab as V
from mq.cards.conditions import Condition, ConditionError
from mq.cards.defs import (
    CardSet,
    ConnectorDef,
    DataError,
    DxmDef,
    Effect,
    MonsterDef,
    Param,
    RoomFace,
    RoomTile,
    TreasureDef,
)

ROOMS, CONNECTORS, MONSTERS, TREASURE, DXM = (
    "rooms.toml", "connectors.toml", "monsters.toml", "treasure.toml", "dxm.toml")
FILES = (ROOMS, CONNECTORS, MONSTERS, TREASURE, DXM)
ENTRANCE_ID = "ENTRANCE"

_MISSING: Any = object()


# --- public API ---------------------------------------------------------------------------------

def load_cards(path: str | os.PathLike | Any) -> CardSet:
    """Load and validate the card set in directory ``path`` (a path or an importlib Traversable)."""
    root = Path(path) if isinstance(path, (str, os.PathLike)) else path
    docs = {name: _read(root, name) for name in FILES}
    entrance, rooms = _load_rooms(docs[ROOMS])
    return CardSet(
        entrance=entrance,
        rooms=rooms,
        connectors=_load_connectors(docs[CONNECTORS]),
        monsters=_load_deck(_without_standees(docs[MONSTERS]), MONSTERS, "monster", "M", _monster),
        treasures=_load_deck(docs[TREASURE], TREASURE, "treasure", "T", _treasure),
        dxm=_load_deck(docs[DXM], DXM, "card", "D", _dxm),
        standees=_standees(docs[MONSTERS]),
    )


@functools.cache
def load_default() -> CardSet:
    """The default card set of ``mq/data``, loaded once per process."""
    return load_cards(importlib.resources.files("mq") / "data")


def load_entries(name: str, doc: dict, file: str | None = None) -> tuple:
    """Validate the entries of one data file that adds to a set (extra packs and scenario cards,
    mq.cards.pack): ``doc`` is the parsed TOML of ``name`` (one of FILES) holding only its array
    of tables — ``[[tile]]`` for rooms.toml, never an ``[entrance]``. Errors name ``file``
    (default ``name``). Returns the definitions in file order (RoomTile for rooms.toml)."""
    file = file or name
    if name == ROOMS:
        _top(doc, file, ("tile",))
        return _tiles(doc, file)
    if name == CONNECTORS:
        return _load_connectors(doc, file)
    key, prefix, parse = {MONSTERS: ("monster", "M", _monster), TREASURE: ("treasure", "T", _treasure),
                          DXM: ("card", "D", _dxm)}[name]
    return _load_deck(doc, file, key, prefix, parse)


# --- reading ------------------------------------------------------------------------------------

def _read(root: Any, name: str) -> dict:
    f = root / name
    if not f.is_file():
        raise DataError(name, "", "", f"file not found in {root}")
    try:
        # Decode ourselves: tomllib wants str, and a BOM or bad UTF-8 should name the file.
        text = f.read_bytes().decode("utf-8")
        return tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DataError(name, "", "", f"not valid TOML: {exc}") from None


def _type_name(v: object) -> str:
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int):
        return "integer"
    return {str: "string", list: "array", dict: "table", float: "float"}.get(type(v), "date/time")


def _shown(v: object) -> str:
    return f"{_type_name(v)} {v!r}" if not isinstance(v, (list, dict)) else _type_name(v)


def _hint(word: str, choices: tuple[str, ...] | list[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if close:
        return f" (did you mean {close[0]!r}?)"
    if len(choices) <= 12:
        return f" (expected one of: {', '.join(choices)})"
    return ""


class _Entry:
    """One TOML table being read: typed getters that record which keys were read, so that
    :meth:`finish` can reject every key nobody asked for."""

    def __init__(self, file: str, where: str, table: dict) -> None:
        self.file, self.where, self.table = file, where, table
        self.used: set[str] = set()

    def err(self, key: str, message: str) -> DataError:
        return DataError(self.file, self.where, key, message)

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        self.used.add(key)
        if key in self.table:
            return self.table[key]
        if default is _MISSING:
            # A required key is often missing because it is misspelt: point at the typo.
            typo = difflib.get_close_matches(key, [k for k in self.table if isinstance(k, str)],
                                             n=1, cutoff=0.6)
            hint = f" (is {typo[0]!r} a misspelling of {key!r}?)" if typo else ""
            raise self.err(key, f"missing (required){hint}")
        return default

    def forbid(self, keys: tuple[str, ...], why: str) -> None:
        for key in keys:
            if key in self.table:
                raise self.err(key, f"not allowed {why}")
            self.used.add(key)

    def string(self, key: str, default: Any = _MISSING) -> str:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, str):
            raise self.err(key, f"must be a string, got {_shown(v)}")
        if not v.strip():
            raise self.err(key, "must not be empty")
        return v.strip()

    def integer(self, key: str, lo: int, hi: int, default: Any = _MISSING) -> int:
        v = self.raw(key, default)
        return _check_int(v, lo, hi, lambda m: self.err(key, m))

    def boolean(self, key: str, default: bool = False) -> bool:
        v = self.raw(key, default)
        if not isinstance(v, bool):
            raise self.err(key, f"must be true or false, got {_shown(v)}")
        return v

    def choice(self, key: str, choices: tuple[str, ...], what: str, default: Any = _MISSING) -> str:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        return _check_word(v, choices, what, lambda m: self.err(key, m))

    def words(self, key: str, choices: tuple[str, ...], what: str) -> tuple[str, ...]:
        """An array of distinct words from ``choices`` (default: empty), in file order."""
        v = self.raw(key, [])
        if not isinstance(v, list):
            raise self.err(key, f"must be an array of strings, got {_shown(v)}")
        out: list[str] = []
        for w in v:
            w = _check_word(w, choices, what, lambda m: self.err(key, m))
            if w in out:
                raise self.err(key, f"{what} {w!r} listed twice")
            out.append(w)
        return tuple(out)

    def table_of(self, key: str, default: Any = _MISSING) -> dict:
        v = self.raw(key, default)
        if not isinstance(v, dict):
            raise self.err(key, f"must be a table, got {_shown(v)}")
        return v

    def finish(self) -> None:
        for key in self.table:
            if key not in self.used:
                raise self.err(key, f"unknown field{_hint(key, sorted(self.used))}")


def _check_int(v: object, lo: int, hi: int, err: Callable[[str], DataError]) -> int:
    # bool is an int subclass in Python; `level = true` must not load as level 1.
    if not isinstance(v, int) or isinstance(v, bool):
        raise err(f"must be an integer, got {_shown(v)}")
    if not lo <= v <= hi:
        raise err(f"{v} is out of range {lo}..{hi}")
    return v


def _check_word(v: object, choices: tuple[str, ...], what: str,
                err: Callable[[str], DataError]) -> str:
    if not isinstance(v, str):
        raise err(f"must be a string ({what}), got {_shown(v)}")
    if v not in choices:
        raise err(f"unknown {what} {v!r}{_hint(v, choices)}")
    return v


def _ident(e: _Entry, prefix: str) -> str:
    v = e.raw("id")
    if not isinstance(v, str) or not re.fullmatch(rf"{prefix}\d{{2,3}}", v):
        raise e.err("id", f"{v!r} is not an id of the form {prefix}01 ({prefix} and 2-3 digits)")
    return v


def _where(table: object, kind: str, i: int) -> str:
    """How errors name an entry: its id when it has a readable one, else its position."""
    if isinstance(table, dict) and isinstance(table.get("id"), str) and table["id"]:
        return table["id"]
    return f"{kind} #{i + 1}"


def _top(doc: dict, file: str, keys: tuple[str, ...]) -> None:
    for key in doc:
        if key not in keys:
            raise DataError(file, "", key, f"unknown top-level key (expected: {', '.join(keys)})")


def _array_of_tables(doc: dict, file: str, key: str) -> list[dict]:
    v = doc.get(key)
    if v is None:
        raise DataError(file, "", key, f"missing: the file needs [[{key}]] entries")
    if not isinstance(v, list) or not all(isinstance(t, dict) for t in v) or not v:
        raise DataError(file, "", key, f"must be a non-empty array of tables ([[{key}]])")
    return v


# --- effects ------------------------------------------------------------------------------------

def _effects(e: _Entry, key: str, context: str, required: bool = False,
             vocabulary: ModuleType = V) -> tuple[Effect, ...]:
    """The effects list ``key`` of ``e``, each allowed in ``context`` of ``vocabulary``: a module
    with ``EFFECTS`` and ``effects_for`` (Quest's vocab; the Classic loader passes classic_vocab)."""
    raw = e.raw(key, _MISSING if required else [])
    allowed = vocabulary.effects_for(context)
    if not isinstance(raw, list) or not all(isinstance(t, dict) for t in raw):
        raise e.err(key, 'must be an array of inline tables, e.g. [{ name = "hits", n = 1 }]')
    out: list[Effect] = []
    for i, item in enumerate(raw):
        label = f"{key}[{i}]"
        name = item.get("name", _MISSING)
        if name is _MISSING:
            raise e.err(label, "missing effect name (name = ...)")
        if not isinstance(name, str):
            raise e.err(label + ".name", f"must be a string, got {_shown(name)}")
        spec = vocabulary.EFFECTS.get(name)
        if spec is None:
            raise e.err(label, f"unknown effect {name!r}{_hint(name, allowed)}")
        if context not in spec.contexts:
            raise e.err(label, f"effect {name!r} is not allowed here "
                               f"(allowed: {', '.join(allowed) or 'none'})")
        expects = {p.key: p for p in spec.params}
        for k in item:
            if k != "name" and k not in expects:
                raise e.err(label, f"unknown parameter {k!r} of effect {name!r} "
                                   f"(expects: {', '.join(expects) or 'no parameters'})")
        params: list[tuple[str, Param]] = []
        for p in spec.params:  # already sorted by key (vocab invariant)
            if p.key not in item:
                raise e.err(f"{label}.{p.key}", f"missing parameter of effect {name!r}")
            params.append((p.key, _param(item[p.key], p, name,
                                         lambda m, k=p.key: e.err(f"{label}.{k}", m))))
        eff = Effect(name, tuple(params))
        if eff in out:
            raise e.err(label, f"duplicate effect {name!r}")
        out.append(eff)
    return tuple(out)


def _param(v: object, p: V.ParamSpec, effect: str, err: Callable[[str], DataError]) -> Param:
    what = f"parameter {p.key!r} of effect {effect!r}"
    if p.type == V.INT:
        if not isinstance(v, int) or isinstance(v, bool):
            raise err(f"{what} must be an integer, got {_shown(v)}")
        n = _check_int(v, p.lo, p.hi, lambda m: err(f"{what}: {m}"))
        if p.nonzero and n == 0:
            raise err(f"{what} must not be 0 (the effect would do nothing)")
        return n
    if p.type == V.BOOL:
        if not isinstance(v, bool):
            raise err(f"{what} must be true or false, got {_shown(v)}")
        return v
    if p.type == V.STR:
        if not isinstance(v, str):
            raise err(f"{what} must be a string, got {_shown(v)}")
        if p.choices and v not in p.choices:
            raise err(f"{what}: unknown value {v!r}{_hint(v, p.choices)}")
        return v
    if p.type == V.COND:
        try:
            return conditions.parse(v, allow_any=True)
        except ConditionError as exc:
            raise err(f"{what}: {exc}") from None
    # STRS: an array of distinct strings
    if not isinstance(v, list) or not all(isinstance(w, str) for w in v):
        raise err(f"{what} must be an array of strings, got {_shown(v)}")
    for w in v:
        if p.choices and w not in p.choices:
            raise err(f"{what}: unknown value {w!r}{_hint(w, p.choices)}")
    if len(set(v)) != len(v):
        raise err(f"{what}: a value is listed twice")
    return tuple(v)


# --- rooms.toml ---------------------------------------------------------------------------------

def _load_rooms(doc: dict) -> tuple[RoomFace, tuple[RoomTile, ...]]:
    _top(doc, ROOMS, ("entrance", "tile"))
    if "entrance" not in doc:
        raise DataError(ROOMS, "", "entrance", "missing: the file needs an [entrance] table")
    if not isinstance(doc["entrance"], dict):
        raise DataError(ROOMS, "", "entrance", f"must be a table, got {_shown(doc['entrance'])}")
    entrance = _entrance(_Entry(ROOMS, ENTRANCE_ID, doc["entrance"]))
    return entrance, _tiles(doc, ROOMS)


def _tiles(doc: dict, file: str) -> tuple[RoomTile, ...]:
    tiles: list[RoomTile] = []
    seen: set[str] = set()
    for i, table in enumerate(_array_of_tables(doc, file, "tile")):
        e = _Entry(file, _where(table, "tile", i), table)
        tid = _ident(e, "R")
        if tid in seen:
            raise e.err("id", f"duplicate id {tid!r}")
        seen.add(tid)
        faces = []
        for side in ("a", "b"):
            sub = e.table_of(side)
            faces.append(_face(_Entry(file, tid + side, sub), tid))
        e.finish()
        tiles.append(RoomTile(tid, (faces[0], faces[1])))
    return tuple(tiles)


def _entrance(e: _Entry) -> RoomFace:
    # Q-LAW-3/4: the Entrance never holds a monster outside a Boss fight, so it has no arrows,
    # icons or effects; and it cannot be searched.
    name, text = e.string("name"), e.string("text")
    if not e.boolean("no_search", True):
        raise e.err("no_search", "the Entrance cannot be searched: no_search must be true")
    e.finish()
    return RoomFace(ENTRANCE_ID, ENTRANCE_ID, name, text, (V.NO_ARROW,) * len(V.COLOURS),
                    (), (), 0, True, ())


def _face(e: _Entry, tile: str) -> RoomFace:
    name, text = e.string("name"), e.string("text")
    arrows = _arrows(e)
    green, red = _icons(e, "green"), _icons(e, "red")
    both = [c for c in green if c in red]
    if both:
        raise e.err("red", f"{both[0].text!r} is both a green and a red icon")
    search = e.integer("search", V.SEARCH_MIN, V.SEARCH_MAX, 0)
    no_search = e.boolean("no_search", False)
    if no_search and search:
        raise e.err("search", "a no_search room cannot also have a search modifier")
    effects = _effects(e, "effects", V.ROOM)
    e.finish()
    return RoomFace(e.where, tile, name, text, arrows, green, red, search, no_search, effects)


def _icons(e: _Entry, key: str) -> tuple[Condition, ...]:
    """Q-COMBAT-6: an array of distinct conditions ("good for"/"bad for"), in file order."""
    v = e.raw(key, [])
    if not isinstance(v, list):
        raise e.err(key, f"must be an array of conditions, got {_shown(v)}")
    out: list[Condition] = []
    for i, text in enumerate(v):
        try:
            c = conditions.parse(text)
        except ConditionError as exc:
            raise e.err(f"{key}[{i}]", str(exc)) from None
        if c in out:
            raise e.err(key, f"condition {c.text!r} listed twice")
        out.append(c)
    return tuple(out)


def _arrows(e: _Entry) -> tuple[int, ...]:
    raw = e.table_of("arrows")
    out = [V.NO_ARROW] * len(V.COLOURS)
    for colour, d in raw.items():
        field = f"arrows.{colour}"
        if colour not in V.COLOURS:
            raise e.err(field, f"unknown colour {colour!r}{_hint(colour, V.COLOURS)}")
        if isinstance(d, list) and len(d) > 1:
            raise e.err(field, f"{len(d)} directions {d}: a room has at most one arrow "
                               f"per colour (Q-MT-2)")
        d = _check_word(d, V.DIRECTIONS, "direction", lambda m: e.err(field, m))
        out[V.COLOURS.index(colour)] = V.DIRECTIONS.index(d)
    return tuple(out)


# --- connectors.toml ----------------------------------------------------------------------------

def _load_connectors(doc: dict, file: str = CONNECTORS) -> tuple[ConnectorDef, ...]:
    _top(doc, file, ("connector",))
    out: list[ConnectorDef] = []
    seen: set[str] = set()
    for i, table in enumerate(_array_of_tables(doc, file, "connector")):
        e = _Entry(file, _where(table, "connector", i), table)
        cid = _ident(e, "C")
        if cid in seen:
            raise e.err("id", f"duplicate id {cid!r}")
        seen.add(cid)
        back = e.choice("back", V.CONNECTOR_BACKS, "connector back")
        e.finish()
        out.append(ConnectorDef(cid, V.CONNECTOR_KINDS.index(back)))
    return tuple(out)


# --- the three decks ----------------------------------------------------------------------------

def _load_deck(doc: dict, file: str, key: str, prefix: str,
               parse: Callable[[_Entry, str], Any]) -> tuple:
    _top(doc, file, (key,))
    out: list = []
    seen: set[str] = set()
    for i, table in enumerate(_array_of_tables(doc, file, key)):
        e = _Entry(file, _where(table, key, i), table)
        cid = _ident(e, prefix)
        # Copies are "X.2".."X.k"; a base id never contains a dot, so copies never collide with
        # another entry's base id, only with a repeated entry.
        if cid in seen:
            raise e.err("id", f"duplicate id {cid!r}")
        seen.add(cid)
        count = e.integer("count", 1, V.COUNT_MAX, 1)
        defn = parse(e, cid)
        e.finish()
        out.append(defn)
        out.extend(dataclasses.replace(defn, id=f"{cid}.{k}") for k in range(2, count + 1))
    return tuple(out)


def _without_standees(doc: dict) -> dict:
    return {k: v for k, v in doc.items() if k != "standees"}


def _standees(doc: dict) -> tuple[tuple[str, int], ...]:
    """Q-COMP-4: the ``[standees]`` table of a full set's monsters.toml, size -> count (every size
    present), enough for every monster that can be on the board at once (Q-MON-2: 3 bases of each
    of the 6 colours), so a new monster always finds one."""
    if "standees" not in doc:
        raise DataError(MONSTERS, "", "standees", "missing: the file needs a [standees] table (Q-COMP-4)")
    table = doc["standees"]
    if not isinstance(table, dict):
        raise DataError(MONSTERS, "", "standees", f"expected a table, got {_type_name(table)}")
    e = _Entry(MONSTERS, "standees", table)
    out = tuple((size, e.integer(size, 0, V.STANDEES_MAX)) for size in V.SIZES)
    e.finish()
    total = sum(n for _, n in out)
    if total < V.MONSTERS_ON_BOARD_MAX:
        raise DataError(MONSTERS, "standees", "", f"{total} standees, fewer than the {V.MONSTERS_ON_BOARD_MAX} "
                        "monsters that can be on the board at once")
    return out


def _monster(e: _Entry, cid: str) -> MonsterDef:
    name, text = e.string("name"), e.string("text")
    level = e.integer("level", V.LEVEL_MIN, V.LEVEL_MAX)
    dice = e.integer("dice", V.DICE_MIN, V.DICE_MAX)
    treasure = e.integer("treasure", 0, V.TREASURE_MAX)
    mighty = e.boolean("mighty", False)
    size = e.choice("size", V.SIZES, "size", "human")
    movement = e.choice("movement", V.MOVEMENTS, "movement", "normal")
    passes = e.words("passes", V.PASSABLE, "connector kind")
    smashes = e.boolean("smashes", False)
    raw_kw = e.raw("keywords", [])
    if isinstance(raw_kw, list):
        for w in raw_kw:
            # A common slip: the seeds list size and movement among the keywords (Q-DATA-2).
            if w in V.SIZES or w in V.MOVEMENTS:
                field = "size" if w in V.SIZES else "movement"
                raise e.err("keywords", f"{w!r} is a {field}, not a keyword: "
                                        f"write {field} = {w!r}")
    keywords = e.words("keywords", V.MONSTER_KEYWORDS, "keyword")
    bonuses = _bonuses(e)
    ignores = e.words("ignores", V.WHO, "race/class/gender")
    for who, _ in bonuses:
        if who in ignores:
            raise e.err("ignores", f"{who!r} is ignored and also gets a bonus against it")
    runaway = e.integer("runaway", V.RUNAWAY_MIN, V.RUNAWAY_MAX, 0)
    bad_stuff = _effects(e, "bad_stuff", V.BAD_STUFF, required=True)
    if not bad_stuff:
        raise e.err("bad_stuff", "must not be empty: every monster has Bad Stuff")
    if len(bad_stuff) > 1 and any(b.name == "death" for b in bad_stuff):
        # Q-DEATH-1: after death no further Bad Stuff applies, so nothing may follow or precede.
        raise e.err("bad_stuff", "'death' must be the only Bad Stuff of its monster")
    rewards = _effects(e, "rewards", V.REWARD)
    return MonsterDef(cid, name, text, level, dice, treasure, mighty, size, movement, passes,
                      smashes, keywords, bonuses, ignores, runaway, bad_stuff, rewards)


def _bonuses(e: _Entry, words: tuple[str, ...] = V.WHO) -> tuple[tuple[str, int], ...]:
    """A monster's modifiers against a race, class or gender (``words``: the mode's, Classic's
    with the packs' races and classes)."""
    raw = e.table_of("bonuses", {})
    out = []
    for who, amount in raw.items():
        field = f"bonuses.{who}"
        _check_word(who, words, "race/class/gender", lambda m: e.err(field, m))
        n = _check_int(amount, V.BONUS_MIN, V.BONUS_MAX, lambda m: e.err(field, m))
        if n == 0:
            raise e.err(field, "must not be 0")
        out.append((who, n))
    return tuple(out)


def _treasure(e: _Entry, cid: str) -> TreasureDef:
    name, text = e.string("name"), e.string("text")
    kind = e.choice("kind", V.TREASURE_KINDS, "treasure kind")
    if kind == "level":
        # A "go up a level" card is only that (Q-CHAR-1): no slot, bonus, value or powers.
        e.forbid(("slot", "hands", "big", "bonus", "value", "only", "not_for", "throwable",
                  "keywords", "effects"), "on a level card")
        return TreasureDef(cid, name, text, kind, None, 0, False, 0, 0, (), (), False, (), ())
    if kind == "oneshot":
        slot = e.choice("slot", ("belt",), "one-shot slot (one-shots ride on the belt)", "belt")
        e.forbid(("hands", "big"), "on a one-shot")
        hands, big = 0, False
    else:
        slot = e.choice("slot", V.SLOTS, "slot")
        if slot == "hands":
            hands = e.integer("hands", 1, 2)
        else:
            e.forbid(("hands",), "unless slot = \"hands\"")
            hands = 0
        big = e.boolean("big", False)
    bonus = e.integer("bonus", V.ITEM_BONUS_MIN, V.ITEM_BONUS_MAX, 0)
    value = e.integer("value", V.VALUE_MIN, V.VALUE_MAX, 0)
    only = e.words("only", V.WHO, "race/class/gender")
    not_for = e.words("not_for", V.WHO, "race/class/gender")
    both = [w for w in only if w in not_for]
    if both:
        raise e.err("not_for", f"{both[0]!r} is in both only and not_for")
    throwable = e.boolean("throwable", False)
    keywords = e.words("keywords", V.ITEM_KEYWORDS, "item keyword")
    effects = _effects(e, "effects", V.ITEM if kind == "item" else V.ONESHOT)
    if kind == "oneshot" and not bonus and not effects:
        raise e.err("effects", "a one-shot must do something: give it a bonus or an effect")
    return TreasureDef(cid, name, text, kind, slot, hands, big, bonus, value, only, not_for,
                       throwable, keywords, effects)


def _dxm(e: _Entry, cid: str) -> DxmDef:
    name, text = e.string("name"), e.string("text")
    kind = e.choice("kind", V.DXM_KINDS, "DxM kind")
    key: str | None = None
    bonus = 0
    effects: tuple[Effect, ...] = ()
    if kind == "race":
        if e.raw("key", None) == "human":
            raise e.err("key", "'human' is not a race card: a munchkin without a race card "
                               "is human (Q-CHAR-4)")
        key = e.choice("key", V.RACE_CARD_KEYS, "race")
    elif kind == "class":
        key = e.choice("key", V.CLASSES, "class")
    else:
        e.forbid(("key",), f"on a {kind} card (only race and class cards have a key)")
    if kind == "enhancer":  # Q-CARD-6, Q-COMBAT-13: a monster's strength up or down
        bonus = e.integer("bonus", V.BONUS_MIN, V.BONUS_MAX)
        if bonus == 0:
            raise e.err("bonus", "an enhancer must change the monster's strength")
        effects = _effects(e, "effects", V.ENHANCER)
    elif kind == "curse":  # Q-CARD-8
        e.forbid(("bonus",), "on a curse")
        effects = _effects(e, "effects", V.CURSE, required=True)
        if not effects:
            raise e.err("effects", "a curse must do something")
    elif kind in ("wandering", "halfbreed", "supermunchkin", "cheat", "mate"):  # Q-CARD-5, 6; Q-ITEM-4
        e.forbid(("bonus", "effects"), f"on a {kind} card")
    elif kind == "oneshot":
        bonus = e.integer("bonus", V.BONUS_MIN, V.BONUS_MAX, 0)
        effects = _effects(e, "effects", V.DXM_ONESHOT)
        if not bonus and not effects:
            raise e.err("effects", "a one-shot must do something: give it a bonus or an effect")
    else:
        # Race and class powers are engine code keyed on `key` (their text states them).
        e.forbid(("bonus", "effects"), f"on a {kind} card")
    return DxmDef(cid, name, text, kind, key, bonus, effects)
