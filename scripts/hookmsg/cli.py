"""The `hookmsg` command line: `run(argv) -> int` for tests, `main()` for the console script.

Heavy modules are imported inside each command so that `--help` stays instant.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from hookmsg import __version__
from hookmsg.errors import EXIT_OK, ConfigError, HookmsgError, UsageError, exit_code_for

EXIT_CODES_HELP = "exit codes: 0 clean, 1 findings or drift, 2 usage or configuration error"
# The keys of `diagnostics.FORMATTERS`, written out so that building the parser imports
# nothing more (tests/test_faces.py proves the two agree).
FORMAT_CHOICES = ("text", "json", "github")


def _format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMAT_CHOICES,
        help="diagnostic format (default: text; github when GITHUB_ACTIONS=true)",
    )


def _cmd_validate(args: argparse.Namespace) -> int:
    from hookmsg.commands.validate import validate
    from hookmsg.config import load_project
    from hookmsg.report import choose_format

    paths = [Path(p) for p in args.paths]
    return validate(load_project(), paths, choose_format(args.format), verbose=args.verbose)


def _cached_check(args: argparse.Namespace) -> bool:
    """The fast path: a check of a tree already proven clean, without the heavy imports."""
    if not args.check or getattr(args, "only", None):
        return False
    from hookmsg.check_cache import known_clean
    from hookmsg.settings import find_root

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
    from hookmsg.commands.build import build
    from hookmsg.config import load_project
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
    from hookmsg.commands.preview import preview
    from hookmsg.config import load_project

    return preview(load_project(), args.name, args.set or [], harness=args.harness, root=args.root)


def _cmd_replay(args: argparse.Namespace) -> int:
    from hookmsg.commands.replay import replay
    from hookmsg.config import load_project

    return replay(
        load_project(),
        args.transcript,
        harness_id=args.harness,
        target=args.project,
        fmt=args.format,
    )


def _cmd_explain(args: argparse.Namespace) -> int:
    from hookmsg.commands.explain import explain

    return explain(args.code)


def _cmd_package(args: argparse.Namespace) -> int:
    from hookmsg.commands.package import package
    from hookmsg.config import load_project
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
    from hookmsg.commands.install_render import install_render
    from hookmsg.config import load_project

    return install_render(load_project(), args.harness, args.python, args.root, strict=args.strict)


def _cmd_install(args: argparse.Namespace) -> int:
    from hookmsg.commands.install import install
    from hookmsg.config import load_project

    return install(
        load_project(),
        args.harness,
        root=args.root,
        target=args.project,
        python=args.python,
        dry_run=args.dry_run,
        strict=args.strict,
        user=args.user,
    )


def _cmd_verify(args: argparse.Namespace) -> int:
    from hookmsg.commands.verify import verify
    from hookmsg.config import load_project

    return verify(load_project(), args.harness, target=args.project, user=args.user)


def _cmd_uninstall(args: argparse.Namespace) -> int:
    from hookmsg.commands.uninstall import uninstall
    from hookmsg.config import load_project

    return uninstall(load_project(), args.harness, target=args.project, user=args.user)


PATH_RULES = (
    "Paths must be absolute, must not start with - or ~, and may not contain quotation "
    "marks of any script, backticks, $, %, backslashes or control characters: each one "
    "ends up inside the hook's command line."
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hookmsg",
        description="Validate, render and check AI-assistant hook messages.",
        epilog=EXIT_CODES_HELP,
    )
    parser.add_argument("--version", action="version", version=f"hookmsg {__version__}")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("-v", "--verbose", action="store_true", help="report per-file detail")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    validate = commands.add_parser(
        "validate",
        parents=[common],
        help="check messages and the catalogue against every rule",
        description="Check messages and the catalogue. With no PATH: the configured messages "
        "folder, the catalogue and the skill index. With PATHs: those files and folders "
        "(registry rules apply to files inside the messages folder).",
        epilog=EXIT_CODES_HELP,
    )
    validate.add_argument("paths", nargs="*", metavar="PATH", help="message files or folders")
    _format_option(validate)
    validate.set_defaults(handler=_cmd_validate)

    build = commands.add_parser(
        "build",
        parents=[common],
        help="validate, then write every generated file whose bytes change",
        description="Validate, then render every generated file and write those that changed "
        "(atomically); remove stale files from the generated folder. With --check, compare "
        "instead and write nothing.",
        epilog=EXIT_CODES_HELP,
    )
    build.add_argument("--check", action="store_true", help="compare with the files; never write")
    build.add_argument(
        "--only", action="append", metavar="NAME", help="only this output (repeatable)"
    )
    _format_option(build)
    build.set_defaults(handler=_cmd_build)

    check = commands.add_parser(
        "check",
        parents=[common],
        help="fail if a generated file drifted from its sources (writes nothing)",
        description="Render every output in memory and compare with the committed files: "
        "list every drifted, missing and stale file with a diff and the command that fixes "
        "it. Validation errors also fail the check. Never writes.",
        epilog=EXIT_CODES_HELP,
    )
    _format_option(check)
    check.set_defaults(handler=_cmd_build, check=True)

    preview = commands.add_parser(
        "preview",
        parents=[common],
        help="print exactly what the assistant receives for a message",
        description="Print what the assistant receives, rendered by the dispatcher: a context "
        "message's delivered text, or a guard's Advisory filled in (with --set values, else the "
        "registry's samples, cleaned as the dispatcher cleans them) under its went-ahead line and "
        "followed by its `Full procedure:` line inside --root. With --harness, that harness's "
        "envelope and index form. The size, against the cap or the index budget, goes to "
        "standard error.",
        epilog=EXIT_CODES_HELP,
    )
    preview.add_argument("name", metavar="NAME", help="message name, e.g. pretooluse-eval-guard")
    preview.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="placeholder value (repeatable)"
    )
    preview.add_argument("--harness", metavar="ID", help="show what this harness receives")
    preview.add_argument("--root", metavar="DIR", help="install root (default: the default one)")
    preview.set_defaults(handler=_cmd_preview)

    replay = commands.add_parser(
        "replay",
        parents=[common],
        help="replay a recorded session through the dispatcher and price each message",
        description="Read a Claude Code transcript (.jsonl) or a Codex rollout file, run each "
        "hook call it implies through the dispatcher as the harness's registration would, and "
        "print per call which messages fire and what each costs in characters, with totals.",
        epilog=EXIT_CODES_HELP,
    )
    replay.add_argument("transcript", metavar="TRANSCRIPT", help="the .jsonl file")
    replay.add_argument("--harness", metavar="ID", help="default: the transcript's client")
    replay.add_argument("--project", metavar="DIR", help="the project the guards read")
    replay.add_argument("--format", choices=("text", "json"), default="text")
    replay.set_defaults(handler=_cmd_replay)

    explain = commands.add_parser(
        "explain",
        parents=[common],
        help="explain a diagnostic code, or list them all",
        description="Print a code's summary, an example of the problem and the fix; "
        "with no CODE, list every code.",
        epilog=EXIT_CODES_HELP,
    )
    explain.add_argument("code", nargs="?", metavar="CODE")
    explain.set_defaults(handler=_cmd_explain)

    package = commands.add_parser(
        "package",
        parents=[common],
        help="write the reproducible release archive (refused if check fails)",
        description="Check, then write dist/hookmsg-assets-VERSION.tar.gz: the generated "
        "files, every message's delivered text and a manifest of sizes and SHA-256 sums. "
        "VERSION is the content version (default: `git describe --tags --always --dirty`). "
        "Times come from SOURCE_DATE_EPOCH, else the last commit. A dirty tree warns; an "
        "existing archive with different bytes is never replaced.",
        epilog=EXIT_CODES_HELP,
    )
    package.add_argument("--output", metavar="DIR", help="folder for the archive (default dist/)")
    package.add_argument(
        "--content-version",
        metavar="VERSION",
        help="the version in the archive's name (default: git describe --tags --always --dirty)",
    )
    _format_option(package)
    package.set_defaults(handler=_cmd_package)

    install = commands.add_parser(
        "install-render",
        parents=[common],
        help="print one harness's hook registration with its install tokens filled in",
        description="The low-level face of `install`: validate the catalogue, then print "
        "the registration of one harness with ${PYTHON_BIN} and ${HARNESS_ROOT} replaced. "
        + PATH_RULES,
        epilog=EXIT_CODES_HELP,
    )
    install.add_argument("--harness", required=True, metavar="ID", help="e.g. codex")
    install.add_argument("--python", required=True, metavar="PATH", help="the interpreter")
    install.add_argument("--root", required=True, metavar="PATH", help="the install root")
    install.add_argument("--strict", action="store_true", help="render strict mode")
    install.set_defaults(handler=_cmd_install_render)

    real = commands.add_parser(
        "install",
        parents=[common],
        help="lay out the install root and merge a harness's registration into a project",
        description="Write the dispatcher and assets to the install root (atomically; an "
        "existing folder is replaced only if it is a hookmsg install root), then merge the "
        "harness's registration into the project's settings file without touching anything "
        "that is not ours. A file that is not valid JSON, or that could not be written back "
        "exactly, is refused and left untouched. " + PATH_RULES,
        epilog=EXIT_CODES_HELP,
    )
    real.add_argument("--harness", required=True, metavar="ID", help="e.g. codex")
    real.add_argument(
        "--root",
        metavar="DIR",
        help="the install root (default: $XDG_DATA_HOME/hookmsg/VERSION, else "
        "~/.local/share/hookmsg/VERSION)",
    )
    real.add_argument("--project", metavar="DIR", help="the project (default: cwd)")
    real.add_argument(
        "--python",
        metavar="PATH",
        help="the interpreter hooks run (default: this one's base, outside any venv)",
    )
    real.add_argument("--dry-run", action="store_true", help="print the diff; change nothing")
    real.add_argument(
        "--strict", action="store_true", help="strict mode: guards refuse where they can"
    )
    real.add_argument(
        "--user",
        action="store_true",
        help="xcsh only: the module in ~/.xcsh/agent/extensions/ instead of the project's",
    )
    real.set_defaults(handler=_cmd_install)

    verify = commands.add_parser(
        "verify",
        parents=[common],
        help="check that a harness's registration is present, current and complete",
        description="Exit 0 when the project's settings file holds our registration, it is "
        "what the registry generates now, and the install root it runs is complete (every "
        "file matches the manifest); else exit 1 with one line per reason.",
        epilog=EXIT_CODES_HELP,
    )
    verify.add_argument("--harness", required=True, metavar="ID", help="e.g. codex")
    verify.add_argument("--project", metavar="DIR", help="the project (default: cwd)")
    verify.add_argument(
        "--user",
        action="store_true",
        help="xcsh only: the module in ~/.xcsh/agent/extensions/ instead of the project's",
    )
    verify.set_defaults(handler=_cmd_verify)

    uninstall = commands.add_parser(
        "uninstall",
        parents=[common],
        help="remove our entries from a harness's settings file",
        description="Remove only hookmsg's entries; every other key and hook stays as it "
        "was. An event list left empty is removed; the install root is left in place.",
        epilog=EXIT_CODES_HELP,
    )
    uninstall.add_argument("--harness", required=True, metavar="ID", help="e.g. codex")
    uninstall.add_argument("--project", metavar="DIR", help="the project (default: cwd)")
    uninstall.add_argument(
        "--user",
        action="store_true",
        help="xcsh only: the module in ~/.xcsh/agent/extensions/ instead of the project's",
    )
    uninstall.set_defaults(handler=_cmd_uninstall)
    return parser


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt, so `finally` blocks remove temporary files."""

    def interrupt(signum: int, frame: object) -> None:
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


_PARSERS: list[argparse.ArgumentParser] = []


def _parser() -> argparse.ArgumentParser:
    """One parser per process: parsing never changes it, and building it costs each run."""
    if not _PARSERS:
        _PARSERS.append(build_parser())
    return _PARSERS[0]


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code instead of exiting."""
    _printable_streams()
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse reports usage errors (and --help) this way
        return stop.code if isinstance(stop.code, int) else EXIT_OK
    try:
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
    return code


def main() -> None:
    sys.exit(run())
