"""The install root's files, as `package` archives them and `install` lays them out.

Interim version written on the `install` branch against the contract in the delivery
design (`install_root_files(workspace) -> dict[str, bytes]`); the dispatcher branch owns
this module, and its version replaces this one at merge.
"""

from __future__ import annotations

from pathlib import Path

from hookmsg.outputs import render_outputs
from hookmsg.workspace import Workspace

DISPATCH_PACKAGE = Path(__file__).resolve().parent.parent / "hookmsg_dispatch"


def install_root_files(workspace: Workspace) -> dict[str, bytes]:
    """{path inside the install root: bytes}: generated outputs, delivered texts, dispatcher."""
    generated = workspace.project.generated_dir
    files = {
        f"generated/{o.path.relative_to(generated).as_posix()}": o.content
        for o in render_outputs(workspace)
    }
    for name, message in sorted(workspace.all_messages().items()):
        files[f"messages/{name}.md"] = (message.delivered + "\n").encode("utf-8")
    for source in sorted(DISPATCH_PACKAGE.glob("*.py")):
        files[f"hooks/hookmsg_dispatch/{source.name}"] = source.read_bytes()
    return files
