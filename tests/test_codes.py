"""One test (at least) per diagnostic code: each breaks exactly one thing in a valid source.

The project is the mini fixture (`tests/fixtures/mini/`), built once and copied for each
test, never this repository's own catalogue: the shipped messages, guards and skills can
change without moving a test here. Every message-level test starts from `VALID`, a
minimal message that passes every rule, changes one thing, runs `hookmsg validate`
in-process, and asserts the exact code, line and column of every finding: no other
finding may appear. Message files that the registry rules must not see are written to a
folder outside the project (the spec lets `validate` vet files from elsewhere);
registry-dependent ones go into its `messages/` with `catalog/hooks.toml` edited to
match. Catalogue and configuration rules edit the copy's `catalog/*.toml` and
`pyproject.toml`; harness rules edit a copy of hookmsg's built-in harnesses in the
catalogue's override file.

Expected line numbers are computed from the edited text, never written down.

The last test fails when a code is added to `hookmsg.codes.CODES` without a test here.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from hookmsg.codes import CODES
from tests.support.diagnostics import Finding, Position, Result, located, positions, run_findings
from tests.support.harnesses import harness_override
from tests.support.message import BINDINGS, BODY, CROSS, DRIVES, ESTABLISHED, LICENCE, TITLE, VALID
from tests.support.repository import outside
from tests.support.text import append, edit, line_of, replace, write

Cli = Callable[..., Result]


def with_advisory(advisory: str, text: str = VALID) -> str:
    """`text` with an `## Advisory` section (heading on line 7, text on line 9) before Bindings."""
    return replace(text, BINDINGS, f"## Advisory\n\n{advisory}\n\n{BINDINGS}")


def check_outside(
    project: Path, cli: Cli, content: str | bytes, name: str = "draft.md"
) -> list[Finding]:
    """Validate `content` as a file outside the repository; every finding must be about it."""
    path = write(outside(project) / name, content)
    found = run_findings(cli, "validate", str(path))
    assert {f.path for f in found} <= {path.as_posix()}, found
    return found


def hooks(project: Path) -> Path:
    return project / "catalog" / "hooks.toml"


def guard_file(project: Path, name: str) -> Path:
    return project / "catalog" / "guards" / f"{name}.toml"


# A detector and its data, for guards under test that must not be U008 (no condition).
HEADER_CONDITION = (
    '[condition]\ndetector = "write-header"\nheader = "SPDX"\nkinds = { ".py" = "#" }\n'
)


def register(
    project: Path,
    name: str,
    placeholders: dict[str, str] | None,
    *,
    unwired: bool = True,
    wired: str = "",
    condition: str = "",
) -> str:
    """List `name` under `[unwired]` and, with `placeholders`, declare it a guard in its own
    guard file (with `wired`, a `wired = [...]` line, and `condition`); the text returned is
    the guard file's, or the registry's when there is none."""
    if unwired:
        edit(hooks(project), "\n[unwired]\n", f'\n[unwired]\n{name} = "a message under test"\n')
    if placeholders is None:
        return hooks(project).read_text(encoding="utf-8")
    table = "".join(f'{key} = "{value}"\n' for key, value in placeholders.items())
    text = f"{wired}\n[placeholders]\n{table}\n{condition}"
    write(guard_file(project, name), text)
    return text


@pytest.fixture
def project(mini_project: Path) -> Path:
    """The rule tests' project: a built copy of the mini fixture (see the module docstring)."""
    return mini_project


# --------------------------------------------------------------------------- baseline


def test_valid_message_is_clean_outside_and_registered(project: Path, cli: Cli) -> None:
    assert check_outside(project, cli, VALID) == []
    register(project, "under-test", None)
    write(project / "messages" / "under-test.md", VALID)
    assert run_findings(cli, "validate", "messages/under-test.md") == []
    assert run_findings(cli, "validate") == []


# --------------------------------------------------------------------------- F: file level


def test_f001_invalid_utf8(project: Path, cli: Cli) -> None:
    data = VALID.encode().replace(b"Body text", b"Body caf\xe9 text")
    found = check_outside(project, cli, data)
    assert positions(found) == [(5, 9, "F001")]
    assert "0xe9" in found[0].message


def test_f002_crlf(project: Path, cli: Cli) -> None:
    # Reported on the first CRLF line; the finding counts every CRLF line.
    data = VALID.encode().replace(f"{BODY}\n".encode(), f"{BODY}\r\n".encode())
    data = data.replace(b"thing under test.\n", b"thing under test.\r\n")
    found = check_outside(project, cli, data)
    assert positions(found) == [(5, 1, "F002")]
    assert "2 line(s)" in found[0].message


def test_f002_crlf_everywhere(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, VALID.encode().replace(b"\n", b"\r\n"))
    assert positions(found) == [(1, 1, "F002")]
    assert "11 line(s)" in found[0].message


def test_f003_bare_cr(project: Path, cli: Cli) -> None:
    # The blank line 8 ends with a bare CR instead of LF.
    data = VALID.encode().replace(f"{BINDINGS}\n".encode(), f"{BINDINGS}\r".encode())
    assert positions(check_outside(project, cli, data)) == [(8, 1, "F003")]


def test_f004_nul_byte(project: Path, cli: Cli) -> None:
    # In a binding's text, so that no delivered-text rule sees the character too.
    data = VALID.encode().replace(b"nothing else.", b"nothing\x00 else.")
    found = check_outside(project, cli, data)
    assert positions(found) == [(10, 53, "F004")]
    assert "1 NUL byte" in found[0].message


def test_f005_empty_file(project: Path, cli: Cli) -> None:
    assert positions(check_outside(project, cli, b"")) == [(1, 1, "F005")]


def test_f006_over_max_file_bytes(project: Path, cli: Cli) -> None:
    # A limit that every real source fits under, and a message over it.
    catalogue = project / "catalog"
    sources = [*catalogue.glob("*.toml"), *catalogue.glob("guards/*.toml")]
    sources += (project / "messages").glob("*.md")
    limit = max(path.stat().st_size for path in sources) + len(VALID)
    edit(project / "pyproject.toml", "max-file-bytes = 1000000", f"max-file-bytes = {limit}")
    big = replace(VALID, BODY, BODY + " " + "x" * limit)
    size = len(big.encode())
    assert size > limit
    found = check_outside(project, cli, big)
    assert positions(found) == [(1, 1, "F006")]
    assert f"{size} bytes, over the {limit}-byte limit" in found[0].message


def _directory(messages: Path) -> str:
    (messages / "x.md").mkdir()
    return "not a regular file"


def _symlink_loop(messages: Path) -> str:
    (messages / "x.md").symlink_to("x.loop")
    (messages / "x.loop").symlink_to("x.md")
    return "cannot read file"


def _symlink_out(messages: Path) -> str:
    target = write(outside(messages.parent) / "x.md", VALID)
    (messages / "x.md").symlink_to(target)
    return "symbolic link points outside the repository"


@pytest.mark.parametrize(
    "make", [_directory, _symlink_loop, _symlink_out], ids=["directory", "loop", "outside"]
)
def test_f007_unreadable_message(project: Path, cli: Cli, make: Callable[[Path], str]) -> None:
    reason = make(project / "messages")
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/x.md", 1, 1, "F007")]
    assert reason in found[0].message


@pytest.mark.parametrize("make", [_symlink_loop, _symlink_out], ids=["loop", "outside"])
def test_f007_unreadable_explicit_path(
    project: Path, cli: Cli, make: Callable[[Path], str]
) -> None:
    reason = make(project / "messages")
    found = run_findings(cli, "validate", "messages/x.md")
    assert located(found) == [("messages/x.md", 1, 1, "F007")]
    assert reason in found[0].message


