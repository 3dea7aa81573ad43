"""The mechanical mends behind `hookmsg fix`: findings that have one right answer.

Each mend reads the file through the one message parser (`message.parse_text`: the same
sections, bindings, code lines and licence detection the rules use) and rewrites whole
lines. A mend that is not certain leaves the text as it is, and the finding stays for
`fix` to report. Applied until nothing changes, so mending mended text changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from hookmsg.messages.message import LICENCE_LIKE, Binding, Message, Section, parse_text
from hookmsg.messages.spans import blank_code, blank_comments
from hookmsg.vocabulary import CROSS_BOUND, DIRECTION_GLYPH, DIRECTION_ORDER

BOM = "\ufeff"
# The ASCII arrow and the glyph that replaces it (longest first: `<->` before `->`).
ARROWS = {"<->": "↔", "->": "→", "<-": "←", "=>": "→", "<=": "←"}
_ARROW = re.compile("|".join(re.escape(a) for a in ARROWS))
# More passes than mends: each pass of each mend settles its part of the file.
PASSES = 8
BACK_REASON = "(which names this message in its own cross-binding)."


def mend_bytes(data: bytes) -> str | None:
    """UTF-8 text without a BOM, with LF endings and a final newline; None if not text."""
    if not data or data.isspace() or b"\x00" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text.removeprefix(BOM).replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


def _lines(message: Message) -> list[str]:
    return list(message.lines)


def _join(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


def _remove_line(lines: list[str], number: int) -> None:
    """Remove line `number` (1-based), and one of the two blank lines it leaves together."""
    del lines[number - 1]
    index = number - 1
    if 0 < index < len(lines) and not lines[index].strip() and not lines[index - 1].strip():
        del lines[index]


def mend_licence(message: Message, expected: str) -> list[str]:
    """The licence line: trailing spaces, missing, moved, repeated, no blank line after."""
    lines = _lines(message)
    first = lines[0] if lines else ""
    prose = [n for n in range(2, len(lines) + 1) if n not in message.code_lines]
    if first != expected and first.rstrip() == expected:
        lines[0] = expected
    elif first != expected and not LICENCE_LIKE.match(first):
        licence_like = [n for n in prose if LICENCE_LIKE.match(lines[n - 1])]
        moved = [n for n in licence_like if lines[n - 1].rstrip() == expected]
        if licence_like and not moved:
            return lines  # another licence further down: not ours to choose
        if moved:
            _remove_line(lines, moved[0])
        lines[0:0] = [expected, ""] if first.strip() else [expected]
        return lines  # the next pass sees the new first line
    if lines and lines[0] == expected:
        repeated = [n for n in prose if lines[n - 1].rstrip() == expected]
        for number in reversed(repeated):
            _remove_line(lines, number)
        if len(lines) > 1 and lines[1].strip():
            lines.insert(1, "")
    return lines


def _bindings_lines(message: Message) -> list[int]:
    return [
        n
        for section in message.bindings_sections
        for n in range(section.body_start, section.end + 1)
        if n not in message.code_lines
    ]


def _mend_labels(message: Message, lines: list[str]) -> None:
    """`**Established by ->**`: an ASCII arrow where a known direction's glyph belongs."""
    for binding in message.bindings:
        label = binding.label or ""
        arrow = next((a for a in ARROWS if label.endswith(a)), None)
        direction = label[: -len(arrow)].strip() if arrow else ""
        if arrow is None or direction not in DIRECTION_GLYPH:
            continue
        line = lines[binding.line - 1]
        old, new = f"**{label}**", f"**{direction} {DIRECTION_GLYPH[direction]}**"
        if old in line:
            lines[binding.line - 1] = line.replace(old, new, 1)


