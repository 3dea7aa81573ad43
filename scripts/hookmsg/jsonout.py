"""The one deterministic JSON writer: sorted keys, two-space indent, final newline."""

from __future__ import annotations

import json
from typing import Any


def dump_json(data: Any, *, ascii: bool = False) -> str:
    """`data` as JSON text: UTF-8 text unless `ascii` (then every non-ASCII is escaped)."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=ascii) + "\n"
