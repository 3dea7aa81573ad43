"""GitHub Actions workflow injection: an untrusted `${{ }}` expression inside a shell script.

A workflow's `run:` script (and an `actions/github-script` `script:`) is built by textual
substitution before the shell or Node reads it, so `${{ github.event.issue.title }}` in it
runs whatever the issue's author wrote. The same expression in `env:`, `with:` or `if:` is a
value, not code: the remedy is to pass it through `env:` and quote the variable. One pass
over the lines, tracking the block scalar of the `run:` key by its indentation (YAML's rule:
the first content line sets it). Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SCRIPT_KEYS = ("run:", "script:")


def is_workflow(relative: str) -> bool:
    """A GitHub Actions workflow or composite action definition."""
    name = relative.rsplit("/", 1)[-1]
    if name in ("action.yml", "action.yaml"):
        return True
    return relative.startswith(".github/workflows/") and name.endswith((".yml", ".yaml"))


def _script_value(stripped: str) -> str | None:
    """The value of a `run:`/`script:` key on this line (`- run: x` too), else None."""
    if stripped.startswith("- "):
        stripped = stripped[2:].lstrip()
    for key in _SCRIPT_KEYS:
        if stripped.startswith(key):
            return stripped[len(key) :].strip()
    return None


def injection(text: str, wanted: set[int] | None, expression: Any) -> int | None:
    """The 0-based line of the first untrusted expression in a script, among `wanted`."""
    block = -1  # the indentation of the block scalar being read; -1: none, -2: not yet known
    parent = 0
    for number, line in enumerate(text.split("\n")):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block != -1 and stripped and not stripped.startswith("#"):
            if block == -2:
                block = indent if indent > parent else -1
            elif indent < block:
                block = -1
        in_script = block >= 0 and bool(stripped)
        if not in_script:
            value = _script_value(stripped)
            if value is not None and value[:1] in ("|", ">"):
                block, parent = -2, indent
                continue
            in_script = value is not None
        touched = wanted is None or number in wanted
        if in_script and touched and expression.search(line) is not None:
            return number
    return None
