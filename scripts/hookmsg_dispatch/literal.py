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


def required(source: str) -> tuple[frozenset[str], bool] | None:
    """(literals, ignore case): every match of `source` contains one of the literals.

    None when no such set is known (a construct not read here, or an alternative that
    needs no literal at all). A plain text (no pattern character) is its own literal; the
    reading of a pattern is a module of its own (`literal_reader`), which a call loads only
    for a pattern the dispatch table does not answer for.
    """
    if source and _META.isdisjoint(source):
        return frozenset((source,)), False
    from hookmsg_dispatch.literal_reader import required as read

    return read(source)


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


# `required` of the patterns in the dispatch table, worked out when the table was built
# (`literals`: source -> [ignore case, literals], or null): reading a pattern here costs a
# hook call more than the rest of a guard's work.
_KNOWN: dict[str, Any] = {}
# The same as compact JSON text not yet parsed (a guard data file's `literals`): a call
# asks for a few of its patterns, and parsing the whole of it costs more than finding those.
# Each text once, however many calls one process answers (the guard cases run in one),
# the last known last.
_UNPARSED: dict[str, None] = {}


def know(literals: Any) -> None:
    """Take the dispatch table's `literals`, a mapping or its compact JSON text (anything
    else is ignored)."""
    if isinstance(literals, dict):
        _KNOWN.update(literals)
    elif isinstance(literals, str):
        _UNPARSED.pop(literals, None)
        _UNPARSED[literals] = None


def prefilter(source: str) -> tuple[frozenset[str], bool] | None:
    """`required(source)`, from the dispatch table where it holds the answer."""
    known = _KNOWN.get(source, _UNREAD)
    # A source without a pattern's characters is never in the table. The running guard's
    # file came last: its own patterns are there.
    if known is _UNREAD and _UNPARSED and not _META.isdisjoint(source):
        from hookmsg_dispatch.jsonio import member

        for text in reversed(_UNPARSED):
            known = member(text, source, _UNREAD)
            if known is not _UNREAD:
                _KNOWN[source] = known
                break
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
                from hookmsg_dispatch.decide import Deferred, matches

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
