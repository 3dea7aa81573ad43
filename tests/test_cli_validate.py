"""`hookmsg validate` on this repository as committed: clean, and silent when clean.

The environment tests run this file again under other settings (`tests/test_environment.py`);
hostile input, fuzzing and linear time are in `test_cli_validate_linear.py` and
`test_cli_validate_fuzz.py`, one test per code in `test_codes.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support.diagnostics import Result


def test_repository_is_clean(project: Path, cli: Callable[..., Result]) -> None:
    result = cli("validate")
    assert result.code == 0, result.out + result.err
    assert result.out == ""
