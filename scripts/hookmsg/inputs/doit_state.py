"""doit's state file, as `dodo.py` opens it before doit does.

A damaged state file must cost a rebuild, not a crash, so one that sqlite rejects is
removed. The same file keeps, in a table of its own beside doit's, what `dodo.py`
derived from the configuration and catalogue files (`file_memo`), so a no-op `doit`
need not parse them again; losing it costs only that parse. Standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from hookmsg.inputs.file_memo import SETTLE_NS, stamp_of

MEMO_TABLE = "hookmsg_memo"
SQLITE_SIDE_FILES = ("-journal", "-wal", "-shm")


def unusable_state_file(path: Path, text: str) -> Exception:
    """K003, imported only on trouble: the rules module imports the whole code table."""
    from hookmsg.inputs import rules

    return rules.unusable_state_file(path, text)


def _problem(path: Path) -> str | None:
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    return None if stat.S_ISREG(info.st_mode) else "is not a regular file"


def open_state(path: Path) -> tuple[dict[str, Any], str | None]:
    """The remembered values in the state file, and a note if it had to be removed.

    Raises ConfigError (K003) when the state file is not a regular file, or is damaged
    and cannot be removed.
    """
    import sqlite3

    # sqlite3 writes its journal beside the file: a folder there (left by an older
    # hookmsg that let `generated` take that name) breaks every run just the same.
    for name in (path.name, *(path.name + suffix for suffix in SQLITE_SIDE_FILES)):
        problem = _problem(path.with_name(name))
        if problem is not None:
            raise unusable_state_file(
                path.with_name(name), f"{problem}; remove it (losing it only costs a rebuild)"
            )
    if not path.exists():
        return {}, None
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=1)) as db:
            if db.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise sqlite3.DatabaseError("quick_check failed")
            return _memo_rows(db), None
    except sqlite3.OperationalError:
        return {}, None  # locked by a concurrent run, say: derive everything afresh
    except sqlite3.DatabaseError:
        try:
            path.unlink(missing_ok=True)
        except OSError as error:
            raise unusable_state_file(
                path, f"is unreadable and cannot be removed: {error}"
            ) from None
        return {}, f"doit state {path.name} was unreadable and was removed; rebuilding"


def _memo_rows(db: Any) -> dict[str, Any]:
    found = db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?", (MEMO_TABLE,)
    ).fetchone()
    if found is None:
        return {}
    rows: dict[str, Any] = {}
    for key, value in db.execute(f"SELECT key, value FROM {MEMO_TABLE}"):
        with contextlib.suppress(TypeError, ValueError, RecursionError):
            rows[str(key)] = json.loads(value)
    return rows


def remember(path: Path, fresh: dict[str, Any]) -> None:
    """Store what this run derived; a state file that cannot take it is left as it is."""
    if not fresh:
        return
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(path, timeout=1)) as db, db:
            db.execute(
                f"CREATE TABLE IF NOT EXISTS {MEMO_TABLE} (key TEXT PRIMARY KEY, value TEXT)"
            )
            db.executemany(
                f"INSERT OR REPLACE INTO {MEMO_TABLE} (key, value) VALUES (?, ?)",
                [(key, json.dumps(value, sort_keys=True)) for key, value in sorted(fresh.items())],
            )
    except (sqlite3.Error, OSError):
        pass  # read-only tree, a locked or vanished file: next run derives them again


SEAL = "seal\n"


class Seals:
    """Which stamp of a file is known to hold which content, proven once it had settled.

    A record taken within `SETTLE_NS` of a file's change cannot be trusted by its stamp
    alone (a second write in the same timestamp tick leaves the same stat), so it is
    checked by hashing the file. Once the file has settled, one such hash proves what
    this stamp holds for good: it is sealed, and every later run believes the stamp
    without reading the file. Without seals, the records a first `doit` takes right
    after a clone stay racy, and every no-op run after it rehashes every file until each
    task happens to run again. Kept in the memo table of doit's state file, written at
    the end of the run (`dodo.py`); losing them costs one hash per file.
    """

    def __init__(self, clock: Callable[[], int] = time.time_ns) -> None:
        self._known: dict[str, Any] = {}
        self._clock = clock
        self.fresh: dict[str, Any] = {}

    def load(self, stored: Mapping[str, Any]) -> None:
        self._known = {k[len(SEAL) :]: v for k, v in stored.items() if k.startswith(SEAL)}

    def vouches(self, path: str, stamp: list[int], digest: str) -> bool:
        """Is `stamp` (the file's current one) sealed as holding `digest`?"""
        return self._known.get(path) == [stamp, digest]

    def hashed(self, path: str, before: list[int], digest: str) -> None:
        """`path` had stamp `before` and hashed to `digest`: seal it if it had settled."""
        if before[2] > self._clock() - SETTLE_NS or self.vouches(path, before, digest):
            return
        try:
            if stamp_of(os.stat(path)) != before:  # noqa: PTH116
                return  # changed while it was read
        except OSError:
            return
        self._known[path] = [before, digest]
        self.fresh[SEAL + path] = [before, digest]


SEALS = Seals()


def _same_content(path: str, info: os.stat_result, digest: str) -> bool:
    """Does the file (stat `info`) hold `digest`? A seal answers; else hash, and seal."""
    current = stamp_of(info)
    if SEALS.vouches(path, current, digest):
        return True
    found = _digest(path)
    SEALS.hashed(path, current, found)
    return found == digest


class StampChecker:
    """doit's test of a file dependency: the whole stat, then the content.

    doit's own checker trusts an unchanged modification time, so an edit that puts the
    old mtime back (`touch -r`, `cp -p`, `os.utime`) goes unnoticed. This one keys on
    the stat that `file_memo.stamp` takes, change time and inode included, trusts it
    only for a file that had settled when it was recorded, and otherwise compares a
    content hash. doit calls it by these four names; it needs nothing from doit.
    """

    CheckerError = OSError

    def exists(self, file_path: str) -> bool:
        return os.path.exists(file_path)  # noqa: PTH110 (doit passes strings)

    def info(self, file_path: str) -> os.stat_result:
        return os.stat(file_path)  # noqa: PTH116

    def check_modified(self, file_path: str, file_stat: os.stat_result, state: Any) -> bool:
        # The common case first, on the stat doit already took: it runs for every file
        # dependency of every task on every run.
        recorded = _recorded(state)
        if recorded is not None and stat.S_ISREG(file_stat.st_mode):
            known, digest, at = recorded
            if stamp_of(file_stat) == known and known[2] <= at - SETTLE_NS:
                return False
            try:
                return not _same_content(file_path, file_stat, digest)
            except OSError:
                return True
        return not holds_the_same(Path(file_path), state)

    def get_state(self, dep: str, current_state: Any) -> str | list[Any] | None:
        recorded = _recorded(current_state)
        if recorded is not None:
            known, _digest_then, at = recorded
            if stamp_of(os.stat(dep)) == known and known[2] <= at - SETTLE_NS:  # noqa: PTH116
                return None  # unchanged, and proven so when it was recorded
        return content_mark(Path(dep))


def _recorded(state: Any) -> tuple[list[int], str, int] | None:
    """A state this checker wrote, or None (doit's own, or damaged)."""
    if not isinstance(state, list) or len(state) != 3:
        return None
    known, digest, at = state
    # Only the shape is checked: a stamp holding anything but six ints never equals one
    # that `stamp_of` takes, and is compared first.
    if not isinstance(known, list) or len(known) != 6:
        return None
    if not isinstance(digest, str) or type(at) is not int:
        return None
    return known, digest, at


def _digest(path: str) -> str:
    with open(path, "rb") as handle:  # noqa: PTH123
        return hashlib.file_digest(handle, "sha256").hexdigest()


def content_mark(path: Path) -> str | list[Any]:
    """What `path` holds, for a task's saved values: stamp, content hash and when taken.

    Anything but a regular file is a marker instead, so missing, a folder and a FIFO
    all differ from each other and from any content.
    """
    try:
        info = path.stat()
    except OSError:
        return "missing"
    kind = _kind(info)
    if kind is not None:
        return kind
    taken = time.time_ns()
    try:
        return [stamp_of(info), _digest(str(path)), taken]
    except OSError:
        return "unreadable"


def _kind(info: os.stat_result) -> str | None:
    """The marker of anything but a regular file (None for a regular file)."""
    if stat.S_ISREG(info.st_mode):
        return None
    return "folder" if stat.S_ISDIR(info.st_mode) else "not a regular file"


def _holds_the_same_kind(path: Path, mark: str) -> bool:
    try:
        return _kind(path.stat()) == mark
    except OSError:
        return mark == "missing"


def holds_the_same(path: Path, mark: Any) -> bool:
    """Does `path` still hold what `mark` (a `content_mark`) recorded?

    A regular file whose stat is the recorded one, recorded once it had settled, is
    believed without reading it; otherwise its content hash decides.
    """
    if isinstance(mark, str):  # a marker: compare kinds, never read a file to do it
        return _holds_the_same_kind(path, mark)
    recorded = _recorded(mark)
    if recorded is None:
        return False
    known, digest, at = recorded
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return False
        if stamp_of(info) == known and known[2] <= at - SETTLE_NS:
            return True
        return _same_content(str(path), info, digest)
    except OSError:
        return False
