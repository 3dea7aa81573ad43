"""The install root: every file a harness needs at run time, as `{path: bytes}`.

`hookmsg package` archives this mapping (entries at the archive's top level) and
`hookmsg install` writes it under `--root`; the folder it lands in is `${HARNESS_ROOT}`:

    hooks/dispatch.py              the entry script every registration runs
    hooks/hookmsg_dispatch/*.py    the standard-library dispatcher package
    data/dispatch-table.json       the dispatch table (generated/dispatch-table.json without
                                   its guard data, unindented, its contracts last)
    data/guards/<name>.json        one message's guard data: its condition and literals
    messages/<name>.md             each message's delivered text, skill index included
                                   (and its other forms: installing/skills.py)
    skills/<name>/SKILL.md         each skill, as a Claude Code plugin's root holds it
    commands/<name>.md             each command, likewise
    generated/...                  every generated output, as committed

(`package` adds `manifest.json`, the sha256 and size of every file.)
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable

from hookmsg.outputs.generated import render_outputs
from hookmsg.pipeline.workspace import Workspace
from hookmsg.render.dispatch_table import installed_tables

DISPATCHER_PACKAGE = "hookmsg_dispatch"
ENTRY_MODULE = "entry.py"  # shipped as hooks/dispatch.py, not inside the package
TABLE = "dispatch-table.json"


def _sources(folder: Traversable, prefix: str) -> dict[str, bytes]:
    """Every `.py` file under `folder`, subpackages included, by its path under `prefix`."""
    found: dict[str, bytes] = {}
    for item in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if item.is_dir() and item.name != "__pycache__":
            found.update(_sources(item, f"{prefix}/{item.name}"))
        elif item.is_file() and item.name.endswith(".py"):
            found[f"{prefix}/{item.name}"] = item.read_bytes()
    return found


def dispatcher_files() -> dict[str, bytes]:
    """The dispatcher's sources, read from the installed package (a checkout or a wheel)."""
    package = files(DISPATCHER_PACKAGE)
    found = {"hooks/dispatch.py": package.joinpath(ENTRY_MODULE).read_bytes()}
    found.update(_sources(package, f"hooks/{DISPATCHER_PACKAGE}"))
    found.pop(f"hooks/{DISPATCHER_PACKAGE}/{ENTRY_MODULE}")
    return found


def install_root_files(workspace: Workspace) -> dict[str, bytes]:
    """Every file of the install root, by its path inside it."""
    generated = workspace.project.generated_dir
    found = dispatcher_files()
    for output in render_outputs(workspace):
        name = output.path.relative_to(generated).as_posix()
        found[f"generated/{name}"] = output.content
        if name == TABLE:
            found.update(installed_tables(output.content))
    for name, message in sorted(workspace.all_messages().items()):
        found[f"messages/{name}.md"] = (message.delivered + "\n").encode("utf-8")
    from hookmsg.install.skills import root_files

    found.update(root_files(workspace.loaded()))
    return dict(sorted(found.items()))
