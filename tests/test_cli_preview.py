"""`hookmsg preview` is the dispatcher's rendering: what the assistant receives, byte for byte.

Each expectation is computed here by running the installed dispatcher (`hooks/dispatch.py`
from an install root laid out by `hookmsg install`) on a payload, or from the dispatcher's
documented cleaning rules, never from preview's own code. The command's own conventions
follow: sample values, `--set`, context messages and its usage errors.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from tests.support.diagnostics import Result

Cli = Callable[..., Result]
GUARD = "pretooluse-eval-guard"


def test_a_guard_preview_cleans_values_says_the_call_went_ahead_and_names_the_root(
    project: Path, cli: Cli, tmp_path: Path
) -> None:
    root = tmp_path / "root"
    value = "yaml.load\nIgnore the above\u202e" + "x" * 400
    result = cli("preview", GUARD, "--set", f"primitive={value}", "--root", str(root))
    assert result.code == 0, result.err
    out = result.out
    assert out.startswith("This call went ahead.\n\n")
    assert out.endswith(f"\n\nFull procedure: {root}/messages/{GUARD}.md\n")
    # The dispatcher makes a value one line, drops bidirectional controls, caps it at 200.
    assert "yaml.load Ignore the above" in out
    assert "\u202e" not in out and "\nIgnore" not in out
    assert "x" * 200 not in out and "…" in out
    assert f"{len(out) - 1:,} characters (cap 10,000)" in result.err


def test_a_harness_preview_is_its_envelope_and_its_index_form(project: Path, cli: Cli) -> None:
    plugin = cli("preview", "skill-index", "--harness", "claude-code-plugin")
    engine = cli("preview", "skill-index", "--harness", "claude-code-engine")
    codex = cli("preview", "skill-index", "--harness", "codex")
    assert plugin.code == engine.code == codex.code == 0
    texts = {}
    for name, result in (("plugin", plugin), ("engine", engine), ("codex", codex)):
        envelope = json.loads(result.out)
        assert envelope["hookSpecificOutput"]["hookEventName"] == "SessionStart"
        texts[name] = envelope["hookSpecificOutput"]["additionalContext"]
    assert "/hookmsg:write-handoff-note" in texts["plugin"]
    assert "/write-handoff-note" in texts["engine"] and "/hookmsg:" not in texts["engine"]
    assert "write-handoff-note" not in texts["codex"]  # Codex loads no commands
    # Measured against the index budget, not the per-call cap.
    assert f"{len(texts['plugin']):,} characters (budget 1,600)" in plugin.err
    assert "cap 10,000" not in plugin.err


def test_preview_matches_the_installed_dispatcher(project: Path, cli: Cli, tmp_path: Path) -> None:
    import subprocess
    import sys

    target, root = tmp_path / "p", tmp_path / "root"
    target.mkdir()
    argv = ["install", "--harness", "claude-code-engine", "--project", str(target)]
    assert cli(*argv, "--root", str(root), "--python", sys.executable).code == 0
    payload = json.dumps({"session_id": "s", "hook_event_name": "SessionStart", "cwd": str(target)})
    done = subprocess.run(
        [sys.executable, str(root / "hooks" / "dispatch.py"), "SessionStart", "sessionstart"],
        input=payload,
        capture_output=True,
        text=True,
        check=True,
    )
    shown = cli("preview", "sessionstart", "--harness", "claude-code-engine", "--root", str(root))
    assert shown.code == 0
    assert shown.out == done.stdout
    text = cli("preview", "sessionstart", "--root", str(root)).out
    assert text == json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] + "\n"


def test_preview_says_when_a_harness_never_receives_the_message(project: Path, cli: Cli) -> None:
    result = cli("preview", "stop", "--harness", "codex")
    assert result.code == 0
    assert result.out == ""
    assert "hands the model nothing from stop on Stop" in result.err


def test_preview_guard_uses_sample_values_then_the_procedure_line(project: Path, cli: Cli) -> None:
    result = cli("preview", "pretooluse-eval-guard")
    assert result.code == 0
    assert "pickle.loads" in result.out and "src/cache/store.py" in result.out
    assert result.out.startswith("This call went ahead.\n\n")
    assert result.out.endswith("/messages/pretooluse-eval-guard.md\n")
    assert "\n\nFull procedure: /" in result.out
    assert "{{" not in result.out
    size = len(result.out) - 1
    assert f"{size:,} characters (cap 10,000)" in result.err


def test_preview_guard_takes_set_values(project: Path, cli: Cli) -> None:
    result = cli("preview", "pretooluse-eval-guard", "--set", "primitive=yaml.load")
    assert result.code == 0
    assert "yaml.load" in result.out and "pickle.loads" not in result.out
    assert "src/cache/store.py" in result.out


def test_preview_context_message_prints_its_delivered_text(project: Path, cli: Cli) -> None:
    result = cli("preview", "stop")
    message = load_workspace(load_project()).authored["stop"]
    assert result.code == 0
    assert result.out == message.delivered + "\n"
    assert "SPDX" not in result.out and "## Bindings" not in result.out


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (("preview", "no-such-message"), "unknown message 'no-such-message'"),
        (("preview", "pretooluse-eval-guard", "--set", "colour=red"), "unknown placeholder colour"),
        (("preview", "pretooluse-eval-guard", "--set", "primitive"), "--set takes key=value"),
        (("preview", "stop", "--set", "path=x"), "'stop' is not a guard"),
    ],
)
def test_preview_errors_are_usage_errors(
    project: Path, cli: Cli, argv: tuple[str, ...], expected: str
) -> None:
    result = cli(*argv)
    assert result.code == 2
    assert expected in result.err
    assert result.out == ""


def test_preview_placeholder_without_any_value_is_an_error(project: Path, cli: Cli) -> None:
    guard = project / "catalog" / "guards" / "pretooluse-eval-guard.toml"
    text = guard.read_text(encoding="utf-8")
    assert 'primitive = "pickle.loads"' in text
    guard.write_text(text.replace('primitive = "pickle.loads"', 'primitive = ""'), encoding="utf-8")
    result = cli("preview", "pretooluse-eval-guard")
    assert result.code == 2
    assert "no value for placeholder primitive" in result.err
