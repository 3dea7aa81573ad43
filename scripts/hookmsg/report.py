"""Printing findings: the output format, and the summary for people."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from hookmsg.diagnostics import Diagnostic, format_diagnostics


def choose_format(requested: str | None) -> str:
    """The requested format; else GitHub annotations inside GitHub Actions; else text."""
    if requested:
        return requested
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def writes_utf8() -> bool:
    """Does standard output encode UTF-8? (Not under a non-UTF-8 locale.)"""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    return encoding == "utf8"


def use_colour() -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    return "NO_COLOR" not in os.environ and sys.stdout.isatty()


def _colour(line: str) -> str:
    location, sep, rest = line.partition(": ")
    code, _, message = rest.partition(" ")
    if not sep:
        return line
    return f"\033[1m{location}\033[0m: \033[1;31m{code}\033[0m {message}"


def emit(diagnostics: Sequence[Diagnostic], fmt: str) -> None:
    # JSON is always printed, even empty, so a tool can parse every run's output.
    if not diagnostics and fmt != "json":
        return
    text = format_diagnostics(diagnostics, fmt, ascii=not writes_utf8())
    if fmt == "text" and use_colour():
        text = "".join(_colour(line) + "\n" for line in text.splitlines())
    sys.stdout.write(text)


def note(text: str) -> None:
    """A line for people, on standard error so standard output stays machine-readable."""
    sys.stderr.write(text + "\n")


def summary(diagnostics: Sequence[Diagnostic], checked: str) -> str:
    if not diagnostics:
        return f"{checked}: no problems found"
    files = len({d.path for d in diagnostics})
    noun = "problem" if len(diagnostics) == 1 else "problems"
    return f"{checked}: {len(diagnostics)} {noun} in {files} file{'s' if files != 1 else ''}"
