"""Picks the native core (mq._core) or its pure-Python twin (mq._core_py).

Both modules export the same names with identical results (see docs/core.md).
``MQ_PUREPYTHON=1`` selects the twin; otherwise the compiled module is required
unless ``MQ_ALLOW_MISSING_CORE=1``, so a tree without the extension never
silently tests the twin twice.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names both implementations export, for type checkers (the twin's types)
    from mq._core_py import *  # noqa: F403

if os.environ.get("MQ_PUREPYTHON") == "1":
    from mq import _core_py as _impl
else:
    try:
        from mq import _core as _impl  # type: ignore[no-redef]
    except ImportError:
        if os.environ.get("MQ_ALLOW_MISSING_CORE") != "1":
            raise ImportError(
                "mq._core is not built: run `make build` (or set MQ_PUREPYTHON=1)"
            ) from None
        from mq import _core_py as _impl  # type: ignore[no-redef]

IMPLEMENTATION = _impl.IMPLEMENTATION
globals().update({name: getattr(_impl, name) for name in _impl.__all__})
__all__ = list(_impl.__all__) + ["IMPLEMENTATION"]
