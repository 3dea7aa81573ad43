"""Licence header rules: L001-L008, and T001 (the title that must follow it)."""

from __future__ import annotations

import re

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import LICENCE_LIKE, Message
from hookmsg.messages.rules.context import MessageContext

_SPDX_ID = re.compile(r"^<!--\s*SPDX-License-Identifier:\s*(?P<id>\S+)\s*-->$")


def _licence_id(line: str) -> str | None:
    match = _SPDX_ID.match(line.strip())
    return match.group("id") if match else None


def check(message: Message, context: MessageContext) -> list[Diagnostic]:
    path = message.display
    expected = context.licence_line
    found: list[Diagnostic] = []
    if message.had_bom:
        found.append(Diagnostic(path, 1, 1, "L006", "file starts with a UTF-8 byte order mark"))
    lines = message.lines
    prose = [n for n in range(1, len(lines) + 1) if n not in message.code_lines]
    exact = [
        n for n in prose if lines[n - 1].startswith(expected) and lines[n - 1].rstrip() == expected
    ]
    header_line, problem = _header(lines, prose, expected)
    if problem is not None:
        found.append(Diagnostic(path, *problem))
    for number in exact:
        if number != header_line:
            text = f"licence line repeated (first on line {header_line or exact[0]})"
            found.append(Diagnostic(path, number, 1, "L005", text))
    if header_line == 1 and (len(lines) < 2 or lines[1].strip()):
        text = "the licence line must be followed by a blank line"
        found.append(Diagnostic(path, min(2, len(lines) + 1), 1, "L008", text))
    if message.title is None and any(line.strip() for line in lines[1:]):
        first_section = next((s.heading_line for s in message.headed_sections), None)
        text = "no title line: start the message with a sentence or a `#` heading"
        found.append(Diagnostic(path, first_section or 1, 1, "T001", text))
    return found


def _header(
    lines: tuple[str, ...], prose: list[int], expected: str
) -> tuple[int | None, tuple[int, int, Code, str] | None]:
    """The licence line's number (None if there is none) and what is wrong with it."""
    first = lines[0] if lines else ""
    if first == expected:
        return 1, None
    if first.rstrip() == expected:
        return 1, (1, len(expected) + 1, "L007", "trailing whitespace after the licence line")
    if LICENCE_LIKE.match(first):
        found_id, expected_id = _licence_id(first), _licence_id(expected)
        if found_id and expected_id and found_id != expected_id:
            return 1, (1, 1, "L004", f"licence id is '{found_id}', expected '{expected_id}'")
        return 1, (1, 1, "L003", f"licence line reads '{first}', expected '{expected}'")
    later = [n for n in prose if n > 1 and LICENCE_LIKE.match(lines[n - 1])]
    if later:
        text = f"licence line is on line {later[0]}, expected on line 1"
        return later[0], (later[0], 1, "L002", text)
    return None, (1, 1, "L001", f"missing licence line; expected '{expected}' on line 1")
