"""Codex's folded matcher in the real client: every patch draws the messages of its kind.

Codex runs one hook for `Edit|Write|apply_patch`. Installed with `hookmsg install`, a
session whose model first sends a patch that updates an existing file (and drops its
licence header), then one that adds a file, must receive the edit message and the
edit-header guard's advisory after the first, never the create-a-file text of the write
message, and the write message after the second.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.clients import RUNNERS, Runner
from tests.e2e.conftest import CLIENTS, required
from tests.e2e.standin import Finish, Patch
from tests.e2e.test_delivery import context, install, session

pytestmark = pytest.mark.e2e

HEADER = "# SPDX-License-Identifier: MIT"
CREATE_A_FILE = "The file must not have existed"  # the write message's own words


@pytest.fixture
def codex(executables: dict[str, Path], tmp_path: Path) -> Runner:
    if "codex" not in executables:
        pins = {c.harness: c.spec for c in CLIENTS.pinned_clients()}
        reason = f"{pins.get('codex', 'codex')} is not installed: run scripts/e2e_clients.py"
        if required():
            pytest.fail(f"HOOKMSG_E2E=require: {reason}")
        pytest.skip(reason)
    return RUNNERS["codex"](executables["codex"], tmp_path / "home")


def test_an_update_draws_the_edit_message_and_an_added_file_the_write_message(
    codex: Runner, tmp_path: Path
) -> None:
    installed = install(codex, tmp_path)
    app = installed.project / "app.py"
    app.write_text(f"{HEADER}\n\nprint('hello')\n", encoding="utf-8")
    added = installed.project / "notes.py"
    update = (
        f"*** Begin Patch\n*** Update File: {app}\n@@\n-{HEADER}\n-\n print('hello')\n"
        "*** End Patch\n"
    )
    add = f"*** Begin Patch\n*** Add File: {added}\n+{HEADER}\n+NOTE = 1\n*** End Patch\n"

    _, main, described = session(codex, installed, [Patch(update), Patch(add), Finish("Done.")])

    assert app.read_text(encoding="utf-8") == "print('hello')\n", described
    assert added.read_text(encoding="utf-8") == f"{HEADER}\nNOTE = 1\n", described
    assert len(main) >= 3, described
    after_update = context(codex, main[1])
    # What the add brought: the context of the third request that the second lacked.
    after_add = context(codex, main[2]).replace(after_update, "")
    edit, write = installed.delivered("pretooluse-edit"), installed.delivered("pretooluse-write")
    assert edit in after_update, after_update
    assert write not in after_update and CREATE_A_FILE not in after_update
    assert installed.procedure("pretooluse-edit-header-guard") in after_update
    assert "This call went ahead." in after_update
    assert write in after_add, after_add
    assert edit not in after_add  # once per context: the edit message is not repeated
