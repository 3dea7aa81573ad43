"""What a run reads: one list, for the task graph, the check cache and `package` alike.

A run reads the configuration, every message file, the catalogue files, the skill and
command files the skill catalogue's `[[sources]]` name, and hookmsg's own code and data.
The task graph (`cli/taskgraph.py`) turns this list into file dependencies and one code
stamp per task, the check cache (`outputs/check_cache.py`) hashes every file of it into
its fingerprint, and `package` compares that fingerprint's entries before and after it
writes; so a file one of them reads is a file each of them watches.

Standard library only, and plain classes: `dodo.py` builds this list on every `doit`.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import Path
from typing import Any

from hookmsg.inputs.file_memo import FileMemo
from hookmsg.inputs.sourced_files import sourced_files

# Every catalogue file a run may read, beside the guard files (`guards/<name>.toml`).
CATALOG_FILES = ("hooks.toml", "harnesses.toml", "skills.toml")
GUARDS_FOLDER = "guards"
# The catalogue files a repository may leave out.
OPTIONAL_CATALOG_FILES = ("harnesses.toml",)
# hookmsg's own code and data: modules, templates, and the built-in harness facts.
CODE_SUFFIXES = (".py", ".j2", ".toml")


# The dispatcher package beside hookmsg: the build reads its code too (the detectors its
# modules declare, the literals it reads from a pattern), so a change to it is a change
# to what a run reads.
DISPATCHER = "hookmsg_dispatch"


def code_files(package: Path) -> list[str]:
    """hookmsg's own code and data files, relative to `package` (POSIX), sorted: the
    dispatcher's modules beside it as `../hookmsg_dispatch/...`."""
    found: list[str] = []
    _code_below(str(package), "", found)
    _code_below(str(package.parent / DISPATCHER), f"../{DISPATCHER}/", found)
    return sorted(found)


def _code_below(folder: str, prefix: str, found: list[str]) -> None:
    # Directory entries, not os.walk and Path objects: this runs on every `doit`.
    try:
        with os.scandir(folder) as entries:
            listed = list(entries)
    except OSError:
        return  # as os.walk does: a folder that cannot be listed holds nothing to stamp
    for entry in listed:
        if entry.is_dir():
            if entry.name != "__pycache__":
                _code_below(entry.path, f"{prefix}{entry.name}/", found)
        elif entry.name.endswith(CODE_SUFFIXES):
            found.append(prefix + entry.name)


def _listing(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)  # noqa: PTH208 (names only, no Path objects)
    except OSError:
        return []  # validation reports a missing or unreadable folder


class RunInputs:
    """The source files of one run, as POSIX paths relative to the root, each list sorted.

    `catalogue` maps each catalogue file present to its path (an optional one that is
    absent is left out; a required one is always named, so that its absence is seen),
    each guard file under its name inside the catalogue folder (`guards/<name>.toml`).
    `sourced` is empty when the skill catalogue lies outside the root: nothing outside
    the root is read on its say-so.
    """

    __slots__ = ("catalogue", "messages", "sourced")

    def __init__(self, messages: list[str], catalogue: dict[str, str], sourced: list[str]) -> None:
        self.messages = messages
        self.catalogue = catalogue
        self.sourced = sourced


def run_inputs(root: Path, settings: dict[str, Any], memo: FileMemo | None = None) -> RunInputs:
    """What a run of `root` with these (checked) settings reads, listed without parsing it all."""
    messages_dir = posixpath.normpath(settings["messages"])
    catalog_dir = posixpath.normpath(settings["catalog"])
    messages = sorted(
        f"{messages_dir}/{name}" for name in _listing(root / messages_dir) if name.endswith(".md")
    )
    catalogue = {
        name: f"{catalog_dir}/{name}"
        for name in CATALOG_FILES
        if name not in OPTIONAL_CATALOG_FILES or os.path.isfile(f"{root}/{catalog_dir}/{name}")  # noqa: PTH113
    }
    for name in sorted(_listing(root / catalog_dir / GUARDS_FOLDER)):
        if name.endswith(".toml"):
            catalogue[f"{GUARDS_FOLDER}/{name}"] = f"{catalog_dir}/{GUARDS_FOLDER}/{name}"
    skills = f"{root}/{catalog_dir}/skills.toml"
    inside = os.path.realpath(skills).startswith(os.path.realpath(root) + os.sep)
    sourced = sourced_files(root, Path(skills), memo) if inside else []
    return RunInputs(messages, catalogue, sourced)
