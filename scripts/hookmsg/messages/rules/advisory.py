"""Advisory rules: A001-A008 (the template scan they read is `template.py`)."""

from __future__ import annotations

from collections.abc import Collection

from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import Message
from hookmsg.messages.rules.context import MessageContext
from hookmsg.messages.template import TemplateScan, scan_template, template_error


def _position(text: str, start_line: int, offset: int) -> tuple[int, int]:
    line = start_line + text.count("\n", 0, offset)
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def check(message: Message, context: MessageContext) -> list[Diagnostic]:
    found = _section_findings(message, context)
    sections = message.advisory_sections
    if not sections:
        return found
    path = message.display
    text, start = message.section_text(sections[0])
    heading = sections[0].heading_line or 1
    if not text:
        return [*found, Diagnostic(path, heading, 1, "A008", "the `## Advisory` section is empty")]
    scan = scan_template(text)
    error = template_error(text)
    found += _template_findings(path, (text, start), scan, error)
    if context.registered and context.placeholders is not None and error is None:
        found += _placeholder_findings(path, (text, start, heading), scan, context.placeholders)
    return found


def _section_findings(message: Message, context: MessageContext) -> list[Diagnostic]:
    """A001-A003: an Advisory where the registry wants one, and only one of them."""
    path = message.display
    sections = message.advisory_sections
    found = [
        Diagnostic(
            path,
            extra.heading_line or 1,
            1,
            "A003",
            f"second `## Advisory` section (first on line {sections[0].heading_line})",
        )
        for extra in sections[1:]
    ]
    if context.registered and context.is_guard and not sections:
        found.append(
            Diagnostic(path, 1, 1, "A001", "registered as a guard but has no `## Advisory` section")
        )
    if context.registered and not context.is_guard and sections:
        found.append(
            Diagnostic(
                path,
                sections[0].heading_line or 1,
                1,
                "A002",
                "has an `## Advisory` section but is not registered as a guard",
            )
        )
    return found


def _template_findings(
    path: str, section: tuple[str, int], scan: TemplateScan, error: tuple[int, str] | None
) -> list[Diagnostic]:
    """A006 for each template construct but a plain placeholder, A007 for a broken template."""
    text, start = section
    found = []
    for offset, snippet in scan.other:
        line, col = _position(text, start, offset)
        found.append(
            Diagnostic(
                path,
                line,
                col,
                "A006",
                f"only plain `{{{{ name }}}}` placeholders are allowed, found `{snippet}`",
            )
        )
    if error is not None:
        found.append(
            Diagnostic(
                path,
                start + error[0] - 1,
                1,
                "A007",
                f"Advisory is not a valid template: {error[1]}",
            )
        )
    return found


def _placeholder_findings(
    path: str,
    section: tuple[str, int, int],
    scan: TemplateScan,
    declared: Collection[str],
) -> list[Diagnostic]:
    """A004 for a placeholder the guard does not declare, A005 for one it never uses."""
    text, start, heading = section
    found = []
    for placeholder in scan.placeholders:
        if placeholder.name not in declared:
            line, col = _position(text, start, placeholder.offset)
            known = ", ".join(sorted(declared)) or "none"
            found.append(
                Diagnostic(
                    path,
                    line,
                    col,
                    "A004",
                    f"placeholder '{placeholder.name}' is not declared for this guard "
                    f"(declared: {known})",
                )
            )
    used = {p.name for p in scan.placeholders}
    for name in sorted(set(declared) - used):
        found.append(
            Diagnostic(path, heading, 1, "A005", f"declared placeholder '{name}' is never used")
        )
    return found
