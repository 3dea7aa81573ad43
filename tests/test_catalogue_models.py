"""The catalogue's models (`catalogue/models.py`) hold strict shapes for the values that
reach a registration, a table or a picture.

Event names, harness spellings and matchers come from safe character sets (a newline,
a fence, a quote or a shell character is C002); a tool event's matcher names only known
tools (C005).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

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
    c005 = [f for f in found if f.code == "C005"]
    assert [(f.path, f.code) for f in c005] == [("catalog/hooks.toml", "C005")]
    assert "'Wirte'" in c005[0].message
    # The entry is now another one: each guard wired into PreToolUse Write names a missing entry.
    rest = sorted((f.path, f.code) for f in found if f.code != "C005")
    wired = [
        f"catalog/guards/{path.name}"
        for path in sorted((project / "catalog/guards").glob("*.toml"))
        if 'matcher = "Write" }' in path.read_text(encoding="utf-8")
    ]
    assert rest == [(path, "U005") for path in wired] and wired


def test_dispatch_event_with_a_shell_character_is_c002(project: Path, cli: Cli) -> None:
    edit(project / "catalog/hooks.toml", 'event = "Stop"', 'event = "Stop;$(touch pwned)"')
    assert ("catalog/hooks.toml", "C002") in _codes(cli)
