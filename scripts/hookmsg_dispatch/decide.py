"""Whether a regular expression matches a short text, decided without importing `re`.

Importing `re` costs a hook call about as much as starting the interpreter, and most
guards only ask whether a pattern matches (`pattern.search(text) is not None`). For the
constructs the catalogue's patterns use (literals, `.`, classes, the escapes `\\d \\s \\w
\\b \\A \\Z` and their negations, groups, alternation, greedy and lazy quantifiers, `^` and
`$`, lookahead and fixed-width lookbehind) `parse` reads a pattern into a small tree and
`matches` answers by following every way through it at once: for each node and starting
position, the set of positions where it can end. That set semantics gives the answer the
backtracking engine gives for these constructs (none of them remembers what it matched).
Anything else - inline flags, back-references, possessive quantifiers, a flag other than
MULTILINE, an escape not read here - is `Unsupported`: the caller compiles the pattern.
The work is at most quadratic in the text, so callers ask only for short texts.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

    from hookmsg_dispatch.literal import LazyPattern

    Node = tuple[Any, ...]

MULTILINE = 8  # re.MULTILINE
UNICODE = 32  # re.UNICODE, the default for a str pattern
_LIMIT = 1000  # the largest repetition bound read here


class Unsupported(Exception):
    """A construct not read here: compile the pattern instead."""


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


_CLASSES: dict[str, Callable[[str], bool]] = {
    "d": str.isdecimal,
    "s": str.isspace,
    "w": _word,
    "D": lambda char: not char.isdecimal(),
    "S": lambda char: not char.isspace(),
    "W": lambda char: not _word(char),
}
_CONTROL = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


class _Parser:
    def __init__(self, source: str, multiline: bool) -> None:
        self.source, self.at, self.multiline = source, 0, multiline

    def peek(self, ahead: int = 0) -> str:
        at = self.at + ahead
        return self.source[at] if at < len(self.source) else ""

    def alternation(self) -> Node:
        branches = [self.sequence()]
        while self.peek() == "|":
            self.at += 1
            branches.append(self.sequence())
        return branches[0] if len(branches) == 1 else ("alt", tuple(branches))

    def sequence(self) -> Node:
        items: list[Node] = []
        while self.peek() not in ("", "|", ")"):
            items.append(self.quantified(self.atom()))
        return ("seq", tuple(items))

    def quantified(self, node: Node) -> Node:
        char = self.peek()
        if char not in ("*", "+", "?", "{"):
            return node
        if node[0] in ("at", "look"):
            raise Unsupported("a repeated assertion")
        if char == "{":
            low, high = self.braces()
        else:
            self.at += 1
            low, high = {"*": (0, None), "+": (1, None), "?": (0, 1)}[char]
        if self.peek() == "?":
            self.at += 1  # lazy: the same matches exist
        if self.peek() in ("*", "+", "?", "{"):
            raise Unsupported("possessive or repeated quantifier")
        return ("rep", node, low, high)

    def braces(self) -> tuple[int, int | None]:
        end = self.source.find("}", self.at)
        parts = self.source[self.at + 1 : end].split(",") if end > 0 else []
        if not parts or len(parts) > 2 or not all(p.isdigit() and p.isascii() for p in parts if p):
            raise Unsupported("{")
        low = int(parts[0]) if parts[0] else 0
        high = (int(parts[1]) if parts[1] else None) if len(parts) == 2 else low
        if (len(parts) == 1 and not parts[0]) or low > _LIMIT or (high or 0) > _LIMIT:
            raise Unsupported("{")
        if high is not None and high < low:
            raise Unsupported("{")
        self.at = end + 1
        return low, high

    def atom(self) -> Node:
        char = self.peek()
        self.at += 1
        if char == "(":
            return self.group()
        if char == "[":
            return self.klass()
        if char == ".":
            return ("set", lambda c: c != "\n")
        if char in ("^", "$"):
            return ("at", ("bol" if char == "^" else "eol") if self.multiline else char)
        if char == "\\":
            return self.escape()
        if char in ("*", "+", "?", "{"):
            raise Unsupported("nothing to repeat")
        return ("set", char.__eq__)

    def group(self) -> Node:
        look: tuple[bool, bool] | None = None  # (ahead, negative)
        if self.peek() == "?":
            head = self.source[self.at : self.at + 3]
            if head.startswith("?:"):
                self.at += 2
            elif head.startswith(("?=", "?!")):
                look, self.at = (True, head[1] == "!"), self.at + 2
            elif head in ("?<=", "?<!"):
                look, self.at = (False, head[2] == "!"), self.at + 3
            elif head == "?P<":
                end = self.source.find(">", self.at)
                if end < 0 or not self.source[self.at + 3 : end].isidentifier():
                    raise Unsupported("(?P")
                self.at = end + 1
            else:
                raise Unsupported("(?")
        inner = self.alternation()
        if self.peek() != ")":
            raise Unsupported("unclosed group")
        self.at += 1
        if look is None:
            return inner
        return ("look", look[0], look[1], inner, 0 if look[0] else _width(inner))

    def escape(self) -> Node:
        char = self.peek()
        self.at += 1
        if char in _CLASSES:
            return ("set", _CLASSES[char])
        if char in ("b", "B", "A", "Z"):
            return ("at", char)
        return ("set", self.literal_escape(char).__eq__)

    def literal_escape(self, char: str) -> str:
        if char == "x":
            digits = self.source[self.at : self.at + 2]
            if len(digits) != 2 or not all(d in "0123456789abcdefABCDEF" for d in digits):
                raise Unsupported("\\x")
            self.at += 2
            return chr(int(digits, 16))
        if char in _CONTROL:
            return _CONTROL[char]
        if not char or char.isalnum() or not char.isascii():
            raise Unsupported("\\" + char)  # a back-reference, \N, \u, an unknown escape
        return char

    def klass(self) -> Node:
        negate = self.peek() == "^"
        self.at += negate
        singles: set[str] = set()
        ranges: list[tuple[str, str]] = []
        tests: list[Callable[[str], bool]] = []
        first = True
        while True:
            char = self.peek()
            if not char:
                raise Unsupported("unclosed class")
            if char == "]" and not first:
                self.at += 1
                break
            if char == "[" or self.source.startswith(("--", "&&", "~~", "||"), self.at):
                raise Unsupported("a possible nested set")  # re warns about these
            first = False
            self.at += 1
            if char == "\\":
                escaped = self.peek()
                self.at += 1
                if escaped in _CLASSES:
                    tests.append(_CLASSES[escaped])
                    continue
                char = self.literal_escape(escaped)
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.at += 1
                high = self.peek()
                self.at += 1
                if high == "\\":
                    escaped = self.peek()
                    self.at += 1
                    if escaped in _CLASSES:
                        raise Unsupported("a class as a range's end")
                    high = self.literal_escape(escaped)
                if high < char:
                    raise Unsupported("bad range")
                ranges.append((char, high))
            else:
                singles.add(char)
        return ("set", _member(frozenset(singles), tuple(ranges), tuple(tests), negate))


def _member(
    singles: frozenset[str],
    ranges: tuple[tuple[str, str], ...],
    tests: tuple[Callable[[str], bool], ...],
    negate: bool,
) -> Callable[[str], bool]:
    def test(char: str) -> bool:
        inside = (
            char in singles
            or any(low <= char <= high for low, high in ranges)
            or any(one(char) for one in tests)
        )
        return inside != negate

    return test


def _width(node: Node) -> int:
    """The fixed width of a lookbehind's pattern (re refuses any other)."""
    kind = node[0]
    if kind == "set":
        return 1
    if kind in ("at", "look"):
        return 0
    if kind == "seq":
        return sum(_width(item) for item in node[1])
    if kind == "alt":
        widths = {_width(branch) for branch in node[1]}
        if len(widths) == 1:
            return widths.pop()
    elif kind == "rep" and node[2] == node[3]:
        return int(node[2]) * _width(node[1])
    raise Unsupported("a lookbehind of variable width")


