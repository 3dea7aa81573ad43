"""`hookmsg uninstall --harness ID [--project DIR]`: take our entries out of the settings
file; everything else stays as it was. The install root is left in place."""

from __future__ import annotations

from pathlib import Path

from hookmsg.config import Project
from hookmsg.errors import EXIT_OK
from hookmsg.installing.jsonfile import JsonRefusal
from hookmsg.installing.merge import only_ours_left, remove
from hookmsg.installing.module import module_path, refuse_user, uninstall_module
from hookmsg.installing.skills import uninstall_skills
from hookmsg.installing.target import (
    checked_workspace,
    find_harness,
    project_folder,
    read_settings,
    refused,
    remove_file,
    write_atomic,
)
from hookmsg.registration_plan import is_module
from hookmsg.render.registrations import registration_data
from hookmsg.report import note


def uninstall(
    project: Project, harness_id: str, *, target: str | None = None, user: bool = False
) -> int:
    target = project_folder(target)
    workspace = checked_workspace(project)
    harness, registry = find_harness(workspace, harness_id)
    if is_module(harness):  # xcsh: a whole module file, not entries in a settings file
        return uninstall_module(module_path(harness, target, user=user))
    refuse_user(user, harness)
    uninstall_skills(harness, Path(target))
    try:
        settings = read_settings(harness, registry, target)
    except JsonRefusal as error:
        raise refused(error, "uninstall") from None
    if settings.raw is None:
        note(f"{settings.display}: absent; nothing to uninstall")
        return EXIT_OK
    left = remove(settings.document, settings.container, settings.script)
    if left == settings.document:
        note(f"{settings.display}: holds no hookmsg entries; nothing to uninstall")
        return EXIT_OK
    if only_ours_left(left, registration_data(harness, registry)):
        remove_file(settings.path)
        note(f"{settings.display}: removed (it held only hookmsg entries)")
    else:
        write_atomic(settings.path, settings.render(left))
        note(f"{settings.display}: hookmsg entries removed; everything else kept")
    return EXIT_OK
