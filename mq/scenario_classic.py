"""Classic scenario files (``[game] mode = "classic"``, docs/scenarios.md "Classic"): a position of
the card game set up in TOML, its actions applied, the outcome checked, with the same ``[expect]``
and ``--json`` shape as Quest's where it applies (no board: no rooms, monsters on a map, HP or gold).

mq.scenario reads the file and hands a Classic one to :func:`build`; ``run`` is the same for both
modes (``mq.rules.step`` dispatches on the mode); :func:`check`, :func:`to_json` and
:func:`describe` are this mode's.

Invariants (as mq.scenario's): pure; the position starts as ``mq.rules.new_game(params, seed)``
and only what the file sets is replaced; no card exists twice (a placed card leaves the decks and
the dealt hands, which are dealt from what is left as a fresh game deals); every problem raises
ScenarioError naming the file and the field; the engine alone decides legality.  After building,
the rules act by themselves once, as after any action (mq.classic.flow.settle).
"""
from __future__ import annotations

from typing import Any

from mq.cards.classic_defs import ClassicMonsterDef, ClassicSet, ClassicTreasureDef
from mq.cards.classic_packs import UnknownPack, check_packs, load_classic_packs
from mq.cards.classic_vocab import CurseKind, K
from mq.classic import character as ch
from mq.classic import combat as cb
from mq.classic import dungeons, flow
from mq.classic.state import CItem, ClassicState, Combat, CurseCast, Pending, Phase, Turn
from mq.classic.tx import DOOR, TREASURE, Tx
from mq.rules import REASONS, make_params, new_game, state_hash
from mq.rules.actions import encode as encode_action
from mq.rules.node import Node
from mq.rules.state import COLOURS, Deck
from mq.scenario import _MISSING, Scenario, _json_node, _plain, _Table, check_common, parse_actions

DECKS = (DOOR, TREASURE)
PHASES = (Phase.SETUP, Phase.PLAY, Phase.OVER)
TURN_PHASES = (Phase.KICK, Phase.TROUBLE, Phase.END)

# What may stand where: (test, what the error calls it).
_MAY = {
    "hand": (lambda d: True, "a card"),
    "race": (lambda d: d.kind == K.RACE, "a race card"),
    "class": (lambda d: d.kind == K.CLASS, "a class card"),
    "halfbreed": (lambda d: d.kind == K.HALFBREED, "a Half-Breed card"),
    "supermunchkin": (lambda d: d.kind == K.SUPERMUNCHKIN, "a Super Munchkin card"),
    "item": (lambda d: d.kind == K.ITEM, "an item card"),
    "curse": (lambda d: d.kind == K.CURSE and d.curse_kind == CurseKind.LASTING,
              "a lasting curse (one that stays on its victim, C-CARD-8)"),
    "next_combat": (lambda d: d.kind == K.CURSE and d.curse_kind == CurseKind.NEXT_COMBAT,
                    "a curse that waits for its victim's next combat (C-CARD-8)"),
    "pet": (lambda d: isinstance(d, ClassicMonsterDef), "a monster card (an epic human's pet, C-EPIC-6)"),
    DOOR: (lambda d: not isinstance(d, ClassicTreasureDef), "a Door card"),
    TREASURE: (lambda d: isinstance(d, ClassicTreasureDef), "a Treasure card"),
}
_PLAYER_KEYS = {"level": "int", "hand_size": "int", "hand": "strs", "in_hand": "strs", "not_in_hand": "strs",
                "items": "strs", "in_use": "strs", "aside": "strs", "races": "strs", "classes": "strs",
                "curses": "strs", "next_combat": "strs", "halfbreed": "str", "supermunchkin": "str", "pet": "str",
                "dead": "bool", "gender": "str"}
_FIGHT_KEYS = {"fighter": "int", "strength": "int", "monster_strength": "int", "won": "bool"}
# [expect] tables of a state node: any of its fields by name (mq/classic/state.py).
_NODES = ("combat", "curse", "pending", "turn")


