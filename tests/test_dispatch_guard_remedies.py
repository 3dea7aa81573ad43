"""Each guard's advisory names the one action that silences it, and doing exactly that
action silences it: through the packaged dispatcher, in strict mode (where a firing guard
refuses the call, so a remedy that did not silence it would refuse the command for good)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.dispatch import build_install_root, clean_env, dispatch

pytestmark = pytest.mark.slow  # subprocesses through an install root


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_install_root(tmp_path_factory.mktemp("install"))


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text, encoding="utf-8")
    return project


def _strict(root: Path, tmp_path: Path, guard: str, payload: dict[str, Any]) -> str:
    """What the strict dispatcher answers (the refusal's reason), "" when it lets the call be."""
    env = clean_env(tmp_path / "state", HOOKMSG_STRICT="1")
    ran = dispatch(root, "PreToolUse", guard, payload=payload, env=env)
    assert ran.code == 0, ran.err
    if not ran.out.strip():
        return ""
    data = ran.json()
    assert data["hookSpecificOutput"]["permissionDecision"] == "deny"
    reason = data["hookSpecificOutput"]["permissionDecisionReason"]
    assert isinstance(reason, str)
    return reason


def _bash(project: Path, command: str) -> dict[str, Any]:
    return {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": str(project)}


@pytest.mark.parametrize(
    "command",
    [
        "git push --force origin main",
        "terraform apply -auto-approve",
        "./scripts/deploy.sh production",
        "git mv src/a.py src/b.py && npm publish",
        "kubectl apply -f k8s/ && helm upgrade api charts/api",
        "docker buildx build -t ghcr.io/acme/api:1 --push .",
        "aws lambda update-function-code --function-name api --zip-file fileb://b.zip",
        "az group delete --name rg-staging --yes",
        "psql -h db -c 'DROP TABLE sessions'",
        "gh pr merge 12 --squash && npx cdk deploy ApiStack",
        "./gradlew publish",
    ],
)
def test_adding_the_named_action_to_the_plan_silences_the_bash_plan_guard(
    root: Path, tmp_path: Path, command: str
) -> None:
    project = _project(tmp_path, {"PLAN.md": "# Plan\n\n- Fix the bug and git push it.\n"})
    guard = "pretooluse-bash-plan-guard"
    reason = _strict(root, tmp_path, guard, _bash(project, command))
    named = re.search(r"add a step naming `([^`]+)` to the plan", reason)
    assert named is not None, reason
    # Exactly the action the advisory names, appended to the plan as a step:
    plan = project / "PLAN.md"
    plan.write_text(plan.read_text(encoding="utf-8") + f"- {named.group(1)}\n", encoding="utf-8")
    assert _strict(root, tmp_path, guard, _bash(project, command)) == ""


def test_the_trusted_comment_the_eval_advisory_asks_for_silences_it(
    root: Path, tmp_path: Path
) -> None:
    project = _project(tmp_path, {"README.md": "x\n"})
    guard = "pretooluse-eval-guard"
    code = "def run(expr):\n    return eval(expr)\n"
    write = {
        "tool_name": "Write",
        "tool_input": {"file_path": "calc.py", "content": code},
        "cwd": str(project),
    }
    reason = _strict(root, tmp_path, guard, write)
    assert "add a comment starting `trusted:`" in reason
    justified = code.replace(
        "    return", "    # trusted: expr comes from our grammar table\n    return"
    )
    write["tool_input"]["content"] = justified
    assert _strict(root, tmp_path, guard, write) == ""
    # The justification on the primitive's own line, added by an edit, is not flagged either.
    (project / "calc.py").write_text(code, encoding="utf-8")
    edit = {
        "tool_name": "Edit",
        "tool_input": {
            "file_path": "calc.py",
            "old_string": "    return eval(expr)",
            "new_string": "    return eval(expr)  # trusted: expr comes from our grammar table",
        },
        "cwd": str(project),
    }
    assert _strict(root, tmp_path, guard, edit) == ""


def test_the_header_and_plan_and_question_remedies_silence_their_guards(
    root: Path, tmp_path: Path
) -> None:
    header = "# SPDX-License-Identifier: MIT"
    project = _project(
        tmp_path, {"src/a.py": f"{header}\nx = 1\n", "PLAN.md": "# Plan\n\n- Edit src/a.py.\n"}
    )
    write: dict[str, Any] = {
        "tool_name": "Write",
        "tool_input": {"file_path": "src/b.py", "content": "y = 2\n"},
        "cwd": str(project),
    }
    reason = _strict(root, tmp_path, "pretooluse-write-header-guard", write)
    shown = re.search(r"licence header `([^`]+)`", reason)
    assert shown is not None and shown.group(1) == header
    write["tool_input"]["content"] = f"{shown.group(1)}\ny = 2\n"
    assert _strict(root, tmp_path, "pretooluse-write-header-guard", write) == ""
    reason = _strict(root, tmp_path, "pretooluse-write-plan-guard", write)
    assert "names neither `src/b.py`" in reason
    (project / "PLAN.md").write_text("# Plan\n\n- Edit src/a.py and src/b.py.\n", encoding="utf-8")
    assert _strict(root, tmp_path, "pretooluse-write-plan-guard", write) == ""
    options = [{"label": "PostgreSQL"}, {"label": "SQLite"}]
    ask = {
        "tool_name": "AskUserQuestion",
        "tool_input": {"questions": [{"question": "Which database?", "options": options}]},
        "cwd": str(project),
    }
    guard = "pretooluse-askuserquestion-recommended"
    assert '"(Recommended)" appended to its label' in _strict(root, tmp_path, guard, ask)
    options[0]["label"] += " (Recommended)"
    assert _strict(root, tmp_path, guard, json.loads(json.dumps(ask))) == ""


def test_the_dependency_guard_speaks_once_per_change_so_a_refused_change_can_be_made(
    root: Path, tmp_path: Path
) -> None:
    """Its remedy (telling the user why) leaves nothing to detect: the same change made
    again in the same context goes ahead; another change, or another context, is refused."""
    project = _project(tmp_path, {"package.json": '{"dependencies": {}}\n'})
    guard = "pretooluse-dependency-guard"
    call = {**_bash(project, "npm install lodash@4.17.21"), "session_id": "s1"}
    reason = _strict(root, tmp_path, guard, call)
    assert "the same change made again goes ahead" in reason, reason
    assert _strict(root, tmp_path, guard, call) == ""
    other = {**_bash(project, "npm install left-pad"), "session_id": "s1"}
    assert "left-pad" in _strict(root, tmp_path, guard, other)
    assert _strict(root, tmp_path, guard, {**call, "session_id": "s2"}) != ""
    # A call that names no context cannot be told apart from another: refused every time.
    anonymous = _bash(project, "npm install lodash@4.17.21")
    assert _strict(root, tmp_path, guard, anonymous) != ""
    assert _strict(root, tmp_path, guard, anonymous) != ""


def test_a_guard_that_speaks_once_per_change_is_said_once_where_the_call_went_ahead(
    root: Path, tmp_path: Path
) -> None:
    project = _project(tmp_path, {"requirements.txt": "requests==2.32.3\n"})
    env = clean_env(tmp_path / "state")
    call = {**_bash(project, "pip install httpx==0.27.2"), "session_id": "s1"}
    guard = "pretooluse-dependency-guard"
    first = dispatch(root, "PreToolUse", guard, payload=call, env=env)
    assert first.code == 0 and b"httpx" in first.out, first.err
    again = dispatch(root, "PreToolUse", guard, payload=call, env=env)
    assert again.code == 0 and again.out.strip() == b"", again.out
    # Other guards speak on every call that triggers them.
    bash_plan = "pretooluse-bash-plan-guard"
    (project / "PLAN.md").write_text("# Plan\n\n- Fix the parser.\n", encoding="utf-8")
    push = {**_bash(project, "git push origin main"), "session_id": "s1"}
    for _ in range(2):
        ran = dispatch(root, "PreToolUse", bash_plan, payload=push, env=env)
        assert b"git push" in ran.out, ran.out
