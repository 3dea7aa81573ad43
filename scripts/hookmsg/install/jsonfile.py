"""Read and write a JSON settings file without losing anything that is not ours.

`load` parses the file keeping key order, refuses duplicate keys and non-standard
constants, detects its layout (indentation, separators, ASCII escaping, final newline),
and proves that writing the parsed document back in that layout reproduces every value
token exactly (so `1.0e0`, `1E2`, a `\\u00e9` escape where the file otherwise writes raw
UTF-8, a lone surrogate, or an integer beyond 2^53 are refused rather than rewritten).
`dump` writes a document in the detected layout. Only whitespace between tokens may
differ from the original, and only where the file's own layout was inconsistent.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from hookmsg.diagnostics import Diagnostic

# JSON tokens: strings, numbers, literals and punctuation (whitespace is skipped).
_TOKEN = re.compile(
    r'"(?:[^"\\]|\\.)*"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?'
    r"|true|false|null|[{}\[\]:,]"
)
_SPACE = re.compile(r"[ \t\n\r]*")
MAX_SAFE_INTEGER = 2**53 - 1


@dataclass(frozen=True)
class Layout:
    indent: str | None  # one level of indentation; None: the whole document on one line
    item_separator: str
    key_separator: str
    ensure_ascii: bool
    final_newline: bool
    newline: str = "\n"  # the file's line ending: what it writes between lines, CRLF kept


DEFAULT_LAYOUT = Layout("  ", ",", ": ", False, True)


class JsonRefusal(Exception):
    """The file cannot be merged without loss; carries the diagnostic to print."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.render())
        self.diagnostic = diagnostic


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _tokens(text: str) -> list[tuple[str, int]]:
    found = []
    offset = _SPACE.match(text, 0).end()  # type: ignore[union-attr]
    while offset < len(text):
        match = _TOKEN.match(text, offset)
        if match is None:
            break
        found.append((match.group(), offset))
        offset = _SPACE.match(text, match.end()).end()  # type: ignore[union-attr]
    return found


def _pairs(display: str, text: str) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                offset = text.find(json.dumps(key, ensure_ascii=False))
                line, col = _position(text, max(offset, 0))
                raise JsonRefusal(
                    Diagnostic(display, line, col, "I003", f"key {key!r} appears twice")
                )
            result[key] = value
        return result

    return hook


def _constant(display: str) -> Any:
    def refuse(name: str) -> Any:
        raise JsonRefusal(Diagnostic(display, 1, 1, "I003", f"{name} is not JSON"))

    return refuse


def _newline(text: str) -> str:
    """The file's line ending: that of its first line (a file with none writes LF)."""
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _layout(text: str) -> Layout:
    final_newline = text.endswith("\n")
    newline = _newline(text)
    body = text.strip()
    ensure_ascii = not any(ord(char) > 0x7F for char in body) and "\\u" in body
    # The separators are read between tokens, never inside a string (a key may hold ", ").
    shape = re.sub(r'"(?:[^"\\]|\\.)*"', '""', body)
    key_separator = ": " if re.search(r'":\s', shape) or ":" not in shape else ":"
    if "\n" not in body:
        spaced = re.search(r",\s", shape) or ("," not in shape and key_separator == ": ")
        item_separator = ", " if spaced else ","
        # `{}` says nothing of its layout: what install writes into it is indented.
        indent = None if body not in ("{}", "") else DEFAULT_LAYOUT.indent
        return Layout(indent, item_separator, key_separator, ensure_ascii, final_newline, newline)
    match = re.search(r"\n([ \t]+)\S", text)
    indent = match.group(1) if match is not None else "  "
    return Layout(indent, ",", key_separator, ensure_ascii, final_newline, newline)


def dump(data: Any, layout: Layout) -> str:
    text = json.dumps(
        data,
        indent=layout.indent,
        separators=(layout.item_separator, layout.key_separator),
        ensure_ascii=layout.ensure_ascii,
    )
    if layout.newline != "\n":  # json.dumps escapes newlines in strings: these are layout
        text = text.replace("\n", layout.newline)
    return text + (layout.newline if layout.final_newline else "")


def _check_values(value: Any, display: str, text: str) -> None:
    """Refuse integers beyond 2^53 and strings holding a lone surrogate."""
    problem = None
    if isinstance(value, bool):
        return
    if isinstance(value, int) and abs(value) > MAX_SAFE_INTEGER:
        needle = str(value)
        problem = (
            f"the integer {value} is beyond 2^53 and would not survive a JSON reader that "
            "uses doubles"
        )
    elif isinstance(value, str) and any(0xD800 <= ord(char) <= 0xDFFF for char in value):
        needle = "\\u"
        problem = "a string holds a lone surrogate, which is not a character and not portable"
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_values(key, display, text)
            _check_values(item, display, text)
    elif isinstance(value, list):
        for item in value:
            _check_values(item, display, text)
    if problem is not None:
        line, col = _position(text, max(text.find(needle), 0))
        raise JsonRefusal(Diagnostic(display, line, col, "I004", problem))


