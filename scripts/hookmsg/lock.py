"""One build at a time per project; checks wait for a running build.

An advisory `flock` on the project's root folder itself: no lock file to leave behind or
to mistake for a stale output, nothing created (a build that refuses leaves the tree as
it was), and a folder that stays put: a build replaces the generated folder as a whole
(see `hookmsg.staging`), so a lock on that folder would be a lock on the old one. Where
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


@contextlib.contextmanager
def folder_lock(folder: Path, *, exclusive: bool) -> Iterator[None]:
    """Hold a shared (check) or exclusive (build) lock on `folder` (the root) while inside."""
    if fcntl is None or not folder.is_dir():
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
