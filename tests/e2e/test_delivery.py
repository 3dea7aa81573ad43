"""Delivery through `hookmsg install`, in the real clients.

Each test installs this repository's hooks into a fresh project with `hookmsg install
--harness <id> --project P --root R --python <this interpreter>`, runs one client session
against the stand-in model, and checks what reached the model: the session-start text
and the skill index at session start; the dependency guard's advisory on a manifest write
(not on Qwen Code, which drops PreToolUse context, in advise mode); no guard on an
ordinary file; nothing blocked in advise mode; in strict mode the manifest write refused
with the advisory as the reason; and with the install root deleted, nothing blocked and
no loop.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.clients import Runner, everything, git_project
from tests.e2e.standin import Finish, Recorded, StandIn, Turn, Write
from tests.support.repository import REPO

pytestmark = pytest.mark.e2e

HOOKMSG = Path(sys.executable).with_name("hookmsg")
GUARD = "pretooluse-dependency-guard"
MANIFEST = (
    '{\n  "name": "demo",\n  "version": "1.0.0",\n'
    '  "dependencies": {\n    "left-pad": "1.3.0"\n  }\n}\n'
)
# Gemini CLI's own policy refuses a non-interactive write to a build file (package.json
# among them) whatever the hooks say, so its runs write a requirements file instead.
REQUIREMENTS = "left-pad==1.3.0\n"


def dependency_manifest(runner: Runner, project: Path) -> tuple[Path, str]:
    """The manifest a write to which the dependency guard speaks on, and its text."""
    if runner.build_files_refused:
        return project / "requirements.txt", REQUIREMENTS
    return project / "package.json", MANIFEST


NOTES = "Plain notes, nothing a guard looks at.\n"
CAP = 16


@dataclass(frozen=True)
class Installed:
    project: Path
    root: Path

    def delivered(self, message: str) -> str:
        """A message's delivered text, as the install root holds it."""
        return (self.root / "messages" / f"{message}.md").read_text(encoding="utf-8").strip()

    def index_file(self, harness: str) -> str:
        """The skill index form `harness` receives (its contract's message file)."""
        table = json.loads((self.root / "data" / "dispatch-table.json").read_text("utf-8"))
        contract = "claude-code" if harness == "claude-code-engine" else harness
        files = table["contracts"][contract].get("message_files", {})
        return str(files.get("skill-index", "skill-index"))

    def procedure(self, message: str) -> str:
        """The line that closes a guard's advisory."""
        return f"Full procedure: {self.root}/messages/{message}.md"

    def advisory_opening(self, message: str) -> str:
        """The advisory template's text before its first placeholder."""
        table = json.loads((self.root / "data" / "dispatch-table.json").read_text("utf-8"))
        templates = [
            entry["advisory"]
            for key, entry in _walk(table)
            if key == message and isinstance(entry.get("advisory"), str)
        ]
        assert templates, f"no advisory for {message} in the dispatch table"
        opening = templates[0].split("{{", 1)[0].strip()
        assert len(opening) >= 20, templates[0]
        return opening


