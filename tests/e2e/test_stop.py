"""What a Stop hook's `additionalContext` does in each real client.

Claude Code hands it to the model by prompting the model again with it, and the next Stop
then reports `stop_hook_active: true`: a hook that answers every Stop keeps the model
going (the pinned version gives up after eight rounds), while one that stays silent once
`stop_hook_active` is set costs exactly one more request. Codex and Qwen Code never hand
it to the model (only a block decision would reach it). So a dispatcher that delivers Stop
context must stay silent when `stop_hook_active` is true, or it starts a loop.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.e2e.clients import Runner, everything, git_project
from tests.e2e.standin import Finish, StandIn

pytestmark = pytest.mark.e2e


@pytest.fixture
def runner(shaped_runner: Runner) -> Runner:
    """The clients whose registration these tests write themselves (Claude Code's shape)."""
    return shaped_runner


MARKER = "e2e-stop-marker-41c9: the Stop hook spoke"
HOOK = """\
import json, sys
payload = json.load(sys.stdin)
with open(sys.argv[1], "a", encoding="utf-8") as log:
    log.write(json.dumps(payload.get("stop_hook_active")) + "\\n")
if sys.argv[2] == "once" and payload.get("stop_hook_active"):
    sys.exit(0)
envelope = {"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": sys.argv[3]}}
print(json.dumps(envelope))
"""


def stop_session(runner: Runner, tmp_path: Path, mode: str) -> tuple[StandIn, list[object]]:
    project = git_project(tmp_path / "project")
    hook = tmp_path / "stop_hook.py"
    hook.write_text(HOOK, encoding="utf-8")
    log = tmp_path / "stop-payloads.txt"
    runner.register(project, [("Stop", None, [sys.executable, str(hook), str(log), mode, MARKER])])
    with StandIn([Finish("The answer.")], cap=20) as standin:
        session = runner.session(project, standin, "Answer.")
    assert session.returncode == 0, session.describe()
    assert not standin.capped, f"{len(standin.requests)} requests\n{session.describe()}"
    seen = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    return standin, seen


def test_a_stop_hook_that_always_speaks(runner: Runner, tmp_path: Path) -> None:
    standin, seen = stop_session(runner, tmp_path, "always")
    main = standin.main_requests()
    if runner.stop_context:
        # Every Stop re-prompts the model with the text: a loop the client alone bounds.
        assert MARKER in everything(main[-1].body)
        assert len(main) > 2
        assert seen == [False] + [True] * (len(main) - 1)
    else:
        assert len(main) == 1
        assert all(MARKER not in everything(r.body) for r in standin.requests)
        assert seen == [False]


def test_a_stop_hook_silent_once_stop_hook_active_is_set(runner: Runner, tmp_path: Path) -> None:
    standin, seen = stop_session(runner, tmp_path, "once")
    main = standin.main_requests()
    if runner.stop_context:
        assert len(main) == 2
        assert MARKER in everything(main[1].body)
        assert seen == [False, True]
    else:
        assert len(main) == 1
        assert seen == [False]
