"""The message model: one read, one block-level parse, one typed `Message`.

Data only: this module knows the shape of a message file, not its rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from hookmsg.inputs.source import SourceText
from hookmsg.messages.spans import code_spans

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

# Nesting (lists, blockquotes) deeper than this is refused: markdown-it silently drops
# the rest of a file past its limit, which would hide sections. 100 levels is far beyond
# real prose and still far from Python's recursion limit.
NESTING_LIMIT = 100

BINDINGS = "Bindings"
ADVISORY = "Advisory"
GLYPHS = "→←↑↓↔"

# A licence-like first line: an SPDX comment, whatever its spelling or id. The keyword is
# found by a lookahead (one forward scan), not by `.*(spdx|licence).*-->`, whose
# backtracking is quadratic in a line of many keywords and no `-->`.
LICENCE_LIKE = re.compile(r"^\s*<!--(?=.*?(?:spdx|licen[cs]e)).*-->\s*$", re.IGNORECASE)
_BINDINGS_TITLE = re.compile(r"^Bindings(?:\s.*)?$")
_BULLET = re.compile(r"^\*\*(?P<label>[^*]+?)\*\*(?P<text>.*)$", re.DOTALL)


@dataclass(frozen=True)
class Section:
    """A top-level `##` section (or the preamble before the first one), 1-based and inclusive."""

    title: str
    heading_line: int | None
    start: int
    end: int

    @property
    def body_start(self) -> int:
        return self.start + 1 if self.heading_line is not None else self.start

    @property
    def is_bindings(self) -> bool:
        return self.heading_line is not None and bool(_BINDINGS_TITLE.match(self.title))

    @property
    def is_advisory(self) -> bool:
        return self.heading_line is not None and self.title == ADVISORY


@dataclass(frozen=True)
class CodeSpan:
    text: str
    line: int
    col: int


@dataclass(frozen=True)
class Binding:
    """One bullet of the Bindings section."""

    line: int
    label: str | None
    direction: str | None
    glyph: str | None
    text: str
    code_spans: tuple[CodeSpan, ...]


@dataclass(frozen=True)
class Message:
    """A parsed message file."""

    path: Path
    display: str
    name: str
    lines: tuple[str, ...]
    had_bom: bool
    licence_line: str | None
    title: str | None
    title_line: int | None
    sections: tuple[Section, ...]
    code_lines: frozenset[int]
    bindings: tuple[Binding, ...]
    stray_binding_lines: tuple[int, ...]
    delivered_lines: tuple[int, ...]
    # The first line nested past NESTING_LIMIT, where parsing stopped; None when complete.
    too_deep_line: int | None = None

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    @property
    def headed_sections(self) -> tuple[Section, ...]:
        return tuple(s for s in self.sections if s.heading_line is not None)

    @property
    def bindings_sections(self) -> tuple[Section, ...]:
        return tuple(s for s in self.sections if s.is_bindings)

    @property
    def advisory_sections(self) -> tuple[Section, ...]:
        return tuple(s for s in self.sections if s.is_advisory)

    def section_text(self, section: Section) -> tuple[str, int]:
        """The section's body without its heading, trimmed, and the line it starts on."""
        numbers = range(section.body_start, section.end + 1)
        body = [n for n in numbers if self.line(n).strip()]
        if not body:
            return "", section.body_start
        return "\n".join(self.line(n) for n in range(body[0], body[-1] + 1)), body[0]

    @property
    def advisory(self) -> tuple[str, int] | None:
        sections = self.advisory_sections
        return self.section_text(sections[0]) if sections else None

    @cached_property
    def delivered(self) -> str:
        """What reaches the assistant: no licence line, no Bindings section, trimmed."""
        lines = self.lines  # every delivered line number is one of them
        return "\n".join([lines[n - 1] for n in self.delivered_lines]).strip()


@cache
def markdown_parser() -> MarkdownIt:
    """One block-level CommonMark parser, built once: inline parsing is never needed here."""
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"maxNesting": NESTING_LIMIT})
    parser.core.ruler.disable(["inline"])
    # Setext headings are never sections and link reference definitions carry nothing a
    # rule reads, so neither needs recognising: their lines stay paragraphs (and rules).
    # Together this saves about 15% of the parse.
    parser.block.ruler.disable(["lheading", "reference"])
    return parser


def _split_lines(text: str) -> tuple[str, ...]:
    # Split on LF only: str.splitlines() also breaks on \x0c, \x1c-\x1e, \x85, \u2028
    # and \u2029, which markdown-it does not, and line numbers would drift.
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return tuple(lines)


def _code_spans(lines: tuple[str, ...], first: int, last: int) -> tuple[CodeSpan, ...]:
    spans = []
    for number in range(first, last + 1):
        line = lines[number - 1]
        for _, _, start, end in code_spans(line):
            spans.append(CodeSpan(line[start:end].strip(), number, start + 1))
    return tuple(spans)


def _binding(content: str, lines: tuple[str, ...], first: int, last: int) -> Binding:
    text = " ".join(part.strip() for part in content.split("\n"))
    spans = _code_spans(lines, first, last)
    match = _BULLET.match(text)
    if not match:
        return Binding(first, None, None, None, text, spans)
    label = match.group("label").strip()
    glyph = label[-1] if label and label[-1] in GLYPHS else None
    direction = label[:-1].strip() if glyph else label
    return Binding(first, label, direction, glyph, match.group("text").strip(), spans)


