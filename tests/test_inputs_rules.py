"""The file rules (`inputs/rules.py`, F001-F005) on broken bytes: wrong encodings, byte
order marks, mixed line endings and NUL bytes, each found at its exact position.

Each case runs the CLI in-process on a throw-away copy of the mini fixture project (the
`project` fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.diagnostics import (
    Position,
    parse_findings,
)
from tests.support.message import LICENCE, TITLE, VALID
from tests.support.repository import outside
from tests.support.sources import (
    Cli,
    check_outside,
)
from tests.support.text import replace

# =========================================================================== encodings


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


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
