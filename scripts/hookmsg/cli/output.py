"""The run's output: how findings are shown (quiet, colour, codes selected), streams that
never crash on a character, and standard output after the reader has gone."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from hookmsg.cli.parser import nearest_name
from hookmsg.errors import HookmsgError, UsageError


def config_findings(args: argparse.Namespace, text: str) -> None:
    """K001/K002 as findings in the machine formats too (text already went to stderr)."""
    from hookmsg.diagnostics import format_diagnostics, parse_diagnostic_lines
    from hookmsg.report import choose_format, writes_utf8

    if not hasattr(args, "format"):
        return
    fmt = choose_format(args.format)
    if fmt != "text":
        found = parse_diagnostic_lines(text)
        sys.stdout.write(format_diagnostics(found, fmt, ascii=not writes_utf8()))


def printable_streams() -> None:
    """Under a non-UTF-8 locale, write what the encoding lacks as escapes, never crash.

    (In JSON output an escape such as `\u2192` is still the same string.)
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding != "utf8" and reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


def _project_root() -> Path | None:
    from hookmsg.project.pyproject import find_root

    try:
        return find_root()
    except HookmsgError:
        return None


def _codes(option: str, values: list[str]) -> tuple[str, ...]:
    if not values:
        return ()
    from hookmsg.codes import KNOWN_CODES
    from hookmsg.diagnostics import parse_code_prefixes

    entries, unknown = parse_code_prefixes(values)
    if unknown:
        nearest = nearest_name(unknown[0], sorted(KNOWN_CODES))
        hint = f"; did you mean '{nearest}'?" if nearest else "; `hookmsg explain` lists them"
        raise UsageError(f"{option} {unknown[0]}: no code starts with it{hint}")
    return entries


def configure_output(args: argparse.Namespace) -> None:
    """Quiet, colour, the codes shown and the working directory, for this run's output.

    The code table is imported only when --select or --ignore names codes: the
    clean-check fast path stays light.
    """
    if args.quiet and args.verbose:
        raise UsageError("-q and -v cannot be combined")
    from hookmsg.report import CodeSelection, Output, configure

    codes = CodeSelection(_codes("--select", args.select), _codes("--ignore", args.ignore))
    root, cwd = _project_root(), Path.cwd().absolute()
    configure(Output(quiet=args.quiet, colour=args.color, codes=codes, root=root, cwd=cwd))


def only_hidden_findings() -> bool:
    report = sys.modules.get("hookmsg.report")
    return report is not None and bool(report.only_hidden_findings())


def discard_stdout() -> None:
    """After the reader closed the pipe: what is still buffered goes nowhere, so the flush
    at exit raises nothing either."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
