"""Each failure class of the guards, as found on an independent corpus, pinned in-process:
one call per class that must fire and one that must stay silent (the full set of cases
is the `[[cases]]` of `catalog/guards/`, run through the packaged dispatcher by `doit`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hookmsg_dispatch.call import Call, FileChange
from tests.support.guards import bash, claude_edit, claude_write, git_project, run

PLAN = {"PLAN.md": "# Plan\n\n1. Fix src/billing/invoice.py.\n2. Run the tests.\n"}
BASH_PLAN = "pretooluse-bash-plan-guard"


@pytest.mark.parametrize(
    "command",
    [
        'grep -rn "release" docs/',
        "git log --oneline --grep=deploy",
        "cat RELEASE.md",
        "rg -n migrate src/",
        'git commit -m "release: prepare v2; git push later"',
    ],
)
def test_bash_plan_read_only_commands_mentioning_release_words_are_silent(
    tmp_path: Path, command: str
) -> None:
    root = git_project(tmp_path / "p", PLAN)
    assert run(BASH_PLAN, bash(root, command)) is None


@pytest.mark.parametrize(
    ("command", "action"),
    [
        ("git mv a.py b.py", "git mv"),
        ("git clean -fdx", "git clean"),
        ("terraform apply -auto-approve", "terraform apply"),
        ("kubectl apply -f k8s/", "kubectl apply"),
        ("npm publish", "npm publish"),
        ("./scripts/deploy.sh prod", "deploy"),
        ("bash deploy/run.sh", "deploy"),
    ],
)
def test_bash_plan_missed_commands_fire_and_name_their_action(
    tmp_path: Path, command: str, action: str
) -> None:
    root = git_project(tmp_path / "p", PLAN)
    found = run(BASH_PLAN, bash(root, command))
    assert found is not None and found["action"] == action


EVAL = "pretooluse-eval-guard"


@pytest.mark.parametrize(
    ("path", "content"),
    [
        ("a.py", 'HELP = "do not call eval(x) here"\n'),
        ("a.py", 'def f(s):\n    """Never eval(s) or pickle.loads(s)."""\n    return s\n'),
        ("a.ts", "/*\n * eval(src) was here\n */\nexport const x = 1;\n"),
        ("a.py", "x = eval(expr)  # trusted: expr is a constant from the grammar\n"),
        ("a.js", "// trusted: literals from our own parser\nconst v = eval(src);\n"),
    ],
)
def test_eval_strings_docstrings_block_comments_and_justifications_are_silent(
    tmp_path: Path, path: str, content: str
) -> None:
    root = git_project(tmp_path / "p")
    assert run(EVAL, claude_write(root, path, content)) is None


@pytest.mark.parametrize(
    ("call_of", "primitive"),
    [
        (lambda r: claude_write(r, "a.py", "subprocess.run(cmd, shell=True)\n"), "shell=True"),
        (lambda r: claude_write(r, "a.py", "os.system(cmd)\n"), "os.system"),
        (lambda r: bash(r, "python -c 'import os; os.system(\"ls\")'"), "os.system in python -c"),
        (lambda r: bash(r, 'node -e "eval(process.argv[1])" x'), "eval in node -e"),
        (lambda r: bash(r, "ruby -e 'eval(ARGV[0])' x"), "eval in ruby -e"),
        (lambda r: bash(r, "perl -e 'eval $ARGV[0]' x"), "eval in perl -e"),
        (lambda r: bash(r, 'python3 -c "$CODE"'), "python3 -c with interpolated code"),
    ],
)
def test_eval_shell_strings_and_one_liners_fire(
    tmp_path: Path, call_of: object, primitive: str
) -> None:
    root = git_project(tmp_path / "p")
    found = run(EVAL, call_of(root))  # type: ignore[operator]
    assert found is not None and found["primitive"] == primitive


DEPENDENCY = "pretooluse-dependency-guard"


@pytest.mark.parametrize(
    ("command", "path"),
    [
        ("npm install lodash", "package.json"),
        ("npm i -D vitest", "package.json"),
        ("yarn add zod", "package.json"),
        ("pnpm add hono", "package.json"),
        ("pip install requests", "the environment (undeclared)"),
        ("uv add httpx", "pyproject.toml"),
        ("poetry add pendulum", "pyproject.toml"),
        ("cargo add serde", "Cargo.toml"),
        ("go get github.com/x/y@v1.2.3", "go.mod"),
        ('echo "flask==3.0" >> requirements.txt', "requirements.txt"),
    ],
)
def test_dependency_changes_on_bash_fire(tmp_path: Path, command: str, path: str) -> None:
    root = git_project(tmp_path / "p")
    found = run(DEPENDENCY, bash(root, command))
    assert found is not None and found["path"] == path


@pytest.mark.parametrize(
    "command",
    ["npm ci", "npm install", "pip install -r requirements.txt", "npm i -g pnpm", "npx tsc"],
)
def test_installing_what_is_declared_and_one_off_tools_are_silent(
    tmp_path: Path, command: str
) -> None:
    root = git_project(tmp_path / "p")
    assert run(DEPENDENCY, bash(root, command)) is None


HEADER = "# SPDX-License-Identifier: MIT"
WRITE_HEADER = "pretooluse-write-header-guard"


def test_write_header_other_licence_edit_creation_and_empty_init(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"pkg/a.py": f"{HEADER}\nx = 1\n"})
    other = claude_write(root, "pkg/b.py", "# SPDX-License-Identifier: Apache-2.0\ny = 1\n")
    assert run(WRITE_HEADER, other) == {"path": "pkg/b.py", "header": HEADER}
    created = claude_edit(root, "pkg/c.py", "", "z = 1\n")
    assert run(WRITE_HEADER, created) == {"path": "pkg/c.py", "header": HEADER}
    assert run(WRITE_HEADER, claude_write(root, "pkg/__init__.py", "")) is None


def test_write_plan_path_ending_a_sentence_is_covered(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"PLAN.md": "# Plan\n\nWe change src/x.py.\n"})
    assert run("pretooluse-write-plan-guard", claude_write(root, "src/x.py", "x\n")) is None
    assert run("pretooluse-write-plan-guard", claude_write(root, "src/y.py", "y\n")) is not None


def test_the_question_marker_in_another_letter_case_marks_an_option(tmp_path: Path) -> None:
    call = Call(
        event="PreToolUse",
        harness="claude",
        cwd=str(tmp_path),
        tool="AskUserQuestion",
        questions=[{"question": "Q?", "options": [{"label": "A (recommended)"}, {"label": "B"}]}],
    )
    assert run("pretooluse-askuserquestion-recommended", call) is None


def test_a_notebook_edit_change_is_still_judged(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", PLAN)
    call = Call(
        event="PreToolUse",
        harness="claude",
        cwd=str(root),
        tool="NotebookEdit",
        changes=(FileChange("nb.ipynb", "x", None, None),),
    )
    assert run("pretooluse-write-plan-guard", call) is not None
