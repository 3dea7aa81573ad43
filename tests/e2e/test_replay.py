"""`hookmsg replay` on transcripts the real clients wrote.

A session runs in Claude Code and in Codex against the stand-in endpoint (a manifest that
adds a dependency, then a notes file); each client writes its own transcript under the
throwaway HOME (`.claude/projects/<project>/<session>.jsonl`, Codex's
`sessions/YYYY/MM/DD/rollout-*.jsonl`). Replayed against a fresh copy of the project, every
tool call the model made is found, the dependency guard fires on the manifest alone, and
the session-start text costs what the dispatcher delivers.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.clients import RUNNERS, git_project
from tests.e2e.standin import Finish, StandIn, Write
from tests.support.repository import REPO

pytestmark = pytest.mark.e2e

HOOKMSG = Path(sys.executable).with_name("hookmsg")
MANIFEST = '{\n  "name": "demo",\n  "dependencies": {\n    "left-pad": "1.3.0"\n  }\n}\n'
TRANSCRIPTS = {
    "claude-code-engine": ".claude/projects/*/*.jsonl",
    "codex": ".codex/sessions/*/*/*/rollout-*.jsonl",
}


@pytest.mark.parametrize("harness", sorted(TRANSCRIPTS))
def test_replay_reads_what_the_real_client_recorded(
    harness: str, executables: dict[str, Path], tmp_path: Path
) -> None:
    if harness not in executables:
        pytest.skip(f"{harness} is not installed: run `python3 scripts/e2e_clients.py`")
    runner = RUNNERS[harness](executables[harness], tmp_path / "home")
    project = git_project(tmp_path / "project")
    script = [
        Write(str(project / "package.json"), MANIFEST),
        Write(str(project / "notes.txt"), "notes\n"),
        Finish("Done."),
    ]
    with StandIn(script, cap=12) as standin:
        ran = runner.session(project, standin, "Add left-pad, then write the notes.")
    assert ran.returncode == 0, ran.describe()
    found = sorted(runner.home.glob(TRANSCRIPTS[harness]))
    assert len(found) == 1, found

    fresh = git_project(tmp_path / "fresh")
    argv = [str(HOOKMSG), "replay", str(found[0]), "--project", str(fresh), "--format", "json"]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert data["harness"] == harness
    calls = data["calls"]
    writes = [c for c in calls if c["event"] == "PreToolUse"]
    assert [c["tool"] for c in writes] == [runner.write_tool] * 2
    assert "pretooluse-dependency-guard" in writes[0]["messages"]
    assert "pretooluse-dependency-guard" not in writes[1]["messages"]
    assert calls[0]["event"] == "SessionStart" and calls[0]["messages"]["sessionstart"] > 1000
    assert data["total"] == sum(c["total"] for c in calls) > 0