def test_f008_nesting_past_the_limit(project: Path, cli: Cli) -> None:
    # Lists nest two token levels per marker: 50 markers reach the limit of 100 levels,
    # past which markdown-it would drop the rest of the file (Bindings included).
    deep = "\n".join("  " * depth + "- level" for depth in range(60))
    found = check_outside(project, cli, replace(VALID, BODY, deep))
    assert len(found) == 1
    finding = found[0]
    assert finding.position[2] == "F008"
    assert finding.position[:2] == (53, 1)  # the 49th level: the first token past the limit
    assert "100 levels" in finding.message


def test_f008_not_reported_below_the_limit(project: Path, cli: Cli) -> None:
    deep = "\n".join("  " * depth + "- level" for depth in range(40))
    assert check_outside(project, cli, replace(VALID, BODY, deep)) == []


# --------------------------------------------------------------------------- L, T: header


def test_l001_missing_licence(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, replace(VALID, f"{LICENCE}\n\n", ""))
    assert positions(found) == [(1, 1, "L001")]


def test_l002_licence_moved(project: Path, cli: Cli) -> None:
    text = replace(VALID, f"{LICENCE}\n\n", f"{TITLE}\n\n{LICENCE}\n\n")
    text = replace(text, f"{TITLE}\n\n{BODY}", BODY)
    found = check_outside(project, cli, text)
    assert positions(found) == [(3, 1, "L002")]
    assert "line 3" in found[0].message


def test_l003_misspelled_licence(project: Path, cli: Cli) -> None:
    wrong = "<!-- SPDX-Licence-Identifier: MIT -->"
    found = check_outside(project, cli, replace(VALID, LICENCE, wrong))
    assert positions(found) == [(1, 1, "L003")]
    assert wrong in found[0].message


def test_l003_names_the_leading_whitespace_it_found(project: Path, cli: Cli) -> None:
    # The spec: each licence error "names what was found". A message that quotes the
    # found line stripped reads "reads '<X>', expected '<X>'", which names nothing.
    found = check_outside(project, cli, replace(VALID, LICENCE, f"  {LICENCE}"))
    assert positions(found) == [(1, 1, "L003")]
    message = found[0].message
    assert f"  {LICENCE}" in message or "leading" in message, message


def test_l004_other_licence_id(project: Path, cli: Cli) -> None:
    other = "<!-- SPDX-License-Identifier: Apache-2.0 -->"
    found = check_outside(project, cli, replace(VALID, LICENCE, other))
    assert positions(found) == [(1, 1, "L004")]
    assert "'Apache-2.0'" in found[0].message
    assert "'MIT'" in found[0].message


def test_l005_duplicated_licence(project: Path, cli: Cli) -> None:
    text = replace(VALID, f"{BODY}\n", f"{BODY}\n\n{LICENCE}\n")
    found = check_outside(project, cli, text)
    assert positions(found) == [(7, 1, "L005")]
    assert "line 1" in found[0].message


def test_l006_byte_order_mark(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, b"\xef\xbb\xbf" + VALID.encode())
    assert positions(found) == [(1, 1, "L006")]


def test_l007_trailing_whitespace(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, replace(VALID, f"{LICENCE}\n", f"{LICENCE}  \n"))
    assert positions(found) == [(1, len(LICENCE) + 1, "L007")]


def test_l008_no_blank_line_after_licence(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, replace(VALID, f"{LICENCE}\n\n", f"{LICENCE}\n"))
    assert positions(found) == [(2, 1, "L008")]


def test_t001_no_title(project: Path, cli: Cli) -> None:
    text = replace(VALID, f"{TITLE}\n\n{BODY}\n", f"## Procedure\n\n{BODY}\n")
    found = check_outside(project, cli, text)
    assert positions(found) == [(3, 1, "T001")]


# --------------------------------------------------------------------------- B: bindings


@pytest.mark.slow
def test_b001_no_bindings(project: Path, cli: Cli) -> None:
    text = VALID.split(f"\n{BINDINGS}", 1)[0]
    assert text.endswith(f"{BODY}\n")
    found = check_outside(project, cli, text)
    assert positions(found) == [(5, 1, "B001")]


@pytest.mark.parametrize(
    "disguise",
    [
        "```\n## Bindings\n```",
        "> ## Bindings",
        "    ## Bindings",
        "Bindings\n---",
        "- ## Bindings",
    ],
    ids=["fence", "blockquote", "indented", "setext", "list"],
)
def test_b001_headings_in_disguise_are_not_sections(project: Path, cli: Cli, disguise: str) -> None:
    text = replace(VALID, BINDINGS, f"{disguise}\n")
    last = len(text.split("\n")) - 1
    assert positions(check_outside(project, cli, text)) == [(last, 1, "B001")]


def test_b001_not_reported_when_a_deep_list_precedes_bindings(project: Path, cli: Cli) -> None:
    # `## Bindings` after a blank line is a real CommonMark heading however deeply the
    # list before it nests; a parser that stops at its nesting limit must not hide it.
    text = replace(VALID, BODY, "- " * 12 + "a deeply nested item.")
    assert check_outside(project, cli, text) == []


def test_b002_bindings_not_last(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, VALID + "\n## After\n\nMore text.\n")
    assert positions(found) == [(7, 1, "B002")]
    assert "`## After`" in found[0].message
    assert "line 13" in found[0].message


def test_b003_second_bindings_section(project: Path, cli: Cli) -> None:
    second = f"\n{BINDINGS}\n{DRIVES}{ESTABLISHED}{CROSS}"
    found = check_outside(project, cli, VALID + second)
    assert positions(found) == [(13, 1, "B003")]
    assert "line 7" in found[0].message


def test_b004_missing_required_direction(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, replace(VALID, DRIVES, ""))
    assert positions(found) == [(7, 1, "B004")]
    assert "'Drives →'" in found[0].message


def test_b005_directions_out_of_order(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, replace(VALID, DRIVES + ESTABLISHED, ESTABLISHED + DRIVES))
    assert positions(found) == [(10, 1, "B005")]


@pytest.mark.parametrize(
    "bullet",
    ["- **Driven by →** a direction with the wrong glyph.\n", "- **Pushes →** an unknown one.\n"],
    ids=["wrong-glyph", "unknown"],
)
def test_b006_bad_direction(project: Path, cli: Cli, bullet: str) -> None:
    found = check_outside(project, cli, replace(VALID, DRIVES, DRIVES + bullet))
    assert positions(found) == [(10, 3, "B006")]


@pytest.mark.parametrize("text", ["TBD", "TODO: fill in later", ""], ids=["tbd", "todo", "empty"])
def test_b007_placeholder_binding(project: Path, cli: Cli, text: str) -> None:
    bullet = f"- **Drives →** {text}".rstrip() + "\n"
    found = check_outside(project, cli, replace(VALID, DRIVES, bullet))
    assert positions(found) == [(9, 1, "B007")]


def test_b008_ascii_arrow_outside_code(project: Path, cli: Cli) -> None:
    bullet = "- **Drives →** edits -> tests, `a -> b` in code, <!-- c -> d --> in a comment.\n"
    found = check_outside(project, cli, replace(VALID, DRIVES, bullet))
    assert positions(found) == [(9, 22, "B008")]
    assert "'->'" in found[0].message


