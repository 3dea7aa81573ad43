"""The findings' output (`cli/output.py`): formats, colours and the verbose summary, through
the CLI."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result
from tests.support.text import drop_first_line

Cli = Callable[..., Result]


def test_the_format_choices_are_the_table_of_formatters() -> None:
    from hookmsg.cli.arguments import FORMAT_CHOICES
    from hookmsg.diagnostics import FORMATTERS, format_diagnostics

    assert tuple(FORMATTERS) == FORMAT_CHOICES
    with pytest.raises(ValueError, match="unknown diagnostic format 'xml'"):
        format_diagnostics([], "xml")


@pytest.mark.slow
def test_json_format_has_a_stable_schema(project: Path, cli: Cli) -> None:
    drop_first_line(project / "messages" / "stop.md")
    for argv in (("validate", "--format", "json"), ("check", "--format", "json")):
        result = cli(*argv)
        assert result.code == 1
        records = json.loads(result.out)
        assert records and all(
            set(r) == {"path", "line", "col", "code", "severity", "message"} for r in records
        )
        assert any(r["code"] == "L001" and r["path"] == "messages/stop.md" for r in records)


def test_json_format_prints_an_empty_array_when_clean(project: Path, cli: Cli) -> None:
    result = cli("validate", "--format", "json")
    assert (result.code, result.out) == (0, "[]\n")


def test_github_format_is_chosen_inside_github_actions(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop_first_line(project / "messages" / "stop.md")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    result = cli("validate")
    assert result.code == 1
    assert re.search(
        r"^::error file=messages/stop\.md,line=1,col=1,title=L001::L001 missing licence line",
        result.out,
        re.MULTILINE,
    )
    explicit = cli("validate", "--format", "text")
    assert explicit.out.startswith("messages/stop.md:1:1: L001 ")


@pytest.mark.slow
def test_colour_only_on_a_terminal_and_never_with_no_color(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    drop_first_line(project / "messages" / "stop.md")
    import hookmsg.report

    plain = cli("validate")  # captured output is not a terminal
    assert "\033[" not in plain.out

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    with monkeypatch.context() as patch:
        patch.delenv("NO_COLOR", raising=False)
        patch.setattr("sys.stdout", Terminal())
        on_terminal = hookmsg.report.use_colour()
        patch.setenv("NO_COLOR", "1")
        with_no_color = hookmsg.report.use_colour()
    assert on_terminal and not with_no_color

    monkeypatch.setattr(hookmsg.report, "use_colour", lambda: True)
    coloured = cli("validate")
    assert "\033[1;31mL001\033[0m" in coloured.out


def test_verbose_reports_a_summary(project: Path, cli: Cli) -> None:
    quiet = cli("validate")
    assert (quiet.out, quiet.err) == ("", "")
    verbose = cli("validate", "-v")
    assert "no problems found" in verbose.err
