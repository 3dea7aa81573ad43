"""Fold-aware dispatch: one folded matcher, the registry entry each call is for.

Codex runs one hook for `Edit|Write|apply_patch`. Its registration names the Write and the
Edit entries (`--entry Write --entry Edit`), and the dispatcher decides per call: a patch
that adds a file draws the Write entry's messages, one that updates a file the Edit
entry's, one that does both each of them, every message once, in registry order. Run from
an unpacked release archive with the real guards, as Codex runs it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hookmsg_dispatch.call import Call, FileChange
from hookmsg_dispatch.contracts import resolve
from tests.support.dispatch import build_install_root, clean_env, delivered, dispatch, table

pytestmark = pytest.mark.slow

FOLDED = ["--contract", "codex", "--entry", "Write", "--entry", "Edit", "PreToolUse"]
HEADER = "# SPDX-License-Identifier: MIT"
CREATE_A_FILE = "The file must not have existed"  # pretooluse-write's own words


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_install_root(tmp_path_factory.mktemp("install"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    (folder / "src" / "app.py").write_text(f"{HEADER}\n\nprint('hello')\n", encoding="utf-8")
    return folder


def _patch(*sections: str) -> str:
    return "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"


ADD = "*** Add File: src/notes.py\n+" + HEADER + "\n+NOTE = 1\n"
UPDATE = "*** Update File: src/app.py\n@@\n-print('hello')\n+print('hello, world')\n"
DROP_HEADER = f"*** Update File: src/app.py\n@@\n-{HEADER}\n-\n print('hello')\n"


def _payload(project: Path, patch: str, session: str = "fold") -> dict[str, Any]:
    return {
        "cwd": str(project),
        "hook_event_name": "PreToolUse",
        "session_id": session,
        "transcript_path": "",
        "tool_name": "apply_patch",
        "tool_input": {"command": patch},
    }


def _context(root: Path, project: Path, patch: str, tmp_path: Path, *argv: str) -> str:
    ran = dispatch(
        root,
        *(argv or FOLDED),
        payload=_payload(project, patch),
        env=clean_env(tmp_path / "state"),
    )
    assert (ran.code, ran.err) == (0, ""), ran.err
    if not ran.out:
        return ""
    return str(ran.json()["hookSpecificOutput"]["additionalContext"])


def test_a_patch_that_updates_a_file_draws_the_edit_message_not_the_write_one(
    root: Path, project: Path, tmp_path: Path
) -> None:
    text = _context(root, project, _patch(UPDATE), tmp_path)
    assert delivered(root, "pretooluse-edit") in text
    assert delivered(root, "pretooluse-write") not in text
    assert CREATE_A_FILE not in text


def test_a_patch_that_adds_a_file_draws_the_write_message_not_the_edit_one(
    root: Path, project: Path, tmp_path: Path
) -> None:
    text = _context(root, project, _patch(ADD), tmp_path)
    assert delivered(root, "pretooluse-write") in text
    assert delivered(root, "pretooluse-edit") not in text


def test_a_patch_that_does_both_draws_each_once_in_registry_order(
    root: Path, project: Path, tmp_path: Path
) -> None:
    text = _context(root, project, _patch(ADD, UPDATE), tmp_path)
    write, edit = delivered(root, "pretooluse-write"), delivered(root, "pretooluse-edit")
    assert text.count(write) == 1 and text.count(edit) == 1
    assert text.index(write) < text.index(edit)


def test_the_edit_header_guard_runs_on_a_patch_that_drops_the_licence_header(
    root: Path, project: Path, tmp_path: Path
) -> None:
    text = _context(root, project, _patch(DROP_HEADER), tmp_path)
    procedure = "Full procedure: " + str(root / "messages" / "pretooluse-edit-header-guard.md")
    assert procedure in text
    assert "This call went ahead." in text
    assert CREATE_A_FILE not in text


def test_the_write_guards_see_only_the_added_files(
    root: Path, project: Path, tmp_path: Path
) -> None:
    # The added file lacks the header its sibling carries: the write-header guard fires
    # for it, and names it, never the updated file.
    add = "*** Add File: src/bare.py\n+VALUE = 2\n"
    text = _context(root, project, _patch(UPDATE, add), tmp_path)
    assert "Full procedure: " + str(root / "messages" / "pretooluse-write-header-guard.md") in text
    assert "src/bare.py" in text


def test_a_patch_that_only_deletes_draws_nothing(root: Path, project: Path, tmp_path: Path) -> None:
    assert _context(root, project, _patch("*** Delete File: src/app.py\n"), tmp_path) == ""


def test_the_explicit_message_form_still_works(root: Path, project: Path, tmp_path: Path) -> None:
    argv = ("--contract", "codex", "PreToolUse", "pretooluse-write")
    text = _context(root, project, _patch(UPDATE), tmp_path, *argv)
    assert text == delivered(root, "pretooluse-write")


def test_the_generated_codex_registration_names_both_entries(root: Path) -> None:
    data = json.loads((root / "generated" / "codex" / "hooks.json").read_text(encoding="utf-8"))
    folded = [
        group["hooks"][0]["command"]
        for group in data["hooks"]["PreToolUse"]
        if group.get("matcher") == "Edit|Write|apply_patch"
    ]
    assert len(folded) == 1
    assert folded[0].endswith(" --contract codex --entry Write --entry Edit PreToolUse")


def test_resolution_narrows_each_message_to_its_entry_files(root: Path) -> None:
    entries = table(root)["entries"]["PreToolUse"]
    added = FileChange("a.py", "x", None, True)
    edited = FileChange("b.py", "y", "z", False)
    call = Call("PreToolUse", "codex", tool="Write", changes=(added, edited))
    seen = dict(resolve(entries, ["Write", "Edit"], call))
    # Wired on both entries (an Edit with an empty old_string creates a file): both files.
    assert seen["pretooluse-write-header-guard"].changes == (added, edited)
    assert seen["pretooluse-write"].changes == (added,)
    assert seen["pretooluse-edit-header-guard"].changes == (edited,)
    assert seen["pretooluse-edit-header-guard"].tool == "Edit"
    assert seen["pretooluse-dependency-guard"].changes == (added, edited)
    names = list(seen)
    assert names.index("pretooluse-write") < names.index("pretooluse-edit")
    assert len(names) == len(set(names))
    # A call outside the named entries' tools draws nothing.
    shell = Call("PreToolUse", "codex", tool="Bash", command="ls")
    assert resolve(entries, ["Write", "Edit"], shell) == []
