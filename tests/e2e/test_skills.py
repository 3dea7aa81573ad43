"""Installed skills reach the model in the real clients.

`hookmsg install` lays out the skills and commands where the harness loads them; one
offline session against the stand-in endpoint then shows each skill's description (which
appears nowhere else: the skill index names skills, never their descriptions) in the model
request, and the index delivered at session start lists only what was installed, in the
form that harness can use.
"""

from __future__ import annotations

import html
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.e2e.clients import RUNNERS, git_project
from tests.e2e.standin import Finish, StandIn
from tests.support.repository import REPO

pytestmark = pytest.mark.e2e

HOOKMSG = Path(sys.executable).with_name("hookmsg")


def description(path: Path) -> str:
    front = path.read_text(encoding="utf-8").split("\n---\n", 1)[0].removeprefix("---\n")
    data = yaml.safe_load(front)
    return " ".join(str(data["description"]).split())


def strings(value: object) -> str:
    """Every string in a request body, joined: what the model reads, unescaped."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return "\n".join(strings(item) for item in value.values())
    if isinstance(value, list):
        return "\n".join(strings(item) for item in value)
    return ""


def installed_session(
    harness: str, executables: dict[str, Path], tmp_path: Path
) -> tuple[Path, str]:
    if harness not in executables:
        pytest.skip(f"{harness} is not installed: run `python3 scripts/e2e_clients.py`")
    project = git_project(tmp_path / "project")
    argv = [str(HOOKMSG), "install", "--harness", harness, "--project", str(project)]
    argv += ["--root", str(tmp_path / "root"), "--python", sys.executable]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    runner = RUNNERS[harness](executables[harness], tmp_path / "home")
    with StandIn([Finish("Done.")], cap=8) as standin:
        ran = runner.session(project, standin, "Say done.")
    assert ran.returncode == 0, ran.describe()
    main = standin.main_requests()
    assert main, ran.describe()
    # Claude Code escapes `<` and `>` in the descriptions it lists.
    return project, html.unescape(" ".join(strings(main[0].body).split()))


def test_claude_code_offers_every_installed_skill_and_command_to_the_model(
    executables: dict[str, Path], tmp_path: Path
) -> None:
    project, sent = installed_session("claude-code-engine", executables, tmp_path)
    skills = sorted((project / ".claude" / "skills").glob("*/SKILL.md"))
    commands = sorted((project / ".claude" / "commands").glob("*.md"))
    assert len(skills) >= 6 and len(commands) >= 2
    for path in [*skills, *commands]:
        assert description(path) in sent, path
    assert "/hookmsg:" not in sent  # the engine install's index has no plugin prefix


def test_codex_offers_every_installed_skill_and_no_command(
    executables: dict[str, Path], tmp_path: Path
) -> None:
    project, sent = installed_session("codex", executables, tmp_path)
    skills = sorted((project / ".agents" / "skills").glob("*/SKILL.md"))
    assert len(skills) >= 6
    assert not (project / ".codex" / "commands").exists()
    for path in skills:
        name = path.parent.name
        assert name in sent, name
        assert description(path) in sent, path
