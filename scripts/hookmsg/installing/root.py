"""The install root on disk: lay it out atomically, recognise it, check it is complete.

The root holds the files of `install_root_files` and `manifest.json` (SHA-256 and size
of every other file). A folder is a hookmsg install root when its manifest.json says so;
`install` never replaces or deletes any other folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from hookmsg import __version__
from hookmsg.errors import WriteError
from hookmsg.installing.jsonfile import JsonRefusal
from hookmsg.jsonout import dump_json
from hookmsg.rules import install as install_rules

MANIFEST = "manifest.json"
CACHE = "__pycache__"  # Python writes bytecode next to the dispatcher package; not ours to list


def manifest_bytes(files: Mapping[str, bytes]) -> bytes:
    """The manifest of `files`, as `package` writes it."""
    manifest = {
        "files": [
            {"path": path, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            for path, data in sorted(files.items())
            if path != MANIFEST
        ],
        "version": __version__,
    }
    return dump_json(manifest, ascii=True).encode()


def with_manifest(files: Mapping[str, bytes]) -> dict[str, bytes]:
    complete = dict(files)
    if MANIFEST not in complete:
        complete[MANIFEST] = manifest_bytes(files)
    return complete


def read_manifest(root: Path) -> dict[str, tuple[str, int]] | None:
    """{path: (sha256, size)} from the root's manifest; None when it is not a hookmsg root."""
    try:
        data = json.loads((root / MANIFEST).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("files"), list):
        return None
    if not isinstance(data.get("version"), str):
        return None
    listed: dict[str, tuple[str, int]] = {}
    for entry in data["files"]:
        if not isinstance(entry, dict):
            return None
        path, digest, size = entry.get("path"), entry.get("sha256"), entry.get("size")
        if not (isinstance(path, str) and isinstance(digest, str) and isinstance(size, int)):
            return None
        if PurePosixPath(path).is_absolute() or ".." in PurePosixPath(path).parts:
            return None
        listed[path] = (digest, size)
    return listed


def problems(root: Path) -> list[str]:
    """Why `root` is not a complete, unchanged install root (empty: it is)."""
    if not root.is_dir():
        return [f"install root {root} does not exist"]
    listed = read_manifest(root)
    if listed is None:
        return [f"{root / MANIFEST} is missing or is not a hookmsg manifest"]
    found = []
    for path, (digest, size) in sorted(listed.items()):
        target = root / path
        try:
            data = target.read_bytes() if not target.is_symlink() else None
        except OSError:
            data = None
        if data is None:
            found.append(f"{target} is missing")
        elif len(data) != size or hashlib.sha256(data).hexdigest() != digest:
            found.append(f"{target} differs from the manifest")
    return found


def _unlisted(root: Path, listed: Mapping[str, Any]) -> list[str]:
    extra = []
    for folder, names, files in os.walk(root):
        names[:] = [name for name in names if name != CACHE]
        for name in files:
            relative = (Path(folder) / name).relative_to(root).as_posix()
            if relative != MANIFEST and relative not in listed:
                extra.append(relative)
    return sorted(extra)


def check_replaceable(root: Path) -> None:
    """Refuse (I006) unless `root` is absent, an empty folder, or a hookmsg install root
    holding nothing but the files its manifest lists (and bytecode caches)."""

    def refuse(message: str) -> JsonRefusal:
        return JsonRefusal(install_rules.not_an_install_root(str(root), 1, 1, message))

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
        if (root / MANIFEST).read_bytes() != files[MANIFEST]:
            return False
    except OSError:
        return False
    return not problems(root)


def lay_out(root: Path, files: Mapping[str, bytes]) -> None:
    """Write `files` as the install root: a temporary folder beside it, then a rename.

    An existing hookmsg root is renamed aside first and deleted only after the new one
    is in place; on failure it is put back.
    """
    check_replaceable(root)
    root.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{root.name}.new-", dir=root.parent))
    aside: Path | None = None
    try:
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
        if root.exists():
            aside = Path(tempfile.mkdtemp(prefix=f".{root.name}.old-", dir=root.parent))
            aside.rmdir()
            root.rename(aside)
        try:
            staging.rename(root)
        except OSError:
            if aside is not None:
                aside.rename(root)
                aside = None
            raise
    except OSError as error:
        raise WriteError(f"cannot lay out the install root {root}: {error}") from None
    finally:
        with contextlib.suppress(OSError):
            if staging.exists():
                shutil.rmtree(staging)
    if aside is not None:
        shutil.rmtree(aside, ignore_errors=True)
