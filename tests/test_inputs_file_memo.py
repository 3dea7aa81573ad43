"""The memo that spares a no-op `doit` its TOML parsing must never answer for another version.

A remembered value is keyed by the file's whole stat, and a file changed within the
settle time is never remembered; these tests try the ways a stale answer could slip in.
"""

from __future__ import annotations

import datetime
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from hookmsg.inputs.doit_state import MEMO_TABLE, StampChecker, open_state, remember
from hookmsg.inputs.file_memo import FileMemo
from hookmsg.inputs.fingerprint import SETTLE_NS
from tests.support.doit import doit
from tests.support.harnesses import harness_override
from tests.support.repository import WITH_DODO, copy_repository


def _later() -> int:
    """A clock for which every file written so far has settled."""
    return time.time_ns() + 10 * SETTLE_NS


class Reader:
    """`compute` for the memo: the file's text, counting how often it was read."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.reads = 0

    def __call__(self) -> str:
        self.reads += 1
        return self.path.read_text(encoding="utf-8")


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value


def _derive(memo: FileMemo, reader: Reader) -> str:
    return memo.derive(reader.path, "text", reader, _text)


def _next_run(memo: FileMemo) -> FileMemo:
    """The memo a later run starts with: what this one stored."""
    return FileMemo(memo.fresh, clock=_later)


def test_a_settled_file_is_derived_once(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text("one\n", encoding="utf-8")
    reader = Reader(path)
    first = FileMemo(clock=_later)
    assert _derive(first, reader) == "one\n"
    assert _derive(_next_run(first), reader) == "one\n"
    assert reader.reads == 1


def test_a_file_changed_within_the_settle_time_is_not_remembered(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text("one\n", encoding="utf-8")
    memo = FileMemo()  # the real clock: the file was written just now
    assert _derive(memo, Reader(path)) == "one\n"
    assert memo.fresh == {}


def test_same_size_and_restored_mtime_is_still_a_new_version(tmp_path: Path) -> None:
    """The attack on size+mtime keys: rewrite in place, put the old mtime back."""
    path = tmp_path / "a.toml"
    path.write_text("one\n", encoding="utf-8")
    before = path.stat()
    first = FileMemo(clock=_later)
    _derive(first, Reader(path))
    time.sleep(0.01)  # past the file system's timestamp granularity
    path.write_text("two\n", encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    reader = Reader(path)
    assert _derive(_next_run(first), reader) == "two\n"
    assert reader.reads == 1


def test_a_file_replaced_by_rename_is_a_new_version(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_text("one\n", encoding="utf-8")
    first = FileMemo(clock=_later)
    _derive(first, Reader(path))
    other = tmp_path / "b.toml"
    other.write_text("two\n", encoding="utf-8")
    other.replace(path)
    assert _derive(_next_run(first), Reader(path)) == "two\n"


@pytest.mark.parametrize(
    "damage",
    [
        lambda stamp: "not a pair",
        lambda stamp: ["stamp", "value", "extra"],
        lambda stamp: [None, "value"],
        lambda stamp: [[0, 0, 0, 0, 0, 0], "value"],  # someone else's stamp
        lambda stamp: [stamp, 42],  # this very file's stamp, a value of the wrong shape
    ],
    ids=["not a pair", "three parts", "no stamp", "foreign stamp", "wrong shape"],
)
def test_a_damaged_or_foreign_entry_is_derived_again(
    tmp_path: Path, damage: Callable[[list[int]], object]
) -> None:
    path = tmp_path / "a.toml"
    path.write_text("one\n", encoding="utf-8")
    probe = FileMemo(clock=_later)
    _derive(probe, Reader(path))
    ((key, (stamp, _value)),) = probe.fresh.items()
    reader = Reader(path)
    assert _derive(FileMemo({key: damage(stamp)}, clock=_later), reader) == "one\n"
    assert reader.reads == 1


def test_a_value_json_cannot_hold_exactly_is_not_remembered(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text("x\n", encoding="utf-8")
    memo = FileMemo(clock=_later)
    moment = datetime.date(2026, 12, 1)
    memo.derive(path, "table", lambda: {"when": moment}, lambda value: value)
    memo.derive(path, "pair", lambda: ("a", "b"), lambda value: value)  # a tuple: a list back
    assert memo.fresh == {}


def test_the_memo_survives_in_doit_state_and_a_damaged_row_is_skipped(tmp_path: Path) -> None:
    state = tmp_path / ".doit.db"
    remember(state, {"text\n/x": [[1, 2, 3, 4, 5, 6], "one"]})
    with sqlite3.connect(state) as db:
        db.execute(f"INSERT INTO {MEMO_TABLE} (key, value) VALUES ('bad', '{{not json')")
    db.close()
    rows, note = open_state(state)
    assert rows == {"text\n/x": [[1, 2, 3, 4, 5, 6], "one"]}
    assert note is None


def test_a_state_file_locked_by_a_concurrent_run_is_kept(tmp_path: Path) -> None:
    """ "database is locked" is not damage: discarding it would throw away a running doit's work."""
    state = tmp_path / ".doit.db"
    remember(state, {"text\n/x": [[1, 2, 3, 4, 5, 6], "one"]})
    holder = sqlite3.connect(state, isolation_level=None)
    try:
        holder.execute("BEGIN EXCLUSIVE")
        rows, note = open_state(state)
    finally:
        holder.close()
    assert (rows, note) == ({}, None)
    assert open_state(state) == ({"text\n/x": [[1, 2, 3, 4, 5, 6], "one"]}, None)


