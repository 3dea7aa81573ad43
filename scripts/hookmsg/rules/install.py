"""Install rules: I003-I009, what `install`, `verify` and `uninstall` find and refuse.

The installer (`installing/`, `commands/verify.py`) finds each problem as it reads a
settings file or an install root and reports it through these, one constructor per code.
Each takes the path shown, the line, the column and the text that says what was found.
"""

from __future__ import annotations

from collections.abc import Callable

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic

Finding = Callable[[str, int, int, str], Diagnostic]


def _finding(code: Code) -> Finding:
    def make(display: str, line: int, col: int, message: str) -> Diagnostic:
        return Diagnostic(display, line, col, code, message)

    return make


not_json = _finding("I003")
not_written_back_exactly = _finding("I004")
unmergeable_shape = _finding("I005")
not_an_install_root = _finding("I006")
absent = _finding("I007")
stale = _finding("I008")
install_root_broken = _finding("I009")
