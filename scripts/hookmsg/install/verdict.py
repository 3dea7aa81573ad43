"""What `verify` finds of a harness's registration and of the install root it runs.

A registration in a settings file is absent (I007), stale (I008) or present and current; the
install root it runs is complete (else I009) and holds this build's content, not another
build's (I010) nor another repository's (I011). The module registration (`module.py`) gives
its verdict in the same shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic
from hookmsg.install import root as install_root
from hookmsg.install.contents import install_root_files
from hookmsg.install.identity import source_name
from hookmsg.install.merge import HOOKS, command_target, merge, our_commands
from hookmsg.install.target import HarnessSettingsFile, fill_tokens
from hookmsg.pipeline.workspace import Workspace
from hookmsg.project.settings import Project
from hookmsg.render.registrations import registration_data


@dataclass(frozen=True)
class Verdict:
    """What verify found of a registration: the code of the finding (None: present and
    current), the text that says what was found, where, and the install root it runs."""

    code: Code | None
    message: str
    where: str
    root: str | None = None

    def finding(self) -> Diagnostic | None:
        """The finding, or None when the registration is present and current."""
        if self.code is None:
            return None
        return Diagnostic(self.where, 1, 1, self.code, self.message)


def verify_settings(settings: HarnessSettingsFile, harness_id: str) -> Verdict:
    display = settings.display
    if settings.raw is None:
        return Verdict("I007", "absent: the file does not exist", display)
    commands = our_commands(settings.document, settings.script)
    if not commands:
        message = f"absent: the file holds no hookmsg registration for {harness_id}"
        return Verdict("I007", message, display)
    targets = {command_target(command) for command in commands}
    found = next(iter(targets))
    if len(targets) != 1 or found is None:
        message = "stale: the registration runs more than one install root"
        return Verdict("I008", message, display)
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
        return Verdict("I008", message, display)
    return Verdict(None, f"{display}: hookmsg registration present and current", "", root)


def root_findings(
    project: Project, workspace: Workspace, root: str, script: str, fix: str
) -> list[Diagnostic]:
    """Why the root is not complete (I009) or not this build's content (I010, I011)."""
    problems = install_root.problems(Path(root))
    if not problems and not (Path(root) / script).is_file():
        problems = [f"the dispatcher {root}/{script} is missing"]
    found = [Diagnostic(root, 1, 1, "I009", problem) for problem in problems]
    manifest = install_root.load_manifest(Path(root))
    if manifest is None:
        return found
    source = source_name(project)
    files = install_root.with_manifest(install_root_files(workspace), source)
    content = install_root.content_version(files)
    if manifest.source is None or manifest.content is None:
        message = "stale: the root records no source or content version (an older install)"
        found.append(Diagnostic(root, 1, 1, "I010", f"{message}; {fix}"))
    elif manifest.source != source:
        message = (
            f"foreign: the root holds content from '{manifest.source}' (build "
            f"{manifest.content[:16]}), not from '{source}'"
        )
        found.append(Diagnostic(root, 1, 1, "I011", f"{message}; {fix}"))
    elif manifest.content != content:
        message = (
            f"stale: the root holds build {manifest.content[:16]} of '{source}'; the "
            f"current build is {content[:16]}"
        )
        found.append(Diagnostic(root, 1, 1, "I010", f"{message}; {fix}"))
    return found
