"""Read a file once and turn its bytes into text, reporting every file-level problem."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.paths import is_inside

BOM = "\ufeff"


@dataclass(frozen=True)
class SourceText:
    """A file's text with LF line endings and no BOM, and what was normalised away."""

    path: Path
    display: str
    text: str
    had_bom: bool


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte `offset`."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    col = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, col


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
    except ValueError:
        return False
    return True


def _carriage_returns(data: bytes, fail: Callable[..., list[Diagnostic]]) -> list[Diagnostic]:
    found = []
    crlf = data.find(b"\r\n")
    if crlf >= 0:
        line, _ = _position(data, crlf)
        count = data.count(b"\r\n")
        found += fail("F002", f"CRLF line endings on {count} line(s); use LF", line)
    # Same length as CRLF, so offsets and line numbers stay those of the file.
    masked = data.replace(b"\r\n", b" \n")
    bare_cr = masked.find(b"\r")
    if bare_cr >= 0:
        line, col = _position(masked, bare_cr)
        found += fail("F003", "bare CR line ending; use LF", line, col)
    return found


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

    def fail(code: Code, message: str, line: int = 1, col: int = 1) -> list[Diagnostic]:
        return [Diagnostic(display, line, col, code, message)]

    try:
        if root is not None and check_folders:
            real_root = os.path.realpath(root)
            # abspath, not resolve: where the path *says* it is, before links are followed.
            lexical = os.path.abspath(path)  # noqa: PTH100
            if is_inside(lexical, os.path.abspath(root)) and not is_inside(  # noqa: PTH100
                os.path.realpath(path), real_root
            ):
                return None, fail("F007", "symbolic link points outside the repository")
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            if root is not None:
                target = path.resolve(strict=True)
                if not _inside(target, root.resolve()):
                    return None, fail("F007", "symbolic link points outside the repository")
            info = os.stat(path)  # noqa: PTH116 (one call, no Path object on the hot path)
    except (OSError, RuntimeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return None, fail("F007", f"cannot read file: {reason}")
    if not stat.S_ISREG(info.st_mode):
        return None, fail("F007", "not a regular file")
    if info.st_size > max_bytes:
        return None, fail(
            "F006", f"file is {info.st_size} bytes, over the {max_bytes}-byte limit; not parsed"
        )
    try:
        # O_NONBLOCK: a FIFO swapped in after the stat must not hang the read.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        try:
            data = _read_all(fd, info.st_size, max_bytes + 1)
        finally:
            os.close(fd)
    except OSError as error:
        return None, fail("F007", f"cannot read file: {error.strerror or error}")
    if len(data) > max_bytes:
        return None, fail("F006", f"file is over the {max_bytes}-byte limit; not parsed")
    if not data or data.isspace():
        return None, fail("F005", "file is empty")

    diagnostics: list[Diagnostic] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, col = _position(data, error.start)
        return None, fail(
            "F001", f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})", line, col
        )

    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = _position(data, nul)
        count = data.count(b"\x00")
        diagnostics += fail("F004", f"file contains {count} NUL byte(s)", line, col)

    if b"\r" in data:  # rare: spare every clean file the copies below
        diagnostics += _carriage_returns(data, fail)
        text = text.replace("\r\n", "\n").replace("\r", "\n")

    had_bom = text.startswith(BOM)
    if had_bom:
        text = text[len(BOM) :]
    return SourceText(path=path, display=display, text=text, had_bom=had_bom), diagnostics
