"""The doit task graph: `doit` validates and regenerates what is out of date.

Kept light on purpose: loading this file imports only the standard library, doit's
own helpers and `hookmsg.project` (tomllib and pathlib). Every action runs through
`hookmsg.cli.run`, the same code as the `hookmsg` command.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import posixpath
import sys
from pathlib import Path
from typing import Any

from doit.exceptions import TaskFailed
from doit.tools import config_changed

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "scripts" / "hookmsg"
sys.path.insert(0, str(ROOT / "scripts"))  # so a fresh checkout works before `pip install`

from hookmsg.project import (  # noqa: E402 (needs the path above)
    CATALOG_FILES,
    GENERATED_FILES,
    archive_name,
    raw_settings,
    registration_files,
)
from hookmsg.sourcefiles import sourced_files  # noqa: E402 (standard library only)

DOIT_CONFIG: dict[str, Any] = {
    "default_tasks": [
        "validate",
        "skill_index",
        "advisories",
        "inventory",
        "wiring",
        "registrations",
        "dispatch_table",
    ],
    # sqlite3 takes concurrent runs safely; the state file is git-ignored and losing
    # it only costs a rebuild.
    "backend": "sqlite3",
    "dep_file": ".doit.db",
    "verbosity": 1,
}

SETTINGS = raw_settings(ROOT)
STATE = ROOT / DOIT_CONFIG["dep_file"]


def _discard_corrupt_state() -> None:
    """A damaged state file must cost a rebuild, not a crash: drop it if sqlite rejects it."""
    import sqlite3

    if not STATE.exists():
        return
    try:
        with contextlib.closing(sqlite3.connect(STATE)) as db:
            if db.execute("PRAGMA quick_check").fetchone() != ("ok",):
                raise sqlite3.DatabaseError("quick_check failed")
    except sqlite3.DatabaseError:
        STATE.unlink(missing_ok=True)
        print(
            f"doit state {STATE.name} was unreadable and was removed; rebuilding", file=sys.stderr
        )


_discard_corrupt_state()


# Paths are plain strings relative to the root, normalised one way: doit treats `./x`
# and `x` as different files. (Strings, not Path objects: this runs on every `doit`.)
MESSAGES_DIR = posixpath.normpath(SETTINGS["messages"])
CATALOG_DIR = posixpath.normpath(SETTINGS["catalog"])
GENERATED_DIR = posixpath.normpath(SETTINGS["generated"])
PACKAGE_DIR = "scripts/hookmsg"


def _listing(folder: str) -> list[str]:
    try:
        return os.listdir(ROOT / folder)  # noqa: PTH208 (names only, no Path objects)
    except OSError:
        return []  # the validate task reports a missing or unreadable folder


MESSAGES = sorted(
    f"{MESSAGES_DIR}/{name}" for name in _listing(MESSAGES_DIR) if name.endswith(".md")
)
CATALOG = {name: f"{CATALOG_DIR}/{name}" for name in CATALOG_FILES}
# The SKILL.md and command files that the skill catalogue's [[sources]] name.
SOURCED = sourced_files(ROOT, ROOT / CATALOG["skills.toml"])
REGISTRATIONS = registration_files(ROOT, SETTINGS)
# The runtime dispatcher's sources: `package` copies them into the install root.
DISPATCHER_DIR = "scripts/hookmsg_dispatch"
DISPATCHER = sorted(
    f"{DISPATCHER_DIR}/{name}" for name in _listing(DISPATCHER_DIR) if name.endswith(".py")
)


# Modules and templates that only some tasks use (every other module is shared by all).
# `package` renders everything, so it depends on all of them.
USED_ONLY_BY: dict[str, set[str]] = {
    "render/advisories.py": {"advisories"},
    "render/jsonout.py": {"advisories", "inventory"},
    "render/inventory.py": {"inventory", "wiring"},
    "templates/hook-message-inventory.md.j2": {"inventory"},
    "render/wiring.py": {"wiring"},
    "render/dispatch_table.py": {"dispatch_table"},
    "templates/hook-wiring.md.j2": {"wiring"},
    "package.py": set(),
    "install_root.py": set(),
    "commands/package.py": set(),
    "commands/install_render.py": set(),
    "commands/preview.py": set(),
    "commands/explain.py": set(),
}
CODE = sorted(
    posixpath.join(os.path.relpath(folder, PACKAGE).replace(os.sep, "/"), name).removeprefix("./")
    for folder, _dirs, names in os.walk(PACKAGE)
    if "__pycache__" not in folder
    for name in names
    if name.endswith((".py", ".j2"))
)


def _code(task: str) -> list[str]:
    """The package modules and templates that `task` runs."""
    return [
        f"{PACKAGE_DIR}/{name}"
        for name in CODE
        if task == "package" or task in USED_ONLY_BY.get(name, {task})
    ]


def _settings_and_names(**extra: str) -> Any:
    # Settings are not files; and doit does not rerun a task when a file_dep is
    # removed (nor when a new file appears in a folder), so the lists of message files
    # and of sourced skill and command files are part of the configuration too.
    # One config_changed per task: doit stores them all under a single key.
    return config_changed({"settings": SETTINGS, "messages": MESSAGES, "sourced": SOURCED, **extra})


def _hookmsg(*argv: str) -> TaskFailed | None:
    from hookmsg.cli import run

    code = run(list(argv))
    return TaskFailed(f"hookmsg {' '.join(argv)} exited with {code}") if code else None


def task_validate() -> dict[str, Any]:
    """Check every message and the catalogue against the rules."""
    return {
        "actions": [(_hookmsg, ["validate"])],
        "file_dep": [*MESSAGES, *CATALOG.values(), *SOURCED, *_code("validate")],
        "uptodate": [_settings_and_names()],
        "verbosity": 2,
    }


def _digests(paths: list[str]) -> dict[str, str]:
    found = {}
    for path in paths:
        try:
            found[path] = hashlib.sha256((ROOT / path).read_bytes()).hexdigest()
        except OSError:
            found[path] = ""
    return found


def _build(targets: list[str], *argv: str) -> TaskFailed | dict[str, Any]:
    """Run `hookmsg build`, then remember the bytes it left in every target."""
    failed = _hookmsg(*argv)
    return failed if failed is not None else {"digests": _digests(targets)}


def _targets_untouched(task: Any, values: dict[str, Any]) -> bool:
    # doit reruns a task when its inputs change, not when someone edits its output by
    # hand; comparing the targets' bytes with what the last run wrote closes that gap.
    return bool(values.get("digests") == _digests(list(task.targets)))


def _generate(task: str, outputs: list[str], inputs: list[str]) -> dict[str, Any]:
    only = [arg for name in outputs for arg in ("--only", name)]
    targets = [f"{GENERATED_DIR}/{name}" for name in outputs]
    return {
        "actions": [(_build, [targets, "build", *only])],
        "file_dep": [*inputs, *_code(task)],
        "targets": targets,
        "task_dep": ["validate"],
        "uptodate": [_settings_and_names(), _targets_untouched],
        "verbosity": 2,
        "clean": True,
    }


def task_skill_index() -> dict[str, Any]:
    """Render generated/skill-index.md from the skill catalogue."""
    return _generate(
        "skill_index",
        ["skill-index.md"],
        [CATALOG["skills.toml"], CATALOG["hooks.toml"], *SOURCED],
    )


def task_advisories() -> dict[str, Any]:
    """Extract every guard's Advisory into generated/advisories.json."""
    return _generate("advisories", ["advisories.json"], [*MESSAGES, CATALOG["hooks.toml"]])