def test_b008_every_ascii_arrow(project: Path, cli: Cli) -> None:
    bullet = "- **Drives →** a -> b, c <- d, e <-> f, g => h, i <= j.\n"
    found = check_outside(project, cli, replace(VALID, DRIVES, bullet))
    assert positions(found) == [
        (9, 18, "B008"),
        (9, 26, "B008"),
        (9, 34, "B008"),
        (9, 43, "B008"),
        (9, 51, "B008"),
    ]


def test_b009_missing_path(project: Path, cli: Cli) -> None:
    text = replace(VALID, "`catalog/hooks.toml`", "`catalog/missing.toml`")
    found = check_outside(project, cli, text)
    assert positions(found) == [(10, 25, "B009")]
    assert "`catalog/missing.toml`" in found[0].message


def test_b009_overlong_file_name_is_a_finding_not_a_crash(project: Path, cli: Cli) -> None:
    # A name longer than the file system allows (ENAMETOOLONG) does not exist.
    long = "a" * 300 + ".md"
    found = check_outside(project, cli, replace(VALID, "catalog/hooks.toml", long))
    assert positions(found) == [(10, 25, "B009")]


def test_b010_cross_binding_not_reciprocated(project: Path, cli: Cli) -> None:
    text = replace(VALID, "no other message in particular.", "`messages/stop.md` (why).")
    found = check_outside(project, cli, text)
    assert positions(found) == [(11, 27, "B010")]
    assert "`messages/stop.md`" in found[0].message


def test_b010_reciprocated_cross_binding_is_clean(project: Path, cli: Cli) -> None:
    register(project, "partner", None)
    write(project / "messages" / "partner.md", VALID)
    text = replace(VALID, "no other message in particular.", "`messages/partner.md` (why).")
    write(project / "messages" / "under-test.md", text)
    register(project, "under-test", None)
    found = run_findings(cli, "validate", "messages/under-test.md")
    assert located(found) == [("messages/under-test.md", 11, 27, "B010")]
    assert "`messages/partner.md`" in found[0].message
    edit(
        project / "messages" / "partner.md",
        "no other message in particular.",
        "`messages/under-test.md` (why).",
    )
    assert run_findings(cli, "validate") == []


def test_b011_stray_line_in_bindings(project: Path, cli: Cli) -> None:
    text = replace(VALID, f"{BINDINGS}\n", f"{BINDINGS}\nThese are the bindings.\n\n")
    found = check_outside(project, cli, text)
    assert positions(found) == [(9, 1, "B011")]


def test_b012_path_leaves_repository(project: Path, cli: Cli) -> None:
    text = replace(VALID, "`catalog/hooks.toml`", "`../other/file.md`")
    found = check_outside(project, cli, text)
    assert positions(found) == [(10, 25, "B012")]


# --------------------------------------------------------------------------- A: advisory


def test_a001_guard_without_advisory(project: Path, cli: Cli) -> None:
    register(project, "guarded", {"path": "src/app.py"})
    write(project / "messages" / "guarded.md", VALID)
    found = run_findings(cli, "validate", "messages/guarded.md")
    assert located(found) == [("messages/guarded.md", 1, 1, "A001")]


def test_a002_advisory_in_non_guard(project: Path, cli: Cli) -> None:
    register(project, "plain", None)
    write(project / "messages" / "plain.md", with_advisory("Check the file."))
    found = run_findings(cli, "validate", "messages/plain.md")
    assert located(found) == [("messages/plain.md", 7, 1, "A002")]


def test_a003_second_advisory(project: Path, cli: Cli) -> None:
    text = with_advisory("First text.", with_advisory("Second text."))
    found = check_outside(project, cli, text)
    assert positions(found) == [(11, 1, "A003")]
    assert "line 7" in found[0].message


def test_a004_undeclared_placeholder(project: Path, cli: Cli) -> None:
    register(project, "guarded", {"path": "src/app.py"})
    write(
        project / "messages" / "guarded.md",
        with_advisory("Check {{ path }} and {{ file }}."),
    )
    found = run_findings(cli, "validate", "messages/guarded.md")
    assert located(found) == [("messages/guarded.md", 9, 22, "A004")]
    assert "'file'" in found[0].message


def test_a005_unused_placeholder(project: Path, cli: Cli) -> None:
    register(project, "guarded", {"path": "src/app.py", "plan": "plans/x.md"})
    write(project / "messages" / "guarded.md", with_advisory("Check {{ path }}."))
    found = run_findings(cli, "validate", "messages/guarded.md")
    assert located(found) == [("messages/guarded.md", 7, 1, "A005")]
    assert "'plan'" in found[0].message


def test_guard_with_every_placeholder_used_is_clean(project: Path, cli: Cli) -> None:
    register(project, "guarded", {"path": "src/app.py", "plan": "plans/x.md"})
    write(project / "messages" / "guarded.md", with_advisory("Check {{ path }}, {{plan}}."))
    assert run_findings(cli, "validate") == []


@pytest.mark.parametrize(
    ("advisory", "expected"),
    [
        ("Check {{ path | upper }} now.", [(9, 7, "A006")]),
        ("Check {{ path.name }} now.", [(9, 7, "A006")]),
        ("Check {# a comment #} now.", [(9, 7, "A006")]),
        ("Check {% if path %}{{ path }}{% endif %} now.", [(9, 7, "A006"), (9, 30, "A006")]),
    ],
    ids=["filter", "attribute", "comment", "tag"],
)
def test_a006_other_jinja_syntax(
    project: Path, cli: Cli, advisory: str, expected: list[Position]
) -> None:
    assert positions(check_outside(project, cli, with_advisory(advisory))) == expected


def test_a006_deeply_nested_expression_is_a_finding_not_a_crash(project: Path, cli: Cli) -> None:
    advisory = "{{ " + "(" * 600 + "path" + ")" * 600 + " }}"
    found = check_outside(project, cli, with_advisory(advisory))
    assert (9, 1, "A006") in positions(found)
    assert {f.code for f in found} <= {"A006", "A007"}


def test_a007_invalid_template(project: Path, cli: Cli) -> None:
    # The codes table's own example: an unclosed `{{ path` is a broken template (A007),
    # not "Jinja2 syntax other than a plain variable" (A006).
    found = check_outside(project, cli, with_advisory("Check {{ path"))
    assert positions(found) == [(9, 1, "A007")]


def test_a007_invalid_tag_is_also_other_syntax(project: Path, cli: Cli) -> None:
    found = check_outside(project, cli, with_advisory("Check {% endif %} now."))
    assert positions(found) == [(9, 1, "A007"), (9, 7, "A006")]


def test_a008_empty_advisory(project: Path, cli: Cli) -> None:
    text = replace(VALID, BINDINGS, f"## Advisory\n\n{BINDINGS}")
    assert positions(check_outside(project, cli, text)) == [(7, 1, "A008")]


# --------------------------------------------------------------------------- D: delivered text


def _delivered_of_size(size: int) -> str:
    padding = size - len(f"{TITLE}\n\n")
    return replace(VALID, f"{BODY}\n", "x" * padding + "\n")


def test_d001_over_the_cap(project: Path, cli: Cli) -> None:
    assert check_outside(project, cli, _delivered_of_size(10_000)) == []
    found = check_outside(project, cli, _delivered_of_size(10_001))
    assert positions(found) == [(1, 1, "D001")]
    assert "10001 characters, 1 over the 10000 cap" in found[0].message


