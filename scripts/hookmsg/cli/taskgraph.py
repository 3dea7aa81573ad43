"""hookmsg's doit task graph: `doit` validates and regenerates what is out of date.

Every content repository's `dodo.py` takes it from here in one line
(`from hookmsg.cli.taskgraph import *`); the repository is the folder doit runs in (doit
changes into the folder of the `dodo.py` it loads before loading it).

Every task is derived from the one declaration of outputs (`hookmsg.outputs.declared.OUTPUTS`):
its name, description, file dependencies and targets. Kept light on purpose: loading
this file imports only the standard library, doit's own helpers and hookmsg's light
modules. Every action runs through `hookmsg.cli.main.run`, the same code as the `hookmsg`
command; within one `doit` run the sources are loaded and validated once and shared
by every task.

Settings are checked before anything else: a bad `[tool.hookmsg]` value stops every
doit command (`doit`, `doit list`, `doit info`, ...) with its K001 line and exit 2.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import posixpath
import sys
from array import array
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

from doit.exceptions import TaskFailed
from doit.tools import config_changed

from hookmsg.errors import HookmsgError
from hookmsg.harnesses.files import BUILTIN_HARNESSES
from hookmsg.inputs.doit_state import StampChecker, open_state, remember
from hookmsg.inputs.file_memo import FileMemo
from hookmsg.inputs.fingerprint import SEALS, content_mark, holds_the_same
from hookmsg.inputs.reads import GUARDS_FOLDER, code_files, run_inputs  # (stdlib only)
from hookmsg.outputs.declared import (
    GUARD_CASES,
    MANIFEST,
    MESSAGES,
    NOT_RUN_BY_GENERATORS,
    OUTPUTS,
    SOURCED,
    OutputSpec,
    registration_files,
    survey,
)
from hookmsg.project.pyproject import checked_settings

__all__ = ["DOIT_CONFIG", "task_hookmsg"]

ROOT = Path.cwd()
PACKAGE = Path(__file__).resolve().parent.parent

DOIT_CONFIG: dict[str, Any] = {
    "default_tasks": ["validate", *(spec.task for spec in OUTPUTS), "publish", "guard_cases"],
    # sqlite3 takes concurrent runs safely; the state file is git-ignored and losing
    # it only costs a rebuild.
    "backend": "sqlite3",
    "dep_file": ".doit.db",
    # File dependencies judged by their whole stat, then content: doit's default trusts
    # an unchanged mtime, which an edit can put back.
    "check_file_uptodate": StampChecker,
    "verbosity": 1,
}
STATE = ROOT / DOIT_CONFIG["dep_file"]


def _stop(message: str) -> NoReturn:
    """Report like the `hookmsg` command (one diagnostic line, exit 2), never a traceback."""
    sys.stderr.write(message.rstrip("\n") + "\n")
    raise SystemExit(2)


try:
    # What the configuration and catalogue files held, as the last run derived it: used
    # only while each file's stat is unchanged (see hookmsg.inputs.file_memo).
    _REMEMBERED, _NOTE = open_state(STATE)
    if _NOTE:
        print(_NOTE, file=sys.stderr)
    MEMO = FileMemo(_REMEMBERED)
    SEALS.load(_REMEMBERED)
    SETTINGS = checked_settings(ROOT, MEMO)
except HookmsgError as error:
    _stop(str(error))
except RecursionError:  # the settings, once read, nested past what the checks can walk
    from hookmsg.project.rules import unreadable_pyproject

    _stop(str(unreadable_pyproject(ROOT / "pyproject.toml", "it is nested too deeply to read")))


# Paths are plain strings relative to the root, normalised one way: doit treats `./x`
# and `x` as different files. (Strings, not Path objects: this runs on every `doit`.)
MESSAGES_DIR = posixpath.normpath(SETTINGS["messages"])
CATALOG_DIR = posixpath.normpath(SETTINGS["catalog"])
GENERATED_DIR = posixpath.normpath(SETTINGS["generated"])


def _as_dep(path: Path) -> str:
    """A path outside the content as doit names it: relative to the root when inside it."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


# hookmsg's own code and data: inside the root in hookmsg's own repository, installed
# elsewhere for every other content repository.
PACKAGE_DIR = _as_dep(PACKAGE)


