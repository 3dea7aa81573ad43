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
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.harnesses.registration_plan import BOOT, command_strings, runs_through_boot
from hookmsg.install.target import fill_tokens
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from hookmsg.render.registrations import registration_data
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
    # The xcsh module runs the same bootstrap from JavaScript (tests/test_render_xcsh_module.py).
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


# A damaged dispatcher: what a half-finished copy, a disk error or a wrong mode leaves.
ENTRY = (REPO / "scripts" / "hookmsg_dispatch" / "entry.py").read_bytes()
DAMAGED = {
    "truncated": ENTRY[: ENTRY.index(b"sys.path[:]") + 8],
    "undecodable": b"\xff\xfe" + ENTRY.replace(b"Python 3.9", b"Python \xe9\xff 3.9"),
    "syntax-error": ENTRY.replace(b"if __name__ ==", b"if __name__ =", 1),
    "nul-bytes": ENTRY[:40] + b"\x00" + ENTRY[40:],
    "raises-while-loading": b"import sys\nraise RuntimeError('half an install')\n",
}


def _boot_run(
    script: Path, python: str = sys.executable, user: list[str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The registered command, as a harness runs it: `python -I -S -c BOOT <script> ...`."""
    argv = [python, "-I", "-S", "-c", BOOT, str(script), "PreToolUse", "pretooluse-write"]
    return subprocess.run(
        [*(user or []), *argv],
        cwd=script.parent,
        input=PAYLOAD.encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("damage", sorted(DAMAGED))
def test_a_damaged_dispatcher_exits_0_with_no_output(damage: str, tmp_path: Path) -> None:
    script = tmp_path / "hooks" / "dispatch.py"
    script.parent.mkdir()
    script.write_bytes(DAMAGED[damage])
    # Run bare, the damage shows: Python exits non-zero with a traceback.
    bare = subprocess.run(
        [sys.executable, "-I", "-S", str(script)], capture_output=True, check=False
    )
    assert bare.returncode != 0 and bare.stderr, damage
    done = _boot_run(script)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b""), damage


def _as_nobody() -> list[str] | None:
    """A prefix that runs a command as `nobody` (needs root and setpriv), else None."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        return None
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]


def test_an_unreadable_dispatcher_exits_0_with_no_output(tmp_path: Path) -> None:
    user = _as_nobody()
    python = sys.executable
    if os.geteuid() == 0:
        if user is None:
            pytest.skip("root reads any file, and setpriv is missing to run as another user")
        # The test's own interpreter may sit under root's home; a system one nobody can run.
        found = [p for p in ("/usr/bin/python3", "/usr/local/bin/python3") if Path(p).is_file()]
        if not found:
            pytest.skip("no system Python that another user can run")
        python = found[0]
        folder = Path(tempfile.mkdtemp(prefix="hookmsg-unreadable-"))
        folder.chmod(0o755)  # tmp_path's parents are root's alone
    else:
        folder = tmp_path
    try:
        script = folder / "hooks" / "dispatch.py"
        script.parent.mkdir(mode=0o755)
        script.write_text("print('the dispatcher ran')\n", encoding="utf-8")
        script.chmod(0o644)
        control = _boot_run(script, python, user)
        assert control.stdout == b"the dispatcher ran\n", control.stderr  # it runs when readable
        script.chmod(0o000)
        done = _boot_run(script, python, user)
        assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    finally:
        if folder != tmp_path:
            shutil.rmtree(folder, ignore_errors=True)


def test_a_dispatcher_that_fails_while_running_exits_0(tmp_path: Path) -> None:
    script = tmp_path / "dispatch.py"
    script.write_text("import sys\nsys.stdout.write('')\n1 / 0\n", encoding="utf-8")
    done = _boot_run(script)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")


def test_the_bootstrap_imports_no_runpy(tmp_path: Path) -> None:
    script = tmp_path / "dispatch.py"
    script.write_text(
        "import sys\nprint(sorted(m for m in ('runpy', 'pkgutil', 'typing', 're', 'enum')"
        " if m in sys.modules))\n",
        encoding="utf-8",
    )
    done = _boot_run(script)
    assert done.stdout == b"[]\n", done.stderr


def test_a_command_of_an_earlier_bootstrap_is_still_ours() -> None:
    from hookmsg.harnesses.registration_plan import LEGACY_BOOTS
    from hookmsg.install.merge import command_target

    for boot in (BOOT, *LEGACY_BOOTS):
        command = f'"/usr/bin/python3" -I -S -c "{boot}" "/opt/h r/hooks/dispatch.py" Stop stop'
        assert runs_through_boot(command)
        assert command_target(command) == ("/usr/bin/python3", "/opt/h r/hooks/dispatch.py")
