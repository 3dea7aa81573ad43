"""A CLI run's result, and the suite's one parser of `path:line:col: CODE message` lines.

Every test that reads findings from text output goes through `parse_findings` (the
output must be nothing but diagnostic lines, each ending in a newline) or, for check
mode's output with its diffs, `findings_among`; either way each finding has a 1-based
position and a code from `hookmsg.codes.CODES`. The parser is the suite's own,
not the library's `parse_diagnostic_lines`, so that the output is checked against an
independent reading of the format.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hookmsg.codes import CODES


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


Position = tuple[int, int, str]
Located = tuple[str, int, int, str]
FINDING_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>[1-9]\d*):(?P<col>[1-9]\d*): (?P<code>[A-Z]\d{3}) (?P<message>.*)$"
)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    col: int
    code: str
    message: str

    @property
    def position(self) -> Position:
        return self.line, self.col, self.code

    @property
    def located(self) -> Located:
        return self.path, self.line, self.col, self.code


def _finding(line: str) -> Finding | None:
    match = FINDING_LINE.match(line)
    if match is None:
        return None
    assert match["code"] in CODES, line
    return Finding(
        match["path"], int(match["line"]), int(match["col"]), match["code"], match["message"]
    )


def parse_findings(out: str) -> list[Finding]:
    """The `path:line:col: CODE message` lines of a text-format run; nothing else allowed."""
    assert not out or out.endswith("\n"), f"output does not end with a newline: {out[-80:]!r}"
    found = []
    for line in out.split("\n")[:-1]:
        finding = _finding(line)
        assert finding is not None, f"not a diagnostic line: {line!r}"
        found.append(finding)
    return found


def findings_among(out: str) -> list[Finding]:
    """The diagnostic lines of text output that carries more: check mode follows each
    drifted output's finding with its diff and the advice that fixes it."""
    return [finding for line in out.splitlines() if (finding := _finding(line))]


def run_findings(cli: Callable[..., Result], *argv: str) -> list[Finding]:
    """Run the CLI; its findings, after checking the exit code agrees and nothing crashed."""
    result = cli(*argv)
    assert "Traceback" not in result.err, result.err
    found = parse_findings(result.out)
    assert result.code == (1 if found else 0), result.out + result.err
    return found


def positions(found: list[Finding]) -> list[Position]:
    return [f.position for f in found]


def located(found: list[Finding]) -> list[Located]:
    return [f.located for f in found]
