"""Immutable state nodes with a cached structural digest.

Every piece of game state is a frozen dataclass deriving from :class:`Node`.  A node's digest
(mq.core.digest) is cached on the instance the first time it is asked for; because nodes are
immutable and an action builds new nodes only along the path to what it changed, hashing a new
state costs only the new nodes (DESIGN "Determinism and hashing").  Fields hold only plain,
msgpack-able data: ints, strs, bools, None, tuples, and other nodes (never dicts or sets).

Invariants ``replace`` relies on: a node's fields live in its instance ``__dict__`` (no
``__slots__``), and a node class has no ``__post_init__`` (``node`` refuses one), so a copy is
the old field values with the changes applied, nothing else (no cached ``_digest`` or other
cache comes along).
"""
from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Self, TypeVar, dataclass_transform


class Node:
    """Base of all state nodes; subclasses are ``@dataclasses.dataclass(frozen=True)``."""

    _hash_tag: ClassVar[str] = "Node"
    _hash_fields: ClassVar[tuple[str, ...]] = ()
    _field_set: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._hash_tag = cls.__name__

    def replace(self, **changes: Any) -> Self:
        """A copy with ``changes``; the digest cache is not carried over.  The same result as
        ``dataclasses.replace`` (an unknown field name is a TypeError) at a fraction of the cost:
        it fills the new instance's ``__dict__`` directly instead of running the frozen
        ``__init__`` (one ``object.__setattr__`` per field)."""
        cls = type(self)
        if not changes.keys() <= cls._field_set:
            unknown = sorted(changes.keys() - cls._field_set)
            raise TypeError(f"{cls.__name__} has no field {unknown[0]!r}")
        old = self.__dict__
        new = object.__new__(cls)
        d = new.__dict__
        for name in cls._hash_fields:
            d[name] = old[name]
        d.update(changes)
        return new


_N = TypeVar("_N", bound=Node)


@dataclass_transform(frozen_default=True)
def node(cls: type[_N]) -> type[_N]:
    """Class decorator: frozen dataclass whose hashed fields are its dataclass fields in order
    (``dataclass_transform`` tells type checkers so: a node's constructor takes its fields)."""
    if "__post_init__" in vars(cls):
        raise TypeError(f"{cls.__name__}: a node has no __post_init__ (Node.replace does not run __init__)")
    cls = dataclasses.dataclass(frozen=True)(cls)
    # (dataclass() returns the class it was given, typed so: fields() does not see it is one now)
    cls._hash_fields = tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
    cls._field_set = frozenset(cls._hash_fields)
    return cls
