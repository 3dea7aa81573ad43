"""Read a file once and turn its bytes into text; the file rules (`inputs.rules`) judge them."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from hookmsg.diagnostics import Diagnostic
from hookmsg.inputs import rules as files
from hookmsg.inputs.paths import is_inside


@dataclass(frozen=True)
class SourceText:
    """A file's text with LF line endings and no BOM, and what was normalised away."""

    path: Path
    display: str
    text: str
    had_bom: bool


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _read_all(fd: int, expected: int, limit: int) -> bytes:
    """Read to the end of `fd`, but never more than `limit` bytes (the file may grow)."""
    chunks = []
    total = 0
    while total < limit:
        chunk = os.read(fd, min(max(expected - total, 0) + 65536, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def _regular_file(
    path: Path, display: str, max_bytes: int, root: Path | None, *, check_folders: bool
) -> tuple[os.stat_result | None, list[Diagnostic]]:
    """The stat of `path` if it is a regular file within bounds to read; else the finding."""
    try:
        if root is not None and check_folders:
            real_root = os.path.realpath(root)
            # abspath, not resolve: where the path *says* it is, before links are followed.
            lexical = os.path.abspath(path)  # noqa: PTH100
            if is_inside(lexical, os.path.abspath(root)) and not is_inside(  # noqa: PTH100
                os.path.realpath(path), real_root
            ):
                return None, [files.link_out(display)]
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            if root is not None:
                target = path.resolve(strict=True)
                if not _inside(target, root.resolve()):
                    return None, [files.link_out(display)]
            info = os.stat(path)  # noqa: PTH116 (one call, no Path object on the hot path)
    except (OSError, RuntimeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return None, [files.unreadable(display, reason)]
    if not stat.S_ISREG(info.st_mode):
        return None, [files.not_regular(display)]
    if info.st_size > max_bytes:
        return None, [files.too_large(display, max_bytes, info.st_size)]
    return info, []


def read_source(
    path: Path,
    display: str,
    *,
    max_bytes: int,
    root: Path | None = None,
    check_folders: bool = False,
) -> tuple[SourceText | None, list[Diagnostic]]:
    """Read `path`; return its text (or None when it cannot be parsed) and file-level findings.

    With `root`, a file inside the repository that is a link out of it is refused; with
    `check_folders` too, so is one whose folders lead out (callers that have checked the
    folder already skip that cost). Never raises for a bad file: every failure becomes a
    diagnostic.
    """

    info, found = _regular_file(path, display, max_bytes, root, check_folders=check_folders)
    if info is None:
        return None, found
    try:
        # O_NONBLOCK: a FIFO swapped in after the stat must not hang the read.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            data = _read_all(fd, info.st_size, max_bytes + 1)
        finally:
            os.close(fd)
    except OSError as error:
        return None, [files.unreadable(display, str(error.strerror or error))]
    if len(data) > max_bytes:
        return None, [files.too_large(display, max_bytes)]
    text, had_bom, found = files.check_bytes(data, display)
    if text is None:
        return None, found
    return SourceText(path=path, display=display, text=text, had_bom=had_bom), found
