"""The Diagnostic type and its formats (text, JSON, GitHub annotations), one function each."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Literal, cast

from hookmsg.codes import KNOWN_CODES, Code
from hookmsg.jsonout import dump_json

Severity = Literal["error", "warning"]


_UNPRINTABLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Zl", "Zp"})


def printable(text: str) -> str:
    """`text` with every control, format or separator character written as an escape.

    A diagnostic quotes what it found; quoted raw, a terminal escape could repaint the
    screen, a bidi override reorder what a reviewer reads, a line separator split one
    finding into two lines.
    """
    if text.isprintable():
        return text
    return "".join(
        (
            f"\\x{ord(c):02x}"
            if ord(c) < 0x100
            else f"\\u{ord(c):04x}"
            if ord(c) < 0x10000
            else f"\\U{ord(c):08x}"
        )
        if unicodedata.category(c) in _UNPRINTABLE_CATEGORIES
        else c
        for c in text
    )


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding at a 1-based line and column of a file."""

    path: str
    line: int
    col: int
    code: Code
    message: str
    severity: Severity = "error"
    # Optional detail for machine formats: a unified diff, and the advice that fixes it.
    diff: str = ""
    fix: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", printable(self.path))
        object.__setattr__(self, "message", printable(self.message))

    def render(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}"


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sort by path, then position, then code; drop exact repeats."""
    return sorted(set(diagnostics))


def _github_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _body(diagnostic: Diagnostic) -> str:
    """An annotation's body: the finding, then its diff and its fix, each when present."""
    parts = [f"{diagnostic.code} {diagnostic.message}"]
    if diagnostic.diff:
        parts.append(diagnostic.diff.rstrip("\n"))
    if diagnostic.fix:
        parts.append(diagnostic.fix)
    return "\n".join(parts)


def parse_diagnostic_lines(text: str) -> list[Diagnostic]:
    """Diagnostics from `path:line:col: CODE message` lines (as configuration errors carry)."""
    found = []
    for line in text.splitlines():
        match = _LINE.match(line)
        if match and match["code"] in KNOWN_CODES:
            found.append(
                Diagnostic(
                    match["path"],
                    int(match["line"]),
                    int(match["col"]),
                    cast("Code", match["code"]),
                    match["msg"],
                )
            )
    return found


_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) (?P<msg>.*)$")


def _json(diagnostics: Sequence[Diagnostic], ascii: bool) -> str:
    records = [
        {k: v for k, v in asdict(d).items() if k not in ("diff", "fix") or v} for d in diagnostics
    ]
    return dump_json(records, ascii=ascii)


def _github(diagnostics: Sequence[Diagnostic], ascii: bool) -> str:
    return "".join(
        f"::{d.severity} file={_github_escape(d.path, prop=True)},line={d.line},"
        f"col={d.col},title={_github_escape(d.code, prop=True)}::"
        f"{_github_escape(_body(d))}\n"
        for d in diagnostics
    )


def _text(diagnostics: Sequence[Diagnostic], ascii: bool) -> str:
    return "".join(d.render() + "\n" for d in diagnostics)


# One function per diagnostic format (the `--format` choices of the command line).
FORMATTERS: dict[str, Callable[[Sequence[Diagnostic], bool], str]] = {
    "text": _text,
    "json": _json,
    "github": _github,
}


def format_diagnostics(diagnostics: Sequence[Diagnostic], fmt: str, *, ascii: bool = False) -> str:
    """Render diagnostics in one of FORMATTERS; the result ends with a newline unless empty."""
    formatter = FORMATTERS.get(fmt)
    if formatter is None:
        raise ValueError(f"unknown diagnostic format '{fmt}'; known: {', '.join(FORMATTERS)}")
    return formatter(diagnostics, ascii)


def parse_code_prefixes(values: Iterable[str]) -> tuple[tuple[str, ...], list[str]]:
    """Comma-separated entries from repeated options, upper-cased; and those that match no
    known code (the caller reports them)."""
    entries = [part.strip().upper() for value in values for part in value.split(",")]
    entries = [entry for entry in entries if entry]
    unknown = [e for e in entries if e != "ALL" and not any(c.startswith(e) for c in KNOWN_CODES)]
    return tuple(entries), unknown
