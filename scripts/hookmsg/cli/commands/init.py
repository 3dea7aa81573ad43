"""`hookmsg init [DIR]`: start a content repository that builds and checks at once.

Writes the starter files (`starter.py`), then builds `generated/`. Refuses a folder that
holds anything unless `--force`, and even then never replaces a file that exists; refuses
a folder inside another content repository's messages, catalogue or generated folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
from pathlib import Path

from hookmsg.cli.commands.starter import starter_files
from hookmsg.errors import EXIT_OK, UsageError
from hookmsg.project.defaults import DEFAULTS, PYPROJECT
from hookmsg.report import note

# hookmsg's own checkout, when it runs from one: the repository that publishes the
# pre-commit hook (`.pre-commit-hooks.yaml`).
CHECKOUT = Path(__file__).resolve().parents[4]
HOOKS_FILE = ".pre-commit-hooks.yaml"


def repository_name(folder: Path) -> str:
    """A kebab-case name from the folder's name (the catalogue's namespace rules)."""
    name = re.sub(r"[^a-z0-9]+", "-", folder.name.lower()).strip("-")
    return name[:64].strip("-") or "hook-messages"


def _enclosing_folder(target: Path) -> str | None:
    """The content folder of another repository that `target` would lie inside, if any."""
    for folder in target.parents:
        try:
            table = tomllib.loads((folder / PYPROJECT).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        tool = table.get("tool", {})
        settings = tool.get("hookmsg") if isinstance(tool, dict) else None
        if not isinstance(settings, dict):
            continue
        for key in ("messages", "catalog", "generated"):
            value = settings.get(key, DEFAULTS[key])
            inner = (folder / value).resolve() if isinstance(value, str) else None
            if inner is not None and (target == inner or inner in target.parents):
                return f"{inner} (the {key} folder of the content repository {folder})"
        return None  # the nearest content repository decides
    return None


def _hook_source(repo: str | None, rev: str | None) -> tuple[str, str]:
    """Where the pre-commit hook comes from: as given, else hookmsg's own checkout."""
    if repo is not None and rev is not None:
        return repo, rev
    if repo is None and (CHECKOUT / HOOKS_FILE).is_file():
        try:
            done = subprocess.run(
                ["git", "-C", str(CHECKOUT), "rev-parse", "HEAD"],
                capture_output=True,
                text=True,
                check=True,
                timeout=30,
            )
            return str(CHECKOUT), rev or done.stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    raise UsageError(
        "hookmsg init: name the repository that publishes the pre-commit hook and its "
        "revision: --hook-repo URL --hook-rev TAG (hookmsg is not running from a git checkout)"
    )


def _refusal(target: Path, force: bool) -> str | None:
    if target.exists() and not target.is_dir():
        return f"{target} exists and is not a folder"
    inside = _enclosing_folder(target)
    if inside is not None:
        return f"{target} is inside {inside}; start a content repository elsewhere"
    if target.is_dir() and not force and any(target.iterdir()):
        return f"{target} is not empty; use --force to add the starter files that are missing"
    return None


def init(folder: str, *, force: bool, repo: str | None, rev: str | None) -> int:
    """Write the starter repository into `folder`, then build its generated files."""
    target = Path(os.path.abspath(folder)).resolve()  # noqa: PTH100 (relative to cwd)
    refused = _refusal(target, force)
    if refused is not None:
        raise UsageError(f"hookmsg init: {refused}")
    files = starter_files(repository_name(target), *_hook_source(repo, rev))
    for relative, text in files.items():
        path = target / relative
        if path.exists() or path.is_symlink():
            note(f"kept {relative} (it exists)")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        note(f"wrote {relative}")
    return _build(target)


def _build(target: Path) -> int:
    from hookmsg.cli.commands.build import build
    from hookmsg.project.settings import load_project

    code = build(load_project(target), check=False)
    if code == EXIT_OK:
        note(f"started a content repository in {target}: run `doit` after each change")
    return code
