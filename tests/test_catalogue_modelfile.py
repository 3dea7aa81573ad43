"""Reading the catalogue's TOML files (`catalogue/modelfile.py`, `catalogue/rules/catalogue.py`):
type errors, unknown keys, duplicate names and keys, file-level problems, each one finding
on its line.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import (
    Position,
    located,
    run_findings,
)
from tests.support.sources import (
    Cli,
    assert_build_refused,
    catalog,
)
from tests.support.text import append, edit, line_of, replace

# =========================================================================== catalogue: TOML


CatalogueEdit = Callable[[Path], tuple[str, int, int]]


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


def _edit_line(name: str, old: str, new: str, needle: str, col: int = 1) -> CatalogueEdit:
    def apply(project: Path) -> tuple[str, int, int]:
        text = edit(catalog(project, name), old, new)
        return f"catalog/{name}", line_of(text, needle), col

    return apply


def _append(name: str, extra: str, needle: str, occurrence: int = -1) -> CatalogueEdit:
    def apply(project: Path) -> tuple[str, int, int]:
        text = append(catalog(project, name), extra)
        count = text.count(needle) if occurrence == -1 else occurrence
        return f"catalog/{name}", line_of(text, needle, count), 1

    return apply


def _prepend(name: str, extra: str) -> CatalogueEdit:
    def apply(project: Path) -> tuple[str, int, int]:
        path = catalog(project, name)
        path.write_text(extra + path.read_text(encoding="utf-8"), encoding="utf-8")
        return f"catalog/{name}", 1, 1

    return apply


NEW_SKILL = '[[skills]]\nname = "zz-new"\ngroup = "session"\nmanual = false\n'

C002_CASES: dict[str, CatalogueEdit] = {
    "hooks-top-level-unknown-key": _prepend("hooks.toml", "version = 2\n"),
    "hooks-timeout-zero": _edit_line("hooks.toml", "Stop = 60", "Stop = 0", "Stop = 0"),
    "hooks-timeout-float": _edit_line("hooks.toml", "Stop = 60", "Stop = 60.5", "Stop = 60.5"),
    "hooks-messages-not-a-list": _edit_line(
        "hooks.toml", 'messages = ["stop"]', 'messages = "stop"', 'messages = "stop"'
    ),
    "hooks-dispatch-unknown-key": _edit_line(
        "hooks.toml", 'messages = ["stop"]', 'messages = ["stop"]\npriority = 1', "priority = 1"
    ),
    "hooks-event-not-a-string": _edit_line(
        "hooks.toml", 'event = "Stop"', "event = 7", "event = 7"
    ),
    "guard-placeholder-not-a-string": _edit_line(
        "guards/pretooluse-write-guard.toml",
        'path = "src/app.py"',
        "path = 1",
        "path = 1",
    ),
    "guard-placeholder-bad-name": _edit_line(
        "guards/pretooluse-write-guard.toml",
        'path = "src/app.py"',
        '"Primitive-Name" = "x"',
        '"Primitive-Name"',
    ),
    "hooks-unwired-not-a-string": _edit_line(
        "hooks.toml", "\n[unwired]\n", "\n[unwired]\nstop = true\n", "stop = true"
    ),
    "hooks-message-name-with-dotdot": _edit_line(
        "hooks.toml", 'messages = ["stop"]', 'messages = ["../stop"]', '"../stop"'
    ),
    "hooks-message-name-with-slash": _edit_line(
        "hooks.toml", 'messages = ["stop"]', 'messages = ["messages/stop"]', '"messages/stop"'
    ),
    "hooks-message-name-with-extension": _edit_line(
        "hooks.toml", 'messages = ["stop"]', 'messages = ["stop.md"]', '"stop.md"'
    ),
    "hooks-guards-declared-in-the-registry": _append(
        "hooks.toml", '[guards.x.placeholders]\npath = "x"\n', "[guards.x.placeholders]"
    ),
    "guard-placeholder-with-dotdot": _edit_line(
        "guards/pretooluse-write-guard.toml",
        "[placeholders]\n",
        '[placeholders]\n"../x" = "x"\n',
        '"../x" = ',
    ),
    "guard-wired-unknown-key": _edit_line(
        "guards/pretooluse-write-guard.toml",
        '{ event = "PreToolUse", matcher = "Write|Edit" }',
        '{ event = "PreToolUse", matchers = "Write|Edit" }',
        "wired = [",  # (an inline table is located at its array)
    ),
    "hooks-unwired-name-with-slash": _edit_line(
        "hooks.toml", "\n[unwired]\n", '\n[unwired]\n"a/b" = "reason"\n', '"a/b" = '
    ),
    "harnesses-bool-as-string": _edit_line(
        "harnesses.toml", "matchers = true", 'matchers = "yes"', 'matchers = "yes"'
    ),
    "skills-name-with-dotdot": _append(
        "skills.toml", NEW_SKILL.replace("zz-new", "../x") + 'description = "x"\n', 'name = "../x"'
    ),
    "skills-name-with-slash": _append(
        "skills.toml", NEW_SKILL.replace("zz-new", "a/b") + 'description = "x"\n', 'name = "a/b"'
    ),
    "skills-name-65-characters": _append(
        "skills.toml", NEW_SKILL.replace("zz-new", "a" * 65) + 'description = "x"\n', 'name = "aaaa'
    ),
    "skills-description-two-lines": _append(
        "skills.toml", NEW_SKILL + 'description = "one\\ntwo"\n', 'description = "one'
    ),
    "skills-manual-as-string": _append(
        "skills.toml",
        NEW_SKILL.replace("= false", '= "no"') + 'description = "x"\n',
        'manual = "no"',
    ),
    "skills-cross-bound-with-dotdot": _edit_line(
        "skills.toml",
        "[cross-bound]\n",
        '[cross-bound]\n"../sessionstart" = "x"\n',
        '"../sessionstart"',
    ),
    "skills-unknown-key": _prepend("skills.toml", "colour = 1\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", C002_CASES.values(), ids=C002_CASES.keys())
def test_catalogue_schema_error_is_one_c002_on_its_line(
    project: Path, cli: Cli, case: CatalogueEdit
) -> None:
    path, line, col = case(project)
    found = run_findings(cli, "validate")
    assert located(found) == [(path, line, col, "C002")], found
    assert_build_refused(project, cli)


def _second_entry(name: str, array: str) -> CatalogueEdit:
    """Append a copy of the first `[[array]]` entry of catalog/NAME: the same name twice."""

    def apply(project: Path) -> tuple[str, int, int]:
        path = catalog(project, name)
        text = path.read_text(encoding="utf-8")
        header = f"[[{array}]]"
        first = text.index(header)
        end = text.find(f"\n{header}", first + 1)  # nested [[...facts]] stay with it
        entry = text[first : end + 1 if end >= 0 else len(text)]
        text = append(path, entry)
        return f"catalog/{name}", line_of(text, header, text.count(header)), 1

    return apply


@pytest.mark.parametrize(
    "case",
    [_second_entry("skills.toml", "groups"), _second_entry("harnesses.toml", "harnesses")],
    ids=["task-group", "harness"],
)
def test_duplicate_catalogue_name_is_c004(project: Path, cli: Cli, case: CatalogueEdit) -> None:
    # A group listed twice is also rendered twice; a budget that fits it keeps G001 out.
    edit(project / "pyproject.toml", "skill-index-budget = 1600", "skill-index-budget = 100000")
    path, line, col = case(project)
    found = run_findings(cli, "validate")
    assert located(found) == [(path, line, col, "C004")]


def test_duplicate_toml_key_is_c001_at_the_repeat(project: Path, cli: Cli) -> None:
    text = edit(
        catalog(project, "hooks.toml"), "\n[unwired]\n", '\n[unwired]\nstop = "a"\nstop = "b"\n'
    )
    found = run_findings(cli, "validate")
    line = line_of(text, 'stop = "b"')
    assert located(found) == [("catalog/hooks.toml", line, len('stop = "b"') + 1, "C001")]


def test_duplicate_toml_table_is_c001_at_the_repeat(project: Path, cli: Cli) -> None:
    header = "[placeholders]"
    guard = "guards/pretooluse-write-guard.toml"
    text = append(catalog(project, guard), f'{header}\nx = "1"\n')
    found = run_findings(cli, "validate")
    line = line_of(text, header, 2)
    # tomllib points at the closing bracket of the repeated header.
    assert located(found) == [(f"catalog/{guard}", line, len(header), "C001")]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("skills.toml", lambda t: t.encode("utf-16"), (1, 1, "F001")),
        (
            "hooks.toml",
            lambda t: replace(t, "# The hook registry", "# The hook registry \xa9").encode(
                "latin-1", "replace"
            ),
            (1, 21, "F001"),
        ),
        ("harnesses.toml", lambda t: t.replace("\n", "\r\n").encode(), (1, 1, "F002")),
        ("skills.toml", lambda t: b"", (1, 1, "F005")),
        ("skills.toml", lambda t: b"\n \n\t\n", (1, 1, "F005")),
    ],
    ids=["utf-16", "latin-1", "crlf", "empty", "blank"],
)
def test_catalogue_file_level_problems(
    project: Path, cli: Cli, name: str, data: Callable[[str], bytes], expected: Position
) -> None:
    path = catalog(project, name)
    path.write_bytes(data(path.read_text(encoding="utf-8")))
    found = run_findings(cli, "validate")
    assert located(found) == [(f"catalog/{name}", *expected)]
    assert_build_refused(project, cli)


def test_catalogue_with_a_byte_order_mark_still_loads(project: Path, cli: Cli) -> None:
    # TOML allows a BOM at the start of a document; it is read past, not reported.
    path = catalog(project, "skills.toml")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert run_findings(cli, "validate") == []


def test_unterminated_string_is_c001_where_it_is(project: Path, cli: Cli) -> None:
    # tomllib reports this one "at end of document", with no line and column: the
    # finding must still point into the file where the problem is, not at line 1.
    text = append(catalog(project, "skills.toml"), 'extra = """never closed\n\n')
    start = line_of(text, 'extra = """never closed')
    found = run_findings(cli, "validate")
    assert [f.code for f in found] == ["C001"]
    assert found[0].path == "catalog/skills.toml"
    assert found[0].line >= start, found[0]


def test_nul_in_the_catalogue_is_f004_and_c001(project: Path, cli: Cli) -> None:
    path = catalog(project, "skills.toml")
    text = edit(path, 'namespace = "mini"', 'namespace = "mi\x00ni"')
    line = line_of(text, "namespace = ")
    found = run_findings(cli, "validate")
    col = len('namespace = "mi') + 1
    assert located(found) == [
        ("catalog/skills.toml", line, col, "C001"),
        ("catalog/skills.toml", line, col, "F004"),
    ]
