"""`install`, `verify` and `uninstall --harness oh-my-pi|pi`: xcsh's generated module, put
where each upstream loads extensions (project and `--user`), never in `.xcsh/`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result, parse_findings
from tests.support.repository import REPO

Cli = Callable[..., Result]
# harness -> (its project module, its user module under HOME)
PLACES = {
    "oh-my-pi": (".omp/extensions/hookmsg.js", ".omp/agent/extensions/hookmsg.js"),
    "pi": (".pi/extensions/hookmsg.js", ".pi/agent/extensions/hookmsg.js"),
}


def run(cli: Cli, verb: str, harness: str, target: Path, *extra: str) -> Result:
    return cli(verb, "--harness", harness, "--project", str(target), *extra)


@pytest.mark.parametrize("harness", sorted(PLACES))
def test_install_verify_uninstall_in_the_project_and_the_user_folder(
    project: Path,
    cli: Cli,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    harness: str,
) -> None:
    target = tmp_path / "work"
    target.mkdir()
    root = tmp_path / "root"
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    project_module, user_module = PLACES[harness]
    options = ("--root", str(root), "--python", sys.executable)
    for extra, module in (((), target / project_module), (("--user",), home / user_module)):
        installed = run(cli, "install", harness, target, *options, *extra)
        assert installed.code == 0, installed.out + installed.err
        text = module.read_text(encoding="utf-8")
        assert f'const CONTRACT = "{harness}";' in text
        assert f'const ROOT = "{root}";' in text
        assert run(cli, "verify", harness, target, *extra).code == 0
        assert run(cli, "uninstall", harness, target, *extra).code == 0
        assert not module.exists()
        gone = run(cli, "verify", harness, target, *extra)
        assert [f.code for f in parse_findings(gone.out)] == ["I007"]
    assert not (target / ".xcsh").exists() and not (home / ".xcsh").exists()


def test_pi_registers_no_compaction_and_oh_my_pi_does() -> None:
    generated = REPO / "generated"
    assert '"session.compacting": {' in (generated / "oh-my-pi" / "hookmsg.js").read_text("utf-8")
    assert '"session.compacting": {' not in (generated / "pi" / "hookmsg.js").read_text("utf-8")
