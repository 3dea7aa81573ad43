"""Code spans and HTML comments on one line, found in time linear in the line's length.

A line below `max-file-bytes` may be hostile: a megabyte of backtick runs or of
unclosed `<!--`. The regular expressions these replace (`(`+)(?P<code>.+?)\\1` and
`<!--.*?-->`) scanned to the end of the line again from every opener that never
closes, which is quadratic.
"""

from __future__ import annotations

import re

_RUN = re.compile(r"`+")
# The pattern the scan below replaces. It rescans the rest of the line from every opener
# that never closes, so its cost is bounded by (backticks + 1) passes over the line: with
# few backticks (every line of a real message) it is linear, and faster than the scan.
_SPAN = re.compile(r"(?<!`)(`+)(?!`)(?P<code>.+?)(?<!`)\1(?!`)")
_FEW_BACKTICKS = 16


def code_spans(line: str) -> list[tuple[int, int, int, int]]:
    """Every code span, left to right: (start, end, code start, code end), 0-based.

    A run of N backticks opens a span that the next run of exactly N backticks closes
    (CommonMark); a run that no later run closes is literal text.
    """
    if line.count("`") <= _FEW_BACKTICKS:
        return [(m.start(), m.end(), m.start("code"), m.end("code")) for m in _SPAN.finditer(line)]
    return scan_code_spans(line)


def scan_code_spans(line: str) -> list[tuple[int, int, int, int]]:
    """`code_spans` in one pass over the runs of backticks, whatever the line holds."""
    runs = [(m.start(), m.end()) for m in _RUN.finditer(line)]
    by_length: dict[int, list[int]] = {}
    for index, (start, end) in enumerate(runs):
        by_length.setdefault(end - start, []).append(index)
    seen = dict.fromkeys(by_length, 0)  # per length: how far its list has been passed
    found = []
    resume = 0
    for index, (start, end) in enumerate(runs):
        if start < resume:
            continue  # inside the span just found
        length = end - start
        same = by_length[length]
        at = seen[length]
        while at < len(same) and same[at] <= index:
            at += 1
        seen[length] = at
        if at == len(same):
            continue  # never closed: literal backticks
        close_start, close_end = runs[same[at]]
        found.append((start, close_end, end, close_start))
        resume = close_end
    return found


def blank_comments(line: str) -> str:
    """`line` with each `<!-- … -->` replaced by as many spaces."""
    parts = []
    done = 0
    while (start := line.find("<!--", done)) != -1:
        end = line.find("-->", start + 4)
        if end == -1:
            break  # no later opener can close either
        parts += [line[done:start], " " * (end + 3 - start)]
        done = end + 3
    parts.append(line[done:])
    return "".join(parts)


def blank_code(line: str) -> str:
    """`line` with each code span (backticks included) replaced by as many spaces."""
    parts = []
    done = 0
    for start, end, _, _ in code_spans(line):
        parts += [line[done:start], " " * (end - start)]
        done = end
    parts.append(line[done:])
    return "".join(parts)
