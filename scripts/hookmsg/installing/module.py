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
import re
from pathlib import Path

from hookmsg.catalogue import Harness, HookRegistry
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK, UsageError
from hookmsg.installing import root as install_root
from hookmsg.installing.jsonfile import JsonRefusal
from hookmsg.installing.target import put_in_place, refused, remove_file
from hookmsg.render.xcsh_module import fill_tokens, render_xcsh_module
from hookmsg.report import emit, note
from hookmsg.rules import install as install_rules
from hookmsg.rules.finding import Finding

USER_FILE = ".xcsh/agent/extensions/hookmsg.js"
# The module's first line (the template's): a file that does not start with it is not ours.
MARKER = b"// hookmsg: hook messages for xcsh"
_CONSTANT = re.compile(r'^const (PYTHON|ROOT) = ("(?:[^"\\\n]|\\.)*");$', re.MULTILINE)


def module_path(harness: Harness, project: str, *, user: bool, home: Path | None = None) -> Path:
    """The installed module: in the project, or with `user` in xcsh's user folder."""
    registration = harness.registration
    if user:
        folder = home if home is not None else Path.home()
        return folder / (
            registration.user_file if registration and registration.user_file else USER_FILE
        )
    if registration is None or registration.project_file is None:
        raise UsageError(f"harness '{harness.id}' names no project file for its module")
    return Path(project) / registration.project_file


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


def _current(path: Path) -> bytes | None:
    """The file's bytes (None: absent); JsonRefusal when it is not a file hookmsg may own."""
    display = str(path)
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise JsonRefusal(
            install_rules.unmergeable_shape(
                display, 1, 1, "is not a regular file (a link or a folder)"
            )
        )
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise JsonRefusal(
            install_rules.not_json(display, 1, 1, f"cannot be read: {error.strerror}")
        ) from None
    if not data.startswith(MARKER):
        raise JsonRefusal(
            install_rules.unmergeable_shape(
                display, 1, 1, "is not hookmsg's module; it is left as it is"
            )
        )
    return data


def install_module(
    harness: Harness,
    registry: HookRegistry,
    files: dict[str, bytes],
    *,
    root: str,
    path: Path,
    python: str,
    dry_run: bool,
) -> int:
    try:
        old = _current(path)
        install_root.check_replaceable(Path(root))
    except JsonRefusal as error:
        raise refused(error, "install") from None
    new = expected_module(harness, registry, python, root)
    put_in_place(root, files, path=path, display=str(path), old=old, new=new, dry_run=dry_run)
    if dry_run:
        return EXIT_OK
    note(f"{path}: " + ("already current" if new == old else "written"))
    return EXIT_OK


def verify_module(harness: Harness, registry: HookRegistry, path: Path) -> int:
    def report(finding: Finding, message: str, where: str = str(path)) -> int:
        emit([finding(where, 1, 1, message)], "text")
        return EXIT_FINDINGS

    try:
        data = _current(path)
    except JsonRefusal as error:
        raise refused(error, "verify") from None
    if data is None:
        return report(install_rules.absent, "absent: the file does not exist")
    target = installed_target(data)
    if target is None:
        return report(
            install_rules.stale, "stale: the module names no interpreter and install root"
        )
    python, root = target
    if data != expected_module(harness, registry, python, root):
        return report(
            install_rules.stale,
            "stale: the module differs from what the registry generates now; "
            "run `hookmsg install` again",
        )
    problems = install_root.problems(Path(root))
    if not problems and not (Path(root) / registry.dispatcher.script).is_file():
        problems = [f"the dispatcher {root}/{registry.dispatcher.script} is missing"]
    if problems:
        emit(
            [install_rules.install_root_broken(root, 1, 1, problem) for problem in problems], "text"
        )
        return EXIT_FINDINGS
    note(f"{path}: hookmsg module present and current")
    note(f"install root {root}: complete")
    return EXIT_OK


def uninstall_module(path: Path) -> int:
    try:
        data = _current(path)
    except JsonRefusal as error:
        raise refused(error, "uninstall") from None
    if data is None:
        note(f"{path}: absent; nothing to uninstall")
        return EXIT_OK
    remove_file(path)
    note(f"{path}: removed")
    return EXIT_OK


def refuse_user(user: bool, harness: Harness) -> None:
    """`--user` names xcsh's user folder: it has no meaning for a settings-file harness."""
    if user:
        raise UsageError(f"--user applies to the xcsh module only, not to '{harness.id}'")
