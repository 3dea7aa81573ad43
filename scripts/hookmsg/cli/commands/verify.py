"""`hookmsg verify --harness ID [--project DIR]`: is our registration present and current,
is the install root it runs complete, and does it hold what this build would install
(not another build, not another repository's content)? Exit 0 when all hold; else 1,
one line each."""

from __future__ import annotations

from hookmsg.errors import EXIT_FINDINGS, EXIT_OK
from hookmsg.harnesses.registration_plan import is_module
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.install.module import module_path, refuse_user, verify_module
from hookmsg.install.target import (
    checked_workspace,
    find_harness,
    project_folder,
    read_settings,
    refused,
    say_what_it_needs,
)
from hookmsg.install.verdict import root_findings, verify_settings
from hookmsg.project.settings import Project
from hookmsg.report import emit, note


def verify(
    project: Project, harness_id: str, *, target: str | None = None, user: bool = False
) -> int:
    folder = project_folder(target)
    workspace = checked_workspace(project)
    harness, registry = find_harness(workspace, harness_id)
    if is_module(harness):  # xcsh: a whole module file, not entries in a settings file
        verdict = verify_module(harness, registry, module_path(harness, folder, user=user))
    else:
        refuse_user(user, harness)
        try:
            settings = read_settings(harness, registry, folder)
        except JsonRefusal as error:
            raise refused(error, "verify") from None
        verdict = verify_settings(settings, harness_id)
    finding = verdict.finding()
    if finding is not None or verdict.root is None:
        assert finding is not None
        emit([finding], "text")
        return EXIT_FINDINGS
    fix = f"run `hookmsg install --harness {harness_id} --project {folder}`" + (
        " --user" if user else ""
    )
    found = root_findings(project, workspace, verdict.root, registry.dispatcher.script, fix)
    if found:
        emit(found, "text")
        return EXIT_FINDINGS
    note(verdict.message)
    note(f"install root {verdict.root}: complete, and holds this build's content")
    say_what_it_needs(harness)  # present and current, yet idle until this is done
    return EXIT_OK
