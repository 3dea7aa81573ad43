"""`catalog/guards.toml`: each U code from one broken table, the regex safety check, and the
agreement between the detectors, the guard data and the registry's placeholders."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.catalogue.guards import DETECTORS
from hookmsg.catalogue.regexcheck import nested_quantifier
from hookmsg.codes import CODES
from hookmsg_dispatch.call import Call
from hookmsg_dispatch.guards import PLACEHOLDERS
from tests.support.diagnostics import Result, located, run_findings
from tests.support.guards import REPO, bash, claude_edit, claude_write, conditions, git_project, run
from tests.support.text import edit, line_of

Cli = Callable[..., Result]
GUARDS = "catalog/guards.toml"


def findings(cli: Cli) -> list[tuple[str, int, int, str]]:
    return located(run_findings(cli, "validate"))


def test_the_shipped_guard_data_is_valid(project: Path, cli: Cli) -> None:
    assert findings(cli) == []


def test_u001_unknown_detector(project: Path, cli: Cli) -> None:
    text = edit(project / GUARDS, 'detector = "dependency"', 'detector = "dependancy"')
    assert findings(cli) == [(GUARDS, line_of(text, "dependancy"), 1, "U001")]


def test_u002_missing_and_ill_typed_data(project: Path, cli: Cli) -> None:
    text = edit(project / GUARDS, "max-changes = 3", 'max-changes = "3"')
    assert findings(cli) == [(GUARDS, line_of(text, 'max-changes = "3"'), 1, "U002")]


def test_u002_unknown_key_and_unknown_manifest_kind(project: Path, cli: Cli) -> None:
    text = edit(project / GUARDS, '"Gemfile" = "gemfile"', '"Gemfile" = "bundler"')
    text = edit(project / GUARDS, "min-options = 2", "min-options = 2\nmin-option = 3")
    assert findings(cli) == [
        (GUARDS, line_of(text, '"Gemfile" = "bundler"'), 1, "U002"),
        (GUARDS, line_of(text, "min-option = 3"), 1, "U002"),
    ]


def test_u003_regex_does_not_compile(project: Path, cli: Cli) -> None:
    text = edit(project / GUARDS, '"marshal.loads" = \'', '"marshal.loads" = \'(')
    assert findings(cli) == [(GUARDS, line_of(text, '"marshal.loads"'), 1, "U003")]


def test_u004_nested_quantifier(project: Path, cli: Cli) -> None:
    text = edit(project / GUARDS, '"git rebase" = \'', '"git rebase" = \'(\\w+\\s?)*=')
    assert findings(cli) == [(GUARDS, line_of(text, '"git rebase"'), 1, "U004")]


@pytest.mark.slow
def test_u005_table_for_no_message_or_the_wrong_kind(project: Path, cli: Cli) -> None:
    path = project / GUARDS
    text = path.read_text(encoding="utf-8") + (
        '\n[pretooluse-nothing]\ndetector = "askuserquestion"\n'
        '\n[pretooluse-bash]\ndetector = "askuserquestion"\n'
    )
    path.write_text(text, encoding="utf-8")
    assert findings(cli) == [
        (GUARDS, line_of(text, "[pretooluse-nothing]"), 1, "U005"),
        (GUARDS, line_of(text, "[pretooluse-bash]"), 1, "U005"),
    ]


def test_u006_placeholders_disagree_with_the_registry(project: Path, cli: Cli) -> None:
    hooks = project / "catalog/hooks.toml"
    edit(hooks, 'plan = "docs/plan.md"\n', 'plan = "docs/plan.md"\nextra = "x"\n')
    found = findings(cli)
    text = (project / GUARDS).read_text(encoding="utf-8")
    assert (GUARDS, line_of(text, "[pretooluse-bash-plan-guard]"), 1, "U006") in found
    # The advisory rule sees the same drift from the other side.
    assert {code for *_, code in found} == {"U006", "A005"}


def test_u007_command_read_as_an_undefined_language(project: Path, cli: Cli) -> None:
    text = edit(project / GUARDS, 'Bash = "shell"', 'Bash = "sh"\nShell = "shell"')
    assert findings(cli) == [
        (GUARDS, line_of(text, 'Bash = "sh"'), 1, "U007"),
        (GUARDS, line_of(text, 'Shell = "shell"'), 1, "U007"),
    ]


def test_guard_data_file_missing_or_not_toml(project: Path, cli: Cli) -> None:
    path = project / GUARDS
    path.write_text("[x\n", encoding="utf-8")
    assert [code for *_, code in findings(cli)] == ["C001"]
    path.unlink()
    assert findings(cli) == [(GUARDS, 1, 1, "C003")]


def test_u008_a_wired_guard_without_a_table_is_dead(project: Path, cli: Cli) -> None:
    # The README's old recipe: a message, its wiring and placeholders, and no guard data.
    (project / "messages" / "pretooluse-secrets-guard.md").write_text(
        (project / "messages" / "pretooluse-write-plan-guard.md")
        .read_text(encoding="utf-8")
        .replace("pretooluse-write-plan-guard", "pretooluse-secrets-guard"),
        encoding="utf-8",
    )
    hooks = project / "catalog/hooks.toml"
    edit(
        hooks,
        '  "pretooluse-write-plan-guard",\n',
        '  "pretooluse-write-plan-guard",\n  "pretooluse-secrets-guard",\n',
    )
    text = edit(
        hooks,
        "[guards.pretooluse-write-plan-guard.placeholders]",
        '[guards.pretooluse-secrets-guard.placeholders]\npath = "a"\nplan = "b"\n\n'
        "[guards.pretooluse-write-plan-guard.placeholders]",
    )
    found = [f for f in findings(cli) if f[3] == "U008"]
    line = line_of(text, "[guards.pretooluse-secrets-guard.placeholders]")
    assert found == [("catalog/hooks.toml", line, 1, "U008")]


def test_u009_a_malformed_case_file_fails_validate(project: Path, cli: Cli) -> None:
    cases = project / "catalog" / "guard-cases" / "pretooluse-eval-guard.toml"
    text = edit(cases, 'expect = "fire"', 'expect = "fires"')
    assert findings(cli) == [
        ("catalog/guard-cases/pretooluse-eval-guard.toml", line_of(text, '"fires"'), 1, "U009")
    ]


def test_u010_a_disagreeing_case_names_itself_at_its_id() -> None:
    from hookmsg.catalogue.rules.guard_cases import Case, disagreement

    case = Case(id="grep", expect="silent", contract="codex", event="PreToolUse", payload={})
    text = "guard = 'g'\n\n[[cases]]\nid = 'grep'\n"
    found = disagreement(text, "c/g.toml", 0, case, fired=True, missing=[])
    assert found is not None
    assert found.render() == "c/g.toml:4:1: U010 case 'grep' expected silent, fired"
    assert disagreement(text, "c/g.toml", 0, case, fired=False, missing=[]) is None


def test_u011_each_detected_guard_needs_cases() -> None:
    from hookmsg.catalogue.rules.guard_cases import missing_cases

    assert [d.code for d in missing_cases(["pretooluse-x-guard"], set(), "c")] == ["U011"]
    assert missing_cases(["pretooluse-x-guard"], {"pretooluse-x-guard"}, "c") == []


def test_u012_a_match_rule_that_can_never_fire(project: Path, cli: Cli) -> None:
    path = project / GUARDS
    text = path.read_text(encoding="utf-8").replace(
        '[pretooluse-write-plan-guard]\ndetector = "write-plan"',
        '[pretooluse-write-plan-guard]\ndetector = "match"\n'
        '[[pretooluse-write-plan-guard.rules]]\nname = "nothing"',
    )
    text = (
        text.split("# Where a plan in force lives", 1)[0]
        + "\n"
        + text.split("[pretooluse-bash-plan-guard]", 1)[1].join(
            ["[pretooluse-bash-plan-guard]", ""]
        )
    )
    path.write_text(text, encoding="utf-8")
    codes = [code for *_, code in findings(cli)]
    assert "U012" in codes, codes


def test_every_u_code_has_a_test_here_and_explains_itself(cli: Cli) -> None:
    source = Path(__file__).read_text(encoding="utf-8")
    codes = [code for code in CODES if code.startswith("U")]
    assert codes == [f"U{n:03d}" for n in range(1, 13)]
    for code in codes:
        assert re.search(rf"^def test_{code.lower()}_", source, re.MULTILINE), code
        shown = cli("explain", code)
        assert shown.code == 0 and shown.out.startswith(f"{code}: ")


@pytest.mark.parametrize(
    ("pattern", "position"),
    [
        ("(a+)+", 4),
        ("(\\w+\\s?)*=", 8),
        ("(?:x|y*)+z", 8),
        ("((ab)*c)+", 8),
        ("([a-z]+){2,}", 8),
        ("(a+){3}", 4),
        ("\\bgit\\s+push\\b", None),
        ("(?:-C\\s+\\S+\\s+)?push", None),
        ("(a|b)+", None),
        ("[(+]*x", None),
        ("\\(a+\\)+", None),
        ("(a{2})+", None),
    ],
)
def test_nested_quantifiers_are_found(pattern: str, position: int | None) -> None:
    assert nested_quantifier(pattern) == position


def test_conditions_are_the_validated_tables_with_defaults_filled() -> None:
    found = conditions()
    raw = tomllib.loads((REPO / GUARDS).read_text(encoding="utf-8"))
    assert sorted(found) == sorted(raw)
    assert found["pretooluse-write-plan-guard"]["exempt"] == [".hookmsg/compaction-note.md"]
    assert found["pretooluse-dependency-guard"]["max-changes"] == 3
    json.dumps(found, sort_keys=True)  # the dispatch table carries it as JSON


def _fire_cases(tmp_path: Path) -> dict[str, Call]:
    header = "# SPDX-License-Identifier: MIT"
    root = git_project(
        tmp_path / "p",
        {"PLAN.md": "Nothing.\n", "a.py": f"{header}\nx = 1\n", "uv.lock": "x\n"},
    )
    return {
        "pretooluse-dependency-guard": claude_write(root, "uv.lock", "y\n"),
        "pretooluse-eval-guard": claude_write(root, "b.py", f"{header}\neval(x)\n"),
        "pretooluse-write-header-guard": claude_write(root, "c.py", "x = 1\n"),
        "pretooluse-edit-header-guard": claude_edit(root, "a.py", f"{header}\nx = 1", "x = 1"),
        "pretooluse-write-plan-guard": claude_write(root, "d.py", f"{header}\n"),
        "pretooluse-bash-plan-guard": bash(root, "git push --force"),
        "pretooluse-askuserquestion-recommended": Call(
            event="PreToolUse",
            harness="claude",
            tool="AskUserQuestion",
            questions=[{"question": "Q?", "options": [{"label": "A"}, {"label": "B"}]}],
        ),
    }


def test_detectors_fill_exactly_the_placeholders_the_registry_declares(tmp_path: Path) -> None:
    registry = tomllib.loads((REPO / "catalog/hooks.toml").read_text(encoding="utf-8"))
    for name, call in _fire_cases(tmp_path).items():
        detector = conditions()[name]["detector"]
        found = run(name, call)
        assert found is not None, name
        declared = set(registry["guards"][name]["placeholders"])
        assert set(found) == declared == DETECTORS[detector].placeholders, name
        assert set(PLACEHOLDERS[detector]) == declared, name
    assert set(PLACEHOLDERS) == set(DETECTORS)
