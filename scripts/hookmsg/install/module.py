"""`install`, `verify` and `uninstall` for a harness whose registration is a whole file that
hookmsg owns: the xcsh extension module.

xcsh loads every `*.js` in `<project>/.xcsh/extensions/` (the registration's `project_file`)
and in `~/.xcsh/agent/extensions/` (`--user`). Installing writes the module there with the
interpreter and install root filled in; a file in its place that hookmsg did not write (its
first line is not the module's) is never overwritten or removed. `verify` reads the
interpreter and install root back from the installed module's constants.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import EXIT_OK, UsageError
from hookmsg.install import record as records
from hookmsg.install import steps
from hookmsg.install.confine import Target, locate, read_bounded, remove_file
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.install.record import Record
from hookmsg.install.steps import Change, created_file
from hookmsg.install.target import refused
from hookmsg.install.verdict import Verdict
from hookmsg.render.xcsh_module import fill_tokens, render_xcsh_module
from hookmsg.report import note

USER_FILE = ".xcsh/agent/extensions/hookmsg.js"
# The module's first line (the template's): a file that does not start with it is not ours.
MARKER = b"// hookmsg: hook messages for xcsh"
_CONSTANT = re.compile(r'^const (PYTHON|ROOT) = ("(?:[^"\\\n]|\\.)*");$', re.MULTILINE)


@dataclass(frozen=True)
class ModuleFile:
    """Where the module goes: a base folder (the project, or the home folder with
    `--user`) and its path inside it."""

    base: Path
    relative: str


def module_path(
    harness: Harness, project: str, *, user: bool, home: Path | None = None
) -> ModuleFile:
    """The installed module: in the project, or with `user` in xcsh's user folder."""
    registration = harness.registration
    if user:
        folder = home if home is not None else Path.home()
        user_file = registration.user_file if registration and registration.user_file else None
        return ModuleFile(folder, user_file or USER_FILE)
    if registration is None or registration.project_file is None:
        raise UsageError(f"harness '{harness.id}' names no project file for its module")
    return ModuleFile(Path(project), registration.project_file)


def expected_module(harness: Harness, registry: HookRegistry, python: str, root: str) -> bytes:
    """The module as installed for `python` and `root` (each escaped for its string literal)."""
    text = render_xcsh_module(harness, registry)
    return fill_tokens(text, {"PYTHON_BIN": python, "HARNESS_ROOT": root}).encode("utf-8")


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


def _current(where: ModuleFile) -> tuple[Target, bytes | None]:
    """The module's checked place and bytes (None: absent); JsonRefusal when it is not a
    file hookmsg may own, or reaching it would leave the project."""
    target = locate(where.base, where.relative)
    data = read_bounded(target.path, target.display)
    if data is not None and not data.startswith(MARKER):
        raise JsonRefusal(
            Diagnostic(target.display, 1, 1, "I005", "is not hookmsg's module; it is left as it is")
        )
    return target, data


@dataclass(frozen=True)
class ModulePlan:
    change: Change
    record: Record
    previous: str | None  # the root the module ran before


def plan_module(
    harness: Harness,
    registry: HookRegistry,
    where: ModuleFile,
    *,
    tokens: dict[str, str],
    user: bool,
) -> ModulePlan:
    target, old = _current(where)
    found = installed_target(old) if old is not None else None
    previous = found[1] if found is not None else None
    project = os.path.realpath(where.base)
    before = records.load(Path(previous), project, harness.id, user=user) if previous else None
    new = expected_module(harness, registry, tokens["PYTHON_BIN"], tokens["HARNESS_ROOT"])
    start = before if before is not None else Record(project, harness.id, user=user)
    others = [item for item in start.files if item.path != where.relative]
    record = replace(start, files=(*others, created_file(where.relative, new)))
    return ModulePlan(Change(target, old, new), record, previous)


def verify_module(harness: Harness, registry: HookRegistry, where: ModuleFile) -> Verdict:
    try:
        target, data = _current(where)
    except JsonRefusal as error:
        raise refused(error, "verify") from None
    if data is None:
        return Verdict("I007", "absent: the file does not exist", target.display)
    found = installed_target(data)
    if found is None:
        message = "stale: the module names no interpreter and install root"
        return Verdict("I008", message, target.display)
    python, root = found
    if data != expected_module(harness, registry, python, root):
        message = (
            "stale: the module differs from what the registry generates now; "
            "run `hookmsg install` again"
        )
        return Verdict("I008", message, target.display)
    return Verdict(None, f"{target.display}: hookmsg module present and current", "", root)


def uninstall_module(harness: Harness, where: ModuleFile, *, user: bool) -> int:
    try:
        target, data = _current(where)
    except JsonRefusal as error:
        raise refused(error, "uninstall") from None
    if data is None:
        note(f"{target.display}: absent; nothing to uninstall")
        return EXIT_OK
    found = installed_target(data)
    project = os.path.realpath(where.base)
    record = records.load(Path(found[1]), project, harness.id, user=user) if found else None
    remove_file(target.path)
    note(f"{target.display}: removed")
    if record is not None and found is not None:
        steps.undo_created(where.base, record)
        steps.release(found[1], record)
    return EXIT_OK


def refuse_user(user: bool, harness: Harness) -> None:
    """`--user` names xcsh's user folder: it has no meaning for a settings-file harness."""
    if user:
        raise UsageError(f"--user applies to the xcsh module only, not to '{harness.id}'")
