"""The declaration of every output (`outputs/declared.py`) and the renderers that make them."""

from __future__ import annotations

import inspect

from hookmsg.inputs.reads import code_files
from hookmsg.outputs.check_cache import PACKAGE
from hookmsg.outputs.declared import FIXED_FILES, GUARD_CASES, NOT_RUN_BY_GENERATORS, OUTPUTS
from hookmsg.outputs.generated import GENERATOR_NAMES, RENDERERS, render_registration_file
from tests.support.imports import closure

GENERATED = "hookmsg.outputs.generated"
STAGING = "hookmsg.outputs.staging"


def test_every_declared_file_has_a_renderer_and_every_renderer_a_declared_file() -> None:
    assert sorted(RENDERERS) == sorted(FIXED_FILES)
    assert GENERATOR_NAMES == FIXED_FILES


def test_each_renderer_is_a_function_of_the_loaded_project() -> None:
    # Real functions, not names resolved at run time: mypy and a reader can follow them.
    for name, render in RENDERERS.items():
        assert inspect.isfunction(render), name
        assert list(inspect.signature(render).parameters) == ["loaded"], name


def test_the_declaration_names_files_only() -> None:
    for spec in OUTPUTS:
        assert all(isinstance(name, str) and ":" not in name for name in spec.files), spec.task


def test_the_code_each_task_alone_runs_names_real_files_and_its_renderers() -> None:
    """A task's own code (`code`) is watched by that task alone; the rest by every task.

    So every name in it must be a file of the package (a misspelt one watches nothing),
    and the module of each renderer under `render/` must be in it: a task whose renderer
    is left out reruns whenever any task's code changes.
    """
    package = set(code_files(PACKAGE))
    for spec in OUTPUTS:
        assert set(spec.code) <= package, spec.task
        for name in spec.files:
            module = RENDERERS[name].__module__.removeprefix("hookmsg.").replace(".", "/")
            if module.startswith("render/"):
                assert f"{module}.py" in spec.code, (spec.task, name)


# What every task of the graph runs: `validate`, and `build --only` for each generator (whose
# writing and staging are `outputs.staging`). The command line that reaches them imports
# each command lazily, so only these two count.
SHARED_ROOTS = ("hookmsg.cli.commands.validate", "hookmsg.cli.commands.build", STAGING)
RENDERED_CODE = ("render/", "templates/")


def _renderer_modules() -> dict[str, set[str]]:
    """Each task's renderers, by module. A renderer defined in `outputs.generated` (a thin
    wrapper) counts as the package functions it calls."""
    found: dict[str, set[str]] = {}
    for spec in OUTPUTS:
        renderers = [RENDERERS[name] for name in spec.files]
        if spec.per_harness:
            renderers.append(render_registration_file)
        modules = found.setdefault(spec.task, set())
        for render in renderers:
            if render.__module__ != GENERATED:
                modules.add(render.__module__)
                continue
            called = (render.__globals__.get(name) for name in render.__code__.co_names)
            modules |= {
                f.__module__ for f in called if inspect.isfunction(f) and f.__module__ != GENERATED
            }
    return found


def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]], set[str]]:
    """Each task's renderer modules; the arrows cut (from `outputs.generated`'s table of
    renderers to them); and the files the shared path runs."""
    renderers = _renderer_modules()
    cut = {GENERATED: {module for modules in renderers.values() for module in modules}}
    return renderers, cut, closure(SHARED_ROOTS, cut)


def test_the_code_each_task_alone_runs_is_what_its_renderers_import() -> None:
    """`code` is checked against the import graph, so no task misses an edit it renders.

    A task's own code is what its renderers import, transitively, that the shared path
    (`validate`, `build`) does not. `outputs.generated` imports every renderer for its
    table, so its arrows to them are cut: through it, each renderer is run by its own task
    only. The dispatcher's modules stay shared: validation reads their detectors as data.
    """
    renderers, cut, shared = _graph()
    for spec in OUTPUTS:
        own = closure(renderers[spec.task], cut) - shared
        derived = sorted(name for name in own if name.startswith(RENDERED_CODE))
        assert sorted(spec.code) == derived, spec.task
    assert [name for name in NOT_RUN_BY_GENERATORS if name in shared] == []


def test_the_import_graph_sees_lazy_imports_and_templates() -> None:
    # What makes the test above able to fail: an import inside a function, and a template
    # named by a string, are arrows too.
    wiring = closure(["hookmsg.render.wiring"])
    assert "render/inventory.py" in wiring and "templates/hook-wiring.md.j2" in wiring
    families = closure(["hookmsg.pipeline.families"])
    assert "render/rules.py" in families  # imported inside a function there
    assert "render/wiring.py" not in closure(["hookmsg.render.inventory"])


def test_the_guard_cases_watch_every_module_they_run_beyond_the_shared_code() -> None:
    # They lay out an install root (rendering every output through the table, cut as
    # above) and run the dispatcher on its dispatch table: each module of that which not
    # every task runs must be one the guard cases' stamp holds (theirs, or the table's).
    _, cut, shared = _graph()
    run = closure(("hookmsg.install.guard_case_task", "hookmsg.install.guard_cases"), cut)
    watched = {name for spec in OUTPUTS if spec.task == "dispatch_table" for name in spec.code} | {
        name for name, tasks in NOT_RUN_BY_GENERATORS.items() if GUARD_CASES in tasks
    }
    listed = {name for spec in OUTPUTS for name in spec.code} | set(NOT_RUN_BY_GENERATORS)
    unwatched = sorted(name for name in run - shared if name in listed and name not in watched)
    assert unwatched == []
