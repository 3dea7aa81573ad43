"""`scripts/guard_precision.py`: a ratio over no cases is not a figure that meets a target."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from hookmsg.install.guard_cases import Score

REPO = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    path = REPO / "scripts" / "guard_precision.py"
    spec = importlib.util.spec_from_file_location("guard_precision_under_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_guard_with_no_cases_says_so_and_misses_the_target() -> None:
    line, ok = _script().figures(Score(), 0.95)
    assert "no cases" in line
    assert "1.000" not in line
    assert not ok


def test_a_guard_with_only_one_kind_of_case_is_not_measured() -> None:
    only_fire = Score(fire_fired=3)
    line, ok = _script().figures(only_fire, 0.95)
    assert "no cases that must stay silent" in line and not ok
    only_silent = Score(silent_silent=4)
    line, ok = _script().figures(only_silent, 0.95)
    assert "no cases that must fire" in line and not ok


def test_a_measured_guard_reports_its_figures() -> None:
    line, ok = _script().figures(Score(fire_fired=19, fire_silent=1, silent_silent=20), 0.95)
    assert "40 cases  precision 1.000  recall 0.950  ok" in line
    assert ok


def test_an_empty_corpus_misses_the_target(tmp_path: Path, capsys: object) -> None:
    empty = tmp_path / "corpus"
    empty.mkdir()
    assert _script().measure([empty]) is False
