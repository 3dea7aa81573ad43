"""The guard files (`catalog/guards/<name>.toml`): each U code from one broken file, the
regex safety check, and the agreement between the detectors, the conditions and the
placeholders each guard file declares."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.catalogue.guards import MODELS, detectors
from hookmsg.catalogue.regexcheck import nested_quantifier
from hookmsg.codes import CODES
from hookmsg_dispatch.call import Call
from tests.support.diagnostics import Result, located, run_findings
from tests.support.guards import REPO, bash, claude_edit, claude_write, conditions, git_project, run
from tests.support.text import edit, line_of

Cli = Callable[..., Result]
GUARDS = "catalog/guards"
DEPENDENCY = f"{GUARDS}/pretooluse-dependency-guard.toml"
EVAL = f"{GUARDS}/pretooluse-eval-guard.toml"
BASH_PLAN = f"{GUARDS}/pretooluse-bash-plan-guard.toml"
QUESTION = f"{GUARDS}/pretooluse-askuserquestion-recommended.toml"


def findings(cli: Cli) -> list[tuple[str, int, int, str]]:
    return located(run_findings(cli, "validate"))


def test_the_shipped_guard_data_is_valid(project: Path, cli: Cli) -> None:
    assert findings(cli) == []


def test_u001_unknown_detector(project: Path, cli: Cli) -> None:
    text = edit(project / DEPENDENCY, 'detector = "dependency"', 'detector = "dependancy"')
    assert findings(cli) == [(DEPENDENCY, line_of(text, "dependancy"), 1, "U001")]


def test_u002_missing_and_ill_typed_data(project: Path, cli: Cli) -> None:
    text = edit(project / DEPENDENCY, "max-changes = 3", 'max-changes = "3"')
    assert findings(cli) == [(DEPENDENCY, line_of(text, 'max-changes = "3"'), 1, "U002")]


def test_u002_unknown_key_and_unknown_manifest_kind(project: Path, cli: Cli) -> None:
    text = edit(project / DEPENDENCY, '"Gemfile" = "gemfile"', '"Gemfile" = "bundler"')
    other = edit(project / QUESTION, "min-options = 2", "min-options = 2\nmin-option = 3")
    assert findings(cli) == [
        (QUESTION, line_of(other, "min-option = 3"), 1, "U002"),
        (DEPENDENCY, line_of(text, '"Gemfile" = "bundler"'), 1, "U002"),
    ]


def test_u003_regex_does_not_compile(project: Path, cli: Cli) -> None:
    text = edit(project / EVAL, '"marshal.loads" = \'', '"marshal.loads" = \'(')
    assert findings(cli) == [(EVAL, line_of(text, '"marshal.loads"'), 1, "U003")]


def test_u004_nested_quantifier(project: Path, cli: Cli) -> None:
    text = edit(project / BASH_PLAN, '"git rebase" = \'', '"git rebase" = \'(\\w+\\s?)*=')
    assert findings(cli) == [(BASH_PLAN, line_of(text, '"git rebase"'), 1, "U004")]


@pytest.mark.slow
def test_u005_a_file_for_no_message_the_wrong_kind_or_no_entry(project: Path, cli: Cli) -> None:
    condition = '[condition]\ndetector = "askuserquestion"\n'
    (project / GUARDS / "pretooluse-nothing.toml").write_text(condition, encoding="utf-8")
    # A context message of catalog/hooks.toml given a guard's condition.
    (project / GUARDS / "pretooluse-bash.toml").write_text(condition, encoding="utf-8")
    # A guard wired into an entry catalog/hooks.toml lacks, and one it lists itself.
    text = edit(project / QUESTION, 'matcher = "AskUserQuestion"', 'matcher = "Fetch"')
    hooks = project / "catalog/hooks.toml"
    edit(hooks, "messages = []", 'messages = ["pretooluse-askuserquestion-recommended"]')
    assert findings(cli) == [
        (QUESTION, line_of(text, "wired = ["), 1, "U005"),
        (QUESTION, line_of(text, "wired = ["), 1, "U005"),
        (f"{GUARDS}/pretooluse-bash.toml", 1, 1, "U005"),
        (f"{GUARDS}/pretooluse-nothing.toml", 1, 1, "U005"),
    ]


def test_u006_placeholders_disagree_with_the_detector(project: Path, cli: Cli) -> None:
    text = edit(
        project / BASH_PLAN, 'plan = "docs/plan.md"\n', 'plan = "docs/plan.md"\nextra = "x"\n'
    )
    found = findings(cli)
    assert (BASH_PLAN, line_of(text, "[placeholders]"), 1, "U006") in found
    # The advisory rule sees the same drift from the other side.
    assert {code for *_, code in found} == {"U006", "A005"}


def test_u007_command_read_as_an_undefined_language(project: Path, cli: Cli) -> None:
    text = edit(project / EVAL, 'Bash = "shell"', 'Bash = "sh"\nShell = "shell"')
    assert findings(cli) == [
        (EVAL, line_of(text, 'Bash = "sh"'), 1, "U007"),
        (EVAL, line_of(text, 'Shell = "shell"'), 1, "U007"),
    ]


def test_a_guard_file_that_is_not_toml_or_badly_named(project: Path, cli: Cli) -> None:
    (project / EVAL).write_text("[x\n", encoding="utf-8")
    (project / GUARDS / "Bad_Name.toml").write_text("", encoding="utf-8")
    found = findings(cli)
    assert (EVAL, 1, 3, "C001") in found
    assert (f"{GUARDS}/Bad_Name.toml", 1, 1, "C002") in found


def test_u008_a_wired_guard_without_a_condition_is_dead(project: Path, cli: Cli) -> None:
    # A message, its wiring and placeholders, and no detector.
    (project / "messages" / "pretooluse-secrets-guard.md").write_text(
        (project / "messages" / "pretooluse-write-plan-guard.md")
        .read_text(encoding="utf-8")
        .replace("pretooluse-write-plan-guard", "pretooluse-secrets-guard"),
        encoding="utf-8",
    )
    (project / GUARDS / "pretooluse-secrets-guard.toml").write_text(
        'wired = [{ event = "PreToolUse", matcher = "Write" }]\n\n'
        '[placeholders]\npath = "a"\nplan = "b"\n',
        encoding="utf-8",
    )
    found = [f for f in findings(cli) if f[3] == "U008"]
    assert found == [(f"{GUARDS}/pretooluse-secrets-guard.toml", 1, 1, "U008")]


def test_u009_malformed_cases_fail_validate(project: Path, cli: Cli) -> None:
    text = edit(project / EVAL, 'expect = "fire"', 'expect = "fires"')
    assert findings(cli) == [(EVAL, line_of(text, '"fires"'), 1, "U009")]


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
    path = project / GUARDS / "pretooluse-write-plan-guard.toml"
    text = path.read_text(encoding="utf-8")
    head, rest = text.split("[condition]\n", 1)
    cases = rest[rest.index("[[cases]]") :]
    condition = '[condition]\ndetector = "match"\n[[condition.rules]]\nname = "nothing"\n\n'
    path.write_text(
        head.replace("\n[placeholders]\npath", "\n[placeholders]\nwhere").replace(
            "plan = ", "found = "
        )
        + condition
        + cases,
        encoding="utf-8",
    )
    found = findings(cli)
    assert (
        str(path.relative_to(project)),
        line_of(path.read_text(), "[[condition.rules]]"),
        1,
        "U012",
    ) in found, found


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


def test_conditions_are_the_guard_files_tables_verbatim() -> None:
    found = conditions()
    files = sorted((REPO / GUARDS).glob("*.toml"))
    assert sorted(found) == [path.stem for path in files]
    for path in files:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        assert found[path.stem] == raw["condition"], path.name
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


def test_detectors_fill_exactly_the_placeholders_each_guard_file_declares(tmp_path: Path) -> None:
    for name, call in _fire_cases(tmp_path).items():
        detector = conditions()[name]["detector"]
        found = run(name, call)
        assert found is not None, name
        guard = tomllib.loads((REPO / GUARDS / f"{name}.toml").read_text(encoding="utf-8"))
        declared = set(guard["placeholders"])
        assert set(found) == declared == detectors()[detector].placeholders, name
    # Every shipped detector has a data model: none is carried unchecked.
    assert set(MODELS) == set(detectors())
