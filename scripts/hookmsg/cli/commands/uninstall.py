"""`hookmsg uninstall --harness ID [--project DIR]`: take our entries out of the settings
file, and what install created with them (keys, event lists, the file, its folders, as
its record says); everything else stays as it was, byte for byte."""

from __future__ import annotations

from pathlib import Path

from hookmsg.errors import EXIT_OK
from hookmsg.harnesses.registration_plan import is_module
from hookmsg.install import record as records
from hookmsg.install import steps
from hookmsg.install.confine import remove_file, write_atomic
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.install.merge import only_ours_left
from hookmsg.install.module import module_path, refuse_user, uninstall_module
from hookmsg.install.plan import installed_root, unmerged
from hookmsg.install.skills import uninstall_skills
from hookmsg.install.target import (
    checked_workspace,
    find_harness,
    project_folder,
    read_settings,
    refused,
)
from hookmsg.project.settings import Project
from hookmsg.render.registrations import registration_data
from hookmsg.report import note


def uninstall(
    project: Project, harness_id: str, *, target: str | None = None, user: bool = False
) -> int:
    folder = project_folder(target)
    workspace = checked_workspace(project)
    harness, registry = find_harness(workspace, harness_id)
    if is_module(harness):  # xcsh: a whole module file, not entries in a settings file
        return uninstall_module(harness, module_path(harness, folder, user=user), user=user)
    refuse_user(user, harness)
    uninstall_skills(harness, Path(folder))
    try:
        settings = read_settings(harness, registry, folder)
    except JsonRefusal as error:
        raise refused(error, "uninstall") from None
    if settings.raw is None:
        note(f"{settings.display}: absent; nothing to uninstall")
        return EXIT_OK
    root = installed_root(settings)
    record = records.load(Path(root), folder, harness_id) if root is not None else None
    ours = registration_data(harness, registry)
    left = unmerged(settings, record, ours)
    if left == settings.document:
        note(f"{settings.display}: holds no hookmsg entries; nothing to uninstall")
        return EXIT_OK
    gone = (
        record.settings_created and left == {} if record is not None else only_ours_left(left, ours)
    )
    if gone:
        remove_file(settings.path)
        note(f"{settings.display}: removed (install had created it)")
    else:
        write_atomic(settings.path, settings.render(left))
        note(f"{settings.display}: hookmsg entries removed; everything else kept")
    if record is not None and root is not None:
        steps.undo_created(Path(folder), record)
        steps.release(root, record)
    return EXIT_OK
