"""The pipeline: load the sources once, render the skill index, and run every rule family.

The layer above both the rules and the renderers (see ARCHITECTURE.md): it loads the
catalogue (`loading.py`) and the messages, renders the skill index (a generated message
the message rules check too), and hands the renderers a fully loaded `LoadedProject`
(`Workspace.loaded()`). Within one `doit` run, `share_loads` makes every task share one
load and one validation.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from hookmsg.catalogue.models import PartialCatalogue
from hookmsg.catalogue.rules import wiring as wiring_rules
from hookmsg.diagnostics import Diagnostic, sort_diagnostics
from hookmsg.errors import UsageError
from hookmsg.inputs import rules as files
from hookmsg.inputs.paths import is_inside, one_run, real
from hookmsg.inputs.source import SourceText, read_source
from hookmsg.messages.message import Message, is_repository_path, parse_message, parse_text
from hookmsg.messages.referenced import look_up
from hookmsg.messages.rules.family import MessageContext, check_message
from hookmsg.pipeline.families import check_project
from hookmsg.pipeline.loading import load_catalogue
from hookmsg.project.settings import Project, share_projects
from hookmsg.render.loaded import (
    SKILL_INDEX,
    SKILL_INDEX_FILE,
    LoadedCatalogue,
    LoadedProject,
    SkillIndex,
)
from hookmsg.render.skill_index import render_skill_index


@dataclass
class Workspace:
    """The loaded project: its sources read and parsed once, with what could not be loaded.

    The one loaded project of a run. The project-level rules take it (`families.FAMILIES`),
    and every file they judge was read while loading it; the renderers take its complete
    form, `loaded()`, which is the same project once every catalogue part has loaded (a
    renderer cannot be handed a part that is missing). `context_for` gives the view of one
    message that the message rules read.
    """

    project: Project
    catalogue: PartialCatalogue
    # The authored message files, parsed, by name (the skill index is generated).
    authored: dict[str, Message]
    skill_index: SkillIndex | None
    skill_index_message: Message | None
    diagnostics: list[Diagnostic]
    # Every message file found, readable or not, by name; None if the folder is unusable.
    files_found: dict[str, str] | None = None
    _parsed: dict[str, Message | None] = field(default_factory=dict)

    @property
    def renderable(self) -> bool:
        """Did every catalogue part load, so that every output can be rendered?"""
        parts = (self.catalogue.registry, self.catalogue.harnesses, self.skill_index)
        return all(part is not None for part in parts)

    def loaded(self) -> LoadedProject:
        """What the renderers read; ValueError when a catalogue part did not load."""
        catalogue = self.catalogue
        registry, harnesses, skills = catalogue.registry, catalogue.harnesses, catalogue.skills
        index, message, entries = self.skill_index, self.skill_index_message, catalogue.entries
        if (
            registry is None
            or harnesses is None
            or skills is None
            or entries is None
            or index is None
            or message is None
        ):
            raise ValueError("the catalogue did not load: nothing can be rendered")
        conditions = catalogue.guards.conditions() if catalogue.guards is not None else {}
        loaded = LoadedCatalogue(registry, harnesses, skills, entries, conditions)
        return LoadedProject(self.project, loaded, self.authored, index, message)

    @property
    def skill_index_path(self) -> Path:
        return self.project.generated_dir / SKILL_INDEX_FILE

    def all_messages(self) -> dict[str, Message]:
        """Authored messages and the generated skill index, by name."""
        found = dict(self.authored)
        if self.skill_index_message is not None:
            found[SKILL_INDEX] = self.skill_index_message
        return found

    def registrable_names(self) -> dict[str, str] | None:
        """Every name a registry may use, with the path shown for it (None: unknown)."""
        if self.files_found is None:
            return None
        names = dict(self.files_found)
        names[SKILL_INDEX] = self.project.relative(self.skill_index_path)
        return names

    def message_at(self, path: Path) -> Message | None:
        """The parsed message at an absolute path: in memory first, else read from disk."""
        if not self._parsed:
            for message in self.all_messages().values():
                self._parsed[real(str(message.path))] = message
        key = real(str(path))
        if key not in self._parsed:
            self._parsed[key] = read_message(self.project, Path(key), check_folders=True)[0]
        return self._parsed[key]

    def referenced_paths(self) -> list[str]:
        """Every repository path that a Bindings section names, as written."""
        return sorted(
            {
                span.text
                for message in self.all_messages().values()
                for binding in message.bindings
                for span in binding.code_spans
                if is_repository_path(span.text)
            }
        )

    @cached_property
    def _planned_paths(self) -> frozenset[str]:
        """The outputs that count as present while they are being rebuilt: the index."""
        return frozenset({self.project.relative(self.skill_index_path)})

    def context_for(self, message: Message, *, registered: bool) -> MessageContext:
        settings = self.project.settings
        registry = self.catalogue.registry
        # Without a loaded registry nothing is known about guards: skip those rules.
        registered = registered and registry is not None
        guard = registry.guards.get(message.name) if registry is not None and registered else None
        return MessageContext(
            licence_line=settings.licence_line,
            delivered_cap=settings.delivered_cap,
            registered=registered,
            placeholders=dict(guard.placeholders) if guard is not None else None,
            planned_paths=self._planned_paths,
            referenced=look_up(message, self.project.root, self.message_at),
        )


def read_message(
    project: Project, path: Path, *, check_folders: bool = False
) -> tuple[Message | None, list[Diagnostic]]:
    settings = project.settings
    source, found = read_source(
        path,
        project.relative(path),
        max_bytes=settings.max_file_bytes,
        root=project.root,
        check_folders=check_folders,
    )
    if source is None:
        return None, found
    return parse_message(source, settings.licence_line), found


def message_files(project: Project) -> tuple[list[Path], list[Diagnostic]]:
    """The message files, or why the messages folder cannot be listed."""
    folder = project.messages_dir
    shown = project.settings.messages

    def problem(text: str) -> tuple[list[Path], list[Diagnostic]]:
        return [], [files.folder_problem(shown, text)]

    try:
        if not folder.is_dir():
            return problem("the messages folder does not exist")
        if not is_inside(real(str(folder)), real(str(project.root))):
            return problem("the messages folder is a link out of the repository")
        # os.scandir, not Path.glob: glob silently skips a folder it cannot list.
        with os.scandir(folder) as entries:
            names = sorted(entry.name for entry in entries if entry.name.endswith(".md"))
        return [folder / name for name in names], []
    except OSError as error:
        return problem(f"cannot list the messages folder: {error.strerror or error}")


# Loads shared by every call in this process (None: not shared). doit's tasks run in one
# process, within one run; `share_loads` lets them load and validate the sources once.
_SHARED: dict[tuple[str, str], tuple[Workspace, list[Diagnostic] | None]] | None = None


def share_loads() -> None:
    """From now on, in this process, load and validate each project's sources only once.

    For one `doit` run, whose tasks all read the same sources; never for a long-lived
    process that outlives an edit.
    """
    global _SHARED  # noqa: PLW0603 (one switch for the whole process)
    if _SHARED is None:
        _SHARED = {}
    share_projects()


def _key(project: Project) -> tuple[str, str]:
    return str(project.root), repr(project.settings)


@one_run()
def load_workspace(project: Project) -> Workspace:
    """Read the catalogue and every message once; render the skill index in memory."""
    if _SHARED is None:
        return _load_workspace(project)
    if _key(project) not in _SHARED:
        _SHARED[_key(project)] = (_load_workspace(project), None)
    return _SHARED[_key(project)][0]


def _load_workspace(project: Project) -> Workspace:
    catalogue = load_catalogue(project)
    diagnostics = list(catalogue.diagnostics)
    messages: dict[str, Message] = {}
    paths, problems = message_files(project)
    diagnostics += problems
    found_files = {path.stem: project.relative(path) for path in paths}
    for path in paths:
        message, found = read_message(project, path)
        diagnostics += found
        if message is not None:
            messages[message.name] = message
    skill_index = skill_message = None
    if catalogue.skills is not None and catalogue.entries is not None:
        skill_index = render_skill_index(catalogue.skills, catalogue.entries.entries, project)
        path = project.generated_dir / SKILL_INDEX_FILE
        skill_message = parse_text(
            skill_index.text, project.settings.licence_line, project.relative(path), path
        )
    return Workspace(
        project,
        catalogue,
        messages,
        skill_index,
        skill_message,
        diagnostics,
        files_found=found_files if not problems else None,
    )


@one_run()
def validate_workspace(workspace: Workspace) -> list[Diagnostic]:
    """Every rule over the whole project: messages, skill index, registry, budget."""
    if _SHARED is None or _SHARED.get(_key(workspace.project), (None, None))[0] is not workspace:
        return _validate_workspace(workspace)
    known = _SHARED[_key(workspace.project)][1]
    if known is None:
        known = _validate_workspace(workspace)
        _SHARED[_key(workspace.project)] = (workspace, known)
    return list(known)


def _validate_workspace(workspace: Workspace) -> list[Diagnostic]:
    found = [*workspace.diagnostics, *check_project(workspace)]
    return sort_diagnostics(found)


def _expand(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if not path.exists() and not path.is_symlink():
            raise UsageError(f"{path}: no such file or folder")
        if path.is_dir():
            files += sorted(path.rglob("*.md"), key=lambda p: p.as_posix())
        else:
            files.append(path)
    return files


@one_run()
def validate_paths(workspace: Workspace, paths: Sequence[Path]) -> list[Diagnostic]:
    """Message rules on explicit files and folders; registry rules for those in `messages/`."""
    project = workspace.project
    found: list[Diagnostic] = list(workspace.catalogue.diagnostics)
    for path in _expand(paths):
        message, problems = read_message(project, path.absolute(), check_folders=True)
        found += problems
        if message is not None:
            found += _message_rules(workspace, message, path)
    return sort_diagnostics(found)


@one_run()
def validate_text(workspace: Workspace, data: bytes, display: str, path: Path) -> list[Diagnostic]:
    """Message rules on bytes read from standard input, named `display` in diagnostics;
    registry rules too when `path` (where the text would live) is in the messages folder."""
    project = workspace.project
    found: list[Diagnostic] = list(workspace.catalogue.diagnostics)
    limit = project.settings.max_file_bytes
    if len(data) > limit:
        return sort_diagnostics([*found, files.too_large(display, limit)])
    text, had_bom, problems = files.check_bytes(data, display)
    found += problems
    if text is not None:
        source = SourceText(path=path, display=display, text=text, had_bom=had_bom)
        found += _message_rules(
            workspace, parse_message(source, project.settings.licence_line), path
        )
    return sort_diagnostics(found)


def _message_rules(workspace: Workspace, message: Message, path: Path) -> list[Diagnostic]:
    registered = path.absolute().resolve().parent == workspace.project.messages_dir.resolve()
    found = [*check_message(message, workspace.context_for(message, registered=registered))]
    if registered and workspace.catalogue.registry is not None:
        found += wiring_rules.unregistered(
            workspace.catalogue.registry,
            workspace.catalogue.registry_display,
            message.name,
            message.display,
        )
    return found
