"""The Diagnostic type and its text, JSON and GitHub formats."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Literal

Severity = Literal["error", "warning"]
FORMATS = ("text", "json", "github")


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding at a 1-based line and column of a file."""

    path: str
    line: int
    col: int
    code: str
    message: str
    severity: Severity = "error"

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


def format_diagnostics(diagnostics: Sequence[Diagnostic], fmt: str) -> str:
    """Render diagnostics in one of FORMATS; the result ends with a newline unless empty."""
    if fmt == "json":
        records = [asdict(d) for d in diagnostics]
        return json.dumps(records, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
    if fmt == "github":
        lines = [
            f"::{d.severity} file={_github_escape(d.path, prop=True)},line={d.line},"
            f"col={d.col},title={_github_escape(d.code, prop=True)}::"
            f"{_github_escape(d.code + ' ' + d.message)}"
            for d in diagnostics
        ]
    else:
        lines = [d.render() for d in diagnostics]
    return "".join(line + "\n" for line in lines)
