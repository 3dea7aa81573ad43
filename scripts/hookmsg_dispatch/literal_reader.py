"""`literal.required`'s reading of a pattern: the literals one of which every match holds.

Conservative: any construct it does not know makes it give up (None: always compile), so a
prefilter built from it can only ever skip a search that would have found nothing. A module
of its own because the dispatch table answers for its patterns (`literals`): most calls
never read one. Standard library only.
"""

from __future__ import annotations

_QUANTIFIERS = frozenset("*+?{")
_ESCAPED_LITERALS = frozenset(".^$*+?{}[]\\|()-/#&~ '\"!%,:;<=>@`")


class _GiveUp(Exception):
    """The source holds a construct this reader does not know: no prefilter."""


def required(source: str) -> tuple[frozenset[str], bool] | None:
    """(literals, ignore case): every match of `source` contains one of the literals.

    None when no such set is known (a construct not read here, or an alternative that
    needs no literal at all).
    """
    ignore = False
    if source.startswith("(?"):
        flags_end = source.find(")")
        flags = source[2:flags_end] if flags_end > 2 else ""
        if flags and all(c in "aimsux" for c in flags):  # leading inline flags
            if "x" in flags:
                return None  # verbose: whitespace and comments are not literals
            ignore = "i" in flags
            source = source[flags_end + 1 :]
    try:
        found, end = _alternatives(source, 0)
    except (_GiveUp, IndexError):
        return None
    if end != len(source) or found is None or not all(found):
        return None
    return (frozenset(s.lower() for s in found) if ignore else frozenset(found)), ignore


def _alternatives(source: str, at: int) -> tuple[frozenset[str] | None, int]:
    """Alternatives from `at` up to a closing `)` or the end: the literals one of which each
    match contains, and where it stopped."""
    sets: list[frozenset[str] | None] = []
    while True:
        found, at = _sequence(source, at)
        sets.append(found)
        if at < len(source) and source[at] == "|":
            at += 1
            continue
        break
    if any(found is None for found in sets):
        return None, at
    union: frozenset[str] = frozenset().union(*[s for s in sets if s is not None])
    return union, at


def _sequence(source: str, at: int) -> tuple[frozenset[str] | None, int]:
    """One alternative: its best required set (the one whose shortest literal is longest)."""
    best: frozenset[str] | None = None
    run = ""

    def keep(candidate: frozenset[str] | None) -> None:
        nonlocal best
        if (
            candidate
            and all(candidate)
            and (best is None or min(map(len, candidate)) > min(map(len, best)))
        ):
            best = candidate

    while at < len(source) and source[at] not in "|)":
        item, group, at = _atom(source, at)
        optional, repeated, at = _quantifier(source, at)
        if item is not None and not optional:
            run += item
            if repeated:  # `a+`: one `a` is certain, what follows may come after more
                keep(frozenset([run]))
                run = ""
            continue
        keep(frozenset([run]) if run else None)
        run = ""
        if group is not None and not optional:
            keep(group)
    keep(frozenset([run]) if run else None)
    return best, at


def _atom(source: str, at: int) -> tuple[str | None, frozenset[str] | None, int]:
    """The atom at `at`: a literal character (else None), what a group there requires, and
    where the atom ends (before its quantifier)."""
    char = source[at]
    if char == "\\":
        escaped = source[at + 1]
        if escaped in _ESCAPED_LITERALS:
            return escaped, None, at + 2
        if escaped in "swdSWDbBAZ":
            return None, None, at + 2  # a class or a zero-width assertion: no literal
        raise _GiveUp(escaped)  # \x.., \1, \n ...: not read here
    if char == "(":
        end, group = _group(source, at)
        return None, group, end
    if char == "[":
        return None, None, _class_end(source, at)
    if char in ".^$":
        return None, None, at + 1
    if char in _QUANTIFIERS:
        raise _GiveUp(char)  # a quantifier with nothing before it
    return char, None, at + 1


def _group(source: str, at: int) -> tuple[int, frozenset[str] | None]:
    """A group from its `(`: where it ends, and what it requires (None for a lookaround)."""
    at += 1
    lookaround = False
    if source.startswith("?:", at):
        at += 2
    elif source.startswith(("?=", "?!"), at):
        at, lookaround = at + 2, True
    elif source.startswith(("?<=", "?<!"), at):
        at, lookaround = at + 3, True
    elif source.startswith("?P<", at):
        at = source.index(">", at) + 1
    elif source.startswith("?", at):
        raise _GiveUp("(?")
    found, at = _alternatives(source, at)
    if at >= len(source) or source[at] != ")":
        raise _GiveUp("unclosed group")
    return at + 1, None if lookaround else found


def _class_end(source: str, at: int) -> int:
    """Just past the character class that opens at `at`."""
    at += 1
    if at < len(source) and source[at] == "^":
        at += 1
    if at < len(source) and source[at] == "]":
        at += 1  # a leading `]` is a member
    while source[at] != "]":
        at += 2 if source[at] == "\\" else 1
    return at + 1


def _quantifier(source: str, at: int) -> tuple[bool, bool, int]:
    """(the item may be absent, it may repeat, where the quantifier ends)."""
    if at >= len(source) or source[at] not in _QUANTIFIERS:
        return False, False, at
    char = source[at]
    if char == "{":
        end = source.find("}", at)
        parts = source[at + 1 : end].split(",") if end > at else []
        if not parts or len(parts) > 2 or not parts[0].isdigit():
            raise _GiveUp("{")  # a literal brace, or a form not read here
        if not all(part.isdigit() for part in parts[1:] if part):
            raise _GiveUp("{")
        optional, at = int(parts[0]) == 0, end + 1
    else:
        optional, at = char in "*?", at + 1
    if at < len(source) and source[at] in "?+":
        at += 1  # lazy or possessive: the same minimum
    return optional, char != "?", at
