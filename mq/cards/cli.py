"""``mq cards``: list, show and validate the card set, optionally with an extra pack of house cards.

    mq cards list [--deck monster|treasure|dxm|rooms|connectors] [--cards DIR]
    mq cards show ID [--cards DIR]
    mq cards validate [--cards DIR]
    mq cards list|show|validate --mode classic [--packs P,...] [--deck door|treasure|dungeon] [--cards DIR]

``--mode classic`` does the same for the Classic mode's set (mq/data/classic; its lines are
mq.cards.classic_show's, in plain words).

``--cards DIR`` adds a pack (any subset of the five data files, same schema, new ids) on top of the
default set through :func:`mq.cards.pack.load_with_pack`, the same merge scenario files use, so a
group can try house cards without touching code. ``add_commands(subparsers)`` registers the command
on ``mq``'s argument parser (mq/cli.py).

Invariants: read-only (nothing is written); output is a pure function of the data files, in file
order; exit status 0 on success, 1 with the loader's message on stderr when the data is invalid or
an id is unknown (argparse's own usage errors exit 2).
"""
from __future__ import annotations

import argparse
import dataclasses
import difflib
import sys
import textwrap

from mq.cards import classic_show
from mq.cards import vocab as V
from mq.cards.classic_loader import load_classic_with_pack
from mq.cards.classic_packs import load_classic_packs
from mq.cards.defs import CardSet, ConnectorDef, DataError, DxmDef, Effect, MonsterDef, RoomFace, RoomTile, TreasureDef
from mq.cards.pack import load_with_pack
from mq.cliargs import add_packs_option

DECKS = ("monster", "treasure", "dxm", "rooms", "connectors")
MODES = ("quest", "classic")


def add_commands(subparsers) -> None:
    p = subparsers.add_parser("cards", help="list, show or validate the cards (optionally with a house pack)")
    sub = p.add_subparsers(dest="cards_command", required=True)
    pack_help = "also load the extra pack in DIR (TOML files in the data schema, new ids)"
    ls = sub.add_parser("list", help="one line per card, room face or connector")
    ls.add_argument("--deck", choices=DECKS + ("door", classic_show.DUNGEON),
                    help="only this deck (Quest: monster, treasure, dxm, rooms, connectors; Classic: door, treasure, "
                         "dungeon)")
    ls.add_argument("--cards", metavar="DIR", help=pack_help)
    ls.set_defaults(func=cmd_list)
    sh = sub.add_parser("show", help="every field and the full text of one card, tile, face or connector")
    sh.add_argument("id", help="a card id (M12, T03.2, D24), a room tile or face (R05, R05a, ENTRANCE) or a connector (C01); "
                    "Classic: a card id (CD12, CT03) or human")
    sh.add_argument("--cards", metavar="DIR", help=pack_help)
    sh.set_defaults(func=cmd_show)
    va = sub.add_parser("validate", help="load and check the set; print a count summary")
    va.add_argument("--cards", metavar="DIR", help=pack_help)
    va.set_defaults(func=cmd_validate)
    for command in (ls, sh, va):
        command.add_argument("--mode", choices=MODES, default="quest",
                             help="quest (the default) or classic (the card game without a board)")
        add_packs_option(command)


def _load(args):
    """The set of ``args.mode`` (a CardSet or a ClassicSet) with the pack, or None after saying why."""
    if args.packs and args.mode != "classic":
        print("mq cards: packs are a table option of the Classic mode (C-OPT-4)", file=sys.stderr)
        return None
    try:
        if args.mode == "classic":  # the table's packs (C-OPT-4), then a house pack
            return load_classic_with_pack(args.cards, load_classic_packs(args.packs))
        return load_with_pack(args.cards)
    except DataError as exc:
        print(f"mq cards: {exc}", file=sys.stderr)
        return None


# -- list ----------------------------------------------------------------------------------------
def _words(ws) -> str:
    return ", ".join(ws)


