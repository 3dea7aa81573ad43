"""oh-my-pi's own `edit` (one hashline patch), read from a live session.

The model calls it with `{i, input}`; the `tool_result` event the module sees reports
`{input, path, paths}` (the patch, and the files it names).

oh-my-pi hands hooks nothing before a call (its `tool_call` can only block), so the edit
messages are not registered there; what the contract must get right is the shape of the
edit the client reports. Here the model writes a file and then edits it with oh-my-pi's
own patch language; the interpreter given to `hookmsg install --python` is a wrapper that
records each argument vector the generated module runs, and the recorded `tool_result`
payload of the edit, read by the contract (`hookmsg_dispatch/xcsh.py`),
becomes an Edit of the file the patch names, with the patch's new line as its text.
(oh-my-pi shows the model nothing of a PreToolUse, so the edit message and the edit-header
guard are not registered there; the reading is what a strict or future channel relies on.)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hookmsg_dispatch.call import FileChange
from hookmsg_dispatch.xcsh import build_call
from tests.e2e.clients import Runner
from tests.e2e.standin import Finish, Use, Write
from tests.e2e.test_delivery import install, session
from tests.support.guards import run

pytestmark = pytest.mark.e2e

NOTES = "Plain notes.\n"
# The snapshot tag oh-my-pi 18.2.3 gives "Plain notes.\n" (its write result says
# `[notes.txt#E2CB]`); a hashline section must name the file's current tag.
PATCH = "[notes.txt#E2CB]\nPUT >1:\n+More notes.\n"


def recording_python(folder: Path, log: Path) -> Path:
    """An interpreter that appends its argument vector to `log`, then runs this Python."""
    wrapper = folder / "python-recording"
    record = "import json,sys;open(sys.argv[1],'a').write(json.dumps(sys.argv[2:])+'\\n')"
    wrapper.write_text(
        f'#!/bin/sh\n"{sys.executable}" -c "{record}" "{log}" "$@"\nexec "{sys.executable}" "$@"\n',
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    return wrapper


def payloads(log: Path) -> list[dict[str, Any]]:
    found = []
    for line in log.read_text(encoding="utf-8").splitlines():
        argv = json.loads(line)
        if "--payload" in argv:
            found.append(json.loads(argv[argv.index("--payload") + 1]))
    return found


@pytest.mark.parametrize("runner", ["oh-my-pi"], indirect=True)
def test_a_live_hashline_edit_is_read_as_an_edit_of_that_file(
    runner: Runner, tmp_path: Path
) -> None:
    log = tmp_path / "argv.jsonl"
    installed = install(runner, tmp_path, python=str(recording_python(tmp_path, log)))
    notes = installed.project / "notes.txt"
    edit = Use({"edit": {"i": "extend the notes", "input": PATCH}})
    _, _, described = session(runner, installed, [Write(str(notes), NOTES), edit, Finish("Done.")])

    assert notes.read_text(encoding="utf-8") == NOTES + "More notes.\n", described
    edits = [
        p for p in payloads(log) if p.get("type") == "tool_result" and p.get("toolName") == "edit"
    ]
    assert len(edits) == 1, described
    # What oh-my-pi 18.2.3 reports: the patch, and the paths it names (its `i` dropped).
    assert edits[0]["input"] == {"input": PATCH, "path": "notes.txt", "paths": ["notes.txt"]}
    table = json.loads((installed.root / "data" / "dispatch-table.json").read_text("utf-8"))
    call = build_call(edits[0], table["contracts"]["oh-my-pi"], "oh-my-pi", "PreToolUse")
    assert (call.tool, call.changes) == (
        "Edit",
        (FileChange("notes.txt", "More notes.", None, False),),
    )
    # A hashline patch carries the new lines only, never the replaced ones, so the guard
    # against an edit that drops a licence header has nothing to compare: it stays silent.
    assert run("pretooluse-edit-header-guard", call) is None
