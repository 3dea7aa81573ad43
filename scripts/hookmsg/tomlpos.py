"""Best-effort line numbers for a location inside a TOML file (tomllib gives none)."""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")


def _key_of(line: str) -> str:
    return line.split("=", 1)[0].strip().strip("\"'") if "=" in line else ""


def locate(text: str, loc: tuple[str | int, ...], needle: str | None = None) -> int:
    """The 1-based line best matching `loc` (e.g. ("dispatch", 2, "event")), or 1.

    Array-of-tables entries are found by counting their `[[name]]` headers; table
    entries by their `[a.b]` header or their `key =` line; `needle`, if given, is
    searched inside the located block.
    """
    lines = text.split("\n")
    start, end = 0, len(lines)
    block_line = 1
    path: list[str] = []
    position = 0
    while position < len(loc):
        part = loc[position]
        if isinstance(part, int):
            position += 1
            continue
        path.append(part)
        following = loc[position + 1] if position + 1 < len(loc) else None
        dotted = ".".join(path)
        if isinstance(following, int):
            headers = [
                i
                for i in range(start, end)
                if (m := _HEADER.match(lines[i])) and m.group(1) == dotted
            ]
            if following < len(headers):
                begin = headers[following]
                stop = next((i for i in range(begin + 1, end) if _HEADER.match(lines[i])), end)
                start, end, block_line = begin + 1, stop, begin + 1
                position += 2
                continue
        header = next(
            (
                i
                for i in range(start, end)
                if (m := _HEADER.match(lines[i])) and m.group(1) == dotted
            ),
            None,
        )
        if header is not None:
            stop = next(
                (i for i in range(header + 1, len(lines)) if _HEADER.match(lines[i])), len(lines)
            )
            start, end, block_line = header + 1, stop, header + 1
            path = [dotted]
        else:
            key_line = next((i for i in range(start, end) if _key_of(lines[i]) == part), None)
            if key_line is not None:
                block_line = key_line + 1
                start = key_line
                # A multi-line array belongs to its key: search it until the next key.
                end = next(
                    (
                        i
                        for i in range(key_line + 1, end)
                        if _key_of(lines[i]) or _HEADER.match(lines[i])
                    ),
                    end,
                )
        position += 1
    if needle is not None:
        for i in range(max(start - 1, 0), end):
            if needle in lines[i]:
                return i + 1
    return block_line
