"""Card, room and connector definitions: the data files of ``mq/data`` and their loader.

``load_default()`` returns the shipped :class:`CardSet` (cached); ``load_cards(path)`` loads a set
from another directory; invalid data raises :class:`DataError` naming file, entry and field.
Conditions on a munchkin (what a room is good or bad for) are :mod:`mq.cards.conditions`.
The closed vocabularies (keywords, slots, effect names and their parameters) live in
:mod:`mq.cards.vocab`; docs/data.md documents the file format.
"""
from mq.cards.conditions import Condition, ConditionKind
from mq.cards.defs import (
    CardDef,
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
from mq.cards.loader import load_cards, load_default
from mq.cards.vocab import CardKind

__all__ = [
    "CardDef",
    "CardKind",
    "CardSet",
    "Condition",
    "ConditionKind",
    "ConnectorDef",
    "DataError",
    "DxmDef",
    "Effect",
    "MonsterDef",
    "Param",
    "RoomFace",
    "RoomTile",
    "TreasureDef",
    "load_cards",
    "load_default",
]
