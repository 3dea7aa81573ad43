"""One parse of a message (`messages/message.py`) on hostile Markdown: nesting at and past
the parser's limit (F008), pathological emphasis and link syntax, and headings in disguise.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import (
    Finding,
    Position,
    located,
    run_findings,
)
from tests.support.message import BINDINGS, BODY, TITLE, VALID
from tests.support.repository import outside
from tests.support.sources import (
    Cli,
    check_outside,
)
from tests.support.text import edit, replace, write

# =========================================================================== nesting

NESTINGS: dict[str, Callable[[int], str]] = {
    "blockquote": lambda n: "> " * n + "x",
    "blockquote-bare": lambda n: ">" * n,
    "list-lines": lambda n: "\n".join("  " * depth + "- item" for depth in range(n)),
    "list-one-line": lambda n: "- " * n + "x",
    "ordered-one-line": lambda n: "1. " * n + "x",
    "quote-in-list": lambda n: "> - " * n + "x",
}
DEPTHS = (10, 45, 48, 49, 50, 51, 97, 98, 99, 100, 101, 150, 500)


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


@pytest.mark.slow
def test_nesting_at_and_past_the_limit_is_f008_never_a_lost_section(
    project: Path, cli: Cli
) -> None:
    # markdown-it drops everything past its nesting limit; a parse that lost the closing
    # Bindings section would report B001 instead. At every depth a file is either clean
    # or exactly one F008 on the line where the nesting starts (or the item that crosses).
    folder = outside(project) / "nesting"
    for name, build in NESTINGS.items():
        for depth in DEPTHS:
            write(folder / f"{name}-{depth:04}.md", replace(VALID, BODY, build(depth)))
    found = run_findings(cli, "validate", str(folder))
    by_file: dict[str, list[Finding]] = {}
    for finding in found:
        by_file.setdefault(Path(finding.path).stem, []).append(finding)
    for stem, findings in by_file.items():
        assert [f.code for f in findings] == ["F008"], (stem, findings)
    for name in NESTINGS:
        assert f"{name}-0010" not in by_file, "shallow nesting is clean"
        assert f"{name}-0500" in by_file, name
    for depth in DEPTHS:
        assert (f"blockquote-{depth:04}" in by_file) == (depth >= 98), depth


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (replace(VALID, BODY, "```\n" + "> " * 300 + "x\n```"), []),
        (replace(VALID, "- **Cross", "- " * 60 + "x\n- **Cross"), [(11, 1, "F008")]),
        (
            replace(VALID, BINDINGS, "## Advisory\n\n" + "> " * 120 + "x\n\n" + BINDINGS),
            [(9, 1, "F008")],
        ),
    ],
    ids=["inside-a-fence", "inside-bindings", "inside-advisory"],
)
def test_nesting_in_every_place(
    project: Path, cli: Cli, text: str, expected: list[Position]
) -> None:
    assert check_outside(project, cli, text) == expected


# =========================================================================== pathological syntax

TOKENS = [
    "*",
    "_",
    "[",
    "](",
    "![",
    "\\",
    "<",
    "<a ",
    "&#",
    "|",
    "=",
    "-",
    "#",
    "{{",
    "`",
    "```",
    "~~~",
    "<!--",
    ">",
]
UNTERMINATED = {"`", "```", "~~~", "<!--"}  # a block that runs to the end of the file


@pytest.mark.slow
@pytest.mark.parametrize("token", TOKENS)
def test_fifty_thousand_characters_of_markup(project: Path, cli: Cli, token: str) -> None:
    run = token * max(50_000 // len(token), 1)
    # In the body: over the cap; a fence or comment that never closes also hides the
    # Bindings; 50,000 `>` nest past the limit.
    body = check_outside(project, cli, replace(VALID, BODY, run))
    if token == ">":
        assert body == [(5, 1, "F008")]
    elif token in UNTERMINATED:
        assert body == [(1, 1, "D001"), (11, 1, "B001")]
    else:
        assert body == [(1, 1, "D001")]
    # In a binding's text nothing is delivered and nothing breaks.
    assert check_outside(project, cli, replace(VALID, "nothing else.", run)) == []


def test_title_of_asterisks_is_a_thematic_break_not_a_title(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, replace(VALID, TITLE, "*" * 50_000))
    assert found == [(1, 1, "D001"), (7, 1, "T001")]


# =========================================================================== headings in disguise


DISGUISES: list[tuple[str, list[Position]]] = [
    ("##Bindings", [(11, 1, "B001")]),
    ("### Bindings", [(11, 1, "B001")]),
    ("# Bindings", [(11, 1, "B001")]),
    ("\t## Bindings", [(11, 1, "B001")]),
    ("## bindings", [(11, 1, "B001")]),
    ("## Binding", [(11, 1, "B001")]),
    ("## **Bindings**", [(11, 1, "B001")]),
    ("＃＃ Bindings", [(11, 1, "B001")]),
    ("## Вindings", [(11, 1, "B001")]),  # a Cyrillic Ve
    ("## Bind\u200bings", [(7, 8, "D003"), (11, 1, "B001")]),
    ("<div>\n## Bindings\n</div>", [(13, 1, "B001")]),
    ("<!--\n## Bindings\n-->", [(13, 1, "B001")]),
    ("~~~\n## Bindings\n~~~", [(13, 1, "B001")]),
    ("| a |\n| - |\n| ## Bindings |", [(13, 1, "B001")]),
    # Real headings: a closing sequence, up to three spaces of indent, a suffix.
    ("## Bindings ##", []),
    ("   ## Bindings", []),
    ("## Bindings (§0.j five-direction)", []),
]


@pytest.mark.slow
@pytest.mark.parametrize(("disguise", "expected"), DISGUISES, ids=[repr(d) for d, _ in DISGUISES])
def test_bindings_heading_in_disguise(
    project: Path, cli: Cli, disguise: str, expected: list[Position]
) -> None:
    assert check_outside(project, cli, replace(VALID, BINDINGS, disguise + "\n")) == expected


@pytest.mark.parametrize(
    ("before", "expected"),
    [
        ("```\n", [(12, 1, "B001")]),  # an unclosed fence swallows the rest of the file
        ("<!-- ", [(11, 1, "B001")]),  # so does an unclosed HTML comment
    ],
    ids=["unclosed-fence", "unclosed-comment"],
)
def test_unclosed_block_hides_the_bindings(
    project: Path, cli: Cli, before: str, expected: list[Position]
) -> None:
    assert check_outside(project, cli, replace(VALID, BODY, before + BODY)) == expected


GUARD = "pretooluse-write-guard"


@pytest.mark.parametrize(
    "disguise",
    ["### Advisory", "> ## Advisory", "    ## Advisory", "Advisory\n--------", "## advisory"],
    ids=["h3", "blockquote", "indented", "setext", "lowercase"],
)
def test_advisory_heading_in_disguise_is_a_guard_without_advisory(
    project: Path, cli: Cli, disguise: str
) -> None:
    edit(project / "messages" / f"{GUARD}.md", "## Advisory\n", disguise + "\n")
    found = run_findings(cli, "validate", f"messages/{GUARD}.md")
    assert located(found) == [(f"messages/{GUARD}.md", 1, 1, "A001")]
