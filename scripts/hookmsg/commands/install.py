"""`hookmsg install --harness ID [--root DIR] [--project DIR] [--python PATH] [--dry-run]
[--strict]`: lay out the install root, then merge the registration into the project."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hookmsg.config import Project
from hookmsg.errors import EXIT_OK
from hookmsg.install_root import install_root_files
from hookmsg.installing import root as install_root
from hookmsg.installing.jsonfile import JsonRefusal
from hookmsg.installing.merge import merge
from hookmsg.installing.module import install_module, module_path, refuse_user
from hookmsg.installing.target import (
    checked_workspace,
    default_root,
    fill_tokens,
    find_harness,
    project_folder,
    put_in_place,
    read_settings,
    refused,
    safe_path,
    say_what_it_needs,
)
from hookmsg.registration_plan import is_module
from hookmsg.render.registrations import registration_data
from hookmsg.report import note


def default_python() -> str:
    """The interpreter behind this one: a virtual environment's base interpreter.

    The dispatcher needs only the standard library, and a hook that names the checkout's
    venv would go quiet (fail open) the day that venv is removed or rebuilt.
    """
    base = getattr(sys, "_base_executable", "") or sys.executable
    return base if Path(base).is_file() and os.access(base, os.X_OK) else sys.executable


def install(
    project: Project,
    harness_id: str,
    *,
    root: str | None = None,
    target: str | None = None,
    python: str | None = None,
    dry_run: bool = False,
    strict: bool = False,
    user: bool = False,
) -> int:
    root = safe_path("--root", root if root is not None else default_root())
    target = project_folder(target)
    python = safe_path("--python", python if python is not None else default_python())
    workspace = checked_workspace(project)
    harness, registry = find_harness(workspace, harness_id)
    if is_module(harness):  # xcsh: a whole module file, not entries in a settings file
        return install_module(
            harness,
            registry,
            install_root.with_manifest(install_root_files(workspace)),
            root=root,
            path=module_path(harness, target, user=user),
            python=python,
            dry_run=dry_run,
        )
    refuse_user(user, harness)
    try:
        settings = read_settings(harness, registry, target)
        install_root.check_replaceable(Path(root))
    except JsonRefusal as error:
        raise refused(error, "install") from None
    ours = fill_tokens(
        registration_data(harness, registry, strict=strict),
        {"PYTHON_BIN": python, "HARNESS_ROOT": root},
    )
    merged = merge(settings.document, ours, settings.container, settings.script)
    new = settings.render(merged)
    files = install_root.with_manifest(install_root_files(workspace))
    changed = put_in_place(
        root,
        files,
        path=settings.path,
        display=settings.display,
        old=settings.raw,
        new=new,
        dry_run=dry_run,
    )
    if dry_run:
        return EXIT_OK
    note(f"{settings.display}: " + ("updated" if changed else "already current"))
    say_what_it_needs(harness)
    return EXIT_OK
