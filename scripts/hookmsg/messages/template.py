"""An Advisory template, scanned: its plain placeholders and every other Jinja2 construct.

Part of the model: the Advisory rules (`rules/advisory.py`) and the renderers that write
advisories read the same scan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Any Jinja2 construct: `{{ ... }}`, `{% ... %}`, `{# ... #}` (unclosed ones run to the end).
_CONSTRUCT = re.compile(r"\{\{(?P<var>.*?)(?:\}\}|$)|\{%.*?(?:%\}|$)|\{#.*?(?:#\}|$)", re.DOTALL)
_PLAIN = re.compile(r"^\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*$")


@dataclass(frozen=True)
class Placeholder:
    name: str
    offset: int


@dataclass(frozen=True)
class TemplateScan:
    """The plain placeholders of an Advisory, and the offsets of every other construct."""

    placeholders: tuple[Placeholder, ...]
    other: tuple[tuple[int, str], ...]


def scan_template(text: str) -> TemplateScan:
    placeholders = []
    other = []
    for match in _CONSTRUCT.finditer(text):
        whole = match.group(0)
        if whole.startswith("{{") and not whole.endswith("}}"):
            continue  # unclosed: a broken template (A007), not other syntax
        plain = _PLAIN.match(match.group("var") or "")
        if whole.startswith("{{") and plain:
            placeholders.append(Placeholder(plain.group("name"), match.start()))
        else:
            other.append((match.start(), whole.split("\n", 1)[0][:40]))
    return TemplateScan(tuple(placeholders), tuple(other))


def template_error(text: str) -> tuple[int, str] | None:
    """(1-based line, message) of a Jinja2 syntax error, or None when the template parses."""
    from jinja2 import TemplateSyntaxError
    from jinja2.sandbox import SandboxedEnvironment

    try:
        SandboxedEnvironment(autoescape=False).parse(text)
    except TemplateSyntaxError as error:
        return error.lineno or 1, error.message or "syntax error"
    except RecursionError:
        return 1, "expression nested too deeply"
    return None