def _effect(e: Effect) -> str:
    params = ", ".join(f"{k}={_value(v)}" for k, v in e.params)
    return f"{e.name}({params})" if params else e.name


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        if v and isinstance(v[0], Effect):
            return "; ".join(_effect(e) for e in v)
        if v and isinstance(v[0], tuple):  # bonuses: (who, amount) pairs
            return ", ".join(f"{w} {a:+d}" for w, a in v)
        return _words(str(x) for x in v) if v else "-"
    return "-" if v is None else str(v)


def monster_line(d: MonsterDef) -> str:
    tags = [t for t in (("mighty" if d.mighty else ""), (d.movement if d.movement != "normal" else ""),
                        (d.size if d.size != "human" else "")) if t]
    tags += list(d.keywords)
    vs = f" vs {_value(d.bonuses)}" if d.bonuses else ""
    return f"{d.id:<8} level {d.level:<2} {d.dice} dice {d.treasure} tr.  {d.name}{vs}" + (f"  [{_words(tags)}]" if tags else "")


def treasure_line(d: TreasureDef) -> str:
    if d.kind == "level":
        return f"{d.id:<8} level                {d.name}"
    where = d.slot + (f"/{d.hands}" if d.hands else "")
    value = f"{d.value}g" if d.value else "-"
    return f"{d.id:<8} {d.kind:<7} {where:<10} {d.bonus:+d} {value:>6}  {d.name}"


def dxm_line(d: DxmDef) -> str:
    what = d.key if d.key else (f"{d.bonus:+d}" if d.bonus else "")
    return f"{d.id:<8} {d.kind:<9} {what:<8} {d.name}"


def face_line(f: RoomFace) -> str:
    bits = []
    if f.green:
        bits.append(f"good for {_words(map(str, f.green))}")
    if f.red:
        bits.append(f"bad for {_words(map(str, f.red))}")
    if f.no_search:
        bits.append("no search")
    elif f.search:
        bits.append(f"search {f.search:+d}")
    bits += [_effect(e) for e in f.effects]
    return f"{f.id:<8} {f.name}" + (f"  [{'; '.join(bits)}]" if bits else "")


def connector_line(c: ConnectorDef) -> str:
    return f"{c.id:<8} corridor / {V.CONNECTOR_KINDS[c.back]}"


def list_lines(cards: CardSet, deck: str | None = None) -> list[str]:
    """The ``mq cards list`` output: a header per deck, then one line per entry in file order."""
    sections = {
        "monster": (f"Monster deck: {len(cards.monsters)} cards", [monster_line(d) for d in cards.monsters]),
        "treasure": (f"Treasure deck: {len(cards.treasures)} cards", [treasure_line(d) for d in cards.treasures]),
        "dxm": (f"DxM deck: {len(cards.dxm)} cards", [dxm_line(d) for d in cards.dxm]),
        "rooms": (f"Rooms: the Entrance and {len(cards.rooms)} tiles ({2 * len(cards.rooms)} faces)",
                  [face_line(cards.entrance)] + [face_line(f) for t in cards.rooms for f in t.faces]),
        "connectors": (f"Connectors: {len(cards.connectors)} tiles", [connector_line(c) for c in cards.connectors]),
    }
    out: list[str] = []
    for name in (deck,) if deck else DECKS:
        header, lines = sections[name]
        if out:
            out.append("")
        out += [header] + ["  " + line for line in lines]
    return out


def cmd_list(args) -> int:
    decks = classic_show.LIST_DECKS if args.mode == "classic" else DECKS
    if args.deck and args.deck not in decks:
        print(f"mq cards: {args.deck!r} is not a deck of the {args.mode} mode (its decks: {', '.join(decks)})",
              file=sys.stderr)
        return 2
    cards = _load(args)
    if cards is None:
        return 1
    lines = (classic_show.list_lines if args.mode == "classic" else list_lines)(cards, args.deck)
    print("\n".join(lines))
    return 0


