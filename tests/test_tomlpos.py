"""TOML positions (`tomlpos.py`): a file is parsed for positions once, not once per finding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result, run_findings

Cli = Callable[..., Result]


@pytest.mark.slow
def test_positions_of_thousands_of_catalogue_findings_take_linear_work(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 2,000 dispatch entries with unknown events: each finding asks for its line. The
    # file is parsed for positions once, not once per finding (a work count, not a timer).
    from hookmsg import tomlpos

    hooks = project / "catalog/hooks.toml"
    extra = "".join(
        f'\n[[dispatch]]\nevent = "Unknown{i}"\nmessages = ["stop"]\n' for i in range(2000)
    )
    hooks.write_text(hooks.read_text(encoding="utf-8") + extra, encoding="utf-8")
    lines = hooks.read_text(encoding="utf-8").count("\n") + 1
    calls = []
    real_header = tomlpos._header

    def counted(line: str) -> tuple[bool, str] | None:
        calls.append(1)
        return real_header(line)

    monkeypatch.setattr(tomlpos, "_header", counted)
    found = run_findings(cli, "validate")
    assert len(found) >= 2000
    assert len(calls) <= 3 * lines, f"{len(calls)} header parses for {lines} lines"
