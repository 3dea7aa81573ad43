"""Is a regular expression from the catalogue safe to run on every tool call?

Catalogue patterns are searched in text the assistant writes, so a pattern that can take
exponential time on some input is a way to hang a hook. The classic cause is a repeated
group that itself contains an unbounded quantifier (`(a+)+`, `(\\w+\\s?)*`): this check
rejects every such nesting, conservatively, from the pattern's text.
"""

from __future__ import annotations

import re

_BRACES = re.compile(r"\{(\d*)(,?)(\d*)\}")


def _quantifier(source: str, index: int) -> tuple[int, bool, bool]:
    """(length, repeats, unbounded) of the quantifier at `index` (length 0: none)."""
    if index >= len(source):
        return 0, False, False
    char = source[index]
    length = 0
    repeats = unbounded = False
    if char in "*+":
        length, repeats, unbounded = 1, True, True
    elif char == "?":
        length = 1
    elif char == "{":
        match = _BRACES.match(source, index)
        if match is not None and (match.group(1) or match.group(3)):
            low, comma, high = match.groups()
            length = match.end() - index
            unbounded = bool(comma) and not high
            repeats = unbounded or int(high or low or "0") > 1
    if length and index + length < len(source) and source[index + length] in "?+":
        length += 1  # lazy or possessive form
    return length, repeats, unbounded


def nested_quantifier(source: str) -> int | None:
    """The 0-based position of a repeated group holding an unbounded quantifier, or None."""
    stack = [False]  # per open group: does it contain an unbounded quantifier?
    index = 0
    in_class = False
    while index < len(source):
        char = source[index]
        if char == "\\":
            index += 2
            length, _, unbounded = _quantifier(source, index)
            stack[-1] = stack[-1] or (unbounded and not in_class)
            index += 0 if in_class else length
            continue
        if in_class:
            if char == "]":
                in_class = False
                length, _, unbounded = _quantifier(source, index + 1)
                stack[-1] = stack[-1] or unbounded
                index += length
            index += 1
            continue
        if char == "[":
            in_class = True
            index += 1
            if index < len(source) and source[index] == "^":
                index += 1
            if index < len(source) and source[index] == "]":
                index += 1  # a leading `]` is a literal
            continue
        if char == "(":
            stack.append(False)
            index += 1
            continue
        if char == ")" and len(stack) > 1:
            inner = stack.pop()
            length, repeats, unbounded = _quantifier(source, index + 1)
            if inner and repeats:
                return index + 1
            stack[-1] = stack[-1] or inner or unbounded
            index += 1 + length
            continue
        length, _, unbounded = _quantifier(source, index + 1)
        stack[-1] = stack[-1] or unbounded
        index += 1 + length
    return None