# -- show ----------------------------------------------------------------------------------------
def _fields(defn, skip=("id", "name", "text")) -> list[str]:
    out = []
    for f in dataclasses.fields(defn):
        if f.name in skip:
            continue
        v = getattr(defn, f.name)
        if f.name == "arrows":
            arrows = [f"{c} {V.DIRECTIONS[d]}" for c, d in zip(V.COLOURS, v) if d >= 0]
            out.append(f"  arrows: {_words(arrows) or '-'}")
        elif f.name == "back":
            out.append(f"  back: {V.CONNECTOR_KINDS[v]} (front: corridor)")
        else:
            out.append(f"  {f.name}: {_value(v)}")
    return out


def _text(defn) -> list[str]:
    return [f"{defn.id}: {defn.name}", textwrap.fill(defn.text, 78, initial_indent="  ", subsequent_indent="  ")]


def show_lines(cards: CardSet, ident: str) -> list[str] | None:
    """Every field of the entry with id ``ident`` (None when there is none)."""
    deck = {MonsterDef: "Monster card", TreasureDef: "Treasure card", DxmDef: "DxM card"}
    try:
        d = cards.card(ident)
        return [f"{deck[type(d)]}"] + _text(d) + _fields(d)
    except KeyError:
        pass
    try:
        f = cards.face(ident)
        return ["Room face"] + _text(f) + _fields(f)
    except KeyError:
        pass
    tile = next((t for t in cards.rooms if t.id == ident), None)
    if isinstance(tile, RoomTile):
        out = [f"Room tile {tile.id} (two faces)"]
        for f in tile.faces:
            out += _text(f) + _fields(f, skip=("id", "name", "text", "tile"))
        return out
    c = next((c for c in cards.connectors if c.id == ident), None)
    if c is not None:
        return [f"Connector {c.id}"] + _fields(c)
    return None


def all_ids(cards: CardSet) -> list[str]:
    return ([d.id for d in cards.monsters + cards.treasures + cards.dxm] + [cards.entrance.id]
            + [t.id for t in cards.rooms] + [f.id for t in cards.rooms for f in t.faces]
            + [c.id for c in cards.connectors])


def cmd_show(args) -> int:
    cards = _load(args)
    if cards is None:
        return 1
    classic = args.mode == "classic"
    lines = (classic_show.show_lines if classic else show_lines)(cards, args.id)
    if lines is None:
        ids = classic_show.all_ids(cards) if classic else all_ids(cards)
        close = difflib.get_close_matches(args.id, ids, n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(close)}?)" if close else ""
        what = "Classic card" if classic else "card, room or connector"
        print(f"mq cards: no {what} with id {args.id!r}{hint}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


# -- validate ------------------------------------------------------------------------------------
def _by(values) -> str:
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in counts.items())


def summary_lines(cards: CardSet) -> list[str]:
    """Counts per deck and kind: what ``mq cards validate`` prints for a valid set."""
    entries = len({d.id.split(".")[0] for d in cards.monsters})
    return [
        f"  monsters:   {len(cards.monsters)} cards ({entries} entries), {sum(d.mighty for d in cards.monsters)} Mighty",
        f"  treasure:   {len(cards.treasures)} cards ({_by(d.kind for d in cards.treasures)})",
        f"  DxM:        {len(cards.dxm)} cards ({_by(d.kind for d in cards.dxm)})",
        f"  rooms:      the Entrance + {len(cards.rooms)} tiles ({2 * len(cards.rooms)} faces)",
        f"  connectors: {len(cards.connectors)} ({_by(V.CONNECTOR_KINDS[c.back] for c in cards.connectors)})",
    ]


def cmd_validate(args) -> int:
    cards = _load(args)
    if cards is None:
        return 1
    classic = args.mode == "classic"
    where = f"the default {'Classic ' if classic else ''}set" + (f" + the packs {', '.join(args.packs)}" if args.packs else "")
    where += f" + the pack in {args.cards}" if args.cards else ""
    print(f"ok: {where}")
    print("\n".join((classic_show.summary_lines if classic else summary_lines)(cards)))
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m mq.cards.cli list ...``: the command without the rest of ``mq``."""
    parser = argparse.ArgumentParser(prog="mq")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
