"""Node classes for the state-hash tests: each call makes a new class object, so the native core's
per-class caches (class records, checked fields) start empty for it, as a test about them needs."""
from __future__ import annotations

from dataclasses import make_dataclass


def node_class(tag: str, fields: str | tuple[str, ...], name: str | None = None) -> type:
    """A fresh frozen dataclass node, its int ``fields`` hashed in that order under ``tag``
    (``_hash_tag``/``_hash_fields`` as mq.rules.state nodes declare them)."""
    fields = tuple(fields)
    return make_dataclass(name or tag, [(f, int) for f in fields], frozen=True,
                          namespace={"_hash_tag": tag, "_hash_fields": fields})