def _walk(node: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if isinstance(value, dict):
                yield key, value
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def install(
    runner: Runner, tmp_path: Path, *, strict: bool = False, python: str = sys.executable
) -> Installed:
    project = git_project(tmp_path / "project")
    root = (tmp_path / "install-root").resolve()
    argv = [
        str(HOOKMSG),
        "install",
        "--harness",
        runner.harness,
        "--project",
        str(project),
        "--root",
        str(root),
        "--python",
        python,
    ]
    if strict:
        argv.append("--strict")
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (project / runner.settings_file).is_file(), done.stdout + done.stderr
    assert (root / "hooks" / "dispatch.py").is_file(), done.stdout + done.stderr
    return Installed(project, root)


def session(
    runner: Runner,
    installed: Installed,
    script: list[Turn],
    env: dict[str, str] | None = None,
    usage_tokens: int = 10,
) -> tuple[StandIn, list[Recorded], str]:
    with StandIn(script, cap=CAP, usage_tokens=usage_tokens) as standin:
        ran = runner.session(installed.project, standin, "Do the scripted work.", env)
    described = ran.describe()
    assert ran.returncode == 0, described
    assert not standin.capped, f"{len(standin.requests)} requests: a loop\n{described}"
    assert not standin.errors, standin.errors
    return standin, standin.main_requests(), described


def assert_no_loop(runner: Runner, main: list[Recorded], scripted: int, described: str) -> None:
    """The model was asked for its scripted turns, plus at most one more where the client
    hands Stop context to the model (Claude Code prompts it once more with the context);
    a Stop hook that re-prompts it every time is a loop."""
    extra = len(main) - scripted
    allowed = 1 if runner.stop_context else 0
    assert 0 <= extra <= allowed, f"{len(main)} model requests for {scripted} turns\n{described}"


def context(runner: Runner, request: Recorded) -> str:
    return "\n".join(runner.hook_context(request.body))


def outputs(runner: Runner, request: Recorded) -> str:
    return "\n".join(runner.tool_outputs(request.body))


def anywhere(requests: list[Recorded]) -> str:
    return "\n".join(everything(r.body) for r in requests)


def test_advise_mode_delivers_session_start_and_the_dependency_advisory_and_blocks_nothing(
    runner: Runner, tmp_path: Path
) -> None:
    installed = install(runner, tmp_path)
    manifest, manifest_text = dependency_manifest(runner, installed.project)

    standin, main, described = session(
        runner, installed, [Write(str(manifest), manifest_text), Finish("Done.")]
    )

    assert manifest.read_text(encoding="utf-8") == manifest_text, described
    assert_no_loop(runner, main, 2, described)
    first, second = main[:2]
    assert installed.delivered("sessionstart") in context(runner, first)
    index = installed.index_file(runner.harness)
    if index:
        assert installed.delivered(index) in context(runner, first), index
    else:  # a harness that loads no skill files gets no index naming what it cannot load
        heading = installed.delivered("skill-index").split("\n", 1)[0]
        assert heading not in context(runner, first)
    procedure = installed.procedure(GUARD)
    if runner.pretool_context:
        after_write = context(runner, second)
        assert procedure in after_write, after_write
        assert installed.advisory_opening(GUARD) in after_write
        assert "This call went ahead." in after_write
        assert "This call was refused." not in anywhere(standin.requests)
    else:
        # Qwen Code computes PreToolUse context and sends none of it to the model.
        assert procedure not in anywhere(standin.requests)
        assert installed.advisory_opening(GUARD) not in anywhere(standin.requests)


def test_an_ordinary_file_write_delivers_no_guard(runner: Runner, tmp_path: Path) -> None:
    installed = install(runner, tmp_path)
    notes = installed.project / "notes.txt"

    standin, main, described = session(
        runner, installed, [Write(str(notes), NOTES), Finish("Done.")]
    )

    assert notes.read_text(encoding="utf-8") == NOTES, described
    assert_no_loop(runner, main, 2, described)
    assert installed.delivered("sessionstart") in context(runner, main[0])
    if runner.pretool_context:
        # The write hook ran (its plain context arrived), and no guard spoke.
        assert installed.delivered("pretooluse-write") in context(runner, main[1])
    sent = anywhere(standin.requests)
    guards = sorted(p.stem for p in (installed.root / "messages").glob("*-guard.md"))
    assert GUARD in guards
    for guard in guards:
        assert installed.procedure(guard) not in sent, guard


@pytest.mark.parametrize("how", ["install --strict", "HOOKMSG_STRICT=1"])
def test_strict_mode_refuses_the_manifest_write_with_the_advisory_as_reason(
    runner: Runner, tmp_path: Path, how: str
) -> None:
    installed = install(runner, tmp_path, strict=how == "install --strict")
    env = {"HOOKMSG_STRICT": "1"} if how == "HOOKMSG_STRICT=1" else None
    notes = installed.project / "notes.txt"
    manifest, manifest_text = dependency_manifest(runner, installed.project)
    script: list[Turn] = [
        Write(str(notes), NOTES),
        Write(str(manifest), manifest_text),
        Finish("Done."),
    ]
    registered = runner.registered_events(installed.project)
    if not runner.deny:
        # No deny channel (oh-my-pi and pi: the module hands text over, never blocks):
        # strict mode changes nothing there; both writes go ahead and no guard speaks.
        standin, main, described = session(runner, installed, script, env)
        assert manifest.read_text(encoding="utf-8") == manifest_text, described
        assert installed.procedure(GUARD) not in anywhere(standin.requests)
        return
    if env is not None and not runner.pretool_context:
        # Qwen Code, CodeBuddy, Gemini CLI and Factory Droid drop PreToolUse context, so an
        # advise-mode install registers no PreToolUse hook there: strict mode takes
        # `install --strict`, and the variable alone changes nothing (the write goes
        # ahead, nothing is said).
        assert runner.pre_tool_event not in registered, registered
        standin, main, described = session(runner, installed, script, env)
        assert manifest.read_text(encoding="utf-8") == manifest_text, described
        assert installed.procedure(GUARD) not in anywhere(standin.requests)
        return
    assert runner.pre_tool_event in registered, registered

    _, main, described = session(runner, installed, script, env)

    assert notes.read_text(encoding="utf-8") == NOTES, described
    assert not manifest.exists(), described
    assert_no_loop(runner, main, 3, described)
    reason = outputs(runner, main[2])
    assert installed.advisory_opening(GUARD) in reason, reason
    assert installed.procedure(GUARD) in reason, reason
    assert installed.advisory_opening(GUARD) not in outputs(runner, main[1])


def test_with_the_install_root_deleted_nothing_is_blocked_and_nothing_loops(
    runner: Runner, tmp_path: Path
) -> None:
    installed = install(runner, tmp_path)
    shutil.rmtree(installed.root)
    manifest, manifest_text = dependency_manifest(runner, installed.project)

    standin, main, described = session(
        runner, installed, [Write(str(manifest), manifest_text), Finish("Done.")]
    )

    assert manifest.read_text(encoding="utf-8") == manifest_text, described
    # The write and the answer: no Stop re-prompt (Codex and Qwen Code loop on exit 2).
    assert len(main) == 2, described
    assert "Full procedure:" not in anywhere(standin.requests)


def test_posttooluse_text_reaches_the_model_with_the_tool_result(
    runner: Runner, tmp_path: Path
) -> None:
    """The compaction reminder (PostToolUse, on every tool) speaks once the model's answers
    report a context past its threshold, read from where each client writes that usage down
    (the xcsh module's call, a transcript, Copilot's session log, Droid's session settings),
    and its text arrives with the tool's result (in it, or in the hook context right after
    it); with a small context the same call says nothing. Runs on every client."""
    installed = install(runner, tmp_path)
    reminder = installed.delivered("posttooluse-proactive-compaction").split("\n", 1)[0]
    assert len(reminder) >= 20, reminder
    notes = installed.project / "notes.txt"
    script: list[Turn] = [Write(str(notes), NOTES), Finish("Done.")]
    if runner.usage_lag_call is not None:
        script.insert(0, runner.usage_lag_call)

    _, main, described = session(runner, installed, script, usage_tokens=150_000)

    assert notes.read_text(encoding="utf-8") == NOTES, described
    assert reminder not in outputs(runner, main[0]) + context(runner, main[0])
    after = outputs(runner, main[1]) + context(runner, main[1])
    assert reminder in after, after
    notes.unlink()
    quiet, _, described = session(runner, installed, script)
    assert reminder not in anywhere(quiet.requests), described
