"""Paths that end up inside a hook's command line: refuse anything that could change it.

A registered command is one shell line (sh, or PowerShell after `& `) with each path in
double quotes. A path may not start an option (`-`), depend on where the hook runs
(relative, `~`), close or open a quotation (ASCII and Unicode quotation marks, which
PowerShell treats as quotes), or start an expansion (`$`, `%`, backtick, backslash).
"""

from __future__ import annotations

import re
import unicodedata

from hookmsg.errors import UsageError

# A Windows absolute path written with forward slashes (backslashes are refused).
WINDOWS_ABSOLUTE = re.compile(r"^[A-Za-z]:/")

NAMED = {
    "$": "a dollar sign",
    "`": "a backtick",
    "%": "a percent sign",
    "\\": "a backslash",
}
# Quotation marks of any script: the Unicode quotation punctuation classes (Pi, Pf) and
# every character whose name says it is a quotation mark or an apostrophe, plus the
# ASCII ones. PowerShell reads U+2018-U+201E as quotes.
_QUOTE_WORDS = ("QUOTATION", "APOSTROPHE", "GUILLEMET")


def is_quote(char: str) -> bool:
    if char in "\"'":
        return True
    if unicodedata.category(char) in ("Pi", "Pf"):
        return True
    name = unicodedata.name(char, "")
    return any(word in name for word in _QUOTE_WORDS)


def is_control(char: str) -> bool:
    """C0 and C1 controls, DEL, and the format characters (bidi overrides and the like)."""
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def refuse_unsafe_path(option: str, path: str) -> None:
    """Raise UsageError naming `option` and the path when `path` may not go into a command."""
    if not path.strip():
        raise UsageError(f"{option} is empty")
    if path.startswith("-"):
        raise UsageError(f"{option} '{path}' starts with '-', which would read as an option")
    if path.startswith("~"):
        raise UsageError(f"{option} '{path}' starts with '~'; give the absolute path")
    for char in path:
        if char in NAMED:
            raise UsageError(f"{option} '{path}' contains {NAMED[char]}; choose a path without it")
        if is_quote(char):
            raise UsageError(
                f"{option} '{path}' contains the quotation mark U+{ord(char):04X}; "
                "choose a path without it"
            )
        if is_control(char):
            raise UsageError(f"{option} {path!r} contains the control character U+{ord(char):04X}")
    if not path.startswith("/") and not WINDOWS_ABSOLUTE.match(path):
        raise UsageError(
            f"{option} '{path}' is not absolute; a relative path would be resolved against "
            "the project the assistant opened"
        )
