"""The real dispatcher, run in this process on a scratch copy of the install root.

`preview` and `replay` show what the assistant receives by asking the dispatcher itself
(`hookmsg_dispatch.main.dispatch`): the same table, message files, placeholder cleaning,
"This call went ahead." line, cap and envelope as an installed hook. The install root's
files are written to a temporary folder; every path the dispatcher prints under it is
shown as the root the install would use (`--root`, else the default install root).
The build side imports the dispatcher, never the reverse.
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookmsg.install.guard_cases import replaced_everywhere
from hookmsg.pipeline.workspace import Workspace

# (detector, call, data, install root, module): the dispatcher's guard seam.
Values = Callable[[str, Any, Mapping[str, Any], str, str], dict[str, str] | None]


@dataclass
class Answer:
    """One call's answer: the envelope bytes, the text they carry, and any problems."""

    envelope: bytes
    text: str
    problems: list[str] = field(default_factory=list)


def carried_text(envelope: bytes) -> str:
    """The text an envelope hands the model (any style the dispatcher writes)."""
    if not envelope:
        return ""
    try:
        data = json.loads(envelope)
    except ValueError:
        return envelope.decode("utf-8").rstrip("\n")  # the `text` style: the text itself
    if not isinstance(data, dict):
        return ""
    inner = data.get("hookSpecificOutput")
    source = inner if isinstance(inner, dict) else data
    for key in ("additionalContext", "additional_context", "text", "permissionDecisionReason"):
        value = source.get(key)
        if isinstance(value, str):
            return value
    return ""


class LocalRoot:
    """A scratch install root; `call` runs one hook call through the dispatcher."""

    def __init__(self, folder: Path, shown: str) -> None:
        self.folder = folder
        self.shown = shown
        self.state = folder / ".state"
        self.state.mkdir(mode=0o700)
        self._table: dict[str, Any] | None = None

    def call(
        self,
        argv: list[str],
        payload: Mapping[str, Any],
        *,
        evaluate: Values | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> Answer:
        from hookmsg_dispatch.main import Usage, dispatch

        problems: list[str] = []
        env = {"HOOKMSG_HOOK_STATE_DIR": str(self.state), **(environ or {})}
        stdin = io.BytesIO(json.dumps(payload).encode("utf-8"))
        try:
            out = dispatch(
                argv,
                str(self.folder),
                stdin=stdin,
                environ=env,
                evaluate=evaluate,
                problems=problems,
            )
        except Usage as error:
            problems.append(str(error))
            out = b""
        out = self._shown(out)
        return Answer(out, carried_text(out), [self._shown_text(p) for p in problems])

    def text_of(self, name: str, contract: str) -> str:
        """The text `contract` delivers for context message `name` ("" for none)."""
        if self._table is None:
            self._table = json.loads((self.folder / "data" / "dispatch-table.json").read_bytes())
        files = self._table["contracts"].get(contract, {}).get("message_files", {})
        name = files.get(name, name)
        if not name:
            return ""
        path = self.folder / "messages" / f"{name}.md"
        return path.read_text(encoding="utf-8").strip() if path.is_file() else ""

    def _shown_text(self, text: str) -> str:
        return text.replace(str(self.folder), self.shown)

    def _shown(self, out: bytes) -> bytes:
        if not out:
            return out
        try:
            data = json.loads(out)
        except ValueError:
            return self._shown_text(out.decode("utf-8")).encode("utf-8")
        from hookmsg_dispatch.jsonio import dumps

        shown = replaced_everywhere(data, str(self.folder), self.shown)
        return (dumps(shown) + "\n").encode("ascii")


@contextmanager
def local_root(workspace: Workspace, shown: str) -> Iterator[LocalRoot]:
    """The install root of `workspace` in a temporary folder, shown as `shown`."""
    from hookmsg.install.contents import install_root_files

    files = install_root_files(workspace)
    folder = Path(tempfile.mkdtemp(prefix="hookmsg-local-"))
    try:
        for path, data in files.items():
            if path.startswith(("data/", "messages/")):
                target = folder / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
        yield LocalRoot(folder, shown)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
