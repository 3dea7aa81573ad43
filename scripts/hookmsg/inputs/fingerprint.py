"""What a file holds, known by its stat once it has settled: the one fingerprint of a run.

Every run asks the same question of every file it reads: does it still hold what it held
last time? `doit`'s file checker (`inputs.doit_state`), the tasks' own values
(`cli/taskgraph.py`), the values `dodo.py` remembers (`inputs.file_memo`) and the check
cache (`outputs.check_cache`) all answer it here, one way.

A file's stamp is its whole stat: size, modification and change times, inode, device,
mode. A stamp is believed without reading the file only when it was recorded at least
`SETTLE_NS` after the file's last change: a second write within the file system's
timestamp granularity could leave an identical stat (git's "racily clean" problem).
The change time is the clock that counts, since no program can set it (`os.utime`
moves the modification time and updates the change time). Otherwise the file's
SHA-256 decides, and once the file has settled one such hash proves what the stamp
holds for good (a seal). Standard library only: `dodo.py` runs this on every `doit`.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

SETTLE_NS = 3_000_000_000
SEAL = "seal\n"


def stamp(path: Path | str) -> list[int] | None:
    """What identifies this version of the file, or None when it is not a regular file."""
    try:
        info = os.stat(path)  # noqa: PTH116 (a string or a Path)
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


def settled(known: list[int], at: int) -> bool:
    """Had the file of stamp `known` settled by `at` (ns), so that the stamp proves it?"""
    return known[2] <= at - SETTLE_NS


def digest(path: str) -> str:
    """The file's SHA-256, streamed: memory stays flat whatever its size."""
    with open(path, "rb") as handle:  # noqa: PTH123
        return hashlib.file_digest(handle, "sha256").hexdigest()


class Seals:
    """Which stamp of a file is known to hold which content, proven once it had settled.

    A record taken within `SETTLE_NS` of a file's change cannot be trusted by its stamp
    alone, so it is checked by hashing the file. Once the file has settled, one such
    hash proves what this stamp holds for good: it is sealed, and every later run
    believes the stamp without reading the file. Without seals, the records a first run
    takes right after a clone stay racy, and every later run rehashes every file until
    it happens to record it again. `fresh` holds the seals this run made, to be stored.
    """

    def __init__(self, clock: Callable[[], int] = time.time_ns) -> None:
        self._known: dict[str, Any] = {}
        self._clock = clock
        self.fresh: dict[str, Any] = {}

    def load(self, stored: Mapping[str, Any]) -> None:
        self._known = {k[len(SEAL) :]: v for k, v in stored.items() if k.startswith(SEAL)}

    def vouches(self, path: str, known: list[int], found: str) -> bool:
        """Is `known` (the file's current stamp) sealed as holding `found`?"""
        return self._known.get(path) == [known, found]

    def hashed(self, path: str, before: list[int], found: str) -> None:
        """`path` had stamp `before` and hashed to `found`: seal it if it had settled."""
        if not settled(before, self._clock()) or self.vouches(path, before, found):
            return
        if stamp(path) != before:
            return  # changed while it was read
        self._known[path] = [before, found]
        self.fresh[SEAL + path] = [before, found]


SEALS = Seals()


def same_content(path: str, info: os.stat_result, expected: str, seals: Seals = SEALS) -> bool:
    """Does the file (stat `info`) hold `expected`? A seal answers; else hash, and seal."""
    current = stamp_of(info)
    if seals.vouches(path, current, expected):
        return True
    found = digest(path)
    seals.hashed(path, current, found)
    return found == expected


def recorded(mark: Any) -> tuple[list[int], str, int] | None:
    """A regular file's mark as `content_mark` wrote it, or None (anything else)."""
    if not isinstance(mark, list) or len(mark) != 3:
        return None
    known, found, at = mark
    # Only the shape is checked: a stamp holding anything but six ints never equals one
    # that `stamp_of` takes, and is compared first.
    if not isinstance(known, list) or len(known) != 6:
        return None
    if not isinstance(found, str) or type(at) is not int:
        return None
    return known, found, at


def content_mark(path: Path | str) -> str | list[Any]:
    """What `path` holds: stamp, content hash and when they were taken.

    Anything but a regular file is a marker instead, so missing, a folder and a FIFO
    all differ from each other and from any content.
    """
    try:
        info = os.stat(path)  # noqa: PTH116
    except OSError:
        return "missing"
    kind = _kind(info)
    if kind is not None:
        return kind
    taken = time.time_ns()
    try:
        return [stamp_of(info), digest(str(path)), taken]
    except OSError:
        return "unreadable"


def _kind(info: os.stat_result) -> str | None:
    """The marker of anything but a regular file (None for a regular file)."""
    if stat.S_ISREG(info.st_mode):
        return None
    return "folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"


def _holds_the_same_kind(path: Path | str, mark: str) -> bool:
    try:
        return _kind(os.stat(path)) == mark  # noqa: PTH116
    except OSError:
        return mark == "missing"


def holds_the_same(path: Path | str, mark: Any, seals: Seals = SEALS) -> bool:
    """Does `path` still hold what `mark` (a `content_mark`) recorded?

    A regular file whose stamp is the recorded one, recorded once it had settled, is
    believed without reading it; otherwise a seal or its content hash decides.
    """
    if isinstance(mark, str):  # a marker: compare kinds, never read a file to do it
        return _holds_the_same_kind(path, mark)
    found = recorded(mark)
    if found is None:
        return False
    known, expected, at = found
    try:
        info = os.stat(path)  # noqa: PTH116
        if not stat.S_ISREG(info.st_mode):
            return False
        if stamp_of(info) == known and settled(known, at):
            return True
        return same_content(str(path), info, expected, seals)
    except OSError:
        return False
