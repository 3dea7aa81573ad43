"""A CLI run's result, and findings as the CLI prints them, parsed strictly."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hookmsg.codes import RULES


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


Position = tuple[int, int, str]
Located = tuple[str, int, int, str]
FINDING_LINE = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>[A-Z]\d{3}) (?P<message>.*)$"
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


def parse_findings(out: str) -> list[Finding]:
    """The `path:line:col: CODE message` lines of a text-format run; nothing else allowed."""
    found = []
    for line in out.split("\n")[:-1] if out else []:
        match = FINDING_LINE.match(line)
        assert match is not None, f"not a diagnostic line: {line!r}"
        assert match["code"] in RULES, line
        found.append(
            Finding(
                match["path"],
                int(match["line"]),
                int(match["col"]),
                match["code"],
                match["message"],
            )
        )
    return found


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
