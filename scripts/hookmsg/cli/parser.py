"""The `hookmsg` argument parser: the options every command takes, the nearest name for a
mistyped one, and one parser built per process from the command table."""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from hookmsg.cli import arguments
from hookmsg.cli.subcommands import SUBCOMMANDS

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_CODES_HELP = (
    "exit codes: 0 clean, 1 findings or drift, 2 usage or configuration error, "
    "130 interrupted, 141 standard output closed early"
)
COLOUR_CHOICES = ("auto", "always", "never")  # `report.COLOUR_CHOICES` (tests/test_cli.py)


def nearest_name(word: str, candidates: Sequence[str]) -> str | None:
    found = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return found[0] if found else None


_INVALID_CHOICE = re.compile(r"invalid choice: '?(?P<bad>[^' ]+)'? \(choose from (?P<known>.*)\)")


class Parser(argparse.ArgumentParser):
    """argparse, with the nearest name suggested for a mistyped choice or option."""

    def error(self, message: str) -> NoReturn:
        hint = ""
        match = _INVALID_CHOICE.search(message)
        if match:
            known = [part.strip().strip("'") for part in match["known"].split(",")]
            nearest = nearest_name(match["bad"], known)
            hint = f"; did you mean '{nearest}'?" if nearest else ""
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}{hint}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse swallows OSError here; a closed pipe must reach `run`, as in every command.
        if message:
            (file or sys.stderr).write(message)

    def options(self) -> list[str]:
        return [o for action in self._actions for o in action.option_strings]


def _conventions(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """The options every command takes, before or after its name. Under a subcommand they
    default to nothing, so `hookmsg -q validate` keeps the `-q` given before the name."""

    def default(value: object) -> object:
        return value if top else argparse.SUPPRESS

    parser.add_argument(
        "-q", "--quiet", action="store_true", default=default(False), help="print findings only"
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", default=default(False), help="per-file detail"
    )
    parser.add_argument(
        "--color",
        "--colour",
        dest="color",
        choices=COLOUR_CHOICES,
        default=default("auto"),
        help="colour the findings (default auto: a terminal, unless NO_COLOR or TERM=dumb; "
        "FORCE_COLOR forces it)",
    )
    for name, does in (("select", "show only"), ("ignore", "hide")):
        parser.add_argument(
            f"--{name}",
            action="append",
            metavar="CODES",
            default=default([]),
            help=f"{does} these codes, comma-separated; a prefix covers its family (B, B00)",
        )


class _Version(argparse.Action):
    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from hookmsg.cli.commands.version import version_lines

        sys.stdout.write("".join(line + "\n" for line in version_lines()))
        parser.exit()


def build_parser() -> Parser:
    parser = Parser(
        prog="hookmsg",
        description="Validate, render and check AI-assistant hook messages.",
        epilog=EXIT_CODES_HELP,
    )
    parser.add_argument(
        "--version", action=_Version, nargs=0, help="hookmsg's version and the content version"
    )
    _conventions(parser, top=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for row in SUBCOMMANDS:
        sub = commands.add_parser(
            row.name, help=row.help, description=row.description, epilog=EXIT_CODES_HELP
        )
        _conventions(sub, top=False)
        if row.formats:
            arguments.format_option(sub)
        if row.arguments is not None:
            row.arguments(sub)
        sub.set_defaults(handler=row.handler, **dict(row.defaults))
    return parser


_PARSERS: list[Parser] = []


def parser() -> Parser:
    """One parser per process: parsing never changes it, and building it costs each run."""
    if not _PARSERS:
        _PARSERS.append(build_parser())
    return _PARSERS[0]


def _subparser(parser: Parser, name: str | None) -> Parser | None:
    for action in parser._actions:  # argparse keeps its subparsers only here
        if isinstance(action, argparse._SubParsersAction) and name in action.choices:
            found = action.choices[name]
            return found if isinstance(found, Parser) else None
    return None


def parse(parser: Parser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; an unknown option is refused with the nearest option of its subcommand."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = _subparser(parser, args.command)
        known = parser.options() + (sub.options() if sub is not None else [])
        hints = []
        for word in extra:
            nearest = nearest_name(word.split("=", 1)[0], known) if word.startswith("-") else None
            if nearest:
                hints.append(f"did you mean '{nearest}' for '{word}'?")
        (sub or parser).error("; ".join(["unrecognized arguments: " + " ".join(extra), *hints]))
    return args