# What this run reads (see `hookmsg.inputs.reads`: the check cache reads the same list).
READS = run_inputs(ROOT, SETTINGS, MEMO)
MESSAGE_FILES = READS.messages
# An optional catalogue file that is absent is no file_dep (doit refuses a missing one);
# which of them are present is part of the configuration below.
CATALOG = READS.catalogue
# Whatever reads the harness facts reads hookmsg's built-in file and the optional override.
HARNESS_FILES = [_as_dep(BUILTIN_HARNESSES), *filter(None, [CATALOG.get("harnesses.toml")])]
# The guard files, which extend the registry: whatever reads `hooks.toml` reads them too.
GUARD_FILES = [path for name, path in CATALOG.items() if name.startswith(f"{GUARDS_FOLDER}/")]
REGISTRATIONS = registration_files(ROOT, SETTINGS, MEMO)
# The skill and command files that the skill catalogue's `[[sources]]` name.
SOURCED_FILES = READS.sourced
remember(STATE, MEMO.fresh)
if os.path.isdir(f"{ROOT}/.hookmsg-cache"):  # noqa: PTH112 (one stat on every run)
    from hookmsg.outputs.staging import clear_leftovers

    clear_leftovers(ROOT)  # a stage or an old folder that a killed run left behind
# The files this run proved by hashing, once settled, are believed by their stamp from
# the next run on (see `hookmsg.inputs.fingerprint.Seals`): written when doit has finished.
atexit.register(lambda: remember(STATE, SEALS.fresh))


def _files_of(spec: OutputSpec) -> list[str]:
    return [*spec.files, *(REGISTRATIONS if spec.per_harness else [])]


PRODUCED = {name for spec in OUTPUTS for name in _files_of(spec)}

# Modules and templates that only some tasks run (each spec's `code`), and those no
# generator runs; every other module is shared by all.
USED_ONLY_BY = {name: set(tasks) for name, tasks in NOT_RUN_BY_GENERATORS.items()}
for _spec in OUTPUTS:
    for _name in _spec.code:
        USED_ONLY_BY.setdefault(_name, set()).add(_spec.task)
# The built-in harness facts are data the tasks that read them watch as a file_dep.
CODE = [name for name in code_files(PACKAGE) if f"{PACKAGE_DIR}/{name}" not in HARNESS_FILES]
SHARED_CODE = [name for name in CODE if name not in USED_ONLY_BY]


def _code_stamp_of(names: list[str]) -> str:
    """One hash over these modules' names and stats (size, modification and change times,
    inode): the change time catches an edit that puts the size and modification time back.

    The numbers are hashed as they are, not formatted: this runs over every module on
    every `doit`, and formatting them cost as much as taking the stats.
    """
    numbers = array("q")
    for name in names:
        try:
            info = os.stat(CODE_ROOT + name)  # noqa: PTH116 (no Path objects: ~170 a run)
            numbers.extend((info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino))
        except OSError:
            numbers.append(-1)  # missing: no size is negative
    hashed = hashlib.sha256("\n".join([PACKAGE_DIR, *names]).encode("utf-8", "surrogateescape"))
    hashed.update(numbers.tobytes())
    return hashed.hexdigest()


CODE_ROOT = f"{PACKAGE}/"
_SHARED_STAMP: list[str] = []


def _code_stamp(*tasks: str) -> str:
    """One stamp over the code that `tasks` run, for `config_changed`.

    Cheaper than listing every module as a file_dep of every task (doit checks each
    file_dep of each task on every run). The shared code is stamped once per run; each
    task adds the modules only it (or only some tasks, itself among them) runs.
    """
    if not _SHARED_STAMP:
        _SHARED_STAMP.append(_code_stamp_of(SHARED_CODE))
    own = [name for name, users in USED_ONLY_BY.items() if users.intersection(tasks)]
    return f"{_SHARED_STAMP[0]} {_code_stamp_of(own)}"


def _inputs(spec: OutputSpec) -> list[str]:
    found: list[str] = []
    for source in spec.reads:
        if source == MESSAGES:
            found += MESSAGE_FILES
        elif source == SOURCED:
            found += SOURCED_FILES
        elif source == "harnesses.toml":
            found += HARNESS_FILES
        elif source == "hooks.toml":
            found += [CATALOG[source], *GUARD_FILES]
        else:
            found.append(CATALOG[source])
    return found


