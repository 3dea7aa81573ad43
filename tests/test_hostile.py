"""Hostile input: every way a message, the registry, the catalogue or the configuration breaks.

`test_rules.py` has one minimal fixture per diagnostic code; this module goes wider:
wrong encodings, byte order marks, mixed line endings, NUL bytes, invisible and
bidirectional characters, files over `max-file-bytes`, nesting at and past the
parser's limit, pathological emphasis and link syntax, headings in disguise, Jinja2
syntax in every section, TOML type errors, unknown keys, duplicate names, names
with path separators, backticked paths that escape the repository, symbolic links
(loops, dangling, out of the repository) and unreadable files and folders.

Every case runs the CLI in-process on a throw-away copy of the repository (the
`project` fixture) and asserts the exact findings: code, path, line and column.
None may raise, hang or write anything. Binary fixtures are written from Python.

The tests run as root in CI, where `chmod 000` does not stop a read: unreadable
files are simulated with a FIFO, a directory or a dangling link in place of a
file, or by making `os.open` / `os.scandir` raise `PermissionError` for one path.
"""

from __future__ import annotations

import builtins
import io
import os
import re
import shutil
import subprocess
import sys
import tomllib
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

import hookmsg.messages.message
from tests.support.diagnostics import (
    Finding,
    Position,
    Result,
    located,
    parse_findings,
    run_findings,
)
from tests.support.harnesses import harness_override
from tests.support.message import BINDINGS, BODY, LICENCE, TITLE, VALID
from tests.support.repository import outside
from tests.support.text import append, edit, line_of, replace, write

Cli = Callable[..., Result]
HOOKS_PATH = "`catalog/hooks.toml`"


@pytest.fixture(autouse=True)
def _plain_text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    # CI sets GITHUB_ACTIONS=true, which switches the default diagnostic format.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def check_outside(project: Path, cli: Cli, content: str | bytes) -> list[Position]:
    """Validate `content` as a file outside the repository; every finding must be about it."""
    path = write(outside(project) / "draft.md", content)
    found = run_findings(cli, "validate", str(path))
    assert {f.path for f in found} <= {path.as_posix()}, found
    return [f.position for f in found]