def mend_arrows(message: Message) -> list[str]:
    """Each ASCII arrow of the Bindings section, outside code and comments, as a glyph:
    the direction's own in a bullet's label, the arrow's look-alike elsewhere."""
    lines = _lines(message)
    _mend_labels(message, lines)
    for number in _bindings_lines(message):
        line = lines[number - 1]
        if not _ARROW.search(line):
            continue
        blanked = blank_comments(blank_code(line))
        for match in reversed(list(_ARROW.finditer(blanked))):
            glyph = ARROWS[match.group(0)]
            line = line[: match.start()] + glyph + line[match.end() :]
        lines[number - 1] = line
    return lines


def _known(binding: Binding) -> bool:
    direction = binding.direction or ""
    return direction in DIRECTION_ORDER and binding.glyph == DIRECTION_GLYPH[direction]


def _last_text_line(lines: list[str], first: int, last: int) -> int:
    while last > first and not lines[last - 1].strip():
        last -= 1
    return last


def _reordered(message: Message, section: Section, lines: list[str]) -> list[str] | None:
    """The section's bullets in direction order (stable), or None if not certain."""
    entries = [b for b in message.bindings if section.start <= b.line <= section.end]
    stray = [n for n in message.stray_binding_lines if section.start <= n <= section.end]
    if stray or not entries or not all(_known(b) for b in entries):
        return None
    order = [DIRECTION_ORDER[b.direction or ""] for b in entries]
    if order == sorted(order):
        return None
    ends = [b.line - 1 for b in entries[1:]] + [section.end]
    blocks = []
    for binding, end in zip(entries, ends, strict=True):
        last = _last_text_line(lines, binding.line, end)
        blocks.append((DIRECTION_ORDER[binding.direction or ""], lines[binding.line - 1 : last]))
    gap = entries[1].line - 1 - _last_text_line(lines, entries[0].line, ends[0])
    rebuilt: list[str] = []
    for _, block in sorted(blocks, key=lambda item: item[0]):
        if rebuilt:
            rebuilt += [""] * gap
        rebuilt += block
    tail = _last_text_line(lines, entries[-1].line, section.end)
    return [*lines[: entries[0].line - 1], *rebuilt, *lines[tail:]]


def mend_order(message: Message) -> list[str]:
    """Bindings bullets in the vocabulary's direction order, each bullet kept whole."""
    lines = _lines(message)
    for section in reversed(message.bindings_sections):
        found = _reordered(message, section, lines)
        if found is not None:
            return found  # one section per pass: the line numbers of the rest moved
    return lines


def mend_message(text: str, licence_line: str, display: str, path: Path) -> str:
    """Every single-file mend, repeated until the text stops changing."""
    mends: tuple[Callable[[Message], list[str]], ...] = (
        lambda message: mend_licence(message, licence_line),
        mend_arrows,
        mend_order,
    )
    for _ in range(PASSES):
        before = text
        for mend in mends:
            text = _join(mend(parse_text(text, licence_line, display, path)))
        if text == before:
            break
    return text


def cross_bound_paths(message: Message) -> list[str]:
    """The code spans of the message's `Cross-bound with` bullets."""
    return [
        span.text
        for binding in message.bindings
        if binding.direction == CROSS_BOUND
        for span in binding.code_spans
    ]


def add_cross_binding(message: Message, back: str) -> str | None:
    """The text with a `Cross-bound with ↔` bullet naming `back` (after the last one, or
    closing the last Bindings section); None when there is no Bindings section."""
    sections = message.bindings_sections
    if not sections:
        return None
    lines = _lines(message)
    section = sections[-1]
    entries = [b for b in message.bindings if section.start <= b.line <= section.end]
    crossing = [b for b in entries if b.direction == CROSS_BOUND]
    anchor = crossing[-1] if crossing else (entries[-1] if entries else None)
    if anchor is None:
        after = section.start
    else:
        nxt = [b.line - 1 for b in entries if b.line > anchor.line]
        after = _last_text_line(lines, anchor.line, nxt[0] if nxt else section.end)
    glyph = DIRECTION_GLYPH[CROSS_BOUND]
    bullet = f"- **{CROSS_BOUND} {glyph}** `{back}` {BACK_REASON}"
    lines[after:after] = [bullet] if anchor is not None else ["", bullet]
    return _join(lines)
