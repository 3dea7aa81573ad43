"""The install root on disk: lay it out atomically, recognise it, check it is complete.

The root holds the files of `install_root_files` and `manifest.json` (SHA-256 and size
of every other file, the content's source and its content version). A folder is a
hookmsg install root when its manifest.json says so; `install` never replaces or
deletes any other folder. `installs/` inside it holds one record per project that uses
it (see `record.py`); those records are carried over when the root is replaced.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from hookmsg import __version__
from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import WriteError
from hookmsg.install.confine import locate, read_bounded
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.jsonout import dump_json

MANIFEST = "manifest.json"
RECORDS = "installs"  # the records of the projects that use the root; not in the manifest
CACHE = "__pycache__"  # Python writes bytecode next to the dispatcher package; not ours to list
MAX_MANIFEST_BYTES = 1024 * 1024
# Staging and set-aside copies beside the root: names a later install recognises and removes.
STAGING = ".{name}.hookmsg-new-"
ASIDE = ".{name}.hookmsg-old-"


def content_version(files: Mapping[str, bytes]) -> str:
    """The content's identity: a SHA-256 over every path and its bytes (manifest aside)."""
    digest = hashlib.sha256()
    for path, data in sorted(files.items()):
        if path != MANIFEST:
            digest.update(f"{path}\0{hashlib.sha256(data).hexdigest()}\n".encode())
    return digest.hexdigest()


