"""The Jinja2 environment for hookmsg's own (trusted) templates."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jinja2 import Environment

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@cache
def environment() -> Environment:
    """Built once. Autoescape is off on purpose: the outputs are Markdown, not HTML,
    and escaping would corrupt them. StrictUndefined makes a missing variable an error,
    and keep_trailing_newline keeps the final newline that end-of-file fixers expect."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=False,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(name: str, **context: Any) -> str:
    return environment().get_template(name).render(**context)
