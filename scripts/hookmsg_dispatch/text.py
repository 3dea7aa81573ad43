"""The text a call emits: placeholder values made safe, Advisories filled, the cap kept.

No template engine at run time: an Advisory holds only plain `{{ name }}` placeholders
(the build refuses anything else), so a scan for `{{` ... `}}` fills it. Standard library
only, Python 3.9 or newer.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, Callable

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
_TABLE = {**_REMOVED, **_SPACES}


def sanitise(value: str, limit: int = VALUE_LIMIT, in_code: bool = True) -> str:
    """A placeholder value fit to quote: one line, no hidden characters, and no backtick
    that could end the code span around it (`in_code`) or open one it never closes: in
    prose, a value's paired backticks (a question naming `tenant_id`) are kept as written."""
    clean = str(value).translate(_TABLE).strip()
    if in_code or clean.count("`") % 2:
        clean = clean.replace("`", "'")
    return clean if len(clean) <= limit else clean[: limit - 1] + ELLIPSIS


def fill(template: str, values: Mapping[str, str]) -> str:
    """`template` with each `{{ name }}` replaced by its sanitised value (inside a code
    span of the template, a value's backticks become quotes).

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
        in_code = template.count("`", 0, start) % 2 == 1
        parts += [template[position:start], sanitise(values[name], in_code=in_code)]
        position = end + 2


def cap_of(table: Mapping[str, Any], environ: Mapping[str, str], problems: list[str]) -> int:
    """The cap on what the harness reads: `HOOKMSG_CAP`, else the table's, else 10,000."""
    value = environ.get("HOOKMSG_CAP", "")
    if value:
        # ASCII digits only: `str.isdigit` is true of "²", which `int` refuses.
        if value.isascii() and value.isdigit() and len(value) <= 12 and int(value) > 0:
            return int(value)
        problems.append(f"HOOKMSG_CAP='{value[:40]}' is not a positive whole number; ignored")
    cap = table.get("cap")
    return cap if isinstance(cap, int) and cap > 0 else 10_000


def within_cap(
    parts: Sequence[tuple[str, str]],
    cap: int,
    head: str = "",
    where: str = "",
    *,
    size: Callable[[str], int] = len,
    overhead: int = 0,
) -> tuple[str, list[str]]:
    """Join `(name, text)` parts under `head`, whole parts in order, within `cap`.

    `size` counts a text as the harness will count it once it is in its envelope, and
    `overhead` is what the envelope adds (`envelope.budget`): the answer as a whole stays
    within `cap`. A part that does not fit is left out (later, shorter ones may still fit)
    and one last line names what was left out. Returns the text and the names left out.
    """
    room = cap - overhead
    gap = size(SEPARATOR)
    kept: list[tuple[str, str, int]] = []
    left_out: list[str] = []
    total = size(head) if head else 0
    for name, text in parts:
        cost = size(text)
        grown = total + (gap if head or kept else 0) + cost
        if grown <= room:
            kept.append((name, text, cost))
            total = grown
        else:
            left_out.append(name)
    order = [n for n, _ in parts]
    while left_out:
        note = omission_line(left_out, cap, where)
        body = _join(head, [(n, t) for n, t, _ in kept])
        if total + gap + size(note) <= room or not kept:
            text = f"{body}{SEPARATOR}{note}" if body else note
            return _cut(text, room, size), left_out
        name, _, cost = kept.pop()
        total -= cost + (gap if head or kept else 0)
        left_out = sorted([*left_out, name], key=order.index)
    return _join(head, [(n, t) for n, t, _ in kept]), []


def _cut(text: str, room: int, size: Callable[[str], int]) -> str:
    """The longest start of `text` that `size` counts within `room` (sizes add up)."""
    if size(text) <= room:
        return text
    used = 0
    for index, char in enumerate(text):
        used += size(char)
        if used > room:
            return text[:index]
    return text


def omission_line(names: Sequence[str], cap: int, where: str) -> str:
    files = f" (each is in {where}/<name>.md)" if where else ""
    return f"Left out to stay within {cap} characters: {', '.join(names)}{files}."


def _join(head: str, kept: Sequence[tuple[str, str]]) -> str:
    return SEPARATOR.join([head, *(text for _, text in kept)] if head else [t for _, t in kept])
