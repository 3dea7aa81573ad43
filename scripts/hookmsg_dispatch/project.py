"""The opened project: the git root above a tool call's working folder, and safe reads in it.

"Inside the project" means under the git root found by walking up from the call's `cwd` for a
`.git` entry; it is never the install root. Guards read project files only through `read_text`:
bounded, regular files only, never through a link that leaves the project, and only as text.
Nothing here runs or imports anything from the project.
"""

from __future__ import annotations

from hookmsg_dispatch.system import os, stat

# How far up from the working folder a `.git` entry is looked for.
_MAX_LEVELS = 64


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


def git_root(cwd: str, install_root: str = "") -> str | None:
    """The real path of the git work tree holding `cwd`, or None outside any repository.

    A repository whose root is the install root does not count: the install root holds
    hookmsg's own files, never the user's project.
    """
    start = cwd or os.getcwd()
    if not os.path.isabs(start):
        return None
    folder = _real(start)
    for _ in range(_MAX_LEVELS):
        if os.path.lexists(os.path.join(folder, ".git")):
            if install_root and folder == _real(install_root):
                return None
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


def is_inside(path: str, folder: str) -> bool:
    """Is the real path `path` equal to or below the real path `folder`?"""
    if path == folder:
        return True
    prefix = folder if folder.endswith(os.sep) else folder + os.sep
    return path.startswith(prefix)


class Project:
    """A project root, and how a tool call's paths relate to it."""

    def __init__(self, root: str, cwd: str) -> None:
        self.root = root
        self.cwd = cwd or root

    @classmethod
    def of(cls, cwd: str, install_root: str = "") -> Project | None:
        root = git_root(cwd, install_root)
        return cls(root, cwd or os.getcwd()) if root is not None else None

    def absolute(self, path: str) -> str:
        """The real absolute path a tool call's path names (relative paths are from `cwd`)."""
        joined = path if os.path.isabs(path) else os.path.join(self.cwd, path)
        return _real(joined)

    def relative(self, path: str) -> str | None:
        """The project-relative POSIX path of a call's path, or None when it is outside."""
        if not path or "\x00" in path:
            return None
        full = self.absolute(path)
        if not is_inside(full, self.root) or full == self.root:
            return None
        return os.path.relpath(full, self.root).replace(os.sep, "/")

    def path_of(self, relative: str) -> str:
        return os.path.join(self.root, *relative.split("/"))

    def read_text(self, relative: str, max_bytes: int) -> str | None:
        """The text of a project file, or None: missing, not a regular file, a link out of the
        project, or larger than `max_bytes` (then the first `max_bytes` are not enough to judge)."""
        return read_bounded(self.path_of(relative), max_bytes, inside=self.root)

    def head(self, relative: str, max_bytes: int) -> str | None:
        """The first `max_bytes` of a project file as text (for header lines), or None."""
        return read_bounded(self.path_of(relative), max_bytes, inside=self.root, truncate=True)


def read_bounded(path: str, max_bytes: int, inside: str = "", truncate: bool = False) -> str | None:
    """A regular file's text (UTF-8, undecodable bytes replaced), read without blocking.

    None when the path is missing, not a regular file (a FIFO would block the hook), leaves
    `inside` through a link, or is over `max_bytes` (unless `truncate`: then its head).
    """
    real = _real(path)
    if inside and not is_inside(real, inside):
        return None
    try:
        info = os.stat(real)
        if not stat.S_ISREG(info.st_mode):
            return None
        if info.st_size > max_bytes and not truncate:
            return None
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
        descriptor = os.open(real, flags)
        try:
            data = read_upto(descriptor, max_bytes)
        finally:
            os.close(descriptor)
    except (OSError, ValueError):
        return None
    return data.decode("utf-8", errors="replace")


def read_upto(descriptor: int, limit: int) -> bytes:
    """At most `limit` bytes from the descriptor's position, in bounded chunks."""
    chunks = []
    left = limit
    while left > 0:
        chunk = os.read(descriptor, min(left, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def split_relative(relative: str) -> tuple[str, ...]:
    return tuple(part for part in relative.split("/") if part)