def manifest_bytes(files: Mapping[str, bytes], source: str | None = None) -> bytes:
    """The manifest of `files`: as `package` writes it, plus source and content version."""
    manifest: dict[str, object] = {
        "files": [
            {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for path, data in sorted(files.items())
            if path != MANIFEST
        ],
        "version": __version__,
    }
    if source is not None:
        manifest["source"] = source
        manifest["content"] = content_version(files)
    return dump_json(manifest, ascii=True).encode()


def with_manifest(files: Mapping[str, bytes], source: str | None = None) -> dict[str, bytes]:
    complete = dict(files)
    if MANIFEST not in complete:
        complete[MANIFEST] = manifest_bytes(files, source)
    return complete


@dataclass(frozen=True)
class Manifest:
    files: dict[str, tuple[str, int]]  # path: (sha256, size)
    version: str
    source: str | None  # None: a root from before roots were keyed (or a package)
    content: str | None


def _listed(entries: list[object]) -> dict[str, tuple[str, int]] | None:
    listed: dict[str, tuple[str, int]] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            return None
        path, digest, size = entry.get("path"), entry.get("sha256"), entry.get("size")
        if not (isinstance(path, str) and isinstance(digest, str) and isinstance(size, int)):
            return None
        pure = PurePosixPath(path)
        if pure.is_absolute() or ".." in pure.parts or path in ("", MANIFEST):
            return None
        if pure.parts[0] == RECORDS:
            return None
        listed[path] = (digest, size)
    return listed


def parse_manifest(data: bytes) -> Manifest | None:
    try:
        loaded = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(loaded, dict) or not isinstance(loaded.get("files"), list):
        return None
    version, source, content = loaded.get("version"), loaded.get("source"), loaded.get("content")
    if not isinstance(version, str):
        return None
    listed = _listed(loaded["files"])
    if listed is None:
        return None
    return Manifest(
        listed,
        version,
        source if isinstance(source, str) else None,
        content if isinstance(content, str) else None,
    )


def load_manifest(root: Path) -> Manifest | None:
    """The root's manifest; None when it is not a hookmsg root (or the file is unsafe)."""
    try:
        target = locate(root, MANIFEST, links=False)
        data = read_bounded(target.path, target.display, MAX_MANIFEST_BYTES)
    except JsonRefusal:
        return None
    return parse_manifest(data) if data is not None else None


def read_manifest(root: Path) -> dict[str, tuple[str, int]] | None:
    """{path: (sha256, size)} from the root's manifest; None when it is not a hookmsg root."""
    manifest = load_manifest(root)
    return manifest.files if manifest is not None else None


def _matches(root: Path, path: str, digest: str, size: int) -> str | None:
    """Why the root's `path` is not the listed file (None: it is)."""
    try:
        target = locate(root, path, links=False)
        data = read_bounded(target.path, target.display, size)
    except JsonRefusal as error:
        return f"{root / path} is unsafe to read: {error.diagnostic.message}"
    if data is None:
        return f"{root / path} is missing"
    if hashlib.sha256(data).hexdigest() != digest:
        return f"{root / path} differs from the manifest"
    return None


def problems(root: Path) -> list[str]:
    """Why `root` is not a complete, unchanged install root (empty: it is)."""
    if root.is_symlink() or not root.is_dir():
        return [f"install root {root} does not exist (or is not a folder)"]
    listed = read_manifest(root)
    if listed is None:
        return [f"{root / MANIFEST} is missing or is not a hookmsg manifest"]
    found = []
    for path, (digest, size) in sorted(listed.items()):
        problem = _matches(root, path, digest, size)
        if problem is not None:
            found.append(problem)
    return found


def _bytecode_of(name: str, folder: str, listed: Mapping[str, object]) -> bool:
    """True for `<module>.<tag>.pyc` in a `__pycache__` beside a listed module."""
    if not name.endswith(".pyc") or name.count(".") < 2:
        return False
    module = name.split(".", 1)[0] + ".py"
    return f"{folder}/{module}".lstrip("/") in listed


def _ours(relative: str, path: Path, listed: Mapping[str, object]) -> bool:
    """Whether `path` is a regular file install wrote: listed, or the bytecode of a listed
    module in the `__pycache__` beside it."""
    if not stat.S_ISREG(path.lstat().st_mode):
        return False
    pure = PurePosixPath(relative)
    if pure.parent.name == CACHE:
        return _bytecode_of(pure.name, str(pure.parent.parent), listed)
    return relative == MANIFEST or relative in listed


def _unlisted(root: Path, listed: Mapping[str, object]) -> list[str]:
    """Every entry of `root` that install did not write: files the manifest does not list,
    links, FIFOs, anything in a bytecode cache that is not bytecode of a listed module."""
    extra = []
    for folder, names, files in os.walk(root):
        here = Path(folder)
        prefix = here.relative_to(root).as_posix()
        prefix = "" if prefix == "." else prefix + "/"
        if not prefix:
            names[:] = [name for name in names if name != RECORDS]
        links = [name for name in names if (here / name).is_symlink()]
        names[:] = [name for name in names if name not in links]
        extra += [prefix + name for name in links]
        extra += [prefix + name for name in files if not _ours(prefix + name, here / name, listed)]
    return sorted(extra)


def check_replaceable(root: Path) -> None:
    """Refuse (I006) unless `root` is absent, an empty folder, or a hookmsg install root
    holding nothing but the files its manifest lists (their bytecode, and its records)."""

    def refuse(message: str) -> JsonRefusal:
        return JsonRefusal(Diagnostic(str(root), 1, 1, "I006", message))

    if root.is_symlink():
        raise refuse("the install root is a symbolic link; give the folder it points to")
    if not root.exists():
        return
    if not root.is_dir():
        raise refuse("exists and is not a folder")
    if not any(root.iterdir()):
        return
    listed = read_manifest(root)
    if listed is None:
        raise refuse("exists and is not a hookmsg install root (no hookmsg manifest.json)")
    extra = _unlisted(root, listed)
    if extra:
        raise refuse(
            f"holds {len(extra)} file(s) its manifest does not list, e.g. {extra[0]}; "
            "move them away first"
        )


def is_current(root: Path, files: Mapping[str, bytes]) -> bool:
    """True when `root` already holds exactly `files` (with their manifest)."""
    try:
        target = locate(root, MANIFEST, links=False)
        data = read_bounded(target.path, target.display, MAX_MANIFEST_BYTES)
    except JsonRefusal:
        return False
    return data == files[MANIFEST] and not problems(root)


@contextlib.contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold an exclusive lock on `folder` itself (no lock file is left behind)."""
    handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # closing releases the lock


def _leftovers(root: Path) -> tuple[list[Path], list[Path]]:
    """Staging and set-aside copies an interrupted install left beside `root`."""
    staged, aside = [], []
    for entry in root.parent.iterdir():
        if entry.name.startswith(STAGING.format(name=root.name)):
            staged.append(entry)
        elif entry.name.startswith(ASIDE.format(name=root.name)):
            aside.append(entry)
    return sorted(staged), sorted(aside)


def recover(root: Path) -> None:
    """Finish what an interrupted install left (call with the parent locked): a root set
    aside and never replaced goes back; every other staging or set-aside copy goes."""
    staged, aside = _leftovers(root)
    if not root.exists() and aside:
        aside[-1].rename(root)
        aside = aside[:-1]
    for leftover in [*staged, *aside]:
        if leftover.is_dir() and not leftover.is_symlink():
            shutil.rmtree(leftover, ignore_errors=True)


def _stage(root: Path, files: Mapping[str, bytes]) -> Path:
    staging = Path(tempfile.mkdtemp(prefix=STAGING.format(name=root.name), dir=root.parent))
    for path, data in sorted(files.items()):
        target = staging / path
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        target.chmod(0o644)
    for folder, _, _ in os.walk(staging):
        Path(folder).chmod(0o755)
    records = root / RECORDS
    if records.is_dir() and not records.is_symlink():
        shutil.copytree(records, staging / RECORDS, symlinks=True)
    return staging


def lay_out(root: Path, files: Mapping[str, bytes]) -> None:
    """Write `files` as the install root: a staging folder beside it, then a rename.

    An existing hookmsg root is renamed aside first and deleted only after the new one
    is in place; on failure it is put back. Installs of one root take turns (a lock on
    its parent folder), and each first removes what an interrupted one left.
    """
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        with locked(root.parent):
            recover(root)
            check_replaceable(root)
            _swap(root, files)
    except OSError as error:
        raise WriteError(f"cannot lay out the install root {root}: {error}") from None


def _swap(root: Path, files: Mapping[str, bytes]) -> None:
    staging = _stage(root, files)
    aside: Path | None = None
    try:
        if root.exists():
            aside = Path(tempfile.mkdtemp(prefix=ASIDE.format(name=root.name), dir=root.parent))
            aside.rmdir()
            root.rename(aside)
        try:
            staging.rename(root)
        except OSError:
            if aside is not None:
                aside.rename(root)
                aside = None
            raise
    finally:
        with contextlib.suppress(OSError):
            if staging.exists():
                shutil.rmtree(staging)
    if aside is not None:
        shutil.rmtree(aside, ignore_errors=True)