class _Builder:
    def __init__(self, file: str, top: _Table, game: _Table) -> None:
        self.file, self.top, self.game = file, top, game
        self.cards: ClassicSet = load_classic_packs(())
        self.placed: dict[str, str] = {}  # card id -> where the file puts it

    def card(self, t: _Table, key: str, card: str, may: str) -> str:
        """Check that ``card`` exists, may stand at ``may``, and is placed nowhere else."""
        test, what = _MAY[may]
        try:
            d = self.cards.card(card)
        except KeyError:
            from mq.scenario import _hint

            ids = [c.id for c in self.cards.door + self.cards.treasure]
            raise t.err(key, f"unknown card id {card!r}{_hint(card, ids)}") from None
        if not test(d):
            raise t.err(key, f"{card} ({d.name}) is not {what}")
        if card in self.placed:
            raise t.err(key, f"{card} is already in {self.placed[card]}: no card exists twice")
        self.placed[card] = f"{t.where}.{key}"
        return card

    def cards_at(self, t: _Table, key: str, may: str) -> tuple[str, ...]:
        return tuple(self.card(t, key, c, may) for c in t.strs(key, []))

    def build(self) -> Scenario:
        top, game = self.top, self.game
        title, description = top.str("title", ""), top.str("description", "")
        if top.has("extra"):
            raise top.err("extra", "house cards in a Classic scenario: not yet (use mq cards --mode classic "
                                   "--cards DIR to check a pack)")
        player_tables = top.tables("player")
        n = game.int("players", 2, 6, max(2, len(player_tables)))
        if len(player_tables) > n:
            raise top.err("player", f"{len(player_tables)} [[player]] tables for {n} players")
        seed = game.int("seed", 0, 2**63 - 1, 0)
        genders = game.strs("genders", None, ("male", "female"))
        if genders is not None and len(genders) != n:
            raise game.err("genders", f"{len(genders)} genders for {n} players")
        start = game.int("start_cards", 2, 4, 4)
        epic = game.bool("epic", False)
        packs = self.packs(game)
        params = make_params(n, tuple(genders) if genders else None, start, mode="classic", epic=epic, packs=packs)
        fresh = new_game(params, seed, self.cards)
        dungeons = self.dungeons(game, top.raw("decks", {}), fresh)
        rng = game.int("rng", 0, 2**62, fresh.rng_n)
        order = tuple(game.ints("order", 0, n - 1, list(fresh.order)))
        if sorted(order) != list(range(n)):
            raise game.err("order", f"must list every seat 0..{n - 1} once")
        phase = game.str("phase", Phase.PLAY, PHASES)
        winners = tuple(game.ints("winners", 0, n - 1, []))
        if (phase == Phase.OVER) != bool(winners):
            raise game.err("winners", "a game that is over has winners (C-WIN), and only such a game")
        turn_t = game.sub("turn")
        game.finish()

        specs = [self.player(seat, _Table(self.file, f"player[{seat}]", t), params)
                 for seat, t in enumerate(player_tables)]
        specs += [{} for _ in range(n - len(specs))]
        decks = self.decks(top.raw("decks", {}))
        actions, says = parse_actions(self.file, top.tables("action"), n)
        expect = self.expect(top.raw("expect", None))
        top.finish()

        # Decks: the seed's shuffled order (deal included), minus every card placed elsewhere;
        # unspecified hands of living munchkins are dealt from it as a fresh game deals.
        full = {k: [c for p in fresh.players for c in p.hand if self._deck(c) == k] + list(getattr(fresh, k).draw)
                for k in DECKS}
        pool = {k: [c for c in full[k] if c not in self.placed] for k in DECKS}
        players = []
        for seat, spec in enumerate(specs):
            hand = spec.pop("hand", None)
            if hand is None:
                hand = ()
                if not spec.get("dead", False):
                    for k, count in ((DOOR, params.start_door), (TREASURE, params.start_treasure)):
                        hand += tuple(pool[k][:count])
                        del pool[k][:count]
            ready = spec.pop("ready", phase != Phase.SETUP)
            players.append(fresh.players[seat].replace(hand=hand, ready=ready, **spec))
        deck_nodes = {k: Deck(tuple(decks["top"][k] + ([] if k in decks["only"] else pool[k])),
                              tuple(decks["discard"][k])) for k in DECKS}
        turn = self.turn(turn_t, phase, order, players)
        state = fresh.replace(rng_n=rng, order=order, players=tuple(players), door=deck_nodes[DOOR],
                              treasure=deck_nodes[TREASURE], phase=phase, turn=turn, winners=winners, **dungeons)
        tx = Tx(state, self.cards)
        flow.settle(tx)
        state, setup_events = tx.commit(), tuple(tx.events)
        return Scenario(self.file, title, description, self.cards, state, setup_events, actions, says, expect)

    def packs(self, game: _Table) -> tuple[str, ...]:
        """``[game] packs``: the table's packs (C-OPT-4), refused in words when unknown; the card set
        is the default one plus these."""
        try:
            packs = check_packs(game.strs("packs", []))
        except UnknownPack as exc:
            raise game.err("packs", str(exc)) from None
        self.cards = load_classic_packs(packs)
        return packs

    def dungeons(self, game: _Table, decks: object, fresh: ClassicState) -> dict:
        """C-PACK-7: ``[game] dungeons``, the active dungeons (one or two), and ``[decks] dungeon``,
        the dungeon deck's top cards; the rest of the deck in the seed's order."""
        known = [d.id for d in self.cards.dungeon]
        chosen = {}
        for key, table, lo in (("dungeons", game, 1), ("dungeon", _Table(self.file, "decks", decks), 0)):
            if not table.has(key):
                continue
            if not known:
                raise table.err(key, 'dungeons come with the dungeons pack: set [game] packs = ["dungeons"]')
            ids = table.strs(key, [], tuple(known))
            if len(set(ids)) != len(ids) or set(ids) & set(chosen.get("dungeons", ())):
                raise table.err(key, "no dungeon twice: a card is in one place")
            if key == "dungeons" and not lo <= len(ids) <= dungeons.MAX_ACTIVE:
                raise table.err(key, "one or two active dungeons (C-PACK-7)")
            chosen[key] = tuple(ids)
        if not chosen:
            return {}
        active = chosen.get("dungeons", fresh.active)
        top = chosen.get("dungeon", ())
        rest = tuple(d for d in fresh.active + fresh.dungeons.draw if d not in active and d not in top)
        return {"active": active, "dungeons": Deck(top + rest)}

    def _deck(self, card: str) -> str:
        return TREASURE if isinstance(self.cards.card(card), ClassicTreasureDef) else DOOR

    def player(self, seat: int, t: _Table, params) -> dict:
        if t.int("seat", 0, 5, seat) != seat:
            raise t.err("seat", f"[[player]] number {seat + 1} is seat {seat}")
        spec: dict[str, Any] = {}
        if t.has("level"):
            spec["level"] = t.int("level", 1, params.win_level - 1)
        for key, may, field in (("races", "race", "races"), ("classes", "class", "classes"),
                                ("curses", "curse", "curses"), ("next_combat", "next_combat", "next_combat")):
            if t.has(key):
                spec[field] = self.cards_at(t, key, may)
        for key in ("halfbreed", "supermunchkin", "pet"):
            if t.has(key):
                spec[key] = self.card(t, key, t.str(key), key)
        if len(spec.get("races", ())) > 1 + bool(spec.get("halfbreed")):
            raise t.err("races", "one race card, two with a Half-Breed (C-CHAR-7)")
        if len(spec.get("classes", ())) > 1 + bool(spec.get("supermunchkin")):
            raise t.err("classes", "one class card, two with a Super Munchkin (C-CHAR-8)")
        if spec.get("pet") and not params.epic:
            raise t.err("pet", "a pet is an epic human's (C-EPIC-6): set [game] epic = true")
        items = [CItem(c, True) for c in self.cards_at(t, "items", "item")]
        items += [CItem(c, False) for c in self.cards_at(t, "aside", "item")]
        if items:
            spec["items"] = tuple(items)
        if t.has("hand"):
            spec["hand"] = self.cards_at(t, "hand", "hand")
        if t.has("dead"):
            spec["dead"] = t.bool("dead")
            if spec["dead"] and (items or spec.get("hand")):
                raise t.err("dead", "a dead munchkin has nothing until their next turn (C-DEATH-1)")
        if t.has("ready"):
            spec["ready"] = t.bool("ready")
        t.finish()
        return spec

    def decks(self, raw: object) -> dict:
        t = _Table(self.file, "decks", raw)
        t.has("dungeon")  # (the dungeon deck's top: read by dungeons(), C-PACK-7)
        out: dict[str, Any] = {"top": {}, "discard": {}}
        for k in DECKS:
            out["top"][k] = list(self.cards_at(t, k, k))
            out["discard"][k] = list(self.cards_at(t, f"{k}_discard", k))
        out["only"] = t.strs("only", [], DECKS)
        t.finish()
        return out

    def turn(self, t: _Table | None, phase: str, order: tuple[int, ...], players: list) -> Turn | None:
        if phase == Phase.SETUP:
            if t is not None:
                raise t.err(None, "no turn in the setup phase")
            return None
        t = t or _Table(self.file, "game.turn", {})
        seat = t.int("seat", 0, len(players) - 1, order[0])
        fields: dict[str, Any] = {"number": t.int("number", 1, 10_000, 1),
                                  "phase": t.str("phase", Phase.KICK, TURN_PHASES)}
        for f in Turn._hash_fields:
            if f not in ("seat", "number", "phase") and t.has(f):
                default = getattr(Turn(seat=0, number=1), f)
                fields[f] = t.bool(f) if type(default) is bool else t.int(f, 0, 10_000)
        t.finish(Turn._hash_fields)
        return Turn(seat=seat, **fields)

    def expect(self, raw: object) -> dict | None:
        if raw is None:
            return None
        from mq.scenario import _fields

        t = _Table(self.file, "expect", raw)
        out: dict[str, Any] = {}
        for key, read in (("reason", lambda k: t.str(k, _MISSING, sorted(REASONS))), ("at", lambda k: t.int(k, 1, 10_000)),
                          ("phase", lambda k: t.str(k, _MISSING, PHASES)), ("winners", lambda k: t.ints(k, 0, 5)),
                          ("events", t.strs), ("no_events", t.strs), ("hash", t.str)):
            if t.has(key):
                out[key] = read(key)
        for key, node in zip(_NODES, (Combat, CurseCast, Pending, Turn)):
            if t.has(key):
                out[key] = self.node_expect(key, node, t.raw(key))
        if t.has("dungeons"):  # C-PACK-7: the active dungeons, in order
            out["dungeons"] = t.strs("dungeons")
        if t.has("fight"):
            out["fight"] = _fields(_Table(self.file, "expect.fight", t.raw("fight")), _FIGHT_KEYS)
        rows = []
        for i, row in enumerate(t.tables("player")):
            pt = _Table(self.file, f"expect.player[{i}]", row)
            seat = pt.int("seat", 0, 5)
            rows.append({"seat": seat, **_fields(pt, _PLAYER_KEYS)})
        if rows:
            out["player"] = rows
        t.finish()
        return out

    def node_expect(self, key: str, node: type, v: object) -> dict | bool:
        """``[expect.combat]`` and the like: ``false`` (none), or fields of that state node by name."""
        if v is False:
            return False
        sub = _Table(self.file, f"expect.{key}", v)
        out = {f: sub.raw(f) for f in list(sub.table) if f in node._hash_fields}
        sub.finish(node._hash_fields)
        return out


