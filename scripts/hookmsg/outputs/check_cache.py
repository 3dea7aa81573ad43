"""The check's fast path: a record of the last clean run, by stamp and content hash.

A full check proves the tree clean; this module records what that proof depended on:
every input and output (the configuration, the messages, the catalogue and the skill
and command files it reads, every file in the generated folder, every path a Bindings
section names), the pipeline's own code and the versions of the libraries that parse
and render. The source and code files are the ones `inputs.reads` lists, the same list
the task graph makes its file dependencies and code stamps from, and `package` compares
these entries before and after it writes.

Each file is recorded by its content hash and its stamp (`inputs.fingerprint`, the
same rule `doit`'s file checker follows): a later check believes a file whose stamp is
the recorded one, recorded once the file had settled, and hashes the others. What the
check derives from the configuration and the skill catalogue is remembered beside it
(`inputs.file_memo`). So a check of an unchanged tree answers "clean" from a few
hundred stats, without parsing anything or importing the heavy libraries. Only clean
results are recorded, so the record can only ever skip work, never hide a finding.

The record lives outside the project (`$HOOKMSG_CACHE_DIR`, else `$XDG_CACHE_HOME/hookmsg`,
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
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hookmsg import __version__
from hookmsg.errors import HookmsgError
from hookmsg.inputs.file_memo import FileMemo
from hookmsg.inputs.fingerprint import digest, settled, stamp_of
from hookmsg.inputs.reads import code_files, run_inputs
from hookmsg.project.defaults import PYPROJECT
from hookmsg.project.pyproject import checked_settings

PACKAGE = Path(__file__).resolve().parent.parent
LIBRARIES = ("markdown_it", "jinja2", "pydantic", "pydantic_core", "yaml")
# The record's layout; a record of another layout is ignored (a full check replaces it).
FORMAT = 2


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


# One entry per input: label -> (what the check depends on, ctime_ns, stamp). The first
# part goes into the fingerprint; the change time only proves that nothing was written
# between two readings (a change time cannot be set back by anyone but the kernel); the
# stamp, of a regular file whose content was hashed, lets a later check believe the file
# without hashing it again (`inputs.fingerprint`).
Entry = tuple[str, int, list[int] | None]
Entries = dict[str, Entry]
CODE = "code:"


def _file_entry(path: Path, limit: int | None = None, *, where: bool = True) -> Entry:
    """A file's content hash; or what stands there instead (missing, folder, FIFO...).

    Hashed by streaming, so memory stays flat whatever the size. A file over `limit`
    bytes (a Bindings-named path past `max-file-bytes`, whose content no rule reads) is
    known by its stat instead: reading gigabytes would make every check slow. With
    `where`, the entry names the file that links lead to; the pipeline's own code is
    known by its bytes alone.
    """
    try:
        info = path.stat()  # follows links: the bytes behind them are what counts
    except FileNotFoundError:
        return "missing", _parent_ctime(path), None
    except OSError as error:
        return f"unreadable {error.errno}", 0, None
    real = os.path.realpath(path) if where else "-"
    if stat.S_ISDIR(info.st_mode):
        return f"folder {real}", info.st_ctime_ns, None
    if not stat.S_ISREG(info.st_mode):  # a FIFO would block a read
        return f"special {stat.S_IFMT(info.st_mode):o} {real}", info.st_ctime_ns, None
    if limit is not None and info.st_size > limit:
        known = f"{info.st_size} {info.st_mtime_ns} {info.st_ino} {info.st_dev}"
        return f"large {real} {known}", info.st_ctime_ns, None
    return f"file {real} {digest(str(path))}", info.st_ctime_ns, stamp_of(info)


def _parent_ctime(path: Path) -> int:
    """A missing path's folder: creating the path changes the folder's change time."""
    for folder in path.parents:
        with contextlib.suppress(OSError):
            return folder.stat().st_ctime_ns
    return 0


def _listing(folder: Path) -> Entry:
    """Every entry below `folder`, links not followed, each with its kind."""
    if not folder.is_dir():
        return "absent", 0, None
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
    return "\n".join(sorted(names)), newest, None


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


def _tool_stamp() -> str:
    """hookmsg's version, Python's, and every file of the libraries, in one hash."""
    text = "\n".join([f"hookmsg {__version__} python {sys.version}", *_library_stamps()])
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


# What a reading of the inputs covers: the listings (computed whole each time) and the
# files, by label: where each is, its size limit, and whether links are resolved.
Files = dict[str, tuple[Path, int | None, bool]]


def _plan(root: Path, referenced: Iterable[str], memo: FileMemo | None) -> tuple[Entries, Files]:
    """Every listing's entry, and every file a full check depends on.

    Raises OSError or ConfigError.
    """
    settings = checked_settings(root, memo)  # raises before any configured path is read
    reads = run_inputs(root, settings, memo)  # the same list the task graph watches
    files: Files = {CODE + name: (PACKAGE / name, None, False) for name in code_files(PACKAGE)}
    files["config"] = (root / PYPROJECT, None, True)
    listings: Entries = {}
    messages = root / settings["messages"]
    listings["messages-folder"] = _listing(messages) if messages.is_dir() else ("absent", 0, None)
    for text in reads.messages:
        files["message:" + posixpath.basename(text)] = (root / text, None, True)
    for name, text in reads.catalogue.items():
        files["catalog:" + name] = (root / text, None, True)
    # The skill and command files the catalogue's [[sources]] name, and their listing
    # (a file added to or removed from a source folder changes the index).
    listings["sourced-listing"] = ("\n".join(reads.sourced), 0, None)
    for text in reads.sourced:
        files["sourced:" + text] = (root / text, None, True)
    generated = root / settings["generated"]
    listings["generated-folder"] = _listing(generated)
    for line in listings["generated-folder"][0].split("\n"):
        if line.startswith("file:"):
            files["generated:" + line[5:]] = (generated / line[5:], None, True)
    for text in sorted(set(referenced)):
        # Existence decides B009; a named message's own Bindings decide B010.
        files["ref:" + text] = (root / text, settings["max-file-bytes"], True)
    return listings, files


def entries(root: Path, referenced: Iterable[str], memo: FileMemo | None = None) -> Entries:
    """Everything a full check depends on, every file hashed. Raises OSError or ConfigError."""
    found, files = _plan(root, referenced, memo)
    for label, (path, limit, where) in files.items():
        found[label] = _file_entry(path, limit, where=where)
    return found


def fingerprint_of(found: Entries) -> str:
    hashed = hashlib.sha256(_tool_stamp().encode())
    for label in sorted(found):
        hashed.update(f"\0{label}\0{found[label][0]}".encode("utf-8", "surrogateescape"))
    return hashed.hexdigest()


def fingerprint(root: Path, referenced: Iterable[str]) -> str:
    """One hash over everything a full check reads. Raises OSError if anything is unreadable."""
    return fingerprint_of(entries(root, referenced))


def _read_record(root: Path) -> dict[str, Any] | None:
    """The record of the last clean check, if there is one of this layout."""
    try:
        record = json.loads(cache_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return record if isinstance(record, dict) and record.get("format") == FORMAT else None


def _memo_of(record: dict[str, Any] | None) -> FileMemo:
    stored = record.get("memo") if record is not None else None
    return FileMemo(stored if isinstance(stored, dict) else None)


class Reading:
    """The inputs as a check begins: their entries, and what was derived to list them."""

    __slots__ = ("found", "memo", "started")

    def __init__(self, found: Entries, memo: FileMemo, started: int) -> None:
        self.found = found
        self.memo = memo
        self.started = started


def before_check(root: Path) -> Reading | None:
    """What the inputs hold as a check begins (None when the cache is off or unusable)."""
    if not enabled():
        return None
    record = _read_record(root)
    referenced = record.get("referenced", []) if record is not None else []
    memo = _memo_of(record)
    # Kernel change times trail the clock by up to a tick: start a little early.
    started = time.time_ns() - 20_000_000
    try:
        found = entries(root, [str(p) for p in referenced], memo)
    except (OSError, ValueError, TypeError, HookmsgError):
        return None
    return Reading(found, memo, started)


def known_clean(root: Path) -> bool:
    """Was this exact tree (every input and output) proven clean by an earlier full check?

    Files whose recorded stamp still stands are believed; the others are hashed. A check
    that hashed a file which has settled since records its stamp, so the next one need
    not (best effort).
    """
    if not enabled():
        return False
    record = _read_record(root)
    if record is None:
        return False
    memo = _memo_of(record)
    try:
        proven = _unchanged_since(root, record, memo)
    except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError, HookmsgError):
        return False  # an unreadable file, a damaged record, or a bad setting: check fully
    if proven is None:
        return False
    if proven or memo.fresh:
        record["entries"].update(proven)
        record["memo"] = memo.to_store()
        with contextlib.suppress(OSError, ValueError):
            _write_record(cache_path(root), record)
    return True


def _unchanged_since(
    root: Path, record: dict[str, Any], memo: FileMemo
) -> dict[str, list[Any]] | None:
    """None if anything differs from `record`; else the file records to refresh."""
    if record["tool"] != _tool_stamp():
        return None
    listings, files = _plan(root, [str(p) for p in record["referenced"]], memo)
    saved: dict[str, Any] = record["entries"]
    if set(saved) != {*listings, *files}:
        return None
    if any(saved[label][0] != value for label, (value, _c, _s) in listings.items()):
        return None
    return _files_unchanged(files, saved)


def _files_unchanged(files: Files, saved: dict[str, Any]) -> dict[str, list[Any]] | None:
    """None if a file differs from its record; else the records to refresh (newly settled)."""
    refreshed: dict[str, list[Any]] = {}
    for label, (path, limit, where) in files.items():
        value, known, taken = saved[label]
        if known is not None and settled(known, taken):
            try:
                info = path.stat()
            except OSError:
                return None
            if stamp_of(info) == known and (not where or value.startswith(_located(path))):
                continue  # the stamp stands, and links still lead to the same file
        now = time.time_ns()
        current = _file_entry(path, limit, where=where)
        if current[0] != value:
            return None
        if current[2] is not None and settled(current[2], now):
            refreshed[label] = [value, current[2], now]
    return refreshed


def _located(path: Path) -> str:
    return f"file {os.path.realpath(path)} "


def remember_clean(
    root: Path,
    referenced: Iterable[str],
    before: Reading | None,
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
    and the generated folder must hold exactly the `produced` outputs. Stamps are
    recorded as taken when the check began, so only files settled by then are believed
    by their stamp later.
    """
    if not enabled() or before is None:
        return
    paths = sorted(set(referenced))
    with contextlib.suppress(OSError, ValueError, HookmsgError):
        after = entries(root, paths, before.memo)
        verified = _inputs_unchanged(after, before.found, written or {})
        if verified is None or not _references_unchanged(after, before, verified):
            return
        if after["generated-folder"][0] != _expected_listing(produced):
            return  # a file appeared or went while the check ran
        record = {
            "format": FORMAT,
            "tool": _tool_stamp(),
            "referenced": paths,
            "entries": {k: [v, known, before.started] for k, (v, _c, known) in after.items()},
            "memo": before.memo.to_store(),
        }
        _write_record(cache_path(root), record)


def _inputs_unchanged(
    after: Entries, before: Entries, written: dict[str, bytes]
) -> set[str] | None:
    """What the non-reference entries prove (by value), or None if one changed during the check."""
    verified: set[str] = set()
    for label, (value, ctime, _stamp) in after.items():
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
        elif before.get(label, ("", 0, None))[:2] != (value, ctime):
            return None  # written while the check ran
        if value.startswith("file ") and not label.startswith(CODE):
            # Only a file's path and hash proves a reference that holds the same; an
            # absent optional catalogue file's "missing" proves nothing about another.
            verified.add(value)
    return verified


def _references_unchanged(after: Entries, before: Reading, verified: set[str]) -> bool:
    """Every referenced path not proven above is as it was, or predates the check."""
    for label, (value, ctime, _stamp) in after.items():
        if not label.startswith("ref:") or value in verified:
            continue  # a named message, catalogue file or output: proven above
        if label in before.found:
            if before.found[label][:2] != (value, ctime):
                return False
        elif ctime >= before.started:
            return False  # a newly named path, written after the check began
    return True


def _write_record(target: Path, record: dict[str, Any]) -> None:
    import tempfile  # here: a check that finds its record standing writes nothing

    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=".check-", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle, sort_keys=True)
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
