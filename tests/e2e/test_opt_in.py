"""The trust step or opt-in that `hookmsg install` names for a harness is what the client
needs: without it Copilot CLI's prompt mode runs no repository hook and says nothing, and
Gemini CLI will not run in the folder at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.conftest import make_runner
from tests.e2e.standin import Finish, StandIn, Write
from tests.e2e.test_delivery import NOTES, anywhere, install

pytestmark = pytest.mark.e2e


def test_copilot_prompt_mode_without_the_opt_in_runs_no_hook_and_says_nothing(
    executables: dict[str, Path], tmp_path: Path
) -> None:
    runner = make_runner("copilot", executables, tmp_path)
    installed = install(runner, tmp_path)
    notes = installed.project / "notes.txt"
    with StandIn([Write(str(notes), NOTES), Finish("Done.")], cap=8) as standin:
        ran = runner.session(
            installed.project,
            standin,
            "Do the scripted work.",
            {"GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS": ""},
        )
    assert ran.returncode == 0, ran.describe()
    assert notes.read_text(encoding="utf-8") == NOTES, ran.describe()
    assert installed.delivered("sessionstart") not in anywhere(standin.requests)
    assert "hook" not in (ran.stdout + ran.stderr).lower(), ran.describe()


def test_gemini_without_a_trusted_workspace_does_not_run_and_names_the_setting(
    executables: dict[str, Path], tmp_path: Path
) -> None:
    runner = make_runner("gemini-cli", executables, tmp_path)
    installed = install(runner, tmp_path)
    with StandIn([Finish("Done.")], cap=8) as standin:
        ran = runner.session(
            installed.project, standin, "Answer.", {"GEMINI_CLI_TRUST_WORKSPACE": ""}
        )
    assert ran.returncode != 0, ran.describe()
    assert "GEMINI_CLI_TRUST_WORKSPACE=true" in ran.stderr, ran.describe()
    assert standin.requests == []
