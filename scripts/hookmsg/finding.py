"""One constructor per code, for the rules whose problems are found while reading.

The readers (the skill loader, the front matter reader, the installer) find each problem
as they parse and report it through a constructor made here, so the finding itself is
still produced inside the rules package. Each takes the path shown, the line, the column
and the text that says what was found.
"""

from __future__ import annotations

from collections.abc import Callable

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic

Finding = Callable[[str, int, int, str], Diagnostic]


def finding_for(code: Code) -> Finding:
    """The constructor of `code`'s findings."""

    def make(display: str, line: int, col: int, message: str) -> Diagnostic:
        return Diagnostic(display, line, col, code, message)

    return make
