"""Scenario files: any position of a game set up in TOML, actions applied to it, the outcome checked.

The format is documented in docs/scenarios.md. ``load(path)`` validates a file and builds a real
:class:`mq.rules.state.State`; ``run(scenario)`` applies its ``[[action]]`` list with
``mq.rules.step``; ``check(result)`` compares the outcome with the file's ``[expect]`` table;
``to_json(result)`` is the documented, stable JSON shape; ``narrate`` and ``describe`` are the text
output; ``add_commands(subparsers)`` registers ``mq scenario FILE [--json]`` (mq/cli.py).

Invariants:
- Pure: the same file (and card data) gives the same position, events and state hash everywhere.
- The position starts as ``mq.rules.new_game(params, seed, cards)`` and only what the file sets is
  replaced, so every field it leaves out has a fresh game's value: decks keep the seed's shuffled
  order, unspecified hands are dealt from it as in a fresh game (Q-SETUP-3).
- No card exists twice: a card placed anywhere (hand, race/class, items, room pile, monster,
  enhancer, listed deck or discard) is taken out of everywhere else, and placing one twice is an
  error. Extra card definitions go through the card loader's own validation (mq.cards.pack).
- Every problem of a file raises :class:`ScenarioError` naming the file and the field
  (``combat.toml: player[2].worn: ...``); bad card definitions raise the loader's ``DataError``.
- The engine alone decides legality: actions go through ``mq.rules.step`` and the first illegal
  one stops the run with its reason code (``IllegalAction.reason``). After building, the loader
  lets the rules act by themselves once, as after any action (``flow.settle``: a fight starts when
  the active munchkin shares a room with a hostile monster, Q-COMBAT-1, Q-TURN-5; the Boss comes
  to a level-10 munchkin in the Entrance, Q-BOSS-1).
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from mq.cards import CardKind, CardSet, DataError, DxmDef, MonsterDef, TreasureDef, load_default
from mq.cards import pack as _pack
from mq.cards.vocab import CONNECTOR_KINDS, DIRECTIONS, SIZES
from mq.classic import is_classic
from mq.narrate import Narrator
from mq.rules import CLASSIC, MODES, QUEST, REASONS, IllegalAction, make_params, new_game, state_hash, step
from mq.rules import flow as _flow
from mq.rules.actions import ALL_KINDS, Action
from mq.rules.actions import encode as encode_action
from mq.rules.character import BACKPACK_SIZE, identity, max_hp, move_total, place_for
from mq.rules.monsters import level_of, standee_for
from mq.rules.node import Node
from mq.rules.state import (
    BACKPACK,
    BELT,
    CARRIED,
    COLOURS,
    DX,
    DY,
    OVER,
    SETUP,
    TURN,
    WORN,
    Deck,
    Item,
    Monster,
    Room,
    State,
    Turn,
)
from mq.rules.tx import Tx

MARKS = ("none", "searched", "looted")  # Room.mark codes (Q-SEARCH-2)
PLACES = (WORN, CARRIED, BELT, BACKPACK)  # Q-ITEM-1
DECKS = ("monster", "treasure", "dxm")
ALL_DECKS = DECKS + ("rooms", "connectors")
ENTRANCE = "ENTRANCE"
MAX_BASES = 3  # per colour (Q-COMP-5)
_MISSING: Any = object()

# Exit codes of ``mq scenario``.
EXIT_OK, EXIT_ILLEGAL, EXIT_INVALID, EXIT_EXPECT = 0, 1, 2, 3


class ScenarioError(ValueError):
    """An invalid scenario file: ``file: field: problem``."""

    def __init__(self, file: str, where: str, message: str) -> None:
        self.file, self.where, self.message = file, where, message
        super().__init__(": ".join(p for p in (file, where, message) if p))


@dataclasses.dataclass(frozen=True)
class Scenario:
    """A loaded file: the card set (default + extras), the position before the first action, what the
    rules did by themselves while settling it, the actions with their notes, and the expectations."""

    path: str
    title: str
    description: str
    cards: CardSet
    state: State
    setup_events: tuple
    actions: tuple[Action, ...]
    says: tuple[str, ...]  # one note per action ("" = none)
    expect: dict | None


@dataclasses.dataclass(frozen=True)
class Stop:
    """The illegal action that ended a run: its 1-based number in the file, and the engine's reason."""

    number: int
    action: Action
    reason: str
    detail: str


@dataclasses.dataclass(frozen=True)
class Result:
    scenario: Scenario
    state: State  # after the last legal action
    steps: tuple[tuple[Action, tuple], ...]  # each applied action and its events
    stopped: Stop | None

    @property
    def events(self) -> tuple:
        return self.scenario.setup_events + tuple(e for _, evs in self.steps for e in evs)


# -- reading tables --------------------------------------------------------------------------
def _hint(word: str, choices) -> str:
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _kind_of(v: object) -> str:
    if isinstance(v, bool):
        return "a boolean"
    return {int: "an integer", str: "a string", list: "an array", dict: "a table", float: "a float"}.get(
        type(v), "a date/time")


