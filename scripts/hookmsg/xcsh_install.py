"""Where the xcsh module is installed, and how an installed copy is recognised and read back.

xcsh loads every `*.js` in `<project>/.xcsh/extensions/` and `~/.xcsh/agent/extensions/`,
so installing is writing one whole file there, which hookmsg owns: it is recognised by its
first line, and `verify` reads the interpreter and install root back from its constants.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from hookmsg.catalogue import Harness, HookRegistry
from hookmsg.render.xcsh_module import fill_tokens, render_xcsh_module

PROJECT_FILE = ".xcsh/extensions/hookmsg.js"
USER_FILE = ".xcsh/agent/extensions/hookmsg.js"
# The module's first line (the template's): a file that does not start with it is not ours.
MARKER = b"// hookmsg: hook messages for xcsh"
_CONSTANT = re.compile(r'^const (PYTHON|ROOT) = ("(?:[^"\\\n]|\\.)*");$', re.MULTILINE)


def module_path(project: str, *, user: bool = False, home: Path | None = None) -> Path:
    """The installed module: in the project, or with `user` in xcsh's user folder."""
    if user:
        return (home if home is not None else Path.home()) / USER_FILE
    return Path(project) / PROJECT_FILE


def expected_module(harness: Harness, registry: HookRegistry, python: str, root: str) -> bytes:
    """The module as it is installed for `python` and `root`."""
    text = render_xcsh_module(harness, registry)
    return fill_tokens(text, {"PYTHON_BIN": python, "HARNESS_ROOT": root}).encode("utf-8")


def is_ours(data: bytes) -> bool:
    return data.startswith(MARKER)


def installed_target(data: bytes) -> tuple[str, str] | None:
    """(interpreter, install root) that an installed module runs; None if it names neither."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    found: dict[str, str] = {}
    for match in _CONSTANT.finditer(text):
        try:
            value = json.loads(match.group(2))
        except ValueError:
            return None
        if not isinstance(value, str) or match.group(1) in found:
            return None
        found[match.group(1)] = value
    if set(found) != {"PYTHON", "ROOT"} or any("${" in value for value in found.values()):
        return None
    return found["PYTHON"], found["ROOT"]
