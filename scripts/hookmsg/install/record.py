"""The install record: what one install created in one project, so uninstall can take
exactly that out again.

One record per project and harness, kept in the install root the project uses
(`<root>/installs/<key>.json`, the key a hash of the project's real path, the harness and
`--user`). It names the settings file and what install added to it (top-level keys,
event lists, whether the file itself was new), every whole file install laid down (with
the SHA-256 it wrote, so a file the user changed since is left), and every folder it
created. Uninstall is driven by it; `hookmsg roots` reads the records to tell which
projects still use a root.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookmsg.install.confine import locate, read_bounded, write_atomic
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.jsonout import dump_json

RECORDS = "installs"
MAX_RECORD_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Created:
    """A whole file install laid down (the xcsh module, skill files): its relative path
    in the project and the SHA-256 of what install wrote."""

    path: str
    sha256: str


@dataclass(frozen=True)
class Record:
    project: str  # the project's real path (or the home folder, with `--user`)
    harness: str
    user: bool = False
    settings: str | None = None  # the settings file install merged into, relative
    settings_created: bool = False  # the settings file did not exist before install
    keys: tuple[str, ...] = ()  # top-level keys install added to it
    events: tuple[str, ...] = ()  # event lists install added to its hooks
    files: tuple[Created, ...] = ()
    folders: tuple[str, ...] = field(default=())  # created folders, absolute, in order


def key(project: str, harness: str, *, user: bool = False) -> str:
    text = f"{os.path.realpath(project)}\0{harness}\0{'user' if user else 'project'}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:24]


def record_name(project: str, harness: str, *, user: bool = False) -> str:
    return f"{RECORDS}/{key(project, harness, user=user)}.json"


def _strings(value: Any) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    return tuple(value)


def _created(files: list[Any]) -> list[Created] | None:
    """The created files of a record's `files` list; None if an entry is malformed."""
    created = []
    for entry in files:
        if not isinstance(entry, dict):
            return None
        path, digest = entry.get("path"), entry.get("sha256")
        if not isinstance(path, str) or not isinstance(digest, str):
            return None
        created.append(Created(path, digest))
    return created


def parse(data: bytes) -> Record | None:
    try:
        loaded = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(loaded, dict):
        return None
    keys, events, folders = (_strings(loaded.get(name)) for name in ("keys", "events", "folders"))
    files = loaded.get("files")
    if keys is None or events is None or folders is None or not isinstance(files, list):
        return None
    created = _created(files)
    if created is None:
        return None
    project, harness, settings = (
        loaded.get("project"),
        loaded.get("harness"),
        loaded.get("settings"),
    )
    if not isinstance(project, str) or not isinstance(harness, str):
        return None
    return Record(
        project,
        harness,
        loaded.get("user") is True,
        settings if isinstance(settings, str) else None,
        loaded.get("settings_created") is True,
        keys,
        events,
        tuple(created),
        folders,
    )


def dump(record: Record) -> bytes:
    data = {
        "events": list(record.events),
        "files": [{"path": item.path, "sha256": item.sha256} for item in record.files],
        "folders": list(record.folders),
        "harness": record.harness,
        "keys": list(record.keys),
        "project": record.project,
        "settings": record.settings,
        "settings_created": record.settings_created,
        "user": record.user,
    }
    return dump_json(data, ascii=True).encode()


def load(root: Path, project: str, harness: str, *, user: bool = False) -> Record | None:
    """The record of `project` in `root`; None when there is none (or it is unsafe)."""
    try:
        target = locate(root, record_name(project, harness, user=user), links=False)
        data = read_bounded(target.path, target.display, MAX_RECORD_BYTES)
    except JsonRefusal:
        return None
    return parse(data) if data is not None else None


def records(root: Path) -> list[Record]:
    """Every readable record in `root`, in name order."""
    folder = root / RECORDS
    if folder.is_symlink() or not folder.is_dir():
        return []
    found = []
    for entry in sorted(folder.iterdir()):
        try:
            target = locate(root, f"{RECORDS}/{entry.name}", links=False)
            data = read_bounded(target.path, target.display, MAX_RECORD_BYTES)
        except JsonRefusal:
            continue
        record = parse(data) if data is not None else None
        if record is not None:
            found.append(record)
    return found


def save(root: Path, record: Record) -> None:
    """Write the record into `root` (whose `installs/` is made when missing)."""
    folder = root / RECORDS
    if not folder.is_dir():
        folder.mkdir(mode=0o755)
    name = record_name(record.project, record.harness, user=record.user)
    target = locate(root, name, links=False)
    write_atomic(target.path, dump(record))


def drop(root: Path, project: str, harness: str, *, user: bool = False) -> None:
    """Remove the record (and `installs/` once it is empty)."""
    name = record_name(project, harness, user=user)
    try:
        target = locate(root, name, links=False)
    except JsonRefusal:
        return
    try:
        target.path.unlink()
        (root / RECORDS).rmdir()
    except OSError:
        pass
