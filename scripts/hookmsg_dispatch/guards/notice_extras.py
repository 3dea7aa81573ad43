"""The edit-header guard's rarer reading, loaded only when a call needs it: the kind of a
script without an extension, from its `#!` line.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.headers import kind_of

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.guards.headers import Syntax
    from hookmsg_dispatch.project import Project


# A script without an extension (`bin/deploy`) is of its interpreter's kind: the kind of
# this extension, looked up in `kinds`. Version suffixes are dropped (`python3.12`).
_INTERPRETERS = {
    "sh": ".sh",
    "bash": ".sh",
    "dash": ".sh",
    "ksh": ".sh",
    "zsh": ".sh",
    "fish": ".sh",
    "python": ".py",
    "ruby": ".rb",
    "perl": ".pl",
    "node": ".js",
    "deno": ".ts",
    "bun": ".js",
    "php": ".php",
    "lua": ".lua",
    "pwsh": ".ps1",
    "rscript": ".r",
    "tclsh": ".tcl",
}


def by_shebang(
    project: Project, relative: str, kinds: Mapping[str, Any]
) -> tuple[str, Syntax] | None:
    """The kind of an extensionless script, from its `#!` line's interpreter."""
    if "." in relative.rsplit("/", 1)[-1]:
        return None
    first = (project.head(relative, 256) or "").split("\n", 1)[0]
    if not first.startswith("#!"):
        return None
    words = first[2:].split()
    if words and words[0].endswith("/env"):
        words = [word for word in words[1:] if not word.startswith("-")]
    if not words:
        return None
    program = words[0].rsplit("/", 1)[-1].rstrip("0123456789.").lower()
    extension = _INTERPRETERS.get(program)
    return kind_of(kinds, "x" + extension) if extension else None
