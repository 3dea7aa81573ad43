"""Reading a source (`inputs/source.py`): files over `max-file-bytes` refused without being
read, and symbolic links (loops, dangling, out of the repository) and unreadable files and
folders reported as F006/F007, never followed out nor opened.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything. Unreadable files are simulated (`tests/support/sources.py` says why).
"""

from __future__ import annotations

import os
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

import hookmsg.messages.message
from tests.support.diagnostics import (
    located,
    parse_findings,
    run_findings,
)
from tests.support.message import BODY, VALID
from tests.support.repository import outside
from tests.support.sources import (
    Cli,
    assert_build_refused,
    catalog,
    check_outside,
    deny,
)
from tests.support.text import edit, replace, write

# =========================================================================== huge files


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


def test_message_at_max_file_bytes_is_parsed_and_one_byte_more_is_refused(
    project: Path, cli: Cli
) -> None:
    limit = 1_000_000  # the default `max-file-bytes`
    filler = "x" * (limit - len(VALID.encode()))
    at_limit = replace(VALID, BODY, BODY + filler)
    assert len(at_limit.encode()) == limit
    assert check_outside(project, cli, at_limit) == [(1, 1, "D001")]
    over = replace(VALID, BODY, BODY + filler + "x")
    assert check_outside(project, cli, over) == [(1, 1, "F006")]


def test_sparse_file_of_gigabytes_is_refused_without_reading_it(
    project: Path, cli: Cli, opened: list[str]
) -> None:
    path = outside(project) / "huge.md"
    with path.open("wb") as handle:
        handle.truncate(5_000_000_000)  # sparse: no disk space used
    opened.clear()
    found = run_findings(cli, "validate", str(path))
    assert [f.position for f in found] == [(1, 1, "F006")]
    assert "5000000000 bytes" in found[0].message
    assert os.path.realpath(path) not in opened


def test_oversized_message_and_catalogue_are_never_opened_nor_parsed(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch, opened: list[str]
) -> None:
    # Above every shipped source (a guard file with its cases is the largest).
    sources = [*(project / "catalog").glob("**/*.toml"), *(project / "messages").glob("*.md")]
    limit = max(200_000, *(path.stat().st_size + 1 for path in sources))
    edit(project / "pyproject.toml", "max-file-bytes = 1000000", f"max-file-bytes = {limit}")
    big = write(outside(project) / "big.md", replace(VALID, BODY, BODY + "*" * limit))
    hooks = catalog(project, "hooks.toml")
    hooks.write_text(hooks.read_text(encoding="utf-8") + "#" * limit + "\n", encoding="utf-8")

    parsed: list[int] = []
    real_parser = hookmsg.messages.message.markdown_parser()

    class Recording:
        def parse(self, text: str) -> object:
            parsed.append(len(text))
            return real_parser.parse(text)

    monkeypatch.setattr(hookmsg.messages.message, "markdown_parser", Recording)
    loaded: list[int] = []
    real_loads = tomllib.loads

    def loads(text: str, **kwargs: object) -> object:
        loaded.append(len(text))
        return real_loads(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tomllib, "loads", loads)
    opened.clear()
    found = run_findings(cli, "validate", str(big))
    assert sorted(located(found)) == sorted(
        [("catalog/hooks.toml", 1, 1, "F006"), (big.as_posix(), 1, 1, "F006")]
    )
    assert parsed, "the skill index is still parsed"
    assert max(parsed) < limit, "markdown-it was called on a file over max-file-bytes"
    assert loaded and max(loaded) < limit, "tomllib was called on a file over max-file-bytes"
    assert os.path.realpath(big) not in opened
    assert os.path.realpath(hooks) not in opened


# =========================================================================== symbolic links


def _dangling(messages: Path) -> str:
    (messages / "x.md").symlink_to("nowhere.md")
    return "No such file or directory"


def _chain_out(messages: Path) -> str:
    # x.md -> y.txt (inside) -> a file outside the repository.
    target = write(messages.parent.parent / "outside.md", VALID)
    (messages / "y.txt").symlink_to(target)
    (messages / "x.md").symlink_to("y.txt")
    return "outside the repository"


def _to_directory(messages: Path) -> str:
    (messages / "x.md").symlink_to("../catalog", target_is_directory=True)
    return "not a regular file"


def _to_fifo(messages: Path) -> str:
    os.mkfifo(messages / "x.fifo")
    (messages / "x.md").symlink_to("x.fifo")
    return "not a regular file"


def _fifo(messages: Path) -> str:
    os.mkfifo(messages / "x.md")
    return "not a regular file"


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [_dangling, _chain_out, _to_directory, _to_fifo, _fifo],
    ids=["dangling", "chain-out", "to-directory", "to-fifo", "fifo"],
)
def test_message_that_cannot_be_read_is_f007(
    project: Path, cli: Cli, make: Callable[[Path], str]
) -> None:
    reason = make(project / "messages")
    runs: list[tuple[str, ...]] = [("validate",)]
    if not (project / "messages" / "x.md").is_dir():  # a folder given by name is a folder
        runs.append(("validate", "messages/x.md"))
    for argv in runs:
        found = run_findings(cli, *argv)
        assert located(found) == [("messages/x.md", 1, 1, "F007")], argv
        assert reason in found[0].message
    assert_build_refused(project, cli)


def test_message_link_inside_the_repository_is_followed(project: Path, cli: Cli) -> None:
    write(project / "drafts" / "x.txt", VALID)
    (project / "messages" / "x.md").symlink_to("../drafts/x.txt")
    edit(catalog(project, "hooks.toml"), "\n[unwired]\n", '\n[unwired]\nx = "a draft"\n')
    assert run_findings(cli, "validate") == []


