"""One build at a time per project; checks wait for a running build.

An advisory `flock` on the project's root folder itself: no lock file to leave behind or
to mistake for a stale output, nothing created (a build that refuses leaves the tree as
it was), and a folder that stays put: a build replaces the generated folder as a whole
(see `hookmsg.outputs.staging`), so a lock on that folder would be a lock on the old one. Where
`fcntl` does not exist the lock is a no-op.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


# The locks this process holds: real path -> [descriptor, holders, exclusive]. A lock is
# re-entrant within the process (a `doit` run's stage holds it across several builds,
# each of which takes it again); `flock` on a second descriptor would wait for itself.
_HELD: dict[str, list[int]] = {}


@contextlib.contextmanager
def folder_lock(folder: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold a shared (check) or exclusive (build) lock on `folder` (the root) while inside."""
    if fcntl is None or not folder.is_dir():
        yield
        return
    key = os.path.realpath(folder)
    held = _HELD.get(key)
    if held is None:
        fd = os.open(folder, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        except BaseException:
            os.close(fd)
            raise
        held = _HELD[key] = [fd, 0, int(exclusive)]
    upgraded = exclusive and not held[2]
    if upgraded:
        fcntl.flock(held[0], fcntl.LOCK_EX)
        held[2] = 1
    held[1] += 1
    try:
        yield
    finally:
        held[1] -= 1
        if upgraded:
            fcntl.flock(held[0], fcntl.LOCK_SH)
            held[2] = 0
        if held[1] == 0:
            del _HELD[key]
            os.close(held[0])  # closing the descriptor releases the lock


def held_lock(root: Path) -> contextlib.AbstractContextManager[None]:
    """The exclusive lock a stage holds from its opening to its commit."""
    return folder_lock(root, exclusive=True)


@contextlib.contextmanager
def lock_if_free(folder: Path) -> Iterator[bool]:
    """The exclusive lock on `folder` if no other process holds it (True), without waiting."""
    if fcntl is None or os.path.realpath(folder) in _HELD:
        with folder_lock(folder, exclusive=True):
            yield True
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)