def test_d002_install_token(project: Path, cli: Cli) -> None:
    text = replace(VALID, BODY, "Run ${HARNESS_ROOT}/hooks now.")
    assert positions(check_outside(project, cli, text)) == [(5, 5, "D002")]


@pytest.mark.parametrize("char", ["\u202e", "\u200b", "\u2066", "\x07"])
def test_d003_hidden_character(project: Path, cli: Cli, char: str) -> None:
    text = replace(VALID, BODY, f"Body {char}text.")
    found = check_outside(project, cli, text)
    assert positions(found) == [(5, 6, "D003")]
    assert f"U+{ord(char):04X}" in found[0].message


def test_d004_no_delivered_text(project: Path, cli: Cli) -> None:
    # A licence line and a Bindings section only (the codes table's example). It also
    # has no title line before its first section, which T001 reports.
    text = replace(VALID, f"{TITLE}\n\n{BODY}\n\n", "")
    assert positions(check_outside(project, cli, text)) == [(1, 1, "D004"), (3, 1, "T001")]


def _sessionstart_with(project: Path, extra: str) -> Path:
    path = project / "messages" / "sessionstart.md"
    edit(path, "## Bindings", f"{extra}\n\n## Bindings")
    return path


def test_d005_text_under_the_cap_whose_answer_is_over_it(project: Path, cli: Cli) -> None:
    # 2,000 Cyrillic letters are far under the 10,000-character cap as text, but each is six
    # characters (`\u0436`) in the JSON answer every harness but Kiro reads: 12,000 and more.
    _sessionstart_with(project, "\u0436" * 2_000)
    found = [f for f in run_findings(cli, "validate") if f.path.endswith("sessionstart.md")]
    assert [f.code for f in found] == ["D005"]
    assert "over the 10000 cap" in found[0].message
    assert "JSON escaping included" in found[0].message


def test_d005_is_silent_for_text_whose_answer_fits(project: Path, cli: Cli) -> None:
    _sessionstart_with(project, "\u0436" * 200)
    found = [f for f in run_findings(cli, "validate") if f.path.endswith("sessionstart.md")]
    assert found == []


# --------------------------------------------------------------------------- R: registry


def test_r001_unregistered_message(project: Path, cli: Cli) -> None:
    write(project / "messages" / "new-message.md", VALID)
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/new-message.md", 1, 1, "R001")]
    assert run_findings(cli, "validate", "messages/new-message.md") == found


def test_r002_registered_name_does_not_exist(project: Path, cli: Cli) -> None:
    text = edit(hooks(project), 'messages = ["stop"]', 'messages = ["stop", "stopp"]')
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/hooks.toml", line_of(text, '"stopp"'), 1, "R002")]


def test_u005_guard_file_names_no_message(project: Path, cli: Cli) -> None:
    write(guard_file(project, "ghost"), '[placeholders]\npath = "x"\n')
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/guards/ghost.toml", 1, 1, "U005")]
    assert found[0].message == "'ghost' names no message (messages/ghost.md)"


def test_r002_unwired_name_does_not_exist(project: Path, cli: Cli) -> None:
    text = edit(hooks(project), "\n[unwired]\n", '\n[unwired]\nghost = "gone"\n')
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/hooks.toml", line_of(text, "ghost = "), 1, "R002")]


def test_r003_registered_twice_on_one_line(project: Path, cli: Cli) -> None:
    text = edit(hooks(project), 'messages = ["stop"]', 'messages = ["stop", "stop"]')
    found = run_findings(cli, "validate")
    line = line_of(text, 'messages = ["stop", "stop"]')
    assert located(found) == [("catalog/hooks.toml", line, 1, "R003")]


def test_r003_registered_twice_reports_the_repeat(project: Path, cli: Cli) -> None:
    # In a multi-line list the finding points at the repeated entry, the one to delete.
    many = 'messages = [\n  "sessionstart",\n  "skill-index",\n  "sessionstart",\n]'
    text = edit(hooks(project), 'messages = ["sessionstart", "skill-index"]', many)
    repeat = line_of(text, '  "skill-index",') + 1
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/hooks.toml", repeat, 1, "R003")]


def test_r004_unknown_event(project: Path, cli: Cli) -> None:
    text = edit(hooks(project), 'event = "Stop"', 'event = "PreToolCall"')
    found = run_findings(cli, "validate")
    line = line_of(text, 'event = "PreToolCall"')
    assert located(found) == [("catalog/hooks.toml", line, 1, "R004")]
    assert "'PreToolCall'" in found[0].message


def test_r004_matcher_on_event_without_matchers(project: Path, cli: Cli) -> None:
    text = edit(hooks(project), 'event = "Stop"\n', 'event = "Stop"\nmatcher = "Write"\n')
    found = run_findings(cli, "validate")
    line = line_of(text, 'event = "Stop"') + 1
    assert located(found) == [("catalog/hooks.toml", line, 1, "R004")]
    assert "takes no matcher" in found[0].message


def test_r005_second_entry_for_event_and_matcher(project: Path, cli: Cli) -> None:
    text = append(
        hooks(project), '[[dispatch]]\nevent = "Stop"\nmatcher = "*"\nmessages = ["postcompact"]\n'
    )
    found = run_findings(cli, "validate")
    line = line_of(text, "[[dispatch]]", text.count("[[dispatch]]"))
    assert located(found) == [("catalog/hooks.toml", line, 1, "R005")]


def test_r006_registered_and_unwired(project: Path, cli: Cli) -> None:
    text = edit(hooks(project), "\n[unwired]\n", '\n[unwired]\nstop = "and wired"\n')
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/hooks.toml", line_of(text, "stop = "), 1, "R006")]


def test_r007_guard_reachable_from_no_event(project: Path, cli: Cli) -> None:
    # Neither wired nor unwired: the guard entry is unreachable (R007) and the message
    # file itself is unregistered (R001).
    placeholders = {"path": "src/app.py", "header": "# SPDX"}
    register(project, "lonely", placeholders, unwired=False, condition=HEADER_CONDITION)
    write(project / "messages" / "lonely.md", with_advisory("Check {{ path }} for {{ header }}."))
    found = run_findings(cli, "validate")
    assert located(found) == [
        ("catalog/guards/lonely.toml", 1, 1, "R007"),
        ("messages/lonely.md", 1, 1, "R001"),
    ]


def test_r008_event_without_timeout(project: Path, cli: Cli) -> None:
    text = append(hooks(project), '[[dispatch]]\nevent = "Notification"\nmessages = ["stop"]\n')
    found = run_findings(cli, "validate")
    line = line_of(text, 'event = "Notification"')
    assert located(found) == [("catalog/hooks.toml", line, 1, "R008")]
    assert "'Notification'" in found[0].message


def test_r009_message_named_like_a_generated_message(project: Path, cli: Cli) -> None:
    write(project / "messages" / "skill-index.md", VALID)
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/skill-index.md", 1, 1, "R009")]
    assert "generated skill index" in found[0].message


# --------------------------------------------------------------------------- C: catalogue


def skills(project: Path) -> Path:
    return project / "catalog" / "skills.toml"


def harnesses(project: Path) -> Path:
    return harness_override(project)


NEW_SKILL = (
    'name = "brand-new-skill"\ngroup = "session"\nmanual = false\ndescription = "A skill."\n'
)


def test_c001_invalid_toml(project: Path, cli: Cli) -> None:
    text = edit(skills(project), 'namespace = "mini"', "namespace = ")
    found = run_findings(cli, "validate")
    line = line_of(text, "namespace = ")
    assert located(found) == [("catalog/skills.toml", line, len("namespace = ") + 1, "C001")]


