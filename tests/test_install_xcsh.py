"""`hookmsg install`, `verify` and `uninstall --harness xcsh`: the module as a whole file.

The installed module is then loaded the way xcsh loads an extension (the Node stand-in of
`pi`) and runs the dispatcher of the install root that `install` laid out.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result, parse_findings
from tests.support.dispatch import clean_env, delivered
from tests.support.text import write

Cli = Callable[..., Result]
MODULE = ".xcsh/extensions/hookmsg.js"
NODE = shutil.which("node")
STANDIN = Path(__file__).resolve().parent / "xcsh_standin.mjs"


@pytest.fixture
def places(project: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(a project folder, an install root that does not exist yet)."""
    target = tmp_path / "my project"
    target.mkdir()
    return target, tmp_path / "data" / "hookmsg" / "1.0"


def run(cli: Cli, verb: str, target: Path, *extra: str) -> Result:
    return cli(verb, "--harness", "xcsh", "--project", str(target), *extra)


def install(cli: Cli, target: Path, root: Path, *extra: str) -> Result:
    return run(cli, "install", target, "--root", str(root), "--python", sys.executable, *extra)


@pytest.mark.slow
def test_install_verify_uninstall(cli: Cli, places: tuple[Path, Path]) -> None:
    target, root = places
    result = install(cli, target, root)
    assert result.code == 0, result.out + result.err
    module = target / MODULE
    text = module.read_text(encoding="utf-8")
    assert text.startswith("// hookmsg: hook messages for xcsh")
    assert f'const ROOT = "{root}";' in text
    assert f'const PYTHON = "{sys.executable}";' in text
    assert "${" not in text.replace('"$" + "{"', "")
    assert (root / "hooks" / "dispatch.py").is_file()
    assert run(cli, "verify", target).code == 0
    again = install(cli, target, root)
    assert again.code == 0 and "already current" in again.err
    assert run(cli, "uninstall", target).code == 0
    assert not module.exists()
    gone = run(cli, "verify", target)
    assert gone.code == 1
    assert [f.code for f in parse_findings(gone.out)] == ["I007"]
    assert run(cli, "uninstall", target).code == 0  # nothing left to remove: still fine


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not installed: cannot load the module")
def test_the_installed_module_delivers_from_the_install_root(
    cli: Cli, places: tuple[Path, Path], tmp_path: Path
) -> None:
    target, root = places
    assert install(cli, target, root).code == 0
    assert NODE is not None
    scenario = '{"events": [{"name": "session_start", "event": {}}]}'
    done = subprocess.run(
        [NODE, str(STANDIN), str(target / MODULE)],
        input=scenario,
        capture_output=True,
        text=True,
        env=clean_env(tmp_path / "state"),
        check=True,
        timeout=300,  # a safety net for a hung child, not a measured duration
    )
    record = json.loads(done.stdout)
    [sent] = [c for c in record["calls"] if c["kind"] == "sendMessage"]
    assert delivered(root, "sessionstart") in sent["message"]["content"]
    # xcsh loads no skills, so it receives no skill index.
    assert delivered(root, "skill-index", "xcsh") == ""
    assert "Load a skill" not in sent["message"]["content"]


@pytest.mark.slow
def test_verify_reports_a_stale_module_and_an_incomplete_root(
    cli: Cli, places: tuple[Path, Path]
) -> None:
    target, root = places
    assert install(cli, target, root).code == 0
    module = target / MODULE
    original = module.read_text(encoding="utf-8")
    module.write_text(original.replace('"timeout": 10000', '"timeout": 1'), encoding="utf-8")
    stale = run(cli, "verify", target)
    assert stale.code == 1
    assert [(f.path, f.code) for f in parse_findings(stale.out)] == [(str(module), "I008")]
    module.write_text(original, encoding="utf-8")
    (root / "messages" / "sessionstart.md").write_text("changed\n", encoding="utf-8")
    broken = run(cli, "verify", target)
    assert broken.code == 1
    assert {f.code for f in parse_findings(broken.out)} == {"I009"}


@pytest.mark.parametrize("verb", ["install", "uninstall"])
def test_a_file_hookmsg_did_not_write_is_left_alone(
    cli: Cli, places: tuple[Path, Path], verb: str
) -> None:
    target, root = places
    mine = write(target / MODULE, "export default function (pi) { /* the user's own */ }\n")
    before = mine.read_bytes()
    result = install(cli, target, root) if verb == "install" else run(cli, verb, target)
    assert result.code == 1, result.out + result.err
    assert [f.code for f in parse_findings(result.out)] == ["I005"]
    assert mine.read_bytes() == before


def test_dry_run_prints_the_module_and_writes_nothing(cli: Cli, places: tuple[Path, Path]) -> None:
    target, root = places
    result = install(cli, target, root, "--dry-run")
    assert result.code == 0, result.err
    assert f"+++ {target / MODULE}" in result.out
    assert not (target / ".xcsh").exists()
    assert not root.exists()


@pytest.mark.slow
def test_user_folder(
    cli: Cli, places: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target, root = places
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert install(cli, target, root, "--user").code == 0
    assert (home / ".xcsh" / "agent" / "extensions" / "hookmsg.js").is_file()
    assert not (target / ".xcsh").exists()
    assert run(cli, "verify", target, "--user").code == 0
    assert run(cli, "uninstall", target, "--user").code == 0
    assert not (home / ".xcsh" / "agent" / "extensions" / "hookmsg.js").exists()


def test_user_is_refused_for_a_settings_file_harness(cli: Cli, places: tuple[Path, Path]) -> None:
    target, _ = places
    result = cli("verify", "--harness", "codex", "--project", str(target), "--user")
    assert result.code == 2
    assert "--user applies to the xcsh module only" in result.err
