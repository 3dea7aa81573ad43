"""doit's state file, as `dodo.py` opens it before doit does.

A damaged state file must cost a rebuild, not a crash, so one that sqlite rejects is
removed. The same file keeps, in a table of its own beside doit's, what `dodo.py`
derived from the configuration and catalogue files (`file_memo`), so a no-op `doit`
need not parse them again, and the seals of `inputs.fingerprint`; losing it costs only
that parse and one hash per file. Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from hookmsg.inputs.fingerprint import (
    content_mark,
    holds_the_same,
    recorded,
    same_content,
    settled,
    stamp_of,
)

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


class StampChecker:
    """doit's test of a file dependency: the whole stat, then the content.

    doit's own checker trusts an unchanged modification time, so an edit that puts the
    old mtime back (`touch -r`, `cp -p`, `os.utime`) goes unnoticed. This one asks
    `inputs.fingerprint`: the whole stat, change time and inode included, believed only
    for a file that had settled when it was recorded, else the content hash (or a seal).
    doit calls it by these four names; it needs nothing from doit.
    """

    CheckerError = OSError

    def exists(self, file_path: str) -> bool:
        return os.path.exists(file_path)  # noqa: PTH110 (doit passes strings)

    def info(self, file_path: str) -> os.stat_result:
        return os.stat(file_path)  # noqa: PTH116

    def check_modified(self, file_path: str, file_stat: os.stat_result, state: Any) -> bool:
        # The common case first, on the stat doit already took: it runs for every file
        # dependency of every task on every run.
        found = recorded(state)
        if found is not None and stat.S_ISREG(file_stat.st_mode):
            known, digest, at = found
            if stamp_of(file_stat) == known and settled(known, at):
                return False
            try:
                return not same_content(file_path, file_stat, digest)
            except OSError:
                return True
        return not holds_the_same(Path(file_path), state)

    def get_state(self, dep: str, current_state: Any) -> str | list[Any] | None:
        found = recorded(current_state)
        if found is not None:
            known, _digest_then, at = found
            if stamp_of(os.stat(dep)) == known and settled(known, at):  # noqa: PTH116
                return None  # unchanged, and proven so when it was recorded
        return content_mark(Path(dep))
