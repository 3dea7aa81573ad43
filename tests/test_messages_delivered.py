"""The delivered-text rules (`messages/rules/delivered.py`) on hidden characters: every
invisible, bidirectional or control character in every delivered section, never echoed.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from tests.support.diagnostics import (
    Position,
    parse_findings,
)
from tests.support.message import BINDINGS, BODY, LICENCE, TITLE, VALID
from tests.support.repository import outside
from tests.support.sources import (
    Cli,
    check_outside,
)
from tests.support.text import replace, write

# =========================================================================== hidden characters

HIDDEN = {"Cc", "Cf", "Zl", "Zp"}  # control, format (bidi, zero-width), line/paragraph separators


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


@pytest.mark.slow
@pytest.mark.parametrize(
    "char",
    [
        "\u200c",
        "\u200d",
        "\u200e",
        "\u200f",
        "\u2060",
        "\u061c",
        "\u00ad",
        "\u202a",
        "\u202b",
        "\u202c",
        "\u202d",
        "\u2067",
        "\u2068",
        "\u2069",
        "\ufff9",
        "\U000e0041",
        "\ue000",
        "\x1b",
        "\x7f",
        "\x85",
        "\u2028",
        "\u2029",
    ],
    ids=lambda char: f"U+{ord(char):04X}",
)
def test_every_invisible_or_bidi_character_in_the_body(project: Path, cli: Cli, char: str) -> None:
    assert check_outside(project, cli, replace(VALID, "Body text", f"Body {char}text")) == [
        (5, 6, "D003")
    ]


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1e"])
def test_line_separators_do_not_shift_line_numbers(project: Path, cli: Cli, char: str) -> None:
    # markdown-it breaks lines on LF only; a rule that used str.splitlines() would put
    # the install token on line 8.
    body = f"Body{char}text.\n\nRun ${{HARNESS_ROOT}}/hooks now."
    assert check_outside(project, cli, replace(VALID, BODY, body)) == [
        (5, 5, "D003"),
        (7, 5, "D002"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (replace(VALID, TITLE, "Title \u202esentence."), [(3, 7, "D003")]),
        (
            replace(VALID, BINDINGS, "## Notes\u200b\n\nMore.\n\n" + BINDINGS),
            [(7, 9, "D003")],
        ),
        (
            replace(VALID, BINDINGS, "## Advisory\n\nCheck \u2066it\u2069.\n\n" + BINDINGS),
            [(9, 7, "D003"), (9, 10, "D003")],
        ),
    ],
    ids=["title", "heading", "advisory"],
)
def test_hidden_characters_in_every_delivered_section(
    project: Path, cli: Cli, text: str, expected: list[Position]
) -> None:
    assert check_outside(project, cli, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        replace(VALID, LICENCE, "<!-- SPDX-License-Identifier: MIT\x1b[2J -->"),
        replace(VALID, LICENCE, "<!-- SPDX-License-Identifier: MIT \u202eTIM -->"),
        replace(VALID, LICENCE, "<!-- SPDX-License\u2028-Identifier: MIT -->"),
        replace(VALID, "**Drives →**", "**Dri\x0cves →**"),
        replace(
            VALID, "**Drives →** the assistant to do the thing under test.", "**Drives \x85→** TBD"
        ),
        replace(VALID, BINDINGS, "## Advisory\n\nCheck {% \x1b[31m %} now.\n\n" + BINDINGS),
    ],
    ids=[
        "licence-esc",
        "licence-bidi",
        "licence-line-separator",
        "label-ff",
        "label-nel",
        "advisory-esc",
    ],
)
def test_diagnostics_never_echo_control_characters(project: Path, cli: Cli, text: str) -> None:
    # A diagnostic quotes what it found; quoting a terminal escape, a bidi override or a
    # line separator raw lets a hostile file repaint a terminal or CI log, reorder what a
    # reviewer reads, or split one `path:line:col: CODE message` line into two.
    path = write(outside(project) / "draft.md", text)
    result = cli("validate", str(path))
    assert result.code == 1
    assert len(result.out.splitlines()) == result.out.count("\n"), repr(result.out)
    parse_findings(result.out)  # asserts that every line is a finding
    for line in result.out.split("\n")[:-1]:
        hidden = [c for c in line if c != "\t" and unicodedata.category(c) in HIDDEN]
        assert hidden == [], repr(line)