def build(file: str, top: _Table, game: _Table) -> Scenario:
    """The Classic scenario of a file whose ``[game]`` says ``mode = "classic"`` (already read)."""
    return _Builder(file, top, game).build()


def last_fight(result) -> dict | None:
    """The last combat's outcome (the last ``result`` event, C-COMBAT-4)."""
    for e in reversed(result.events):
        if e.kind == "result":
            return {"fighter": e.fighter, "strength": e.strength, "monster_strength": e.monster_strength,
                    "won": e.won}
    return None


def check(result) -> list[str]:
    """What of the file's ``[expect]`` table the run did not meet (empty: all met, or no table)."""
    exp = result.scenario.expect
    if exp is None:
        return []
    bad = check_common(result)
    s = result.state

    def same(label: str, got, want) -> None:
        if got != want:
            bad.append(f"{label}: got {got!r}, expected {want!r}")

    for key in _NODES:
        if key in exp:
            node = getattr(s, key)
            if exp[key] is False or node is None:
                same(key, None if node is None else _json_node(node), None if exp[key] is False else exp[key])
            else:
                got = _json_node(node)
                for f, want in exp[key].items():
                    same(f"{key}.{f}", got[f], want)
    if "dungeons" in exp:
        same("dungeons", list(s.active), exp["dungeons"])
    if "fight" in exp:
        fight = last_fight(result)
        for f, want in exp["fight"].items():
            same(f"fight.{f}", None if fight is None else fight[f], want)
    for row in exp.get("player", ()):
        seat = row["seat"]
        if not 0 <= seat < len(s.players):
            bad.append(f"player[{seat}]: no such seat")
            continue
        for f, want in row.items():
            if f != "seat":
                same(f"player[{seat}].{f}", *_player_value(s.players[seat], f, want))
    return bad