# Settings are not files; and doit does not rerun a task when a file_dep is removed
# (nor when a new file appears in a folder), so the lists of message files and of
# sourced skill and command files are part of the configuration too, and so is which
# optional catalogue files are present. Hashed once per run, not once per task.
_CONFIGURATION = hashlib.sha256(
    json.dumps(
        {
            "settings": SETTINGS,
            "messages": MESSAGE_FILES,
            "sourced": SOURCED_FILES,
            "catalogue": sorted(CATALOG),
        },
        sort_keys=True,
    ).encode()
).hexdigest()


def _settings_and_names(code: str) -> Any:
    """One config_changed per task (doit stores them all under a single key)."""
    return config_changed(f"{_CONFIGURATION} {code}")


def _hookmsg(*argv: str) -> TaskFailed | None:
    from hookmsg.cli.main import run
    from hookmsg.pipeline.workspace import share_loads

    share_loads()  # one load and one validation of the sources for the whole run
    code = run(list(argv))
    return TaskFailed(f"hookmsg {' '.join(argv)} exited with {code}") if code else None


def _marks(paths: list[str]) -> dict[str, Any]:
    """What each path holds (see `hookmsg.inputs.fingerprint.content_mark`), for a task's values."""
    return {path: content_mark(ROOT / path) for path in paths}


def _all_the_same(marks: Any, paths: list[str] | None = None) -> bool:
    """Do `paths` (default: the ones `marks` names) still hold what `marks` recorded?"""
    if not isinstance(marks, dict) or (paths is not None and sorted(marks) != sorted(paths)):
        return False
    # Strings, not Path objects: every target and Bindings-named path, on every run.
    return all(holds_the_same(os.path.join(ROOT, path), mark) for path, mark in marks.items())  # noqa: PTH118


class _Check:
    """An `uptodate` check with a readable reason in `doit info`."""

    def __init__(self, reason: str, test: Callable[[Any, dict[str, Any]], bool]) -> None:
        self.reason = reason
        self.test = test

    def __call__(self, task: Any, values: dict[str, Any]) -> bool:
        return self.test(task, values)

    def __repr__(self) -> str:
        return self.reason


def _validate() -> TaskFailed | dict[str, Any]:
    """Validate; remember the Bindings-named paths and what each held."""
    failed = _hookmsg("validate")
    if failed is not None:
        return failed
    from hookmsg.pipeline.workspace import load_workspace
    from hookmsg.project.settings import load_project

    # Our own outputs are planned paths (they count as present, being rebuilt); their
    # bytes are the generator tasks' business, not validate's.
    ours = {f"{GENERATED_DIR}/{name}" for name in PRODUCED}
    referenced = load_workspace(load_project(ROOT)).referenced_paths()
    return {"referenced": _marks([p for p in referenced if p not in ours])}


_SURVEYED: list[Any] = []


def _leftovers() -> Any:
    """One survey of the generated folder per run (tasks only ever write produced names)."""
    if not _SURVEYED:
        _SURVEYED.append(survey(ROOT / GENERATED_DIR, PRODUCED))
    return _SURVEYED[0]


BINDINGS_UNCHANGED = _Check(
    "a path named in a Bindings section changed, appeared or disappeared",
    lambda task, values: _all_the_same(values.get("referenced")),
)
NOTHING_REFUSED = _Check(
    "the generated folder holds a file hookmsg did not write, or a symbolic link",
    lambda task, values: not (_leftovers().foreign or _leftovers().links),  # one survey
)
NOTHING_STALE = _Check(
    "the generated folder holds a stale output to remove",
    lambda task, values: not _leftovers().stale,
)
TARGETS_UNTOUCHED = _Check(
    "a target differs from the bytes this task last wrote (edited or deleted by hand)",
    lambda task, values: _all_the_same(values.get("marks"), list(task.targets)),
)


def _validate_task() -> dict[str, Any]:
    return {
        "basename": "validate",
        "doc": "Check every message, the catalogue, every Bindings-named path and the "
        "generated folder.",
        "actions": [(_validate, [])],
        "file_dep": [*MESSAGE_FILES, *CATALOG.values(), HARNESS_FILES[0], *SOURCED_FILES],
        "uptodate": [
            _settings_and_names(code=_code_stamp("validate")),
            BINDINGS_UNCHANGED,
            NOTHING_REFUSED,
        ],
        "verbosity": 2,
    }


# One staged commit over every output of the run (see `hookmsg.outputs.staging`): each generator
# task writes into the stage, and `publish` (or, when only some tasks were asked for, the
# generators' teardown) swaps it in whole once every one of them has succeeded. A run that
# fails or is killed leaves the generated folder as it was, wholly.
_RUN = {"started": 0, "finished": 0}


