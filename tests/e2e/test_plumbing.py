"""The plumbing under every end-to-end test: each real client runs offline against the
stand-in endpoint, writes a file through its own write tool, and a project hook's
SessionStart context reaches the model where that client puts hook context."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.clients import Runner, everything, git_project
from tests.e2e.standin import Finish, StandIn, Write

pytestmark = pytest.mark.e2e


@pytest.fixture
def runner(shaped_runner: Runner) -> Runner:
    """The clients whose registration these tests write themselves (Claude Code's shape)."""
    return shaped_runner


MARKER = "e2e-plumbing-marker-7f3a: the SessionStart hook ran"


def session_start_hook(text: str) -> dict[str, object]:
    envelope = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    command = f"printf '%s\\n' '{json.dumps(envelope)}'"
    return {"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}}


def test_a_project_session_start_hook_reaches_the_model(runner: Runner, tmp_path: Path) -> None:
    project = git_project(tmp_path / "project")
    settings = project / runner.settings_file
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps(session_start_hook(MARKER)), encoding="utf-8")
    target = project / "notes.txt"
    script = [Write(str(target), "written by the stand-in\n"), Finish("All done.")]

    with StandIn(script, cap=20) as standin:
        session = runner.session(project, standin, "Write the notes file.")

    assert session.returncode == 0, session.describe()
    assert not standin.capped, f"{len(standin.requests)} requests: a loop"
    main = standin.main_requests()
    assert [r.answered for r in main] == [repr(t) for t in script], session.describe()
    assert target.read_text(encoding="utf-8") == "written by the stand-in\n"
    for request in main:
        delivered = runner.hook_context(request.body)
        assert any(MARKER in text for text in delivered), everything(request.body)[:3000]
