"""`hookmsg replay`: a recorded session through the dispatcher, priced per call.

The fixtures are real recordings (Claude Code 2.1.332 and Codex 0.171.0 against the stand-in
endpoint: a `package.json` that adds a dependency, then a notes file), reduced to the lines
a transcript reader uses, with the project moved to /home/dev/demo. The expected costs are
the lengths of the texts the installed dispatcher delivers for the same calls.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.cli.transcript import MAX_LINE, read_session
from tests.support.diagnostics import Result
from tests.support.repository import REPO

Cli = Callable[..., Result]
FIXTURES = REPO / "tests" / "fixtures" / "transcripts"


def _git_project(folder: Path) -> Path:
    folder.mkdir()
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    return folder


def _messages(root: Path) -> dict[str, str]:
    return {p.stem: p.read_text("utf-8").strip() for p in (root / "messages").glob("*.md")}


CASES = {
    "claude-code-engine": ("claude-code.jsonl", "Write"),
    "codex": ("codex.jsonl", "apply_patch"),
}


@pytest.mark.parametrize("harness", sorted(CASES))
def test_replay_reports_each_call_what_fires_and_its_cost(
    project: Path, cli: Cli, tmp_path: Path, harness: str
) -> None:
    name, tool = CASES[harness]
    target = _git_project(tmp_path / "demo")
    result = cli("replay", str(FIXTURES / name), "--project", str(target), "--format", "json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["harness"] == harness
    calls = data["calls"]
    assert [c["event"] for c in calls] == [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    ]
    assert calls[2]["tool"] == tool
    root = tmp_path / "root"
    assert (
        cli(
            "install",
            "--harness",
            harness,
            "--project",
            str(tmp_path / "demo"),
            "--root",
            str(root),
            "--python",
            "/usr/bin/python3",
        ).code
        == 0
    )
    texts = _messages(root)
    start = calls[0]["messages"]
    assert start["sessionstart"] == len(texts["sessionstart"])
    form = "skill-index-engine" if harness == "claude-code-engine" else "skill-index-skills"
    assert start["skill-index"] == len(texts[form])
    # The manifest write draws the dependency guard; the notes file does not.
    assert "pretooluse-dependency-guard" in calls[2]["messages"]
    assert "pretooluse-dependency-guard" not in calls[4]["messages"]
    assert calls[2]["messages"]["pretooluse-write"] == len(texts["pretooluse-write"])
    # Claude Code hands Stop context to the model; Codex does not.
    assert ("stop" in calls[6]["messages"]) == (harness == "claude-code-engine")
    assert data["total"] == sum(c["total"] for c in calls)
    totals = data["totals"]
    assert totals["pretooluse-write"] == {
        "calls": 2,
        "characters": 2 * len(texts["pretooluse-write"]),
    }


def test_replay_text_report_ends_with_the_totals(project: Path, cli: Cli) -> None:
    result = cli("replay", str(FIXTURES / "claude-code.jsonl"))
    assert result.code == 0, result.err
    lines = result.out.rstrip("\n").split("\n")
    assert lines[0] == "replay of a claude-code session for claude-code-engine: 7 hook calls"
    assert lines[-1].startswith("total: ") and lines[-1].endswith(" characters over 7 hook calls")
    assert "per message (calls, characters):" in lines


def test_the_reader_skips_an_over_long_line_and_junk_without_reading_them_whole(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.jsonl"
    lines = (FIXTURES / "claude-code.jsonl").read_bytes().split(b"\n")
    junk = b'{"type": "user", "message": {"content": "' + b"x" * (MAX_LINE + 10) + b'"}}'
    path.write_bytes(b"\n".join([lines[0], junk, b"not json", b"[1, 2]", *lines[1:]]))
    session = read_session(path)
    assert session.skipped == 3
    assert [e.event for e in session.events].count("PreToolUse") == 2


def test_replay_refuses_what_is_not_a_transcript(project: Path, cli: Cli, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("not json\n", encoding="utf-8")
    result = cli("replay", str(empty))
    assert result.code == 2
    assert "cannot be replayed" in result.err and "Traceback" not in result.err
