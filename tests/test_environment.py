"""The same answers in any environment: GitHub's runners, NO_COLOR, a dumb terminal, a
non-UTF-8 locale and another working directory.

`conftest.py` starts every test without the variables that change hookmsg's output;
these tests set them on purpose, in a child process, and check what changes and what
does not. `.ci/run` also runs part of the suite again with them all set.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repository import REPO

pytestmark = pytest.mark.slow

HOOKMSG = [sys.executable, "-c", "import sys; from hookmsg.cli.main import run; sys.exit(run())"]


def hookmsg(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, **env}
    return subprocess.run(
        [*HOOKMSG, *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="strict",
        check=False,
        timeout=600,
    )


def _drift(project: Path) -> None:
    path = project / "messages/stop.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\n## Bindings", "\nCafé → done.\n\n## Bindings"), "utf-8")


def test_github_actions_switches_the_default_format_only(project: Path) -> None:
    clean = hookmsg(project, "check", GITHUB_ACTIONS="true")
    assert (clean.returncode, clean.stdout) == (0, "")
    _drift(project)
    drifted = hookmsg(project, "check", GITHUB_ACTIONS="true")
    assert drifted.returncode == 1
    lines = drifted.stdout.splitlines()
    assert lines and all(line.startswith("::error file=generated/") for line in lines)
    explicit = hookmsg(project, "check", "--format", "text", GITHUB_ACTIONS="true")
    assert "generated/hook-message-inventory.json:1:1: G002 " in explicit.stdout


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"TERM": "dumb"}], ids=["no-color", "dumb"])
def test_no_colour_codes_without_a_terminal(project: Path, env: dict[str, str]) -> None:
    _drift(project)
    result = hookmsg(project, "check", **env)
    assert result.returncode == 1
    assert "\x1b" not in result.stdout + result.stderr


def test_non_utf8_locale_prints_escapes_instead_of_crashing(project: Path) -> None:
    # LC_ALL=C without UTF-8 mode: standard output is ASCII.
    env = {"LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}
    _drift(project)
    (project / "generated/advisories.json").write_text('{\n  "é": "→"\n}\n', "utf-8")
    text = hookmsg(project, "check", **env)
    assert text.returncode == 1, text.stderr
    assert "Traceback" not in text.stderr
    assert "\\u2192" in text.stdout  # the arrow, written as an escape
    as_json = hookmsg(project, "check", "--format", "json", **env)
    assert as_json.returncode == 1, as_json.stderr
    records = json.loads(as_json.stdout)  # escapes are still valid JSON
    diff = next(r["diff"] for r in records if r["path"] == "generated/advisories.json")
    assert '"é": "→"' in diff


def test_commands_find_the_project_from_a_subfolder(project: Path) -> None:
    result = hookmsg(project / "messages", "check")
    assert (result.returncode, result.stdout) == (0, "")


def test_suite_passes_from_another_folder_on_a_github_runner(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "GITHUB_ACTIONS": "true",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(REPO / "tests/test_cli_validate.py"),
            str(REPO / "tests/test_cli_build.py") + "::test_clean_tree_passes_and_writes_nothing",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