class _Table:
    """One TOML table being read: typed getters that remember the keys read, so that
    :meth:`finish` refuses every other key (a typo is never silently ignored)."""

    def __init__(self, file: str, where: str, table: object) -> None:
        self.file, self.where = file, where
        if not isinstance(table, dict):
            raise ScenarioError(file, where, f"must be a table, got {_kind_of(table)}")
        self.table = table
        self.used: set[str] = set()

    def err(self, key: str | None, message: str) -> ScenarioError:
        where = f"{self.where}.{key}" if key and self.where else (key or self.where)
        return ScenarioError(self.file, where, message)

    def has(self, key: str) -> bool:
        self.used.add(key)
        return key in self.table

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        self.used.add(key)
        if key in self.table:
            return self.table[key]
        if default is _MISSING:
            raise self.err(key, "missing (required)")
        return default

    def int(self, key: str, lo: int, hi: int, default: Any = _MISSING) -> Any:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if type(v) is not int:
            raise self.err(key, f"must be an integer, got {_kind_of(v)}")
        if not lo <= v <= hi:
            raise self.err(key, f"{v} is out of range {lo}..{hi}")
        return v

    def bool(self, key: str, default: Any = _MISSING) -> Any:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if type(v) is not bool:
            raise self.err(key, f"must be true or false, got {_kind_of(v)}")
        return v

    def str(self, key: str, default: Any = _MISSING, choices=None) -> Any:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, str):
            raise self.err(key, f"must be a string, got {_kind_of(v)}")
        if choices is not None and v not in choices:
            raise self.err(key, f"unknown value {v!r}{_hint(v, choices)} (expected one of: {', '.join(choices)})")
        return v

    def strs(self, key: str, default: Any = _MISSING, choices=None) -> Any:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise self.err(key, "must be an array of strings")
        for x in v:
            if choices is not None and x not in choices:
                raise self.err(key, f"unknown value {x!r}{_hint(x, choices)} (expected: {', '.join(choices)})")
        return list(v)

    def ints(self, key: str, lo: int, hi: int, default: Any = _MISSING) -> Any:
        v = self.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if not isinstance(v, list) or not all(type(x) is int for x in v):
            raise self.err(key, "must be an array of integers")
        for x in v:
            if not lo <= x <= hi:
                raise self.err(key, f"{x} is out of range {lo}..{hi}")
        return list(v)

    def sub(self, key: str, where: str | None = None) -> _Table | None:
        v = self.raw(key, None)
        if v is None:
            return None
        return _Table(self.file, where or (f"{self.where}.{key}" if self.where else key), v)

    def tables(self, key: str) -> list[dict]:
        v = self.raw(key, [])
        if not isinstance(v, list) or not all(isinstance(t, dict) for t in v):
            raise self.err(key, f"must be an array of tables ([[{key}]])")
        return v

    def finish(self, known=()) -> None:
        """Refuse every key nobody read; ``known`` adds optional names to the hint."""
        for key in self.table:
            if key not in self.used:
                raise self.err(key, f"unknown key{_hint(key, sorted(self.used | set(known)))}")


# -- building the position -------------------------------------------------------------------
def _is_item(d) -> bool:
    return isinstance(d, TreasureDef) and d.kind in ("item", "oneshot")


# What may stand where: (test, what the error calls it).
_MAY = {
    "hand": (lambda d: not isinstance(d, MonsterDef), "a Treasure or DxM card (Monster cards never go into a hand, Q-MON-4)"),
    "race": (lambda d: isinstance(d, DxmDef) and d.kind == "race", "a race card"),
    "class": (lambda d: isinstance(d, DxmDef) and d.kind == "class", "a class card"),
    "cheat": (lambda d: isinstance(d, DxmDef) and d.kind == "cheat", "a Cheat! card"),
    "curse": (lambda d: isinstance(d, DxmDef) and d.kind == CardKind.CURSE and any(e.name.startswith("lasting_") for e in d.effects),
              "a lasting curse (one that stays on its victim, Q-CARD-8)"),
    "hybrid": (lambda d: isinstance(d, DxmDef) and d.kind in ("halfbreed", "supermunchkin"),
               "a Half-Breed or Super Munchkin card"),
    "item": (_is_item, "an item or one-shot Treasure card"),
    "pile": (_is_item, "an item or one-shot Treasure card (piles hold dropped items, Q-SEARCH-4)"),
    "monster": (lambda d: isinstance(d, MonsterDef), "a Monster card"),
    "enhancer": (lambda d: isinstance(d, DxmDef) and d.kind == "enhancer", "a monster enhancer (DxM)"),
    "treasure": (lambda d: isinstance(d, TreasureDef), "a Treasure card"),
    "dxm": (lambda d: isinstance(d, DxmDef), "a DxM card"),
}


