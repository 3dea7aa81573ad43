"""Fuzzing the whole `hookmsg validate PATH` entry point with hypothesis.

Two kinds of input, each written to a file and validated in-process through
`hookmsg.cli.main.run` in a copy of this repository:

- arbitrary bytes (and arbitrary text in UTF-8, UTF-16 and Latin-1), as a file inside
  the messages folder (registry rules apply) or outside the repository;
- structured mutations of the real messages in `messages/`: delete, duplicate or swap
  lines, insert a character (controls and bidirectional ones included), replace the
  licence line, remove the `## Bindings` heading, change an arrow glyph.

Whatever the input, the run exits 0 or 1, raises nothing, prints no traceback, and
prints only `path:line:col: CODE message` lines whose code is in `hookmsg.codes.CODES`
(exit 1 exactly when it prints one). Mutations that certainly break a rule (no licence
line, no `## Bindings`, U+202E or `${X}` in the body, `Drives ->` for `Drives →`) exit 1
with the rule's code.

The bounded run (derandomized, no example database, about 100 examples per property,
no shrinking so that a failure costs no more than the run) is part of the normal test
suite. For a longer run, which also shrinks a failing example to a minimal one, set
the number of examples:

    HOOKMSG_FUZZ_EXAMPLES=5000 pytest tests/test_cli_validate_fuzz.py -q
"""

from __future__ import annotations

import contextlib
import io
import os
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from hookmsg.cli.main import run
from tests.support.diagnostics import Result, parse_findings
from tests.support.message import LICENCE
from tests.support.repository import REPO, copy_repository

pytestmark = pytest.mark.slow

LONG_RUN = os.environ.get("HOOKMSG_FUZZ_EXAMPLES", "")
EXAMPLES = int(LONG_RUN or "100")

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    # Shrinking a failure can take minutes; the bounded run reports it as found.
    phases=list(Phase) if LONG_RUN else [p for p in Phase if p != Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

MESSAGES = sorted(path.stem for path in (REPO / "messages").glob("*.md"))
GLYPHS = "→←↑↔"
HOSTILE_CHARS = (
    "\x00", "\x07", "\x0b", "\x0c", "\r", "\x1b", "\x1c", "\x7f", "\x85", "\xa0", "\xad",
    "\u200b", "\u200d", "\u200e", "\u2028", "\u2029", "\u202a", "\u202e", "\u2066",
    "\u2069", "\ufeff", "\ufffd", "\U000e0041", "`", "*", "[", "#", ">", "-", "{", "}", "$",
    "|", "<", "\\", "\n",
)  # fmt: skip
CHARS = st.one_of(st.sampled_from(HOSTILE_CHARS), st.characters())


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One copy of the repository for every example of this module."""
    return copy_repository(tmp_path_factory.mktemp("fuzz") / "repo")


def validate(root: Path, path: str) -> Result:
    """`hookmsg validate --format text PATH` in-process, from the root of the copy."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(root), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(["validate", "--format", "text", path])
    return Result(code, out.getvalue(), err.getvalue())


def codes(result: Result) -> list[str]:
    """Check the invariants of every run; return the codes it reported."""
    assert result.code in (0, 1), result
    assert "Traceback" not in result.err, result.err
    lines = result.out.split("\n")
    assert lines[-1] == "", f"output does not end with a newline: {result.out[-80:]!r}"
    found = [finding.code for finding in parse_findings(result.out)]
    assert (result.code == 1) == bool(found), result
    return found


@contextlib.contextmanager
def replaced(path: Path, data: bytes) -> Iterator[None]:
    """`path` holds `data` while inside; its original bytes afterwards."""
    original = path.read_bytes() if path.exists() else None
    path.write_bytes(data)
    try:
        yield
    finally:
        if original is None:
            path.unlink()
        else:
            path.write_bytes(original)


# =========================================================================== arbitrary bytes

ENCODED_TEXT = st.builds(
    lambda text, encoding: text.encode(encoding, "replace"),
    st.text(alphabet=CHARS, max_size=2000),
    st.sampled_from(["utf-8", "utf-16", "utf-16-le", "latin-1"]),
)
ANY_BYTES = st.one_of(st.binary(max_size=4096), ENCODED_TEXT)


@FUZZ
@given(data=ANY_BYTES, inside=st.booleans())
def test_arbitrary_bytes(root: Path, data: bytes, inside: bool) -> None:
    path = root / "messages" / "fuzz.md" if inside else root.parent / "fuzz.md"
    with replaced(path, data):
        codes(validate(root, str(path.relative_to(root)) if inside else str(path)))


# =========================================================================== mutations


@dataclass(frozen=True)
class Mutation:
    kind: str
    first: int
    second: int
    char: str
    text: str

    def apply(self, source: str) -> str:
        lines = source.split("\n")
        count = len(lines)
        if self.kind == "delete":
            del lines[self.first % count]
        elif self.kind == "duplicate":
            lines.insert(self.first % count, lines[self.first % count])
        elif self.kind == "swap":
            i, j = self.first % count, self.second % count
            lines[i], lines[j] = lines[j], lines[i]
        elif self.kind == "insert":
            offset = self.first % (len(source) + 1)
            return source[:offset] + self.char + source[offset:]
        elif self.kind == "licence":
            lines[0] = self.text
        elif self.kind == "no-bindings":
            lines = [line for line in lines if not line.startswith("## Bindings")]
        elif self.kind == "glyph":
            spots = [i for i, c in enumerate(source) if c in GLYPHS]
            if not spots:
                return source
            spot = spots[self.first % len(spots)]
            swaps: list[str] = [*GLYPHS, "->", "<-", "<->", "=>", "<=", "^", ""]
            return source[:spot] + swaps[self.second % len(swaps)] + source[spot + 1 :]
        return "\n".join(lines)


LICENCE_LINES = st.one_of(
    st.sampled_from(
        [
            "",
            "<!-- SPDX-License-Identifier: Apache-2.0 -->",
            "<!-- SPDX-Licence-Identifier: MIT -->",
            f"{LICENCE}  ",
            f"\ufeff{LICENCE}",
            f"  {LICENCE}",
            "# A title instead",
            "<!--",
        ]
    ),
    st.builds(lambda c: f"<!-- SPDX-License-Identifier: MIT{c} -->", CHARS),
    st.builds(lambda c: f"<!-- SPDX-License-Identifier: {c}MIT -->", CHARS),
    st.text(alphabet=CHARS, max_size=60),
)
MUTATION = st.builds(
    Mutation,
    kind=st.sampled_from(
        ["delete", "duplicate", "swap", "insert", "licence", "no-bindings", "glyph"]
    ),
    first=st.integers(min_value=0, max_value=10**6),
    second=st.integers(min_value=0, max_value=10**6),
    char=CHARS,
    text=LICENCE_LINES,
)


def mutated(name: str, mutations: list[Mutation]) -> str:
    text = (REPO / "messages" / f"{name}.md").read_text(encoding="utf-8")
    for mutation in mutations:
        text = mutation.apply(text)
    return text


@FUZZ
@given(name=st.sampled_from(MESSAGES), mutations=st.lists(MUTATION, min_size=1, max_size=4))
def test_mutated_real_message(root: Path, name: str, mutations: list[Mutation]) -> None:
    path = root / "messages" / f"{name}.md"
    data = mutated(name, mutations).encode("utf-8", "surrogatepass")
    with replaced(path, data):
        codes(validate(root, f"messages/{name}.md"))


HIDDEN = {"Cc", "Cf", "Zl", "Zp"}


@FUZZ
@given(name=st.sampled_from(MESSAGES), mutations=st.lists(MUTATION, min_size=1, max_size=4))
@example(name="stop", mutations=[Mutation("licence", 0, 0, "", f"{LICENCE[:-4]}\x1b[2J -->")])
@example(name="stop", mutations=[Mutation("licence", 0, 0, "", "<!-- SPDX\u2028 -->")])
def test_every_diagnostic_is_one_printable_line(
    root: Path, name: str, mutations: list[Mutation]
) -> None:
    # Diagnostics quote what they found; what they quote must not carry a line break
    # that other tools honour (U+2028, NEL, FF...), a terminal escape or a bidi control.
    path = root / "messages" / f"{name}.md"
    data = mutated(name, mutations).encode("utf-8", "surrogatepass")
    with replaced(path, data):
        result = validate(root, f"messages/{name}.md")
    codes(result)
    assert len(result.out.splitlines()) == result.out.count("\n"), repr(result.out)
    for line in result.out.splitlines():
        hidden = [c for c in line if c != "\t" and unicodedata.category(c) in HIDDEN]
        assert hidden == [], repr(line)


# =========================================================================== certain breakage


def _bindings_line(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith("## Bindings"))


def _insert_in_body(lines: list[str], where: int, offset: int, text: str) -> list[str]:
    """Insert `text` into a delivered line: after the licence line, before `## Bindings`."""
    index = 1 + where % (_bindings_line(lines) - 1)
    line = lines[index]
    cut = offset % (len(line) + 1)
    return [*lines[:index], line[:cut] + text + line[cut:], *lines[index + 1 :]]


def _break(kind: str, lines: list[str], where: int, offset: int) -> list[str]:
    if kind == "no-licence":
        return lines[1:]
    if kind == "no-bindings":
        index = _bindings_line(lines)
        return [*lines[:index], *lines[index + 1 :]]
    if kind == "bidi-in-body":
        return _insert_in_body(lines, where, offset, "\u202e")
    if kind == "token-in-body":
        return _insert_in_body(lines, where, offset, "${X}")
    assert kind == "ascii-arrow"
    text = "\n".join(lines)
    assert text.count("**Drives →**") == 1
    return text.replace("**Drives →**", "**Drives ->**").split("\n")


BREAKAGE = {
    "no-licence": {"L001"},
    "no-bindings": {"B001"},
    "bidi-in-body": {"D003"},
    "token-in-body": {"D002"},
    "ascii-arrow": {"B008", "B006", "B004"},
}


@FUZZ
@given(
    name=st.sampled_from(MESSAGES),
    kind=st.sampled_from(sorted(BREAKAGE)),
    where=st.integers(min_value=0, max_value=10**6),
    offset=st.integers(min_value=0, max_value=10**6),
)
def test_certain_breakage_is_reported(
    root: Path, name: str, kind: str, where: int, offset: int
) -> None:
    lines = (REPO / "messages" / f"{name}.md").read_text(encoding="utf-8").split("\n")
    broken = "\n".join(_break(kind, lines, where, offset))
    path = root / "messages" / f"{name}.md"
    with replaced(path, broken.encode("utf-8")):
        result = validate(root, f"messages/{name}.md")
    found = codes(result)
    assert result.code == 1
    assert BREAKAGE[kind] <= set(found), (kind, found)


def test_the_real_messages_are_clean(root: Path) -> None:
    # The mutations start from valid messages: every finding comes from a mutation.
    for name in MESSAGES:
        assert codes(validate(root, f"messages/{name}.md")) == [], name
