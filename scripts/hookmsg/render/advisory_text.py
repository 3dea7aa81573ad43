"""Render a guard's Advisory the way the runtime does: sandboxed, strict, plain text."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING

from hookmsg.errors import FindingsError
from hookmsg.vocabulary import RESERVED_NAMES

if TYPE_CHECKING:
    from jinja2.sandbox import SandboxedEnvironment

FULL_PROCEDURE = "Full procedure: {file}"


@cache
def _sandbox() -> SandboxedEnvironment:
    # Advisory text comes from message files, so it is untrusted: a sandbox keeps it
    # from reaching Python internals, and no globals means it can reach nothing but the
    # values given. No autoescape: the text is Markdown, not HTML.
    from jinja2 import StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    environment = SandboxedEnvironment(autoescape=False, undefined=StrictUndefined)
    environment.globals.clear()
    return environment


def render_advisory(template: str, values: Mapping[str, str], file: str) -> str:
    """The text a firing guard inserts: its Advisory filled in, then the procedure line.

    Only plain `{{ name }}` placeholders with a given value are rendered; anything
    else is refused before Jinja2 sees it.
    """
    from hookmsg.messages.template import scan_template, template_error

    scan = scan_template(template)
    if scan.other or template_error(template) is not None:
        raise FindingsError(f"{file}: the Advisory is not plain placeholders (A006/A007)")
    names = {p.name for p in scan.placeholders}
    refused = sorted(names & RESERVED_NAMES) + sorted(names - set(values) - RESERVED_NAMES)
    if refused:
        raise FindingsError(f"{file}: no value for placeholder {', '.join(refused)}")
    try:
        filled = _sandbox().from_string(template).render(**values)
    except Exception as error:  # any failure of untrusted text is a finding, not a crash
        raise FindingsError(
            f"{file}: the Advisory cannot be rendered ({type(error).__name__})"
        ) from None
    return f"{filled.strip()}\n\n{FULL_PROCEDURE.format(file=file)}"