class _Builder:
    def __init__(self, file: str, top: _Table, game: _Table, base: CardSet | None) -> None:
        self.file = file
        self.top, self.game = top, game
        self.base = base or load_default()
        self.placed: dict[str, str] = {}  # card id -> where the file puts it
        self.cards: CardSet = self.base  # the default set plus the file's extras, once read
        self.n = 2  # players, once read
        self.room_list: list[Room] = []

    # cards ---------------------------------------------------------------------------------
    def load_cards(self) -> CardSet:
        extra = self.top.sub("extra")
        if extra is None:
            return self.base
        docs: dict[str, dict] = {}
        labels: dict[str, str] = {}
        for key in list(extra.table):
            if key not in _pack.FILE_OF:
                raise extra.err(key, f"unknown card table{_hint(key, _pack.FILE_OF)} "
                                     f"(expected [[extra.{']], [[extra.'.join(_pack.FILE_OF)}]])")
            name = _pack.FILE_OF[key]
            docs[name] = {key: extra.raw(key)}
            labels[name] = f"{self.file}: [[extra.{key}]]"
        extra.finish()
        return _pack.extend(self.base, _pack.parse(docs, labels), labels)  # DataError names the table

    def card(self, t: _Table, key: str, card: str, may: str) -> str:
        """Check that ``card`` exists, may stand at ``may``, and is placed nowhere else."""
        test, what = _MAY[may]
        try:
            d = self.cards.card(card)
        except KeyError:
            ids = [c.id for c in self.cards.monsters + self.cards.treasures + self.cards.dxm]
            raise t.err(key, f"unknown card id {card!r}{_hint(card, ids)}") from None
        if not test(d):
            raise t.err(key, f"{card} ({d.name}) is not {what}")
        where = f"{t.where}.{key}"
        if card in self.placed:
            raise t.err(key, f"{card} is already in {self.placed[card]}: no card exists twice")
        self.placed[card] = where
        return card

    # the whole file --------------------------------------------------------------------------
    def build(self) -> Scenario:
        top = self.top
        title = top.str("title", "")
        description = top.str("description", "")
        self.cards = self.load_cards()
        game = self.game
        player_tables = top.tables("player")
        n = game.int("players", 2, 6, max(2, len(player_tables)))
        if len(player_tables) > n:
            raise top.err("player", f"{len(player_tables)} [[player]] tables for {n} players")
        seed = game.int("seed", 0, 2**63 - 1, 0)
        genders = game.strs("genders", None, ("male", "female"))
        if genders is not None and len(genders) != n:
            raise game.err("genders", f"{len(genders)} genders for {n} players")
        start = game.int("start_cards", 3, 4, 3)
        params = make_params(n, tuple(genders) if genders else None, start)
        fresh = new_game(params, seed, self.cards)
        self.n = n
        rng = game.int("rng", 0, 2**62, fresh.rng_n)
        order = tuple(game.ints("order", 0, n - 1, list(fresh.order)))
        if sorted(order) != list(range(n)):
            raise game.err("order", f"must list every seat 0..{n - 1} once")
        phase = game.str("phase", TURN, (SETUP, TURN, OVER))
        winners = tuple(game.ints("winners", 0, n - 1, []))
        if phase != OVER and winners:
            raise game.err("winners", "only a game that is over has winners (phase = \"over\")")
        turn_t = game.sub("turn")
        game.finish()

        rooms = self.rooms(top.tables("room"))
        self.room_list = rooms
        monsters = self.monsters(top.tables("monster"))
        specs = [self.player(seat, t, phase) for seat, t in enumerate(player_tables)]
        specs += [{} for _ in range(n - len(specs))]
        decks = self.decks(top.raw("decks", {}))
        actions, says = self.actions(top.tables("action"))
        expect = self.expect(top.raw("expect", None))
        top.finish()

        # Decks: the seed's shuffled order (deal included), minus every card placed elsewhere;
        # unspecified hands of live munchkins are dealt from it as in a fresh game.
        full = {k: [c for p in fresh.players for c in p.hand if self._deck(c) == k]
                + list(getattr(fresh, f"{k}_deck").draw) for k in DECKS}
        pool = {k: [c for c in full[k] if c not in self.placed] for k in DECKS}
        players = []
        for seat, spec in enumerate(specs):
            alive = spec.get("alive", True)
            hand = spec.get("hand")
            if hand is None:
                hand = []
                if alive:
                    for k, count in (("treasure", params.start_treasure), ("dxm", params.start_dxm)):
                        hand += pool[k][:count]
                        del pool[k][:count]
            players.append(self.make_player(fresh.players[seat], spec, tuple(hand), phase))
        deck_nodes = {}
        for k in DECKS:
            draw = decks["top"][k] + ([] if k in decks["only"] else pool[k])
            deck_nodes[k] = Deck(tuple(draw), tuple(decks["discard"][k]))
        used_tiles = {self.cards.face(r.face).tile for r in rooms} | set(decks["top"]["rooms"])
        room_draw = decks["top"]["rooms"] + ([] if "rooms" in decks["only"] else
                                              [t for t in fresh.room_deck.draw if t not in used_tiles])
        conn_top = decks["top"]["connectors"]
        conn_draw = conn_top + ([] if "connectors" in decks["only"] else
                                [c for c in fresh.connector_deck.draw if c not in conn_top])

        if phase == OVER and not winners and any(p.alive for p in players):
            raise game.err("winners", "a game that is over has winners (Q-BOSS-4), unless every munchkin "
                                      "is dead: then the monsters won (Q-DEATH-5)")
        turn = self.turn(turn_t, phase, order, players, rooms)
        state = fresh.replace(
            rng_n=rng, order=order, players=tuple(players), rooms=tuple(rooms),
            room_deck=Deck(tuple(room_draw)), connector_deck=Deck(tuple(conn_draw)),
            monster_deck=deck_nodes["monster"], treasure_deck=deck_nodes["treasure"], dxm_deck=deck_nodes["dxm"],
            monsters=tuple(monsters), next_uid=len(monsters) + 1, phase=phase, turn=turn,
            combat=None, pending=None, winners=winners,
        )
        setup_events: tuple = ()
        if phase == TURN:
            tx = Tx(state, self.cards)
            _flow.settle(tx)
            state, setup_events = tx.commit(), tuple(tx.events)
        return Scenario(self.file, title, description, self.cards, state, setup_events, actions, says, expect)

    def _deck(self, card: str) -> str:
        d = self.cards.card(card)
        return "monster" if isinstance(d, MonsterDef) else "treasure" if isinstance(d, TreasureDef) else "dxm"

    # [[room]] ------------------------------------------------------------------------------
    def rooms(self, tables: list[dict]) -> list[Room]:
        entrance_given = bool(tables) and tables[0].get("face") == ENTRANCE
        rooms: list[Room] = [] if entrance_given else [Room(face=ENTRANCE, x=0, y=0, sides=(0, 0, 0, 0))]
        tiles: dict[str, int] = {}
        cells: dict[tuple[int, int], int] = {} if entrance_given else {(0, 0): 0}
        for table in tables:
            index = len(rooms)
            t = _Table(self.file, f"room[{index}]", table)
            face = t.str("face")
            try:
                f = self.cards.face(face)
            except KeyError:
                faces = [ENTRANCE] + [x.id for tile in self.cards.rooms for x in tile.faces]
                raise t.err("face", f"unknown room face {face!r}{_hint(face, faces)}") from None
            entrance = face == ENTRANCE
            if entrance and index != 0:
                raise t.err("face", "the Entrance is room 0: give it as the first [[room]] or leave it out")
            x = t.int("x", -99, 99, 0 if entrance else _MISSING)
            y = t.int("y", -99, 99, 0 if entrance else _MISSING)
            if entrance and (x, y) != (0, 0):
                raise t.err("x", "the Entrance is at (0, 0) (Q-SETUP-2)")
            sides = t.strs("sides", ["corridor"] * 4 if entrance else _MISSING, CONNECTOR_KINDS)
            if len(sides) != 4:
                raise t.err("sides", "four connector kinds, in the order N, E, S, W")
            mark = t.str("mark", "none", MARKS)
            if mark != "none" and f.no_search:
                raise t.err("mark", f"{face} cannot be searched, so it is never {mark} (Q-SEARCH-1)")
            if not entrance:
                if f.tile in tiles:
                    raise t.err("face", f"tile {f.tile} is already placed as room[{tiles[f.tile]}]: "
                                        "a tile shows one face at a time")
                tiles[f.tile] = index
            if (x, y) in cells:
                raise t.err("x", f"({x}, {y}) already holds room[{cells[(x, y)]}]")
            cells[(x, y)] = index
            pile = tuple(self.card(t, "pile", c, "pile") for c in t.strs("pile", []))
            gold = t.int("gold", 0, 10**9, 0)
            t.finish()
            rooms.append(Room(face=face, x=x, y=y, sides=tuple(CONNECTOR_KINDS.index(s) for s in sides),
                              mark=MARKS.index(mark), pile=pile, pile_gold=gold))
        for j, r in enumerate(rooms):  # one connector, one kind, seen from both rooms
            for d in range(4):  # checked from the later room of each pair, the one the file adds
                i = cells.get((r.x + DX[d], r.y + DY[d]))
                back = (d + 2) % 4
                if i is not None and i < j and r.sides[d] != rooms[i].sides[back]:
                    raise ScenarioError(self.file, f"room[{j}].sides", (
                        f"its {DIRECTIONS[d]} side is a {CONNECTOR_KINDS[r.sides[d]]} but room[{i}] next to it has "
                        f"a {CONNECTOR_KINDS[rooms[i].sides[back]]} on its {DIRECTIONS[back]} side: "
                        "a connector has one kind from both rooms"))
        return rooms

    def room_index(self, t: _Table, key: str, default: Any = _MISSING) -> int:
        v = t.raw(key, default)
        if v is default and default is not _MISSING:
            return v
        if type(v) is not int or not 0 <= v < len(self.room_list):
            raise t.err(key, f"{v!r} is not a room index (0 = the Entrance .. {len(self.room_list) - 1})")
        return v

    # [[monster]] ---------------------------------------------------------------------------
    def monsters(self, tables: list[dict]) -> list[Monster]:
        out: list[Monster] = []
        colours = COLOURS[: self.n]
        for i, table in enumerate(tables):
            uid = i + 1
            t = _Table(self.file, f"monster[{uid}]", table)
            card = self.card(t, "card", t.str("card"), "monster")
            room = self.room_index(t, "room")
            colour = t.str("colour", _MISSING, COLOURS)
            if colour not in colours:
                raise t.err("colour", f"nobody plays {colour}: a base is a player's colour (Q-MON-1); "
                                      f"with {self.n} players: {', '.join(colours)}")
            if sum(1 for m in out if m.colour == COLOURS.index(colour)) >= MAX_BASES:
                raise t.err("colour", f"a fourth monster on a {colour} base: each player has 3 (Q-COMP-5)")
            enhancers = tuple(self.card(t, "enhancers", c, "enhancer") for c in t.strs("enhancers", []))
            boss = t.bool("boss", False)
            if boss and room != 0:
                raise t.err("room", "the Boss never leaves the Entrance, room 0 (Q-LAW-5)")
            if not boss and room == 0:
                raise t.err("room", "no monster stops in the Entrance outside a Boss fight (Q-LAW-4)")
            if boss and any(m.boss for m in out):
                raise t.err("boss", "there is one Boss at a time (Q-BOSS-1)")
            standee = t.str("standee", standee_for(out, self.cards, self.cards.card(card).size), SIZES)
            if self.cards.standees and sum(1 for m in out if m.standee == standee) >= dict(self.cards.standees)[standee]:
                raise t.err("standee", f"no {standee} standee is left (Q-COMP-4: the set has "
                                       f"{dict(self.cards.standees)[standee]})")
            t.finish()
            out.append(Monster(uid=uid, card=card, room=room, colour=COLOURS.index(colour), boss=boss,
                               enhancers=enhancers, standee=standee))
        return out

    # [[player]] ----------------------------------------------------------------------------
    def player(self, seat: int, table: dict, phase: str) -> dict:
        t = _Table(self.file, f"player[{seat}]", table)
        if t.int("seat", 0, 5, seat) != seat:
            raise t.err("seat", f"the [[player]] tables go in seat order: this one is seat {seat}")
        spec: dict[str, Any] = {"t": t}
        spec["level"] = t.int("level", 1, 10, 1)
        spec["alive"] = alive = t.bool("alive", True)
        for key, may in (("races", "race"), ("classes", "class"), ("hybrids", "hybrid"), ("curses", "curse")):
            spec[key] = tuple(self.card(t, key, c, may) for c in t.strs(key, []))
        self.identity_cards(t, spec)
        cheats = t.sub("cheats") or _Table(self.file, f"{t.where}.cheats", {})
        items: list[Item] = []
        for place in PLACES:
            for c in t.strs(place, []):
                self.card(t, place, c, "item")
                cheat = self.card(cheats, c, cheats.str(c), "cheat") if cheats.has(c) else ""
                items.append(self.place_item(t, place, c, items, cheat))
        for key in cheats.table:
            if not any(it.card == key for it in items):
                raise cheats.err(key, f"{key} is not an item this player has in play (a Cheat! goes on one, Q-ITEM-4)")
        if items and not alive:
            raise t.err("alive", "a dead munchkin has no items in play: they lie where they fell (Q-DEATH-1)")
        spec["items"] = tuple(items)
        if t.has("hand"):
            spec["hand"] = tuple(self.card(t, "hand", c, "hand") for c in t.strs("hand"))
        spec["fresh"] = tuple(t.strs("fresh", []))
        for c in spec["fresh"]:  # newly gained Treasure (Q-CARD-3, Q-TURN-3): cards of the given hand
            if c not in spec.get("hand", ()):
                raise t.err("fresh", f"{c} is not in this player's hand: newly gained Treasure is a card of the hand")
            if not isinstance(self.cards.card(c), TreasureDef):
                raise t.err("fresh", f"{c} is not a Treasure card: only Treasure is newly gained (Q-CARD-3)")
        spec["max_hp"] = t.int("max_hp", 1, 20, 4)
        spec["hp"] = t.int("hp", 0, 30, None)
        spec["gold"] = t.int("gold", 0, 10**9, 300 if alive else 0)
        spec["room"] = self.room_index(t, "room", 0)
        spec["ready"] = t.bool("ready", phase != SETUP)
        if phase != SETUP and not spec["ready"]:
            raise t.err("ready", "every munchkin is ready once the game has started (Q-SETUP-3)")
        spec["cursed"] = t.int("cursed", -10, 0, 0)
        t.finish()
        return spec

    def identity_cards(self, t: _Table, spec: dict) -> None:
        """Q-CHAR-4, Q-CARD-5: one race and one class card, two with Half-Breed / Super Munchkin,
        which need a race / class card under them; never the same race or class twice."""
        hybrid_kinds = [self.cards.card(c).kind for c in spec["hybrids"]]
        for key, noun, hybrid in (("races", "race", "halfbreed"), ("classes", "class", "supermunchkin")):
            keys = [self.cards.card(c).key for c in spec[key]]
            limit = 2 if hybrid in hybrid_kinds else 1
            if len(keys) > limit:
                raise t.err(key, f"{len(keys)} {noun} cards: at most {limit}"
                                 + ("" if limit == 2 else f" without a {hybrid} card in hybrids (Q-CARD-5)"))
            if len(set(keys)) != len(keys):
                raise t.err(key, f"the same {noun} twice")
            if hybrid in hybrid_kinds and not keys:
                raise t.err("hybrids", f"a {hybrid} card needs a {noun} card in play (Q-CARD-5)")
            if hybrid_kinds.count(hybrid) > 1:
                raise t.err("hybrids", f"two {hybrid} cards")

    def place_item(self, t: _Table, place: str, card: str, items: list[Item], cheat: str) -> Item:
        """Q-ITEM-1, 3: an item stands where its slot says, while the slot (or the hands, or the
        backpack) has room — the engine's own place_for decides (a Cheat! item needs no hands,
        Q-ITEM-4)."""
        d = self.cards.card(card)
        item = Item(card, place, cheat) if cheat else Item(card, place)
        if place == BACKPACK:
            if sum(1 for it in items if it.place == BACKPACK) >= BACKPACK_SIZE:
                raise t.err(place, f"the backpack holds at most {BACKPACK_SIZE} items (Q-ITEM-1)")
            return item
        extra = {"cheat": True} if cheat else {}
        want = place_for(_Probe(tuple(items)), d, self.cards, **extra)
        if want != place:
            if want in (BACKPACK, None):
                size = f" ({d.hands} hands)" if d.hands else ""
                raise t.err(place, f"{card} ({d.name}): no room left for a {d.slot} item{size} (Q-ITEM-1, 3): "
                                   "put it in the backpack")
            raise t.err(place, f"{card} ({d.name}) is a {d.slot} item: it goes {want}, not {place} (Q-ITEM-1)")
        return item

    def make_player(self, fresh, spec: dict, hand: tuple, phase: str):
        if not spec:
            return fresh.replace(hand=hand, ready=phase != SETUP)
        t = spec["t"]
        changes = dict(level=spec["level"], max_hp=spec["max_hp"], gold=spec["gold"], room=spec["room"],
                       alive=spec["alive"], hand=hand, races=spec["races"], classes=spec["classes"],
                       items=spec["items"], ready=spec["ready"], cursed=spec["cursed"])
        for key in ("hybrids", "curses", "fresh"):
            if spec[key]:
                changes[key] = spec[key]
        p = fresh.replace(**changes)
        cap = max_hp(p, self.cards)
        hp = spec["hp"]
        if not p.alive:
            if hp not in (None, 0):
                raise t.err("hp", "a dead munchkin has 0 HP (Q-DEATH-1)")
            return p.replace(hp=0)
        if hp is None:
            return p.replace(hp=cap)
        if not 1 <= hp <= cap:
            raise t.err("hp", f"{hp} HP: a live munchkin has 1..{cap} (max_hp with items, Q-CHAR-6)")
        return p.replace(hp=hp)

    # [game.turn] ---------------------------------------------------------------------------
    def turn(self, t: _Table | None, phase: str, order: tuple, players: list, rooms: list) -> Turn | None:
        if phase == SETUP:
            if t is not None:
                raise t.err(None, "the setup phase has no turn yet")
            return None
        if t is None:
            t = _Table(self.file, "game.turn", {})
        seat = t.int("seat", 0, self.n - 1, order[0])
        if phase == TURN and not players[seat].alive:
            raise t.err("seat", "a dead munchkin's turn starts by coming back to life (Q-DEATH-3): "
                                "make them alive, in the Entrance")
        turn = Turn(seat=seat, number=t.int("number", 1, 10**6, 1))
        changes: dict[str, Any] = {}
        for f in Turn._hash_fields:  # every other Turn field by name, typed by its default value
            if f in ("seat", "number") or f not in t.table:
                continue
            default = getattr(turn, f)
            if isinstance(default, bool):
                changes[f] = t.bool(f)
            elif isinstance(default, int):
                changes[f] = t.int(f, -1, 10**6)
            elif isinstance(default, tuple):  # rooms searched, dealt with... this turn
                changes[f] = tuple(t.ints(f, 0, len(rooms) - 1))
        t.finish(known=Turn._hash_fields)
        return turn.replace(**changes)

    # [decks] -------------------------------------------------------------------------------
    def decks(self, table: object) -> dict:
        t = _Table(self.file, "decks", table)
        top = {k: [self.card(t, k, c, k) for c in t.strs(k, [])] for k in DECKS}
        discard = {k: [self.card(t, f"{k}_discard", c, k) for c in t.strs(f"{k}_discard", [])] for k in DECKS}
        tile_ids = [x.id for x in self.cards.rooms]
        rooms = t.strs("rooms", [])
        placed_tiles = {self.cards.face(r.face).tile: i for i, r in enumerate(self.room_list)}
        for tid in rooms:
            if tid not in tile_ids:
                raise t.err("rooms", f"unknown room tile {tid!r}{_hint(tid, tile_ids)} (tile ids, not faces)")
            if tid in placed_tiles:
                raise t.err("rooms", f"tile {tid} is already placed as room[{placed_tiles[tid]}]")
        if len(set(rooms)) != len(rooms):
            raise t.err("rooms", "a tile is listed twice")
        conn_ids = [c.id for c in self.cards.connectors]
        conns = t.strs("connectors", [])
        for cid in conns:
            if cid not in conn_ids:
                raise t.err("connectors", f"unknown connector {cid!r}{_hint(cid, conn_ids)}")
        if len(set(conns)) != len(conns):
            raise t.err("connectors", "a connector is listed twice")
        only = t.strs("only", [], ALL_DECKS)
        t.finish()
        top["rooms"], top["connectors"] = rooms, conns
        return {"top": top, "discard": discard, "only": set(only)}

    # [[action]] ----------------------------------------------------------------------------
    def actions(self, tables: list[dict]) -> tuple[tuple[Action, ...], tuple[str, ...]]:
        return parse_actions(self.file, tables, self.n)

    # [expect] ------------------------------------------------------------------------------
    def expect(self, table: object) -> dict | None:  # noqa: C901
        if table is None:
            return None
        t = _Table(self.file, "expect", table)
        out: dict[str, Any] = {}
        if t.has("reason"):
            reason = t.str("reason")
            if reason not in REASONS:
                raise t.err("reason", f"unknown reason code {reason!r}{_hint(reason, REASONS)}")
            out["reason"] = reason
        if t.has("at"):
            out["at"] = t.int("at", 1, 10**6)
        if t.has("phase"):
            out["phase"] = t.str("phase", _MISSING, (SETUP, TURN, OVER))
        if t.has("winners"):
            out["winners"] = t.ints("winners", 0, self.n - 1)
        if t.has("monsters"):
            out["monsters"] = t.int("monsters", 0, 18)
        if t.has("hash"):
            out["hash"] = t.str("hash")
        for key in ("events", "no_events"):
            if t.has(key):
                out[key] = t.strs(key)
        for key, fields in (("combat", _COMBAT_KEYS), ("pending", _PENDING_KEYS), ("turn", _TURN_KEYS),
                            ("fight", _FIGHT_KEYS)):
            if t.has(key):
                v = t.raw(key)
                if v is False and key in ("combat", "pending"):
                    out[key] = False
                    continue
                out[key] = _fields(_Table(self.file, f"expect.{key}", v), fields)
        for key, fields, ident in (("player", _PLAYER_KEYS, "seat"), ("monster", _MONSTER_KEYS, "uid")):
            rows = []
            for i, row in enumerate(t.tables(key)):
                rt = _Table(self.file, f"expect.{key}[{i}]", row)
                if ident not in row:
                    raise rt.err(ident, "missing (required: which one to check)")
                rows.append(_fields(rt, {ident: "int", **fields}))
            if rows:
                out[key] = rows
        t.finish()
        return out


