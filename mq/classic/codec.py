"""A Classic state to and from plain msgpack-able data: Quest's codec (mq.rules.codec) over the
Classic node types; ``decode(encode(s)) == s``."""
from __future__ import annotations

from typing import Any

from mq.classic.state import NODE_TYPES
from mq.rules import codec as _codec

encode = _codec.encode


def decode(data: Any) -> Any:
    return _codec.decode(data, NODE_TYPES)
