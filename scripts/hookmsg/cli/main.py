"""The `hookmsg` command line: `run(argv) -> int` for tests, `main()` for the console script.

Heavy modules are imported inside each command so that `--help` stays instant. Every
subcommand is one row of `SUBCOMMANDS` (a handler and a function adding its arguments).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

from hookmsg.errors import (
    EXIT_FINDINGS,
    EXIT_OK,
    ConfigError,
    HookmsgError,
    UsageError,
    exit_code_for,
)

EXIT_CODES_HELP = (
    "exit codes: 0 clean, 1 findings or drift, 2 usage or configuration error, "
    "130 interrupted, 141 standard output closed early"
)
# A closed pipe ends the run as SIGPIPE ends a C tool: quietly, with 128 + 13.
EXIT_CLOSED_PIPE = 141
# The keys of `diagnostics.FORMATTERS` and `report.COLOUR_CHOICES`, written out so that
# building the parser imports nothing more (tests/test_faces.py and tests/test_cli.py prove
# they agree).
FORMAT_CHOICES = ("text", "json", "github")
COLOUR_CHOICES = ("auto", "always", "never")


def _nearest(word: str, candidates: Sequence[str]) -> str | None:
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
            nearest = _nearest(match["bad"], known)
            hint = f"; did you mean '{nearest}'?" if nearest else ""
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}{hint}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse swallows OSError here; a closed pipe must reach `run`, as in every command.
        if message:
            (file or sys.stderr).write(message)

    def options(self) -> list[str]:
        return [o for action in self._actions for o in action.option_strings]


def _format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMAT_CHOICES,
        help="diagnostic format (default: text; github when GITHUB_ACTIONS=true)",
    )


def _cmd_validate(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.validate import validate
    from hookmsg.project.config import load_project
    from hookmsg.report import choose_format

    paths = [Path(p) for p in args.paths]
    return validate(
        load_project(),
        paths,
        choose_format(args.format),
        verbose=args.verbose,
        stdin_name=args.stdin_filename,
    )


def _cmd_fix(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.fix import fix
    from hookmsg.project.config import load_project
    from hookmsg.report import choose_format

    paths = [Path(p) for p in args.paths]
    return fix(load_project(), paths, diff=args.diff, fmt=choose_format(args.format))


def _cached_check(args: argparse.Namespace) -> bool:
    """The fast path: a check of a tree already proven clean, without the heavy imports."""
    if not args.check or getattr(args, "only", None):
        return False
    from hookmsg.outputs.check_cache import known_clean
    from hookmsg.project.settings import find_root

    if not known_clean(find_root()):
        return False
    if args.format == "json":
        sys.stdout.write("[]\n")
    if args.verbose:
        sys.stderr.write("check: no problems found (unchanged since the last clean check)\n")
    return True


def _cmd_build(args: argparse.Namespace) -> int:
    if _cached_check(args):
        return EXIT_OK
    from hookmsg.cli.commands.build import build
    from hookmsg.project.config import load_project
    from hookmsg.report import choose_format

    names = getattr(args, "only", None)
    return build(
        load_project(),
        check=args.check,
        fmt=choose_format(args.format),
        names=names,
        verbose=args.verbose,
    )


def _cmd_preview(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.preview import preview
    from hookmsg.project.config import load_project

    return preview(load_project(), args.name, args.set or [], harness=args.harness, root=args.root)


def _cmd_replay(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.replay import replay
    from hookmsg.project.config import load_project

    return replay(
        load_project(),
        args.transcript,
        harness_id=args.harness,
        target=args.project,
        fmt=args.format,
    )


def _cmd_explain(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.explain import explain

    return explain(args.code)


def _cmd_package(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.package import package
    from hookmsg.project.config import load_project
    from hookmsg.report import choose_format

    output = Path(args.output) if args.output else None
    return package(
        load_project(),
        output,
        choose_format(args.format),
        version=args.content_version,
        verbose=args.verbose,
    )


def _cmd_install_render(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.install_render import install_render
    from hookmsg.project.config import load_project

    return install_render(load_project(), args.harness, args.python, args.root, strict=args.strict)


def _cmd_install(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.install import InstallRequest, install
    from hookmsg.project.config import load_project

    return install(
        load_project(),
        InstallRequest(
            args.harness,
            root=args.root,
            target=args.project,
            python=args.python,
            dry_run=args.dry_run,
            strict=args.strict,
            user=args.user,
            into_content_repo=args.into_content_repo,
        ),
    )


def _cmd_roots(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.roots import roots

    return roots(prune=args.prune)


def _cmd_verify(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.verify import verify
    from hookmsg.project.config import load_project

    return verify(load_project(), args.harness, target=args.project, user=args.user)


def _cmd_uninstall(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.uninstall import uninstall
    from hookmsg.project.config import load_project

    return uninstall(load_project(), args.harness, target=args.project, user=args.user)


def _cmd_watch(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.watch import watch
    from hookmsg.report import choose_format

    return watch(choose_format(args.format), verbose=args.verbose)


def _cmd_init(args: argparse.Namespace) -> int:
    from hookmsg.cli.commands.init import init

    return init(args.dir, force=args.force, repo=args.hook_repo, rev=args.hook_rev)


def _init_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", nargs="?", default=".", metavar="DIR", help="default: cwd")
    parser.add_argument(
        "--force",
        action="store_true",
        help="write into a folder that is not empty (a file that exists is never replaced)",
    )
    parser.add_argument(
        "--hook-repo",
        metavar="URL",
        help="the repository publishing the pre-commit hook (default: hookmsg's own checkout)",
    )
    parser.add_argument(
        "--hook-rev", metavar="REV", help="its revision (default: that checkout's commit)"
    )


PATH_RULES = (
    "Paths must be absolute, must not start with - or ~, and may not contain quotation "
    "marks of any script, backticks, $, %, backslashes or control characters: each one "
    "ends up inside the hook's command line."
)


def _validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="message files or folders; - reads standard input"
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="the path a message read from standard input is checked and reported as",
    )


def _fix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--diff", action="store_true", help="print the changes; write nothing")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="message files or folders")


def _build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true", help="compare with the files; never write")
    parser.add_argument(
        "--only", action="append", metavar="NAME", help="only this output (repeatable)"
    )


def _preview_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="message name, e.g. pretooluse-eval-guard")
    parser.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="placeholder value (repeatable)"
    )
    parser.add_argument("--harness", metavar="ID", help="show what this harness receives")
    parser.add_argument("--root", metavar="DIR", help="install root (default: the default one)")


def _replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("transcript", metavar="TRANSCRIPT", help="the .jsonl file")
    parser.add_argument("--harness", metavar="ID", help="default: the transcript's client")
    parser.add_argument("--project", metavar="DIR", help="the project the guards read")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def _explain_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", nargs="?", metavar="CODE")


def _package_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", metavar="DIR", help="folder for the archive (default dist/)")
    parser.add_argument(
        "--content-version",
        metavar="VERSION",
        help="the version in the archive's name (default: git describe --tags --always --dirty)",
    )


def _install_render_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--harness", required=True, metavar="ID", help="e.g. codex")
    parser.add_argument("--python", required=True, metavar="PATH", help="the interpreter")
    parser.add_argument("--root", required=True, metavar="PATH", help="the install root")
    parser.add_argument("--strict", action="store_true", help="render strict mode")


def _project_arguments(parser: argparse.ArgumentParser) -> None:
    """--harness, --project and --user: which settings file `install`, `verify` and
    `uninstall` work on."""
    parser.add_argument("--harness", required=True, metavar="ID", help="e.g. codex")
    parser.add_argument(
        "--project", metavar="DIR", help="the project (default: cwd; relative paths resolved)"
    )
    parser.add_argument(
        "--user",
        action="store_true",
        help="xcsh only: the module in ~/.xcsh/agent/extensions/ instead of the project's",
    )


def _roots_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--prune", action="store_true", help="remove the roots no project uses")


def _install_arguments(parser: argparse.ArgumentParser) -> None:
    _project_arguments(parser)
    parser.add_argument(
        "--root",
        metavar="DIR",
        help="the install root (default: one per content, "
        "$XDG_DATA_HOME/hookmsg/roots/SOURCE-CONTENT, else under ~/.local/share)",
    )
    parser.add_argument(
        "--into-content-repo",
        action="store_true",
        help="allow installing into the content repository itself (refused otherwise)",
    )
    parser.add_argument(
        "--python",
        metavar="PATH",
        help="the interpreter hooks run (default: this one's base, outside any venv)",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the diff; change nothing")
    parser.add_argument(
        "--strict", action="store_true", help="strict mode: guards refuse where they can"
    )


@dataclass(frozen=True)
class Subcommand:
    """One row of the command table: a new subcommand is a handler and one row."""

    name: str
    help: str
    description: str
    handler: Callable[[argparse.Namespace], int]
    arguments: Callable[[argparse.ArgumentParser], None] | None = None
    formats: bool = False  # takes --format
    defaults: tuple[tuple[str, object], ...] = ()


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand(
        "init",
        "start a content repository that builds and checks at once",
        "Write a new content repository into DIR: pyproject.toml with [tool.hookmsg], a "
        "session-start message wired in catalog/hooks.toml, a skills folder with one skill, "
        "dodo.py (hookmsg's task graph), .pre-commit-config.yaml with the published "
        "hookmsg-check hook; then build generated/. Harness facts are hookmsg's own and are "
        "not copied. Refuses a folder that is not empty (unless --force) and a folder "
        "inside another content repository's messages, catalogue or generated folder.",
        _cmd_init,
        _init_arguments,
    ),
    Subcommand(
        "validate",
        "check messages and the catalogue against every rule",
        "Check messages and the catalogue. With no PATH: the configured messages folder, the "
        "catalogue and the skill index. With PATHs: those files and folders (registry rules "
        "apply to files inside the messages folder); - reads one message from standard input.",
        _cmd_validate,
        _validate_arguments,
        formats=True,
    ),
    Subcommand(
        "fix",
        "mend the findings that have one right answer (licence line, line endings, "
        "binding order, arrows, reciprocal cross-bindings)",
        "Mend mechanical findings in message files, like `ruff --fix`. With no PATH: every "
        "message in the messages folder. Never touches the generated folder. Exits 1 when a "
        "finding of those kinds is left that needs a hand.",
        _cmd_fix,
        _fix_arguments,
        formats=True,
    ),
    Subcommand(
        "build",
        "validate, then write every generated file whose bytes change",
        "Validate, then render every generated file and write those that changed "
        "(atomically); remove stale files from the generated folder. With --check, compare "
        "instead and write nothing.",
        _cmd_build,
        _build_arguments,
        formats=True,
    ),
    Subcommand(
        "check",
        "fail if a generated file drifted from its sources (writes nothing)",
        "Render every output in memory and compare with the committed files: list every "
        "drifted, missing and stale file with a diff and the command that fixes it. "
        "Validation errors also fail the check. Never writes.",
        _cmd_build,
        formats=True,
        defaults=(("check", True),),
    ),
    Subcommand(
        "watch",
        "build on every save; one status line per run",
        "Build once, then watch the messages, the catalogue, the skill sources and "
        "pyproject.toml, and build again after each save; print one status line per run. "
        "Ctrl-C stops it.",
        _cmd_watch,
        formats=True,
    ),
    Subcommand(
        "preview",
        "print exactly what the assistant receives for a message",
        "Print what the assistant receives, rendered by the dispatcher: a context message's "
        "delivered text, or a guard's Advisory filled in (with --set values, else the "
        "registry's samples, cleaned as the dispatcher cleans them) under its went-ahead line "
        "and followed by its `Full procedure:` line inside --root. With --harness, that "
        "harness's envelope and index form. The size, against the cap or the index budget, "
        "goes to standard error.",
        _cmd_preview,
        _preview_arguments,
    ),
    Subcommand(
        "replay",
        "replay a recorded session through the dispatcher and price each message",
        "Read a Claude Code transcript (.jsonl) or a Codex rollout file, run each hook call it "
        "implies through the dispatcher as the harness's registration would, and print per "
        "call which messages fire and what each costs in characters, with totals.",
        _cmd_replay,
        _replay_arguments,
    ),
    Subcommand(
        "explain",
        "explain a diagnostic code, or list them all",
        "Print a code's summary, an example of the problem and the fix; with no CODE, list "
        "every code.",
        _cmd_explain,
        _explain_arguments,
    ),
    Subcommand(
        "package",
        "write the reproducible release archive (refused if check fails)",
        "Check, then write dist/hookmsg-assets-VERSION.tar.gz: the generated files, every "
        "message's delivered text and a manifest of sizes and SHA-256 sums. VERSION is the "
        "content version (default: `git describe --tags --always --dirty`). Times come from "
        "SOURCE_DATE_EPOCH, else the last commit. A dirty tree warns; an existing archive "
        "with different bytes is never replaced.",
        _cmd_package,
        _package_arguments,
        formats=True,
    ),
    Subcommand(
        "install-render",
        "print one harness's hook registration with its install tokens filled in",
        "The low-level face of `install`: validate the catalogue, then print the "
        "registration of one harness with ${PYTHON_BIN} and ${HARNESS_ROOT} replaced. "
        + PATH_RULES,
        _cmd_install_render,
        _install_render_arguments,
    ),
    Subcommand(
        "install",
        "lay out the install root and merge a harness's registration into a project",
        "Write the dispatcher and assets to the install root (atomically; an existing folder "
        "is replaced only if it is a hookmsg install root), then merge the harness's "
        "registration into the project's settings file without touching anything that is "
        "not ours. A file that is not valid JSON, or that could not be written back exactly, "
        "is refused and left untouched. " + PATH_RULES,
        _cmd_install,
        _install_arguments,
    ),
    Subcommand(
        "verify",
        "check that a harness's registration is present, current and complete",
        "Exit 0 when the project's settings file holds our registration, it is what the "
        "registry generates now, and the install root it runs is complete (every file "
        "matches the manifest) and holds this build's content (not stale, not another "
        "repository's); else exit 1 with one line per reason.",
        _cmd_verify,
        _project_arguments,
    ),
    Subcommand(
        "uninstall",
        "remove our entries from a harness's settings file",
        "Remove only hookmsg's entries and what install created with them (keys, event "
        "lists, files, folders); every other key and hook stays as it was, byte for byte. "
        "A keyed install root no project uses any more is removed.",
        _cmd_uninstall,
        _project_arguments,
    ),
    Subcommand(
        "roots",
        "list the install roots and the projects that use them; --prune the unused",
        "List every install root under the data folder with its source, its content version "
        "and the projects whose settings still run it. --prune removes the keyed roots no "
        "project uses any more.",
        _cmd_roots,
        _roots_arguments,
    ),
)


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
            _format_option(sub)
        if row.arguments is not None:
            row.arguments(sub)
        sub.set_defaults(handler=row.handler, **dict(row.defaults))
    return parser


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


def _config_findings(args: argparse.Namespace, text: str) -> None:
    """K001/K002 as findings in the machine formats too (text already went to stderr)."""
    from hookmsg.diagnostics import format_diagnostics, parse_diagnostic_lines
    from hookmsg.report import choose_format, writes_utf8

    if not hasattr(args, "format"):
        return
    fmt = choose_format(args.format)
    if fmt != "text":
        found = parse_diagnostic_lines(text)
        sys.stdout.write(format_diagnostics(found, fmt, ascii=not writes_utf8()))


def _printable_streams() -> None:
    """Under a non-UTF-8 locale, write what the encoding lacks as escapes, never crash.

    (In JSON output an escape such as `\u2192` is still the same string.)
    """
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding != "utf8" and reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="backslashreplace")


_PARSERS: list[Parser] = []


def _parser() -> Parser:
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


def _parse(parser: Parser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse; an unknown option is refused with the nearest option of its subcommand."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = _subparser(parser, args.command)
        known = parser.options() + (sub.options() if sub is not None else [])
        hints = []
        for word in extra:
            nearest = _nearest(word.split("=", 1)[0], known) if word.startswith("-") else None
            if nearest:
                hints.append(f"did you mean '{nearest}' for '{word}'?")
        (sub or parser).error("; ".join(["unrecognized arguments: " + " ".join(extra), *hints]))
    return args


def _project_root() -> Path | None:
    from hookmsg.project.settings import find_root

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
        nearest = _nearest(unknown[0], sorted(KNOWN_CODES))
        hint = f"; did you mean '{nearest}'?" if nearest else "; `hookmsg explain` lists them"
        raise UsageError(f"{option} {unknown[0]}: no code starts with it{hint}")
    return entries


def _configure_output(args: argparse.Namespace) -> None:
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


def _only_hidden_findings() -> bool:
    report = sys.modules.get("hookmsg.report")
    return report is not None and bool(report.only_hidden_findings())


def _run(argv: Sequence[str] | None) -> int:
    parser = _parser()
    try:
        args = _parse(parser, argv)
    except SystemExit as stop:  # argparse reports usage errors (and --help) this way
        return stop.code if isinstance(stop.code, int) else EXIT_OK
    try:
        _configure_output(args)
        with _terminate_as_interrupt():
            code: int = args.handler(args)
    except HookmsgError as error:
        prefix = "hookmsg: error: " if isinstance(error, UsageError) else ""
        sys.stderr.write(f"{prefix}{error}\n")
        if isinstance(error, ConfigError):
            _config_findings(args, str(error))
        return exit_code_for(error)
    except KeyboardInterrupt as error:
        sys.stderr.write("hookmsg: interrupted; no output was changed\n")
        return exit_code_for(error)
    # Findings that --select/--ignore hid do not fail the run.
    return EXIT_OK if code == EXIT_FINDINGS and _only_hidden_findings() else code


def _discard_stdout() -> None:
    """After the reader closed the pipe: what is still buffered goes nowhere, so the flush
    at exit raises nothing either."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code instead of exiting."""
    _printable_streams()
    try:
        code = _run(argv)
        sys.stdout.flush()
    except BrokenPipeError:  # `hookmsg explain | head -1`: the reader has what it wanted
        _discard_stdout()
        return EXIT_CLOSED_PIPE
    return code


def main() -> None:
    sys.exit(run())