class _Probe:
    """The one attribute of a Player that character.place_for reads."""

    def __init__(self, items: tuple) -> None:
        self.items = items


_COMBAT_KEYS = {"stage": "str", "fighter": "int", "helper": "int", "monsters": "ints", "bonus": "int",
                "monster_bonus": "int", "runner": "int", "waiting": "ints", "share": "int", "room": "int"}
_PENDING_KEYS = {"seat": "int", "kind": "str", "options": "list"}
_TURN_KEYS = {"seat": "int", "number": "int", "spent": "int", "dashed": "bool"}
_FIGHT_KEYS = {"fighter": "int", "total": "int", "monster_total": "int", "won": "bool", "dice": "ints",
               "monster_dice": "list"}
_PLAYER_KEYS = {"level": "int", "hp": "int", "max_hp": "int", "gold": "int", "room": "int", "alive": "bool",
                "hand_size": "int", "hand": "strs", "in_hand": "strs", "not_in_hand": "strs", "items": "strs",
                "worn": "strs", "carried": "strs", "belt": "strs", "backpack": "strs", "races": "strs",
                "classes": "strs", "hybrids": "strs", "curses": "strs", "cursed": "int"}
_MONSTER_KEYS = {"room": "int", "colour": "str", "enhancers": "strs", "gone": "bool", "boss": "bool", "standee": "str"}