def task_inventory() -> dict[str, Any]:
    """Write the hook message inventory (Markdown and JSON)."""
    return _generate(
        "inventory",
        ["hook-message-inventory.md", "hook-message-inventory.json"],
        [*MESSAGES, *CATALOG.values(), *SOURCED],
    )


def task_wiring() -> dict[str, Any]:
    """Draw the wiring (events, matchers, messages, harnesses) as Mermaid diagrams."""
    return _generate("wiring", ["hook-wiring.md"], [*MESSAGES, *CATALOG.values()])


def task_registrations() -> dict[str, Any]:
    """Generate every harness's hook registration file from the registry."""
    return _generate(
        "registrations", REGISTRATIONS, [CATALOG["hooks.toml"], CATALOG["harnesses.toml"]]
    )


def task_package() -> dict[str, Any]:
    """Write the reproducible release archive under dist/ (refused if check fails)."""
    generated = [f"{GENERATED_DIR}/{name}" for name in [*GENERATED_FILES, *REGISTRATIONS]]
    return {
        "actions": [(_hookmsg, ["package"])],
        "file_dep": [
            *MESSAGES,
            *CATALOG.values(),
            *SOURCED,
            *generated,
            *_code("package"),
            *DISPATCHER,
        ],
        "targets": [f"dist/{archive_name()}"],
        "uptodate": [_settings_and_names(epoch=os.environ.get("SOURCE_DATE_EPOCH", ""))],
        "verbosity": 2,
        "clean": True,
    }


def task_check() -> dict[str, Any]:
    """Fail if a generated file drifted from its sources; never writes."""
    return {
        "actions": [(_hookmsg, ["check"])],
        "uptodate": [False],
        "verbosity": 2,
    }


def task_dispatch_table() -> dict[str, Any]:
    """Write generated/dispatch-table.json, the data the runtime dispatcher reads."""
    guards = f"{CATALOG_DIR}/guards.toml"
    optional = [guards] if (ROOT / guards).is_file() and guards not in CATALOG.values() else []
    return _generate(
        "dispatch_table", ["dispatch-table.json"], [*MESSAGES, *CATALOG.values(), *optional]
    )
