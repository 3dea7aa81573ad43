"""ARCHITECTURE.md's common changes, made: each is applied to a copy of this repository,
`doit` must then succeed and show the change's effect, and the files the change edited by
hand (everything that differs, generated outputs and goldens aside) must be exactly the
files ARCHITECTURE.md names on that change's `Hand-edited:` line, at most three."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.repository import REPO, WITH_DODO, copy_repository, files_under

pytestmark = pytest.mark.slow  # a copy of the repository and a full doit run per change

DOC = REPO / "ARCHITECTURE.md"
# Written by `doit` or by the golden update, never by hand.
DERIVED = ("generated/", "tests/golden/")
# The test files a change edits, copied beside the sources so the edit can be counted.
TEST_FILES = ("tests/test_codes.py", "tests/test_render_registrations.py")
RUN_CLI = (
    "import sys; sys.path.insert(0, 'scripts'); from hookmsg.cli.main import run; "
    "sys.exit(run(sys.argv[1:]))"
)


@dataclass(frozen=True)
class Edit:
    """One hand edit: `new` put after the `occurrence`-th `anchor` of `path` (at its end,
    or as a new file, when `anchor` is empty)."""

    path: str
    anchor: str
    new: str
    occurrence: int = 1


def apply(root: Path, edit: Edit) -> None:
    path = root / edit.path
    if not edit.anchor:
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        path.write_text(old + edit.new, encoding="utf-8")
        return
    text = path.read_text(encoding="utf-8")
    at = -1
    for _ in range(edit.occurrence):
        at = text.find(edit.anchor, at + 1)
        assert at >= 0, (edit.path, edit.anchor, edit.occurrence)
    end = at + len(edit.anchor)
    path.write_text(text[:end] + edit.new + text[end:], encoding="utf-8")


def documented_files(change: str) -> set[str]:
    """The files ARCHITECTURE.md says `change` edits by hand."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"**{change}**", 1)[1]
    line = re.search(r"^Hand-edited[^:]*: (.+)$", section, re.MULTILINE)
    assert line, f"ARCHITECTURE.md names no hand-edited files for {change!r}"
    return set(re.findall(r"`([^`]+)`", line.group(1)))


