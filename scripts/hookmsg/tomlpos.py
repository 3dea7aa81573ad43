"""Best-effort positions inside TOML files: tomllib reports none for valid-syntax errors."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache

_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_AT_END = re.compile(r"\s*\(at end of document\)$")


def _key_of(line: str) -> str:
    return line.split("=", 1)[0].strip().strip("\"'") if "=" in line else ""


def _header(line: str) -> tuple[bool, str] | None:
    """(is an array-of-tables header, dotted name) for a header line, else None.

    Scanned, not matched: the pattern `\\[\\[?\\s*([^\\]]+?)\\s*\\]` retried its trailing
    `\\s*` at every character of a name, quadratic in a long line of spaces with no `]`.
    """
    text = line.lstrip()
    if not text.startswith("["):
        return None
    array = text.startswith("[[")
    body = text[2 if array else 1 :]
    close = body.find("]")
    if array and close == 0:  # `[[]`: a table named `[`, as the pattern read it
        array, body, close = False, text[1:], 1
    if close <= 0:
        return None  # no `]`, or nothing between the brackets
    rest = body[close + 1 :].removeprefix("]").lstrip()
    if rest and not rest.startswith("#"):
        return None
    return array, ".".join(p.strip().strip("\"'") for p in body[:close].split("."))


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


@lru_cache(maxsize=16)
def _index(text: str) -> tuple[list[str], list[tuple[int, tuple[bool, str]]], list[int]]:
    """The lines, the header lines and their positions: parsed once per text.

    Every diagnostic of a catalogue file asks for a position; parsing the file again for
    each would make thousands of findings quadratic in the file's size.
    """
    lines = text.split("\n")
    headers = [(i, h) for i, line in enumerate(lines) if (h := _header(line)) is not None]
    return lines, headers, [i for i, _ in headers]


@lru_cache(maxsize=16)
def _arrays(text: str) -> dict[str, list[int]]:
    """The lines of every `[[name]]` header, by name, in order."""
    found: dict[str, list[int]] = {}
    for i, (array, name) in _index(text)[1]:
        if array:
            found.setdefault(name, []).append(i)
    return found


@dataclass
class _Block:
    """Where `locate` has got to: the block of lines it is inside and the line it found."""

    text: str
    lines: list[str]
    headers: list[tuple[int, tuple[bool, str]]]
    positions: list[int]
    start: int
    end: int
    found: int = 0
    prefix: str = ""
    in_entry: bool = False  # inside one `[[array]]` entry, sub-tables must be in its block

    def after(self, line: int) -> list[tuple[int, tuple[bool, str]]]:
        return self.headers[bisect_right(self.positions, line) :]

    def enter(self, header: int, stop: int, dotted: str) -> None:
        self.start, self.end, self.found, self.prefix = (
            header + 1,
            min(stop, self.end),
            header,
            dotted,
        )


def locate(
    text: str, loc: tuple[str | int, ...], needle: str | None = None, occurrence: int = 1
) -> int:
    """The 1-based line best matching `loc` (e.g. ("dispatch", 2, "event")), or 1.

    Array-of-tables entries are found by counting their `[[name]]` headers, tables by
    their `[a.b]` header (or a sub-table's), plain keys by their `key =` line. If
    `needle` is given, the line of its `occurrence`-th appearance inside the located
    block is returned instead.
    """
    lines, headers, positions = _index(text)
    block = _Block(text, lines, headers, positions, 0, len(lines))
    parts = list(loc)
    while parts:
        part = parts.pop(0)
        if isinstance(part, int):
            continue
        dotted = f"{block.prefix}.{part}" if block.prefix else part
        if parts and isinstance(parts[0], int) and _enter_entry(block, dotted, int(parts.pop(0))):
            continue
        if _enter_table(block, dotted):
            continue
        _enter_key(block, part)
        block.prefix = dotted
    if needle is not None:
        seen = 0
        for i in range(block.start if block.found == block.start else block.found, block.end):
            seen += lines[i].count(needle)
            if seen >= occurrence:
                return i + 1
    return block.found + 1


def _enter_entry(block: _Block, dotted: str, index: int) -> bool:
    """Into the `index`-th `[[dotted]]` entry of the block, if it has one."""
    every = _arrays(block.text).get(dotted, [])
    entries = every[bisect_left(every, block.start) : bisect_left(every, block.end)]
    if index >= len(entries):
        return False
    begin = entries[index]
    stop = next(
        (
            i
            for i, (array, name) in block.after(begin)
            if not _within(name, dotted) or (array and name == dotted)
        ),
        len(block.lines),
    )
    block.enter(begin, stop, dotted)
    block.in_entry = True
    return True


def _enter_table(block: _Block, dotted: str) -> bool:
    """Into the `[dotted]` table (or its first sub-table), if there is one where it may be."""
    low, high = (block.start, block.end) if block.in_entry else (0, len(block.lines))
    positions = block.positions
    table = None
    for i, (_, name) in block.headers[bisect_left(positions, low) : bisect_left(positions, high)]:
        if _within(name, dotted):
            table = i
            break
    if table is None:
        return False
    stop = next(
        (i for i, (_, name) in block.after(table) if not _within(name, dotted)),
        len(block.lines),
    )
    block.enter(table, stop, dotted)
    return True


def _enter_key(block: _Block, part: str) -> None:
    """Onto the `part =` line before the block's first sub-table, if there is one."""
    lines, start, end = block.lines, block.start, block.end
    at = bisect_left(block.positions, start)
    positions = block.positions
    first_header = positions[at] if at < len(positions) and positions[at] < end else end
    key = next((i for i in range(start, first_header) if _key_of(lines[i]) == part), None)
    if key is not None:
        # A multi-line value belongs to its key: the block runs to the next key.
        stop = next((i for i in range(key + 1, end) if _key_of(lines[i]) or _header(lines[i])), end)
        block.start, block.end, block.found = key, stop, key


def toml_error_position(error: Exception, text: str = "") -> tuple[int, int, str]:
    """(line, column, message) of a tomllib error on every Python version.

    Python 3.14 sets `lineno`/`colno`; before that the position is only in the message.
    An error "at end of document" is placed on the last line of `text`.
    """
    message = str(error)
    match = _AT.search(message)
    line = getattr(error, "lineno", None) or (int(match.group(1)) if match else 1)
    col = getattr(error, "colno", None) or (int(match.group(2)) if match else 1)
    if not match and _AT_END.search(message) and text:
        lines = text.split("\n")
        line = len(lines)
        col = len(lines[-1]) + 1
    return line, col, _AT_END.sub("", _AT.sub("", message))
