"""`hookmsg --version`: the tool's version, and the version of the content it would build.

The content version is the content repository's `[project] version`; a repository without
one is named by a hash of its sources (the messages and catalogue folders), so two builds
of different text never show the same version.
"""

from __future__ import annotations

import hashlib
import tomllib
from pathlib import Path

from hookmsg import __version__
from hookmsg.errors import HookmsgError
from hookmsg.project.defaults import PYPROJECT
from hookmsg.project.settings import Project, load_project


def _declared_version(root: Path) -> str | None:
    try:
        table = tomllib.loads((root / PYPROJECT).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    project = table.get("project")
    version = project.get("version") if isinstance(project, dict) else None
    return version if isinstance(version, str) and version else None


def sources_hash(project: Project) -> str:
    """SHA-256 over each source file's path and bytes, in path order (first 12 digits)."""
    digest = hashlib.sha256()
    for folder in (project.messages_dir, project.catalog_dir):
        files = sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []
        for path in files:
            digest.update(project.relative(path).encode("utf-8") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return "sha256:" + digest.hexdigest()[:12]


def version_lines() -> list[str]:
    lines = [f"hookmsg {__version__}"]
    try:
        project = load_project()
    except HookmsgError as error:
        return [*lines, f"content: none ({str(error).splitlines()[0]})"]
    declared = _declared_version(project.root)
    if declared is not None:
        return [*lines, f"content {declared} ([project] version of {project.root})"]
    return [*lines, f"content {sources_hash(project)} (hash of the sources in {project.root})"]
