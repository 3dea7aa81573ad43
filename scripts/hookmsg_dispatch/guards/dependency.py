"""The dependency guard: a change to a lockfile, or to the dependencies a manifest declares.

Data: `manifests` (file-name glob -> manifest kind), `lockfiles` (file-name globs),
`max-changes` (how many changes `change` names). A lockfile fires on any write. A manifest
fires only when its dependency entries differ before and after the call: for a Write the
file on disk is "before"; for an edit the file on disk with the edit applied is "after"
(when the edit cannot be placed, its old and new text are compared line by line).
A shell command fires when a `commands` rule matches one of its simple commands (`npm
install lodash`, `uv add httpx`, `cargo add serde`, `go get ...`), or when it redirects into
a manifest or lockfile (`echo "requests==2.32" >> requirements.txt`).
"""

from __future__ import annotations

from hookmsg_dispatch.call import FileChange
from hookmsg_dispatch.guards.common import (
    MAX_READ_BYTES,
    number,
    project_changes,
    strings,
    table,
)
from hookmsg_dispatch.guards.patch import patched_text
from hookmsg_dispatch.system import os

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any, Callable

    from hookmsg_dispatch.call import Call
    from hookmsg_dispatch.guards.manifests import Entries
    from hookmsg_dispatch.project import Project

LOCKFILE_CHANGE = "lockfile edited by hand"
# Manifests read whole (and rebuilt) per call; any more in one call are judged by the
# lines the call changes. With `max-file-bytes` this bounds what one call reads and parses.
MAX_WHOLE_FILES = 4


def glob_match(name: str, glob: str) -> bool:
    """fnmatch's case-sensitive match; `fnmatch` (and `re`) load only for a glob with `?[`."""
    from hookmsg_dispatch.literal import glob_match as match

    return match(name, glob)


def _matches(name: str, globs: list[str]) -> bool:
    return any(glob_match(name, glob) for glob in globs)


def _replaced(disk: str, before: str, after: str, every: bool, limit: int) -> str | None:
    """The edit applied to the file, or None when the result would be over `limit` bytes'
    worth of characters (a short `old_string` replaced everywhere by a long one)."""
    count = disk.count(before) if every else 1
    if len(disk) + count * (len(after) - len(before)) > limit:
        return None
    return disk.replace(before, after, -1 if every else 1)


def _texts(
    call: Call, project: Project, relative: str, change: FileChange, limit: int
) -> tuple[str, str, bool]:
    """(before, after, whole): whole texts when they can be known, else the edit's pieces."""
    if change.created or (change.created is None and change.before is None):
        disk = project.read_text(relative, limit) if limit else None
        return disk or "", change.after, True
    if not limit:  # past the files one call reads whole: the change's own lines
        return change.before or "", change.after, False
    disk = project.read_text(relative, limit)
    if disk is not None and change.before and change.before in disk:
        every = isinstance(call.tool_input, dict) and call.tool_input.get("replace_all") is True
        replaced = _replaced(disk, change.before, change.after, every, limit)
        if replaced is None:
            return change.before, change.after, False
        return disk, replaced, True
    full = os.path.join(project.root, *relative.split("/"))
    patched = patched_text(
        call.tool_input,
        lambda path: project.absolute(path) == project.absolute(full),
        disk,
    )
    if patched is not None:
        return disk or "", patched, True
    return change.before or "", change.after, False


def _per_file(
    changes: Iterator[tuple[Project, str, FileChange]],
) -> list[tuple[Project, str, FileChange]]:
    """One change per file, in order: a patch's several sections on one file become one
    change (their removed and added lines joined), so the file is read and judged once."""
    merged: dict[str, tuple[Project, str, FileChange]] = {}
    for project, relative, change in changes:
        seen = merged.get(relative)
        if seen is None:
            merged[relative] = (project, relative, change)
            continue
        first = seen[2]
        before = (
            None
            if first.before is None and change.before is None
            else "\n".join(text for text in (first.before, change.before) if text is not None)
        )
        created = first.created if first.created == change.created else None
        joined = FileChange(first.path, first.after + "\n" + change.after, before, created)
        merged[relative] = (project, relative, joined)
    return list(merged.values())


def describe(before: Entries, after: Entries) -> list[str]:
    """What changed, in the file's order: name old → new, added, removed.

    Plain text: the advisory template decides the markup, and the dispatcher replaces
    backticks in every value, so markup added here would arrive mangled.
    """
    changes = []
    for key, (name, spec) in after.items():
        if key not in before:
            changes.append(f"added {name} {spec}".rstrip())
        elif before[key][1] != spec:
            changes.append(f"{name} {before[key][1] or '(any)'} → {spec or '(any)'}")
    changes += [f"removed {name}" for key, (name, _) in before.items() if key not in after]
    return changes