def load(display: str, raw: bytes) -> tuple[Any, Layout]:
    """The parsed document and its layout; JsonRefusal when it cannot be kept exactly."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise JsonRefusal(
            Diagnostic(display, 1, 1, "I003", f"not UTF-8 (byte {error.start})")
        ) from None
    try:
        data = json.loads(
            text, object_pairs_hook=_pairs(display, text), parse_constant=_constant(display)
        )
    except json.JSONDecodeError as error:
        raise JsonRefusal(
            Diagnostic(display, error.lineno, error.colno, "I003", f"not valid JSON: {error.msg}")
        ) from None
    except RecursionError:
        raise JsonRefusal(Diagnostic(display, 1, 1, "I003", "nested too deeply")) from None
    _check_values(data, display, text)
    layout = _layout(text)
    original = _tokens(text)
    for ascii_only in (layout.ensure_ascii, not layout.ensure_ascii):
        candidate = Layout(
            layout.indent,
            layout.item_separator,
            layout.key_separator,
            ascii_only,
            layout.final_newline,
            layout.newline,
        )
        rewritten = [token for token, _ in _tokens(dump(data, candidate))]
        if rewritten == [token for token, _ in original]:
            return data, candidate
    rewritten = [token for token, _ in _tokens(dump(data, layout))]
    for index, (token, offset) in enumerate(original):
        if index >= len(rewritten) or rewritten[index] != token:
            line, col = _position(text, offset)
            shown = token if len(token) <= 40 else token[:37] + "..."
            again = rewritten[index] if index < len(rewritten) else "nothing"
            raise JsonRefusal(
                Diagnostic(
                    display,
                    line,
                    col,
                    "I004",
                    f"{shown} would be written back as {again[:40]}; the file is left untouched",
                )
            )
    raise JsonRefusal(
        Diagnostic(display, 1, 1, "I004", "the file would not be written back exactly")
    )


@dataclass(frozen=True)
class _Member:
    key: str
    key_start: int  # offset of the key's opening quote
    value_start: int
    value_end: int  # offset just past the value
    value_index: int  # token index of the value's first token


def _skip(tokens: list[tuple[str, int]], index: int) -> int:
    """The token index just past the value starting at `index`."""
    if tokens[index][0] not in "{[":
        return index + 1
    depth = 0
    while True:
        token = tokens[index][0]
        if token in "{[":
            depth += 1
        elif token in "}]":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1


def _object(tokens: list[tuple[str, int]], index: int) -> tuple[list[_Member], int]:
    """Members of the object whose `{` is token `index`, and the offset of its `}`."""
    members = []
    index += 1
    while tokens[index][0] != "}":
        key, key_start = tokens[index]
        value_index = index + 2
        after = _skip(tokens, value_index)
        last, last_offset = tokens[after - 1]
        members.append(
            _Member(
                json.loads(key),
                key_start,
                tokens[value_index][1],
                last_offset + len(last),
                value_index,
            )
        )
        index = after + 1 if tokens[after][0] == "," else after
    return members, tokens[index][1]


def _nested(value: Any, layout: Layout, level: int) -> str:
    flat = Layout(
        layout.indent, layout.item_separator, layout.key_separator, layout.ensure_ascii, False
    )
    text = dump(value, flat)
    if layout.indent is None:
        return text
    lines = text.split("\n")
    indented = [lines[0], *(layout.indent * level + line for line in lines[1:])]
    return layout.newline.join(indented)


@dataclass(frozen=True)
class _Source:
    text: str
    tokens: list[tuple[str, int]]
    layout: Layout


def _rewrite_object(
    source: _Source, index: int, old: dict[str, Any], new: dict[str, Any], level: int
) -> str:
    """The new text of the object at token `index`: unchanged members byte for byte."""
    text, tokens, layout = source.text, source.tokens, source.layout
    members, close = _object(tokens, index)
    opened = tokens[index][1]
    if not members or [m.key for m in members] != list(old):
        return _nested(new, layout, level)
    kept = [m for m in members if m.key in new]
    order = [m.key for m in kept]
    if [key for key in new if key in old] != order:
        return _nested(new, layout, level)  # reordered: nothing to keep in place
    if not kept and not new:
        return "{}"
    pieces: list[str] = []
    for number, member in enumerate(kept):
        if number == 0:
            pieces.append(text[opened : members[0].key_start])
        else:
            # The separator that followed the previous kept member in the original.
            previous = kept[number - 1]
            following = members[members.index(previous) + 1]
            pieces.append(text[previous.value_end : following.key_start])
        pieces.append(text[member.key_start : member.value_start])
        pieces.append(_member_value(source, member, old[member.key], new[member.key], level))
    if not kept:
        pieces.append(text[opened : members[0].key_start])
    inner = layout.indent * (level + 1) if layout.indent is not None else ""
    for number, key in enumerate(key for key in new if key not in old):
        name = json.dumps(key, ensure_ascii=layout.ensure_ascii)
        value = _nested(new[key], layout, level + 1)
        if kept or number:
            pieces.append(layout.item_separator + (layout.newline + inner if layout.indent else ""))
        pieces.append(f"{name}{layout.key_separator}{value}")
    pieces.append(text[members[-1].value_end : close + 1])
    return "".join(pieces)


def _member_value(source: _Source, member: _Member, old: Any, new: Any, level: int) -> str:
    """A kept member's value: its old text if unchanged, else rewritten as little as may be."""
    if old == new and type(old) is type(new):
        return source.text[member.value_start : member.value_end]
    if isinstance(old, dict) and isinstance(new, dict) and old:
        return _rewrite_object(source, member.value_index, old, new, level + 1)
    if isinstance(old, list) and isinstance(new, list) and old:
        return _rewrite_array(source, member.value_index, old, new, level + 1)
    return _nested(new, source.layout, level + 1)