def _player_value(p, f: str, want) -> tuple[Any, Any]:
    """(found, expected) for ``[[expect.player]]``'s key ``f`` on ``p``: lists of cards in any
    order; ``in_hand`` / ``not_in_hand``: those of the expected cards that are / are not there."""
    if f == "hand_size":
        return len(p.hand), want
    if f in ("in_hand", "not_in_hand"):
        return [c for c in want if (c in p.hand) == (f == "in_hand")], want
    if f == "items":
        return sorted(it.card for it in p.items), sorted(want)
    if f in ("in_use", "aside"):
        return sorted(it.card for it in p.items if it.in_use == (f == "in_use")), sorted(want)
    if f in ("hand", "races", "classes", "curses", "next_combat"):
        return sorted(getattr(p, f)), sorted(want)
    return getattr(p, f), want


def _json_player(p, s: ClassicState, cards: ClassicSet) -> dict:
    out = _json_node(p)
    out["colour"] = COLOURS[p.seat]
    out["derived"] = {"identity": list(ch.who(p, cards)), "hand_limit": ch.hand_limit(p, cards, s.params),
                      "strength": cb.seat_strength(s, cards, p.seat) if s.combat is not None else None}
    return out


def to_json(result) -> dict:
    """The JSON shape of ``mq scenario --json`` for a Classic file (docs/scenarios.md, Classic):
    Quest's keys where they apply, the Classic state's own where they differ."""
    s = result.state
    cards = result.scenario.cards
    stop = result.stopped
    failures = check(result)
    return {
        "scenario": result.scenario.path,
        "title": result.scenario.title,
        "mode": "classic",
        "epic": s.params.epic,
        "phase": s.phase,
        "order": list(s.order),
        "turn": _node(s.turn),
        "players": [_json_player(p, s, cards) for p in s.players],
        "decks": {k: {"draw": len(getattr(s, k).draw), "discard": list(getattr(s, k).discard)} for k in DECKS},
        "combat": _node(s.combat),
        "curse": _node(s.curse),
        "pending": _node(s.pending),
        "bodies": [_json_node(b) for b in s.bodies],
        "winners": list(s.winners),
        "actions": [encode_action(a) for a, _ in result.steps],
        "stopped": None if stop is None else {
            "action": stop.number, "seat": stop.action.seat, "kind": stop.action.kind, "args": list(stop.action.args),
            "reason": stop.reason, "detail": stop.detail, "message": REASONS.get(stop.reason, "")},
        "events": [_plain(e) for e in result.events],
        "expect": None if result.scenario.expect is None else {"met": not failures, "failures": failures},
        "hash": f"{state_hash(s):016x}",
    }


