""" "Inside the project": the git root above the call's working folder, never the install root."""

from __future__ import annotations

import os
from pathlib import Path

from hookmsg_dispatch.project import Project, git_root, read_bounded
from tests.support.guards import bash, claude_write, detect, git_project, real_git_project, run


def test_git_root_is_the_nearest_work_tree_above_cwd(tmp_path: Path) -> None:
    outer = real_git_project(tmp_path / "outer")
    inner = outer / "vendor" / "inner"
    inner.mkdir(parents=True)
    (inner / ".git").write_text("gitdir: ../../.git/modules/inner\n", encoding="utf-8")
    (inner / "src").mkdir()
    assert git_root(str(inner / "src")) == str(inner.resolve())
    assert git_root(str(outer / "vendor")) == str(outer.resolve())
    assert git_root(str(tmp_path)) is None
    assert git_root("relative/path") is None


def test_the_install_root_is_never_the_project(tmp_path: Path) -> None:
    install = git_project(tmp_path / "install", {"PLAN.md": "nothing\n"})
    (install / "hooks").mkdir()
    assert git_root(str(install / "hooks"), str(install)) is None
    assert Project.of(str(install / "hooks"), str(install)) is None
    assert run("pretooluse-write-plan-guard", claude_write(install, "x.py", "x\n")) is not None
    data = {"detector": "write-plan", "plans": ["PLAN.md"]}
    call = claude_write(install, "x.py", "x\n")
    assert detect("write-plan", call, data, str(install)) is None


def test_relative_paths_and_links(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"src/a.py": "x\n"})
    project = Project(str(root.resolve()), str(root / "src"))
    assert project.relative("a.py") == "src/a.py"
    assert project.relative("../README.md") == "README.md"
    assert project.relative("../../elsewhere.py") is None
    assert project.relative(str(root)) is None
    assert project.relative("bad\x00name") is None
    (root / "out").symlink_to(tmp_path)
    assert project.relative("../out/p2/x.py") is None


def test_reads_are_bounded_regular_files_inside(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"big.txt": "x" * 5000, "small.txt": "hi"})
    project = Project(str(root.resolve()), str(root))
    assert project.read_text("small.txt", 100) == "hi"
    assert project.read_text("big.txt", 100) is None
    assert project.head("big.txt", 100) == "x" * 100
    os.mkfifo(root / "fifo")
    assert project.read_text("fifo", 100) is None  # would block a hook: never opened
    (tmp_path / "secret.txt").write_text("s", encoding="utf-8")
    (root / "link.txt").symlink_to(tmp_path / "secret.txt")
    assert project.read_text("link.txt", 100) is None
    assert read_bounded(str(tmp_path / "secret.txt"), 100) == "s"


def test_commands_from_every_shell_harness_are_judged_alike(tmp_path: Path) -> None:
    root = git_project(tmp_path / "p", {"PLAN.md": "Only `git push`.\n"})
    for harness in ("claude", "codex", "qwen-code", "copilot"):
        call = bash(root, "git rebase -i main", harness=harness)
        assert run("pretooluse-bash-plan-guard", call) == {
            "command": "git rebase -i main",
            "plan": "PLAN.md",
            "action": "git rebase",
        }
        assert run("pretooluse-bash-plan-guard", bash(root, "git push", harness=harness)) is None
