"""`hookmsg verify --harness ID [--project DIR]`: is our registration present, current, and
is the install root it runs complete? Exit 0 when all three hold; else 1, one line each."""

from __future__ import annotations

from pathlib import Path

from hookmsg.config import Project
from hookmsg.errors import EXIT_FINDINGS, EXIT_OK
from hookmsg.installing import root as install_root
from hookmsg.installing.jsonfile import JsonRefusal
from hookmsg.installing.merge import HOOKS, command_target, merge, our_commands
from hookmsg.installing.module import module_path, refuse_user, verify_module
from hookmsg.installing.target import (
    checked_workspace,
    fill_tokens,
    find_harness,
    project_folder,
    read_settings,
    refused,
    say_what_it_needs,
)
from hookmsg.registration_plan import is_module
from hookmsg.render.registrations import registration_data
from hookmsg.report import emit, note
from hookmsg.rules import install as install_rules
from hookmsg.rules.finding import Finding


def verify(
    project: Project, harness_id: str, *, target: str | None = None, user: bool = False
) -> int:
    target = project_folder(target)
    workspace = checked_workspace(project)
    harness, registry = find_harness(workspace, harness_id)
    if is_module(harness):  # xcsh: a whole module file, not entries in a settings file
        return verify_module(harness, registry, module_path(harness, target, user=user))
    refuse_user(user, harness)
    try:
        settings = read_settings(harness, registry, target)
    except JsonRefusal as error:
        raise refused(error, "verify") from None

    def report(finding: Finding, message: str, path: str = settings.display) -> int:
        emit([finding(path, 1, 1, message)], "text")
        return EXIT_FINDINGS

    if settings.raw is None:
        return report(install_rules.absent, "absent: the file does not exist")
    commands = our_commands(settings.document, settings.script)
    if not commands:
        return report(
            install_rules.absent, f"absent: the file holds no hookmsg registration for {harness_id}"
        )
    targets = {command_target(command) for command in commands}
    if len(targets) != 1 or None in targets:
        return report(
            install_rules.stale, "stale: the registration runs more than one install root"
        )
    found = next(iter(targets))
    assert found is not None
    python, dispatcher = found
    root = dispatcher[: -len("/" + settings.script)]
    strict = any(" --strict " in command for command in commands)
    expected = fill_tokens(
        registration_data(harness, registry, strict=strict),
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
        return report(
            install_rules.stale,
            f"stale: the registration differs from what the registry generates now{which}; "
            "run `hookmsg install` again",
        )
    problems = install_root.problems(Path(root))
    if not problems and not Path(dispatcher).is_file():
        problems = [f"the dispatcher {dispatcher} is missing"]
    if problems:
        emit(
            [install_rules.install_root_broken(root, 1, 1, problem) for problem in problems], "text"
        )
        return EXIT_FINDINGS
    note(f"{settings.display}: hookmsg registration present and current")
    note(f"install root {root}: complete")
    say_what_it_needs(harness)  # present and current, yet idle until this is done
    return EXIT_OK
