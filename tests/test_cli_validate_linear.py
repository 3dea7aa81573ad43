"""Hostile input below `max-file-bytes` validates in time linear in its size.

No test here holds a run to a budget of seconds, which a busy machine would break. Each
input is validated in this process at two sizes, and the CPU time this process spends on
it (`time.process_time`: a neighbour's load does not add to it) must grow far less than
a super-linear cost would make it grow: at 4 times the size, less than 8 times the time
(a quadratic cost takes 16 times). The findings must be the same at both sizes, so the
input is validated, not refused. Each input is also run once at the size the issue names,
in a subprocess under a generous timeout that only turns a hang into a failure.
"""

from __future__ import annotations

import gc
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hookmsg import tomlpos
from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import LICENCE_LIKE
from hookmsg.messages.spans import blank_code, blank_comments, code_spans, scan_code_spans
from hookmsg.pipeline.workspace import load_workspace, validate_paths, validate_workspace
from hookmsg.project.settings import load_project
from tests.support.message import DRIVES, LICENCE, VALID
from tests.support.repository import outside
from tests.support.text import replace

pytestmark = pytest.mark.slow  # subprocesses and hypothesis

ISSUE_SIZE = 240_000  # bytes of hostile text in the issue's Markdown inputs
HANG_GUARD_SECONDS = 30
HOOKMSG = [
    sys.executable,
    "-c",
    "import sys; from hookmsg.cli.main import run; sys.exit(run(sys.argv[1:]))",
]


def _drives(extra: str) -> str:
    """The valid message with `extra` at the start of its Drives binding."""
    return replace(VALID, DRIVES, DRIVES.replace("** ", "** " + extra + " ", 1))


