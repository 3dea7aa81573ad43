"""Settings that cannot hurt, and confinement: no command touches a file outside the
generated folder, through a setting, a name, a manifest entry or a link.

Every dangerous `generated` value is refused with K001 by every face (`hookmsg` and
`doit`) before any path is read; build removes only files its manifest proves are its
own; links inside the generated folder and files it did not write are refused.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result
from tests.support.harnesses import harness_override
from tests.support.repository import copy_repository, files_under
from tests.support.text import edit

Cli = Callable[..., Result]
DOIT_COPIED = ("pyproject.toml", "messages", "catalog", "generated", "dodo.py", "scripts")


def tree(root: Path) -> dict[str, bytes | None]:
    """Every path under `root` without following links: files with bytes, the rest None."""
    found: dict[str, bytes | None] = {}
    for here, dirs, names in os.walk(root, followlinks=False):
        for name in [*dirs, *names]:
            path = Path(here) / name
            key = path.relative_to(root).as_posix()
            regular = path.is_file() and not path.is_symlink()
            found[key] = path.read_bytes() if regular else None
    return found


def doit(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS",)}
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "doit", *args],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy that doit can run in (with dodo.py and scripts/); cwd inside it."""
    root = copy_repository(tmp_path / "repo", DOIT_COPIED)
    monkeypatch.chdir(root)
    return root


# =========================================================================== settings

DANGEROUS = [
    ".",
    "./",
    "./.",
    ".git",
    ".git/hooks",
    "messages",
    "messages/generated",
    "catalog",
    "catalog/out",
    "scripts",
    "scripts/hookmsg",
    "tests",
    "dist",
    "Messages",
    "pyproject.toml",
    "dodo.py",
    "/tmp/generated",
    "../generated",
    "generated/../..",
    "~/generated",
    "generated\\\\sub",
]


