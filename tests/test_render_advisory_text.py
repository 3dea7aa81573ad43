"""Rendering an advisory (`render/advisory_text.py`, `hookmsg preview`): a template that
validation refuses is refused by preview too, and a placeholder named like a Jinja2 builtin
is a placeholder.

Each case runs the CLI in-process on a throw-away copy of the repository (the `project`
fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.diagnostics import (
    parse_findings,
    run_findings,
)
from tests.support.sources import (
    Cli,
    catalog,
)
from tests.support.text import edit

# =========================================================================== rendered text

DEPENDENCY_GUARD = "pretooluse-dependency-guard"  # a guard with one placeholder, `path`


def set_advisory(project: Path, name: str, advisory: str) -> None:
    path = project / "messages" / f"{name}.md"
    text = path.read_text(encoding="utf-8")
    start = text.index("## Advisory\n\n") + len("## Advisory\n\n")
    end = text.index("\n\n## Bindings", start)
    path.write_text(text[:start] + advisory + text[end:], encoding="utf-8")


@pytest.mark.parametrize(
    "advisory",
    ["Check {{ path.__class__ }} now.", "Check {{ range(10**12) }} {{ path }} now."],
    ids=["attribute", "huge-range"],
)
def test_preview_refuses_an_advisory_that_validation_refuses(
    project: Path, cli: Cli, advisory: str
) -> None:
    set_advisory(project, DEPENDENCY_GUARD, advisory)
    found = run_findings(cli, "validate", f"messages/{DEPENDENCY_GUARD}.md")
    assert "A006" in {f.code for f in found}
    result = cli("preview", DEPENDENCY_GUARD)
    assert result.code == 1, result.out + result.err
    assert "A006" in result.out + result.err
    assert "<class" not in result.out + result.err
    assert "Traceback" not in result.err


SANDBOX_ESCAPES = [
    "{{ ''.__class__.__mro__ }}",
    "{{ path.__class__ }}",
    "{{ path|attr('__class__') }}",
    "{{ ().__class__.__base__.__subclasses__() }}",
    "{{ cycler.__init__.__globals__ }}",
    "{{ lipsum.__globals__ }}",
    "{{ lipsum }}",
    "{{ cycler }}",
    "{{ self }}",
    "{{ range(10**12) }}",
]


@pytest.mark.parametrize("template", SANDBOX_ESCAPES)
def test_render_advisory_raises_a_hookmsg_error_not_an_object_dump(template: str) -> None:
    from hookmsg.errors import HookmsgError
    from hookmsg.render.advisory_text import render_advisory

    with pytest.raises(HookmsgError) as raised:
        rendered = render_advisory(template, {"path": "src/app.py"}, "messages/x.md")
        pytest.fail(f"rendered {rendered!r}")
    assert not re.search(r"<(class|function|Template|module|built-in)\b", str(raised.value))


@pytest.mark.parametrize("name", ["self", "true", "none", "false", "range", "lipsum"])
def test_placeholder_named_like_a_jinja_builtin(project: Path, cli: Cli, name: str) -> None:
    # A placeholder is a plain `{{ name }}` variable. One whose name Jinja2 reads as a
    # literal (`true`, `none`) or that clashes with the renderer (`self`) must either be
    # refused by validation or be previewed with its value; never `True`, never a crash.
    set_advisory(project, DEPENDENCY_GUARD, f"Check {{{{ {name} }}}} now.")
    edit(
        catalog(project, f"guards/{DEPENDENCY_GUARD}.toml"),
        '[placeholders]\npath = "pyproject.toml"\nchange = "requests 2.31.0 → 2.32.0"',
        f'[placeholders]\n{name} = "SAMPLE"',
    )
    validate = cli("validate")
    assert "Traceback" not in validate.err
    if validate.code == 0:
        result = cli("preview", DEPENDENCY_GUARD)
        assert result.code == 0, result.err
        assert result.out.startswith("This call went ahead.\n\nCheck SAMPLE now.\n"), result.out
    else:
        assert validate.code == 1
        assert parse_findings(validate.out)
