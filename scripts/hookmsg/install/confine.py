"""Every file install, verify and uninstall touch stays inside its base folder.

A base is the project (or, for xcsh's `--user`, the home folder) or an install root. A
target is a path relative to its base. Each component that exists is checked as it is
walked, without following a link blindly: a folder, or (inside a project) a link whose
destination is a folder inside the same base; the last component a regular file or
absent. Links to anywhere else, FIFOs, devices and sockets are refused before anything
is read or written. Reads open with O_NOFOLLOW and O_NONBLOCK (a FIFO never blocks),
check the descriptor is a regular file, and read at most a bound.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import WriteError
from hookmsg.install.jsonfile import JsonRefusal

# A settings file, a module or a manifest larger than this is not one a person wrote.
MAX_READ_BYTES = 8 * 1024 * 1024
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | os.O_CLOEXEC


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def _within(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip("/") + "/")


def outside(display: str, message: str) -> JsonRefusal:
    return JsonRefusal(Diagnostic(display, 1, 1, "I012", message))


def irregular(display: str, message: str) -> JsonRefusal:
    return JsonRefusal(Diagnostic(display, 1, 1, "I013", message))


@dataclass(frozen=True)
class Target:
    """A checked target: where it really is, and the first of its folders not there yet."""

    path: Path  # the file, with every existing folder resolved inside the base
    missing: tuple[str, ...]  # the folders (relative to `path`'s resolved base) to create
    display: str


def locate(base: Path, relative: str, *, links: bool = True) -> Target:
    """`relative` under `base`, every component checked; JsonRefusal when one fails.

    With `links` a folder may be a link whose destination is a folder inside `base`
    (a project that keeps `.claude` in a subfolder); without, no link at all (a root).
    The file itself is never a link.
    """
    real = os.path.realpath(base)
    parts = PurePosixPath(relative).parts
    display = str(base / relative)
    current = real
    for number, part in enumerate(parts[:-1]):
        candidate = str(Path(current) / part)
        try:
            info = os.lstat(candidate)
        except FileNotFoundError:
            rest = parts[number:-1]
            return Target(Path(current).joinpath(*rest, parts[-1]), _chain(current, rest), display)
        except OSError as error:
            raise irregular(display, f"{candidate} cannot be read: {error.strerror}") from None
        if stat.S_ISLNK(info.st_mode):
            destination = os.path.realpath(candidate)
            if not links or not _within(destination, real):
                where = "the install root" if not links else "the project"
                raise outside(
                    display,
                    f"{candidate} is a link to {destination}, outside {where}; "
                    "nothing is read or written through it",
                )
            info = Path(destination).stat()
            candidate = destination
        if not stat.S_ISDIR(info.st_mode):
            raise irregular(display, f"{candidate} is {_kind(info.st_mode)}, not a folder")
        current = candidate
    path = Path(current) / parts[-1]
    _check_file(path, display)
    return Target(path, (), display)


def _chain(current: str, rest: tuple[str, ...]) -> tuple[str, ...]:
    """The absolute folders `current/rest[0]`, `current/rest[0]/rest[1]`, ... in order."""
    found = []
    folder = Path(current)
    for part in rest:
        folder = folder / part
        found.append(str(folder))
    return tuple(found)


def _check_file(path: Path, display: str) -> None:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as error:
        raise irregular(display, f"cannot be read: {error.strerror}") from None
    if stat.S_ISLNK(info.st_mode) or stat.S_ISDIR(info.st_mode):
        raise JsonRefusal(
            Diagnostic(display, 1, 1, "I005", "is not a regular file (a link or a folder)")
        )
    if not stat.S_ISREG(info.st_mode):
        raise irregular(display, f"is {_kind(info.st_mode)}; only a regular file is read")


def read_bounded(path: Path, display: str, limit: int = MAX_READ_BYTES) -> bytes | None:
    """The bytes of the regular file `path` (None: absent), never blocking, at most `limit`."""
    try:
        handle = os.open(path, _READ_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as error:
        if path.is_symlink():
            raise outside(display, "is a symbolic link; it is not followed") from None
        raise irregular(display, f"cannot be read: {error.strerror}") from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise irregular(display, f"is {_kind(info.st_mode)}; only a regular file is read")
        if info.st_size > limit:
            raise irregular(display, f"is {info.st_size} bytes, over the {limit}-byte bound")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(handle, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise irregular(display, f"grew past the {limit}-byte bound while it was read")
        return data
    finally:
        os.close(handle)


def make_folders(target: Target) -> list[str]:
    """Create the target's missing folders (mode 0755 less the umask); the ones made."""
    made = []
    for folder in target.missing:
        try:
            Path(folder).mkdir()
        except FileExistsError:
            info = os.lstat(folder)
            if not stat.S_ISDIR(info.st_mode):
                raise irregular(
                    target.display, f"{folder} appeared as {_kind(info.st_mode)}"
                ) from None
            continue
        except OSError as error:
            raise WriteError(f"cannot create {folder}: {error.strerror}") from None
        made.append(folder)
    return made


def _temporary_name(name: str) -> re.Pattern[str]:
    """The names `write_atomic` gives its temporary files beside `name` (mkstemp's)."""
    return re.compile(rf"^\.{re.escape(name)}\.[A-Za-z0-9_]{{8}}\.tmp$")


def clear_leftovers(path: Path) -> None:
    """Remove the temporary files a killed `write_atomic` of `path` left beside it."""
    pattern = _temporary_name(path.name)
    with contextlib.suppress(OSError):
        for entry in os.scandir(path.parent):
            if pattern.match(entry.name) and entry.is_file(follow_symlinks=False):
                Path(entry.path).unlink()


def write_atomic(path: Path, data: bytes) -> None:
    """Replace the regular file `path` with `data` through a temporary file beside it
    (the rename replaces the name, never a link's destination); keep its mode."""
    try:
        try:
            mode = os.lstat(path).st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
        clear_leftovers(path)
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        temporary = Path(name)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            temporary.chmod(mode)
            temporary.replace(path)
        finally:
            with contextlib.suppress(OSError):
                temporary.unlink()
    except OSError as error:
        raise WriteError(f"cannot write {path}: {error.strerror}; it is unchanged") from None


def remove_file(path: Path) -> None:
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise WriteError(f"{path} is no longer a regular file; it is left in place")
        path.unlink()
    except FileNotFoundError:
        return
    except OSError as error:
        raise WriteError(f"cannot remove {path}: {error.strerror}") from None


def remove_folders(base: Path, folders: list[str]) -> list[str]:
    """Remove each of `folders` (deepest first) that is empty and still a plain folder
    inside `base`; the ones removed. A folder holding anything is left."""
    real = os.path.realpath(base)
    removed = []
    for folder in sorted(folders, key=lambda name: name.count("/"), reverse=True):
        if not _within(folder, real) or folder == real:
            continue
        with contextlib.suppress(OSError):
            if stat.S_ISDIR(os.lstat(folder).st_mode):
                Path(folder).rmdir()
                removed.append(folder)
    return removed