def test_message_link_out_of_the_repository_is_never_opened(
    project: Path, cli: Cli, opened: list[str]
) -> None:
    target = write(project.parent / "outside.md", VALID)
    (project / "messages" / "x.md").symlink_to(target)
    opened.clear()
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/x.md", 1, 1, "F007")]
    assert os.path.realpath(target) not in opened


def test_registered_message_that_cannot_be_read_is_not_said_to_be_missing(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R002 means "the registry names a message that does not exist". An unreadable
    # message exists: the one finding is that it cannot be read.
    deny(monkeypatch, os, "open", "messages/stop.md")
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/stop.md", 1, 1, "F007")]
    assert "Permission denied" in found[0].message


def test_registered_message_over_the_size_limit_is_not_said_to_be_missing(
    project: Path, cli: Cli
) -> None:
    stop = project / "messages" / "stop.md"
    catalogue = project / "catalog"
    sources = [*catalogue.iterdir(), *(catalogue / "guards").iterdir()]
    sources += (project / "messages").iterdir()
    limit = max(p.stat().st_size for p in sources) + 10
    edit(project / "pyproject.toml", "max-file-bytes = 1000000", f"max-file-bytes = {limit}")
    stop.write_text(
        replace(stop.read_text(encoding="utf-8"), "\n## ", "\n" + "x" * limit + "\n\n## "),
        encoding="utf-8",
    )
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/stop.md", 1, 1, "F006")]


def _messages_out(project: Path) -> Path:
    target = project.parent / "outside-messages"
    shutil.move(project / "messages", target)
    (project / "messages").symlink_to(target, target_is_directory=True)
    return target


def _messages_loop(project: Path) -> Path:
    shutil.rmtree(project / "messages")
    (project / "messages").symlink_to("messages", target_is_directory=True)
    return project / "messages"


@pytest.mark.parametrize("make", [_messages_out, _messages_loop], ids=["out", "loop"])
def test_messages_folder_that_cannot_be_used_is_f007_alone(
    project: Path, cli: Cli, opened: list[str], make: Callable[[Path], Path]
) -> None:
    target = make(project)
    opened.clear()
    result = cli("validate")
    assert result.code == 1
    found = parse_findings(result.out)
    assert ("messages", 1, 1, "F007") in located(found)
    # The registered messages exist (or cannot be listed): none of them "does not exist".
    assert [f for f in found if f.code.startswith("R")] == [], found
    assert not [p for p in opened if p.startswith(os.path.realpath(target) + os.sep)]
    assert_build_refused(project, cli)


def test_messages_folder_that_cannot_be_listed_is_f007(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What `chmod 000 messages` does for a user who is not root: the folder exists but
    # listing it fails. Python's glob swallows that error; the check must not.
    deny(monkeypatch, os, "scandir", "messages")
    result = cli("validate")
    assert result.code == 1
    found = parse_findings(result.out)
    assert ("messages", 1, 1, "F007") in located(found), result.out
    assert [f for f in found if f.code.startswith("R")] == [], found


def _catalogue_out(path: Path) -> str:
    target = write(path.parents[2] / "outside.toml", path.read_bytes())
    path.unlink()
    path.symlink_to(target)
    return "outside the repository"


def _catalogue_loop(path: Path) -> str:
    path.unlink()
    path.symlink_to(path.name)
    return "cannot read file"


def _catalogue_dangling(path: Path) -> str:
    path.unlink()
    path.symlink_to("nowhere.toml")
    return "No such file or directory"


def _catalogue_directory(path: Path) -> str:
    path.unlink()
    path.mkdir()
    return "not a regular file"


def _catalogue_fifo(path: Path) -> str:
    path.unlink()
    os.mkfifo(path)
    return "not a regular file"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hooks.toml", "harnesses.toml", "skills.toml"])
@pytest.mark.parametrize(
    "make",
    [_catalogue_out, _catalogue_loop, _catalogue_dangling, _catalogue_directory, _catalogue_fifo],
    ids=["link-out", "loop", "dangling", "directory", "fifo"],
)
def test_catalogue_file_that_cannot_be_read_is_f007_alone(
    project: Path, cli: Cli, name: str, make: Callable[[Path], str]
) -> None:
    reason = make(catalog(project, name))
    found = run_findings(cli, "validate")
    unreadable = [f for f in found if f.code == "F007"]
    assert located(unreadable) == [(f"catalog/{name}", 1, 1, "F007")]
    assert reason in unreadable[0].message
    # Messages that name the file in their Bindings: it leaves the repository (B012)
    # or does not exist (B009). Nothing else.
    others = [f for f in found if f.code != "F007"]
    assert all(f.code in {"B009", "B012"} and f"`catalog/{name}`" in f.message for f in others)
    assert_build_refused(project, cli)


def test_catalogue_file_without_permission_is_f007(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    deny(monkeypatch, os, "open", "catalog/hooks.toml")
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/hooks.toml", 1, 1, "F007")]
    assert "Permission denied" in found[0].message


def test_catalogue_folder_linked_out_of_the_repository_is_not_read(
    project: Path, cli: Cli, opened: list[str]
) -> None:
    target = project.parent / "outside-catalog"
    shutil.move(project / "catalog", target)
    (project / "catalog").symlink_to(target, target_is_directory=True)
    opened.clear()
    result = cli("validate")
    assert result.code == 1
    found = parse_findings(result.out)
    assert [f for f in found if f.code == "F007" and f.path.split("/")[0] == "catalog"], found
    read = [p for p in opened if p.startswith(os.path.realpath(target) + os.sep)]
    assert read == [], "catalogue files were read from outside the repository"