def _elements(tokens: list[tuple[str, int]], index: int) -> tuple[list[tuple[int, int]], int]:
    """(start, end) offsets of each element of the array whose `[` is token `index`,
    and the offset of its `]`."""
    spans = []
    index += 1
    while tokens[index][0] != "]":
        after = _skip(tokens, index)
        last, last_offset = tokens[after - 1]
        spans.append((tokens[index][1], last_offset + len(last)))
        index = after + 1 if tokens[after][0] == "," else after
    return spans, tokens[index][1]


def _same(a: Any, b: Any) -> bool:
    return bool(a == b and type(a) is type(b))


def _separator(
    text: str, spans: list[tuple[int, int]], before: int | None, after: int | None, default: str
) -> str:
    """The text between two elements: the source's own where either side stood in it (so
    taking an inserted element out again gives the source back), else `default`."""
    if before is not None and before + 1 < len(spans):
        return text[spans[before][1] : spans[before + 1][0]]
    if after is not None and after > 0:
        return text[spans[after - 1][1] : spans[after][0]]
    return default


def _rewrite_array(source: _Source, index: int, old: list[Any], new: list[Any], level: int) -> str:
    """The new text of the array at token `index`: the elements `new` keeps from `old`, in
    their order, stay byte for byte; inserted elements are written in the file's layout.

    This is what lets an install add its entries beside a user's inline hook, and an
    uninstall take them out again, without touching the user's text.
    """
    text, tokens, layout = source.text, source.tokens, source.layout
    spans, close = _elements(tokens, index)
    opened = tokens[index][1]
    kept: list[int | None] = []  # per element of `new`: the index of the old one it keeps
    cursor = 0
    for item in new:
        found = next((k for k in range(cursor, len(old)) if _same(old[k], item)), None)
        kept.append(found)
        if found is not None:
            cursor = found + 1
    if not any(k is not None for k in kept):
        return _nested(new, layout, level)
    if len(spans) > 1:
        separator = text[spans[0][1] : spans[1][0]]
    else:
        inner = layout.indent * (level + 1) if layout.indent is not None else ""
        separator = layout.item_separator + (
            layout.newline + inner if layout.indent is not None else ""
        )
    pieces = [text[opened : spans[0][0]]]
    previous: int | None = None
    for number, (item, origin) in enumerate(zip(new, kept, strict=True)):
        if number:
            pieces.append(_separator(text, spans, previous, origin, separator))
        previous = origin
        if origin is not None:
            start, end = spans[origin]
            pieces.append(text[start:end])
        else:
            pieces.append(_nested(item, layout, level + 1))
    pieces.append(text[spans[-1][1] : close + 1])
    return "".join(pieces)


def rewrite(text: str, old: Any, new: Any, layout: Layout) -> str:
    """`text` (whose document is `old`) rewritten to hold `new`, changing as little as it can.

    Members whose values did not change stay byte for byte (their spacing, their inline
    arrays); a changed object is rewritten member by member and a changed array element by
    element (the elements it keeps stay byte for byte); other changed values, and added
    members and elements, are written in the file's layout.
    """
    if not isinstance(old, dict) or not isinstance(new, dict) or not old:
        return dump(new, layout)
    tokens = _tokens(text)
    start = tokens[0][1]
    body = _rewrite_object(_Source(text, tokens, layout), 0, old, new, 0)
    _, close = _object(tokens, 0)
    return text[:start] + body + text[close + 1 :]