def _reader(kind: str) -> tuple[Callable[[str], Entries], Callable[[str], Entries]] | None:
    """(whole-file reader, piece reader) of a manifest kind; the other ecosystems' module
    loads only for one of its kinds."""
    from hookmsg_dispatch.guards import manifests  # `re` and `json`: only for a manifest

    reader = manifests.READERS.get(kind)
    if reader is not None:
        return reader, lambda text: manifests.fragment(kind, text)
    from hookmsg_dispatch.guards import ecosystems

    other = ecosystems.READERS.get(kind)
    if other is None:
        return None
    if kind in ecosystems.LINE_READERS:
        return other, other
    heading = ecosystems.FRAGMENT_HEADINGS.get(kind)
    if heading is not None:
        return other, lambda text: other(heading + text)
    return other, lambda text: manifests.fragment(kind, text)


def _manifest_change(
    kind: str, call: Call, where: tuple[Project, str, FileChange], limit: int
) -> list[str]:
    readers = _reader(kind)
    if readers is None:
        return []
    reader, piece = readers
    before, after, whole = _texts(call, *where, limit)
    if whole:
        try:
            return _diff(reader(before) if before.strip() else {}, reader(after))
        except ValueError:  # the new text does not parse (yet): judge by its lines
            pass
    try:
        return _diff(piece(before), piece(after))
    except ValueError:
        return []


def _diff(before: Entries, after: Entries) -> list[str]:
    return describe(before, after) if before != after else []


def _written_names(text: str) -> list[str]:
    """The files a simple command writes: by redirection (`>`, `>>`, `2>`), `tee`, an
    in-place `sed -i` or `perl -pi`, or as the destination of `mv` and `cp`."""
    words = text.split()
    found: list[str] = []
    for index, word in enumerate(words):
        at = word.rfind(">")
        if at < 0 or word.startswith(("->", "=>")):
            continue
        target = word[at + 1 :]
        if not target and index + 1 < len(words):
            target = words[index + 1]
        if target and not target.startswith("&"):
            found.append(target)
    program = words[0].rsplit("/", 1)[-1] if words else ""
    if program == "tee" or (
        program in ("sed", "perl") and any(w.startswith("-i") or w == "-pi" for w in words)
    ):
        found += [word for word in words[1:] if not word.startswith("-")]  # edited in place
    elif program in ("mv", "cp") and len(words) > 2:
        found.append(words[-1])  # the destination
    return [name.strip("\"'") for name in found]


def _command(command: str, data: Mapping[str, Any], globs: list[str]) -> dict[str, str] | None:
    """A shell command that changes dependencies: a package manager's add or remove, or a
    redirection into a manifest or lockfile. Linear: each rule is matched at the start of
    each simple command (see `guards.shell`)."""
    from hookmsg_dispatch.guards.common import cap, pattern
    from hookmsg_dispatch.guards.heredoc import executed
    from hookmsg_dispatch.guards.shell import commands

    rules = [
        (rule["match"], rule.get("manifest", ""))
        for rule in table(data, "commands").values()
        if isinstance(rule, dict) and isinstance(rule.get("match"), str)
    ]
    for simple in commands(executed(command)):  # a heredoc's body only when a shell runs it
        for source, manifest in rules:
            if pattern(source, 0).match(simple.text) is not None:
                return {"path": str(manifest), "change": cap(simple.text)}
        for written in _written_names(simple.text):
            if _matches(written.rsplit("/", 1)[-1], globs) or _matches(written, globs):
                return {"path": written, "change": cap(simple.text)}
    return None


# The detectors this module answers for, and the placeholders each fills when it fires
# (the build side reads this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"dependency": ("change", "path")}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    lockfiles = strings(data, "lockfiles")
    if call.command is not None and call.command.strip():
        return _command(call.command, data, [*lockfiles, *table(data, "manifests")])
    kinds = {k: v for k, v in table(data, "manifests").items() if isinstance(v, str)}
    limit = max(1, int(number(data, "max-changes", 3)))
    read_limit = int(number(data, "max-file-bytes", MAX_READ_BYTES))
    whole_files = 0
    for project, relative, change in _per_file(project_changes(call, root)):
        name = relative.rsplit("/", 1)[-1]
        if _matches(name, lockfiles):
            return {"path": relative, "change": LOCKFILE_CHANGE}
        kind = next((k for glob, k in kinds.items() if glob_match(name, glob)), None)
        if kind is None:
            continue
        whole_files += 1
        reads = read_limit if whole_files <= MAX_WHOLE_FILES else 0
        found = _manifest_change(kind, call, (project, relative, change), reads)
        if found:
            if len(found) > limit:
                found = [*found[:limit], f"{len(found) - limit} more"]
            return {"path": relative, "change": "; ".join(found)}
    return None
