"""What `install`, `verify` and `uninstall` share: the checked catalogue, the harness's
settings file inside the project, reading it without loss and writing it atomically."""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookmsg import __version__
from hookmsg.catalogue import Harness, HookRegistry
from hookmsg.config import Project
from hookmsg.errors import FindingsError, UsageError, WriteError
from hookmsg.installing.jsonfile import DEFAULT_LAYOUT, JsonRefusal, Layout, dump, load, rewrite
from hookmsg.installing.merge import CONTAINERS, Container, check_shape
from hookmsg.installing.pathsafety import refuse_unsafe_path
from hookmsg.report import emit, note
from hookmsg.rules import install as install_rules
from hookmsg.workspace import Workspace, load_workspace, validate_workspace


def checked_workspace(project: Project) -> Workspace:
    """The workspace, after the whole catalogue and every message validated clean."""
    workspace = load_workspace(project)
    errors = [d for d in validate_workspace(workspace) if d.severity == "error"]
    if errors:
        emit(errors, "text")
        raise FindingsError(
            f"refused: the catalogue or the messages have {len(errors)} problem(s); "
            "nothing is rendered from them until `hookmsg validate` passes"
        )
    if workspace.catalogue.harnesses is None or workspace.catalogue.registry is None:
        raise FindingsError("the catalogue does not load; run `hookmsg validate`")
    return workspace


def find_harness(workspace: Workspace, harness_id: str) -> tuple[Harness, HookRegistry]:
    harnesses = workspace.catalogue.harnesses
    registry = workspace.catalogue.registry
    if harnesses is None or registry is None:
        raise FindingsError("the catalogue does not load; run `hookmsg validate`")
    known = [h.id for h in harnesses.harnesses if h.registration is not None]
    harness = next((h for h in harnesses.harnesses if h.id == harness_id), None)
    if harness is None or harness.registration is None:
        raise UsageError(f"unknown harness '{harness_id}'; known: {', '.join(known)}")
    return harness, registry


def fill_tokens(value: Any, tokens: dict[str, str]) -> Any:
    """`value` with every `${TOKEN}` of `tokens` replaced, in every string inside it."""
    if isinstance(value, str):
        for token, replacement in tokens.items():
            value = value.replace("${" + token + "}", replacement)
        return value
    if isinstance(value, list):
        return [fill_tokens(item, tokens) for item in value]
    if isinstance(value, dict):
        return {key: fill_tokens(item, tokens) for key, item in value.items()}
    return value


def default_root(environ: dict[str, str] | None = None) -> str:
    """`$XDG_DATA_HOME/hookmsg/<version>` when XDG_DATA_HOME is absolute, else under
    ~/.local/share."""
    env = dict(os.environ) if environ is None else environ
    base = env.get("XDG_DATA_HOME", "")
    folder = Path(base) if base.startswith("/") else Path.home() / ".local" / "share"
    return str(folder / "hookmsg" / __version__)


def safe_path(option: str, value: str) -> str:
    """`value` checked for a command line, without a trailing slash."""
    refuse_unsafe_path(option, value)
    return value.rstrip("/") or "/"


def project_folder(value: str | None) -> str:
    """`--project` (default: the working directory): a safe path to an existing folder."""
    folder = safe_path("--project", value if value is not None else str(Path.cwd()))
    if not Path(folder).is_dir():
        raise UsageError(f"--project '{folder}' is not a folder")
    return folder


@dataclass(frozen=True)
class Settings:
    """The harness's settings file inside a project, as it is now."""

    harness: Harness
    registry: HookRegistry
    path: Path
    display: str
    container: Container
    raw: bytes | None  # None: the file does not exist
    document: dict[str, Any]
    layout: Layout

    @property
    def script(self) -> str:
        return self.registry.dispatcher.script

    def render(self, document: dict[str, Any]) -> bytes:
        """`document` as this file's bytes: unchanged members byte for byte."""
        if self.raw is None:
            return dump(document, self.layout).encode("utf-8")
        text = rewrite(self.raw.decode("utf-8"), self.document, document, self.layout)
        try:
            same = json.loads(text) == document
        except ValueError:
            same = False
        return (text if same else dump(document, self.layout)).encode("utf-8")


