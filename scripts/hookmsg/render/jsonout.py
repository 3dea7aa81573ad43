"""Deterministic JSON: sorted keys, two-space indent, UTF-8 text, final newline."""

from __future__ import annotations

import json
from typing import Any


def dump_json(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
