"""Install roots keyed by content: two repositories, or two builds, never share a root;
verify tells stale and foreign content apart and names the command that fixes it;
uninstall takes out what install created; `hookmsg roots` lists and prunes.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result, parse_findings
from tests.support.repository import copy_repository, files_under

Cli = Callable[..., Result]
PYTHON = "/usr/bin/python3"
pytestmark = pytest.mark.slow


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The data folder the default roots go under (a throwaway one)."""
    folder = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder / "hookmsg" / "roots"


def _project(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    return folder


def _install(cli: Cli, harness: str, target: Path) -> Result:
    return cli("install", "--harness", harness, "--project", str(target), "--python", PYTHON)


def _verify(cli: Cli, harness: str, target: Path) -> Result:
    return cli("verify", "--harness", harness, "--project", str(target))


def _codes(result: Result) -> list[str]:
    return [finding.code for finding in parse_findings(result.out)]


def _rename(repository: Path, name: str) -> None:
    pyproject = repository / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    pyproject.write_text(text.replace('name = "hookmsg"', f'name = "{name}"', 1), "utf-8")


def _edit_a_message(repository: Path) -> None:
    message = repository / "messages" / "sessionstart.md"
    text = message.read_text(encoding="utf-8")
    message.write_text(text.replace("move on.", "then move on.", 1), encoding="utf-8")


def test_i011_two_content_repositories_keep_their_own_roots(
    project: Path,
    cli: Cli,
    data: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first, second = _project(tmp_path, "P"), _project(tmp_path, "Q")
    assert _install(cli, "claude-code-engine", first).code == 0
    [root_p] = data.iterdir()
    kept = files_under(root_p)
    other = copy_repository(tmp_path / "other-repo")
    _rename(other, "team-messages")
    _edit_a_message(other)
    monkeypatch.chdir(other)
    assert _install(cli, "claude-code-engine", second).code == 0
    assert len(list(data.iterdir())) == 2
    assert files_under(root_p) == kept  # Q's install left P's root alone
    foreign = _verify(cli, "claude-code-engine", first)  # P, checked from the other repo
    assert foreign.code == 1
    assert _codes(foreign) == ["I011"]
    assert "'hookmsg'" in foreign.out and "'team-messages'" in foreign.out
    assert f"hookmsg install --harness claude-code-engine --project {first}" in foreign.out
    assert _verify(cli, "claude-code-engine", second).code == 0
    monkeypatch.chdir(project)
    assert _verify(cli, "claude-code-engine", first).code == 0


def test_i010_verify_catches_stale_text_and_a_reinstall_upgrades_in_place(
    project: Path, cli: Cli, data: Path, tmp_path: Path
) -> None:
    target = _project(tmp_path, "P")
    assert _install(cli, "codex", target).code == 0
    [old] = data.iterdir()
    _edit_a_message(project)
    stale = _verify(cli, "codex", target)
    assert stale.code == 1
    assert _codes(stale) == ["I010"]
    assert re.search(r"holds build [0-9a-f]{16} of 'hookmsg'; the current build is", stale.out)
    assert "run `hookmsg install --harness codex --project" in stale.out
    assert _install(cli, "codex", target).code == 0
    [new] = data.iterdir()  # the old root no project uses any more is gone
    assert new != old
    assert _verify(cli, "codex", target).code == 0
    text = (target / ".codex" / "hooks.json").read_text(encoding="utf-8")
    assert str(new) in text and str(old) not in text
    delivered = (new / "messages" / "sessionstart.md").read_text(encoding="utf-8")
    assert "then move on." in delivered


def test_i010_a_root_from_before_roots_were_keyed_is_stale(
    project: Path, cli: Cli, data: Path, tmp_path: Path
) -> None:
    target = _project(tmp_path, "P")
    assert _install(cli, "cursor", target).code == 0
    [root] = data.iterdir()
    manifest = json.loads((root / "manifest.json").read_bytes())
    del manifest["source"], manifest["content"]
    (root / "manifest.json").write_text(json.dumps(manifest), encoding="ascii")
    result = _verify(cli, "cursor", target)
    assert result.code == 1
    assert _codes(result) == ["I010"]


def test_a_shared_root_stays_while_another_project_uses_it(
    project: Path, cli: Cli, data: Path, tmp_path: Path
) -> None:
    first, second = _project(tmp_path, "P"), _project(tmp_path, "Q")
    assert _install(cli, "cursor", first).code == 0
    assert _install(cli, "kiro", second).code == 0
    [root] = data.iterdir()  # one build, one root
    assert cli("uninstall", "--harness", "cursor", "--project", str(first)).code == 0
    assert root.is_dir()
    assert _verify(cli, "kiro", second).code == 0
    assert cli("uninstall", "--harness", "kiro", "--project", str(second)).code == 0
    assert not root.exists()  # the last project let it go


def test_uninstall_removes_the_files_and_folders_install_created(
    project: Path, cli: Cli, data: Path, tmp_path: Path
) -> None:
    target = _project(tmp_path, "P")
    (target / "README.md").write_text("mine\n", encoding="utf-8")
    for harness in ("kiro", "xcsh", "copilot"):
        assert _install(cli, harness, target).code == 0, harness
    assert (target / ".kiro" / "hooks").is_dir()
    for harness in ("kiro", "xcsh", "copilot"):
        assert cli("uninstall", "--harness", harness, "--project", str(target)).code == 0
    assert sorted(p.name for p in target.iterdir()) == ["README.md"]
    assert not data.exists() or list(data.iterdir()) == []


def test_roots_lists_the_users_and_prunes_a_root_no_project_uses(
    project: Path, cli: Cli, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = _project(tmp_path, "P"), _project(tmp_path, "Q")
    assert _install(cli, "cursor", first).code == 0
    [used] = data.iterdir()
    other = copy_repository(tmp_path / "other-repo")
    _rename(other, "second")
    monkeypatch.chdir(other)
    assert _install(cli, "cursor", second).code == 0
    monkeypatch.chdir(project)
    shutil.rmtree(second)  # the project went away without an uninstall
    listed = cli("roots")
    assert listed.code == 0
    lines = listed.out.splitlines()
    assert f"{used}\thookmsg\t{used.name[-16:]}\t1 project(s)" in lines
    assert f"\t{first.resolve()}\tcursor" in lines
    [unused] = [line.split("\t")[0] for line in lines if line.endswith("\tunused")]
    assert Path(unused).name.startswith("second-")
    assert cli("roots", "--prune").code == 0
    assert list(data.iterdir()) == [used]
