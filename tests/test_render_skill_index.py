"""The skill index budget (G001): over 1,600 delivered characters fails every command.

Sizes are worked out here without hookmsg, from the committed `generated/skill-index.md`
(its delivered text: the file minus the licence line and the Bindings section, trimmed)
and the length of each added entry.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.diagnostics import Result

Cli = Callable[..., Result]

BUDGET = 1600
SKILLS = "catalog/skills.toml"
INDEX = "generated/skill-index.md"
# `- **Title** (optional task hint): /ns:command, ...; skill, ...`
GROUP_LINE = re.compile(r"^- \*\*(?P<title>[^*]+)\*\*(?: \([^)]*\))?: ")


@pytest.fixture(autouse=True)
def _plain_text_output(monkeypatch: pytest.MonkeyPatch) -> None:
    # CI sets GITHUB_ACTIONS=true, which switches the default diagnostic format.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)


def snapshot(root: Path) -> dict[str, bytes | None]:
    return {
        p.relative_to(root).as_posix(): None if p.is_dir() else p.read_bytes()
        for p in sorted(root.rglob("*"))
    }


@dataclass(frozen=True)
class Index:
    """The committed skill index, measured independently of hookmsg."""

    namespace: str
    group_id: str
    group_title: str
    plugin_size: int
    engine_size: int
    group_sizes: dict[str, int]


def measure(root: Path) -> Index:
    lines = (root / INDEX).read_text(encoding="utf-8").split("\n")
    delivered = "\n".join(lines[1 : lines.index("## Bindings")]).strip()
    catalogue = tomllib.loads((root / SKILLS).read_text(encoding="utf-8"))
    namespace = catalogue["namespace"]
    first = catalogue["groups"][0]
    groups = {}
    for line in delivered.split("\n"):
        match = GROUP_LINE.match(line)
        if match:
            groups[match.group("title")] = len(line)
    assert budget_of(root) == BUDGET
    assert len(delivered) <= BUDGET, "the committed index is already over budget"
    return Index(
        namespace=namespace,
        group_id=first["id"],
        group_title=first["title"],
        plugin_size=len(delivered),
        engine_size=len(delivered.replace(f"/{namespace}:", "/")),
        group_sizes=groups,
    )


def budget_of(root: Path) -> int:
    data = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    budget: int = data["tool"]["hookmsg"].get("skill-index-budget", BUDGET)
    return budget


def add_skills(root: Path, group: str, names: list[str]) -> int:
    """Append model-invoked skills to `group`; return the characters they add to its line."""
    entries = "".join(
        f'\n[[skills]]\nname = "{name}"\ngroup = "{group}"\nmanual = false\n'
        f'description = "Filler skill that pushes the index towards its budget."\n'
        for name in names
    )
    with (root / SKILLS).open("a", encoding="utf-8") as handle:
        handle.write(entries)
    return sum(len(", ") + len(name) for name in names)


def names_adding(chars: int) -> list[str]:
    """Fresh kebab-case skill names whose entries (", " + name) add exactly `chars`."""
    names: list[str] = []
    while chars > 0:
        prefix = f"budget-filler-{len(names) + 1:02d}-"
        shortest = len(", ") + len(prefix) + 1
        if chars < shortest:
            assert chars >= len(", ") + 1, "cannot add fewer than three characters"
            names.append("q" * (chars - len(", ")))
            break
        take = min(chars, len(", ") + 60)
        if 0 < chars - take < shortest:
            take = chars - shortest
        names.append(prefix + "x" * (take - len(", ") - len(prefix)))
        chars -= take
    return names


def g001(records: list[dict[str, object]]) -> list[dict[str, object]]:
    return [r for r in records if r["code"] == "G001"]


@pytest.mark.slow
def test_over_budget_fails_validate_build_and_check(project: Path, cli: Cli) -> None:
    index = measure(project)
    # Over the budget in both install forms (the engine form drops `/<namespace>:`).
    added = add_skills(project, index.group_id, names_adding(BUDGET - index.engine_size + 25))
    plugin, engine = index.plugin_size + added, index.engine_size + added
    assert plugin > engine > BUDGET
    sizes = dict(index.group_sizes)
    sizes[index.group_title] += added
    largest = sorted(sizes.items(), key=lambda item: (-item[1], item[0]))[:3]
    assert largest[0][0] == index.group_title

    before = snapshot(project)
    for command in (("validate",), ("build",), ("check",), ("build", "--check")):
        result = cli(*command, "--format", "json")
        assert result.code == 1, (command, result.out, result.err)
        found = g001(json.loads(result.out))
        assert {r["path"] for r in found} == {SKILLS}, command
        messages = sorted(str(r["message"]) for r in found)
        assert len(messages) == 2, messages
        engine_message, plugin_message = messages  # "engine" sorts before "plugin"
        for message, size in ((plugin_message, plugin), (engine_message, engine)):
            assert f"{size} characters" in message, message
            assert f"{size - BUDGET} over" in message, message
            assert str(BUDGET) in message, message
            listed = message.partition("largest groups:")[2] or message
            positions = [listed.find(title) for title, _ in largest]
            assert -1 not in positions and positions == sorted(positions), message
        for title, chars in largest:
            assert f"{title} ({chars})" in plugin_message, plugin_message
        assert snapshot(project) == before, command


def test_over_budget_text_output_and_build_writes_nothing(project: Path, cli: Cli) -> None:
    index = measure(project)
    add_skills(project, index.group_id, names_adding(BUDGET - index.plugin_size + 1))
    before = snapshot(project)
    result = cli("build")
    assert result.code == 1
    lines = [line for line in result.out.splitlines() if line.startswith(f"{SKILLS}:")]
    assert len(lines) == 1, result.out  # only the plugin form is over
    assert ": G001 " in lines[0] and f"{BUDGET + 1} characters, 1 over" in lines[0], lines[0]
    assert "nothing was written" in result.err
    assert snapshot(project) == before


def test_exactly_at_budget_is_accepted_one_over_is_not(project: Path, cli: Cli) -> None:
    index = measure(project)
    add_skills(project, index.group_id, names_adding(BUDGET - index.plugin_size))
    at_budget = cli("validate", "--format", "json")
    assert g001(json.loads(at_budget.out)) == [], at_budget.out
    assert at_budget.code == 0, at_budget.out

    add_skills(project, index.group_id, ["z"])  # ", z": three characters more
    over = cli("validate", "--format", "json")
    assert over.code == 1
    (found,) = g001(json.loads(over.out))
    assert f"{BUDGET + 3} characters, 3 over" in str(found["message"])
