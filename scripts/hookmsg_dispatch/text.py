"""The text a call emits: placeholder values made safe, Advisories filled, the cap kept.

No template engine at run time: an Advisory holds only plain `{{ name }}` placeholders
(the build refuses anything else), so a scan for `{{` ... `}}` fills it. Standard library
only, Python 3.9 or newer.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

VALUE_LIMIT = 200
ELLIPSIS = "…"
SEPARATOR = "\n\n"

# Line breaks and tabs become spaces; every other control character, and the characters
# that reorder or hide text (bidirectional controls, zero-width marks), are removed.
_SPACES = dict.fromkeys((0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029), " ")
_REMOVED = dict.fromkeys(
    (
        *range(0x00, 0x20),
        0x7F,
        *range(0x80, 0xA0),
        0x061C,
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2070),
        0xFEFF,
    )
)
_TABLE = {**_REMOVED, **_SPACES, ord("`"): "'"}


def sanitise(value: str, limit: int = VALUE_LIMIT) -> str:
    """A placeholder value fit to quote: one line, no hidden characters, no backticks."""
    clean = str(value).translate(_TABLE).strip()
    return clean if len(clean) <= limit else clean[: limit - 1] + ELLIPSIS


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with each `{{ name }}` replaced by its sanitised value.

    KeyError when a placeholder has no value: the caller drops the message.
    """
    parts: list[str] = []
    position = 0
    while True:
        start = template.find("{{", position)
        end = template.find("}}", start + 2) if start >= 0 else -1
        if start < 0 or end < 0:
            parts.append(template[position:])
            return "".join(parts)
        name = template[start + 2 : end].strip()
        parts += [template[position:start], sanitise(values[name])]
        position = end + 2


def within_cap(
    parts: Sequence[tuple[str, str]], cap: int, head: str = "", where: str = ""
) -> tuple[str, list[str]]:
    """Join `(name, text)` parts under `head`, whole parts in order, at most `cap` characters.

    A part that does not fit is left out (later, shorter ones may still fit) and one last
    line names what was left out. Returns the text and the names left out.
    """
    kept: list[tuple[str, str]] = []
    left_out: list[str] = []
    size = len(head)
    for name, text in parts:
        grown = size + (len(SEPARATOR) if size else 0) + len(text)
        if grown <= cap:
            kept.append((name, text))
            size = grown
        else:
            left_out.append(name)
    while left_out:
        note = omission_line(left_out, cap, where)
        body = _join(head, kept)
        if len(body) + len(SEPARATOR) + len(note) <= cap or not kept:
            text = f"{body}{SEPARATOR}{note}" if body else note
            return text[:cap], left_out
        name, _ = kept.pop()
        left_out = sorted([*left_out, name], key=[n for n, _ in parts].index)
    return _join(head, kept), []


def omission_line(names: Sequence[str], cap: int, where: str) -> str:
    files = f" (each is in {where}/<name>.md)" if where else ""
    return f"Left out to stay within {cap} characters: {', '.join(names)}{files}."


def _join(head: str, kept: Sequence[tuple[str, str]]) -> str:
    return SEPARATOR.join([head, *(text for _, text in kept)] if head else [t for _, t in kept])