def _comments(size: int) -> str:
    # Unclosed `<!--` and one ASCII arrow, so that the arrow rule blanks the comments out.
    return _drives("<!--" * (size // 4) + " ->")


def _licence_keywords(size: int) -> str:
    # A licence-like first line that never closes: every keyword is a place to retry.
    return replace(VALID, LICENCE, "<!-- " + "licence " * (size // 8))


def _code_span_runs(size: int) -> str:
    # Backtick runs of lengths 1, 2, 3, ...: none is ever closed, so each opener once
    # looked for its closer to the end of the line.
    runs, length, total = [], 1, 0
    while total < size:
        runs.append("`" * length + "a")
        total += length + 1
        length += 1
    return _drives("".join(runs) + " ->")


@dataclass(frozen=True)
class Markdown:
    text: Callable[[int], str]
    small: int  # bytes; measured against `factor` times as many
    factor: int
    limit: float  # the largest time ratio allowed between the two sizes
    codes: list[str]


MARKDOWN = {
    "Bindings line of unclosed <!--": Markdown(_comments, 15_000, 4, 8, ["B008"]),
    "licence-like first line of keywords": Markdown(
        _licence_keywords, 30_000, 4, 8, ["B001", "D001", "L001", "T001"]
    ),
    # Openers that no run closes are at most about sqrt(2 * size), so the old cost grew as
    # size ** 1.5: 64 times at 16 times the size, against 16 times for a linear one.
    "Bindings line of unclosed backtick runs": Markdown(_code_span_runs, 10_000, 16, 32, ["B008"]),
}


def _cpu(work: Callable[[], list[Diagnostic]], repeat: int = 3) -> tuple[float, list[str]]:
    """The least CPU time of `repeat` runs of `work` (noise only ever adds), and its codes."""
    best = float("inf")
    codes: list[str] = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()  # a collection would charge one run for garbage of the others
        try:
            start = time.process_time()
            found = work()
            best = min(best, time.process_time() - start)
        finally:
            gc.enable()
        codes = sorted({d.code for d in found})
    return best, codes


def _assert_linear(
    measure: Callable[[int], tuple[float, list[str]]], small: int, factor: int, limit: float
) -> list[str]:
    small_time, small_codes = measure(small)
    ratio = float("inf")
    for _ in range(3):  # the larger size again only while noise may explain a high ratio
        large_time, large_codes = measure(small * factor)
        assert large_codes == small_codes
        ratio = min(ratio, large_time / max(small_time, 1e-4))
        if ratio < limit:
            break
    assert ratio < limit, (
        f"{factor}x the input took {ratio:.1f}x the CPU time "
        f"({small_time:.4f} s, then {large_time:.4f} s): not linear"
    )
    return small_codes


@pytest.mark.parametrize("case", MARKDOWN.values(), ids=MARKDOWN.keys())
def test_a_hostile_message_takes_linear_time(project: Path, case: Markdown) -> None:
    workspace = load_workspace(load_project())
    path = outside(project) / "hostile.md"

    def measure(size: int) -> tuple[float, list[str]]:
        path.write_text(case.text(size), encoding="utf-8")
        return _cpu(lambda: validate_paths(workspace, [path]))

    assert _assert_linear(measure, case.small, case.factor, case.limit) == case.codes


def _unknown_events(count: int) -> str:
    return "".join(
        f'\n[[dispatch]]\nevent = "Unknown{i}"\nmessages = ["stop"]\n' for i in range(count)
    )


def _header_of_spaces(size: int) -> str:
    # A multi-line string whose line reads like the start of a table header, then spaces;
    # an entry with an unknown field makes the catalogue look up positions line by line.
    return f'\n[[dispatch]]\nevent = "Stop"\nmessages = ["stop"]\nnote = """\n[a{" " * size}\n"""\n'


CATALOGUE: dict[str, tuple[Callable[[int], str], int, list[str]]] = {
    "dispatch entries with unknown events": (_unknown_events, 500, ["R004"]),
    "TOML string line of a header and spaces": (_header_of_spaces, 7_500, ["C002"]),
}


@pytest.mark.parametrize("case", CATALOGUE.values(), ids=CATALOGUE.keys())
def test_a_hostile_catalogue_takes_linear_time(
    project: Path, case: tuple[Callable[[int], str], int, list[str]]
) -> None:
    extra, small, codes = case
    hooks = project / "catalog" / "hooks.toml"
    original = hooks.read_text(encoding="utf-8")

    def measure(size: int) -> tuple[float, list[str]]:
        hooks.write_text(original + extra(size), encoding="utf-8")
        return _cpu(lambda: validate_workspace(load_workspace(load_project())))

    assert _assert_linear(measure, small, 4, 8) == codes


def _run_within_guard(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOOKMSG_NO_CACHE": "1"}
    try:
        return subprocess.run(
            [*HOOKMSG, *argv],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=HANG_GUARD_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`hookmsg {' '.join(argv)}` ran over {HANG_GUARD_SECONDS} s")


@pytest.mark.parametrize("case", MARKDOWN.values(), ids=MARKDOWN.keys())
def test_a_hostile_message_of_the_issues_size_never_hangs(project: Path, case: Markdown) -> None:
    path = outside(project) / "hostile.md"
    path.write_text(case.text(ISSUE_SIZE), encoding="utf-8")
    assert path.stat().st_size < load_project().settings.max_file_bytes
    done = _run_within_guard(project, "validate", str(path))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert sorted({line.split(" ")[1] for line in done.stdout.splitlines()}) == case.codes


@pytest.mark.parametrize(
    ("extra", "codes"),
    [(_unknown_events(4_000), ["R004"]), (_header_of_spaces(ISSUE_SIZE), ["C002"])],
    ids=CATALOGUE.keys(),
)
def test_a_hostile_catalogue_of_the_issues_size_never_hangs(
    project: Path, extra: str, codes: list[str]
) -> None:
    hooks = project / "catalog" / "hooks.toml"
    hooks.write_text(hooks.read_text(encoding="utf-8") + extra, encoding="utf-8")
    done = _run_within_guard(project, "validate")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert sorted({line.split(" ")[1] for line in done.stdout.splitlines()}) == codes


# -- the linear scans read lines exactly as the patterns they replace -----------------------

_OLD_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(?P<code>.+?)(?<!`)\1(?!`)")
_OLD_COMMENT = re.compile(r"<!--.*?-->")
_OLD_LICENCE = re.compile(r"^\s*<!--.*(spdx|licen[cs]e).*-->\s*$", re.IGNORECASE)
_OLD_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_PIECES = ["`", "``", "a", " ", "<!--", "-->", "-", ">", "\t", "\u00a0", "\u2028", "\r"]
_LICENCE_PIECES = ["<!--", "-->", " ", "\t", "spdx", "SPDX", "licence", "LICENSE", "licen", "x"]
_HEADER_PIECES = ["[", "]", ".", " ", "a", "#", '"', "'", "\t", "\x1c", "\u3000", "="]


def _line(pieces: list[str]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=24).map("".join)


@settings(max_examples=500, deadline=None)
@given(_line(_PIECES))
def test_code_spans_and_comments_as_the_patterns_read_them(line: str) -> None:
    spans = [
        (m.start(), m.end(), m.start("code"), m.end("code")) for m in _OLD_CODE_SPAN.finditer(line)
    ]
    assert code_spans(line) == spans
    assert scan_code_spans(line) == spans  # what code_spans uses past a few backticks
    assert blank_code(line) == _OLD_CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
    assert blank_comments(line) == _OLD_COMMENT.sub(lambda m: " " * len(m.group(0)), line)


@settings(max_examples=500, deadline=None)
@given(_line(_LICENCE_PIECES), _line(_HEADER_PIECES))
def test_licence_lines_and_toml_headers_as_the_patterns_read_them(
    licence: str, header: str
) -> None:
    assert bool(LICENCE_LIKE.match(licence)) == bool(_OLD_LICENCE.match(licence))
    match = _OLD_HEADER.match(header)
    expected = None
    if match:
        name = ".".join(p.strip().strip("\"'") for p in match.group(2).split("."))
        expected = (match.group(1) == "[[", name)
    assert tomlpos._header(header) == expected