def read_settings(harness: Harness, registry: HookRegistry, project: str) -> Settings:
    """The settings file; JsonRefusal when it cannot be merged into without loss."""
    registration = harness.registration
    if registration is None or registration.project_file is None:
        where = registration.installed_as if registration is not None else "nowhere"
        raise UsageError(
            f"harness '{harness.id}' is not installed into a project ({where}); "
            "use `hookmsg install-render` for it"
        )
    path = Path(project) / registration.project_file
    display = str(path)
    container = CONTAINERS[registration.format]
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise JsonRefusal(
            install_rules.unmergeable_shape(
                display, 1, 1, "is not a regular file (a link or a folder)"
            )
        )
    try:
        raw: bytes | None = path.read_bytes()
    except FileNotFoundError:
        raw = None
    except OSError as error:
        raise JsonRefusal(
            install_rules.not_json(display, 1, 1, f"cannot be read: {error.strerror}")
        ) from None
    if raw is None:
        return Settings(harness, registry, path, display, container, None, {}, DEFAULT_LAYOUT)
    document, layout = load(display, raw)
    check_shape(document, container, display, registration.top_level_keys)
    return Settings(harness, registry, path, display, container, raw, document, layout)


def refused(error: JsonRefusal, verb: str) -> FindingsError:
    emit([error.diagnostic], "text")
    return FindingsError(f"{verb} refused; {error.diagnostic.path} is left untouched")


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` with `data` through a temporary file beside it; keep its mode."""
    try:
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        temporary = Path(name)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            temporary.chmod(mode)
            temporary.replace(path)
        finally:
            with contextlib.suppress(OSError):
                temporary.unlink()
    except OSError as error:
        raise WriteError(f"cannot write {path}: {error.strerror}; it is unchanged") from None


def remove_file(path: Path) -> None:
    try:
        path.unlink()
    except OSError as error:
        raise WriteError(f"cannot remove {path}: {error.strerror}") from None


def diff(display: str, old: bytes | None, new: bytes | None) -> str:
    """A unified diff of one file (absent on either side: empty)."""
    before = (old or b"").decode("utf-8").splitlines(keepends=True)
    after = (new or b"").decode("utf-8").splitlines(keepends=True)
    lines = difflib.unified_diff(
        before,
        after,
        fromfile=display if old is not None else "/dev/null",
        tofile=display if new is not None else "/dev/null",
    )
    return "".join(
        line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines
    )


def put_in_place(
    root: str,
    files: dict[str, bytes],
    *,
    path: Path,
    display: str,
    old: bytes | None,
    new: bytes,
    dry_run: bool,
) -> bool:
    """Lay out the install root unless it is current, then write the harness's file unless
    it holds `new` already; a dry run prints the diff instead and changes nothing.

    Returns whether the file changes. The root goes first: a registration must
    never point at an install root that is not there yet.
    """
    from hookmsg.installing import root as install_root

    current = install_root.is_current(Path(root), files)
    changed = new != old
    if dry_run:
        note(
            f"install root {root}: "
            + ("already current" if current else f"would write {len(files)} files")
        )
        if changed:
            sys.stdout.write(diff(display, old, new))
        else:
            note(f"{display}: already current")
        note("dry run: nothing was changed")
        return changed
    if not current:
        try:
            install_root.lay_out(Path(root), files)
        except JsonRefusal as error:
            raise refused(error, "install") from None
    if changed:
        write_atomic(path, new)
    note(f"install root {root}: " + ("already current" if current else f"{len(files)} files"))
    return changed


def say_what_it_needs(harness: Harness) -> None:
    """The one line naming the trust step or opt-in without which the harness runs no
    hook (`install_note`), if it has one."""
    registration = harness.registration
    if registration is not None and registration.install_note:
        note(registration.install_note)
