"""Values derived from a few small files, remembered between runs by each file's stamp.

`dodo.py` runs on every `doit`, and parsing `pyproject.toml` and two catalogue files
each time is most of what it costs beyond doit itself; a cached `hookmsg check` reads the
same files. A remembered value is used only while the file's stamp (its whole stat, see
`inputs.fingerprint`) is exactly what it was when the value was derived from it, and a
file that had not settled when it was read is never remembered. Standard library only.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from hookmsg.inputs.fingerprint import settled, stamp

T = TypeVar("T")


class FileMemo:
    """Derived values by file and kind; `fresh` holds what this run learnt, to be stored."""

    def __init__(
        self,
        stored: Mapping[str, Any] | None = None,
        *,
        clock: Callable[[], int] = time.time_ns,
    ) -> None:
        self._stored = dict(stored or {})
        self._clock = clock
        self.fresh: dict[str, Any] = {}

    def derive(
        self,
        path: Path,
        kind: str,
        compute: Callable[[], T],
        decode: Callable[[Any], T],
    ) -> T:
        """`compute()`'s value for this version of `path`: remembered, or computed now.

        `decode` rebuilds the value from its JSON form and raises ValueError or TypeError
        on anything else (a damaged or foreign entry is then recomputed). A value is kept
        only if its JSON form decodes back to an equal value.
        """
        key = f"{kind}\n{os.path.abspath(path)}"  # noqa: PTH100 (a string key)
        before = stamp(path)
        known = self._stored.get(key)
        if (
            before is not None
            and isinstance(known, list)
            and len(known) == 2
            and known[0] == before
        ):
            try:
                return decode(known[1])
            except (ValueError, TypeError, KeyError, IndexError):
                pass  # damaged or foreign: derive it again
        value = compute()
        if before is not None and settled(before, self._clock()) and stamp(path) == before:
            try:
                encoded = json.loads(json.dumps(value))
                kept = decode(encoded) == value
            except (ValueError, TypeError, KeyError, IndexError, RecursionError):
                kept = False
            if kept:
                self.fresh[key] = [before, encoded]
        return value

    def to_store(self) -> dict[str, Any]:
        """What a store should hold after this run: what it held, updated by this run."""
        return {**self._stored, **self.fresh}
