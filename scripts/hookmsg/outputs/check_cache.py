"""The check's fast path: a cache of the last clean run, keyed by content hashes.

A full check proves the tree clean; this module remembers the proof as one SHA-256 over
every input and output it depended on (the configuration, the messages, the catalogue
and the skill and command files it reads, every file in the generated folder, every path
a Bindings section names, the pipeline's own code and the versions of the libraries that
parse and render). The source and code files are the ones `inputs.reads` lists, the
same list the task graph makes its file dependencies and code stamps from, and `package`
compares these entries before and after it writes. The next check with the same
fingerprint answers "clean" without parsing anything or importing the heavy libraries.
Only clean results are remembered, so a cache can only ever skip work, never hide a
finding.

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
import posixpath
import stat
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

from hookmsg import __version__
from hookmsg.errors import HookmsgError
from hookmsg.inputs.reads import code_files, run_inputs
from hookmsg.project.defaults import PYPROJECT
from hookmsg.project.pyproject import checked_settings

PACKAGE = Path(__file__).resolve().parent.parent
LIBRARIES = ("markdown_it", "jinja2", "pydantic", "pydantic_core", "yaml")


def enabled() -> bool:
    return os.environ.get("HOOKMSG_NO_CACHE", "") in ("", "0")


def _absolute_env(name: str) -> Path | None:
    """An environment variable naming a folder; a relative value is ignored (XDG rules)."""
    value = os.environ.get(name, "")
    return Path(value) if value and Path(value).is_absolute() else None


def cache_path(root: Path) -> Path:
    """The cache file for `root`. Raises OSError when no absolute cache folder is known."""
    explicit = _absolute_env("HOOKMSG_CACHE_DIR")
    if explicit is not None:
        base = explicit
    else:
        xdg = _absolute_env("XDG_CACHE_HOME")
        if xdg is None:
            try:  # no HOME and a user id missing from the password database: no cache
                home = Path.home()
            except (RuntimeError, KeyError) as error:
                raise OSError(f"no home folder for the check cache: {error}") from None
            if not home.is_absolute():
                raise OSError("no absolute home folder for the check cache")
            xdg = home / ".cache"
        base = xdg / "hookmsg"
    key = hashlib.sha256(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return base / f"check-{key}.json"


# One entry per input: label -> (what the check depends on, ctime_ns). The first part
# goes into the fingerprint; the change time only proves that nothing was written
# between two readings (a change time cannot be set back by anyone but the kernel).
Entries = dict[str, tuple[str, int]]


def _file_entry(path: Path, limit: int | None = None) -> tuple[str, int]:
    """A file's content hash; or what stands there instead (missing, folder, FIFO...).

    Hashed by streaming, so memory stays flat whatever the size. A file over `limit`
    bytes (a Bindings-named path past `max-file-bytes`, whose content no rule reads) is
    known by its stat instead: reading gigabytes would make every check slow.
    """
    try:
        info = path.stat()  # follows links: the bytes behind them are what counts
    except FileNotFoundError:
        return "missing", _parent_ctime(path)
    except OSError as error:
        return f"unreadable {error.errno}", 0
    real = os.path.realpath(path)
    if stat.S_ISDIR(info.st_mode):
        return f"folder {real}", info.st_ctime_ns
    if not stat.S_ISREG(info.st_mode):  # a FIFO would block a read
        return f"special {stat.S_IFMT(info.st_mode):o} {real}", info.st_ctime_ns
    if limit is not None and info.st_size > limit:
        known = f"{info.st_size} {info.st_mtime_ns} {info.st_ino} {info.st_dev}"
        return f"large {real} {known}", info.st_ctime_ns
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    return f"file {real} {digest}", info.st_ctime_ns


def _parent_ctime(path: Path) -> int:
    """A missing path's folder: creating the path changes the folder's change time."""
    for folder in path.parents:
        with contextlib.suppress(OSError):
            return folder.stat().st_ctime_ns
    return 0


def _listing(folder: Path) -> tuple[str, int]:
    """Every entry below `folder`, links not followed, each with its kind."""
    if not folder.is_dir():
        return "absent", 0
    names = []
    newest = folder.stat().st_ctime_ns
    for here, dirs, files in os.walk(folder, followlinks=False):
        base = Path(here)
        for name in sorted([*dirs, *files]):
            path = base / name
            info = path.lstat()
            newest = max(newest, info.st_ctime_ns)
            kind = "link" if stat.S_ISLNK(info.st_mode) else "dir" if name in dirs else "file"
            names.append(f"{kind}:{path.relative_to(folder).as_posix()}")
    return "\n".join(sorted(names)), newest


def _library_stamps() -> list[str]:
    """Every file of each parsing and templating library: path, size and mtime.

    Found without importing them (the fast path must stay light).
    """
    stamps = []
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        for folder in folders:
            for here, _dirs, files in sorted(os.walk(folder)):
                if "__pycache__" in here:
                    continue
                for file in sorted(files):
                    info = os.stat(os.path.join(here, file))  # noqa: PTH116, PTH118
                    stamps.append(f"{here}/{file} {info.st_size} {info.st_mtime_ns}")
        if not folders:
            stamps.append(f"{name}=missing")
    return stamps


def entries(root: Path, referenced: Iterable[str]) -> Entries:
    """Everything a full check depends on, read once. Raises OSError or ConfigError."""
    settings = checked_settings(root)  # raises before any configured path is read
    reads = run_inputs(root, settings)  # the same list the task graph watches
    found: Entries = {}
    found["config"] = _file_entry(root / PYPROJECT)
    messages = root / settings["messages"]
    found["messages-folder"] = _listing(messages) if messages.is_dir() else ("absent", 0)
    for text in reads.messages:
        found["message:" + posixpath.basename(text)] = _file_entry(root / text)
    for name, text in reads.catalogue.items():
        found["catalog:" + name] = _file_entry(root / text)
    # The skill and command files the catalogue's [[sources]] name, and their listing
    # (a file added to or removed from a source folder changes the index).
    found["sourced-listing"] = ("\n".join(reads.sourced), 0)
    for text in reads.sourced:
        found["sourced:" + text] = _file_entry(root / text)
    generated = root / settings["generated"]
    found["generated-folder"] = _listing(generated)
    for line in found["generated-folder"][0].split("\n"):
        if line.startswith("file:"):
            found["generated:" + line[5:]] = _file_entry(generated / line[5:])
    for text in sorted(set(referenced)):
        # Existence decides B009; a named message's own Bindings decide B010.
        found["ref:" + text] = _file_entry(root / text, settings["max-file-bytes"])
    return found


def fingerprint_of(found: Entries) -> str:
    digest = hashlib.sha256()
    digest.update(f"hookmsg {__version__} python {sys.version}".encode())
    digest.update("\n".join(_library_stamps()).encode("utf-8", "surrogateescape"))
    for name in code_files(PACKAGE):  # the built-in harness facts (data/) are code too
        digest.update(f"\0code:{name}\0".encode("utf-8", "surrogateescape"))
        digest.update((PACKAGE / name).read_bytes())
    for label in sorted(found):
        digest.update(f"\0{label}\0{found[label][0]}".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def fingerprint(root: Path, referenced: Iterable[str]) -> str:
    """One hash over everything a full check reads. Raises OSError if anything is unreadable."""
    return fingerprint_of(entries(root, referenced))


def before_check(root: Path) -> Entries | None:
    """What the inputs hold as a check begins (None when the cache is off or unusable)."""
    if not enabled():
        return None
    try:
        record = json.loads(cache_path(root).read_text(encoding="utf-8"))
        referenced = [str(p) for p in record.get("referenced", [])]
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        referenced = []
    # Kernel change times trail the clock by up to a tick: start a little early.
    started = time.time_ns() - 20_000_000
    try:
        found = entries(root, referenced)
    except (OSError, ValueError, HookmsgError):
        return None
    found["started"] = ("", started)
    return found


def known_clean(root: Path) -> bool:
    """Was this exact tree (every input and output) proven clean by an earlier full check?"""
    if not enabled():
        return False
    try:
        record = json.loads(cache_path(root).read_text(encoding="utf-8"))
        return bool(record["fingerprint"] == fingerprint(root, record["referenced"]))
    except (OSError, ValueError, KeyError, TypeError, RecursionError, HookmsgError):
        return False  # no cache, an unreadable file, or a bad setting: do the full check


def remember_clean(
    root: Path,
    referenced: Iterable[str],
    before: Entries | None,
    *,
    produced: Iterable[str],
    written: dict[str, bytes] | None = None,
) -> None:
    """Record that a full check found this tree clean. Best effort: never fails a run.

    Only what the check itself read is recorded: every input is read again and must be
    exactly as it was before the check began (same bytes, same change time), so no edit
    made while the check ran can be recorded as clean. A path that the check read but
    `before` did not cover (a newly named Bindings path) must predate the check. Files
    this build wrote (`written`: label -> bytes) must still hold exactly those bytes,
    and the generated folder must hold exactly the `produced` outputs.
    """
    if not enabled() or before is None:
        return
    paths = sorted(set(referenced))
    with contextlib.suppress(OSError, ValueError, HookmsgError):
        after = entries(root, paths)
        verified = _inputs_unchanged(after, before, written or {})
        if verified is None or not _references_unchanged(after, before, verified):
            return
        if after["generated-folder"][0] != _expected_listing(produced):
            return  # a file appeared or went while the check ran
        _write_record(cache_path(root), {"fingerprint": fingerprint_of(after), "referenced": paths})


def _inputs_unchanged(
    after: Entries, before: Entries, written: dict[str, bytes]
) -> set[str] | None:
    """What the non-reference entries prove (by value), or None if one changed during the check."""
    verified: set[str] = set()
    for label, (value, ctime) in after.items():
        if label.startswith("ref:"):
            continue
        if label in written:
            expected = hashlib.sha256(written[label]).hexdigest()
            if not value.endswith(" " + expected):
                return None  # changed after this build wrote it
        elif label == "generated-folder":
            continue  # a build changes it; compared with the outputs by the caller
        elif label.startswith("generated:") and (before.get(label) or ("",))[0] == value:
            pass  # the same bytes: a staged build links unchanged outputs (a new ctime)
        elif before.get(label) != (value, ctime):
            return None  # written while the check ran
        if value.startswith("file "):
            # Only a file's path and hash proves a reference that holds the same; an
            # absent optional catalogue file's "missing" proves nothing about another.
            verified.add(value)
    return verified


def _references_unchanged(after: Entries, before: Entries, verified: set[str]) -> bool:
    """Every referenced path not proven above is as it was, or predates the check."""
    for label, (value, ctime) in after.items():
        if not label.startswith("ref:") or value in verified:
            continue  # a named message, catalogue file or output: proven above
        if label in before:
            if before[label] != (value, ctime):
                return False
        elif ctime >= _started(before):
            return False  # a newly named path, written after the check began
    return True


def _write_record(target: Path, record: dict[str, object]) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=".check-", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle)
        Path(name).replace(target)
    finally:
        Path(name).unlink(missing_ok=True)


def _expected_listing(produced: Iterable[str]) -> str:
    names = set()
    for name in produced:
        names.add(f"file:{name}")
        parts = name.split("/")
        names.update(f"dir:{'/'.join(parts[:n])}" for n in range(1, len(parts)))
    return "\n".join(sorted(names))


def _started(before: Entries) -> int:
    return before.get("started", ("", 0))[1]
