"""Printing findings: the output format, colour, quiet mode, the codes shown, the paths as
the user's working directory sees them, and the summary for people.

The command line sets these once per run (`configure`); every command prints through
`emit` and `note`, so each convention holds in every command without each one knowing it.
"""

from __future__ import annotations

import dataclasses
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the formats (and the code table behind them) load when first needed,
    # so the command line can configure this module on its fastest path for free
    from hookmsg.diagnostics import Diagnostic

COLOUR_CHOICES = ("auto", "always", "never")


@dataclass(frozen=True)
class CodeSelection:
    """`--select` and `--ignore`, as ruff reads them: each entry a code or a prefix of codes
    (`B` is every B code, `B00` every B00x, `ALL` every code). The most specific entry that
    matches a code decides; on a tie `--ignore` wins; a code no entry matches is shown
    unless `--select` was given."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def shows(self, code: str) -> bool:
        chosen = _longest(self.select, code)
        dropped = _longest(self.ignore, code)
        if chosen < 0 and dropped < 0:
            return not self.select
        return chosen > dropped

    def kept(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        return [d for d in diagnostics if self.shows(d.code)]


def _longest(prefixes: Sequence[str], code: str) -> int:
    """The length of the longest entry of `prefixes` that matches `code` (-1: none)."""
    return max((0 if p == "ALL" else len(p) for p in prefixes if _matches(p, code)), default=-1)


def _matches(prefix: str, code: str) -> bool:
    return prefix == "ALL" or code.startswith(prefix)


@dataclasses.dataclass
class Output:
    """How this run prints, and what it has printed so far."""

    quiet: bool = False
    colour: str = "auto"
    codes: CodeSelection = dataclasses.field(default_factory=CodeSelection)
    # Diagnostic paths are relative to `root`; shown relative to `cwd` when both are set.
    root: Path | None = None
    cwd: Path | None = None
    shown: int = 0
    hidden: int = 0


_OUTPUT = Output()


def configure(output: Output) -> None:
    """Start a run with these settings (and nothing printed yet)."""
    global _OUTPUT  # noqa: PLW0603 (one run's settings, set by the command line)
    _OUTPUT = output


def current() -> Output:
    return _OUTPUT


def shows(code: str) -> bool:
    """Does `--select`/`--ignore` let this code through? (For detail printed beside findings.)"""
    return _OUTPUT.codes.shows(code)


def only_hidden_findings() -> bool:
    """Did this run find something, and did `--select`/`--ignore` hide all of it?"""
    return _OUTPUT.hidden > 0 and _OUTPUT.shown == 0


def choose_format(requested: str | None) -> str:
    """The requested format; else GitHub annotations inside GitHub Actions; else text."""
    if requested:
        return requested
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def writes_utf8() -> bool:
    """Does standard output encode UTF-8? (Not under a non-UTF-8 locale.)"""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    return encoding == "utf8"


def colour_wanted(mode: str, environ: Mapping[str, str], tty: bool) -> bool:
    """`--color always|never` decide; `auto` follows, in this order, NO_COLOR (off,
    https://no-color.org), FORCE_COLOR (on), TERM=dumb (off), then whether standard output
    is a terminal. An empty variable counts as unset, as both conventions say."""
    if mode != "auto":
        return mode == "always"
    if environ.get("NO_COLOR"):
        return False
    if environ.get("FORCE_COLOR"):
        return True
    if environ.get("TERM") == "dumb":
        return False
    return tty


def use_colour() -> bool:
    return colour_wanted(_OUTPUT.colour, os.environ, sys.stdout.isatty())


def _colour(line: str) -> str:
    location, sep, rest = line.partition(": ")
    code, _, message = rest.partition(" ")
    if not sep:
        return line
    return f"\033[1m{location}\033[0m: \033[1;31m{code}\033[0m {message}"


def shown_path(path: str) -> str:
    """A root-relative path as seen from the working directory (`../catalog/x.toml` from
    `messages/`); a path outside the root, or any path when cwd is the root, as it is."""
    root, cwd = _OUTPUT.root, _OUTPUT.cwd
    if root is None or cwd is None or cwd == root or path == "-" or Path(path).is_absolute():
        return path
    target = root / path
    if not target.is_relative_to(root) or not cwd.is_relative_to(root):
        return path
    return Path(os.path.relpath(target, cwd)).as_posix()


def _as_seen(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    return [dataclasses.replace(d, path=shown_path(d.path)) for d in diagnostics]


def emit(diagnostics: Sequence[Diagnostic], fmt: str) -> None:
    kept = _OUTPUT.codes.kept(diagnostics)
    _OUTPUT.shown += len(kept)
    _OUTPUT.hidden += len(diagnostics) - len(kept)
    # JSON is always printed, even empty, so a tool can parse every run's output.
    if not kept and fmt != "json":
        return
    # GitHub resolves annotation paths against the repository root: they stay as they are.
    from hookmsg.diagnostics import format_diagnostics

    text = format_diagnostics(
        kept if fmt == "github" else _as_seen(kept), fmt, ascii=not writes_utf8()
    )
    if fmt == "text" and use_colour():
        text = "".join(_colour(line) + "\n" for line in text.splitlines())
    sys.stdout.write(text)


def note(text: str) -> None:
    """A line for people, on standard error so standard output stays machine-readable;
    `-q` leaves it out."""
    if not _OUTPUT.quiet:
        sys.stderr.write(text + "\n")


def summary(diagnostics: Sequence[Diagnostic], checked: str) -> str:
    """The one-line count of what `--select`/`--ignore` let through."""
    diagnostics = _OUTPUT.codes.kept(diagnostics)
    if not diagnostics:
        return f"{checked}: no problems found"
    files = len({d.path for d in diagnostics})
    noun = "problem" if len(diagnostics) == 1 else "problems"
    return f"{checked}: {len(diagnostics)} {noun} in {files} file{'s' if files != 1 else ''}"
