"""One declaration of every output: what each generator reads, runs and writes.

`dodo.py` derives its tasks from `OUTPUTS` (names, file dependencies, targets, the code
each task alone runs), and the writer and the check derive the files they render and
compare (`generated.py`). The files these outputs read are listed once, for the task
graph and the check cache alike, in `inputs.reads`. Adding an output is one entry here.

Kept to the standard library: `dodo.py` reads it on every `doit`.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from hookmsg.harnesses.files import BUILTIN_HARNESSES, OVERRIDE_NAME, merged_harnesses
from hookmsg.inputs.file_memo import FileMemo
from hookmsg.inputs.reads import CATALOG_FILES

# The manifest of outputs: every file the last build wrote into the generated folder.
# Build removes a stale file only if this list (or its own temporary-file pattern) names it.
MANIFEST = "outputs.json"
# `reads` entries name catalogue files (`inputs.reads.CATALOG_FILES`), or "messages"
# (every message file). `harnesses.toml` is the optional override of hookmsg's built-in
# harness facts (`harnesses.files.BUILTIN_HARNESSES`); whatever reads it reads the
# built-in file too. `hooks.toml` is the registry, which the guard files extend (each
# guard's `wired` list, its condition, its placeholders): whatever reads it reads every
# guard file (`guards/<name>.toml`) too.
MESSAGES = "messages"
# The skill and command files named by the skill catalogue's `[[sources]]` tables.
SOURCED = "sourced"


class OutputSpec:
    """One generator: its doit task, the files it writes and everything it reads.

    `files` names the files it writes inside the generated folder; the function that
    renders each is in `generated.RENDERERS` (kept there so that `dodo.py`, which reads
    this module on every `doit`, imports no renderer). A spec with `per_harness` set writes
    one file per harness registration instead (named `<harness id>/<registration file>`).
    `reads` names the sources ("messages", "sourced" or a catalogue file); every Bindings-named
    path is read by the validation that all tasks depend on. `code` lists the package
    modules and templates that only this generator runs; the rest are shared by all. It is
    what the generator's renderers import that validation and build do not, and
    `tests/test_outputs_declared.py` derives it from the import graph to hold it so.
    """

    # A plain class, not a dataclass: building one costs every `doit` a few milliseconds.
    __slots__ = ("code", "doc", "files", "per_harness", "reads", "task")

    def __init__(
        self,
        task: str,
        doc: str,
        files: tuple[str, ...] = (),
        *,
        per_harness: bool = False,
        reads: tuple[str, ...] = (),
        code: tuple[str, ...] = (),
    ) -> None:
        self.task = task
        self.doc = doc
        self.files = files
        self.per_harness = per_harness
        self.reads = reads
        self.code = code


OUTPUTS: tuple[OutputSpec, ...] = (
    OutputSpec(
        "skill_index",
        "Render generated/skill-index.md from the skill catalogue.",
        ("skill-index.md",),
        reads=("skills.toml", "hooks.toml", SOURCED),
    ),
    OutputSpec(
        "advisories",
        "Extract every guard's Advisory into generated/advisories.json.",
        ("advisories.json",),
        reads=(MESSAGES, "hooks.toml"),
        code=("render/advisories_json.py", "render/advisory_text.py"),
    ),
    OutputSpec(
        "inventory",
        "Write the hook message inventory (Markdown and JSON).",
        ("hook-message-inventory.md", "hook-message-inventory.json"),
        reads=(MESSAGES, *CATALOG_FILES, SOURCED),
        code=(
            "render/inventory.py",
            "templates/hook-message-inventory.md.j2",
        ),
    ),
    OutputSpec(
        "wiring",
        "Draw the wiring (events, matchers, messages, harnesses) as Mermaid diagrams.",
        ("hook-wiring.md",),
        reads=(MESSAGES, *CATALOG_FILES),
        code=(
            "render/inventory.py",
            "render/wiring.py",
            "templates/hook-message-inventory.md.j2",
            "templates/hook-wiring.md.j2",
        ),
    ),
    OutputSpec(
        "dispatch_table",
        "Write generated/dispatch-table.json, the data the runtime dispatcher reads.",
        ("dispatch-table.json",),
        reads=(MESSAGES, *CATALOG_FILES),
        code=("render/dispatch_table.py",),
    ),
    OutputSpec(
        "registrations",
        "Generate every harness's hook registration file from the registry.",
        per_harness=True,
        reads=("hooks.toml", "harnesses.toml"),
        code=("render/registrations.py", "render/xcsh_module.py", "templates/xcsh-hookmsg.js.j2"),
    ),
    OutputSpec(
        "rules",
        "Write generated/rules.md, the table of every diagnostic code.",
        ("rules.md",),
        code=("render/rules_table.py",),
    ),
    OutputSpec(
        "outputs",
        "Write generated/outputs.json (every output's name); remove stale outputs.",
        (MANIFEST,),
        reads=("harnesses.toml",),
    ),
)
# Package modules that no generator runs (the package task still depends on them), each
# with the other tasks that do: the guard cases lay out an install root to run.
GUARD_CASES = "guard_cases"
NOT_RUN_BY_GENERATORS: dict[str, tuple[str, ...]] = {
    "release/archive.py": (),
    "install/contents.py": (GUARD_CASES,),
    "cli/commands/package.py": (),
    "cli/commands/install_render.py": (),
    "cli/commands/preview.py": (),
    "cli/commands/explain.py": (),
}
FIXED_FILES = tuple(name for spec in OUTPUTS for name in spec.files)

# Character sets instead of regular expressions: compiling them costs every `doit`.
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")
_ALNUM = _LOWER | frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_NAME = _ALNUM | frozenset("._-")
MAX_MANIFEST_BYTES = 1_000_000


def _is_kebab(text: str) -> bool:
    """`^[a-z0-9]+(-[a-z0-9]+)*$`"""
    return bool(text) and all(part and set(part) <= _LOWER for part in text.split("-"))


def _is_file_name(text: str) -> bool:
    """`^[A-Za-z0-9][A-Za-z0-9._-]*$`, and never `..`"""
    return bool(text) and text[0] in _ALNUM and set(text) <= _NAME and ".." not in text


def is_safe_relative(text: str) -> bool:
    """Safe file names joined by `/`: no `..`, no absolute path, no empty part."""
    return all(_is_file_name(part) for part in text.split("/"))


def is_own_temporary(name: str) -> bool:
    """hookmsg's own staged temporaries and backups (`.x.tmp`, `.x.bak`; see outputs.py)."""
    return name.startswith(".") and name.endswith((".tmp", ".bak")) and len(name) > 5