def _fields(t: _Table, fields: dict[str, str]) -> dict:
    out = {}
    for key in list(t.table):
        if key not in fields:
            continue
        kind = fields[key]
        if kind == "int":
            out[key] = t.int(key, -10**9, 10**9)
        elif kind == "bool":
            out[key] = t.bool(key)
        elif kind == "str":
            out[key] = t.str(key)
        elif kind == "strs":
            out[key] = t.strs(key)
        elif kind == "ints":
            out[key] = t.ints(key, -10**9, 10**9)
        else:
            out[key] = t.raw(key)
    t.finish()
    return out


def parse_actions(file: str, tables: list[dict], players: int) -> tuple[tuple[Action, ...], tuple[str, ...]]:
    """The ``[[action]]`` tables as actions (either mode's kinds) and their ``say`` notes."""
    actions, says = [], []
    for i, table in enumerate(tables):
        t = _Table(file, f"action[{i + 1}]", table)
        seat = t.int("seat", 0, players - 1)
        kind = t.str("kind", _MISSING, ALL_KINDS)
        args = t.raw("args", [])
        if not isinstance(args, list) or not all(type(a) in (int, str) for a in args):
            raise t.err("args", "must be an array of integers and strings (as in mq/rules/actions.py)")
        if kind in ("move", "dash") and args and args[0] in DIRECTIONS:
            args = [DIRECTIONS.index(args[0])] + args[1:]  # readable directions: N E S W
        if kind == "choose" and args and args[0] in COLOURS:
            args = [COLOURS.index(args[0])] + args[1:]  # a base colour by name (Q-MON-1)
        says.append(t.str("say", ""))
        t.finish()
        actions.append(Action(seat, kind, tuple(args)))
    return tuple(actions), tuple(says)


