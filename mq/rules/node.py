"""Immutable state nodes with a cached structural digest.

Every piece of game state is a frozen dataclass deriving from :class:`Node`.  A node's digest
(mq.core.digest) is cached on the instance the first time it is asked for; because nodes are
immutable and an action builds new nodes only along the path to what it changed, hashing a new
state costs only the new nodes (DESIGN "Determinism and hashing").  Fields hold only plain,
msgpack-able data: ints, strs, bools, None, tuples, and other nodes (never dicts or sets).
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar


class Node:
    """Base of all state nodes; subclasses are ``@dataclasses.dataclass(frozen=True)``."""

    _hash_tag: ClassVar[str] = "Node"
    _hash_fields: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._hash_tag = cls.__name__

    def replace(self, **changes: Any) -> "Node":
        """A copy with ``changes``; the digest cache is not carried over."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]


def node(cls: type) -> type:
    """Class decorator: frozen dataclass whose hashed fields are its dataclass fields in order."""
    cls = dataclasses.dataclass(frozen=True)(cls)
    cls._hash_fields = tuple(f.name for f in dataclasses.fields(cls))
    return cls
