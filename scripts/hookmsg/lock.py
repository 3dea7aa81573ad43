"""One build at a time per generated folder; checks wait for a running build.

An advisory `flock` on the generated folder itself: no lock file to leave behind or
to mistake for a stale output. Where `fcntl` does not exist the lock is a no-op.
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
    """Hold a shared (check) or exclusive (build) lock on `folder` while inside.

    A build creates the folder first, so that two builds into a missing folder still
    take turns; a check of a missing folder has nothing to wait for.
    """
    if exclusive:
        with contextlib.suppress(OSError):  # if it cannot be made, the write reports why
            folder.mkdir(parents=True, exist_ok=True)
    if fcntl is None or not folder.is_dir():
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock
