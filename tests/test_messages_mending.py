"""`hookmsg fix`: each mechanical break mended so that `validate` is clean of it again.

Every case breaks one thing in a message of the mini fixture project (a built copy of
it), runs `hookmsg fix`, and checks
the file is back to the original bytes and `validate` reports nothing. Then: what fix
cannot mend is reported with exit 1; `--diff` writes nothing; the generated folder is
never touched; and a property test holds fix to idempotence on broken messages.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookmsg.messages.mending import mend_bytes, mend_message
from hookmsg.messages.message import parse_text
from hookmsg.messages.referenced import look_up
from hookmsg.messages.rules import bindings, licence
from hookmsg.messages.rules.context import MessageContext
from hookmsg.messages.rules.fixable import left_for_fix
from tests.support.diagnostics import Result
from tests.support.message import LICENCE, VALID

Cli = Callable[..., Result]
STOP = "messages/stop.md"


@pytest.fixture
def project(mini_project: Path) -> Path:
    """A built copy of the mini fixture project, not of this repository's catalogue."""
    return mini_project


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _bom(text: str) -> bytes:
    return ("\ufeff" + text).encode()


def _crlf(text: str) -> bytes:
    return text.replace("\n", "\r\n").encode()


def _bare_cr(text: str) -> bytes:
    return text.replace("\n", "\r").encode()


def _no_final_newline(text: str) -> bytes:
    return text.rstrip("\n").encode()


def _licence_missing(text: str) -> bytes:
    return text.split("\n", 2)[-1].encode()


def _licence_moved(text: str) -> bytes:
    lines = _lines(text)
    if len(lines) < 3:
        return text.encode()
    # Licence under the title: line 1 is the title, then the licence line.
    return "\n".join([lines[2], "", lines[0], *lines[3:]]).encode()


def _licence_trailing_spaces(text: str) -> bytes:
    return text.replace(LICENCE, LICENCE + "  ", 1).encode()


def _licence_repeated(text: str) -> bytes:
    return text.replace("\n## Bindings", f"\n{LICENCE}\n\n## Bindings", 1).encode()


def _no_blank_after_licence(text: str) -> bytes:
    return text.replace(LICENCE + "\n\n", LICENCE + "\n", 1).encode()


def _bindings_out_of_order(text: str) -> bytes:
    if "## Bindings\n\n" not in text:
        return text.encode()  # another break came first (CRLF, say): nothing to reorder
    head, tail = text.split("## Bindings\n\n", 1)
    bullets = [line for line in tail.split("\n") if line]
    return (head + "## Bindings\n\n" + "\n".join(reversed(bullets)) + "\n").encode()


def _ascii_arrows(text: str) -> bytes:
    return (
        text.replace("**Drives →**", "**Drives ->**", 1)
        .replace("**Established by ↑**", "**Established by =>**", 1)
        .replace("**Cross-bound with ↔**", "**Cross-bound with <->**", 1)
    ).encode()


BREAKS = {
    "bom": (_bom, "L006"),
    "crlf": (_crlf, "F002"),
    "bare-cr": (_bare_cr, "F003"),
    "no-final-newline": (_no_final_newline, None),
    "licence-missing": (_licence_missing, "L001"),
    "licence-moved": (_licence_moved, "L002"),
    "licence-trailing-spaces": (_licence_trailing_spaces, "L007"),
    "licence-repeated": (_licence_repeated, "L005"),
    "no-blank-after-licence": (_no_blank_after_licence, "L008"),
    "bindings-out-of-order": (_bindings_out_of_order, "B005"),
    "ascii-arrows": (_ascii_arrows, "B008"),
}


@pytest.mark.parametrize("name", sorted(BREAKS))
def test_fix_mends_each_mechanical_break(project: Path, cli: Cli, name: str) -> None:
    path = project / STOP
    original = path.read_bytes()
    brake, code = BREAKS[name]
    path.write_bytes(brake(original.decode()))
    broken = cli("validate", STOP)
    if code is not None:
        assert code in broken.out, broken.out
    fixed = cli("fix")
    assert fixed.code == 0, fixed.out + fixed.err
    assert f"fixed {STOP}" in fixed.err
    assert path.read_bytes() == original
    assert cli("validate").code == 0
    again = cli("fix")
    assert again.code == 0 and "fixed 0 file(s)" in again.err


def test_fix_turns_an_ascii_arrow_in_prose_into_its_glyph(project: Path, cli: Cli) -> None:
    path = project / STOP
    text = path.read_text(encoding="utf-8")
    assert "(the baseline this verifies against)" in text
    arrow = "(the baseline -> this verifies against)"
    path.write_text(text.replace("(the baseline this verifies against)", arrow), "utf-8")
    assert cli("fix").code == 0
    assert "(the baseline → this verifies against)" in path.read_text(encoding="utf-8")
    assert cli("validate").code == 0


def test_fix_adds_the_missing_reciprocal_cross_binding(project: Path, cli: Cli) -> None:
    stop = project / STOP
    partner = project / "messages/postcompact.md"
    before = partner.read_text(encoding="utf-8")
    assert "messages/stop.md" not in before
    text = stop.read_text(encoding="utf-8")
    stop.write_text(
        text.replace(
            "- **Cross-bound with ↔** ",
            "- **Cross-bound with ↔** `messages/postcompact.md` (the recovery after it); ",
        ),
        "utf-8",
    )
    assert "B010" in cli("validate").out
    fixed = cli("fix", STOP)
    assert fixed.code == 0, fixed.err
    assert "fixed messages/postcompact.md" in fixed.err
    after = partner.read_text(encoding="utf-8")
    added = [line for line in after.split("\n") if "`messages/stop.md`" in line]
    assert added == [
        "- **Cross-bound with ↔** `messages/stop.md` (which names this message in its own "
        "cross-binding)."
    ]
    assert after.endswith(added[0] + "\n")
    assert cli("validate").code == 0


def test_fix_reports_what_it_cannot_mend_and_exits_1(project: Path, cli: Cli) -> None:
    path = project / STOP
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("MIT", "Apache-2.0", 1).replace("\n", "\r\n"), "utf-8")
    result = cli("fix")
    assert result.code == 1
    assert f"{STOP}:1:1: L004 " in result.out  # another licence: not fix's to choose
    assert "F002" not in result.out and "\r" not in path.read_text(encoding="utf-8")
    assert "1 finding(s) left to fix by hand" in result.err


def test_fix_reports_bytes_that_are_not_text(project: Path, cli: Cli) -> None:
    path = project / STOP
    path.write_bytes(b"\xff\xfe not UTF-8\n")
    result = cli("fix")
    assert result.code == 1 and "F001" in result.out
    assert path.read_bytes() == b"\xff\xfe not UTF-8\n"


def test_fix_diff_prints_the_change_and_writes_nothing(project: Path, cli: Cli) -> None:
    path = project / STOP
    broken = _licence_trailing_spaces(path.read_text(encoding="utf-8"))
    path.write_bytes(broken)
    result = cli("fix", "--diff")
    assert result.code == 1
    assert path.read_bytes() == broken
    assert f"--- {STOP} (now)" in result.out and f"+{LICENCE}\n" in result.out
    assert f"-{LICENCE}  \n" in result.out
    assert cli("fix").code == 0
    assert cli("fix", "--diff") == Result(
        0, "", "fix: would fix 0 file(s); 0 finding(s) left to fix by hand\n"
    )


def test_fix_never_touches_the_generated_folder(project: Path, cli: Cli) -> None:
    generated = project / "generated"
    output = generated / "skill-index.md"
    output.write_bytes(output.read_bytes().replace(b"\n", b"\r\n"))
    before = {p: p.read_bytes() for p in generated.rglob("*") if p.is_file()}
    for argv in (("fix", "generated"), ("fix", "generated/skill-index.md"), ("fix", ".")):
        result = cli(*argv)
        assert "Traceback" not in result.err
        assert {p: p.read_bytes() for p in generated.rglob("*") if p.is_file()} == before
    assert "skipped generated" in cli("fix", "generated").err


def test_fix_of_a_missing_path_is_a_usage_error(project: Path, cli: Cli) -> None:
    result = cli("fix", "messages/no-such.md")
    assert result.code == 2 and "no such file" in result.err


# --------------------------------------------------------------------------- properties

ROOT = Path("/nonexistent-root")
BYTE_LEVEL = ("no-final-newline", "crlf", "bare-cr", "bom")  # applied last, in this order
_TEXT_BREAKERS = [BREAKS[name][0] for name in sorted(BREAKS) if name not in BYTE_LEVEL]


def _fix(data: bytes) -> bytes:
    text = mend_bytes(data)
    assert text is not None
    return mend_message(text, LICENCE, "m.md", ROOT / "m.md").encode()


def _left(data: bytes) -> list[str]:
    message = parse_text(data.decode(), LICENCE, "m.md", ROOT / "m.md")
    named = look_up(message, ROOT, lambda path: None)
    context = MessageContext(licence_line=LICENCE, delivered_cap=10_000, referenced=named)
    found = licence.check(message, context) + bindings.check(message, context)
    # Paths do not exist under the fake root: B009 and B010 are not the mends' business.
    return [d.code for d in left_for_fix(found) if d.code != "B010"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    # Each break at most once: a break applied twice (the licence line removed twice) eats
    # the title too, and no mend can know where it stood.
    st.lists(st.sampled_from(range(len(_TEXT_BREAKERS))), max_size=5, unique=True),
    st.sets(st.sampled_from(BYTE_LEVEL)),
)
def test_fix_is_idempotent_and_leaves_no_mechanical_finding(
    chosen: list[int], byte_level: set[str]
) -> None:
    text = VALID
    for index in chosen:
        text = _TEXT_BREAKERS[index](text).decode()
    if "crlf" in byte_level:
        byte_level.discard("bare-cr")  # one line-ending break at a time
    for name in BYTE_LEVEL:
        if name in byte_level:
            text = BREAKS[name][0](text).decode()
    once = _fix(text.encode())
    assert _fix(once) == once
    assert _left(once) == []


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from([*"ab #-*→↔↑<>=`\n\r\ufeff", LICENCE, "## Bindings\n", "- **Drives ->** "]),
        max_size=40,
    ).map("".join)
)
def test_fix_is_idempotent_on_any_text(text: str) -> None:
    data = text.encode()
    if mend_bytes(data) is None:
        return
    once = _fix(data)
    assert _fix(once) == once
