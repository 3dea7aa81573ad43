"""Strict shapes for catalogue values that reach a registration, a table or a picture,
and renderers that escape for their target.

Event names, harness spellings and matchers come from safe character sets (a newline,
a fence, a quote or a shell character is C002); a tool event's matcher names only known
tools (C005); Markdown table cells escape HTML and pipes; Mermaid labels are quoted and
entity-escaped, and node ids are hashes, so two names never share a node.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.render.inventory import cell
from hookmsg.render.wiring import label, node_id
from tests.support.diagnostics import Result, run_findings
from tests.support.harnesses import harness_override
from tests.support.repository import files_under
from tests.support.text import edit

Cli = Callable[..., Result]


def _codes(cli: Cli) -> set[tuple[str, str]]:
    return {(f.path, f.code) for f in run_findings(cli, "validate")}


@pytest.mark.slow
@pytest.mark.parametrize(
    "spelling",
    [
        "Stop;$(touch pwned-event)",
        "Stop\\n```\\n[x](javascript:alert(1))",
        'Stop\\"',
        "Stop`",
        "",
    ],
)
def test_harness_event_spelling_from_a_safe_set(project: Path, cli: Cli, spelling: str) -> None:
    edit(harness_override(project), 'Stop = "Stop"', f'Stop = "{spelling}"')
    assert ("catalog/harnesses.toml", "C002") in _codes(cli)
    assert cli("build").code == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "matcher",
    ["Write\\n```\\nflowchart", "Write;rm -rf /", 'Write\\"', "Write|", "(Write)"],
)
@pytest.mark.parametrize(
    "entry", ['matcher = "Write"', 'matcher = "compact"'], ids=["tool event", "session source"]
)
def test_matcher_from_a_safe_set(project: Path, cli: Cli, entry: str, matcher: str) -> None:
    # The SessionStart entry wires no guard, so no other finding stops the build: only the
    # shape rule keeps the value out of the wiring diagram and the registrations.
    before = files_under(project / "generated")
    edit(project / "catalog/hooks.toml", entry, f'matcher = "{matcher}"')
    assert ("catalog/hooks.toml", "C002") in _codes(cli)
    assert cli("build").code == 1
    assert files_under(project / "generated") == before


def test_matcher_naming_an_unknown_tool_is_c005(project: Path, cli: Cli) -> None:
    edit(project / "catalog/hooks.toml", 'matcher = "Write"', 'matcher = "Write|Wirte"')
    found = run_findings(cli, "validate")
    assert [(f.path, f.code) for f in found] == [("catalog/hooks.toml", "C005")]
    assert "'Wirte'" in found[0].message


def test_dispatch_event_with_a_shell_character_is_c002(project: Path, cli: Cli) -> None:
    edit(project / "catalog/hooks.toml", 'event = "Stop"', 'event = "Stop;$(touch pwned)"')
    assert ("catalog/hooks.toml", "C002") in _codes(cli)


def test_table_cells_escape_html_and_pipes() -> None:
    assert cell("<script>alert(1)</script> | x & y") == (
        "&lt;script&gt;alert(1)&lt;/script&gt; \\| x &amp; y"
    )
    assert cell("two\nlines") == "two lines"


def test_mermaid_labels_are_one_quoted_line_of_entities() -> None:
    text = label('a"b<c>d`e&f\n```\n[x](javascript:alert(1))')
    assert text.startswith('"') and text.endswith('"')
    inner = text[1:-1]
    assert not set(inner) & set('"<>`\n')
    assert "#quot;" in inner and "#96;" in inner and "#lt;" in inner


def test_node_ids_are_stable_hashes_that_never_collide_on_spelling() -> None:
    assert node_id("matcher", "SessionStart", "com-pact") != node_id(
        "matcher", "SessionStart", "com.pact"
    )
    assert node_id("event", "Stop") == node_id("event", "Stop")
    assert node_id("event", "Stop").removeprefix("event_").isalnum()


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
