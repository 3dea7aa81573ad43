"""Regular expressions that import `re` only when a text could match them.

Importing `re` costs a hook call about as much as starting the interpreter. Most calls
hold nothing a guard's pattern could match, and most patterns need some literal text in
every match: `(?<![\\w.])eval\\s*\\(` cannot match a text without `eval(`-ish `eval`. So
`lazy(source, flags)` reads the pattern's source once, without `re`, for the literals one
of which every match must contain (`required`), and answers `search`, `match`,
`fullmatch`, `finditer` and `findall` with "nothing" when the text holds none of them;
otherwise, and for anything else, it compiles the pattern and asks it. The reading is
conservative: any construct it does not know makes it give up (None: always compile), so
it can only ever skip a search that would have found nothing. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from re import Match, Pattern
    from typing import Any

IGNORECASE = 2  # re.IGNORECASE, without importing `re`
VERBOSE = 64  # re.VERBOSE: whitespace and comments in the source; not read here
_META = frozenset(".^$*+?{}[]\\|()")
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


def could_match(found: tuple[frozenset[str], bool] | None, text: str) -> bool:
    """False only when no match is possible: `text` holds none of the literals."""
    if found is None:
        return True
    literals, ignore = found
    if ignore:
        if not text.isascii():
            return True  # Unicode case folding can match what lower() does not show
        text = text.lower()
    return any(literal in text for literal in literals)


class LiteralMatch:
    """What a match of a plain literal tells: where it is and what it matched."""

    def __init__(self, text: str, start: int, end: int) -> None:
        self.string, self._start, self._end = text, start, end

    def start(self, group: int = 0) -> int:
        return self._start

    def end(self, group: int = 0) -> int:
        return self._end

    def span(self, group: int = 0) -> tuple[int, int]:
        return self._start, self._end

    def group(self, group: int = 0) -> str:
        return self.string[self._start : self._end]

    def __getitem__(self, group: int) -> str:
        return self.group(group)


# Texts up to this long are matched without `re` where `decide` reads the pattern (its
# work grows with the square of the text at worst; a guard's line or command is short).
DECIDE_LIMIT = 200
_END = 1 << 62
_UNREAD = object()


class Deferred:
    """A match known to exist: what it matched is asked of the compiled pattern, when
    someone asks (most callers only test it against None)."""

    def __init__(self, pattern: LazyPattern, how: str, text: str) -> None:
        self._pattern, self._how, self._text = pattern, how, text
        self._real: Any = None

    def _match(self) -> Any:
        if self._real is None:
            self._real = getattr(self._pattern.compiled(), self._how)(self._text)
        return self._real

    def __getattr__(self, name: str) -> Any:
        return getattr(self._match(), name)

    def __getitem__(self, group: Any) -> Any:
        return self._match()[group]

    def __repr__(self) -> str:
        return repr(self._match())


# `required` of the patterns in the dispatch table, worked out when the table was built
# (`literals`: source -> [ignore case, literals], or null): reading a pattern here costs a
# hook call more than the rest of a guard's work.
_KNOWN: dict[str, Any] = {}


def know(literals: Any) -> None:
    """Take the dispatch table's `literals` (anything else is ignored)."""
    if isinstance(literals, dict):
        _KNOWN.update(literals)


def prefilter(source: str) -> tuple[frozenset[str], bool] | None:
    """`required(source)`, from the dispatch table where it holds the answer."""
    known = _KNOWN.get(source, _UNREAD)
    if known is None:
        return None
    if (
        isinstance(known, list)
        and len(known) == 2
        and isinstance(known[0], bool)
        and isinstance(known[1], list)
        and all(isinstance(item, str) and item for item in known[1])
        and known[1]
    ):
        return frozenset(known[1]), known[0]
    return required(source)


