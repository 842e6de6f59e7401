"""Extra card packs: the default set plus house cards, added without touching code or ``mq/data``.

A **pack** is a directory holding any subset of the five data files (``rooms.toml``,
``connectors.toml``, ``monsters.toml``, ``treasure.toml``, ``dxm.toml``) in the schema of
docs/data.md, except that ``rooms.toml`` holds only ``[[tile]]`` entries: a pack adds to a set, it
never replaces the Entrance. ``mq cards --cards DIR`` loads one; scenario files (mq.scenario) add
cards the same way, inline, as ``[[extra.monster]]``, ``[[extra.treasure]]``, ``[[extra.card]]``,
``[[extra.tile]]`` and ``[[extra.connector]]`` tables.

Invariants:
- Every entry is validated by the loader itself (:func:`mq.cards.loader.load_entries`): the same
  types, ranges, vocabularies and unknown-key errors as the default files, and the same
  :class:`DataError` naming the file (or scenario table), the entry and the field.
- Ids never clash: every card, tile and connector id of a pack is new to the base set (house
  cards conventionally use 3-digit ids such as ``M901``).
- :func:`extend` returns a new CardSet: the base entries first, then the pack's, each in file
  order; the base set is not changed. Same base and same pack bytes, equal set on every peer.
"""
from __future__ import annotations

import dataclasses
import os
import tomllib
from pathlib import Path

from mq.cards.defs import CardSet, DataError
from mq.cards.loader import CONNECTORS, DXM, FILES, MONSTERS, ROOMS, TREASURE, load_default, load_entries

# The array-of-tables key of each data file: ``[[extra.<key>]]`` in a scenario.
KEYS = {ROOMS: "tile", CONNECTORS: "connector", MONSTERS: "monster", TREASURE: "treasure", DXM: "card"}
FILE_OF = {key: name for name, key in KEYS.items()}


@dataclasses.dataclass(frozen=True)
class Extras:
    """Validated additions to a card set, each in file order."""

    tiles: tuple = ()
    connectors: tuple = ()
    monsters: tuple = ()
    treasures: tuple = ()
    dxm: tuple = ()

    def __bool__(self) -> bool:
        return any((self.tiles, self.connectors, self.monsters, self.treasures, self.dxm))


def parse(docs: dict[str, dict], labels: dict[str, str] | None = None) -> Extras:
    """Validate additions given as parsed TOML per data file name (``{"monsters.toml": {"monster":
    [...]}}``); ``labels`` renames the file in error messages (a scenario names its own tables)."""
    labels = labels or {}
    parts: dict[str, tuple] = {}
    for name, doc in docs.items():
        label = labels.get(name, name)
        if name == ROOMS and "entrance" in doc:
            raise DataError(label, "", "entrance", "a pack adds room tiles; it cannot replace the Entrance")
        parts[name] = load_entries(name, doc, label)
    return Extras(parts.get(ROOMS, ()), parts.get(CONNECTORS, ()), parts.get(MONSTERS, ()),
                  parts.get(TREASURE, ()), parts.get(DXM, ()))


def read(path: str | os.PathLike, files: tuple[str, ...] = FILES) -> dict[str, dict]:
    """The data files (of ``files``) present in pack directory ``path``, parsed (at least one must
    be there). The Classic packs (mq.cards.classic_loader) read theirs with this too."""
    root = Path(path)
    if not root.is_dir():
        raise DataError(str(root), "", "", "not a directory")
    docs: dict[str, dict] = {}
    for name in files:
        f = root / name
        if not f.is_file():
            continue
        try:
            docs[name] = tomllib.loads(f.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise DataError(str(f), "", "", f"not valid TOML: {exc}") from None
    if not docs:
        raise DataError(str(root), "", "", f"no card files (expected any of: {', '.join(files)})")
    return docs


def extend(base: CardSet, extras: Extras, labels: dict[str, str] | None = None) -> CardSet:
    """``base`` plus ``extras``; any id already in ``base`` is an error (ids must be new).
    ``labels`` names the files in errors, as for :func:`parse`."""
    labels = labels or {}

    def clash(file: str, new_id: str, old: str) -> DataError:
        return DataError(labels.get(file, file), new_id, "id",
                         f"clashes with {old} of the base set (house cards need new ids, e.g. 3 digits)")

    base_cards = {c.id: c for c in base.monsters + base.treasures + base.dxm}
    for file, deck in ((MONSTERS, extras.monsters), (TREASURE, extras.treasures), (DXM, extras.dxm)):
        for c in deck:
            if c.id in base_cards:
                raise clash(file, c.id, repr(base_cards[c.id].name))
    tiles = {t.id for t in base.rooms}
    for t in extras.tiles:
        if t.id in tiles:
            raise clash(ROOMS, t.id, f"tile {t.id}")
    connectors = {c.id for c in base.connectors}
    for c in extras.connectors:
        if c.id in connectors:
            raise clash(CONNECTORS, c.id, f"connector {c.id}")
    return CardSet(
        entrance=base.entrance,
        rooms=base.rooms + extras.tiles,
        connectors=base.connectors + extras.connectors,
        monsters=base.monsters + extras.monsters,
        treasures=base.treasures + extras.treasures,
        dxm=base.dxm + extras.dxm,
        standees=base.standees,  # the box's figures: a pack adds cards, not standees (Q-COMP-4)
    )


def load_with_pack(path: str | os.PathLike | None) -> CardSet:
    """The default set, plus the pack in directory ``path`` when one is given."""
    if path is None:
        return load_default()
    labels = {name: str(Path(path) / name) for name in FILES}
    return extend(load_default(), parse(read(path), labels), labels)