def make_change(tmp: Path, edits: tuple[Edit, ...]) -> tuple[Path, set[str]]:
    """A copy of the repository with `edits` applied and `doit` run; the hand-edited files."""
    root = copy_repository(tmp / "repo", WITH_DODO)
    for name in TEST_FILES:
        (root / name).parent.mkdir(exist_ok=True)
        shutil.copy2(REPO / name, root / name)
    before = files_under(root)
    for edit in edits:
        apply(root, edit)
    edited = {
        name
        for name, data in files_under(root).items()
        if before.get(name) != data and not name.startswith(DERIVED) and "__pycache__" not in name
    }
    ran = subprocess.run(
        [sys.executable, "-m", "doit"], cwd=root, capture_output=True, text=True, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return root, edited


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN_CLI, *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def assert_documented(change: str, edited: set[str]) -> None:
    documented = documented_files(change)
    assert len(documented) <= 3, documented
    assert edited == documented, f"{change}: edited {sorted(edited)}, documented {documented}"


RULE = (
    Edit("scripts/hookmsg/codes.py", '    "T001",\n', '    "T002",\n'),
    Edit(
        "scripts/hookmsg/codes.py",
        '        "`## Advisory` right after the licence line",\n'
        '        owner="messages",\n    ),\n',
        "    CodeInfo(\n"
        '        "T002",\n'
        '        "The title line is longer than 200 characters.",\n'
        '        "Say what the message is for in one short sentence; move the rest below it.",\n'
        '        "a title that holds the whole procedure",\n'
        '        owner="messages",\n'
        "    ),\n",
    ),
    Edit(
        "scripts/hookmsg/messages/rules/licence.py",
        '        found.append(Diagnostic(path, first_section or 1, 1, "T001", text))\n',
        "    if message.title is not None and len(message.title) > 200:\n"
        '        text = f"the title is {len(message.title)} characters long (at most 200)"\n'
        '        found.append(Diagnostic(path, message.title_line or 1, 1, "T002", text))\n',
    ),
    Edit(
        "tests/test_codes.py",
        '    assert positions(found) == [(3, 1, "T001")]\n',
        "\n\ndef test_t002_title_too_long(project: Path, cli: Cli) -> None:\n"
        '    text = replace(VALID, f"{TITLE}\\n", "A" * 201 + "\\n")\n'
        "    found = check_outside(project, cli, text)\n"
        '    assert positions(found) == [(3, 1, "T002")]\n',
    ),
)


def test_adding_a_rule_edits_the_files_architecture_names(tmp_path: Path) -> None:
    root, edited = make_change(tmp_path, RULE)
    assert "| `T002` | The title line is longer than 200 characters." in (
        (root / "generated" / "rules.md").read_text(encoding="utf-8")
    )
    message = root / "messages" / "stop.md"
    lines = message.read_text(encoding="utf-8").split("\n")
    lines[2] = "A" * 201
    message.write_text("\n".join(lines), encoding="utf-8")
    found = cli(root, "validate")
    assert found.returncode == 1 and "messages/stop.md:3:1: T002" in found.stdout, found.stdout
    assert_documented("Add a rule", edited)


OUTPUT = (
    Edit(
        "scripts/hookmsg/outputs/declared.py",
        '        code=("render/rules_table.py",),\n    ),\n',
        "    OutputSpec(\n"
        '        "codes",\n'
        '        "Write generated/codes.txt, every diagnostic code on a line.",\n'
        '        ("codes.txt",),\n'
        '        code=("render/codes_list.py",),\n'
        "    ),\n",
    ),
    Edit(
        "scripts/hookmsg/render/codes_list.py",
        "",
        '"""`codes.txt`: every diagnostic code, one per line, in the code table\'s order."""\n\n'
        "from __future__ import annotations\n\n"
        "from hookmsg.codes import CODES\n"
        "from hookmsg.render.loaded import LoadedProject\n\n\n"
        "def render_codes_list(loaded: LoadedProject) -> str:\n"
        '    return "".join(f"{code}\\n" for code in CODES)\n',
    ),
    Edit(
        "scripts/hookmsg/outputs/generated.py",
        "from __future__ import annotations\n",
        "\nfrom hookmsg.render.codes_list import render_codes_list\n",
    ),
    Edit(
        "scripts/hookmsg/outputs/generated.py",
        '    "rules.md": render_rules_table,\n',
        '    "codes.txt": render_codes_list,\n',
    ),
)


def test_adding_an_output_edits_the_files_architecture_names(tmp_path: Path) -> None:
    root, edited = make_change(tmp_path, OUTPUT)
    written = (root / "generated" / "codes.txt").read_text(encoding="utf-8").split()
    assert written[:2] == ["F001", "F002"] and "T001" in written
    assert '"codes.txt"' in (root / "generated" / "outputs.json").read_text(encoding="utf-8")
    assert cli(root, "check").returncode == 0
    assert_documented("Add an output", edited)


def _harness_copy() -> str:
    """Gemini CLI's table of the built-in harness facts, under a new id and name."""
    text = (REPO / "scripts" / "hookmsg" / "data" / "harnesses.toml").read_text("utf-8")
    start = text.index('[[harnesses]]\nid = "gemini-cli"\n')
    end = text.index("[[harnesses]]\n", start + 1)
    table = text[start:end].replace('id = "gemini-cli"', 'id = "gemini-fork"', 1)
    return "\n" + table.replace('name = "Gemini CLI"', 'name = "Gemini Fork"', 1)


def test_adding_a_harness_edits_the_files_architecture_names(tmp_path: Path) -> None:
    harness = (
        Edit("scripts/hookmsg/data/harnesses.toml", "", _harness_copy()),
        Edit(
            "tests/test_render_registrations.py",
            '    "gemini-cli": {"SessionStart": [(None, SS)], "AfterTool": [(".*", POST)]},\n',
            '    "gemini-fork": {"SessionStart": [(None, SS)], "AfterTool": [(".*", POST)]},\n',
        ),
    )
    root, edited = make_change(tmp_path, harness)
    registration = root / "generated" / "gemini-fork" / "settings.json"
    assert "hooks/dispatch.py" in registration.read_text(encoding="utf-8")
    assert "gemini-fork" in (root / "generated" / "hook-message-inventory.md").read_text("utf-8")
    assert_documented("Add a harness", edited)


# A guard with a detector of its own, as a maintainer would write its three files.
NEW_DETECTOR = REPO / "tests" / "fixtures" / "new-detector"


def _fixture(name: str) -> str:
    return (NEW_DETECTOR / name).read_text(encoding="utf-8")


def test_adding_a_guard_with_a_new_detector_edits_the_files_architecture_names(
    tmp_path: Path,
) -> None:
    guard = (
        Edit("messages/pretooluse-conflict-guard.md", "", _fixture("pretooluse-conflict-guard.md")),
        Edit(
            "catalog/guards/pretooluse-conflict-guard.toml",
            "",
            _fixture("pretooluse-conflict-guard.toml"),
        ),
        Edit("scripts/hookmsg_dispatch/guards/conflicts.py", "", _fixture("conflicts.py")),
    )
    root, edited = make_change(tmp_path, guard)
    table = (root / "generated" / "dispatch-table.json").read_text(encoding="utf-8")
    assert '"module": "guards.conflicts"' in table
    wiring = (root / "generated" / "hook-wiring.md").read_text(encoding="utf-8")
    assert "pretooluse-conflict-guard" in wiring
    assert_documented("Add a guard with a new detector", edited)