def test_c002_schema_error(project: Path, cli: Cli) -> None:
    text = append(skills(project), "[[skills]]\n" + NEW_SKILL.replace("= false", '= "yes"'))
    found = run_findings(cli, "validate")
    line = line_of(text, 'manual = "yes"')
    assert located(found) == [("catalog/skills.toml", line, 1, "C002")]
    assert "brand-new-skill" in found[0].message
    assert "field 'manual'" in found[0].message


def test_c002_in_the_registry_is_the_only_finding(project: Path, cli: Cli) -> None:
    # A registry that fails to load must not make every guard message "not a guard" (A002).
    text = edit(hooks(project), "Stop = 60", 'Stop = "sixty"')
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/hooks.toml", line_of(text, 'Stop = "sixty"'), 1, "C002")]
    assert "field 'Stop'" in found[0].message


def test_c003_missing_catalogue_file(project: Path, cli: Cli) -> None:
    skills(project).unlink()
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/skills.toml", 1, 1, "C003")]


def test_c004_name_defined_twice(project: Path, cli: Cli) -> None:
    text = skills(project).read_text(encoding="utf-8")
    existing = re.search(r'^name = "([a-z0-9-]+)"$', text, re.MULTILINE)
    assert existing is not None
    # A second entry under a name this catalogue already lists names it twice.
    again = f'name = "{existing[1]}"\ngroup = "work"\nmanual = false\ndescription = "Again."\n'
    text = append(skills(project), f"[[skills]]\n{again}")
    found = run_findings(cli, "validate")
    line = line_of(text, "[[skills]]", text.count("[[skills]]"))
    assert located(found) == [("catalog/skills.toml", line, 1, "C004")]
    assert f"'{existing[1]}'" in found[0].message


def test_c005_unknown_task_group(project: Path, cli: Cli) -> None:
    text = append(skills(project), "[[skills]]\n" + NEW_SKILL.replace('"session"', '"sesion"'))
    found = run_findings(cli, "validate")
    line = line_of(text, 'group = "sesion"')
    assert located(found) == [("catalog/skills.toml", line, 1, "C005")]
    assert "'sesion'" in found[0].message


def test_c005_unknown_harness_event(project: Path, cli: Cli) -> None:
    # Reported on the line of the unknown key, not on its harness's `[[harnesses]]` header.
    text = edit(
        harnesses(project), 'SessionStart = "SessionStart"', 'SessionBegin = "SessionStart"'
    )
    found = run_findings(cli, "validate")
    line = line_of(text, "SessionBegin = ")
    # Its fact still says SessionStart is delivered, which the event list no longer says.
    fact = text.split("\n").index("[[harnesses.facts]]") + 1  # Claude Code's first fact
    assert located(found) == [
        ("catalog/harnesses.toml", fact, 1, "I002"),
        ("catalog/harnesses.toml", line, 1, "C005"),
    ]
    assert "'SessionBegin'" in found[1].message


def test_c013_override_of_a_builtin_harness_without_evidence(project: Path, cli: Cli) -> None:
    # Changing what hookmsg knows about a harness needs a fact that says what shows it.
    override = '# Codex, checked again.\n\n[[harnesses]]\nid = "codex"\nchecked = "9.9.9"\n'
    write(project / "catalog" / "harnesses.toml", override)
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/harnesses.toml", 3, 1, "C013")]
    assert "'codex' changes checked" in found[0].message
    # The same change with its evidence is accepted.
    fact = '[[harnesses.facts]]\nfact = "checked again"\nevidence = "an offline run of 9.9.9"\n'
    write(project / "catalog" / "harnesses.toml", override + "\n" + fact)
    assert run_findings(cli, "validate") == []


def test_c006_empty_task_group(project: Path, cli: Cli) -> None:
    text = append(skills(project), '[[groups]]\nid = "empty"\ntitle = "Empty"\n')
    found = run_findings(cli, "validate")
    line = line_of(text, "[[groups]]", text.count("[[groups]]"))
    assert located(found) == [("catalog/skills.toml", line, 1, "C006")]


# --------------------------------------------------------------------------- K: configuration


def test_k001_invalid_setting(project: Path, cli: Cli) -> None:
    pyproject = project / "pyproject.toml"
    text = edit(pyproject, "delivered-cap = 10000", 'delivered-cap = "10k"')
    result = cli("validate")
    assert result.code == 2
    assert result.out == ""
    line = line_of(text, 'delivered-cap = "10k"')
    assert f"{Path.cwd() / 'pyproject.toml'}:{line}:1: K001 " in result.err
    assert "'delivered-cap'" in result.err


def test_k001_unknown_key(project: Path, cli: Cli) -> None:
    text = edit(
        project / "pyproject.toml", "delivered-cap = 10000", "delivered-cap = 10000\ncolour = 1"
    )
    result = cli("validate")
    assert result.code == 2
    assert f"pyproject.toml:{line_of(text, 'colour = 1')}:1: K001 " in result.err


def test_k002_no_pyproject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli) -> None:
    folder = tmp_path / "no-project"
    folder.mkdir()
    monkeypatch.chdir(folder)
    result = cli("validate")
    assert result.code == 2
    assert result.out == ""
    assert "K002" in result.err
    assert "pyproject.toml" in result.err


def test_k002_invalid_pyproject_reports_its_position(project: Path, cli: Cli) -> None:
    text = edit(project / "pyproject.toml", "[tool.hookmsg]", "[tool.hookmsg")
    result = cli("validate")
    assert result.code == 2
    assert result.out == ""
    line = line_of(text, "[tool.hookmsg")
    assert f"pyproject.toml:{line}:{len('[tool.hookmsg') + 1}: K002 " in result.err


@pytest.mark.parametrize(
    "name",
    [
        ".doit.db",
        ".doit.db-journal",
        ".doit.db-wal",
        ".doit.db-shm",
        ".doit.db.dat",
        ".doit.db.dir",
        ".doit.db.bak",
        ".doit.db.db",
        ".doit.db.pag",
        ".DOIT.DB-journal",
        ".doit.db-journal/inner",
    ],
)
def test_k001_generated_folder_naming_doit_state(project: Path, cli: Cli, name: str) -> None:
    """Every name doit's backends write beside `.doit.db` is refused, and nothing is created."""
    edit(project / "pyproject.toml", 'generated = "generated"', f'generated = "{name}"')
    for argv in (("build",), ("check",), ("validate",)):
        result = cli(*argv)
        assert result.code == 2, (argv, result)
        assert "K001" in result.err and "doit's own state file" in result.err, result.err
    assert not (project / name.split("/", maxsplit=1)[0]).exists()


