"""The doit task that runs the guard cases (`doit guard_cases`, part of a plain `doit`).

Light on import (standard library only), as dodo.py needs: the action imports the runner.
It fails, with one `path:line:col: U010 case 'id' expected fire, was silent` line per
disagreeing case, when any shipped case disagrees with the packaged dispatcher, when a
guard's cases are malformed (U009), or when a guard with a detector has none (U011).
"""

from __future__ import annotations

import os
import posixpath
import sys
from pathlib import Path
from typing import Any

from hookmsg.outputs.declared import GUARD_CASES as TASK


def run_shipped_cases(root: Path, catalog: str) -> int:
    """Run the cases of every guard file under `<catalog>/guards`; print each finding; 1 if any."""
    import tempfile

    from hookmsg.catalogue.rules.guard_cases import missing_cases
    from hookmsg.diagnostics import sort_diagnostics
    from hookmsg.install.guard_cases import (
        CASES_FOLDER,
        known_from,
        read_table,
        run_folder,
        write_install_root,
    )

    display = f"{catalog}/{CASES_FOLDER}"
    with tempfile.TemporaryDirectory(prefix="hookmsg-install-root-") as temporary:
        install = write_install_root(root, Path(temporary))
        result = run_folder(root / display, display, install)
        table = read_table(install)
    detected = [
        name
        for name in sorted(known_from(table).guards)
        if table["messages"][name].get("condition")
    ]
    found = sort_diagnostics(
        [*result.diagnostics, *missing_cases(detected, set(result.scores), display)]
    )
    for diagnostic in found:
        sys.stderr.write(diagnostic.render() + "\n")
    cases = sum(score.cases for score in result.scores.values())
    print(f"guard cases: {cases} cases of {len(result.scores)} guards, {len(found)} findings")
    return 1 if found else 0


def _action(root: Path, catalog: str) -> Any:
    from doit.exceptions import TaskFailed

    code = run_shipped_cases(root, catalog)
    return TaskFailed("a guard case disagrees with the dispatcher (see above)") if code else None


def guard_cases_task(
    root: Path,
    folders: tuple[str, str],
    guard_files: list[str],
    table_sources: list[str],
    configuration: str,
) -> dict[str, Any]:
    """The task: reruns when a guard file, the dispatcher, a guard's message or what the
    table's guard data is made of changes.

    Not on every message edit: a case runs only its guard, and the table's entry for any
    other message is never read then. So the task depends on the sources of the dispatch
    table (`table_sources`: the catalogue, guard and harness files; `configuration`: a
    stamp of the settings and of the code that builds the table and runs the cases,
    the dispatcher's included) and on the guards' own messages, not on the generated
    table, whose bytes change with every message's digest. `guard_files` are the guard
    files, root-relative, as the run's list of inputs names them; `folders` are the
    catalogue and messages folders.
    """
    from doit.tools import config_changed

    catalog, messages = folders
    guard_messages = []
    for case in guard_files:
        message = f"{messages}/{posixpath.splitext(posixpath.basename(case))[0]}.md"
        if os.path.isfile(os.path.join(root, message)):  # noqa: PTH113, PTH118 (strings)
            guard_messages.append(message)
    return {
        "basename": TASK,
        "doc": "Run every guard case through the packaged dispatcher; fail on a disagreement.",
        "actions": [(_action, [root, catalog])],
        "file_dep": sorted({*guard_files, *guard_messages, *table_sources}),
        "task_dep": ["dispatch_table"],
        # One config_changed per task (doit keeps them under one key); the list of case
        # files is in it, since doit does not rerun a task whose file_dep was removed.
        "uptodate": [config_changed(f"{configuration} {' '.join(guard_files)}")],
        "verbosity": 2,
    }