def safe_registration(harness_id: object, file: object) -> str | None:
    """`<id>/<file>` when both are from the safe character sets (the catalogue's rules)."""
    if not isinstance(harness_id, str) or not isinstance(file, str):
        return None
    if len(harness_id) > 64 or len(file) > 64:
        return None
    if not _is_kebab(harness_id) or not _is_file_name(file):
        return None
    return f"{harness_id}/{file}"


def previous_outputs(folder: Path) -> set[str]:
    """The names the last build listed in the folder's manifest (empty if unreadable).

    Only safe relative names count: a manifest edited to name `../x` proves nothing.
    """
    path = folder / MANIFEST
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_MANIFEST_BYTES:
            return set()
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return set()
    names = data.get("outputs") if isinstance(data, dict) else None
    if not isinstance(names, list):
        return set()
    return {n for n in names if isinstance(n, str) and is_safe_relative(n)}


class Leftovers:
    """What the generated folder holds besides the current outputs."""

    __slots__ = ("foreign", "links", "stale")

    def __init__(
        self,
        stale: tuple[Path, ...] = (),
        foreign: tuple[Path, ...] = (),
        links: tuple[Path, ...] = (),
    ) -> None:
        self.stale = stale  # provably hookmsg's: in the last manifest, or its temporaries
        self.foreign = foreign  # not provably hookmsg's: never removed
        self.links = links  # symbolic links: refused, never followed


def survey(folder: Path, produced: set[str]) -> Leftovers:
    """Sort what `folder` holds besides `produced`, without following any link. Reads only."""
    if folder.is_symlink() or not folder.is_dir():
        return Leftovers()
    previous = previous_outputs(folder)
    found: dict[str, list[Path]] = {"stale": [], "foreign": [], "links": []}
    _sort_entries(str(folder), "", produced, previous, found)

    def order(paths: list[Path]) -> tuple[Path, ...]:
        return tuple(sorted(paths, key=lambda p: p.as_posix()))

    return Leftovers(order(found["stale"]), order(found["foreign"]), order(found["links"]))


def _sort_entries(
    here: str, prefix: str, produced: set[str], previous: set[str], found: dict[str, list[Path]]
) -> None:
    """One folder of `survey`, by its directory entries (their kinds need no stat each).

    No Path object for a produced file: this runs on every `doit`.
    """
    try:
        with os.scandir(here) as entries:
            listed = list(entries)
    except OSError:
        return  # gone since it was listed (a build's folder, replaced)
    for entry in listed:
        relative = prefix + entry.name
        try:
            if entry.is_symlink():
                found["links"].append(Path(entry.path))
            elif entry.is_dir(follow_symlinks=False):
                _sort_entries(entry.path, relative + "/", produced, previous, found)
            elif relative in produced:
                continue
            elif entry.is_file(follow_symlinks=False) and (
                relative in previous or is_own_temporary(entry.name)
            ):
                found["stale"].append(Path(entry.path))
            else:
                found["foreign"].append(Path(entry.path))
        except OSError:
            continue  # gone since the listing (a build's temporary, renamed)


def registration_files(
    root: Path, settings: dict[str, Any], memo: FileMemo | None = None
) -> list[str]:
    """`<harness>/<file>` for every harness registration, read without full validation.

    From hookmsg's built-in harness facts merged with the catalogue's optional override
    (`harness_files.py`). For doit's targets: a name outside the safe character sets is
    left out (validation reports it), so no path built from the catalogue can leave the
    generated folder.
    """
    builtin = _harness_entries(BUILTIN_HARNESSES, memo)
    override = _harness_entries(root / settings["catalog"] / OVERRIDE_NAME, memo)
    found = []
    for harness in merged_harnesses(builtin, override):
        registration = harness.get("registration") if isinstance(harness, dict) else None
        if isinstance(registration, dict):
            name = safe_registration(harness.get("id"), registration.get("file"))
            if name is not None:
                found.append(name)
    return found


def _harness_entries(path: Path, memo: FileMemo | None) -> list[Any]:
    """Each `[[harnesses]]` table's id and registration table (all the targets need)."""
    if memo is None:
        return _read_entries(path)
    return memo.derive(path, "harness entries", lambda: _read_entries(path), _entries)


def _entries(value: Any) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise TypeError("not a list of tables")
    return value


def _read_entries(path: Path) -> list[Any]:
    import tomllib  # here, not above: remembered entries need no parser

    try:
        if not path.is_file():
            return []  # missing, a folder, or a FIFO that would block: validation reports it
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError, RecursionError, UnicodeDecodeError):
        return []
    harnesses = data.get("harnesses", [])
    return [
        {key: entry[key] for key in ("id", "registration") if key in entry}
        for entry in (harnesses if isinstance(harnesses, list) else [])
        if isinstance(entry, dict)
    ]
