"""Delivered-text rules: D001-D004."""

from __future__ import annotations

import re
import unicodedata

from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import Message
from hookmsg.messages.rules.context import MessageContext

# Anything but printable ASCII, tab and newline: only these need a Unicode lookup.
_SUSPECT = re.compile(r"[^\t\n\x20-\x7e]")
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Zl", "Zp"})


# The ASCII characters `_SUSPECT` matches: the controls but tab and newline, all hidden.
_ASCII_CONTROLS = bytes([*range(9), *range(11, 32), 127])


def _may_hide(text: str) -> bool:
    """Might `text` hold a hidden character? Exact for ASCII text, in one pass in C."""
    if text.isascii():
        data = text.encode("ascii")
        return len(data.translate(None, _ASCII_CONTROLS)) != len(data)
    return any(hidden_character(m.group(0)) for m in _SUSPECT.finditer(text))


def hidden_character(char: str) -> bool:
    """Invisible or bidirectional control characters: they hide text from a reviewer."""
    return char not in "\t\n" and unicodedata.category(char) in _HIDDEN_CATEGORIES


def _describe(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def check(message: Message, context: MessageContext) -> list[Diagnostic]:
    path = message.display
    found: list[Diagnostic] = []
    delivered = message.delivered
    if not delivered:
        return [Diagnostic(path, 1, 1, "D004", "the message delivers no text")]
    size = len(delivered)
    cap = context.delivered_cap
    if size > cap:
        found.append(
            Diagnostic(
                path,
                1,
                1,
                "D001",
                f"delivered text is {size} characters, {size - cap} over the {cap} cap",
            )
        )
    if "${" not in delivered and not _may_hide(delivered):
        return found  # the common case: nothing to locate line by line
    for number in message.delivered_lines:
        line = message.line(number)
        start = line.find("${")
        while start >= 0:
            found.append(
                Diagnostic(
                    path,
                    number,
                    start + 1,
                    "D002",
                    "unexpanded install token `${` in delivered text",
                )
            )
            start = line.find("${", start + 2)
        for match in _SUSPECT.finditer(line):
            char = match.group(0)
            if hidden_character(char):
                found.append(
                    Diagnostic(
                        path,
                        number,
                        match.start() + 1,
                        "D003",
                        f"invisible or bidirectional control character {_describe(char)}",
                    )
                )
    return found
