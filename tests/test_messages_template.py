"""The Advisory template scan (`messages/template.py`, `messages/rules/advisory.py`): Jinja2
syntax in every section, delivered verbatim outside the Advisory.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.diagnostics import (
    Position,
    run_findings,
)
from tests.support.message import BINDINGS, BODY, TITLE, VALID, with_advisory
from tests.support.sources import (
    Cli,
    catalog,
    check_outside,
)
from tests.support.text import edit, replace, write

# =========================================================================== Jinja2 everywhere


ADVISORIES: list[tuple[str, list[Position]]] = [
    ("{{path}}", []),
    ("{{\npath\n}}", []),
    ("{ { path } }", []),
    ("{{ path }}}", []),
    ("}} then {{ path }}", []),
    ("{{- path -}}", [(9, 1, "A006")]),
    ("{{ 'x' }}", [(9, 1, "A006")]),
    ("{{ path() }}", [(9, 1, "A006")]),
    ("{{ path.__class__ }}", [(9, 1, "A006")]),
    ("{{ ''.__class__.__mro__ }}", [(9, 1, "A006")]),
    ("{{ range(10**9) }}", [(9, 1, "A006")]),
    ("{% raw %}{{ x }}{% endraw %}", [(9, 1, "A006"), (9, 17, "A006")]),
    ("{%- if x -%}", [(9, 1, "A006"), (9, 1, "A007")]),
    ("{{{ path }}}", [(9, 1, "A006"), (9, 1, "A007")]),
    ("{{ }}", [(9, 1, "A006"), (9, 1, "A007")]),
    ("{{ path }} {{", [(9, 1, "A007")]),
    ("${{ path }}", [(9, 1, "D002")]),
    ("{{ path\x1b }}", [(9, 1, "A006"), (9, 1, "A007"), (9, 8, "D003")]),
]


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


@pytest.mark.slow
@pytest.mark.parametrize(("advisory", "expected"), ADVISORIES, ids=[repr(a) for a, _ in ADVISORIES])
def test_jinja_in_the_advisory(
    project: Path, cli: Cli, advisory: str, expected: list[Position]
) -> None:
    assert check_outside(project, cli, with_advisory(advisory)) == expected


@pytest.mark.parametrize(
    "text",
    [
        replace(VALID, TITLE, "Title {{ path.__class__ }} {% if x %} {# c #}."),
        replace(VALID, BODY, "{% for x in y %}{{ x }}{% endfor %} {{ ''.__class__ }}"),
        replace(VALID, BINDINGS, "## Notes\n\n{% include '/etc/passwd' %}\n\n" + BINDINGS),
        replace(VALID, "nothing else.", "{{ path }} and {% x %}."),
    ],
    ids=["title", "body", "other-section", "bindings"],
)
def test_jinja_outside_the_advisory_is_plain_text(project: Path, cli: Cli, text: str) -> None:
    # Only the Advisory is a template; everywhere else braces are delivered as written.
    assert check_outside(project, cli, text) == []


def test_jinja_in_a_context_message_is_delivered_verbatim(project: Path, cli: Cli) -> None:
    name = "under-test"
    edit(catalog(project, "hooks.toml"), "\n[unwired]\n", f'\n[unwired]\n{name} = "test"\n')
    body = "Run {{ ''.__class__.__mro__ }} and {% for x in range(3) %}{{ x }}{% endfor %}."
    write(project / "messages" / f"{name}.md", replace(VALID, BODY, body))
    assert run_findings(cli, "validate", f"messages/{name}.md") == []
    result = cli("preview", name)
    assert result.code == 0, result.err
    assert body in result.out
