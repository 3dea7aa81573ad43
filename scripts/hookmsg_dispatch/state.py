"""Per-session state: one small JSON file per session, updated under a lock, replaced atomically.

The folder is, in order: `HOOKMSG_HOOK_STATE_DIR`; `${CLAUDE_PLUGIN_DATA}/state` inside the
Claude Code plugin; `$XDG_STATE_HOME/hookmsg` when that is absolute; `~/.local/state/hookmsg`
(`%LOCALAPPDATA%\\hookmsg\\state` on Windows). It is created with mode 0700. Hook processes
of one session may run at once: every update is a read-modify-write under an exclusive lock
on a per-session lock file (fcntl.flock; msvcrt on Windows), and the new state replaces the
old file atomically, so a reader never sees half a file. An unwritable folder raises OSError:
the caller fails open.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from typing import Any, Callable, TypeVar

    T = TypeVar("T")

# A state file larger than this is not ours (or is damaged): it is started afresh.
MAX_STATE_BYTES = 1 << 16
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def state_dir(environ: dict[str, str] | None = None) -> str:
    """The state folder for this user and install, following the documented order."""
    env = os.environ if environ is None else environ
    explicit = env.get("HOOKMSG_HOOK_STATE_DIR", "")
    if explicit:
        return explicit
    plugin = env.get("CLAUDE_PLUGIN_DATA", "")
    if plugin:
        return os.path.join(plugin, "state")
    xdg = env.get("XDG_STATE_HOME", "")
    if xdg and os.path.isabs(xdg):
        return os.path.join(xdg, "hookmsg")
    if os.name == "nt":
        local = env.get("LOCALAPPDATA", "")
        if local:
            return os.path.join(local, "hookmsg", "state")
    return os.path.join(os.path.expanduser("~"), ".local", "state", "hookmsg")


def session_file_name(session_id: str) -> str:
    """A safe file stem for a session id: its safe characters, plus a digest when any changed."""
    safe = "".join(c if c in _SAFE else "_" for c in session_id[:80]).lstrip(".")
    if safe == session_id and safe:
        return safe
    import hashlib

    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{safe or 'session'}-{digest}"


def ensure_dir(folder: str) -> str:
    """Create the state folder (0700) if needed; raise OSError when it cannot be used."""
    if not os.path.isdir(folder):
        parent = os.path.dirname(os.path.abspath(folder))
        os.makedirs(parent, exist_ok=True)
        try:  # noqa: SIM105 (no contextlib, json or re on the folder path: every call)
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
    if not os.path.isdir(folder):
        raise NotADirectoryError(f"state folder {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"state folder {folder} is not writable")
    return folder


def _open_locked(path: str) -> int:
    """A descriptor of the lock file, holding its exclusive lock (closing it releases)."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
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


def _read(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_STATE_BYTES + 1)
    except FileNotFoundError:
        return {}
    if len(data) > MAX_STATE_BYTES:
        return {}
    import json  # here, not at the top: the folder API is on every hook call's path

    try:
        value = json.loads(data.decode("utf-8"))
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _write(folder: str, path: str, value: dict[str, Any]) -> None:
    import json

    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    temporary = os.path.join(folder, f".tmp-{os.getpid()}-{os.urandom(6).hex()}.json")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    descriptor = os.open(temporary, flags, 0o600)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    except BaseException:
        try:  # noqa: SIM105
            os.unlink(temporary)
        except OSError:
            pass
        raise


def update(
    session_id: str,
    change: Callable[[dict[str, Any]], T],
    folder: str | None = None,
) -> T:
    """Run `change` on the session's state (a dict it may modify) under the session's lock,
    save the result atomically, and return what `change` returned."""
    where = ensure_dir(folder if folder is not None else state_dir())
    stem = session_file_name(session_id)
    path = os.path.join(where, stem + ".json")
    lock = _open_locked(os.path.join(where, stem + ".lock"))
    try:
        value = _read(path)
        result = change(value)
        _write(where, path, value)
    finally:
        os.close(lock)
    return result


def read(session_id: str, folder: str | None = None) -> dict[str, Any]:
    """The session's state as last saved ({} when there is none)."""
    where = folder if folder is not None else state_dir()
    return _read(os.path.join(where, session_file_name(session_id) + ".json"))
