"""Best-effort positions inside TOML files: tomllib reports none for valid-syntax errors."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
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
    start, end, found = 0, len(lines), 0
    prefix = ""
    in_entry = False  # inside one `[[array]]` entry, sub-tables must be in its block
    parts = list(loc)

    def after(line: int) -> list[tuple[int, tuple[bool, str]]]:
        return headers[bisect_right(positions, line) :]

    while parts:
        part = parts.pop(0)
        if isinstance(part, int):
            continue
        dotted = f"{prefix}.{part}" if prefix else part
        if parts and isinstance(parts[0], int):
            index = int(parts.pop(0))
            every = _arrays(text).get(dotted, [])
            entries = every[bisect_left(every, start) : bisect_left(every, end)]
            if index < len(entries):
                begin = entries[index]
                stop = next(
                    (
                        i
                        for i, (array, name) in after(begin)
                        if not _within(name, dotted) or (array and name == dotted)
                    ),
                    len(lines),
                )
                start, end, found, prefix = begin + 1, min(stop, end), begin, dotted
                in_entry = True
                continue
        low, high = (start, end) if in_entry else (0, len(lines))
        table = None
        for i, (_, name) in headers[bisect_left(positions, low) : bisect_left(positions, high)]:
            if _within(name, dotted):
                table = i
                break
        if table is not None:
            stop = next(
                (i for i, (_, name) in after(table) if not _within(name, dotted)),
                len(lines),
            )
            start, end, found, prefix = table + 1, min(stop, end), table, dotted
            continue
        at = bisect_left(positions, start)
        first_header = positions[at] if at < len(positions) and positions[at] < end else end
        key = next((i for i in range(start, first_header) if _key_of(lines[i]) == part), None)
        if key is not None:
            # A multi-line value belongs to its key: the block runs to the next key.
            stop = next(
                (i for i in range(key + 1, end) if _key_of(lines[i]) or _header(lines[i])), end
            )
            start, end, found = key, stop, key
        prefix = dotted
    if needle is not None:
        seen = 0
        for i in range(start if found == start else found, end):
            seen += lines[i].count(needle)
            if seen >= occurrence:
                return i + 1
    return found + 1


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
