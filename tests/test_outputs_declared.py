"""The declaration of every output (`outputs/declared.py`) and the renderers that make them."""

from __future__ import annotations

import inspect

from hookmsg.inputs.reads import code_files
from hookmsg.outputs.check_cache import PACKAGE
from hookmsg.outputs.declared import FIXED_FILES, OUTPUTS
from hookmsg.outputs.generated import GENERATOR_NAMES, RENDERERS


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
