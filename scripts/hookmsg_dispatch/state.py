"""Per-session state: one small JSON file per session, updated under a lock, replaced atomically.

The folder is, in order: `HOOKMSG_HOOK_STATE_DIR`; `${CLAUDE_PLUGIN_DATA}/state` inside the
Claude Code plugin; `$XDG_STATE_HOME/hookmsg` when that is absolute; `~/.local/state/hookmsg`
(`%LOCALAPPDATA%\\hookmsg\\state` on Windows). It is created with mode 0700. Hook processes
of one session may run at once: every update is a read-modify-write under an exclusive lock
on a per-session lock file (fcntl.flock; msvcrt on Windows), and the new state replaces the
old file atomically, so a reader never sees half a file. An unwritable folder raises OSError:
the caller fails open.

Trusted only as far as it is the user's own: a relative value of any of the variables above
(or of `HOME`) is ignored, since it would put state in whatever folder the harness opened;
a folder that is not a folder, not owned by the user, or writable by its group or by others
raises `Refused` (the caller then goes on without state); and every file in it is opened
relative to the opened folder with O_NOFOLLOW and checked to be a regular file, so a link
planted inside never makes the hook read, create or replace a file anywhere else.
"""

from __future__ import annotations

from hookmsg_dispatch.project import read_upto
from hookmsg_dispatch.statedir import (
    Refused,
    _open_folder,
    ensure_dir,
    session_file_name,
    state_dir,
)
from hookmsg_dispatch.system import os, stat

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    T = TypeVar("T")

__all__ = ["Refused", "ensure_dir", "read", "session_file_name", "state_dir", "update"]

# A state file larger than this is not ours (or is damaged): it is started afresh.
MAX_STATE_BYTES = 1 << 16
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


def _open_in(folder: int, where: str, name: str, flags: int, mode: int = 0o600) -> int:
    """`name` in the state folder, never through a link; only a regular file is kept open."""
    if folder >= 0:
        descriptor = os.open(name, flags | _NOFOLLOW, mode, dir_fd=folder)
    else:
        descriptor = os.open(os.path.join(where, name), flags | _NOFOLLOW, mode)
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise Refused(f"{name} in the state folder is not a regular file")
    return descriptor


def _open_locked(folder: int, where: str, name: str) -> int:
    """A descriptor of the lock file, holding its exclusive lock (closing it releases)."""
    try:
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
        descriptor = _open_in(folder, where, name, flags)
    except OSError as error:
        if isinstance(error, Refused) or not os.path.lexists(os.path.join(where, name)):
            raise
        raise Refused(f"{name} in the state folder is a link or not a file") from None
    try:
        _lock(descriptor)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _lock(descriptor: int) -> None:
    try:
        import fcntl
    except ImportError:  # Windows
        try:
            import msvcrt
        except ImportError:
            return
        msvcrt.locking(descriptor, msvcrt.LK_LOCK, 1)  # type: ignore[attr-defined]
        return
    fcntl.flock(descriptor, fcntl.LOCK_EX)


def _read(folder: int, where: str, name: str) -> dict[str, Any]:
    """The saved state; {} when there is none, or it is damaged, too large, a link or not a
    file (a link is never followed, and the next save replaces it)."""
    try:
        descriptor = _open_in(folder, where, name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return {}
    try:
        data = read_upto(descriptor, MAX_STATE_BYTES + 1)
    except OSError:
        return {}
    finally:
        os.close(descriptor)
    if len(data) > MAX_STATE_BYTES:
        return {}
    import json  # here, not at the top: the folder API is on every hook call's path

    try:
        value = json.loads(data.decode("utf-8"))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _write(folder: int, where: str, name: str, value: dict[str, Any]) -> None:
    import json  # here, not at the top: the folder API is on every hook call's path

    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    temporary = f".tmp-{os.getpid()}-{os.urandom(6).hex()}.json"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
    descriptor = _open_in(folder, where, temporary, flags)
    at = {"src_dir_fd": folder, "dst_dir_fd": folder} if folder >= 0 else {}
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        if folder >= 0:  # rename replaces a link planted at `name`, never its target
            os.replace(temporary, name, **at)
        else:
            os.replace(os.path.join(where, temporary), os.path.join(where, name))
    except BaseException:
        try:
            if folder >= 0:
                os.unlink(temporary, dir_fd=folder)
            else:
                os.unlink(os.path.join(where, temporary))
        except OSError:  # no contextlib on every hook call's path
            pass
        raise


def update(
    session_id: str,
    change: Callable[[dict[str, Any]], T],
    folder: str | None = None,
) -> T:
    """Run `change` on the session's state (a dict it may modify) under the session's lock,
    save the result atomically, and return what `change` returned."""
    where = folder if folder is not None else state_dir()
    descriptor = _open_folder(where)
    try:
        stem = session_file_name(session_id)
        lock = _open_locked(descriptor, where, stem + ".lock")
        try:
            value = _read(descriptor, where, stem + ".json")
            result = change(value)
            _write(descriptor, where, stem + ".json", value)
        finally:
            os.close(lock)
    finally:
        if descriptor >= 0:
            os.close(descriptor)
    return result


def read(session_id: str, folder: str | None = None) -> dict[str, Any]:
    """The session's state as last saved ({} when there is none or the folder is refused)."""
    where = folder if folder is not None else state_dir()
    try:
        descriptor = _open_folder(where) if os.path.isdir(where) else None
    except OSError:
        return {}
    if descriptor is None:
        return {}
    try:
        return _read(descriptor, where, session_file_name(session_id) + ".json")
    finally:
        if descriptor >= 0:
            os.close(descriptor)
