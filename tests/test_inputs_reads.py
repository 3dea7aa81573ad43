"""One list of what a run reads: the task graph, the check cache and `package` take the same.

`hookmsg.inputs.reads` lists the source files (messages, catalogue, sourced skill and
command files) and hookmsg's own code; these tests hold each consumer to that list.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hookmsg.inputs.reads import code_files, run_inputs
from hookmsg.outputs.check_cache import PACKAGE, entries
from hookmsg.project.pyproject import checked_settings
from tests.support.repository import WITH_DODO, copy_repository


def _listed(root: Path) -> set[str]:
    reads = run_inputs(root, checked_settings(root))
    return {*reads.messages, *reads.catalogue.values(), *reads.sourced}


def test_the_check_cache_hashes_every_source_file_a_run_reads(tmp_path: Path) -> None:
    root = copy_repository(tmp_path / "repo")
    found = entries(root, [])
    hashed = {
        value.split(" ")[1]
        for label, (value, _ctime, _stamp) in found.items()
        if label.startswith(("message:", "catalog:", "sourced:"))
    }
    assert {os.path.realpath(root / text) for text in _listed(root)} == hashed
    assert any(text.endswith("/SKILL.md") for text in _listed(root))  # sourced files too


def test_the_task_graph_depends_on_every_source_file_a_run_reads(tmp_path: Path) -> None:
    root = copy_repository(tmp_path / "repo", WITH_DODO)
    done = subprocess.run(
        [sys.executable, "-m", "doit", "info", "validate"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    # `doit info` exits 1 for a task not yet run; the listing is what counts here.
    assert "file_dep" in done.stdout, done.stdout + done.stderr
    file_deps = {line[3:] for line in done.stdout.split("\n") if line.startswith(" - ")}
    assert _listed(root) <= file_deps, done.stdout


def test_a_skill_catalogue_that_leads_out_of_the_root_sources_nothing(tmp_path: Path) -> None:
    root = copy_repository(tmp_path / "repo")
    outside = tmp_path / "outside.toml"
    outside.write_bytes((root / "catalog/skills.toml").read_bytes())
    (root / "catalog/skills.toml").unlink()
    (root / "catalog/skills.toml").symlink_to(outside)
    reads = run_inputs(root, checked_settings(root))
    assert reads.sourced == []
    assert reads.catalogue["skills.toml"] == "catalog/skills.toml"  # still read, and judged


def test_an_absent_optional_catalogue_file_is_not_listed(tmp_path: Path) -> None:
    root = copy_repository(tmp_path / "repo")
    (root / "catalog/harnesses.toml").unlink(missing_ok=True)
    (root / "catalog/skills.toml").unlink()
    reads = run_inputs(root, checked_settings(root))
    assert "harnesses.toml" not in reads.catalogue  # optional: absent is no input
    assert reads.catalogue["skills.toml"] == "catalog/skills.toml"  # required: seen missing


def test_each_guard_file_is_an_input_and_nothing_else_in_its_folder(tmp_path: Path) -> None:
    root = copy_repository(tmp_path / "repo")
    guards = root / "catalog/guards"
    (guards / "notes.txt").write_text("not a guard file\n", encoding="utf-8")
    reads = run_inputs(root, checked_settings(root))
    listed = sorted(key for key in reads.catalogue if key.startswith("guards/"))
    assert listed == sorted(f"guards/{path.name}" for path in guards.glob("*.toml"))
    assert reads.catalogue["guards/pretooluse-eval-guard.toml"] == (
        "catalog/guards/pretooluse-eval-guard.toml"
    )


def test_hookmsg_code_is_its_modules_templates_and_data_without_bytecode() -> None:
    names = code_files(PACKAGE)
    assert names == sorted(names)
    assert {"cli/taskgraph.py", "templates/skill-index.md.j2", "data/harnesses.toml"} <= set(names)
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]
    on_disk = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.suffix in (".py", ".j2", ".toml") and "__pycache__" not in path.parts
    }
    # The dispatcher beside it is code the build reads too (the detectors it declares).
    dispatcher = PACKAGE.parent / "hookmsg_dispatch"
    on_disk |= {
        f"../hookmsg_dispatch/{path.relative_to(dispatcher).as_posix()}"
        for path in dispatcher.rglob("*")
        if path.suffix in (".py", ".j2", ".toml") and "__pycache__" not in path.parts
    }
    assert "../hookmsg_dispatch/guards/plans.py" in names
    assert set(names) == on_disk
