"""`hookmsg verify --harness ID [--project DIR]`: is our registration present and current,
is the install root it runs complete, and does it hold what this build would install
(not another build, not another repository's content)? Exit 0 when all hold; else 1,
one line each."""

from __future__ import annotations

from pathlib import Path

from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK
from hookmsg.harnesses.registration_plan import is_module
from hookmsg.install import root as install_root
from hookmsg.install import rules as install_rules
from hookmsg.install.contents import install_root_files
from hookmsg.install.identity import source_name
from hookmsg.install.jsonfile import JsonRefusal
from hookmsg.install.merge import HOOKS, command_target, merge, our_commands
from hookmsg.install.module import Verdict, module_path, refuse_user, verify_module
from hookmsg.install.target import (
    Settings,
    checked_workspace,
    fill_tokens,
    find_harness,
    project_folder,
    read_settings,
    refused,
    say_what_it_needs,
)
from hookmsg.pipeline.workspace import Workspace
from hookmsg.project.config import Project
from hookmsg.render.registrations import registration_data
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
        verdict = _verify_settings(settings, harness_id)
    if verdict.finding is not None or verdict.root is None:
        assert verdict.finding is not None
        emit([verdict.finding(verdict.where, 1, 1, verdict.message)], "text")
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


def _verify_settings(settings: Settings, harness_id: str) -> Verdict:
    display = settings.display
    if settings.raw is None:
        return Verdict(install_rules.absent, "absent: the file does not exist", display)
    commands = our_commands(settings.document, settings.script)
    if not commands:
        message = f"absent: the file holds no hookmsg registration for {harness_id}"
        return Verdict(install_rules.absent, message, display)
    targets = {command_target(command) for command in commands}
    found = next(iter(targets))
    if len(targets) != 1 or found is None:
        message = "stale: the registration runs more than one install root"
        return Verdict(install_rules.stale, message, display)
    python, dispatcher = found
    root = dispatcher[: -len("/" + settings.script)]
    strict = any(" --strict " in command for command in commands)
    expected = fill_tokens(
        registration_data(settings.harness, settings.registry, strict=strict),
        {"PYTHON_BIN": python, "HARNESS_ROOT": root},
    )
    merged = merge(settings.document, expected, settings.container, settings.script)
    if merged != settings.document:
        before, after = settings.document.get(HOOKS), merged.get(HOOKS)
        events = (
            sorted(k for k in {*before, *after} if before.get(k) != after.get(k))
            if isinstance(before, dict) and isinstance(after, dict)
            else []
        )
        which = f" ({', '.join(events)})" if events else ""
        message = (
            f"stale: the registration differs from what the registry generates now{which}; "
            "run `hookmsg install` again"
        )
        return Verdict(install_rules.stale, message, display)
    return Verdict(None, f"{display}: hookmsg registration present and current", "", root)


def root_findings(
    project: Project, workspace: Workspace, root: str, script: str, fix: str
) -> list[Diagnostic]:
    """Why the root is not complete (I009) or not this build's content (I010, I011)."""
    problems = install_root.problems(Path(root))
    if not problems and not (Path(root) / script).is_file():
        problems = [f"the dispatcher {root}/{script} is missing"]
    found = [install_rules.install_root_broken(root, 1, 1, problem) for problem in problems]
    manifest = install_root.load_manifest(Path(root))
    if manifest is None:
        return found
    source = source_name(project)
    files = install_root.with_manifest(install_root_files(workspace), source)
    content = install_root.content_version(files)
    if manifest.source is None or manifest.content is None:
        message = "stale: the root records no source or content version (an older install)"
        found.append(install_rules.stale_content(root, 1, 1, f"{message}; {fix}"))
    elif manifest.source != source:
        message = (
            f"foreign: the root holds content from '{manifest.source}' (build "
            f"{manifest.content[:16]}), not from '{source}'"
        )
        found.append(install_rules.foreign_content(root, 1, 1, f"{message}; {fix}"))
    elif manifest.content != content:
        message = (
            f"stale: the root holds build {manifest.content[:16]} of '{source}'; the "
            f"current build is {content[:16]}"
        )
        found.append(install_rules.stale_content(root, 1, 1, f"{message}; {fix}"))
    return found