# -- public API ------------------------------------------------------------------------------
def loads(text: str, file: str = "<scenario>", base: CardSet | None = None) -> Scenario:
    """A scenario from TOML text; ``file`` names it in errors; ``base`` is the card set the
    file's extra cards add to (default: the shipped set)."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(file, "", f"not valid TOML: {exc}") from None
    try:
        top = _Table(file, "", doc)
        game = _Table(file, "game", top.raw("game", {}))
        if game.str("mode", QUEST, MODES) == CLASSIC:  # CLASSIC.md: mq.scenario_classic builds it
            from mq import scenario_classic

            return scenario_classic.build(file, top, game)
        return _Builder(file, top, game, base).build()
    except IllegalAction as exc:  # make_params refusing the [game] table
        raise ScenarioError(file, "game", exc.detail or exc.reason) from None


def load(path: str | Path, base: CardSet | None = None) -> Scenario:
    p = Path(path)
    try:
        text = p.read_bytes().decode("utf-8")
    except OSError as exc:
        raise ScenarioError(str(path), "", exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(str(path), "", f"not UTF-8: {exc}") from None
    return loads(text, str(path), base)


def run(scenario: Scenario) -> Result:
    """Apply the actions in order with mq.rules.step; stop at the first illegal one."""
    state = scenario.state
    steps = []
    for i, action in enumerate(scenario.actions):
        try:
            state, events = step(state, action, scenario.cards)
        except IllegalAction as exc:
            return Result(scenario, state, tuple(steps), Stop(i + 1, action, exc.reason, exc.detail))
        steps.append((action, events))
    return Result(scenario, state, tuple(steps), None)


def last_fight(result: Result) -> dict | None:
    """The last ``combat_result`` event, by field name (docs/engine.md)."""
    for e in reversed(result.events):
        if e.kind == "combat_result":
            return {"fighter": e.fighter, "terms": _plain(e.terms), "dice": list(e.dice),
                    "monster_terms": _plain(e.monster_terms), "monster_dice": _plain(e.monster_dice),
                    "total": e.total, "monster_total": e.monster_total, "won": e.won}
    return None


def check_common(result: Result) -> list[str]:
    """What of ``[expect]`` the two modes check alike was not met: the illegal action (``reason``,
    ``at``), ``phase``, ``winners``, ``hash``, ``events`` and ``no_events``."""
    exp = result.scenario.expect
    bad: list[str] = []
    s = result.state
    stop = result.stopped
    if "reason" in exp:
        if stop is None:
            bad.append(f"expected an illegal action ({exp['reason']}), but every action was legal")
        elif stop.reason != exp["reason"]:
            bad.append(f"action {stop.number} ({stop.action}) was refused with {stop.reason}, expected {exp['reason']}")
        if stop is not None and "at" in exp and stop.number != exp["at"]:
            bad.append(f"the run stopped at action {stop.number}, expected at action {exp['at']}")
    elif stop is not None:
        bad.append(f"action {stop.number} ({stop.action}) is illegal: {stop.reason}"
                   + (f" ({stop.detail})" if stop.detail else ""))

    def same(label: str, got, want) -> None:
        if got != want:
            bad.append(f"{label}: got {got!r}, expected {want!r}")

    if "phase" in exp:
        same("phase", s.phase, exp["phase"])
    if "winners" in exp:
        same("winners", sorted(s.winners), sorted(exp["winners"]))
    if "hash" in exp:
        same("hash", f"{state_hash(s):016x}", exp["hash"])
    kinds = [e.kind for e in result.events]
    if "events" in exp:
        it = iter(kinds)
        missing = [k for k in exp["events"] if k not in it]  # in order, as a subsequence
        if missing:
            bad.append(f"events: {missing[0]!r} did not happen (in the order listed); events were {kinds}")
    for k in exp.get("no_events", ()):
        if k in kinds:
            bad.append(f"events: {k!r} happened")
    return bad


def check(result: Result) -> list[str]:  # noqa: C901
    """What of the file's ``[expect]`` table the run did not meet (empty: all met, or no table)."""
    exp = result.scenario.expect
    if exp is None:
        return []
    if is_classic(result.state):
        from mq import scenario_classic

        return scenario_classic.check(result)
    bad = check_common(result)
    s = result.state

    def same(label: str, got, want) -> None:
        if got != want:
            bad.append(f"{label}: got {got!r}, expected {want!r}")

    if "monsters" in exp:
        same("number of monsters", len(s.monsters), exp["monsters"])
    for key, node in (("combat", s.combat), ("pending", s.pending), ("turn", s.turn)):
        if key not in exp:
            continue
        if exp[key] is False:
            if node is not None:
                bad.append(f"{key}: expected none, got {_json_node(node)}")
            continue
        if node is None:
            bad.append(f"{key}: expected {exp[key]}, got none")
            continue
        got = _json_node(node)
        for f, want in exp[key].items():
            same(f"{key}.{f}", got[f], want)
    if "fight" in exp:
        fight = last_fight(result)
        if fight is None:
            bad.append("fight: no fight was resolved")
        else:
            for f, want in exp["fight"].items():
                same(f"fight.{f}", fight[f], want)
    for row in exp.get("player", ()):
        seat = row["seat"]
        if not 0 <= seat < len(s.players):
            bad.append(f"player[{seat}]: no such seat")
            continue
        p = s.players[seat]
        for f, want in row.items():
            label = f"player[{seat}].{f}"
            if f == "seat":
                continue
            if f == "hand_size":
                same(label, len(p.hand), want)
            elif f == "hand":
                same(label, sorted(p.hand), sorted(want))
            elif f == "in_hand":
                for c in want:
                    if c not in p.hand:
                        bad.append(f"{label}: {c} is not in the hand {list(p.hand)}")
            elif f == "not_in_hand":
                for c in want:
                    if c in p.hand:
                        bad.append(f"{label}: {c} is in the hand")
            elif f == "items":
                same(label, sorted(it.card for it in p.items), sorted(want))
            elif f in PLACES:
                same(label, sorted(it.card for it in p.items if it.place == f), sorted(want))
            elif f in ("races", "classes", "hybrids", "curses"):
                same(label, sorted(getattr(p, f)), sorted(want))
            else:
                same(label, getattr(p, f), want)
    for row in exp.get("monster", ()):
        uid = row["uid"]
        m = next((m for m in s.monsters if m.uid == uid), None)
        if row.get("gone") is True:
            if m is not None:
                bad.append(f"monster[{uid}]: still on the board")
            continue
        if m is None:
            bad.append(f"monster[{uid}]: not on the board")
            continue
        for f, want in row.items():
            label = f"monster[{uid}].{f}"
            if f == "colour":
                same(label, COLOURS[m.colour] if m.colour >= 0 else "none", want)
            elif f == "enhancers":
                same(label, sorted(m.enhancers), sorted(want))
            elif f in ("room", "boss", "standee"):
                same(label, getattr(m, f), want)
            elif f == "gone":
                same(label, False, want)
    return bad