def _title(tokens: list[Token], lines: tuple[str, ...]) -> tuple[str | None, int | None]:
    for index, token in enumerate(tokens):
        if token.level != 0 or token.nesting == -1 or token.map is None:
            continue
        if token.type == "html_block" and LICENCE_LIKE.match(lines[token.map[0]]):
            continue
        if token.type == "heading_open" and token.tag == "h1":
            return tokens[index + 1].content.strip() or None, token.map[0] + 1
        if token.type == "paragraph_open":
            first = tokens[index + 1].content.split("\n", 1)[0].strip()
            return first or None, token.map[0] + 1
        return None, None
    return None, None


@dataclass
class _Blocks:
    """What one pass over the tokens finds: code lines, `##` headings, list items, depth."""

    code_lines: set[int] = field(default_factory=set)
    headings: list[tuple[int, str]] = field(default_factory=list)
    items: list[int] = field(default_factory=list)  # top-level `-` items: binding candidates
    too_deep: int | None = None


def _scan_blocks(tokens: Sequence[Token]) -> _Blocks:
    found = _Blocks()
    for index, token in enumerate(tokens):
        if token.map is None:
            continue
        kind = token.type
        if kind in {"fence", "code_block"}:
            found.code_lines.update(range(token.map[0] + 1, token.map[1] + 1))
        # Only real top-level ATX `##` headings are sections: not inside a blockquote or
        # a list (`level > 0`), not inside code (no heading token there at all).
        elif kind == "heading_open" and token.tag == "h2" and token.level == 0:
            if token.markup == "##":
                found.headings.append((token.map[0] + 1, tokens[index + 1].content.strip()))
        elif kind == "list_item_open" and token.level == 1 and token.markup == "-":
            found.items.append(index)
        if token.level >= NESTING_LIMIT - 1 and found.too_deep is None:
            found.too_deep = token.map[0] + 1
    return found


def _sections(headings: list[tuple[int, str]], count: int) -> list[Section]:
    """The text before the first `##` heading (if any), then one section per heading."""
    sections: list[Section] = []
    first_heading = headings[0][0] if headings else count + 1
    if first_heading > 1:
        sections.append(Section("", None, 1, first_heading - 1))
    for position, (line, heading) in enumerate(headings):
        end = headings[position + 1][0] - 1 if position + 1 < len(headings) else count
        sections.append(Section(heading, line, line, end))
    return sections


def _bindings(
    sections: list[Section], items: list[int], tokens: Sequence[Token], lines: tuple[str, ...]
) -> tuple[list[Binding], list[int], set[int]]:
    """The bindings sections' list items, their other non-blank lines, and all their lines."""
    bindings: list[Binding] = []
    stray: list[int] = []
    bindings_lines: set[int] = set()
    for section in sections:
        if not section.is_bindings:
            continue
        bindings_lines.update(range(section.start, section.end + 1))
        covered: set[int] = set()
        for index in items:
            token = tokens[index]
            first = token.map[0] + 1 if token.map else 0
            if not section.body_start <= first <= section.end:
                continue
            last = min(token.map[1], section.end) if token.map else first
            covered.update(range(first, last + 1))
            inline = tokens[index + 2] if index + 2 < len(tokens) else None
            content = inline.content if inline is not None and inline.type == "inline" else ""
            bindings.append(_binding(content, lines, first, last))
        stray += [
            n
            for n in range(section.body_start, section.end + 1)
            if n not in covered and lines[n - 1].strip()
        ]
    return bindings, stray, bindings_lines


def parse_message(source: SourceText, licence_line: str) -> Message:
    """Parse a message's text. Never raises on any text."""
    lines = _split_lines(source.text)
    count = len(lines)
    tokens = markdown_parser().parse(source.text)
    blocks = _scan_blocks(tokens)
    sections = _sections(blocks.headings, count)
    bindings, stray, bindings_lines = _bindings(sections, blocks.items, tokens, lines)
    has_licence = bool(lines) and (lines[0] == licence_line or bool(LICENCE_LIKE.match(lines[0])))
    delivered = tuple(
        n for n in range(1, count + 1) if n not in bindings_lines and not (n == 1 and has_licence)
    )
    title, title_line = _title(tokens, lines)
    return Message(
        path=source.path,
        display=source.display,
        name=source.path.stem,
        lines=lines,
        had_bom=source.had_bom,
        licence_line=lines[0] if has_licence else None,
        title=title,
        title_line=title_line,
        sections=tuple(sections),
        code_lines=frozenset(blocks.code_lines),
        bindings=tuple(bindings),
        stray_binding_lines=tuple(stray),
        delivered_lines=delivered,
        too_deep_line=blocks.too_deep,
    )


def parse_text(
    text: str, licence_line: str, display: str = "<text>", path: Path | None = None
) -> Message:
    """Parse message text that is already in memory (a rendered output, a test fixture).

    `path` is where the text belongs (absolute, for resolving its links); `display` is
    how diagnostics name it.
    """
    had_bom = text.startswith("\ufeff")
    clean = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    where = path if path is not None else Path(display)
    return parse_message(SourceText(where, display, clean, had_bom), licence_line)


_PATH_CHARS = re.compile(r"^[A-Za-z0-9_.\-/~]+$")
_EXTENSION = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


def is_repository_path(text: str) -> bool:
    """Does a code span name a file? (`catalog/hooks.toml` yes; `Edit|Write` or `2.4` no.)"""
    if not _PATH_CHARS.match(text) or text.strip("./") == "":
        return False
    return "/" in text or bool(_EXTENSION.search(text))
