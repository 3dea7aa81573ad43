"""File rules F001-F007: what a file's bytes (or the failure to read them) are found to be.

Checked on the raw bytes, before any parsing; `source.read_source` reads and calls them.
K003 is here too: doit's state file is one more file a run reads (`doit_state.py`).
"""

from __future__ import annotations

from pathlib import Path

from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import ConfigError

BOM = "\ufeff"


def _position(data: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte `offset`."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line = data.count(b"\n", 0, offset) + 1
    col = len(data[line_start:offset].decode("utf-8", errors="replace")) + 1
    return line, col


def unreadable(display: str, reason: str) -> Diagnostic:
    """F007: the file cannot be read (`reason` says why, as the system puts it)."""
    return Diagnostic(display, 1, 1, "F007", f"cannot read file: {reason}")


def link_out(display: str) -> Diagnostic:
    return Diagnostic(display, 1, 1, "F007", "symbolic link points outside the repository")


def not_regular(display: str) -> Diagnostic:
    return Diagnostic(display, 1, 1, "F007", "not a regular file")


def folder_problem(display: str, text: str) -> Diagnostic:
    """F007 for a folder of sources that cannot be listed (`text` says why)."""
    return Diagnostic(display, 1, 1, "F007", text)


def too_large(display: str, max_bytes: int, size: int | None = None) -> Diagnostic:
    """F006: over `max-file-bytes` (by its size when known, else as it was read)."""
    if size is None:
        return Diagnostic(
            display, 1, 1, "F006", f"file is over the {max_bytes}-byte limit; not parsed"
        )
    text = f"file is {size} bytes, over the {max_bytes}-byte limit; not parsed"
    return Diagnostic(display, 1, 1, "F006", text)


def _carriage_returns(data: bytes, display: str) -> list[Diagnostic]:
    found = []
    crlf = data.find(b"\r\n")
    if crlf >= 0:
        line, _ = _position(data, crlf)
        count = data.count(b"\r\n")
        text = f"CRLF line endings on {count} line(s); use LF"
        found.append(Diagnostic(display, line, 1, "F002", text))
    # Same length as CRLF, so offsets and line numbers stay those of the file.
    masked = data.replace(b"\r\n", b" \n")
    bare_cr = masked.find(b"\r")
    if bare_cr >= 0:
        line, col = _position(masked, bare_cr)
        found.append(Diagnostic(display, line, col, "F003", "bare CR line ending; use LF"))
    return found


def check_bytes(data: bytes, display: str) -> tuple[str | None, bool, list[Diagnostic]]:
    """The text of `data` (LF endings, no BOM; None if it cannot be parsed), whether a BOM
    was removed, and every finding about the bytes (F001-F005)."""
    if not data or data.isspace():
        return None, False, [Diagnostic(display, 1, 1, "F005", "file is empty")]
    found: list[Diagnostic] = []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, col = _position(data, error.start)
        message = f"file is not valid UTF-8 (byte 0x{data[error.start]:02x})"
        return None, False, [Diagnostic(display, line, col, "F001", message)]

    nul = data.find(b"\x00")
    if nul >= 0:
        line, col = _position(data, nul)
        count = data.count(b"\x00")
        found.append(Diagnostic(display, line, col, "F004", f"file contains {count} NUL byte(s)"))

    if b"\r" in data:  # rare: spare every clean file the copies below
        found += _carriage_returns(data, display)
        text = text.replace("\r\n", "\n").replace("\r", "\n")

    had_bom = text.startswith(BOM)
    if had_bom:
        text = text[len(BOM) :]
    return text, had_bom, found


def unusable_state_file(path: Path, why: str) -> ConfigError:
    """K003: doit's state file is not a regular file, or is damaged and cannot be removed."""
    return ConfigError(f"{path}:1:1: K003 doit's state file {why}")
