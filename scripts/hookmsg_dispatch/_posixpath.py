"""The part of `os` and `os.path` the dispatcher uses, on POSIX, built from `posix` alone.

Each function follows CPython's `posixpath` (and `os.makedirs`) for `str` paths; it is
used only through `hookmsg_dispatch.system`, and only where `os` is not loaded yet.
`tests/test_dispatch_system.py` compares every one with the real module.
"""

from __future__ import annotations

import _stat
import posix as _posix
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SEP = "/"


def isabs(path: str) -> bool:
    return path.startswith(SEP)


def join(first: str, *rest: str) -> str:
    path = first
    for part in rest:
        if part.startswith(SEP):
            path = part
        elif not path or path.endswith(SEP):
            path += part
        else:
            path += SEP + part
    return path


def split(path: str) -> tuple[str, str]:
    at = path.rfind(SEP) + 1
    head, tail = path[:at], path[at:]
    if head and head != SEP * len(head):
        head = head.rstrip(SEP)
    return head, tail


def dirname(path: str) -> str:
    return split(path)[0]


def basename(path: str) -> str:
    return path[path.rfind(SEP) + 1 :]


def normpath(path: str) -> str:
    if not path:
        return "."
    initial = 2 if path.startswith("//") and not path.startswith("///") else int(isabs(path))
    parts: list[str] = []
    for part in path.split(SEP):
        if part in ("", "."):
            continue
        if part != ".." or (not initial and not parts) or (parts and parts[-1] == ".."):
            parts.append(part)
        elif parts:
            parts.pop()
    return (SEP * initial + SEP.join(parts)) or "."


def abspath(path: str) -> str:
    return normpath(path if isabs(path) else join(_posix.getcwd(), path))


def normcase(path: str) -> str:
    return path


def _joinrealpath(path: str, rest: str, seen: dict[str, str | None]) -> tuple[str, bool]:
    if isabs(rest):
        rest, path = rest[1:], SEP
    while rest:
        name, _, rest = rest.partition(SEP)
        if not name or name == ".":
            continue
        if name == "..":
            if path:
                path, name = split(path)
                if name == "..":
                    path = join(path, "..", "..")
            else:
                path = ".."
            continue
        newpath = join(path, name)
        try:
            is_link = _stat.S_ISLNK(_posix.lstat(newpath).st_mode)
        except OSError:
            is_link = False
        if not is_link:
            path = newpath
            continue
        if newpath in seen:
            known = seen[newpath]
            if known is not None:
                path = known
                continue
            return join(newpath, rest), False  # a loop of links
        seen[newpath] = None
        path, ok = _joinrealpath(path, _posix.readlink(newpath), seen)
        if not ok:
            return join(path, rest), False
        seen[newpath] = path
    return path, True


def realpath(filename: str) -> str:
    return abspath(_joinrealpath("", filename, {})[0])


def relpath(path: str, start: str = ".") -> str:
    if not path:
        raise ValueError("no path specified")
    start_list = [part for part in abspath(start).split(SEP) if part]
    path_list = [part for part in abspath(path).split(SEP) if part]
    common = 0
    for one, two in zip(start_list, path_list):
        if one != two:
            break
        common += 1
    rel_list = [".."] * (len(start_list) - common) + path_list[common:]
    return join(*rel_list) if rel_list else "."


def _mode(path: str, follow: bool) -> int | None:
    try:
        return int((_posix.stat(path) if follow else _posix.lstat(path)).st_mode)
    except (OSError, ValueError):
        return None


def exists(path: str) -> bool:
    return _mode(path, True) is not None


def lexists(path: str) -> bool:
    return _mode(path, False) is not None


def isdir(path: str) -> bool:
    mode = _mode(path, True)
    return mode is not None and _stat.S_ISDIR(mode)


def isfile(path: str) -> bool:
    mode = _mode(path, True)
    return mode is not None and _stat.S_ISREG(mode)


def islink(path: str) -> bool:
    mode = _mode(path, False)
    return mode is not None and _stat.S_ISLNK(mode)


def expanduser(path: str) -> str:
    import posixpath  # rare (no HOME): the real one

    return posixpath.expanduser(path)


def makedirs(name: str, mode: int = 0o777, exist_ok: bool = False) -> None:
    head, tail = split(name)
    if not tail:
        head, tail = split(head)
    if head and tail and not exists(head):
        try:  # noqa: SIM105 (no contextlib on the hook's path)
            makedirs(head, exist_ok=exist_ok)
        except FileExistsError:
            pass
        if tail == ".":
            return
    try:
        _posix.mkdir(name, mode)
    except OSError:
        if not exist_ok or not isdir(name):
            raise


def _decoded(environ: dict[bytes, bytes]) -> dict[str, str]:
    encoding = sys.getfilesystemencoding()
    return {
        key.decode(encoding, "surrogateescape"): value.decode(encoding, "surrogateescape")
        for key, value in environ.items()
    }


# `os.supports_dir_fd` as `os` builds it from what the platform has.
_DIR_FD = (
    ("HAVE_FACCESSAT", "access"),
    ("HAVE_FSTATAT", "stat"),
    ("HAVE_MKDIRAT", "mkdir"),
    ("HAVE_OPENAT", "open"),
    ("HAVE_READLINKAT", "readlink"),
    ("HAVE_RENAMEAT", "rename"),
    ("HAVE_RENAMEAT", "replace"),
    ("HAVE_UNLINKAT", "unlink"),
    ("HAVE_UNLINKAT", "rmdir"),
)


def lite_os() -> Any:
    """A module standing in for `os`: `posix`'s functions, `path`, `environ` (decoded
    once, as `os.environ` is), `sep`, `name`, `makedirs`, `fdopen`, `supports_dir_fd`."""
    module: Any = type(sys)("os")
    module.__dict__.update(
        {key: value for key, value in vars(_posix).items() if not key.startswith("__")}
    )
    module.path, module.makedirs = sys.modules[__name__], makedirs
    module.sep, module.name, module.curdir, module.pardir = SEP, "posix", ".", ".."
    module.SEEK_SET, module.SEEK_CUR, module.SEEK_END = 0, 1, 2
    module.environ = _decoded(_posix.environ)
    have = set(getattr(_posix, "_have_functions", ()))
    module.supports_dir_fd = {
        getattr(_posix, name) for flag, name in _DIR_FD if flag in have and hasattr(_posix, name)
    }

    def fdopen(fd: int, mode: str = "r", buffering: int = -1, **options: Any) -> Any:
        return open(fd, mode, buffering, **options)

    module.fdopen = fdopen
    return module