@pytest.mark.slow
@pytest.mark.parametrize("value", DANGEROUS)
def test_every_dangerous_generated_value_is_k001_everywhere(
    repo: Path, cli: Cli, value: str
) -> None:
    (repo / ".git").mkdir()
    (repo / ".git/HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    edit(repo / "pyproject.toml", 'generated = "generated"', f'generated = "{value}"')
    before = tree(repo)
    for command in (["build"], ["build", "-v"], ["check"], ["validate"], ["package"]):
        result = cli(*command)
        assert result.code == 2, (command, result.out, result.err)
        assert "K001" in result.err and "'generated'" in result.err, result.err
    # Every doit command loads dodo.py, which checks the settings first: one suffices here
    # (test_no_doit_command_gives_a_traceback_for_a_bad_setting tries them all).
    for args in (["list"],) if value != "." else ([], ["list"], ["clean"]):
        done = doit(repo, *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert "K001" in done.stderr and "'generated'" in done.stderr, done.stderr
        assert "Traceback" not in done.stdout + done.stderr
    assert tree(repo) == before


def test_generated_folder_that_contains_the_messages_is_k001(repo: Path, cli: Cli) -> None:
    edit(repo / "pyproject.toml", 'messages = "messages"', 'messages = "generated/messages"')
    result = cli("build")
    assert result.code == 2
    assert "contains 'generated/messages'" in result.err


def test_generated_folder_reached_through_a_link_is_k001(
    repo: Path, cli: Cli, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("not hookmsg's\n", encoding="utf-8")
    (repo / "linked").symlink_to(elsewhere)
    edit(repo / "pyproject.toml", 'generated = "generated"', 'generated = "linked"')
    result = cli("build")
    assert result.code == 2
    assert "symbolic link" in result.err
    assert files_under(elsewhere) == {"keep.txt": b"not hookmsg's\n"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "value",
    ["5", '["a"]'],
)
@pytest.mark.parametrize("key", ["messages", "catalog", "generated"])
def test_no_doit_command_gives_a_traceback_for_a_bad_setting(
    repo: Path, key: str, value: str
) -> None:
    edit(repo / "pyproject.toml", f'{key} = "{key}"', f"{key} = {value}")
    for args in ([], ["list"], ["check"], ["info", "validate"]):
        done = doit(repo, *args)
        assert done.returncode == 2, done.stdout + done.stderr
        assert f"K001 [tool.hookmsg] key '{key}'" in done.stderr
        assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.slow
def test_tool_hookmsg_not_a_table_is_k001_from_doit_list(repo: Path) -> None:
    path = repo / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    start = text.index("[tool.hookmsg]")
    end = text.index("\n[", start + 1)
    path.write_text(text[:start] + "[tool]\nhookmsg = 1\n" + text[end:], encoding="utf-8")
    done = doit(repo, "list")
    assert done.returncode == 2
    assert "K001" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# =========================================================================== build's deletes


def _manifest(root: Path) -> dict[str, object]:
    record: dict[str, object] = json.loads(
        (root / "generated/outputs.json").read_text(encoding="utf-8")
    )
    return record


@pytest.mark.slow
def test_manifest_entries_that_leave_the_folder_prove_nothing(repo: Path, cli: Cli) -> None:
    record = _manifest(repo)
    names = list(record["outputs"])  # type: ignore[call-overload]
    record["outputs"] = [*names, "../pyproject.toml", "/etc/hostname", "../catalog/hooks.toml"]
    (repo / "generated/outputs.json").write_text(json.dumps(record), encoding="utf-8")
    before = {p: (repo / p).read_bytes() for p in ("pyproject.toml", "catalog/hooks.toml")}
    result = cli("build")
    assert result.code == 0, result.out + result.err
    assert {p: (repo / p).read_bytes() for p in before} == before
    assert cli("check").code == 0


@pytest.mark.slow
def test_renamed_registration_leaves_no_stale_file_after_build_or_doit(
    repo: Path, cli: Cli
) -> None:
    text = harness_override(repo).read_text(encoding="utf-8")
    start = text.index('id = "cursor"')
    at = text.index('file = "hooks.json"', start)
    renamed = text[:at] + 'file = "hookmsg-hooks.json"' + text[at + len('file = "hooks.json"') :]
    harness_override(repo).write_text(renamed, encoding="utf-8")
    done = doit(repo)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (repo / "generated/cursor/hooks.json").exists()
    assert (repo / "generated/cursor/hookmsg-hooks.json").is_file()
    assert cli("check").code == 0


@pytest.mark.slow
def test_stray_file_fails_doit_and_doit_writes_nothing(repo: Path, cli: Cli) -> None:
    assert doit(repo).returncode == 0
    (repo / "generated/notes.md").write_text("mine\n", encoding="utf-8")
    path = repo / "messages/stop.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("\n## Bindings", "\nMore.\n\n## Bindings"),
        encoding="utf-8",
    )
    before = tree(repo / "generated")
    done = doit(repo)
    assert done.returncode != 0, done.stdout
    assert "G005" in done.stdout + done.stderr
    assert tree(repo / "generated") == before
    (repo / "generated/notes.md").unlink()
    assert doit(repo).returncode == 0
    assert cli("check").code == 0


@pytest.mark.slow
def test_symlinked_subfolder_of_generated_is_refused_and_never_written_through(
    repo: Path, cli: Cli, tmp_path: Path
) -> None:
    victim = tmp_path / "dot-codex"
    victim.mkdir()
    (victim / "hooks.json").write_text('{"mine": true}\n', encoding="utf-8")
    codex = repo / "generated/codex"
    for child in codex.iterdir():
        child.unlink()
    codex.rmdir()
    codex.symlink_to(victim)
    for command in (["build"], ["check"], ["validate"]):
        result = cli(*command)
        assert result.code == 1, (command, result.out, result.err)
        assert "generated/codex:1:1: G006 " in result.out
    done = doit(repo)
    assert done.returncode != 0
    assert "G006" in done.stdout + done.stderr
    assert files_under(victim) == {"hooks.json": b'{"mine": true}\n'}


@pytest.mark.slow
def test_harness_file_name_cannot_reach_doit_targets_or_clean(
    repo: Path, cli: Cli, tmp_path: Path
) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "notes.txt").write_text("precious\n", encoding="utf-8")
    text = harness_override(repo).read_text(encoding="utf-8")
    start = text.index('id = "cursor"')
    at = text.index('file = "hooks.json"', start)
    bad = 'file = "../../../victim/notes.txt"'
    harness_override(repo).write_text(
        text[:at] + bad + text[at + len('file = "hooks.json"') :], encoding="utf-8"
    )
    assert "C002" in cli("validate").out
    for args in (["clean", "registrations"], ["clean"], [], ["list", "--all"]):
        done = doit(repo, *args)
        assert "Traceback" not in done.stdout + done.stderr
        assert "victim" not in done.stdout
    assert (victim / "notes.txt").read_text(encoding="utf-8") == "precious\n"


@pytest.mark.slow
def test_doit_clean_never_deletes_committed_outputs(repo: Path) -> None:
    before = files_under(repo / "generated")
    assert doit(repo).returncode == 0
    done = doit(repo, "clean")
    assert done.returncode == 0, done.stdout + done.stderr
    assert files_under(repo / "generated") == before


# =========================================================================== no tracebacks


def test_deeply_nested_catalogue_is_c001(repo: Path, cli: Cli) -> None:
    with (repo / "catalog/hooks.toml").open("a", encoding="utf-8") as handle:
        handle.write("\ndeep = " + "[" * 5000 + "]" * 5000 + "\n")
    result = cli("validate")
    assert result.code == 1
    assert "catalog/hooks.toml:1:1: C001 " in result.out
    assert "Traceback" not in result.err


@pytest.mark.slow
def test_deeply_nested_pyproject_is_k002_everywhere(repo: Path, cli: Cli) -> None:
    with (repo / "pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write("\n[tool.other]\ndeep = " + "[" * 5000 + "]" * 5000 + "\n")
    result = cli("check")
    assert result.code == 2
    assert "K002" in result.err
    # doit reads pyproject.toml itself (its [tool.doit] table) before dodo.py loads, so
    # what it prints is its own; it still fails, and never runs a task.
    done = doit(repo, "list")
    assert done.returncode != 0


def test_unremovable_stale_file_is_one_line_and_changes_nothing(
    repo: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = repo / "generated/cursor/old.json"
    stale.write_text("{}\n", encoding="utf-8")
    record = _manifest(repo)
    record["outputs"] = sorted([*record["outputs"], "cursor/old.json"])  # type: ignore[misc]
    (repo / "generated/outputs.json").write_text(json.dumps(record), encoding="utf-8")
    advisories = repo / "generated/advisories.json"
    advisories.write_bytes(advisories.read_bytes() + b"\n")
    before = tree(repo / "generated")
    real_replace = Path.replace

    def refuse(self: Path, target: str | os.PathLike[str]) -> Path:
        if self.name == "old.json":
            raise PermissionError(13, "Permission denied", str(self))
        return real_replace(self, target)

    monkeypatch.setattr(Path, "replace", refuse)
    result = cli("build")
    assert result.code == 1
    assert "Permission denied" in result.err
    assert "every output is as it was" in result.err
    assert "Traceback" not in result.err
    assert tree(repo / "generated") == before


@pytest.mark.slow
def test_no_home_and_unknown_user_id_still_checks(
    repo: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pwd

    for name in ("HOOKMSG_CACHE_DIR", "XDG_CACHE_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", unknown)
    for _ in range(2):
        result = cli("check")
        assert result.code == 0, result.err


@pytest.mark.slow
def test_relative_xdg_cache_home_is_ignored(
    repo: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("HOOKMSG_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative-cache")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    before = tree(repo)
    assert cli("check").code == 0
    assert cli("check").code == 0
    assert tree(repo) == before
    assert not (repo / "relative-cache").exists()


@pytest.mark.slow
def test_doit_state_that_is_a_folder_is_k003(repo: Path) -> None:
    (repo / ".doit.db").mkdir()
    done = doit(repo)
    assert done.returncode == 2
    assert "K003" in done.stderr
    assert "Traceback" not in done.stdout + done.stderr