def _node(node: Node | None) -> dict | None:
    return None if node is None else _json_node(node)


def describe(state: ClassicState, cards: ClassicSet) -> list[str]:
    """The position in a few lines: everything, hands included (a scenario's author knows them)."""
    def names(ids) -> str:
        return ", ".join(f"{cards.card(c).name} ({c})" for c in ids) or "-"

    def who(seat: int) -> str:
        return COLOURS[seat].capitalize()

    t = state.turn
    out = [f"Phase {state.phase}" + (f", turn {t.number}: {who(t.seat)}, {t.phase}" if t is not None else "")]
    for p in state.players:
        status = "  DEAD" if p.dead else ""
        out.append(f"{who(p.seat):<7} level {p.level}, {p.gender}; {', '.join(ch.who(p, cards))}{status}")
        if p.items:
            out.append(f"        in use: {names(it.card for it in p.items if it.in_use)}; "
                       f"aside: {names(it.card for it in p.items if not it.in_use)}")
        if p.curses or p.next_combat:
            out.append(f"        curses: {names(p.curses + p.next_combat)}")
        out.append(f"        hand: {names(p.hand)}")
    c = state.combat
    if c is not None:
        mine, theirs = cb.strengths(state, cards)
        helper = f", helped by {who(c.helper)}" if c.helper >= 0 else ""
        waiting = f", waiting for {', '.join(who(x) for x in c.waiting)}" if c.waiting else ""
        out.append(f"Combat: {who(c.fighter)}{helper} against {names(m.card for m in c.monsters if not m.out)}, "
                   f"stage {c.stage}{waiting}; strength {mine} against {theirs}")
    if state.curse is not None:
        out.append(f"Curse on its way to {who(state.curse.victim)}: {names((state.curse.card,))}")
    if state.pending is not None:
        pd = state.pending
        out.append(f"Pending: {who(pd.seat)} must decide ({pd.kind})")
    if state.winners:
        out.append("Winners: " + ", ".join(who(s) for s in state.winners))
    out.append(f"State hash {state_hash(state):016x}")
    return out
