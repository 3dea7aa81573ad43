"""The settings rules (`project/rules.py`, K001/K002) on a broken `[tool.hookmsg]` and an
unreadable `pyproject.toml`.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.message import LICENCE
from tests.support.sources import (
    Cli,
)
from tests.support.text import append, edit, line_of

# =========================================================================== configuration


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


@pytest.mark.slow
@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ('messages = "messages"', 'messages = "../messages"', "messages"),
        ('messages = "messages"', 'messages = "messages/../../x"', "messages"),
        ('generated = "generated"', 'generated = "/tmp/generated"', "generated"),
        ('catalog = "catalog"', 'catalog = "catalog\\\\sub"', "catalog"),
        ('catalog = "catalog"', "catalog = 3", "catalog"),
        ("max-file-bytes = 1000000", "max-file-bytes = true", "max-file-bytes"),
        ("max-file-bytes = 1000000", "max-file-bytes = 0", "max-file-bytes"),
        ("max-file-bytes = 1000000", "max-file-bytes = -1", "max-file-bytes"),
        ("max-file-bytes = 1000000", "max-file-bytes = 1.5", "max-file-bytes"),
        ("max-file-bytes = 1000000", 'max-file-bytes = "1MB"', "max-file-bytes"),
        ("delivered-cap = 10000", "delivered-cap = [10000]", "delivered-cap"),
        (f'licence-line = "{LICENCE}"', 'licence-line = ""', "licence-line"),
        (f'licence-line = "{LICENCE}"', f'licence-line = " {LICENCE}"', "licence-line"),
        (f'licence-line = "{LICENCE}"', 'licence-line = "a\\nb"', "licence-line"),
        ("delivered-cap = 10000", "delivered-cap = 10000\ncolour = true", "colour"),
    ],
    ids=lambda value: value,
)
def test_bad_setting_is_k001_on_its_line(
    project: Path, cli: Cli, old: str, new: str, key: str
) -> None:
    text = edit(project / "pyproject.toml", old, new)
    result = cli("validate")
    assert result.code == 2, result.out + result.err
    assert result.out == ""
    line = line_of(text, new.rsplit("\n", maxsplit=1)[-1])
    assert f"{Path.cwd() / 'pyproject.toml'}:{line}:1: K001 " in result.err
    assert f"'{key}'" in result.err
    assert "Traceback" not in result.err


def test_tool_hookmsg_that_is_not_a_table(project: Path, cli: Cli) -> None:
    path = project / "pyproject.toml"
    text = path.read_text(encoding="utf-8")
    table = text[text.index("[tool.hookmsg]") :]
    end = table.find("\n[", 1)
    table = table if end < 0 else table[: end + 1]
    path.write_text(text.replace(table, "[tool]\nhookmsg = 1\n"), encoding="utf-8")
    result = cli("validate")
    assert result.code == 2
    assert f"{Path.cwd() / 'pyproject.toml'}:1:1: K001 " in result.err


def test_unknown_sub_table_is_k001_on_its_header(project: Path, cli: Cli) -> None:
    text = append(project / "pyproject.toml", "[tool.hookmsg.extra]\nx = 1\n")
    result = cli("validate")
    assert result.code == 2
    line = line_of(text, "[tool.hookmsg.extra]")
    assert f"{Path.cwd() / 'pyproject.toml'}:{line}:1: K001 " in result.err, result.err


@pytest.mark.parametrize(
    ("data", "position"),
    [
        (lambda t: t.encode("utf-16"), "1:1"),
        (lambda t: b"\xef\xbb\xbf" + t.encode(), "1:1"),
        (lambda t: t.replace("[tool.hookmsg]\n", "[tool.hookmsg]\x00\n", 1).encode(), "4:15"),
        (lambda t: t.replace("golden tests", "gólden tests", 1).encode("latin-1"), "1:1"),
    ],
    ids=["utf-16", "bom", "nul", "latin-1"],
)
def test_unreadable_pyproject_is_k002(
    project: Path, cli: Cli, data: Callable[[str], bytes], position: str
) -> None:
    path = project / "pyproject.toml"
    path.write_bytes(data(path.read_text(encoding="utf-8")))
    result = cli("validate")
    assert result.code == 2, result.out + result.err
    assert result.out == ""
    assert f"{Path.cwd() / 'pyproject.toml'}:{position}: K002 " in result.err
    assert "Traceback" not in result.err


def test_generated_folder_may_not_overlap_a_skill_source_folder(project: Path, cli: Cli) -> None:
    with (project / "catalog/skills.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[sources]]\nkind = "skills"\npath = "skill-files"\n')
    text = (project / "pyproject.toml").read_text(encoding="utf-8")
    (project / "pyproject.toml").write_text(
        text.replace('generated = "generated"', 'generated = "skill-files/out"'), encoding="utf-8"
    )
    result = cli("build")
    assert result.code == 2
    assert "K001" in result.err and "lies inside 'skill-files'" in result.err
