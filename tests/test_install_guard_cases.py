"""Guard cases as data: the shipped case files, their format (U009), the runner that puts
each case through the packaged dispatcher (U010 per disagreement), U011, and the held-out
corpus folder, measured on its own."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from hookmsg.catalogue.rules.guard_cases import Known, check_case_file, missing_cases
from hookmsg.install.guard_cases import read_table, run_folder, write_install_root
from tests.support.repository import REPO

CASES = REPO / "catalog" / "guards"
# The harnesses whose payloads reach PreToolUse guards on Write, Edit and Bash, as the
# dispatch table names their contracts (Qwen Code: as a refusal, in strict mode).
FILE_AND_SHELL_HARNESSES = {"claude-code", "codex", "copilot", "qwen-code"}
MINIMUM = 25


@pytest.fixture(scope="module")
def install_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_install_root(REPO, tmp_path_factory.mktemp("install-root"))


def _guards() -> list[str]:
    table = read_table_of_repo()
    return sorted(n for n, e in table["messages"].items() if e.get("kind") == "guard")


def read_table_of_repo() -> dict[str, object]:
    """The committed table as the install root carries it."""
    import json

    from hookmsg.render.dispatch_table import INSTALLED_TABLE, installed_tables

    built = (REPO / "generated" / "dispatch-table.json").read_bytes()
    data = json.loads(installed_tables(built)[INSTALLED_TABLE])
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("guard", _guards())
def test_every_guard_has_enough_cases_in_every_payload_shape(guard: str) -> None:
    data = tomllib.loads((CASES / f"{guard}.toml").read_text(encoding="utf-8"))
    cases = data["cases"]
    assert "guard" not in data  # a guard file is its guard's: the stem names it
    assert len(cases) >= MINIMUM
    expects = Counter(case["expect"] for case in cases)
    assert expects["fire"] >= 10 and expects["silent"] >= 10, expects
    contracts = {case["contract"] for case in cases}
    if guard == "pretooluse-askuserquestion-recommended":
        assert contracts == {"claude-code"}  # the only harness with that tool
        return
    assert contracts >= FILE_AND_SHELL_HARNESSES, contracts
    shapes = {
        shape
        for case in cases
        for shape, present in (
            ("apply_patch", case["payload"].get("tool_name") == "apply_patch"),
            ("camelCase", "toolName" in case["payload"]),
        )
        if present
    }
    if guard not in ("pretooluse-bash-plan-guard",):
        assert "apply_patch" in shapes, guard  # Codex's file writes are patches
    assert "camelCase" in shapes, guard


@pytest.mark.slow
def test_the_shipped_cases_agree_with_the_packaged_dispatcher(install_root: Path) -> None:
    result = run_folder(CASES, "catalog/guards", install_root)
    assert [d.render() for d in result.diagnostics] == []
    assert set(result.scores) == set(_guards())


CASE = """guard = "pretooluse-bash-plan-guard"

[[cases]]
id = "push-is-covered"
expect = "fire"
contract = "claude-code"
event = "PreToolUse"
payload = {{ tool_name = "Bash", tool_input = {{ command = "git push origin main" }} }}
files = {{ "PLAN.md" = "# Plan\\n- {step}\\n" }}
says = ["git push"]

[[cases]]
id = "grep-is-read-only"
expect = "{grep}"
contract = "copilot"
event = "PreToolUse"
payload = {{ toolName = "bash", toolArgs = '{{"command": "grep -rn release docs/"}}' }}
files = {{ "PLAN.md" = "# Plan\\n" }}
"""


def test_each_disagreement_is_one_line_naming_the_case(tmp_path: Path, install_root: Path) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    text = CASE.format(step="git push the branch", grep="fire")
    (folder / "pretooluse-bash-plan-guard.toml").write_text(text, encoding="utf-8")
    result = run_folder(folder, "catalog/guards", install_root)
    assert [d.render() for d in result.diagnostics] == [
        "catalog/guards/pretooluse-bash-plan-guard.toml:4:1: U010 case 'push-is-covered' "
        "expected fire, was silent",
        "catalog/guards/pretooluse-bash-plan-guard.toml:13:1: U010 case "
        "'grep-is-read-only' expected fire, was silent",
    ]
    score = result.scores["pretooluse-bash-plan-guard"]
    assert (score.fire_fired, score.fire_silent, score.recall) == (0, 2, 0.0)


def test_a_firing_case_that_lacks_its_says_text_disagrees(
    tmp_path: Path, install_root: Path
) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    text = CASE.format(step="review", grep="silent").replace(
        'says = ["git push"]', 'says = ["git push", "npm publish"]'
    )
    (folder / "pretooluse-bash-plan-guard.toml").write_text(text, encoding="utf-8")
    result = run_folder(folder, "x", install_root)
    assert [d.render() for d in result.diagnostics] == [
        "x/pretooluse-bash-plan-guard.toml:4:1: U010 case 'push-is-covered' fired, but its "
        "advisory lacks 'npm publish'",
    ]
    assert result.scores["pretooluse-bash-plan-guard"].precision == 1.0


RECORDED = """guard = "pretooluse-write-plan-guard"

