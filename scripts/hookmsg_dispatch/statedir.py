"""Where the per-session state lives, and the file name of a session in it.

Split from `state.py` (which re-exports them): the once-per-context record (`seen.py`)
needs only these on every hook call (the folder's name, a session's file name, and the
folder created and checked to be the user's own), not the locking and replacing of
state files.
The folder is, in order: `HOOKMSG_HOOK_STATE_DIR`; `${CLAUDE_PLUGIN_DATA}/state` inside
the Claude Code plugin; `$XDG_STATE_HOME/hookmsg`; `~/.local/state/hookmsg`
(`%LOCALAPPDATA%\\hookmsg\\state` on Windows). A relative value of any of these variables
(or of `HOME`) is ignored. Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

from hookmsg_dispatch.system import os, stat

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping

# Where the platform can open files relative to a folder descriptor without following links.
_AT = os.open in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")
_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")


def _absolute(env: Mapping[str, str], name: str) -> str:
    value = env.get(name, "")
    return value if os.path.isabs(value) else ""


def _home(env: Mapping[str, str]) -> str:
    """The user's home: `HOME` when absolute, else the account's, else ""."""
    home = env.get("HOME", "") if "HOME" in env else os.path.expanduser("~")
    if os.path.isabs(home):
        return home
    try:
        import pwd

        home = pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        return ""
    return home if os.path.isabs(home) else ""


def state_dir(environ: Mapping[str, str] | None = None) -> str:
    """The state folder for this user and install, following the documented order.

    Relative values are skipped; "" when no absolute folder is known (`ensure_dir` refuses it).
    """
    env = os.environ if environ is None else environ
    explicit = _absolute(env, "HOOKMSG_HOOK_STATE_DIR")
    if explicit:
        return explicit
    plugin = _absolute(env, "CLAUDE_PLUGIN_DATA")
    if plugin:
        return os.path.join(plugin, "state")
    xdg = _absolute(env, "XDG_STATE_HOME")
    if xdg:
        return os.path.join(xdg, "hookmsg")
    if os.name == "nt":
        local = _absolute(env, "LOCALAPPDATA")
        if local:
            return os.path.join(local, "hookmsg", "state")
    home = _home(env)
    return os.path.join(home, ".local", "state", "hookmsg") if home else ""


def session_file_name(session_id: str) -> str:
    """A safe file stem for a session id: its safe characters, plus a digest when any changed."""
    safe = "".join(c if c in _SAFE else "_" for c in session_id[:80]).lstrip(".")
    if safe == session_id and safe:
        return safe
    import hashlib

    digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{safe or 'session'}-{digest}"


class Refused(OSError):
    """The state folder is not the user's own (or a file in it is not a plain file)."""


def ensure_dir(folder: str) -> str:
    """Create the state folder (0700) if needed; raise OSError when it cannot be used
    (`Refused` when it is not the user's own)."""
    descriptor = _open_folder(folder)
    os.close(descriptor)
    return folder


def _open_folder(folder: str) -> int:
    """A descriptor of the state folder (created if missing), checked to be the user's own.

    Where files cannot be opened relative to a folder (Windows), -1: paths are used.
    """
    if not folder or not os.path.isabs(folder):
        raise Refused(f"state folder '{folder}' is not an absolute path")
    if not os.path.isdir(folder):
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        try:  # noqa: SIM105 (no contextlib on every hook call's path)
            os.mkdir(folder, 0o700)
        except FileExistsError:
            pass
    if not _AT:
        _check_folder(os.stat(folder), folder)
        return -1
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    try:  # judged by the descriptor: the folder cannot be swapped after the check
        _check_folder(os.fstat(descriptor), folder)
    except BaseException:
        os.close(descriptor)
        raise
    return descriptor


def _check_folder(info: os.stat_result, folder: str) -> None:
    if not stat.S_ISDIR(info.st_mode):
        raise NotADirectoryError(f"state folder {folder} is not a folder")
    if hasattr(os, "geteuid"):
        if info.st_uid != os.geteuid():
            raise Refused(f"state folder {folder} is not owned by this user")
        if info.st_mode & 0o022:
            raise Refused(f"state folder {folder} is writable by others")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"state folder {folder} is not writable")
