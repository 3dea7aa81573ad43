"""Which content an install root holds, and where its default root is.

A root is keyed by the content's identity: the source (the content repository's name)
and the content version (a SHA-256 over every file of the root). Installs from two
repositories, or two builds of one, get two roots and never overwrite each other; two
projects installed from the same build share one.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

from hookmsg.project.settings import Project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from hookmsg.pipeline.workspace import Workspace

ROOTS = "roots"
_SLUG = re.compile(r"[^a-z0-9]+")


def source_name(project: Project) -> str:
    """The content repository's name: `[project] name` of its pyproject.toml, else its
    folder's name; lower case letters, digits and dashes."""
    name = project.root.name
    try:
        with (project.root / "pyproject.toml").open("rb") as handle:
            table = tomllib.load(handle).get("project")
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            name = table["name"]
    except (OSError, tomllib.TOMLDecodeError):
        pass
    slug = _SLUG.sub("-", name.lower()).strip("-")
    return slug[:64] or "content"


def data_home(environ: dict[str, str] | None = None) -> Path:
    """`$XDG_DATA_HOME/hookmsg` when XDG_DATA_HOME is absolute, else ~/.local/share/hookmsg."""
    env = dict(os.environ) if environ is None else environ
    base = env.get("XDG_DATA_HOME", "")
    folder = Path(base) if base.startswith("/") else Path.home() / ".local" / "share"
    return folder / "hookmsg"


def roots_home(environ: dict[str, str] | None = None) -> Path:
    return data_home(environ) / ROOTS


def default_root(source: str, content: str, environ: dict[str, str] | None = None) -> str:
    """The root of this content: `<data home>/roots/<source>-<first 16 of content>`."""
    return str(roots_home(environ) / f"{source}-{content[:16]}")


def content_root(project: Project, workspace: Workspace) -> str:
    """The default install root of what this workspace builds now: where `install` puts it,
    so a preview or a replay names the paths an installed hook would name."""
    from hookmsg.install import root as install_root
    from hookmsg.install.contents import install_root_files

    files = install_root.with_manifest(install_root_files(workspace), source_name(project))
    return default_root(source_name(project), install_root.content_version(files))
