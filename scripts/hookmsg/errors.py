"""The one exception hierarchy, and the one place that maps it to exit codes."""

from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
# Interrupted (Ctrl-C): every output is as it was before the run.
EXIT_INTERRUPTED = 130


class HookmsgError(Exception):
    """Base of every error the pipeline raises on purpose; never shown as a traceback."""

    exit_code = EXIT_FINDINGS


class UsageError(HookmsgError):
    """The command line asked for something that cannot be done (unknown name, missing path)."""

    exit_code = EXIT_USAGE


class ConfigError(HookmsgError):
    """`[tool.hookmsg]` is missing, unreadable or holds a bad setting."""

    exit_code = EXIT_USAGE


class FindingsError(HookmsgError):
    """Validation found problems; the diagnostics were already reported."""

    exit_code = EXIT_FINDINGS


class WriteError(HookmsgError):
    """An output could not be written (full disk, permissions); nothing was replaced."""

    exit_code = EXIT_FINDINGS


def exit_code_for(error: BaseException) -> int:
    if isinstance(error, HookmsgError):
        return error.exit_code
    if isinstance(error, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    return EXIT_FINDINGS


class DeclarationError(HookmsgError):
    """A dispatcher module declares its detectors (`DETECTS`) in a form the build side cannot
    read, or two modules declare one detector: a fault in that code, reported at its line."""

    exit_code = EXIT_USAGE
