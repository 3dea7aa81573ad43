"""Best-effort positions inside TOML files: tomllib reports none for valid-syntax errors."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_AT_END = re.compile(r"\s*\(at end of document\)$")


def _key_of(line: str) -> str:
    return line.split("=", 1)[0].strip().strip("\"'") if "=" in line else ""


def _header(line: str) -> tuple[bool, str] | None:
    """(is an array-of-tables header, dotted name) for a header line, else None."""
    match = _HEADER.match(line)
    if not match:
        return None
    return match.group(1) == "[[", ".".join(
        p.strip().strip("\"'") for p in match.group(2).split(".")
    )


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def locate(
    text: str, loc: tuple[str | int, ...], needle: str | None = None, occurrence: int = 1
) -> int:
    """The 1-based line best matching `loc` (e.g. ("dispatch", 2, "event")), or 1.

    Array-of-tables entries are found by counting their `[[name]]` headers, tables by
    their `[a.b]` header (or a sub-table's), plain keys by their `key =` line. If
    `needle` is given, the line of its `occurrence`-th appearance inside the located
    block is returned instead.
    """
    lines = text.split("\n")
    headers = [(i, h) for i, line in enumerate(lines) if (h := _header(line)) is not None]
    start, end, found = 0, len(lines), 0
    prefix = ""
    in_entry = False  # inside one `[[array]]` entry, sub-tables must be in its block
    parts = list(loc)
    while parts:
        part = parts.pop(0)
        if isinstance(part, int):
            continue
        dotted = f"{prefix}.{part}" if prefix else part
        if parts and isinstance(parts[0], int):
            index = int(parts.pop(0))
            entries = [
                i for i, (array, name) in headers if array and name == dotted and start <= i < end
            ]
            if index < len(entries):
                begin = entries[index]
                stop = next(
                    (
                        i
                        for i, (array, name) in headers
                        if i > begin and (not _within(name, dotted) or (array and name == dotted))
                    ),
                    len(lines),
                )
                start, end, found, prefix = begin + 1, min(stop, end), begin, dotted
                in_entry = True
                continue
        low, high = (start, end) if in_entry else (0, len(lines))
        table = next(
            (i for i, (_, name) in headers if low <= i < high and _within(name, dotted)), None
        )
        if table is not None:
            stop = next(
                (i for i, (_, name) in headers if i > table and not _within(name, dotted)),
                len(lines),
            )
            start, end, found, prefix = table + 1, min(stop, end), table, dotted
            continue
        first_header = next((i for i, _ in headers if start <= i < end), end)
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
