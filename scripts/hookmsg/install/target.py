"""What `install`, `verify` and `uninstall` share: the checked catalogue, the harness's
settings file inside the project (reached without leaving it), read without loss."""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hookmsg.catalogue.models import Harness, HookRegistry
from hookmsg.errors import FindingsError, UsageError
from hookmsg.install.confine import Target, locate, read_bounded
from hookmsg.install.jsonfile import DEFAULT_LAYOUT, JsonRefusal, Layout, dump, load, rewrite
from hookmsg.install.merge import CONTAINERS, Container, check_shape
from hookmsg.install.pathsafety import refuse_unsafe_path
from hookmsg.pipeline.workspace import Workspace, load_workspace, validate_workspace
from hookmsg.project.settings import Project
from hookmsg.report import emit, note

DRIVE = re.compile(r"^[A-Za-z]:")  # a Windows drive: absolute (`C:/x`) or drive-relative


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


def safe_path(option: str, value: str, *, resolve: bool = False) -> str:
    """`value` checked for a command line, without a trailing slash; with `resolve` a
    relative path is first made absolute against the working directory."""
    # A relative path is made absolute here; `C:x` (relative to a drive) is left to refuse.
    plain = value.strip() and not value.startswith(("/", "~", "-"))
    if resolve and plain and not DRIVE.match(value):
        value = str(Path.cwd() / value)
        value = os.path.normpath(value)
    refuse_unsafe_path(option, value)
    return value.rstrip("/") or "/"


def project_folder(value: str | None) -> str:
    """`--project` (default: the working directory), made absolute: an existing folder."""
    folder = safe_path("--project", value if value is not None else str(Path.cwd()), resolve=True)
    if not Path(folder).is_dir():
        raise UsageError(f"--project '{folder}' is not a folder")
    return folder


def refuse_content_repository(project: Project, folder: str, *, allowed: bool) -> None:
    """Installing into the content repository itself is almost always a slip (no
    `--project`, or `--project .` from inside it): refused unless asked for."""
    if allowed:
        return
    if os.path.realpath(folder) == os.path.realpath(project.root):
        raise UsageError(
            f"{folder} is the content repository itself; give --project DIR (the project "
            "to install into), or --into-content-repo to install here on purpose"
        )


@dataclass(frozen=True)
class HarnessSettingsFile:
    """The harness's settings file inside a project, as it is now."""

    harness: Harness
    registry: HookRegistry
    target: Target  # where it is, every folder on the way checked
    container: Container
    raw: bytes | None  # None: the file does not exist
    document: dict[str, Any]
    layout: Layout

    @property
    def path(self) -> Path:
        return self.target.path

    @property
    def display(self) -> str:
        return self.target.display

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


def container_of(harness: Harness, registry: HookRegistry) -> Container:
    """How the format holds its hooks, read off the registration it generates: an object
    of event lists, or one list (a harness added as data needs no table entry)."""
    registration = harness.registration
    if registration is not None and registration.format in CONTAINERS:
        return CONTAINERS[registration.format]
    from hookmsg.render.registrations import registration_data

    hooks = registration_data(harness, registry).get("hooks")
    return "list" if isinstance(hooks, list) else "events"


def read_settings(harness: Harness, registry: HookRegistry, project: str) -> HarnessSettingsFile:
    """The settings file; JsonRefusal when it cannot be merged into without loss, or when
    reaching it would leave the project (a linked folder) or read a FIFO or device."""
    registration = harness.registration
    if registration is None or registration.project_file is None:
        where = registration.installed_as if registration is not None else "nowhere"
        raise UsageError(
            f"harness '{harness.id}' is not installed into a project ({where}); "
            "use `hookmsg install-render` for it"
        )
    target = locate(Path(project), registration.project_file)
    container = container_of(harness, registry)
    raw = read_bounded(target.path, target.display)
    if raw is None:
        return HarnessSettingsFile(harness, registry, target, container, None, {}, DEFAULT_LAYOUT)
    document, layout = load(target.display, raw)
    check_shape(document, container, target.display, registration.top_level_keys)
    return HarnessSettingsFile(harness, registry, target, container, raw, document, layout)


def refused(error: JsonRefusal, verb: str) -> FindingsError:
    emit([error.diagnostic], "text")
    return FindingsError(f"{verb} refused; {error.diagnostic.path} is left untouched")


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


def say_what_it_needs(harness: Harness) -> None:
    """The one line naming the trust step or opt-in without which the harness runs no
    hook (`install_note`), if it has one."""
    registration = harness.registration
    if registration is not None and registration.install_note:
        note(registration.install_note)
