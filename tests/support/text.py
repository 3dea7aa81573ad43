"""Small edits of files and strings, each asserting that what it changes is there."""

from __future__ import annotations

from pathlib import Path


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def replace(text: str, old: str, new: str) -> str:
    """`text` with the first `old` replaced; `old` must be there."""
    assert old in text, f"{old!r} not found"
    return text.replace(old, new, 1)


def edit(path: Path, old: str, new: str) -> str:
    """Replace the first `old` in the file; return the new text."""
    text = replace(path.read_text(encoding="utf-8"), old, new)
    path.write_text(text, encoding="utf-8")
    return text


def append(path: Path, extra: str) -> str:
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + extra
    path.write_text(text, encoding="utf-8")
    return text


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based number of the `occurrence`-th line that contains `needle`."""
    hits = [n for n, line in enumerate(text.split("\n"), start=1) if needle in line]
    assert len(hits) >= occurrence, f"{needle!r} found {len(hits)} time(s)"
    return hits[occurrence - 1]


def drop_first_line(path: Path) -> str:
    """Remove the first line of `path` (a message's licence line); the new text."""
    text = path.read_text(encoding="utf-8").split("\n", 1)[1]
    path.write_text(text, encoding="utf-8")
    return text
