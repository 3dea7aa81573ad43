"""Shared fixtures: a throw-away copy of this repository, and the CLI run in-process."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from hookmsg.cli import run
from hookmsg.codes import CODES

REPO = Path(__file__).resolve().parent.parent
COPIED = ("pyproject.toml", "messages", "catalog", "generated")


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


# Variables that change what hookmsg prints (format, colour) or how text is decoded.
# Each test starts without them, so the suite passes the same on a laptop, in a dumb
# terminal, under a non-UTF-8 locale and on GitHub's runners (`.ci/run` runs part of it
# again with them set); tests that are about them set them on purpose.
OUTPUT_CHANGING = ("GITHUB_ACTIONS", "NO_COLOR", "FORCE_COLOR", "TERM", "HOOKMSG_STRICT")


@pytest.fixture(autouse=True)
def _neutral_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in OUTPUT_CHANGING:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PYTHONUTF8", "1")  # child Pythons read and write UTF-8 under any locale


@pytest.fixture(autouse=True)
def _private_check_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Each test gets its own fast-check cache (subprocesses inherit it through the env)."""
    folder = tmp_path_factory.mktemp("check-cache")
    monkeypatch.setenv("HOOKMSG_CACHE_DIR", str(folder))
    monkeypatch.delenv("HOOKMSG_NO_CACHE", raising=False)
    return folder


def copy_repository(root: Path, names: tuple[str, ...] = COPIED) -> Path:
    """Copy `names` (default: sources, catalogue, outputs, configuration) of this repository."""
    root.mkdir()
    for name in names:
        source = REPO / name
        if source.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
            shutil.copytree(source, root / name, ignore=ignore)
        else:
            shutil.copy2(source, root / name)
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of this repository's sources and outputs; the working directory is inside it."""
    root = copy_repository(tmp_path / "repo")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run `hookmsg ARGS` in-process through `run(argv)`; return code, stdout, stderr."""

    def invoke(*argv: str) -> Result:
        capsys.readouterr()
        code = run(list(argv))
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return invoke


# A minimal valid message, to break one thing at a time.
LICENCE = "<!-- SPDX-License-Identifier: MIT -->"
TITLE = "Title sentence for the test message."
BODY = "Body text that the assistant receives."
BINDINGS = "## Bindings\n"
DRIVES = "- **Drives →** the assistant to do the thing under test.\n"
ESTABLISHED = "- **Established by ↑** `catalog/hooks.toml`, nothing else.\n"
CROSS = "- **Cross-bound with ↔** no other message in particular.\n"
# Line  1: licence          Line  7: ## Bindings
# Line  2: (blank)          Line  8: (blank)
# Line  3: title            Line  9: Drives →
# Line  4: (blank)          Line 10: Established by ↑  (path at column 25)
# Line  5: body             Line 11: Cross-bound with ↔ (text at column 27)
# Line  6: (blank)
VALID = f"{LICENCE}\n\n{TITLE}\n\n{BODY}\n\n{BINDINGS}\n{DRIVES}{ESTABLISHED}{CROSS}"


# Findings as the CLI prints them, parsed strictly.
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
        assert match["code"] in CODES, line
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


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def outside(project: Path) -> Path:
    """A folder outside the repository copy, for messages that no registry knows."""
    folder = project.parent / "elsewhere"
    folder.mkdir(exist_ok=True)
    return folder


# Small helpers that several test modules share.


def replace(text: str, old: str, new: str) -> str:
    """`text` with the first `old` replaced; `old` must be there."""
    assert old in text, f"{old!r} not found"
    return text.replace(old, new, 1)


def edit(path: Path, old: str, new: str) -> str:
    """Replace the first `old` in the file; return the new text."""
    text = replace(path.read_text(encoding="utf-8"), old, new)
    path.write_text(text, encoding="utf-8")
    return text


def append(path: Path, extra: str) -> str:
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + extra
    path.write_text(text, encoding="utf-8")
    return text


def line_of(text: str, needle: str, occurrence: int = 1) -> int:
    """1-based number of the `occurrence`-th line that contains `needle`."""
    hits = [n for n, line in enumerate(text.split("\n"), start=1) if needle in line]
    assert len(hits) >= occurrence, f"{needle!r} found {len(hits)} time(s)"
    return hits[occurrence - 1]


def files_under(folder: Path) -> dict[str, bytes]:
    """Every regular file below `folder`, by POSIX path relative to it, with its bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def leftovers(root: Path) -> list[str]:
    """Temporary files and backups of a write, anywhere in the tree."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob(".*")
        if p.name.endswith((".tmp", ".bak"))
    )