def catalog(project: Path, name: str) -> Path:
    """A catalogue file; `harnesses.toml` is the override, made a full copy of the built-in."""
    if name == "harnesses.toml":
        return harness_override(project)
    return project / "catalog" / name


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def assert_build_refused(project: Path, cli: Cli) -> None:
    """A build over broken sources exits 1 and leaves the generated folder as it was."""
    before = tree(project / "generated")
    result = cli("build")
    assert result.code == 1, result.out + result.err
    assert "Traceback" not in result.err
    assert tree(project / "generated") == before
    assert not [p for p in project.rglob(".*") if p.suffix in (".tmp", ".bak")]


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The real path of every file opened through os.open, io.open or open."""
    seen: list[str] = []
    real_os_open, real_io_open = os.open, io.open

    def record(path: object) -> None:
        if isinstance(path, str | bytes | os.PathLike):
            seen.append(os.path.realpath(os.fsdecode(path)))

    def os_open(path: object, *args: object, **kwargs: object) -> int:
        record(path)
        return real_os_open(path, *args, **kwargs)  # type: ignore[arg-type]

    def io_open(file: object, *args: object, **kwargs: object) -> object:
        record(file)
        return real_io_open(file, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(io, "open", io_open)
    monkeypatch.setattr(builtins, "open", io_open)
    return seen


def deny(monkeypatch: pytest.MonkeyPatch, module: object, name: str, suffix: str) -> None:
    """Make `module.name` (os.open, os.scandir, ...) raise EACCES for paths ending in `suffix`."""
    real = getattr(module, name)

    def denied(path: str | os.PathLike[str] | int = ".", *args: object, **kwargs: object) -> object:
        if not isinstance(path, int) and os.fsdecode(path).rstrip("/").endswith(suffix):
            raise PermissionError(13, "Permission denied", os.fsdecode(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(module, name, denied)


# =========================================================================== encodings


@pytest.mark.slow
@pytest.mark.parametrize(
    ("data", "expected", "byte"),
    [
        (VALID.encode("utf-16"), [(1, 1, "F001")], "0xff"),
        (VALID.encode("utf-32"), [(1, 1, "F001")], "0xff"),
        # No BOM: the ASCII lines decode (their NULs are valid UTF-8); the first byte that
        # is not is the low byte of the → on line 9: 1 NUL from the line break, 22 bytes of
        # "- **Drives ", then 0x92.
        (VALID.encode("utf-16-le"), [(9, 24, "F001")], "0x92"),
        # cp1252 smart quotes around a word of the title.
        (
            replace(VALID, "Title sentence", "Title “sentence”").encode("cp1252", "replace"),
            [(3, 7, "F001")],
            "0x93",
        ),
        # A UTF-16 surrogate encoded as UTF-8 (CESU-8) is not UTF-8.
        (
            replace(VALID, "Body text", "Body \ud83d text").encode("utf-8", "surrogatepass"),
            [(5, 6, "F001")],
            "0xed",
        ),
        # A multi-byte sequence cut off at the end of the file.
        (VALID.encode() + "→".encode()[:2], [(12, 1, "F001")], "0xe2"),
        # A PNG renamed to .md.
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", [(1, 1, "F001")], "0x89"),
    ],
    ids=["utf-16", "utf-32", "utf-16-le-no-bom", "cp1252", "cesu-8", "truncated", "png"],
)
def test_wrong_encoding_is_one_f001_at_the_first_bad_byte(
    project: Path, cli: Cli, data: bytes, expected: list[Position], byte: str
) -> None:
    assert check_outside(project, cli, data) == expected
    path = outside(project) / "draft.md"
    message = parse_findings(cli("validate", str(path)).out)[0].message
    assert byte in message


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # A BOM inside the text is U+FEFF, an invisible character in what is delivered.
        (replace(VALID, "Body text", "Body \ufefftext").encode(), [(5, 6, "D003")]),
        # A BOM in front of a CRLF file: both are reported, the rest is checked as usual.
        (b"\xef\xbb\xbf" + VALID.replace("\n", "\r\n").encode(), [(1, 1, "F002"), (1, 1, "L006")]),
    ],
    ids=["bom-inside", "bom-and-crlf"],
)
def test_byte_order_marks(project: Path, cli: Cli, data: bytes, expected: list[Position]) -> None:
    assert check_outside(project, cli, data) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # CRLF after the title, a bare CR inside the body, LF everywhere else.
        (
            VALID.replace(f"{TITLE}\n", f"{TITLE}\r\n")
            .replace("Body text ", "Body text\r")
            .encode(),
            [(3, 1, "F002"), (5, 10, "F003")],
        ),
        # Classic Mac OS: bare CR everywhere; the first one ends line 1.
        (VALID.replace("\n", "\r").encode(), [(1, len(LICENCE) + 1, "F003")]),
        # A lone CR after the final LF.
        (VALID.encode() + b"\r", [(12, 1, "F003")]),
    ],
    ids=["crlf-cr-lf", "cr-only", "cr-at-end"],
)
def test_mixed_line_endings(project: Path, cli: Cli, data: bytes, expected: list[Position]) -> None:
    assert check_outside(project, cli, data) == expected


def test_nul_in_the_delivered_text_is_both_binary_and_hidden(project: Path, cli: Cli) -> None:
    data = replace(VALID, "Body text", "Body \x00text").encode()
    assert check_outside(project, cli, data) == [(5, 6, "D003"), (5, 6, "F004")]


# =========================================================================== hidden characters

HIDDEN = {"Cc", "Cf", "Zl", "Zp"}  # control, format (bidi, zero-width), line/paragraph separators


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


# =========================================================================== huge files


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
    limit = 200_000
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


GUARD = "pretooluse-eval-guard"


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


# =========================================================================== Jinja2 everywhere


def with_advisory(advisory: str) -> str:
    return replace(VALID, BINDINGS, f"## Advisory\n\n{advisory}\n\n{BINDINGS}")


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


# =========================================================================== catalogue: TOML


CatalogueEdit = Callable[[Path], tuple[str, int, int]]


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
    "hooks-placeholder-not-a-string": _edit_line(
        "hooks.toml", 'primitive = "pickle.loads"', "primitive = 1", "primitive = 1"
    ),
    "hooks-placeholder-bad-name": _edit_line(
        "hooks.toml", 'primitive = "pickle.loads"', '"Primitive-Name" = "x"', '"Primitive-Name"'
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
    "hooks-guard-name-with-dotdot": _append(
        "hooks.toml", '[guards."../x".placeholders]\npath = "x"\n', '[guards."../x"'
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
    header = "[guards.pretooluse-eval-guard.placeholders]"
    text = append(catalog(project, "hooks.toml"), f'{header}\nx = "1"\n')
    found = run_findings(cli, "validate")
    line = line_of(text, header, 2)
    # tomllib points at the closing bracket of the repeated header.
    assert located(found) == [("catalog/hooks.toml", line, len(header), "C001")]


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
    text = edit(path, 'namespace = "hookmsg"', 'namespace = "hook\x00msg"')
    line = line_of(text, "namespace = ")
    found = run_findings(cli, "validate")
    col = len('namespace = "hook') + 1
    assert located(found) == [
        ("catalog/skills.toml", line, col, "C001"),
        ("catalog/skills.toml", line, col, "F004"),
    ]


# =========================================================================== message names


@pytest.mark.slow
def test_message_file_named_dot_dot(project: Path, cli: Cli) -> None:
    # `messages/...md` has the name `..`: no registry entry can name it (names are
    # kebab-case), so it is unregistered, and it never becomes a path.
    write(project / "messages" / "...md", VALID)
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/...md", 1, 1, "R001")]
    assert_build_refused(project, cli)


@pytest.mark.slow
def test_message_named_like_the_generated_skill_index_is_still_checked(
    project: Path, cli: Cli
) -> None:
    # `skill-index` is the name of the generated skill index. An authored message of the
    # same name must not be shadowed by it: its own problems are still reported.
    broken = replace(VALID, LICENCE, "<!-- SPDX-License-Identifier: Apache-2.0 -->")
    write(project / "messages" / "skill-index.md", broken)
    result = cli("validate")
    assert result.code == 1, result.out + result.err
    assert ("messages/skill-index.md", 1, 1, "L004") in located(parse_findings(result.out))
    assert_build_refused(project, cli)


# =========================================================================== configuration


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
        (lambda t: t.replace("[build-system]", "[build-system]\x00", 1).encode(), "1:15"),
        (lambda t: t.replace("Content build", "Contént build", 1).encode("latin-1"), "1:1"),
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


# =========================================================================== backticked paths


@pytest.mark.parametrize(
    "path",
    [
        "../outside.md",
        "/etc/passwd",
        "~/outside.md",
        "messages/../../outside.md",
        "./../outside.md",
    ],
)
def test_backticked_path_out_of_the_repository_is_b012_and_never_opened(
    project: Path, cli: Cli, opened: list[str], path: str
) -> None:
    target = write(project.parent / "outside.md", VALID)
    text = replace(VALID, HOOKS_PATH, f"`{path}`")
    opened.clear()
    assert check_outside(project, cli, text) == [(10, 25, "B012")]
    assert os.path.realpath(target) not in opened
    assert "/etc/passwd" not in opened


def test_backticked_path_through_a_link_out_of_the_repository_is_b012(
    project: Path, cli: Cli, opened: list[str]
) -> None:
    target = write(project.parent / "outside" / "notes.md", VALID)
    (project / "docs").symlink_to(target.parent, target_is_directory=True)
    (project / "notes.md").symlink_to(target)
    opened.clear()
    for path in ("docs/notes.md", "notes.md"):
        text = replace(VALID, HOOKS_PATH, f"`{path}`")
        assert check_outside(project, cli, text) == [(10, 25, "B012")], path
    assert os.path.realpath(target) not in opened


def test_backticked_path_that_wanders_but_stays_inside_is_fine(project: Path, cli: Cli) -> None:
    text = replace(VALID, HOOKS_PATH, "`messages/../catalog/./hooks.toml`")
    assert check_outside(project, cli, text) == []


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
    sources = [*(project / "catalog").iterdir(), *(project / "messages").iterdir()]
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


# =========================================================================== generated folder


def test_generated_file_without_permission_is_a_finding_not_a_traceback(
    project: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = tree(project)
    real_io_open = io.open

    def io_open(file: object, *args: object, **kwargs: object) -> object:
        if isinstance(file, str | os.PathLike) and os.fspath(file).endswith(
            "generated/advisories.json"
        ):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real_io_open(file, *args, **kwargs)  # type: ignore[call-overload]

    with monkeypatch.context() as patch:
        deny(patch, os, "open", "generated/advisories.json")
        patch.setattr(io, "open", io_open)
        patch.setattr(builtins, "open", io_open)
        result = cli("check")  # must return, not raise
    assert result.code == 1, result.out + result.err
    assert "generated/advisories.json" in result.out + result.err
    assert "Traceback" not in result.err
    assert tree(project) == before


@pytest.mark.slow
def test_fifo_in_the_generated_folder_does_not_hang_the_check(project: Path) -> None:
    # A FIFO opened for reading blocks until someone writes: the check must not open
    # it blindly. Run in a subprocess; the timeout only turns a hang into a failure.
    path = project / "generated" / "advisories.json"
    path.unlink()
    os.mkfifo(path)
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    try:
        result = subprocess.run(
            [sys.executable, "-c", "from hookmsg.cli.main import main; main()", "check"],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=15,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("`hookmsg check` hangs on a FIFO in the generated folder")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "generated/advisories.json" in result.stdout
    assert "Traceback" not in result.stderr


# =========================================================================== every case, whole


def test_every_hostile_message_at_once(project: Path, cli: Cli) -> None:
    # All the message-level hostile files above in one folder, validated in one run:
    # one exit code, one diagnostic per line, nothing raised.
    folder = outside(project) / "all"
    samples: dict[str, bytes] = {
        "utf16": VALID.encode("utf-16"),
        "nul": b"\x00" * 64,
        "cr": VALID.replace("\n", "\r").encode(),
        "stars": replace(VALID, BODY, "*" * 50_000).encode(),
        "brackets": replace(VALID, BODY, "[" * 50_000).encode(),
        "deep": replace(VALID, BODY, "> " * 5_000).encode(),
        "jinja": with_advisory("{% for x in range(10**9) %}{{ x }}{% endfor %}").encode(),
        "bidi": replace(VALID, BODY, "\u202e" * 100).encode(),
    }
    for name, data in samples.items():
        write(folder / f"{name}.md", data)
    os.mkfifo(folder / "fifo.md")
    (folder / "dangling.md").symlink_to("nowhere.md")
    result = cli("validate", str(folder))
    assert result.code == 1
    found = parse_findings(result.out)
    assert {Path(f.path).stem for f in found} == {*samples, "fifo", "dangling"}


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
        catalog(project, "hooks.toml"),
        f'[guards.{DEPENDENCY_GUARD}.placeholders]\npath = "pyproject.toml"\n'
        'change = "requests 2.31.0 → 2.32.0"',
        f'[guards.{DEPENDENCY_GUARD}.placeholders]\n{name} = "SAMPLE"',
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
    from hookmsg.project.config import load_project
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
