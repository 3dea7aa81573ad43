"""The command table: a new subcommand is a handler, a function adding its arguments and one row."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from hookmsg.cli import arguments, handlers
from hookmsg.cli.arguments import PATH_RULES


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
        handlers.init,
        arguments.init_arguments,
    ),
    Subcommand(
        "validate",
        "check messages and the catalogue against every rule",
        "Check messages and the catalogue. With no PATH: the configured messages folder, the "
        "catalogue and the skill index. With PATHs: those files and folders (registry rules "
        "apply to files inside the messages folder); - reads one message from standard input.",
        handlers.validate,
        arguments.validate_arguments,
        formats=True,
    ),
    Subcommand(
        "fix",
        "mend the findings that have one right answer (licence line, line endings, "
        "binding order, arrows, reciprocal cross-bindings)",
        "Mend mechanical findings in message files, like `ruff --fix`. With no PATH: every "
        "message in the messages folder. Never touches the generated folder. Exits 1 when a "
        "finding of those kinds is left that needs a hand.",
        handlers.fix,
        arguments.fix_arguments,
        formats=True,
    ),
    Subcommand(
        "build",
        "validate, then write every generated file whose bytes change",
        "Validate, then render every generated file and write those that changed "
        "(atomically); remove stale files from the generated folder. With --check, compare "
        "instead and write nothing.",
        handlers.build,
        arguments.build_arguments,
        formats=True,
    ),
    Subcommand(
        "check",
        "fail if a generated file drifted from its sources (writes nothing)",
        "Render every output in memory and compare with the committed files: list every "
        "drifted, missing and stale file with a diff and the command that fixes it. "
        "Validation errors also fail the check. Never writes.",
        handlers.build,
        formats=True,
        defaults=(("check", True),),
    ),
    Subcommand(
        "watch",
        "build on every save; one status line per run",
        "Build once, then watch the messages, the catalogue, the skill sources and "
        "pyproject.toml, and build again after each save; print one status line per run. "
        "Ctrl-C stops it.",
        handlers.watch,
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
        handlers.preview,
        arguments.preview_arguments,
    ),
    Subcommand(
        "replay",
        "replay a recorded session through the dispatcher and price each message",
        "Read a Claude Code transcript (.jsonl) or a Codex rollout file, run each hook call it "
        "implies through the dispatcher as the harness's registration would, and print per "
        "call which messages fire and what each costs in characters, with totals.",
        handlers.replay,
        arguments.replay_arguments,
    ),
    Subcommand(
        "explain",
        "explain a diagnostic code, or list them all",
        "Print a code's summary, an example of the problem and the fix; with no CODE, list "
        "every code.",
        handlers.explain,
        arguments.explain_arguments,
    ),
    Subcommand(
        "package",
        "write the reproducible release archive (refused if check fails)",
        "Check, then write dist/hookmsg-assets-VERSION.tar.gz: the generated files, every "
        "message's delivered text and a manifest of sizes and SHA-256 sums. VERSION is the "
        "content version (default: `git describe --tags --always --dirty`). Times come from "
        "SOURCE_DATE_EPOCH, else the last commit. A dirty tree warns; an existing archive "
        "with different bytes is never replaced.",
        handlers.package,
        arguments.package_arguments,
        formats=True,
    ),
    Subcommand(
        "install-render",
        "print one harness's hook registration with its install tokens filled in",
        "The low-level face of `install`: validate the catalogue, then print the "
        "registration of one harness with ${PYTHON_BIN} and ${HARNESS_ROOT} replaced. "
        + PATH_RULES,
        handlers.install_render,
        arguments.install_render_arguments,
    ),
    Subcommand(
        "install",
        "lay out the install root and merge a harness's registration into a project",
        "Write the dispatcher and assets to the install root (atomically; an existing folder "
        "is replaced only if it is a hookmsg install root), then merge the harness's "
        "registration into the project's settings file without touching anything that is "
        "not ours. A file that is not valid JSON, or that could not be written back exactly, "
        "is refused and left untouched. " + PATH_RULES,
        handlers.install,
        arguments.install_arguments,
    ),
    Subcommand(
        "verify",
        "check that a harness's registration is present, current and complete",
        "Exit 0 when the project's settings file holds our registration, it is what the "
        "registry generates now, and the install root it runs is complete (every file "
        "matches the manifest) and holds this build's content (not stale, not another "
        "repository's); else exit 1 with one line per reason.",
        handlers.verify,
        arguments.project_arguments,
    ),
    Subcommand(
        "uninstall",
        "remove our entries from a harness's settings file",
        "Remove only hookmsg's entries and what install created with them (keys, event "
        "lists, files, folders); every other key and hook stays as it was, byte for byte. "
        "A keyed install root no project uses any more is removed.",
        handlers.uninstall,
        arguments.project_arguments,
    ),
    Subcommand(
        "roots",
        "list the install roots and the projects that use them; --prune the unused",
        "List every install root under the data folder with its source, its content version "
        "and the projects whose settings still run it. --prune removes the keyed roots no "
        "project uses any more.",
        handlers.roots,
        arguments.roots_arguments,
    ),
)