def parse(source: str, flags: int) -> Node:
    """The tree of `source`, or Unsupported."""
    if flags & ~(MULTILINE | UNICODE):
        raise Unsupported("flags")
    parser = _Parser(source, bool(flags & MULTILINE))
    tree = parser.alternation()
    if parser.at != len(source):
        raise Unsupported("unbalanced )")
    return tree


def _at(kind: str, text: str, at: int) -> bool:
    size = len(text)
    if kind in ("b", "B"):
        return _boundary(kind == "b", text, at)
    if kind in ("^", "A"):
        return at == 0
    if kind == "bol":
        return at == 0 or text[at - 1] == "\n"
    if kind == "Z":
        return at == size
    if kind == "eol":
        return at == size or text[at] == "\n"
    return at == size or (at == size - 1 and text[at] == "\n")  # `$`


def _boundary(wanted: bool, text: str, at: int) -> bool:
    if not text:
        return False  # re finds no boundary (nor its absence) in an empty text
    before = at > 0 and _word(text[at - 1])
    after = at < len(text) and _word(text[at])
    return (before != after) == wanted


class _Run:
    """One text: the end positions of each node from each start, remembered."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.memo: dict[tuple[int, int], frozenset[int]] = {}

    def ends(self, node: Node, at: int) -> frozenset[int]:
        key = (id(node), at)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self._ends(node, at)
        return found

    def _ends(self, node: Node, at: int) -> frozenset[int]:
        kind, text = node[0], self.text
        if kind == "set":
            return frozenset((at + 1,)) if at < len(text) and node[1](text[at]) else frozenset()
        if kind == "seq":
            positions = frozenset((at,))
            for item in node[1]:
                positions = frozenset(end for p in positions for end in self.ends(item, p))
                if not positions:
                    break
            return positions
        if kind == "alt":
            return frozenset(end for branch in node[1] for end in self.ends(branch, at))
        if kind == "rep":
            return self._repeat(node[1], node[2], node[3], at)
        if kind == "at":
            return frozenset((at,)) if _at(node[1], text, at) else frozenset()
        _, ahead, negative, inner, width = node
        if ahead:
            holds = bool(self.ends(inner, at))
        else:
            holds = at >= width and at in self.ends(inner, at - width)
        return frozenset((at,)) if holds != negative else frozenset()

    def _repeat(self, inner: Node, low: int, high: int | None, at: int) -> frozenset[int]:
        current = {at}
        found = {at} if low == 0 else set()
        visited = set(found)
        count = 0
        while current and (high is None or count < high):
            step = {end for p in current for end in self.ends(inner, p)}
            count += 1
            if count >= low:
                # Once the minimum is met, a position reached again adds nothing new.
                step -= visited
                visited |= step
                found |= step
            current = step
        return frozenset(found)


def matches(tree: Node, text: str, how: str) -> bool:
    """Does `tree` match `text`: anywhere ("search"), at its start ("match") or all of it
    ("fullmatch")?"""
    run = _Run(text)
    if how == "match":
        return bool(run.ends(tree, 0))
    if how == "fullmatch":
        return len(text) in run.ends(tree, 0)
    return any(run.ends(tree, start) for start in range(len(text) + 1))


class Deferred:
    """A match `matches` knows exists: what it matched is asked of the compiled pattern, when
    someone asks (most callers only test it against None). Defined here, not in `literal`:
    a call that never reaches `matches` never pays for the class."""

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
