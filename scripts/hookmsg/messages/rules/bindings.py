"""Bindings rules: B001-B012."""

from __future__ import annotations

import os
import re

from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import Binding, CodeSpan, Message, is_repository_path
from hookmsg.messages.rules.context import MessageContext
from hookmsg.messages.spans import blank_code, blank_comments
from hookmsg.vocabulary import (
    CROSS_BOUND,
    DIRECTION_GLYPH,
    DIRECTION_ORDER,
    DIRECTIONS,
    REQUIRED_DIRECTIONS,
)

_ASCII_ARROW = re.compile(r"<->|->|<-|=>|<=")
_PLACEHOLDER_WORDS = re.compile(r"\b(TBD|TODO|TBA|FIXME)\b")


def _label(direction: str) -> str:
    return f"{direction} {DIRECTION_GLYPH[direction]}"


def _check_entry(message: Message, binding: Binding) -> list[Diagnostic]:
    path = message.display
    if binding.label is None:
        return [
            Diagnostic(
                path,
                binding.line,
                1,
                "B011",
                "not a binding bullet; expected `- **<Direction> <glyph>** text`",
            )
        ]
    found = []
    direction, glyph = binding.direction or "", binding.glyph
    if direction in DIRECTION_GLYPH and glyph != DIRECTION_GLYPH[direction]:
        found.append(
            Diagnostic(
                path,
                binding.line,
                3,
                "B006",
                f"direction '{direction}' takes the glyph {DIRECTION_GLYPH[direction]}, "
                f"found '{glyph or 'none'}'",
            )
        )
    elif direction not in DIRECTION_GLYPH:
        known = ", ".join(f"{d} {g}" for d, g in DIRECTIONS)
        found.append(
            Diagnostic(
                path,
                binding.line,
                3,
                "B006",
                f"unknown direction '{binding.label}'; use one of: {known}",
            )
        )
    if not binding.text or _PLACEHOLDER_WORDS.search(binding.text):
        what = "empty" if not binding.text else "a placeholder, not a binding"
        found.append(
            Diagnostic(
                path,
                binding.line,
                1,
                "B007",
                f"'{binding.label}' is {what}; write the binding or omit the direction",
            )
        )
    return found


def _check_directions(
    message: Message, heading_line: int, entries: list[Binding]
) -> list[Diagnostic]:
    path = message.display
    found = []
    known = [
        b
        for b in entries
        if b.direction in DIRECTION_ORDER and b.glyph == DIRECTION_GLYPH[b.direction or ""]
    ]
    present = {b.direction for b in known}
    for direction in REQUIRED_DIRECTIONS:
        if direction not in present:
            found.append(
                Diagnostic(
                    path, heading_line, 1, "B004", f"missing required binding '{_label(direction)}'"
                )
            )
    highest: Binding | None = None
    for binding in known:
        order = DIRECTION_ORDER[binding.direction or ""]
        if highest is not None and order < DIRECTION_ORDER[highest.direction or ""]:
            found.append(
                Diagnostic(
                    path,
                    binding.line,
                    1,
                    "B005",
                    f"'{_label(binding.direction or '')}' comes after "
                    f"'{_label(highest.direction or '')}'; expected order: "
                    + ", ".join(_label(d) for d, _ in DIRECTIONS),
                )
            )
        elif highest is None or order > DIRECTION_ORDER[highest.direction or ""]:
            highest = binding
    return found


def _check_arrows(message: Message, first: int, last: int) -> list[Diagnostic]:
    found = []
    for number in range(first, last + 1):
        if number in message.code_lines:
            continue
        line = message.line(number)
        if not _ASCII_ARROW.search(line):
            continue  # most lines: nothing to blank out and look at again
        blanked = blank_comments(blank_code(line))
        for match in _ASCII_ARROW.finditer(blanked):
            found.append(
                Diagnostic(
                    message.display,
                    number,
                    match.start() + 1,
                    "B008",
                    f"ASCII arrow '{match.group(0)}' outside code; use → ← ↑ ↔ or backticks",
                )
            )
    return found


def _check_path(message: Message, span: CodeSpan, context: MessageContext) -> list[Diagnostic]:
    referenced = context.referenced
    if referenced is None:
        return []
    target = referenced.targets[span.text]
    if target is None:
        text = f"path `{span.text}` leaves the repository"
        return [Diagnostic(message.display, span.line, span.col, "B012", text)]
    if target not in referenced.existing:
        relative = os.path.relpath(target, referenced.real_root).replace(os.sep, "/")
        if relative not in context.planned_paths:
            text = f"path `{span.text}` does not exist"
            return [Diagnostic(message.display, span.line, span.col, "B009", text)]
    return []


def _reciprocity(message: Message, span: CodeSpan, context: MessageContext) -> list[Diagnostic]:
    referenced = context.referenced
    target = referenced.targets[span.text] if referenced is not None else None
    if referenced is None or target is None or not target.endswith(".md"):
        return []
    other = referenced.messages.get(target)
    if other is None:
        return []
    for binding in other.bindings:
        if binding.direction != CROSS_BOUND:
            continue
        if any(referenced.targets[back.text] == referenced.me for back in binding.code_spans):
            return []
    return [
        Diagnostic(
            message.display,
            span.line,
            span.col,
            "B010",
            f"`{span.text}` does not name this message in its '{_label(CROSS_BOUND)}' binding",
        )
    ]


def check(message: Message, context: MessageContext) -> list[Diagnostic]:
    path = message.display
    sections = message.bindings_sections
    if not sections:
        return [
            Diagnostic(
                path, max(len(message.lines), 1), 1, "B001", "no closing `## Bindings` section"
            )
        ]
    found: list[Diagnostic] = []
    for extra in sections[1:]:
        found.append(
            Diagnostic(
                path,
                extra.heading_line or 1,
                1,
                "B003",
                f"second `## Bindings` section (first on line {sections[0].heading_line})",
            )
        )
    last = message.headed_sections[-1]
    if not last.is_bindings:
        found.append(
            Diagnostic(
                path,
                sections[-1].heading_line or 1,
                1,
                "B002",
                f"`## Bindings` must close the file; `## {last.title}` follows on line "
                f"{last.heading_line}",
            )
        )
    for number in message.stray_binding_lines:
        found.append(
            Diagnostic(
                path,
                number,
                1,
                "B011",
                "not a binding bullet; expected `- **<Direction> <glyph>** text`",
            )
        )
    for section in sections:
        entries = [b for b in message.bindings if section.start <= b.line <= section.end]
        for binding in entries:
            found += _check_entry(message, binding)
            for span in binding.code_spans:
                if not is_repository_path(span.text):
                    continue
                problems = _check_path(message, span, context)
                found += problems
                if not problems and binding.direction == CROSS_BOUND:
                    found += _reciprocity(message, span, context)
        found += _check_directions(message, section.heading_line or 1, entries)
        found += _check_arrows(message, section.body_start, section.end)
    return found
