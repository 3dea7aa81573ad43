"""Skills and commands: carried by the install root, copied to where each harness loads them.

The install root (and the release archive) holds every skill as `skills/<name>/SKILL.md` and
every command as `commands/<name>.md`, the layout a Claude Code plugin reads from its root,
plus each form of the skill index as `messages/<form file>.md`. `install` copies the files a
harness can load into the folders its `[harnesses.skills]` names inside the project, and
records them, with their SHA-256, in `<folder>/hookmsg-skills.json` beside them; `uninstall`
removes exactly the recorded files that are still as written. A file hookmsg did not write
is never overwritten (S018) or removed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from hookmsg.catalogue.models import Harness
from hookmsg.diagnostics import Diagnostic
from hookmsg.errors import FindingsError
from hookmsg.jsonout import dump_json
from hookmsg.render.loaded import INDEX_FILES, SKILL_INDEX, LoadedProject
from hookmsg.report import emit, note

MANIFEST = "hookmsg-skills.json"
SKILLS = "skills"
COMMANDS = "commands"


def root_files(loaded: LoadedProject) -> dict[str, bytes]:
    """The install root's skill and command files, and every skill index form but the
    plugin's (that one is `messages/skill-index.md`, like every other message)."""
    found: dict[str, bytes] = {}
    root = loaded.project.root
    for entry in loaded.catalogue.entries.entries:
        if entry.origin == "":
            continue  # an entry written only in the TOML has no file to ship
        data = (root / entry.source).read_bytes()
        if entry.kind == "skill":
            found[f"{SKILLS}/{entry.name}/SKILL.md"] = data
        else:
            found[f"{COMMANDS}/{entry.name}.md"] = data
    index = loaded.skill_index
    licence = loaded.project.settings.licence_line
    from hookmsg.messages.message import parse_text

    for form, name in INDEX_FILES.items():
        if name != SKILL_INDEX:
            delivered = parse_text(index.form_text(form), licence).delivered
            found[f"messages/{name}.md"] = (delivered + "\n").encode("utf-8")
    return found


@dataclass(frozen=True)
class Placement:
    """Where one harness loads skill files in a project: target path -> install root path."""

    folder: Path  # the folder holding the manifest
    files: dict[str, str]  # project-relative target -> install-root path

    @property
    def manifest(self) -> Path:
        return self.folder / MANIFEST


def placement(harness: Harness, project: Path, shipped: Mapping[str, bytes]) -> Placement | None:
    """The files `harness` loads, by project path; None where it loads none."""
    places = harness.skills
    if places is None or harness.index_form in (None, "plugin"):
        return None
    files: dict[str, str] = {}
    for path in sorted(shipped):
        parts = PurePosixPath(path).parts
        if parts[0] == SKILLS and places.skills is not None:
            files[f"{places.skills}/{'/'.join(parts[1:])}"] = path
        elif parts[0] == COMMANDS and places.commands is not None:
            files[f"{places.commands}/{'/'.join(parts[1:])}"] = path
    # The manifest sits in the folder both kinds share (`.claude` for `.claude/skills`).
    folders = [p for p in (places.skills, places.commands) if p is not None]
    common = os.path.commonpath([str(PurePosixPath(p).parent) for p in folders])
    return Placement(project / common if common else project, files)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_recorded(manifest: Path) -> dict[str, str]:
    """{project-relative path: sha256} that an earlier install wrote (empty: none)."""
    try:
        data = json.loads(manifest.read_bytes()[: 1024 * 1024])
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {
        str(path): str(digest)
        for path, digest in files.items()
        if isinstance(path, str) and ".." not in PurePosixPath(path).parts
    }


def _current(path: Path) -> bytes | None:
    if path.is_symlink() or not path.is_file():
        return b"" if path.is_symlink() or path.exists() else None
    return path.read_bytes()


def _write(path: Path, data: bytes) -> None:
    from hookmsg.install.confine import write_atomic

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, data)


def install_skills(
    harness: Harness, project: Path, shipped: Mapping[str, bytes], *, dry_run: bool
) -> None:
    """Copy the skills and commands `harness` loads into `project`; refuse (S018) before
    writing anything when a file in the way is not one hookmsg wrote."""
    place = placement(harness, project, shipped)
    if place is None:
        return
    recorded = read_recorded(place.manifest)
    conflicts = []
    for target, source in place.files.items():
        current = _current(project / target)
        ours = recorded.get(target)
        if current is not None and current != shipped[source] and _digest(current) != ours:
            conflicts.append(
                Diagnostic(
                    str(project / target),
                    1,
                    1,
                    "S018",
                    "exists and hookmsg did not write it (or it was edited since); "
                    f"install would replace it with the {harness.name} copy of {source}",
                )
            )
    if conflicts:
        emit(conflicts, "text")
        raise FindingsError("install refused: nothing was written")
    stale = [path for path in recorded if path not in place.files]
    if dry_run:
        note(f"skills: would write {len(place.files)} files under {place.folder}")
        return
    made = sorted(_missing_folders(project, [place.manifest, *(project / t for t in place.files)]))
    made = sorted({*made, *read_folders(place.manifest)})  # a re-install keeps what it made
    for target, source in place.files.items():
        if _current(project / target) != shipped[source]:
            _write(project / target, shipped[source])
    for path in stale:
        _remove_if_ours(project, path, recorded[path], made)
    files = {target: _digest(shipped[source]) for target, source in place.files.items()}
    record = {"files": files, "folders": made, "harness": harness.id}
    manifest = dump_json(record, ascii=True).encode()
    _write(place.manifest, manifest)
    note(f"skills: {len(place.files)} files under {place.folder}")


def _missing_folders(project: Path, paths: list[Path]) -> set[str]:
    """The folders (project-relative) that writing `paths` will create."""
    missing: set[str] = set()
    for path in paths:
        folder = path.parent
        while folder != project and project in folder.parents and not folder.exists():
            missing.add(folder.relative_to(project).as_posix())
            folder = folder.parent
    return missing


def read_folders(manifest: Path) -> list[str]:
    """The folders an earlier install created (project-relative)."""
    try:
        data = json.loads(manifest.read_bytes()[: 1024 * 1024])
    except (OSError, ValueError):
        return []
    folders = data.get("folders") if isinstance(data, dict) else None
    if not isinstance(folders, list):
        return []
    return [f for f in folders if isinstance(f, str) and ".." not in PurePosixPath(f).parts]


def _remove_empty(project: Path, folders: list[str]) -> None:
    """Remove each folder install created, deepest first, where it is empty now."""
    for name in sorted(folders, key=lambda f: f.count("/"), reverse=True):
        folder = project / name
        if folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
            folder.rmdir()


def _remove_if_ours(project: Path, path: str, digest: str, made: list[str]) -> bool:
    target = project / path
    current = _current(target)
    if current is None:
        return True
    if _digest(current) != digest:
        note(f"{target}: edited since hookmsg wrote it; left in place")
        return False
    target.unlink()
    _remove_empty(project, made)  # the skill's own folder, emptied, if install made it
    return True


def uninstall_skills(harness: Harness, project: Path) -> None:
    """Remove the skill and command files an install recorded, where still as written."""
    place = placement(harness, project, {})
    if place is None or not place.manifest.is_file():
        return
    recorded = read_recorded(place.manifest)
    made = read_folders(place.manifest)
    kept = [
        path
        for path, digest in recorded.items()
        if not _remove_if_ours(project, path, digest, made)
    ]
    place.manifest.unlink()
    _remove_empty(project, made)  # what install created, as it was before
    note(f"skills: {len(recorded) - len(kept)} files removed from {place.folder}")
