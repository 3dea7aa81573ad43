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


def emit(diagnostics: Sequence[Diagnostic], fmt: str) -> None:
    # JSON is always printed, even empty, so a tool can parse every run's output.
    if diagnostics or fmt == "json":
        sys.stdout.write(format_diagnostics(diagnostics, fmt))


def note(text: str) -> None:
    """A line for people, on standard error so standard output stays machine-readable."""
    sys.stderr.write(text + "\n")


def summary(diagnostics: Sequence[Diagnostic], checked: str) -> str:
    if not diagnostics:
        return f"{checked}: no problems found"
    files = len({d.path for d in diagnostics})
    noun = "problem" if len(diagnostics) == 1 else "problems"
    return f"{checked}: {len(diagnostics)} {noun} in {files} file{'s' if files != 1 else ''}"
