"""Values derived from a few small files, remembered between runs by each file's stat.

`dodo.py` runs on every `doit`, and parsing `pyproject.toml` and two catalogue files
each time is most of what it costs beyond doit itself. A remembered value is used only
while the file's stat (size, modification and change times, inode, device, mode) is
exactly what it was when the value was derived from it.

A file changed less than `SETTLE_NS` before it was read is never remembered: a second
write within the file system's timestamp granularity could leave an identical stat
(git's "racily clean" problem). The change time is the clock that counts, since no
program can set it (`os.utime` moves the modification time and updates the change
time). Standard library only.
"""

from __future__ import annotations

import json
import os
import stat
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

SETTLE_NS = 3_000_000_000


def stamp(path: Path) -> list[int] | None:
    """What identifies this version of the file, or None when it is not a regular file."""
    try:
        info = path.stat()
    except OSError:
        return None
    return stamp_of(info) if stat.S_ISREG(info.st_mode) else None


def stamp_of(info: os.stat_result) -> list[int]:
    """The parts of a stat that change whenever the file is written or replaced."""
    return [
        info.st_size,
        info.st_mtime_ns,
        info.st_ctime_ns,
        info.st_ino,
        info.st_dev,
        info.st_mode,
    ]


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
        settled = before is not None and before[2] <= self._clock() - SETTLE_NS
        if settled and stamp(path) == before:
            try:
                encoded = json.loads(json.dumps(value))
                kept = decode(encoded) == value
            except (ValueError, TypeError, KeyError, IndexError, RecursionError):
                kept = False
            if kept:
                self.fresh[key] = [before, encoded]
        return value
