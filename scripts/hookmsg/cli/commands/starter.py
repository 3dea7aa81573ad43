"""The files `hookmsg init` writes: a small content repository that builds and checks.

Real starting content, not placeholders: a session-start message wired in the registry,
one skill read from its own folder, the task graph, the published pre-commit hook. No
harness facts: those are hookmsg's own (`hookmsg/data/harnesses.toml`).
"""

from __future__ import annotations

LICENCE = "<!-- SPDX-License-Identifier: MIT -->"
SKILLS_FOLDER = "skills"
SKILL = "add-hook-message"

PYPROJECT = """\
[project]
name = "{name}"
version = "0.1.0"
description = "Hook messages for AI coding assistants, built and checked by hookmsg."
requires-python = ">=3.11"

[tool.hookmsg]
messages = "messages"
catalog = "catalog"
generated = "generated"
licence-line = "{licence}"
"""

DODO = """\
\"\"\"`doit` builds what is out of date: hookmsg's task graph, taken from the package.\"\"\"

from hookmsg.cli.taskgraph import *  # noqa: F403
"""

GITIGNORE = """\
# doit's state and hookmsg's release archives: rebuilt on demand, never committed.
.doit.db
dist/
"""

PRE_COMMIT = """\
# `hookmsg check` before every commit: a message that breaks a rule, or a generated
# file that drifted from its sources, stops the commit. Install with `pre-commit install`.
repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: hookmsg-check
"""

HOOKS = """\
# The hook registry: which messages each event delivers, in order.
#
# A message is named by its file stem (`messages/<name>.md`); `skill-index` is
# generated into `generated/` from `catalog/skills.toml`. Which harness delivers
# which event is hookmsg's own knowledge; `hookmsg explain` lists the codes.

[timeouts]
# Seconds; each harness converts them to its own unit.
SessionStart = 30

[[dispatch]]
event = "SessionStart"
messages = ["sessionstart", "skill-index"]

[dispatcher]
# The dispatcher each registration runs, relative to the install root.
script = "hooks/dispatch.py"
"""

SKILLS = """\
# The skill catalogue: the source of generated/skill-index.md, the list of skills
# delivered after the session-start message.
#
# Each [[sources]] table names a folder whose skills (`<path>/<name>/SKILL.md`) are
# read from their own front matter. Keep the index short: it is sent at every start.

namespace = "{name}"

# The messages that the index's Bindings section cross-binds, with the reason;
# each of them names `generated/skill-index.md` in return.
[cross-bound]
sessionstart = "the session orientation that the index follows"

[[groups]]
id = "messages"
title = "Messages"
hint = "hook text"

[[sources]]
kind = "skills"
path = "{skills}"
group = "messages"
"""

SESSIONSTART = """\
{licence}

Orientation at session start: learn how this project works before changing it, then work in small steps you can verify.

## First minutes

1. Read the project's own instructions first: `README.md`, `CONTRIBUTING.md`, `AGENTS.md` or `CLAUDE.md`, and the files they point to. Where they differ from your habits, the project wins.
2. Look at the tree: `git status --short` and `git log --oneline -5`. Changes you did not make belong to someone else; leave them as they are.
3. Find out how the project checks itself (tests, linters, formatters, pre-commit) and run the fast checks once, so you know what passed before you started.

## How to work

- Change one thing at a time and run the narrowest check that covers it.
- Read a file before you edit it; look facts up instead of guessing them.
- Ask before a step that is irreversible, expensive or ambiguous; otherwise decide and say why.
- The skill index follows this message: when a task matches a listed skill, use it instead of improvising.

## Bindings

- **Drives →** the assistant to read the project's instructions, check the state of the tree and take a baseline before its first change, and to use the skill index that follows.
- **Established by ↑** `catalog/hooks.toml`, the dispatcher entry for SessionStart (every session start, followed by the generated skill index).
- **Cross-bound with ↔** `generated/skill-index.md` (delivered right after it on the same event; this message says when to use it).
"""  # noqa: E501 (message text: one paragraph per line)

SKILL_MD = """\
---
name: {skill}
description: Add or change a hook message in this repository so that it validates, is wired to its event and ships in the generated files.
---

# Add or change a hook message

A hook message is one Markdown file in `messages/`, delivered to the assistant when the event it is wired to fires.

1. Write `messages/<name>.md`: the licence line first, then the text the assistant should read, short and specific, then a `## Bindings` section saying what the message drives, what establishes it and what it is cross-bound with.
2. Wire it in `catalog/hooks.toml`: add its name to the `messages` list of the `[[dispatch]]` entry for its event (and matcher), in the order it should be read.
3. Run `doit`. It validates every message and the catalogue, and regenerates `generated/`; fix each finding it reports (`hookmsg explain CODE` says what a code means and how to fix it).
4. Run `hookmsg preview <name>` to read exactly what the assistant will receive, and cut what it does not need.
5. Commit the message, the registry and `generated/` together; the pre-commit hook runs `hookmsg check` and refuses a commit whose generated files drifted.
"""  # noqa: E501 (skill text: one paragraph per line)


def starter_files(name: str, repo: str, rev: str) -> dict[str, str]:
    """Path (relative, POSIX) to text, for a repository named `name`."""
    fields = {"name": name, "licence": LICENCE, "skills": SKILLS_FOLDER, "skill": SKILL}
    return {
        "pyproject.toml": PYPROJECT.format(**fields),
        "dodo.py": DODO,
        ".gitignore": GITIGNORE,
        ".pre-commit-config.yaml": PRE_COMMIT.format(repo=repo, rev=rev),
        "catalog/hooks.toml": HOOKS,
        "catalog/skills.toml": SKILLS.format(**fields),
        "messages/sessionstart.md": SESSIONSTART.format(**fields),
        f"{SKILLS_FOLDER}/{SKILL}/SKILL.md": SKILL_MD.format(**fields),
    }