# -- output ----------------------------------------------------------------------------------
def _plain(v: Any) -> Any:
    """Events and node fields as JSON values: tuples become lists."""
    if isinstance(v, Node):
        return _json_node(v)
    if isinstance(v, (tuple, list)):
        return [_plain(x) for x in v]
    return v


def _json_node(node: Node) -> dict:
    return {f: _plain(getattr(node, f)) for f in node._hash_fields}


def _json_player(p, cards: CardSet) -> dict:
    out = _json_node(p)
    out["colour"] = COLOURS[p.seat]
    out["derived"] = {"max_hp": max_hp(p, cards), "move": move_total(p, cards), "identity": list(identity(p, cards))}
    return out


def _json_room(i: int, r: Room) -> dict:
    return {"index": i, "face": r.face, "x": r.x, "y": r.y, "sides": [CONNECTOR_KINDS[k] for k in r.sides],
            "mark": MARKS[r.mark], "pile": list(r.pile), "gold": r.pile_gold}


def _json_monster(m: Monster, cards: CardSet) -> dict:
    return {"uid": m.uid, "card": m.card, "room": m.room, "colour": COLOURS[m.colour] if m.colour >= 0 else None,
            "boss": m.boss, "enhancers": list(m.enhancers), "level": level_of(m, cards), "standee": m.standee}


