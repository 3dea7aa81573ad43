"""Render a guard's Advisory the way the runtime does: sandboxed, strict, plain text."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from hookmsg.errors import FindingsError

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

FULL_PROCEDURE = "Full procedure: {file}"


@cache
def _sandbox() -> SandboxedEnvironment:
    # Advisory text comes from message files, so it is untrusted: a sandbox keeps it
    # from reaching Python internals. No autoescape: the text is Markdown, not HTML.
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    return SandboxedEnvironment(autoescape=False, undefined=StrictUndefined)


def render_advisory(template: str, values: Mapping[str, str], file: str) -> str:
    """The text a firing guard inserts: its Advisory filled in, then the procedure line."""
    from jinja2 import TemplateError

    try:
        filled = _sandbox().from_string(template).render(**values)
    except TemplateError as error:
        raise FindingsError(f"{file}: the Advisory cannot be rendered: {error}") from None
    return f"{filled.strip()}\n\n{FULL_PROCEDURE.format(file=file)}"