def test_k001_refused_build_creates_no_generated_folder(project: Path, cli: Cli) -> None:
    """A build that refuses (here: a validation finding) leaves the tree as it was."""
    edit(project / "pyproject.toml", 'generated = "generated"', 'generated = "out"')
    stop = project / "messages" / "stop.md"
    stop.write_text(stop.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    result = cli("build")
    assert result.code == 1 and "nothing was written" in result.err
    assert not (project / "out").exists()


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("\u00b2", "ASCII digits"),
        ("\u0663\u0662", "ASCII digits"),
        ("99999999999999999999", "past 8589934591"),
        ("8589934592", "past 8589934591"),
        ("-1", "ASCII digits"),
        (" 1700000000", "ASCII digits"),
        ("", "ASCII digits"),
    ],
)
def test_k004_bad_source_date_epoch(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch, value: str, why: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    result = cli("package")
    assert result.code == 2, result
    assert "SOURCE_DATE_EPOCH:1:1: K004 " in result.err and why in result.err, result.err
    assert "Traceback" not in result.err
    assert not (project / "dist").exists()


def test_k004_the_latest_accepted_epoch_makes_an_archive_gnu_tar_reads(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(8**11 - 1))
    result = cli("package", "--content-version", "v1")
    assert result.code == 0, result
    archive = project / "dist" / "hookmsg-assets-v1.tar.gz"
    listed = subprocess.run(
        ["tar", "-tvzf", str(archive)], capture_output=True, text=True, check=False
    )
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    assert "manifest.json" in listed.stdout


def test_k005_package_refuses_a_dist_link_out_of_the_repository(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    elsewhere = outside(project)
    (project / "dist").symlink_to(elsewhere, target_is_directory=True)
    result = cli("package", "--content-version", "v1")
    assert result.code == 2, result
    assert "K005" in result.err and "dist" in result.err
    assert list(elsewhere.iterdir()) == []


# --------------------------------------------------------------------------- G: outputs


def _skill_index_facts(project: Path, prefix: str) -> tuple[int, list[tuple[str, int]]]:
    """Delivered size and group line sizes of the committed skill index, with `prefix`."""
    text = (project / "generated" / "skill-index.md").read_text(encoding="utf-8")
    text = text.replace("/mini:", prefix)
    delivered = text.split(f"\n{BINDINGS}", 1)[0].split("\n", 1)[1].strip()
    groups = [
        (match[1], len(match[0]))
        for match in re.finditer(r"^- \*\*(.+?):\*\* .*$", delivered, re.MULTILINE)
    ]
    return len(delivered), sorted(groups, key=lambda item: (-item[1], item[0]))


def _g001_run(project: Path, cli: Cli) -> dict[str, Finding]:
    edit(project / "pyproject.toml", "skill-index-budget = 1600", "skill-index-budget = 100")
    found = run_findings(cli, "validate")
    assert located(found) == [("catalog/skills.toml", 1, 1, "G001")] * 2
    by_form: dict[str, Finding] = {}
    for finding in found:
        form = re.search(r"\((plugin|engine) form\)", finding.message)
        assert form is not None, finding.message
        by_form[form[1]] = finding
    assert set(by_form) == {"plugin", "engine"}
    return by_form


def test_g001_skill_index_over_budget(project: Path, cli: Cli) -> None:
    by_form = _g001_run(project, cli)
    for form, prefix in (("plugin", "/mini:"), ("engine", "/")):
        size, groups = _skill_index_facts(project, prefix)
        message = by_form[form].message
        assert f"{size} characters, {size - 100} over the 100 budget" in message
        for title, _ in groups[:3]:
            assert title in message.split("largest groups:", 1)[1]
    _, groups = _skill_index_facts(project, "/mini:")
    message = by_form["plugin"].message
    assert [g for g in (f"{t} ({n})" for t, n in groups[:3]) if g not in message] == [], message


def test_g001_engine_form_names_engine_group_sizes(project: Path, cli: Cli) -> None:
    # The engine-form finding describes the engine text: its group sizes are those of
    # the engine lines (without the namespace prefix), not of the plugin lines.
    by_form = _g001_run(project, cli)
    _, groups = _skill_index_facts(project, "/")
    message = by_form["engine"].message
    assert [g for g in (f"{t} ({n})" for t, n in groups[:3]) if g not in message] == [], message


# --------------------------------------------------------------------------- completeness

# G005, G006 and K003 are tried in test_cli_build.py and test_confinement.py.
# U (guard data): one test per code in tests/test_catalogue_guard_files.py, which checks its own.
# I003-I013 (install's refusals, verify's reasons): tests/test_install.py, which checks its own.
TESTED_ELSEWHERE = (
    {"G002", "G003", "G004", "G005", "G006", "K003"}
    | {f"U{n:03d}" for n in range(1, 13)}
    | {f"I{n:03d}" for n in range(3, 14)}
)


def test_every_rule_code_has_a_test_here() -> None:
    # Each code needs a test function named after it (`def test_<code>_...`).
    source = Path(__file__).read_text(encoding="utf-8")
    missing = [
        code
        for code in CODES
        if code not in TESTED_ELSEWHERE
        and not re.search(rf"^def test_{code.lower()}_", source, re.MULTILINE)
    ]
    assert missing == [], f"codes without a test in {Path(__file__).name}: {missing}"


# --------------------------------------------------------------------------- H: registrations
#
# The registrations are rendered in memory from the registry and the harness facts.
# H002, H004 and H006 come from registries that can be written. That a registration
# parses, registers only delivered events and keeps only install tokens is no finding
# (no registry can break it): tests/test_render_registrations.py proves it of the renderer.
# Nor can any registry make a command skip the fail-open bootstrap (once H007): the
# same test proves that of every command the renderer writes.


def test_repository_registrations_pass_every_contract_rule(project: Path, cli: Cli) -> None:
    from hookmsg.harnesses.rules import contract
    from hookmsg.pipeline.workspace import load_workspace
    from hookmsg.project.settings import load_project

    assert run_findings(cli, "validate") == []
    catalogue = load_workspace(load_project(project)).catalogue
    assert catalogue.registry is not None and catalogue.harnesses is not None
    registered = [h for h in catalogue.harnesses.harnesses if h.registration is not None]
    assert len(registered) == 14  # eleven JSON files and three extension modules
    found = contract.check(
        catalogue.registry,
        catalogue.registry_text,
        catalogue.registry_display,
        catalogue.harnesses,
        "generated",
        catalogue.guards.files if catalogue.guards is not None else {},
    )
    assert found == []


WRITE_GUARD_WIRED = 'wired = [{ event = "PreToolUse", matcher = "Write|Edit" }]'


def _wire_write_guard_at(project: Path, *matchers: str) -> None:
    """A PreToolUse entry for each of `matchers`, and the write guard wired at each too."""
    for matcher in matchers:
        entry = f'[[dispatch]]\nevent = "PreToolUse"\nmatcher = "{matcher}"\nmessages = []\n'
        append(hooks(project), entry)
    more = "".join(f'  {{ event = "PreToolUse", matcher = "{m}" }},\n' for m in matchers)
    wired = f'wired = [\n  {{ event = "PreToolUse", matcher = "Write|Edit" }},\n{more}]'
    edit(guard_file(project, "pretooluse-write-guard"), WRITE_GUARD_WIRED, wired)


def test_h002_two_entries_translate_to_one_matcher(project: Path, cli: Cli) -> None:
    # `Bash` and `Bash|PowerShell` are two registry entries (no R005), but Codex has no
    # PowerShell tool: both become one matcher there. (Qwen Code registers PreToolUse only
    # in strict mode; Copilot spells them `bash` and `bash|powershell`.)
    _wire_write_guard_at(project, "Bash", "Bash|PowerShell")
    found = run_findings(cli, "validate")
    assert located(found) == [("generated/codex/hooks.json", 1, 1, "H002")]
    assert found[0].message == "'pretooluse-write-guard' is registered 2 times for PreToolUse Bash"


def test_h002_fold_collapses_two_entries(project: Path, cli: Cli) -> None:
    # Codex folds the Write and the Edit entries into one matcher. A fold whose matcher is
    # the shell tool's puts the Write entry's guards on the Bash matcher, beside the shell
    # entry's own: the write guard, in both, is registered twice.
    _wire_write_guard_at(project, "Write", "Bash")
    assert run_findings(cli, "validate") == []
    edit(harnesses(project), 'matcher = "Edit|Write|apply_patch"', 'matcher = "Bash"')
    found = run_findings(cli, "validate")
    assert located(found) == [("generated/codex/hooks.json", 1, 1, "H002")]
    assert found[0].message == "'pretooluse-write-guard' is registered 2 times for PreToolUse Bash"


def test_h004_guard_wired_only_where_no_registration_delivers(project: Path, cli: Cli) -> None:
    # No harness hands PostCompact output to the model, so no registration runs the guard.
    edit(
        hooks(project),
        'messages = ["stop"]\n',
        'messages = ["stop"]\n\n[[dispatch]]\nevent = "PostCompact"\nmessages = []\n',
    )
    edit(hooks(project), "Stop = 60\n", "Stop = 60\nPostCompact = 30\n")
    wired = 'wired = [{ event = "PostCompact" }]'
    register(project, "compact-guard", {"path": "src/app.py"}, unwired=False, wired=wired)
    write(project / "messages" / "compact-guard.md", with_advisory("Check {{ path }}."))
    # (It has no condition either: U008, a dead guard, in the same file.)
    found = [f for f in run_findings(cli, "validate") if f.code != "U008"]
    assert located(found) == [("catalog/guards/compact-guard.toml", 1, 1, "H004")]
    assert "'compact-guard'" in found[0].message


def test_h006_timeout_over_a_harness_maximum(project: Path, cli: Cli) -> None:
    # Stop is registered only on the two Claude Code files (600 s); Codex and Qwen Code
    # hand Stop output to the model only as a block, so they do not register it.
    text = edit(hooks(project), "\nStop = 60\n", "\nStop = 900\n")
    found = run_findings(cli, "validate")
    line = line_of(text, "Stop = 900")
    assert located(found) == [("catalog/hooks.toml", line, 1, "H006")] * 2
    assert sorted(f.message for f in found) == [
        "Stop timeout 900 s is outside claude-code-engine's range 1..600 s",
        "Stop timeout 900 s is outside claude-code-plugin's range 1..600 s",
    ]


def test_h006_qwen_seconds_stop_short_of_legacy_milliseconds(project: Path, cli: Cli) -> None:
    # Qwen Code reads 1,000 or more as legacy milliseconds: its range ends at 999 seconds.
    assert "timeout_max = 999" in harnesses(project).read_text(encoding="utf-8")
    edit(harnesses(project), "timeout_max = 999", "timeout_max = 10")
    text = edit(hooks(project), "\nSessionStart = 30\n", "\nSessionStart = 11\n")
    found = run_findings(cli, "validate")
    line = line_of(text, "SessionStart = 11")
    # Both SessionStart entries (plain and compact) break it: one finding, repeats dropped.
    assert located(found) == [("catalog/hooks.toml", line, 1, "H006")]
    assert {f.message for f in found} == {
        "SessionStart timeout 11 s is outside qwen-code's range 1..10 s"
    }


def test_h006_codebuddy_allows_sixty_seconds(project: Path, cli: Cli) -> None:
    edit(hooks(project), "\nSessionStart = 30\n", "\nSessionStart = 60\n")
    assert run_findings(cli, "validate") == []
    text = edit(hooks(project), "\nSessionStart = 60\n", "\nSessionStart = 61\n")
    found = run_findings(cli, "validate")
    line = line_of(text, "SessionStart = 61")
    assert located(found) == [("catalog/hooks.toml", line, 1, "H006")]
    assert found[0].message == "SessionStart timeout 61 s is outside codebuddy's range 1..60 s"


# --------------------------------------------------------------------------- I: harness facts


def test_i001_delivered_event_without_evidence(project: Path, cli: Cli) -> None:
    # A harness added by the override (Cursor's entry under a new id), one fact short: an
    # override of the built-in Cursor would keep the built-in fact, which is evidence.
    edit(harnesses(project), 'id = "cursor"', 'id = "cursor-two"')
    text = edit(
        harnesses(project),
        '[[harnesses.facts]]\nevent = "PostToolUse"\ndelivered = true\n'
        'fact = "additional_context is added after the tool result"\n'
        'evidence = "Cursor hooks documentation (cursor.com/docs/hooks)"\n\n',
        "",
    )
    found = run_findings(cli, "validate")
    line = line_of(text, 'PostToolUse = "postToolUse"', 2)  # Copilot's, then Cursor's
    assert located(found) == [("catalog/harnesses.toml", line, 1, "I001")]
    assert "'cursor-two' delivers PostToolUse" in found[0].message


def test_i002_fact_contradicts_the_event_lists(project: Path, cli: Cli) -> None:
    text = edit(
        harnesses(project),
        'event = "Stop"\ndelivered = false\nfact = "followup_message',
        'event = "Stop"\ndelivered = true\nfact = "followup_message',
    )
    found = run_findings(cli, "validate")
    line = line_of(text, 'fact = "followup_message') - 3
    assert located(found) == [("catalog/harnesses.toml", line, 1, "I002")]
    assert "'cursor' does not list Stop" in found[0].message


# --------------------------------------------------------------------------- S: skill files
#
# A `[[sources]]` folder of SKILL.md files added to the catalogue; each test writes one
# skill (folder `case`) that breaks one rule. More cases: tests/test_catalogue_skills.py;
# real, independently written ones: tests/test_skill_corpus.py.

SKILL_FILE = "skills/case/SKILL.md"


def skill_findings(project: Path, cli: Cli, content: str | bytes) -> list[Position]:
    """Source `skills/` into the Work group, write `skills/case/SKILL.md`, validate."""
    append(skills(project), '[[sources]]\nkind = "skills"\npath = "skills"\ngroup = "work"\n')
    write(project / SKILL_FILE, content)
    found = run_findings(cli, "validate")
    assert {f.path for f in found} <= {SKILL_FILE}, found
    return positions(found)


def test_s001_skill_without_front_matter(project: Path, cli: Cli) -> None:
    assert skill_findings(project, cli, "# Case\n\nNo front matter.\n") == [(1, 1, "S001")]


def test_s002_front_matter_never_closed(project: Path, cli: Cli) -> None:
    assert skill_findings(project, cli, "---\nname: case\ndescription: y\n") == [(1, 1, "S002")]


def test_s003_front_matter_not_yaml(project: Path, cli: Cli) -> None:
    content = "---\nname: case\ndescription: Use when: asked\n---\n"
    assert skill_findings(project, cli, content) == [(3, 22, "S003")]


def test_s004_front_matter_not_a_mapping(project: Path, cli: Cli) -> None:
    assert skill_findings(project, cli, "---\n- name\n- description\n---\n") == [(2, 1, "S004")]


def test_s005_tab_indentation(project: Path, cli: Cli) -> None:
    content = "---\nname: case\ndescription: y\nmetadata:\n\tauthor: me\n---\n"
    assert skill_findings(project, cli, content) == [(5, 1, "S005")]


def test_s006_bom_before_front_matter(project: Path, cli: Cli) -> None:
    content = "\ufeff---\nname: case\ndescription: y\n---\n"
    assert skill_findings(project, cli, content) == [(1, 1, "S006")]


def test_s007_name_differs_from_folder(project: Path, cli: Cli) -> None:
    content = "---\nname: other\ndescription: y\n---\n"
    assert skill_findings(project, cli, content) == [(2, 7, "S007")]


def test_s008_name_missing_or_not_kebab_case(project: Path, cli: Cli) -> None:
    assert skill_findings(project, cli, "---\ndescription: y\n---\n") == [(1, 1, "S008")]
    (project / SKILL_FILE).unlink()
    write(project / "skills/case--x/SKILL.md", "---\nname: case--x\ndescription: y\n---\n")
    found = run_findings(cli, "validate")
    assert located(found) == [("skills/case--x/SKILL.md", 2, 7, "S008")]


def test_s009_description_missing(project: Path, cli: Cli) -> None:
    assert skill_findings(project, cli, "---\nname: case\n---\n") == [(1, 1, "S009")]


def test_s010_description_too_long(project: Path, cli: Cli) -> None:
    content = "---\nname: case\ndescription: " + "d" * 1025 + "\n---\n"
    assert skill_findings(project, cli, content) == [(3, 14, "S010")]


def test_s011_unknown_key(project: Path, cli: Cli) -> None:
    content = "---\nname: case\ndescription: y\nversion: 1.0\n---\n"
    assert skill_findings(project, cli, content) == [(4, 1, "S011")]


@pytest.mark.slow
def test_s012_duplicate_name(project: Path, cli: Cli) -> None:
    append(skills(project), '[[sources]]\nkind = "commands"\npath = "commands"\ngroup = "work"\n')
    write(project / "commands/case.md", "---\ndescription: The command.\n---\nRun.\n")
    # The skills source comes second, so its `case` is the duplicate.
    content = "---\nname: case\ndescription: y\n---\n"
    assert skill_findings(project, cli, content) == [(1, 1, "S012")]


def test_s013_entry_in_no_group(project: Path, cli: Cli) -> None:
    append(skills(project), '[[sources]]\nkind = "skills"\npath = "skills"\n')
    write(project / SKILL_FILE, "---\nname: case\ndescription: y\n---\n")
    found = run_findings(cli, "validate")
    assert located(found) == [(SKILL_FILE, 1, 1, "S013")]


def test_s014_repeated_key(project: Path, cli: Cli) -> None:
    content = "---\nname: case\ndescription: y\ndescription: z\n---\n"
    assert skill_findings(project, cli, content) == [(4, 1, "S014")]


def test_s015_wrong_type(project: Path, cli: Cli) -> None:
    content = "---\nname: case\ndescription: y\nargument-hint: [message]\n---\n"
    assert skill_findings(project, cli, content) == [(4, 16, "S015")]


def test_s016_source_folder_missing(project: Path, cli: Cli) -> None:
    text = append(skills(project), '[[sources]]\nkind = "skills"\npath = "skils"\n')
    found = run_findings(cli, "validate")
    line = line_of(text, 'path = "skils"') - 2
    assert located(found) == [("catalog/skills.toml", line, 1, "S016")]


def test_s017_skills_entry_without_description(project: Path, cli: Cli) -> None:
    text = append(skills(project), '[[skills]]\nname = "brand-new-skill"\ngroup = "work"\n')
    found = run_findings(cli, "validate")
    line = line_of(text, 'name = "brand-new-skill"') - 1
    assert located(found) == [("catalog/skills.toml", line, 1, "S017")]
    assert "needs description and manual" in found[0].message


# --------------------------------------------------------------------------- X: the xcsh module


def xcsh_entry(project: Path, old: str, new: str) -> str:
    """Replace `old` inside the xcsh harness entry of catalog/harnesses.toml; the new text."""
    path = harness_override(project)
    text = path.read_text(encoding="utf-8")
    start = text.index('id = "xcsh"')
    assert old in text[start:], old
    text = text[:start] + text[start:].replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text


def last_line(text: str, needle: str) -> int:
    """The line of the last `needle`: the xcsh entry is the catalogue's last."""
    return line_of(text, needle, text.count(needle))


@pytest.mark.parametrize(
    ("event", "spelled", "why"),
    [
        ("PostToolUse", "tool_call", "can only block a call with a reason"),
        ("UserPromptSubmit", "agent_end", "is not an xcsh event the module can deliver on"),
    ],
)
def test_x001_event_without_a_context_channel(
    project: Path, cli: Cli, event: str, spelled: str, why: str
) -> None:
    current = {"PostToolUse": "tool_result", "UserPromptSubmit": "before_agent_start"}[event]
    text = xcsh_entry(project, f'{event} = "{current}"', f'{event} = "{spelled}"')
    found = run_findings(cli, "validate")
    line = last_line(text, f'{event} = "{spelled}"')
    assert located(found) == [("catalog/harnesses.toml", line, 1, "X001")]
    assert f"xcsh event '{spelled}', which {why}" in found[0].message


def test_x002_xcsh_does_not_report_session_start_sources(project: Path, cli: Cli) -> None:
    text = xcsh_entry(project, "session_start_sources = false", "session_start_sources = true")
    found = run_findings(cli, "validate")
    line = last_line(text, "session_start_sources = true")
    assert located(found) == [("catalog/harnesses.toml", line, 1, "X002")]


def test_x004_user_folder_module_must_be_javascript_on_a_module_harness(
    project: Path, cli: Cli
) -> None:
    path = harness_override(project)
    text = path.read_text(encoding="utf-8")
    old = 'user_file = ".pi/agent/extensions/hookmsg.js"'
    text = text.replace(old, 'user_file = ".pi/agent/extensions/hookmsg.json"')
    # A settings-file harness has no user folder module.
    text = text.replace(
        'project_file = ".factory/settings.json"',
        'project_file = ".factory/settings.json"\nuser_file = ".factory/hookmsg.js"',
    )
    path.write_text(text, encoding="utf-8")
    found = run_findings(cli, "validate")
    assert [(f.code, f.line) for f in found] == [
        ("X004", line_of(text, 'user_file = ".pi/agent/extensions/hookmsg.json"')),
        ("X004", line_of(text, 'user_file = ".factory/hookmsg.js"')),
    ]
    assert "must end in .js" in found[0].message
    assert "extension module only" in found[1].message


def test_x003_module_file_must_be_javascript(project: Path, cli: Cli) -> None:
    text = xcsh_entry(project, 'file = "hookmsg.js"', 'file = "hookmsg.json"')
    found = run_findings(cli, "validate")
    line = last_line(text, 'file = "hookmsg.json"')
    assert located(found) == [("catalog/harnesses.toml", line, 1, "X003")]


def test_s018_install_refuses_to_overwrite_a_skill_it_did_not_write(
    project: Path, cli: Cli, tmp_path: Path
) -> None:
    # A skill of this project's own files, which install puts into the target.
    append(skills(project), '[[sources]]\nkind = "skills"\npath = "skills"\ngroup = "work"\n')
    skill = "---\nname: add-guard\ndescription: Add a guard to the project.\n---\n\nSteps.\n"
    write(project / "skills" / "add-guard" / "SKILL.md", skill)
    assert cli("build").code == 0
    target = tmp_path / "target"
    own = target / ".claude" / "skills" / "add-guard" / "SKILL.md"
    own.parent.mkdir(parents=True)
    own.write_text("---\nname: add-guard\ndescription: Mine.\n---\n\nMine.\n", encoding="utf-8")
    argv = ["install", "--harness", "claude-code-engine", "--project", str(target)]
    result = cli(*argv, "--root", str(tmp_path / "root"), "--python", "/usr/bin/python3")
    assert result.code == 1
    assert f"{own}:1:1: S018 " in result.out + result.err
    assert own.read_text(encoding="utf-8").endswith("Mine.\n")
    assert not (target / ".claude" / "commands").exists()