class LazyPattern:
    """A pattern compiled on the first text that could match it; a plain literal (no
    character with a meaning in a pattern) is never compiled: `str.find` is its search."""

    def __init__(self, source: str, flags: int) -> None:
        self.pattern = source
        self.flags = flags
        plain = bool(source) and not flags & (VERBOSE | IGNORECASE) and _META.isdisjoint(source)
        self._literal = source if plain else None
        self._found = None if flags & (VERBOSE | IGNORECASE) else prefilter(source)
        self._compiled: Pattern[str] | None = None
        self._tree: Any = _UNREAD  # `hookmsg_dispatch.decide`'s reading; None: unsupported

    def compiled(self) -> Pattern[str]:
        if self._compiled is None:
            import re

            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def _could(self, text: str, pos: int = 0, endpos: int | None = None) -> bool:
        window = text if pos == 0 and endpos is None else text[pos:endpos]
        return could_match(self._found, window)

    def _ask(self, how: str, text: str, pos: int, endpos: int) -> Match[str] | None:
        """`how` ("search", "match", "fullmatch") of a text that could match: decided
        without `re` where the pattern and the text allow, else by the compiled pattern."""
        if pos == 0 and endpos == _END and len(text) <= DECIDE_LIMIT:
            if self._tree is _UNREAD:
                from hookmsg_dispatch import decide

                try:
                    self._tree = decide.parse(self.pattern, self.flags)
                except decide.Unsupported:
                    self._tree = None
            if self._tree is not None:
                from hookmsg_dispatch.decide import matches

                if not matches(self._tree, text, how):
                    return None
                return Deferred(self, how, text)  # type: ignore[return-value]
        found: Match[str] | None = getattr(self.compiled(), how)(text, pos, endpos)
        return found

    def search(self, text: str, pos: int = 0, endpos: int = _END) -> Match[str] | None:
        if self._literal is not None:
            return self._find(text, pos, endpos)  # type: ignore[return-value]
        if not self._could(text, pos, endpos):
            return None
        return self._ask("search", text, pos, endpos)

    def _find(self, text: str, pos: int, endpos: int) -> LiteralMatch | None:
        assert self._literal is not None
        at = text.find(self._literal, pos, endpos)
        return None if at < 0 else LiteralMatch(text, at, at + len(self._literal))

    def match(self, text: str, pos: int = 0, endpos: int = _END) -> Match[str] | None:
        if not self._could(text, pos, endpos):
            return None
        return self._ask("match", text, pos, endpos)

    def fullmatch(self, text: str, pos: int = 0, endpos: int = _END) -> Match[str] | None:
        if not self._could(text, pos, endpos):
            return None
        return self._ask("fullmatch", text, pos, endpos)

    def finditer(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> Iterator[Match[str]]:
        if self._literal is not None:
            return self._each(text, pos, endpos)  # type: ignore[return-value]
        if not self._could(text, pos, endpos):
            return iter(())
        return self.compiled().finditer(text, pos, endpos)

    def _each(self, text: str, pos: int, endpos: int) -> Iterator[LiteralMatch]:
        found = self._find(text, pos, endpos)
        while found is not None:
            yield found
            found = self._find(text, found.end(), endpos)

    def findall(self, text: str, pos: int = 0, endpos: int = 1 << 62) -> list[Any]:
        if not self._could(text, pos, endpos):
            return []
        return self.compiled().findall(text, pos, endpos)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled(), name)  # anything else: the real pattern


def lazy(source: str, flags: int = 0) -> LazyPattern:
    return LazyPattern(source, flags)


def glob_match(name: str, glob: str) -> bool:
    """`fnmatch.fnmatchcase(name, glob)` without `re` for globs whose only wildcard is `*`."""
    if not any(char in glob for char in "*?["):
        return name == glob
    if "?" in glob or "[" in glob:
        import fnmatch

        return fnmatch.fnmatchcase(name, glob)
    head, *middle, tail = glob.split("*")
    if len(name) < len(head) + len(tail) or not name.startswith(head) or not name.endswith(tail):
        return False
    at, stop = len(head), len(name) - len(tail)
    for part in middle:
        found = name.find(part, at, stop)
        if found < 0:
            return False
        at = found + len(part)
    return True