def to_json(result: Result) -> dict:
    """The stable JSON shape of ``mq scenario --json`` (docs/scenarios.md)."""
    if is_classic(result.state):
        from mq import scenario_classic

        return scenario_classic.to_json(result)
    s = result.state
    cards = result.scenario.cards
    stop = result.stopped
    failures = check(result)
    decks = {k: {"draw": len(getattr(s, f"{k}_deck").draw), "discard": list(getattr(s, f"{k}_deck").discard)}
             for k in DECKS}
    decks["rooms"] = {"draw": len(s.room_deck.draw)}
    decks["connectors"] = {"draw": len(s.connector_deck.draw)}
    return {
        "scenario": result.scenario.path,
        "title": result.scenario.title,
        "phase": s.phase,
        "order": list(s.order),
        "turn": _json_node(s.turn) if s.turn is not None else None,
        "players": [_json_player(p, cards) for p in s.players],
        "monsters": [_json_monster(m, cards) for m in s.monsters],
        "rooms": [_json_room(i, r) for i, r in enumerate(s.rooms)],
        "decks": decks,
        "combat": _json_node(s.combat) if s.combat is not None else None,
        "pending": _json_node(s.pending) if s.pending is not None else None,
        "winners": list(s.winners),
        "actions": [encode_action(a) for a, _ in result.steps],
        "stopped": None if stop is None else {
            "action": stop.number, "seat": stop.action.seat, "kind": stop.action.kind, "args": list(stop.action.args),
            "reason": stop.reason, "detail": stop.detail, "message": REASONS.get(stop.reason, "")},
        "events": [_plain(e) for e in result.events],
        "expect": None if result.scenario.expect is None else {"met": not failures, "failures": failures},
        "hash": f"{state_hash(s):016x}",
    }


def _who(seat: int) -> str:
    return COLOURS[seat].capitalize()


def narrate(result: Result) -> list[str]:
    """The run in sentences: what settling the position did, then each action and its events."""
    sc = result.scenario
    narrator = Narrator(sc.cards)
    for m in getattr(sc.state, "monsters", ()):  # the narrator learns monsters as they appear; these were placed
        narrator.monster_cards[m.uid] = m.card
        if m.boss:
            narrator.bosses.add(m.uid)
    out = []
    if sc.setup_events:
        out.append("(the position settles)")
        out += narrator.lines(sc.state, sc.setup_events)
    for i, (action, events) in enumerate(result.steps):
        if sc.says[i]:
            out.append(f"# {sc.says[i]}")
        out.append(f"[{i + 1}] {_who(action.seat)}: {action.kind}" + "".join(f" {a}" for a in action.args))
        out += [line.lstrip("\n") for line in narrator.lines(result.state, events)]
    stop = result.stopped
    if stop is not None:
        if sc.says[stop.number - 1]:
            out.append(f"# {sc.says[stop.number - 1]}")
        a = stop.action
        out.append(f"[{stop.number}] {_who(a.seat)}: {a.kind}" + "".join(f" {x}" for x in a.args)
                   + f"  -> ILLEGAL: {stop.reason} ({REASONS.get(stop.reason, stop.detail)})")
    return out


def describe(state: State, cards: CardSet) -> list[str]:
    """The position in a few lines: everything, hands and deck sizes included (a scenario's author
    knows them all; this is not a player's view)."""
    if is_classic(state):
        from mq import scenario_classic

        return scenario_classic.describe(state, cards)
    def room(i: int) -> str:
        return f"{'the Entrance' if i == 0 else cards.face(state.rooms[i].face).name} (room {i})"

    def names(ids) -> str:
        return ", ".join(f"{cards.card(c).name} ({c})" for c in ids) or "-"

    out = []
    if state.turn is not None:
        t = state.turn
        p = state.players[t.seat]
        out.append(f"Phase {state.phase}, turn {t.number}: {_who(t.seat)}, move spent {t.spent} of {move_total(p, cards)}")
    else:
        out.append(f"Phase {state.phase}")
    for p in state.players:
        who = ", ".join(identity(p, cards))
        status = "" if p.alive else "  DEAD"
        out.append(f"{_who(p.seat):<7} level {p.level}, {p.hp}/{max_hp(p, cards)} HP, {p.gold} gold, "
                   f"in {room(p.room)}; {who}{status}")
        for place in PLACES:
            cards_here = [it.card for it in p.items if it.place == place]
            if cards_here:
                out.append(f"        {place}: {names(cards_here)}")
        out.append(f"        hand: {names(p.hand)}")
    for m in state.monsters:
        d = cards.card(m.card)
        enh = f", enhancers {names(m.enhancers)}" if m.enhancers else ""
        base = COLOURS[m.colour] if m.colour >= 0 else "no"
        out.append(f"Monster #{m.uid} {d.name} ({m.card}){' THE BOSS' if m.boss else ''}, level {level_of(m, cards)}{enh}, "
                   f"{base} base, in {room(m.room)}")
    c = state.combat
    if c is not None:
        helper = f", helped by {_who(c.helper)}" if c.helper >= 0 else ""
        waiting = f", waiting for {', '.join(_who(s) for s in c.waiting)}" if c.waiting else ""
        out.append(f"Combat: {_who(c.fighter)}{helper} against #{', #'.join(map(str, c.monsters))} in "
                   f"{room(c.room)}, stage {c.stage}{waiting}; one-shots {c.bonus:+d} / for the monsters "
                   f"{c.monster_bonus:+d}")
    if state.pending is not None:
        pd = state.pending
        out.append(f"Pending: {_who(pd.seat)} must decide ({pd.kind}): {list(pd.options)}")
    if state.winners:
        out.append("Winners: " + ", ".join(_who(s) for s in state.winners))
    out.append(f"State hash {state_hash(state):016x}")
    return out


# -- command line ----------------------------------------------------------------------------
def add_commands(subparsers) -> None:
    p = subparsers.add_parser("scenario", help="set up a position from a TOML file, apply its actions, show the result")
    p.add_argument("file", help="a scenario file (docs/scenarios.md)")
    p.add_argument("--json", action="store_true", help="print the result as JSON (the shape of docs/scenarios.md)")
    p.set_defaults(func=cmd_scenario)


def cmd_scenario(args) -> int:
    """Exit status: 0 every action applied (and [expect] met); 1 stopped on an illegal action
    ([expect] met or absent); 2 the file is invalid; 3 [expect] is not met."""
    try:
        scenario = load(args.file)
    except (ScenarioError, DataError) as exc:
        print(f"mq scenario: {exc}", file=sys.stderr)
        return EXIT_INVALID
    result = run(scenario)
    failures = check(result)
    if args.json:
        print(json.dumps(to_json(result), indent=1))
    else:
        if scenario.title:
            print(f"== {scenario.title} ==")
        for line in narrate(result):
            print(line)
        print()
        for line in describe(result.state, scenario.cards):
            print(line)
        if scenario.expect is not None:
            print("Expectations: " + ("met" if not failures else "NOT MET"))
            for f in failures:
                print(f"  - {f}")
    if failures:
        return EXIT_EXPECT
    return EXIT_ILLEGAL if result.stopped is not None else EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """``python -m mq.scenario FILE``: the command without the rest of ``mq``."""
    parser = argparse.ArgumentParser(prog="mq")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
