from __future__ import annotations

from pathlib import Path

from tests.support.diagnostics import Result


def test_repository_is_clean(project: Path, cli) -> None:  # type: ignore[no-untyped-def]
    result: Result = cli("validate")
    assert result.code == 0, result.out + result.err
    assert result.out == ""
