"""The fail-open bootstrap every registration runs.

Each registered command line is run for real with `sh -c` (the way Claude Code, Codex,
Qwen Code, Cursor, Kiro, Devin and Copilot's `bash` run it): with the install root
deleted it must exit 0 and print nothing; with the root present it must start the
dispatcher with exactly the argument vector it would get when run directly; and from a
project folder full of hostile modules, with PYTHONPATH and PYTHONSTARTUP pointing at
hostile code, none of that code may run.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookmsg.catalogue import Harness, HookRegistry
from hookmsg.config import load_project
from hookmsg.installing.target import fill_tokens
from hookmsg.registration_plan import BOOT, command_strings, runs_through_boot
from hookmsg.render.registrations import registration_data
from hookmsg.workspace import load_workspace
from tests.support.repository import REPO

pytestmark = pytest.mark.slow

SCRIPT = "hooks/dispatch.py"
PAYLOAD = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Write", "cwd": "/"})
HOSTILE_MODULES = ("runpy", "os", "json", "sys", "site", "sitecustomize", "usercustomize")


def _surfaces() -> list[tuple[Harness, HookRegistry]]:
    workspace = load_workspace(load_project(REPO))
    harnesses = workspace.catalogue.harnesses
    registry = workspace.catalogue.registry
    assert harnesses is not None and registry is not None
    # The xcsh module runs the same bootstrap from JavaScript (tests/test_xcsh_module.py).
    return [
        (h, registry)
        for h in harnesses.harnesses
        if h.registration is not None and h.registration.format != "xcsh"
    ]


SURFACES = _surfaces()
IDS = [h.id for h, _ in SURFACES]


def _commands(harness: Harness, registry: HookRegistry, root: Path, *, strict: bool) -> list[str]:
    """Every command the harness would run, tokens filled, in the shell it runs them."""
    data: Any = registration_data(harness, registry, strict=strict)
    data = fill_tokens(data, {"PYTHON_BIN": sys.executable, "HARNESS_ROOT": str(root)})
    found = []
    for command in command_strings(data):
        if command.startswith("& "):
            continue  # PowerShell forms: checked statically below
        found.append(command)
    assert found, harness.id
    return found


def _run(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["sh", "-c", command],
        cwd=cwd,
        env=env,
        input=PAYLOAD,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, dict[str, str], Path]:
    """A project folder whose own modules, PYTHONPATH and PYTHONSTARTUP leave a mark."""
    project = tmp_path / "project"
    project.mkdir()
    marks = tmp_path / "marks"
    marks.mkdir()
    evil = tmp_path / "evil"
    evil.mkdir()
    for folder in (project, evil):
        for name in HOSTILE_MODULES:
            code = f"open({str(marks / (folder.name + '-' + name))!r}, 'w').close()\n"
            (folder / f"{name}.py").write_text(code, encoding="utf-8")
    startup = evil / "startup.py"
    startup.write_text(f"open({str(marks / 'startup')!r}, 'w').close()\n", encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(tmp_path),
        "PYTHONPATH": f"{evil}:{project}",
        "PYTHONSTARTUP": str(startup),
        "PYTHONHOME": "",
        "CLAUDE_PLUGIN_ROOT": str(tmp_path / "plugin-gone"),
    }
    del env["PYTHONHOME"]
    return project, env, marks


def test_the_bootstrap_is_safe_inside_double_quotes() -> None:
    for char in '$`"\\':
        assert char not in BOOT


@pytest.mark.parametrize(("harness", "registry"), SURFACES, ids=IDS)
@pytest.mark.parametrize("strict", [False, True], ids=["advise", "strict"])
def test_every_command_fails_open_when_the_install_root_is_gone(
    harness: Harness,
    registry: HookRegistry,
    strict: bool,
    tmp_path: Path,
    hostile: tuple[Path, dict[str, str], Path],
) -> None:
    project, env, marks = hostile
    root = tmp_path / "gone" / "hookmsg" / "0.0"
    for command in _commands(harness, registry, root, strict=strict):
        done = _run(command, project, env)
        assert done.returncode == 0, (command, done.stderr)
        assert done.stdout == "", command
    assert sorted(p.name for p in marks.iterdir()) == []


@pytest.mark.parametrize(("harness", "registry"), SURFACES, ids=IDS)
def test_the_dispatcher_sees_the_argv_it_would_get_when_run_directly(
    harness: Harness,
    registry: HookRegistry,
    tmp_path: Path,
    hostile: tuple[Path, dict[str, str], Path],
) -> None:
    project, env, marks = hostile
    root = tmp_path / "install root"  # a space: the command must quote it
    dispatcher = root / SCRIPT
    dispatcher.parent.mkdir(parents=True)
    # A probe in place of the dispatcher: it reports its argv, its __name__ and its stdin.
    dispatcher.write_text(
        "import json, sys\n"
        "print(json.dumps({'argv': sys.argv, 'name': __name__, 'stdin': sys.stdin.read()}))\n",
        encoding="utf-8",
    )
    if harness.registration is not None and harness.registration.format == "claude-plugin":
        env = {**env, "CLAUDE_PLUGIN_ROOT": str(root)}
    for command in _commands(harness, registry, root, strict=False):
        done = _run(command, project, env)
        assert done.returncode == 0, (command, done.stderr)
        seen = json.loads(done.stdout)
        # python -I -S -c BOOT <dispatcher> args... (Claude Code fills the plugin root in).
        expected = [
            word.replace("${CLAUDE_PLUGIN_ROOT}", str(root)) for word in shlex.split(command)[5:]
        ]
        assert seen["argv"] == expected, command
        assert seen["argv"][0] == str(dispatcher)
        assert seen["name"] == "__main__"
        assert seen["stdin"] == PAYLOAD
    assert sorted(p.name for p in marks.iterdir()) == []


@pytest.mark.parametrize(("harness", "registry"), SURFACES, ids=IDS)
def test_powershell_forms_call_the_same_line(harness: Harness, registry: HookRegistry) -> None:
    data = registration_data(harness, registry)
    commands = command_strings(data)
    windows = [c for c in commands if c.startswith("& ")]
    if harness.id in ("codex", "copilot"):
        assert windows, harness.id
        assert len(windows) * 2 == len(commands)
    for command in windows:
        # `& "<python>" -I -S -c "<BOOT>" "<root>/hooks/dispatch.py" ...`: PowerShell's call
        # operator on a double-quoted path; BOOT holds no `$` or backtick, so PowerShell
        # expands nothing inside the double quotes.
        assert runs_through_boot(command)
        assert command[2:] in commands


def test_a_command_without_the_bootstrap_is_recognised() -> None:
    assert not runs_through_boot('"/usr/bin/python3" "/opt/hookmsg/hooks/dispatch.py" Stop stop')
    assert not runs_through_boot("python3 /opt/hookmsg/hooks/dispatch.py Stop stop")
    assert runs_through_boot(f'"/usr/bin/python3" -I -S -c "{BOOT}" "/opt/h/hooks/dispatch.py" S')