[[cases]]
id = "recorded-session-paths"
expect = "{expect}"
contract = "claude-code"
event = "PreToolUse"
files = {{ "docs/plan.md" = "# Plan\\n1. Change `src/app.py`.\\n" }}
[cases.payload]
cwd = "/home/dev/demo"
tool_name = "Write"
tool_input = {{ file_path = "/home/dev/demo/{path}", content = "x = 1\\n" }}
"""


@pytest.mark.parametrize(("path", "expect"), [("src/other.py", "fire"), ("src/app.py", "silent")])
def test_a_recorded_project_folder_stands_for_the_cases_project(
    tmp_path: Path, install_root: Path, path: str, expect: str
) -> None:
    """Payloads recorded in a real session name its folder (`cwd`, absolute paths): the
    runner puts the case's own project in its place, so the plan there is the one in force."""
    folder = tmp_path / "cases"
    folder.mkdir()
    text = RECORDED.format(expect=expect, path=path)
    (folder / "pretooluse-write-plan-guard.toml").write_text(text, encoding="utf-8")
    result = run_folder(folder, "x", install_root)
    assert [d.render() for d in result.diagnostics] == []
    score = result.scores["pretooluse-write-plan-guard"]
    assert (score.fire_fired, score.silent_silent) == ((1, 0) if expect == "fire" else (0, 1))


KNOWN = Known(
    guards=frozenset({"pretooluse-eval-guard"}),
    contracts=frozenset({"claude-code", "codex"}),
    events=frozenset({"PreToolUse"}),
)
GOOD = """guard = "pretooluse-eval-guard"
[[cases]]
id = "a"
expect = "fire"
contract = "claude-code"
event = "PreToolUse"
payload = { tool_name = "Bash", tool_input = { command = "eval $X" } }
"""


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (('expect = "fire"', 'expect = "fires"'), 4, "cases.0.expect"),
        (('contract = "claude-code"', 'contract = "claude"'), 5, "unknown contract 'claude'"),
        (('event = "PreToolUse"', 'event = "PreToolCall"'), 6, "unknown event 'PreToolCall'"),
        (('guard = "pretooluse-eval-guard"', 'guard = "pretooluse-eval"'), 1, "not a wired guard"),
        (("payload = {", "payload = {{"), 7, "not valid TOML"),
        (('id = "a"', 'id = "A case"'), 3, "cases.0.id"),
        (('id = "a"', 'id = "a"\nfiles = { "../x" = "" }'), 4, "inside the project"),
        (('id = "a"', 'id = "a"\nexpected = "fire"'), 4, "Extra inputs are not permitted"),
    ],
)
def test_u009_a_malformed_case_file_is_a_located_finding(
    change: tuple[str, str], line: int, words: str
) -> None:
    text = GOOD.replace(*change)
    parsed, found = check_case_file(text, "catalog/guards/pretooluse-eval-guard.toml", KNOWN)
    assert parsed is None
    assert [(d.line, d.code) for d in found][:1] == [(line, "U009")], found
    assert words in found[0].message


def test_u009_duplicate_ids_and_a_misnamed_file() -> None:
    text = GOOD + GOOD.split("\n", 1)[1]
    _, found = check_case_file(text, "g/pretooluse-eval-guard.toml", KNOWN)
    assert [(d.line, d.message) for d in found] == [(9, "case 'a': duplicate id")]
    _, found = check_case_file(GOOD, "g/eval.toml", KNOWN)
    assert [d.code for d in found] == ["U009"]
    assert "named 'eval.toml'" in found[0].message
    parsed, found = check_case_file(GOOD, "g/pretooluse-eval-guard.toml", KNOWN)
    assert found == [] and parsed is not None and parsed.cases[0].id == "a"


def test_u011_a_guard_with_a_detector_and_no_cases() -> None:
    found = missing_cases(["pretooluse-a-guard", "pretooluse-b-guard"], {"pretooluse-a-guard"}, "c")
    assert [d.render() for d in found] == [
        "c/pretooluse-b-guard.toml:1:1: U011 guard 'pretooluse-b-guard' has no [[cases]]: write "
        "calls that must fire and near-misses"
    ]


def test_the_runner_uses_the_install_root_that_package_builds(install_root: Path) -> None:
    assert (install_root / "hooks" / "dispatch.py").is_file()
    assert read_table(install_root) == read_table_of_repo()


@pytest.mark.slow
def test_the_held_out_folder_is_measured_and_reported_on_its_own(tmp_path: Path) -> None:
    holdout = tmp_path / "guard_holdout"
    holdout.mkdir()
    text = CASE.format(step="git push the branch", grep="silent")
    (holdout / "pretooluse-bash-plan-guard.toml").write_text(text, encoding="utf-8")
    script = REPO / "scripts" / "guard_precision.py"
    ran = subprocess.run(
        [sys.executable, str(script), str(CASES), str(holdout)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 1, ran.stderr  # the held-out push case disagrees
    out = ran.stdout
    assert "guard precision and recall on catalog/guards" in out
    assert f"guard precision and recall on {holdout}" in out
    holdout_part = out.split(str(holdout), 1)[1]
    assert "pretooluse-bash-plan-guard" in holdout_part
    assert "2 cases  precision 1.000  recall 0.000  MISSED" in holdout_part
    assert "U010 case 'push-is-covered' expected fire, was silent" in holdout_part
    assert out.count("precision 1.000  recall 1.000  ok") >= len(_guards())
