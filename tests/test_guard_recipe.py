"""docs/guards.md's recipe for a new guard, followed literally: every step's block is
applied as the document says, in a copy of this repository; `doit` must then succeed
(validate, regenerate, run every guard case), and the new guard must fire through the
dispatcher of the install root that `hookmsg package` builds, and only where it should."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hookmsg.install.guard_cases import write_install_root
from tests.support.repository import REPO, WITH_DODO, copy_repository

pytestmark = pytest.mark.slow  # a copy of the repository, a full doit run and subprocesses

DOC = REPO / "docs" / "guards.md"
STEP = re.compile(r"<!-- recipe: ([a-z-]+)(?: (\S+))? -->\n```[a-z]*\n(.*?)\n```", re.DOTALL)


def steps() -> list[tuple[str, str, str]]:
    found = [(m.group(1), m.group(2) or "", m.group(3)) for m in STEP.finditer(DOC.read_text())]
    assert found, "docs/guards.md holds no recipe steps"
    return found


def apply(root: Path, kind: str, target: str, block: str) -> None:
    """One step, exactly as the document words it."""
    path = root / target
    if kind == "new":
        assert not path.exists(), target
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(block + "\n", encoding="utf-8")
    elif kind == "append":
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + block + "\n")
    elif kind == "replace":
        old, new = block.split("\n")
        text = path.read_text(encoding="utf-8")
        assert old in text, (target, old)
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif kind == "insert-after":
        anchor = block.split("\n", 1)[0]
        text = path.read_text(encoding="utf-8")
        assert anchor + "\n" in text, (target, anchor)
        path.write_text(text.replace(anchor + "\n", block + "\n", 1), encoding="utf-8")
    elif kind == "run":
        for command in block.split("\n"):
            assert command == "doit", command  # the only command the recipe runs
            ran = subprocess.run(
                [sys.executable, "-m", "doit"],
                cwd=root,
                capture_output=True,
                text=True,
                check=False,
            )
            assert ran.returncode == 0, ran.stdout + ran.stderr
            assert "guard cases:" in ran.stdout and ", 0 findings" in ran.stdout, ran.stdout
    else:
        raise AssertionError(f"unknown recipe step {kind!r}")


def _dispatch(root: Path, project: Path, content: str, tmp: Path) -> str:
    payload = {
        "tool_name": "Write",
        "tool_input": {"file_path": "app/config.py", "content": content},
        "cwd": str(project),
        "session_id": "recipe",
    }
    ran = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            str(root / "hooks" / "dispatch.py"),
            "PreToolUse",
            "pretooluse-secrets-guard",
        ],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env={"HOOKMSG_HOOK_STATE_DIR": str(tmp / "state"), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert ran.returncode == 0 and not ran.stderr, ran.stderr
    return ran.stdout.decode()


def test_the_recipe_followed_literally_makes_a_guard_that_fires(tmp_path: Path) -> None:
    copy = copy_repository(tmp_path / "repo", WITH_DODO)
    kinds = []
    for kind, target, block in steps():
        apply(copy, kind, target, block)
        kinds.append(kind)
    assert kinds[-1] == "run" and "new" in kinds
    root = write_install_root(copy, tmp_path / "install")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    fired = _dispatch(root, project, "KEY = 'AKIAABCDEFGHIJKLMNOP'\n", tmp_path)
    context = json.loads(fired)["hookSpecificOutput"]["additionalContext"]
    assert "`app/config.py` holds an AWS access key id" in context
    assert "messages/pretooluse-secrets-guard.md" in context
    assert _dispatch(root, project, "KEY = os.environ['KEY']\n", tmp_path) == ""
