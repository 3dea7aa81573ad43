"""Loading the project (`pipeline/workspace.py`): message files named like a path or like
a generated message, and every hostile message loaded at once.

Each case runs the CLI in-process on a throw-away copy of the repository (the `project`
fixture) and asserts the exact findings: code, path, line and column. None may raise,
hang or write anything.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.diagnostics import (
    located,
    parse_findings,
    run_findings,
)
from tests.support.message import BODY, LICENCE, VALID, with_advisory
from tests.support.repository import outside
from tests.support.sources import (
    Cli,
    assert_build_refused,
)
from tests.support.text import replace, write

# =========================================================================== message names


@pytest.mark.slow
def test_message_file_named_dot_dot(project: Path, cli: Cli) -> None:
    # `messages/...md` has the name `..`: no registry entry can name it (names are
    # kebab-case), so it is unregistered, and it never becomes a path.
    write(project / "messages" / "...md", VALID)
    found = run_findings(cli, "validate")
    assert located(found) == [("messages/...md", 1, 1, "R001")]
    assert_build_refused(project, cli)


@pytest.mark.slow
def test_message_named_like_the_generated_skill_index_is_still_checked(
    project: Path, cli: Cli
) -> None:
    # `skill-index` is the name of the generated skill index. An authored message of the
    # same name must not be shadowed by it: its own problems are still reported.
    broken = replace(VALID, LICENCE, "<!-- SPDX-License-Identifier: Apache-2.0 -->")
    write(project / "messages" / "skill-index.md", broken)
    result = cli("validate")
    assert result.code == 1, result.out + result.err
    assert ("messages/skill-index.md", 1, 1, "L004") in located(parse_findings(result.out))
    assert_build_refused(project, cli)


# =========================================================================== every case, whole


def test_every_hostile_message_at_once(project: Path, cli: Cli) -> None:
    # All the message-level hostile files above in one folder, validated in one run:
    # one exit code, one diagnostic per line, nothing raised.
    folder = outside(project) / "all"
    samples: dict[str, bytes] = {
        "utf16": VALID.encode("utf-16"),
        "nul": b"\x00" * 64,
        "cr": VALID.replace("\n", "\r").encode(),
        "stars": replace(VALID, BODY, "*" * 50_000).encode(),
        "brackets": replace(VALID, BODY, "[" * 50_000).encode(),
        "deep": replace(VALID, BODY, "> " * 5_000).encode(),
        "jinja": with_advisory("{% for x in range(10**9) %}{{ x }}{% endfor %}").encode(),
        "bidi": replace(VALID, BODY, "\u202e" * 100).encode(),
    }
    for name, data in samples.items():
        write(folder / f"{name}.md", data)
    os.mkfifo(folder / "fifo.md")
    (folder / "dangling.md").symlink_to("nowhere.md")
    result = cli("validate", str(folder))
    assert result.code == 1
    found = parse_findings(result.out)
    assert {Path(f.path).stem for f in found} == {*samples, "fifo", "dangling"}
