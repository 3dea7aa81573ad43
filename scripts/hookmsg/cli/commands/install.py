"""`hookmsg install --harness ID [--root DIR] [--project DIR] [--python PATH] [--dry-run]
[--strict] [--user] [--into-content-repo]`: lay out the install root, then merge the
registration into the project, and record what was created so uninstall can undo it."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from hookmsg.errors import EXIT_OK, UsageError
from hookmsg.harnesses.registration_plan import is_module
from hookmsg.install import root as install_root
from hookmsg.install import steps
from hookmsg.install.contents import install_root_files
from hookmsg.install.identity import default_root, source_name
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.install.module import ModulePlan, module_path, plan_module, refuse_user
from hookmsg.install.plan import SettingsPlan, plan_settings
from hookmsg.install.skills import install_skills
from hookmsg.install.target import (
    checked_workspace,
    find_harness,
    project_folder,
    refuse_content_repository,
    refused,
    safe_path,
    say_what_it_needs,
)
from hookmsg.project.settings import Project
from hookmsg.report import note


def default_python() -> str:
    """The interpreter behind this one: a virtual environment's base interpreter.

    The dispatcher needs only the standard library, and a hook that names the checkout's
    venv would go quiet (fail open) the day that venv is removed or rebuilt.
    """
    base = getattr(sys, "_base_executable", "") or sys.executable
    return base if Path(base).is_file() and os.access(base, os.X_OK) else sys.executable


def python_path(value: str | None) -> str:
    """`--python`: a bare name is looked up on PATH, a relative path made absolute."""
    if value is None:
        value = default_python()
    elif "/" not in value and not value.startswith("~"):
        found = shutil.which(value)
        if found is None:
            raise UsageError(f"--python '{value}' is not on PATH; give its path")
        value = found
    return safe_path("--python", value, resolve=True)


@dataclass(frozen=True)
class InstallRequest:
    """What `hookmsg install` was asked: the harness, where, and how."""

    harness_id: str
    root: str | None = None  # the install root (default: one named by the content version)
    target: str | None = None  # the project folder (default: the current one)
    python: str | None = None  # the interpreter the hooks run with
    dry_run: bool = False
    strict: bool = False
    user: bool = False
    into_content_repo: bool = False


def install(project: Project, request: InstallRequest) -> int:
    user, strict = request.user, request.strict
    folder = project_folder(request.target)
    if not user:
        refuse_content_repository(project, folder, allowed=request.into_content_repo)
    interpreter = python_path(request.python)
    workspace = checked_workspace(project)
    harness, registry = find_harness(workspace, request.harness_id)
    files = install_root.with_manifest(install_root_files(workspace), source_name(project))
    content = install_root.content_version(files)
    root = request.root
    chosen = root if root is not None else default_root(source_name(project), content)
    where = safe_path("--root", chosen, resolve=True)
    tokens = {"PYTHON_BIN": interpreter, "HARNESS_ROOT": where}
    plan: ModulePlan | SettingsPlan
    try:
        if is_module(harness):  # xcsh: a whole module file, not entries in a settings file
            path = module_path(harness, folder, user=user)
            plan = plan_module(harness, registry, path, tokens=tokens, user=user)
        else:
            refuse_user(user, harness)
            plan = plan_settings(harness, registry, folder, tokens=tokens, strict=strict)
        install_root.check_replaceable(Path(where))
    except JsonRefusal as error:
        raise refused(error, "install") from None
    changes = [plan.change]
    if request.dry_run:
        steps.show(where, files, changes)
        install_skills(harness, Path(folder), files, dry_run=True)
        return EXIT_OK
    try:
        # The steps, in order; each runs only once the ones before it succeeded.
        steps.lay_out_root(where, files)
        made = steps.write_changes(changes)
        record = steps.with_created(plan.record, made)
        steps.keep_record(where, record, plan.previous)
    except JsonRefusal as error:
        raise refused(error, "install") from None
    # The skill and command files the harness loads, beside the registration.
    install_skills(harness, Path(folder), files, dry_run=False)
    display = plan.change.target.display
    note(f"{display}: " + ("updated" if plan.change.changed else "already current"))
    say_what_it_needs(harness)
    return EXIT_OK
