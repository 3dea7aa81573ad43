"""The dependency guard: lockfiles always, manifests only when a dependency entry changes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.guards import (
    bash,
    claude_edit,
    claude_write,
    codex_patch,
    git_project,
    qwen_write,
)
from tests.support.guards import run as run_guard

GUARD = "pretooluse-dependency-guard"

PYPROJECT = """[project]
name = "demo"
version = "1.0"
dependencies = [
  "requests==2.31.0",
  "six",  # old
]

[project.optional-dependencies]
test = ["pytest>=8"]

[tool.ruff]
line-length = 100
"""


def run(call):  # type: ignore[no-untyped-def]
    return run_guard(GUARD, call)


def test_lockfile_write_fires_on_every_harness(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"package-lock.json": "{}\n"})
    expected = {"path": "package-lock.json", "change": "lockfile edited by hand"}
    assert run(claude_write(root, str(root / "package-lock.json"), '{"a": 1}')) == expected
    assert run(qwen_write(root, "package-lock.json", "{}")) == expected
    patch = "*** Begin Patch\n*** Update File: package-lock.json\n@@\n-{}\n+{ }\n*** End Patch"
    assert run(codex_patch(root, patch)) == expected
    nested = git_project(tmp_path / "q", {"sub/poetry.lock": "x\n"})
    assert run(claude_edit(nested, "sub/poetry.lock", "x", "y")) == {
        "path": "sub/poetry.lock",
        "change": "lockfile edited by hand",
    }


def test_tool_section_edit_in_pyproject_is_silent(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"pyproject.toml": PYPROJECT})
    target = str(root / "pyproject.toml")
    assert run(claude_edit(root, target, "line-length = 100", "line-length = 120")) is None
    rewritten = PYPROJECT.replace("line-length = 100", "line-length = 88")
    assert run(claude_write(root, target, rewritten)) is None


def test_pyproject_version_change_addition_and_removal_are_named(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"pyproject.toml": PYPROJECT})
    target = str(root / "pyproject.toml")
    found = run(claude_edit(root, target, '"requests==2.31.0"', '"requests==2.32.0"'))
    assert found == {"path": "pyproject.toml", "change": "requests ==2.31.0 → ==2.32.0"}
    found = run(claude_edit(root, target, '  "six",  # old\n', '  "left-pad>=1.3",\n'))
    assert found is not None
    assert found["change"] == "added left-pad >=1.3; removed six"
    found = run(
        claude_edit(root, target, 'test = ["pytest>=8"]', 'test = ["pytest>=8", "hypothesis"]')
    )
    assert found == {"path": "pyproject.toml", "change": "added hypothesis"}


def test_many_changes_are_capped(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"requirements.txt": "a==1\nb==1\nc==1\nd==1\ne==1\n"})
    new = "a==2\nb==2\nc==2\nd==2\ne==2\n"
    found = run(claude_write(root, str(root / "requirements.txt"), new))
    assert found is not None
    assert found["change"] == "a ==1 → ==2; b ==1 → ==2; c ==1 → ==2; 2 more"


def test_package_json(tmp_path: Path) -> None:
    before = {"name": "x", "version": "1.0.0", "dependencies": {"react": "^18.0.0"}}
    root = git_project(tmp_path / "p", {"package.json": json.dumps(before, indent=2)})
    target = str(root / "package.json")
    bumped = {**before, "version": "1.1.0", "scripts": {"test": "jest"}}
    assert run(claude_write(root, target, json.dumps(bumped, indent=2))) is None
    added = {**before, "devDependencies": {"left-pad": "^1.3.0"}}
    assert run(claude_write(root, target, json.dumps(added, indent=2))) == {
        "path": "package.json",
        "change": "added left-pad ^1.3.0",
    }
    found = run(claude_edit(root, target, '"react": "^18.0.0"', '"react": "^19.0.0"'))
    assert found == {"path": "package.json", "change": "react ^18.0.0 → ^19.0.0"}


def test_cargo_go_and_gemfile(tmp_path: Path) -> None:
    root = git_project(
        tmp_path / "p",
        {
            "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n\n[dependencies]\n'
            'serde = { version = "1.0", features = ["derive"] }\n',
            "go.mod": "module example.com/x\n\ngo 1.22\n\n"
            "require (\n\tgolang.org/x/text v0.14.0\n)\n",
            "Gemfile": "source 'https://rubygems.org'\ngem 'rails', '~> 7.0'\n",
        },
    )
    assert run(claude_edit(root, "Cargo.toml", 'version = "0.1.0"', 'version = "0.2.0"')) is None
    found = run(
        claude_edit(root, "Cargo.toml", "[dependencies]\n", '[dependencies]\nrand = "0.8"\n')
    )
    assert found == {"path": "Cargo.toml", "change": "added rand 0.8"}
    assert run(claude_edit(root, "go.mod", "go 1.22", "go 1.23")) is None
    found = run(claude_edit(root, "go.mod", "v0.14.0", "v0.15.0"))
    assert found == {"path": "go.mod", "change": "golang.org/x/text v0.14.0 → v0.15.0"}
    found = run(claude_edit(root, "Gemfile", "'~> 7.0'", "'~> 7.1'"))
    assert found == {"path": "Gemfile", "change": "rails ~> 7.0 → ~> 7.1"}


def test_codex_patch_on_a_manifest_is_judged_on_the_whole_file(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"pyproject.toml": PYPROJECT})
    silent = (
        "*** Begin Patch\n*** Update File: pyproject.toml\n@@ [tool.ruff]\n"
        "-line-length = 100\n+line-length = 120\n*** End Patch"
    )
    assert run(codex_patch(root, silent)) is None
    loud = (
        "*** Begin Patch\n*** Update File: pyproject.toml\n@@\n dependencies = [\n"
        '-  "requests==2.31.0",\n+  "requests==2.32.0",\n*** End Patch'
    )
    assert run(codex_patch(root, loud)) == {
        "path": "pyproject.toml",
        "change": "requests ==2.31.0 → ==2.32.0",
    }


def test_new_manifest_with_dependencies_fires_and_without_is_silent(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p")
    assert run(qwen_write(root, "requirements-dev.txt", "# none yet\n")) is None
    found = run(qwen_write(root, "requirements-dev.txt", "pytest>=8\n"))
    assert found == {"path": "requirements-dev.txt", "change": "added pytest >=8"}


def test_outside_the_project_and_other_files_are_silent(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"README.md": "x\n"})
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run(claude_write(root, str(elsewhere / "package-lock.json"), "{}")) is None
    assert run(claude_write(root, "../elsewhere/yarn.lock", "x")) is None
    assert run(claude_write(root, "README.md", "requests==2\n")) is None
    assert run(bash(root, "npm ls left-pad")) is None
    no_git = tmp_path / "plain"
    no_git.mkdir()
    assert run(claude_write(no_git, "package-lock.json", "{}")) is None


def test_a_link_out_of_the_project_is_outside(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p")
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "vendor").symlink_to(outside)
    assert run(claude_write(root, "vendor/package-lock.json", "{}")) is None


def test_replace_all_edits_are_applied_everywhere(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"requirements.txt": "a==1\nb==1\n"})
    call = claude_edit(root, "requirements.txt", "==1", "==2")
    assert run(call) == {"path": "requirements.txt", "change": "a ==1 → ==2"}
    every = claude_edit(root, "requirements.txt", "==1", "==2", replace_all=True)
    assert run(every) == {"path": "requirements.txt", "change": "a ==1 → ==2; b ==1 → ==2"}
