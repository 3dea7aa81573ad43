"""A registration whose install root is gone must block nothing and start no loop.

`python3 <missing script>` exits 2, which the clients read as "block" (PreToolUse) or
"keep going" (Codex's and Qwen Code's Stop). The registrations therefore run the inline
bootstrap of the delivery design, which runs the dispatcher only when it exists. Both
forms run here in every real client against an install root that does not exist: the
bare form shows the harm (a refused write or a Stop loop), the bootstrap form none.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from hookmsg.harnesses.registration_plan import (
    BOOT,  # the fail-open bootstrap every registration runs
)
from tests.e2e.clients import Runner, git_project
from tests.e2e.standin import Finish, StandIn, Write

pytestmark = pytest.mark.e2e


@pytest.fixture
def runner(shaped_runner: Runner) -> Runner:
    """The clients whose registration these tests write themselves (Claude Code's shape)."""
    return shaped_runner


CAP = 12
CONTROL_TIMEOUT = 60


def entries(runner: Runner, command: list[str]) -> list[tuple[str, str | None, list[str]]]:
    """SessionStart, PreToolUse on the write tool, PostToolUse and Stop, as installed."""
    return [
        ("SessionStart", None, [*command, "SessionStart", "sessionstart", "skill-index"]),
        ("PreToolUse", runner.write_matcher, [*command, "PreToolUse", "pretooluse-write"]),
        (
            "PostToolUse",
            runner.any_matcher,
            [*command, "PostToolUse", "posttooluse-proactive-compaction"],
        ),
        ("Stop", None, [*command, "Stop", "stop"]),
    ]


def write_session(runner: Runner, project: Path, command: list[str]) -> tuple[StandIn, Path, str]:
    runner.register(project, entries(runner, command))
    target = project / "notes.txt"
    script = [Write(str(target), "notes\n"), Finish("All done.")]
    with StandIn(script, cap=CAP) as standin:
        session = runner.session(project, standin, "Write the notes file.")
    return standin, target, session.describe()


def test_the_bootstrap_with_its_install_root_gone_blocks_nothing_and_loops_nothing(
    runner: Runner, tmp_path: Path
) -> None:
    project = git_project(tmp_path / "project")
    missing = tmp_path / "deleted-root" / "hooks" / "dispatch.py"
    command = [sys.executable, "-I", "-S", "-c", BOOT, str(missing)]

    standin, target, described = write_session(runner, project, command)

    assert not standin.capped, f"{len(standin.requests)} requests: a loop\n{described}"
    assert target.read_text(encoding="utf-8") == "notes\n", described
    # The write and the final answer, nothing after: no Stop re-prompt.
    assert len(standin.main_requests()) == 2, described


def test_the_bare_script_with_its_install_root_gone_blocks_or_loops(
    runner: Runner, tmp_path: Path
) -> None:
    """The control: without the bootstrap the same registration does harm (every pinned
    client refuses the write; Codex, Qwen Code and Factory Droid loop on Stop, Codex and
    Factory Droid until the cap), so
    the test above would catch a registration that runs the script directly."""
    project = git_project(tmp_path / "project")
    missing = tmp_path / "deleted-root" / "hooks" / "dispatch.py"
    # A looping client (Factory Droid retries the capped stand-in for minutes) has shown
    # its loop once the cap is hit: no need to wait for it to give up.
    runner.session_timeout = CONTROL_TIMEOUT

    standin, target, described = write_session(runner, project, [sys.executable, str(missing)])

    assert not target.exists(), described
    looped = standin.capped or len(standin.main_requests()) > 2
    assert looped == runner.stop_exit_2_loops, described
