"""The message inventory (`render/inventory.py`): table cells escape HTML and pipes, and a
hostile title keeps the table whole.

Each case runs the CLI in-process on a throw-away copy of the repository (the `project`
fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import hookmsg.messages.message
from hookmsg.render.inventory import cell
from tests.support.message import LICENCE, TITLE, VALID
from tests.support.sources import (
    Cli,
    catalog,
)
from tests.support.text import edit, replace, write


def _cells(row: str) -> list[str]:
    """The cells of a Markdown table row, split on pipes that no backslash escapes."""
    assert row.startswith("|") and row.endswith("|"), row
    cells, current, index = [], "", 1
    while index < len(row) - 1:
        char = row[index]
        if char == "\\" and index + 1 < len(row) - 1:
            current += row[index : index + 2]
            index += 2
            continue
        if char == "|":
            cells.append(current)
            current = ""
        else:
            current += char
        index += 1
    return [*cells, current]


def _inventory_rows(text: str) -> tuple[int, dict[str, str]]:
    lines = text.split("\n")
    header = next(line for line in lines if line.startswith("| Message |"))
    rows = {}
    for line in lines[lines.index(header) + 2 :]:
        if not line.startswith("|"):
            break
        rows[_cells(line)[0].strip()] = line
    return len(_cells(header)), rows


HOSTILE_TITLE = "Pipes | and \\| and a trailing backslash \\ <script>alert(1)</script> `a|b`"


def test_hostile_title_keeps_the_inventory_table_whole(project: Path, cli: Cli) -> None:
    name = "hostile-title"
    edit(catalog(project, "hooks.toml"), "\n[unwired]\n", f'\n[unwired]\n{name} = "test"\n')
    write(project / "messages" / f"{name}.md", replace(VALID, TITLE, HOSTILE_TITLE))
    result = cli("build")
    assert result.code == 0, result.out + result.err
    text = (project / "generated" / "hook-message-inventory.md").read_text(encoding="utf-8")
    width, rows = _inventory_rows(text)
    assert f"`{name}`" in rows
    for row in rows.values():
        assert len(_cells(row)) == width, row
    # Raw HTML stays text: escaped, never a tag in the rendered table.
    assert "&lt;script&gt;" in _cells(rows[f"`{name}`"])[-1]
    assert "<script>" not in text


@pytest.mark.parametrize("separator", ["\u2028", "\x85", "\x0b", "\x0c", "\x1c", "\r"])
def test_line_breaking_title_cannot_split_an_inventory_row(project: Path, separator: str) -> None:
    # Validation refuses such a title (D003), so only the renderer itself can be given
    # one: the row must still be one line with the table's number of cells.
    from hookmsg.pipeline.workspace import load_workspace
    from hookmsg.project.settings import load_project
    from hookmsg.render.inventory import render_inventory_markdown

    name = "hostile-title"
    edit(catalog(project, "hooks.toml"), "\n[unwired]\n", f'\n[unwired]\n{name} = "test"\n')
    title = f"First {separator}| second{separator}<script>x</script>{separator}| third"
    write(project / "messages" / f"{name}.md", replace(VALID, TITLE, title).replace("\r", ""))
    workspace = load_workspace(load_project())
    workspace.authored[name] = hookmsg.messages.message.parse_text(
        replace(VALID, TITLE, title), LICENCE, f"messages/{name}.md"
    )
    text = render_inventory_markdown(workspace.loaded())
    width, rows = _inventory_rows(text)
    assert f"`{name}`" in rows, "the row is one line"
    row = rows[f"`{name}`"]
    assert len(_cells(row)) == width, row
    assert len(row.splitlines()) == 1, repr(row)


def test_table_cells_escape_html_and_pipes() -> None:
    assert cell("<script>alert(1)</script> | x & y") == (
        "&lt;script&gt;alert(1)&lt;/script&gt; \\| x &amp; y"
    )
    assert cell("two\nlines") == "two lines"