def _build(targets: list[str], *argv: str) -> TaskFailed | dict[str, Any]:
    """Run `hookmsg build` into the stage; remember the bytes it left in every target."""
    from hookmsg.outputs import staging

    stage = staging.begin(ROOT, ROOT / GENERATED_DIR)
    _RUN["started"] += 1
    failed = _hookmsg(*argv)
    if failed is not None:
        return failed
    _RUN["finished"] += 1
    # The stage's files become the generated folder's as they are (same inodes, same stat).
    return {"marks": {t: content_mark(stage.inside(ROOT / t)) for t in targets}}


def _publish() -> TaskFailed | None:
    """Commit the stage: the generated folder is replaced whole, in one step."""
    from hookmsg.errors import HookmsgError
    from hookmsg.outputs import staging

    generated = ROOT / GENERATED_DIR
    if _RUN["started"] != _RUN["finished"] or sys.exc_info()[0] is not None:
        staging.discard(generated)  # a task failed or the run was interrupted
        return None
    try:
        staging.commit(generated)
    except (HookmsgError, OSError) as error:
        print(f"hookmsg: cannot replace {GENERATED_DIR}: {error}", file=sys.stderr)
        return TaskFailed(f"the outputs were not replaced: {error}")
    return None


NOTHING_STAGED = _Check(
    "no task staged an output in this run",
    lambda task, values: not _RUN["started"],
)


def _generator_task(spec: OutputSpec) -> dict[str, Any]:
    names = _files_of(spec)
    only = [arg for name in names for arg in ("--only", name)]
    targets = [f"{GENERATED_DIR}/{name}" for name in names]
    uptodate = [_settings_and_names(code=_code_stamp(spec.task)), TARGETS_UNTOUCHED]
    if MANIFEST in names:
        uptodate.append(NOTHING_STALE)
    return {
        "basename": spec.task,
        "doc": spec.doc,
        "actions": [(_build, [targets, "build", *only])],
        "file_dep": _inputs(spec),
        "targets": targets,
        "task_dep": ["validate"],
        "uptodate": uptodate,
        # When a run asks for some tasks only, `publish` is not among them.
        "teardown": [(_publish, [])],
        "verbosity": 2,
        # `doit clean` leaves committed outputs alone: they are sources of truth
        # for review, and `hookmsg build` recreates them.
        "clean": [],
    }


def _guard_cases_task() -> dict[str, Any]:
    from hookmsg.install.guard_case_task import guard_cases_task  # the guards' cases (stdlib-light)

    table = next(spec for spec in OUTPUTS if spec.task == "dispatch_table")
    sources = [path for path in _inputs(table) if path not in MESSAGE_FILES]
    # The cases run the packaged dispatcher on the table: its code (the dispatcher's
    # modules are shared code, in every stamp), and the install root's.
    configuration = f"{_CONFIGURATION} {_code_stamp(table.task, GUARD_CASES)}"
    folders = (CATALOG_DIR, MESSAGES_DIR)
    return guard_cases_task(ROOT, folders, GUARD_FILES, sources, configuration)


def _tasks() -> Iterator[dict[str, Any]]:
    """Every task of the graph, each under its own name (`basename`)."""
    yield _validate_task()
    for spec in OUTPUTS:
        yield _generator_task(spec)
    yield _guard_cases_task()
    yield {
        "basename": "publish",
        "doc": "Replace the generated folder whole with what this run's tasks staged.",
        "actions": [(_publish, [])],
        "task_dep": [spec.task for spec in OUTPUTS],
        "uptodate": [NOTHING_STAGED],
        "verbosity": 2,
    }
    yield {
        "basename": "package",
        "doc": "Write the reproducible release archive under dist/ (refused if check fails).",
        # The archive's name carries the content version (`git describe`), which only
        # the action computes; an existing archive with the same bytes is left as it is.
        "actions": [(_hookmsg, ["package"])],
        "uptodate": [False],
        "verbosity": 2,
    }
    yield {
        "basename": "check",
        "doc": "Fail if a generated file drifted from its sources; never writes.",
        "actions": [(_hookmsg, ["check"])],
        "uptodate": [False],
        "verbosity": 2,
    }


# One task creator, not one per task, and a one-line one: doit tokenizes each creator's
# source to order them, which costs a no-op run more than all its up-to-date checks.
def task_hookmsg() -> Iterator[dict[str, Any]]: return _tasks()  # fmt: skip
