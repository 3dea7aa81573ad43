"""Which registry entries apply to one call, where a harness folds several into one matcher.

Codex runs one hook for `Edit|Write|apply_patch`; its registration names the registry
entries it stands for (`--entry Write --entry Edit`) and this module decides per call which
of them apply: a file the call creates (a Write, a patch's Add File) belongs to the Write
entry, a file it edits (an Edit, a patch's Update File) to the Edit entry, a notebook cell
to the NotebookEdit entry; a patch that does both applies both. A call that writes no file
applies the entries whose matcher names its tool. Each message is evaluated once, in
registry order, on the call narrowed to the files of the entries that list it, so the
Write entry's guards see only created files and the Edit entry's only edited ones.
Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from hookmsg_dispatch.call import Call, FileChange
    from hookmsg_dispatch.main import Dispatch


def change_tool(change: FileChange) -> str:
    """The registry tool that writes a file this way."""
    if change.created:
        return "Write"
    return "Edit" if change.created is False else "NotebookEdit"


def resolve(
    entries: Sequence[Mapping[str, Any]], keys: Sequence[str], call: Call
) -> list[tuple[str, Call]]:
    """Each message of the named entries that applies to `call`, with the call it sees."""
    chosen: dict[str, tuple[str, list[FileChange]]] = {}
    for entry in entries:
        key = entry.get("matcher")
        messages = entry.get("messages")
        if key not in keys or not isinstance(key, str) or not isinstance(messages, list):
            continue
        tools = key.split("|")
        picked = [change for change in call.changes if change_tool(change) in tools]
        if call.changes and not picked:
            continue
        if not call.changes and call.tool not in tools:
            continue
        tool = change_tool(picked[0]) if picked else call.tool or tools[0]
        for name in messages:
            if not isinstance(name, str):
                continue
            if name in chosen:
                known = chosen[name][1]
                known += [change for change in picked if change not in known]
            else:
                chosen[name] = (tool, list(picked))
    return [
        (name, call.replace(tool=tool, changes=tuple(changes)) if changes else call)
        for name, (tool, changes) in chosen.items()
    ]


def names_of_entries(run: Dispatch, entries: list[str], named: list[str]) -> list[str]:
    """The messages of the registry `entries` (`--entry`) that apply to the call, each with
    the call as its entry sees it (`run.scoped`), then the `named` ones."""
    if run.payload is None:
        return []  # which entry applies cannot be told
    table = run.table.get("entries", {}).get(run.event, [])
    try:
        pairs = resolve(table if isinstance(table, list) else [], entries, run.call())
    except Exception as error:
        from hookmsg_dispatch.main import _brief

        run.problems.append(f"the entries {entries} cannot be resolved ({_brief(error)})")
        return []
    run.scoped = dict(pairs)
    return [*run.scoped, *(name for name in named if name not in run.scoped)]
