"""The arguments each subcommand takes, one function per subcommand."""

from __future__ import annotations

import argparse

# The keys of `diagnostics.FORMATTERS` and `report.COLOUR_CHOICES`, written out so that
# building the parser imports nothing more (tests/test_cli_output.py and tests/test_cli.py prove
# they agree).
FORMAT_CHOICES = ("text", "json", "github")
COLOUR_CHOICES = ("auto", "always", "never")


def format_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMAT_CHOICES,
        help="diagnostic format (default: text; github when GITHUB_ACTIONS=true)",
    )


def init_arguments(parser: argparse.ArgumentParser) -> None:
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


def validate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="*", metavar="PATH", help="message files or folders; - reads standard input"
    )
    parser.add_argument(
        "--stdin-filename",
        metavar="PATH",
        help="the path a message read from standard input is checked and reported as",
    )


def fix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--diff", action="store_true", help="print the changes; write nothing")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="message files or folders")


def build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true", help="compare with the files; never write")
    parser.add_argument(
        "--only", action="append", metavar="NAME", help="only this output (repeatable)"
    )


def preview_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="message name, e.g. pretooluse-eval-guard")
    parser.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="placeholder value (repeatable)"
    )
    parser.add_argument("--harness", metavar="ID", help="show what this harness receives")
    parser.add_argument("--root", metavar="DIR", help="install root (default: the default one)")


def replay_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("transcript", metavar="TRANSCRIPT", help="the .jsonl file")
    parser.add_argument("--harness", metavar="ID", help="default: the transcript's client")
    parser.add_argument("--project", metavar="DIR", help="the project the guards read")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def explain_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", nargs="?", metavar="CODE")


def package_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", metavar="DIR", help="folder for the archive (default dist/)")
    parser.add_argument(
        "--content-version",
        metavar="VERSION",
        help="the version in the archive's name (default: git describe --tags --always --dirty)",
    )


def install_render_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--harness", required=True, metavar="ID", help="e.g. codex")
    parser.add_argument("--python", required=True, metavar="PATH", help="the interpreter")
    parser.add_argument("--root", required=True, metavar="PATH", help="the install root")
    parser.add_argument("--strict", action="store_true", help="render strict mode")


def project_arguments(parser: argparse.ArgumentParser) -> None:
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


def roots_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--prune", action="store_true", help="remove the roots no project uses")


def install_arguments(parser: argparse.ArgumentParser) -> None:
    project_arguments(parser)
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
