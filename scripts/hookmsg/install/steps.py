"""The steps of `install` and `uninstall`, one concern each, in the order they run.

install:   1. lay out the install root (first: a registration never points at a root
              that is not there yet)
           2. write each project file of the plan (the settings file or the module),
              creating the folders it needs
           3. keep the record of what was created in the root; let the previous root go
uninstall: take out the entries (the command does that), then `undo_created`: the files
           and folders the record names, then the record itself.

A step that lays down more files (skills, commands) returns `Change`s like step 2 and
adds `Created` entries to the record; uninstall then removes them the same way.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from hookmsg.install import record as records
from hookmsg.install import root as install_root
from hookmsg.install.confine import (
    Target,
    locate,
    make_folders,
    read_bounded,
    remove_file,
    remove_folders,
    write_atomic,
)
from hookmsg.install.identity import roots_home
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.install.record import Record
from hookmsg.install.target import diff
from hookmsg.report import note


@dataclass(frozen=True)
class Change:
    """One file install writes into the project: where, what is there, what goes there."""

    target: Target
    old: bytes | None
    new: bytes

    @property
    def changed(self) -> bool:
        return self.old != self.new


def show(root: str, files: Mapping[str, bytes], changes: list[Change]) -> None:
    """A dry run: what would be written, as a diff; nothing changes."""
    current = install_root.is_current(Path(root), files)
    note(
        f"install root {root}: "
        + ("already current" if current else f"would write {len(files)} files")
    )
    for change in changes:
        if change.changed:
            sys.stdout.write(diff(change.target.display, change.old, change.new))
        else:
            note(f"{change.target.display}: already current")
    note("dry run: nothing was changed")


def lay_out_root(root: str, files: Mapping[str, bytes]) -> None:
    """Step 1: the install root, unless it holds these files already."""
    current = install_root.is_current(Path(root), files)
    if not current:
        install_root.lay_out(Path(root), files)
    note(f"install root {root}: " + ("already current" if current else f"{len(files)} files"))


def write_changes(changes: list[Change]) -> list[str]:
    """Step 2: each changed file, atomically; the folders created for them."""
    made: list[str] = []
    for change in changes:
        if change.changed:
            made += make_folders(change.target)
            write_atomic(change.target.path, change.new)
    return made


def keep_record(root: str, record: Record, previous: str | None) -> None:
    """Step 3: the record into the root; the root the project used before lets it go."""
    with install_root.locked(Path(root).parent):
        records.save(Path(root), record)
    if previous is not None and previous != root:
        release(previous, record)


def release(root: str, record: Record) -> None:
    """Drop the project's record from `root`; a keyed root no one uses any more goes."""
    folder = Path(root)
    if not folder.is_dir() or folder.is_symlink():
        return
    with install_root.locked(folder.parent):
        records.drop(folder, record.project, record.harness, user=record.user)
        keyed = folder.parent == roots_home() and install_root.load_manifest(folder) is not None
        if keyed and not records.records(folder):
            shutil.rmtree(folder, ignore_errors=True)
            note(f"install root {root}: removed (no project uses it any more)")


def created_file(relative: str, data: bytes) -> records.Created:
    return records.Created(relative, hashlib.sha256(data).hexdigest())


def undo_created(base: Path, record: Record) -> None:
    """Remove the whole files the record names (each only while it holds what install
    wrote) and then the folders install created, deepest first, when they are empty."""
    for item in record.files:
        try:
            target = locate(base, item.path)
            data = read_bounded(target.path, target.display)
        except JsonRefusal:
            note(f"{base / item.path}: left in place (no longer a regular file in the project)")
            continue
        if data is None:
            continue
        if hashlib.sha256(data).hexdigest() != item.sha256:
            note(f"{target.display}: left in place (changed since install wrote it)")
            continue
        remove_file(target.path)
    remove_folders(base, list(record.folders))


def with_created(record: Record, made: list[str]) -> Record:
    return replace(record, folders=tuple(dict.fromkeys([*record.folders, *made])))
