"""Calls built the way each harness contract builds them, temporary git projects, and the
guard data exactly as the dispatch table carries it (validated from `catalog/guards/`)."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from hookmsg.catalogue.detectors import detector_modules
from hookmsg.catalogue.guard_files import load_guard_files
from hookmsg_dispatch.call import Call, FileChange
from hookmsg_dispatch.guards import evaluate
from tests.support.repository import REPO

INSTALL_ROOT = "/nonexistent/hookmsg-install-root"


@cache
def conditions() -> dict[str, dict[str, Any]]:
    loaded = load_guard_files(REPO / "catalog" / "guards", "catalog/guards", 1 << 20, REPO)
    assert loaded.complete and loaded.diagnostics == [], loaded.diagnostics
    return loaded.conditions()


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    """The dispatcher's `evaluate`, given the module that declares `detector`, as the
    dispatch table names it."""
    return evaluate(detector, call, data, root, detector_modules()[detector].module)


def run(message: str, call: Call) -> dict[str, str] | None:
    data = conditions()[message]
    return detect(data["detector"], call, data, INSTALL_ROOT)


def git_project(root: Path, files: dict[str, str] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / ".git").mkdir()
    for name, text in (files or {}).items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def real_git_project(root: Path) -> Path:
    """A project made by `git init`, for the cases where the layout of `.git` matters."""
    root.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def claude_write(cwd: Path, path: str, content: str) -> Call:
    return Call(
        event="PreToolUse",
        harness="claude",
        cwd=str(cwd),
        session_id="s1",
        tool="Write",
        changes=(FileChange(path=path, after=content, created=True),),
        tool_input={"file_path": path, "content": content},
    )


def claude_edit(cwd: Path, path: str, old: str, new: str, *, replace_all: bool = False) -> Call:
    tool_input: dict[str, Any] = {"file_path": path, "old_string": old, "new_string": new}
    if replace_all:
        tool_input["replace_all"] = True
    return Call(
        event="PreToolUse",
        harness="claude",
        cwd=str(cwd),
        session_id="s1",
        tool="Edit",
        changes=(FileChange(path=path, after=new, before=old, created=False),),
        tool_input=tool_input,
    )


def qwen_write(cwd: Path, path: str, content: str) -> Call:
    return Call(
        event="PreToolUse",
        harness="qwen-code",
        cwd=str(cwd),
        session_id="q1",
        tool="Write",
        changes=(FileChange(path=path, after=content, created=True),),
        tool_input={"file_path": path, "content": content},
    )


def codex_patch(cwd: Path, patch: str) -> Call:
    """An apply_patch call: one FileChange per file, its added and removed lines."""
    changes = []
    path, kind, added, removed = "", "", [], []

    def flush() -> None:
        if path:
            changes.append(
                FileChange(
                    path=path,
                    after="\n".join(added),
                    before="\n".join(removed) if kind == "update" else None,
                    created=kind == "add",
                )
            )

    for line in patch.split("\n"):
        for marker, name in (("*** Add File: ", "add"), ("*** Update File: ", "update")):
            if line.startswith(marker):
                flush()
                path, kind, added, removed = line[len(marker) :], name, [], []
                break
        else:
            if line.startswith("+"):
                added.append(line[1:])
            elif line.startswith("-"):
                removed.append(line[1:])
    flush()
    return Call(
        event="PreToolUse",
        harness="codex",
        cwd=str(cwd),
        session_id="c1",
        tool="Write",
        changes=tuple(changes),
        tool_input={"command": patch},
    )


def bash(cwd: Path, command: str, tool: str = "Bash", harness: str = "claude") -> Call:
    return Call(
        event="PreToolUse",
        harness=harness,
        cwd=str(cwd),
        session_id="b1",
        tool=tool,
        command=command,
        tool_input={"command": command},
    )
