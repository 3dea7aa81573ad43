"""The `hookmsg` command line: `run(argv) -> int` for tests, `main()` for the console script.

The parser is `parser.py` (from the command table, `subcommands.py`), what each command
does is `handlers.py`, how its findings are shown is `output.py`. A bare `hookmsg check`
(pre-commit's hook, the `check` task) of a tree the check cache knows to be clean is
answered before any of them is imported: building the parser costs more than the answer.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from hookmsg.errors import (
    EXIT_FINDINGS,
    EXIT_OK,
    ConfigError,
    HookmsgError,
    UsageError,
    exit_code_for,
)

if TYPE_CHECKING:
    import argparse

# A closed pipe ends the run as SIGPIPE ends a C tool: quietly, with 128 + 13.
EXIT_CLOSED_PIPE = 141


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt, so `finally` blocks remove temporary files."""

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(argv: Sequence[str] | None) -> int:
    from hookmsg.cli import parser as cli_parser

    parser = cli_parser.parser()
    try:
        args = cli_parser.parse(parser, argv)
    except SystemExit as stop:  # argparse reports usage errors (and --help) this way
        return stop.code if isinstance(stop.code, int) else EXIT_OK
    return _handle(args)


def _handle(args: argparse.Namespace) -> int:
    from hookmsg.cli import output

    try:
        output.configure_output(args)
        with _terminate_as_interrupt():
            code: int = args.handler(args)
    except HookmsgError as error:
        prefix = "hookmsg: error: " if isinstance(error, UsageError) else ""
        sys.stderr.write(f"{prefix}{error}\n")
        if isinstance(error, ConfigError):
            output.config_findings(args, str(error))
        return exit_code_for(error)
    except KeyboardInterrupt as error:
        sys.stderr.write("hookmsg: interrupted; no output was changed\n")
        return exit_code_for(error)
    # Findings that --select/--ignore hid do not fail the run.
    return EXIT_OK if code == EXIT_FINDINGS and output.only_hidden_findings() else code


def _known_clean(argv: Sequence[str] | None) -> bool:
    """Is this a bare `hookmsg check` of a tree the check cache knows to be clean?"""
    if list(sys.argv[1:] if argv is None else argv) != ["check"]:
        return False
    from hookmsg.outputs.check_cache import known_clean
    from hookmsg.project.pyproject import find_root

    try:
        return known_clean(find_root())
    except HookmsgError:
        return False  # no project here: the full check says so


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code instead of exiting."""
    if _known_clean(argv):
        return EXIT_OK  # what the full check prints for a clean tree: nothing
    from hookmsg.cli import output

    output.printable_streams()
    try:
        code = _run(argv)
        sys.stdout.flush()
    except BrokenPipeError:  # `hookmsg explain | head -1`: the reader has what it wanted
        output.discard_stdout()
        return EXIT_CLOSED_PIPE
    return code


def main() -> None:
    sys.exit(run())
