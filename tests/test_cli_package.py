"""`hookmsg package`, the release archive, through the CLI: reproducible, named by content,
never overwritten, and holding only what the check validated."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import subprocess
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result

Cli = Callable[..., Result]


def _archive(project: Path) -> bytes:
    return next((project / "dist").glob("*.tar.gz")).read_bytes()


@pytest.mark.slow
def test_package_is_reproducible_and_its_manifest_matches(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert cli("package").code == 0
    first = _archive(project)
    (project / "dist").rename(project / "dist-1")
    assert cli("package").code == 0
    assert _archive(project) == first

    header = first[:10]
    assert header[3] & 0x08 == 0, "the gzip header must not carry a file name"
    assert int.from_bytes(header[4:8], "little") == 0, "the gzip header carries no time"

    with tarfile.open(fileobj=io.BytesIO(gzip.decompress(first))) as tar:
        members = tar.getmembers()
        names = [m.name for m in members]
        assert names == sorted(names)
        for member in members:
            assert (member.uid, member.gid, member.uname, member.gname) == (0, 0, "", "")
            assert member.mtime == 1700000000
            assert member.mode == (0o755 if member.isdir() else 0o644)
        files = {
            m.name: tar.extractfile(m).read()  # type: ignore[union-attr]
            for m in members
            if m.isfile()
        }
    manifest = json.loads(files.pop("manifest.json"))
    listed = {f["path"]: f for f in manifest["files"]}
    assert set(listed) == set(files)
    for path, data in files.items():
        assert listed[path]["size"] == len(data)
        assert listed[path]["sha256"] == hashlib.sha256(data).hexdigest()
    assert (
        files["generated/advisories.json"] == (project / "generated/advisories.json").read_bytes()
    )
    # The entries sit at the top level: unpacked into an empty folder, it is an install root.
    assert all(not name.startswith(("/", "hookmsg-assets")) for name in names)
    assert "messages/pretooluse-eval-guard.md" in files
    assert not files["messages/stop.md"].startswith(b"<!--")
    # The installed table is the generated one, each message's guard data in a file beside it.
    table = json.loads(files["data/dispatch-table.json"])
    built = json.loads(files["generated/dispatch-table.json"])
    conditions, literals = built.pop("conditions"), built.pop("literals")
    assert table == {**built, "guard_data": sorted(conditions)}
    for name, condition in conditions.items():
        own = json.loads(files[f"data/guards/{name}.json"])
        assert own["condition"] == condition
        assert own["literals"].items() <= literals.items()
    assert {path for path in files if path.startswith("data/guards/")} == {
        f"data/guards/{name}.json" for name in conditions
    }
    assert files["hooks/dispatch.py"].startswith(b'"""hookmsg hook dispatcher')
    assert "hooks/hookmsg_dispatch/main.py" in files


def _git(root: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=root, check=True, capture_output=True)


def _git_checkout(root: Path) -> None:
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(
        root,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-qm",
        "first",
    )
    _git(root, "tag", "v9.8.7")


@pytest.mark.slow
def test_build_and_package_are_quiet_without_verbose(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    (project / "generated/advisories.json").write_text("{}\n", encoding="utf-8")
    assert (cli("build").code, cli("build").out) == (0, "")
    (project / "generated/advisories.json").write_text("{}\n", encoding="utf-8")
    built = cli("build")
    assert (built.code, built.out, built.err) == (0, "", "")
    packed = cli("package")
    assert (packed.code, packed.out, packed.err) == (0, "", "")
    assert "wrote " in cli("package", "--content-version", "v2", "-v").err


@pytest.mark.slow
def test_archive_name_carries_the_content_version(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    _git_checkout(project)
    assert cli("package").code == 0
    assert [p.name for p in (project / "dist").iterdir()] == ["hookmsg-assets-v9.8.7.tar.gz"]
    assert cli("package", "--content-version", "2026.12.1").code == 0
    assert (project / "dist/hookmsg-assets-2026.12.1.tar.gz").is_file()
    bad = cli("package", "--content-version", "../../x")
    assert bad.code == 2
    assert not (project.parent / "x.tar.gz").exists()


@pytest.mark.slow
def test_packaging_a_dirty_tree_warns(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    _git_checkout(project)
    clean = cli("package")
    assert clean.code == 0 and "uncommitted" not in clean.err
    (project / "catalog/skills.toml").write_text(
        (project / "catalog/skills.toml").read_text(encoding="utf-8") + "\n", encoding="utf-8"
    )
    dirty = cli("package")
    assert dirty.code == 0, dirty.err
    assert "warning: the working tree has uncommitted changes" in dirty.err
    assert (project / "dist/hookmsg-assets-v9.8.7-dirty.tar.gz").is_file()


@pytest.mark.slow
def test_existing_archive_with_different_bytes_is_never_overwritten(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert cli("package", "--content-version", "1.0").code == 0
    target = project / "dist/hookmsg-assets-1.0.tar.gz"
    same = target.read_bytes()
    assert cli("package", "--content-version", "1.0").code == 0  # same bytes: fine
    assert target.read_bytes() == same
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1800000000")
    result = cli("package", "--content-version", "1.0")
    assert result.code == 1
    assert "exists with different bytes" in result.err
    assert target.read_bytes() == same


def test_package_refuses_when_check_fails(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    (project / "generated" / "advisories.json").write_text("{}\n", encoding="utf-8")
    result = cli("package")
    assert result.code == 1
    assert "package refused" in result.err
    assert not (project / "dist").exists()


@pytest.mark.slow
def test_package_rejects_a_bad_source_date_epoch(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    result = cli("package")
    assert result.code == 2
    assert "SOURCE_DATE_EPOCH" in result.err


@pytest.mark.slow
def test_package_holds_only_what_the_check_validated(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A source edited after the check passed (here: a bidi override, D003) is never
    archived: package notices that its inputs changed and writes nothing."""
    import hookmsg.cli.commands.package as command

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    real_build = command.build
    stop = project / "messages/stop.md"

    def check_then_edit(*args: object, **kwargs: object) -> int:
        code = real_build(*args, **kwargs)  # type: ignore[arg-type]
        text = stop.read_text(encoding="utf-8")
        stop.write_text(text.replace("\n## Bindings", "\nA \u202e B.\n\n## Bindings"), "utf-8")
        return code

    monkeypatch.setattr(command, "build", check_then_edit)
    result = cli("package", "--content-version", "1.0")
    assert result.code == 1
    assert "changed while it ran" in result.err
    assert not (project / "dist").exists()