def test_a_damaged_state_file_is_removed_with_a_note(tmp_path: Path) -> None:
    state = tmp_path / ".doit.db"
    state.write_bytes(b"this is not a database, and it is long enough to be read as one" * 20)
    rows, note = open_state(state)
    assert rows == {}
    assert note is not None and "was unreadable and was removed" in note
    assert not state.exists()


def test_the_checker_sees_an_edit_behind_a_restored_mtime(tmp_path: Path) -> None:
    path = tmp_path / "dep.md"
    path.write_text("one\n", encoding="utf-8")
    before = path.stat()
    checker = StampChecker()
    state = checker.get_state(str(path), None)
    assert not checker.check_modified(str(path), path.stat(), state)
    time.sleep(0.01)
    path.write_text("two\n", encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert checker.check_modified(str(path), path.stat(), state)


def test_the_checker_trusts_a_settled_stat_without_reading(tmp_path: Path) -> None:
    path = tmp_path / "dep.md"
    path.write_text("one\n", encoding="utf-8")
    checker = StampChecker()
    known, digest, _at = checker.get_state(str(path), None) or []
    settled = [known, "not the digest", known[2] + 2 * SETTLE_NS]
    # A settled record is believed on its stat alone: the wrong digest is never compared.
    assert not checker.check_modified(str(path), path.stat(), settled)
    assert checker.get_state(str(path), settled) is None
    # Recorded while the file was still fresh: the content decides.
    racy = [known, "not the digest", known[2]]
    assert checker.check_modified(str(path), path.stat(), racy)
    assert not checker.check_modified(str(path), path.stat(), [known, digest, known[2]])


@pytest.mark.parametrize(
    "state", [None, [1.5, 4, "d41d8cd98f00b204e9800998ecf8427e"], "x", [[1, 2], "d", 3]]
)
def test_the_checker_takes_any_other_state_as_modified(tmp_path: Path, state: object) -> None:
    """doit's own checker's states (mtime, size, md5) and damaged ones mean: run again."""
    path = tmp_path / "dep.md"
    path.write_text("one\n", encoding="utf-8")
    checker = StampChecker()
    assert checker.check_modified(str(path), path.stat(), state)
    assert checker.get_state(str(path), state) is not None


@pytest.mark.slow
def test_doit_follows_a_catalogue_edit_that_keeps_size_and_mtime(tmp_path: Path) -> None:
    """End to end: the memo is in use, and a same-stat-looking edit still reaches the graph."""
    root = copy_repository(tmp_path / "repo", WITH_DODO)
    harnesses = harness_override(root)
    time.sleep(SETTLE_NS / 1e9 + 0.2)  # let the copied files settle, so they are remembered
    assert doit(root).code == 0
    with sqlite3.connect(root / ".doit.db") as db:
        keys = [row[0] for row in db.execute(f"SELECT key FROM {MEMO_TABLE}")]
    db.close()
    assert any(key.startswith("harness entries\n") for key in keys), keys

    before = harnesses.stat()
    text = harnesses.read_text(encoding="utf-8")
    assert 'file = "hooks.json"' in text
    edited = text.replace('file = "hooks.json"', 'file = "hookz.json"', 1)
    assert len(edited) == len(text)
    harnesses.write_text(edited, encoding="utf-8")
    os.utime(harnesses, ns=(before.st_atime_ns, before.st_mtime_ns))

    done = doit(root)
    assert done.code == 0, done.output
    renamed = [p.relative_to(root / "generated").as_posix() for p in root.glob("generated/*/*")]
    assert any(name.endswith("/hookz.json") for name in renamed), renamed
    check = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from hookmsg.cli.main import run; sys.exit(run(['check']))",
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stdout + check.stderr
