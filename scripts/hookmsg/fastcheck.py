"""The check's fast path: a cache of the last clean run, keyed by content hashes.

A full check proves the tree clean; this module remembers the proof as one SHA-256 over
every input and output it depended on (the configuration, the messages, the catalogue
and the skill and command files it reads, every file in the generated folder, every path
a Bindings section names, the pipeline's own code and the versions of the libraries that
parse and render). The next check with the same fingerprint answers "clean" without
parsing anything or importing the heavy libraries. Only clean results are remembered, so
a cache can only ever skip work, never hide a finding.

The cache lives outside the project (`$HOOKMSG_CACHE_DIR`, else `$XDG_CACHE_HOME/hookmsg`,
else `~/.cache/hookmsg`), so the check still writes nothing into the tree.
`HOOKMSG_NO_CACHE=1` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from hookmsg import __version__
from hookmsg.project import CATALOG_FILES, PYPROJECT, raw_settings
from hookmsg.sourcefiles import sourced_files

PACKAGE = Path(__file__).resolve().parent
LIBRARIES = ("markdown_it", "jinja2", "pydantic", "pydantic_core", "yaml")


def enabled() -> bool:
    return os.environ.get("HOOKMSG_NO_CACHE", "") in ("", "0")


def cache_path(root: Path) -> Path:
    explicit = os.environ.get("HOOKMSG_CACHE_DIR")
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = (
        Path(explicit) if explicit else (Path(xdg) if xdg else Path.home() / ".cache") / "hookmsg"
    )
    key = hashlib.sha256(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return base / f"check-{key}.json"


def _feed_file(digest: hashlib._Hash, path: Path, label: str) -> None:
    if not stat.S_ISREG(path.stat().st_mode):
        raise OSError(f"{path} is not a regular file")  # a FIFO would block the read
    digest.update(f"\0{label}\0{os.path.realpath(path)}\0".encode("utf-8", "surrogateescape"))
    digest.update(path.read_bytes())


def _files_under(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted((p for p in folder.rglob("*") if not p.is_dir()), key=lambda p: p.as_posix())


def _library_stamps() -> list[str]:
    stamps = []
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        stamps.append(f"{name}={origin}:{Path(origin).stat().st_mtime_ns if origin else 0}")
    return stamps


def fingerprint(root: Path, referenced: Iterable[str]) -> str:
    """One hash over everything a full check reads. Raises OSError if anything is unreadable."""
    settings = raw_settings(root)
    digest = hashlib.sha256()
    digest.update(f"hookmsg {__version__} python {sys.version}".encode())
    digest.update("\n".join(_library_stamps()).encode("utf-8", "surrogateescape"))
    for path in _files_under(PACKAGE):
        if path.suffix in (".py", ".j2"):
            _feed_file(digest, path, "code:" + path.relative_to(PACKAGE).as_posix())
    _feed_file(digest, root / PYPROJECT, "config")
    messages = root / settings["messages"]
    digest.update(f"\0messages {os.path.realpath(messages)}".encode("utf-8", "surrogateescape"))
    for path in sorted(messages.glob("*.md"), key=lambda p: p.name) if messages.is_dir() else []:
        _feed_file(digest, path, "message:" + path.name)
    for name in CATALOG_FILES:
        _feed_file(digest, root / settings["catalog"] / name, "catalog:" + name)
    # The skill and command files the catalogue's [[sources]] name, and their listing
    # (a file added to or removed from a source folder changes the index).
    sourced = sourced_files(root, root / settings["catalog"] / "skills.toml")
    digest.update(("\0sourced\0" + "\0".join(sourced)).encode("utf-8", "surrogateescape"))
    for text in sourced:
        _feed_file(digest, root / text, "sourced:" + text)
    generated = root / settings["generated"]
    for path in _files_under(generated):
        _feed_file(digest, path, "generated:" + path.relative_to(generated).as_posix())
    for text in sorted(set(referenced)):
        # Existence decides B009; a named message's own Bindings decide B010.
        target = root / text
        if target.is_file():
            _feed_file(digest, target, "ref:" + text)
        else:
            state = "dir" if target.is_dir() else "missing"
            digest.update(f"\0ref {text} {state} {os.path.realpath(target)}".encode())
    return digest.hexdigest()


def known_clean(root: Path) -> bool:
    """Was this exact tree (every input and output) proven clean by an earlier full check?"""
    if not enabled():
        return False
    try:
        record = json.loads(cache_path(root).read_text(encoding="utf-8"))
        return bool(record["fingerprint"] == fingerprint(root, record["referenced"]))
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return False  # no cache, an unreadable file, or a bad setting: do the full check


def remember_clean(root: Path, referenced: Iterable[str]) -> None:
    """Record that a full check found this tree clean. Best effort: never fails a run."""
    if not enabled():
        return
    paths = sorted(set(referenced))
    with contextlib.suppress(OSError, ValueError):
        record = {"fingerprint": fingerprint(root, paths), "referenced": paths}
        target = cache_path(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=".check-", dir=target.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(record, handle)
            Path(name).replace(target)
        finally:
            Path(name).unlink(missing_ok=True)
