"""Skills that exist: the archive carries every listed skill and command, `install` puts
them where each harness loads them, each harness receives the index form it can use, and
`uninstall` removes them.

The index entries are read from the rendered text and the files from disk, so the test
holds the listing to what is really shipped and installed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from hookmsg.install.contents import install_root_files
from hookmsg.pipeline.workspace import load_workspace
from hookmsg.project.settings import load_project
from tests.support.diagnostics import Result
from tests.support.repository import REPO

Cli = Callable[..., Result]
PYTHON = sys.executable
GROUP_LINE = re.compile(r"^- \*\*[^*]+\*\* \([^)]+\): (?P<entries>.+)$")
STARTUP = {"session_id": "s1", "hook_event_name": "SessionStart", "source": "startup"}


def listed(index: str) -> tuple[set[str], set[str]]:
    """(slash commands, skills) that an index text lists, names only."""
    commands: set[str] = set()
    skills: set[str] = set()
    for line in index.split("\n"):
        match = GROUP_LINE.match(line)
        if match is None:
            continue
        for item in re.sub(r" \([^)]*\)", "", match["entries"]).replace("; ", ", ").split(", "):
            if item.startswith("/"):
                commands.add(item.rsplit(":", 1)[-1].lstrip("/"))
            else:
                skills.add(item)
    return commands, skills


def session_start(root: Path, contract: str | None, cwd: Path) -> str:
    """What the installed dispatcher hands the model at session start, for `contract`."""
    argv = [PYTHON, str(root / "hooks" / "dispatch.py")]
    argv += ["--contract", contract] if contract else []
    argv += ["SessionStart", "sessionstart", "skill-index"]
    payload = json.dumps({**STARTUP, "cwd": str(cwd)})
    done = subprocess.run(argv, input=payload, capture_output=True, text=True, check=True)
    assert done.stderr == "", done.stderr
    if contract == "kiro":  # Kiro reads the text itself
        return done.stdout
    return str(json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"])


def install(cli: Cli, harness: str, target: Path, root: Path) -> Result:
    argv = ["install", "--harness", harness, "--project", str(target), "--root", str(root)]
    return cli(*argv, "--python", PYTHON)


def test_the_archive_holds_a_file_for_every_entry_any_index_form_lists() -> None:
    files = install_root_files(load_workspace(load_project(REPO)))
    plugin = (REPO / "generated" / "skill-index.md").read_text(encoding="utf-8")
    commands, skills = listed(plugin)
    assert len(commands) + len(skills) >= 8
    for name in skills:
        body = files[f"skills/{name}/SKILL.md"].decode("utf-8")
        assert body.startswith(f"---\nname: {name}\n"), name
        assert len(body) > 1200, f"{name}: a skill a model can follow, not a stub"
    for name in commands:
        assert len(files[f"commands/{name}.md"]) > 900, name
    for form in ("skill-index-engine", "skill-index-skills"):
        assert f"messages/{form}.md" in files


def test_the_engine_install_holds_every_skill_and_command_its_index_names(
    project: Path, cli: Cli, tmp_path: Path
) -> None:
    target, root = tmp_path / "p", tmp_path / "root"
    target.mkdir()
    result = install(cli, "claude-code-engine", target, root)
    assert result.code == 0, result.out + result.err

    delivered = session_start(root, None, target)
    assert "/hookmsg:" not in delivered
    commands, skills = listed(delivered)
    assert commands and skills
    for name in commands:
        assert (target / ".claude" / "commands" / f"{name}.md").is_file(), name
    for name in skills:
        text = (target / ".claude" / "skills" / name / "SKILL.md").read_text(encoding="utf-8")
        assert f"name: {name}\n" in text
    installed = {p.parent.name for p in (target / ".claude" / "skills").glob("*/SKILL.md")}
    assert installed == skills

    assert cli("uninstall", "--harness", "claude-code-engine", "--project", str(target)).code == 0
    assert not (target / ".claude" / "skills").exists()
    assert not (target / ".claude" / "commands").exists()
    assert not (target / ".claude" / "hookmsg-skills.json").exists()


def test_a_skills_only_harness_lists_no_commands_and_a_harness_without_skills_no_index(
    project: Path, cli: Cli, tmp_path: Path
) -> None:
    target, root = tmp_path / "p", tmp_path / "root"
    target.mkdir()
    assert install(cli, "codex", target, root).code == 0
    delivered = session_start(root, "codex", target)
    commands, skills = listed(delivered)
    assert commands == set() and skills
    assert {p.parent.name for p in (target / ".agents" / "skills").glob("*/SKILL.md")} == skills
    assert not (target / ".claude").exists()
    # The Claude Code plugin keeps the prefix; Kiro loads no skills and gets no index.
    plugin = session_start(root, "claude-code-plugin", target)
    assert "/hookmsg:write-handoff-note" in plugin
    kiro = session_start(root, "kiro", target)
    assert "Load a skill" not in kiro and "Orientation at session start" in kiro


def test_install_keeps_an_edited_skill_on_uninstall_and_replaces_only_its_own(
    project: Path, cli: Cli, tmp_path: Path
) -> None:
    target, root = tmp_path / "p", tmp_path / "root"
    target.mkdir()
    assert install(cli, "claude-code-engine", target, root).code == 0
    edited = target / ".claude" / "skills" / "add-guard" / "SKILL.md"
    edited.write_text(edited.read_text(encoding="utf-8") + "\nMy own note.\n", encoding="utf-8")
    assert cli("uninstall", "--harness", "claude-code-engine", "--project", str(target)).code == 0
    assert edited.is_file()
    assert not (target / ".claude" / "skills" / "find-root-cause").exists()


def test_every_harness_that_loads_skills_says_where_with_evidence() -> None:
    import tomllib

    data = tomllib.loads(
        (REPO / "scripts" / "hookmsg" / "data" / "harnesses.toml").read_text(encoding="utf-8")
    )
    places = {h["id"]: h.get("skills") for h in data["harnesses"]}
    assert places["claude-code-engine"]["skills"] == ".claude/skills"
    assert places["claude-code-engine"]["commands"] == ".claude/commands"
    assert places["claude-code-plugin"] == {
        "skills": "skills",
        "commands": "commands",
        "evidence": places["claude-code-plugin"]["evidence"],
    }
    for harness, place in places.items():
        if place is not None:
            assert len(place["evidence"]) > 40, harness
