"""Advisory rules: A001-A008 (the template scan they read is `template.py`)."""

from __future__ import annotations

from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import Message
from hookmsg.messages.rules.context import MessageContext
from hookmsg.messages.template import scan_template, template_error


def _position(text: str, start_line: int, offset: int) -> tuple[int, int]:
    line = start_line + text.count("\n", 0, offset)
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def check(message: Message, context: MessageContext) -> list[Diagnostic]:
    path = message.display
    found: list[Diagnostic] = []
    sections = message.advisory_sections
    for extra in sections[1:]:
        found.append(
            Diagnostic(
                path,
                extra.heading_line or 1,
                1,
                "A003",
                f"second `## Advisory` section (first on line {sections[0].heading_line})",
            )
        )
    if context.registered:
        if context.is_guard and not sections:
            found.append(
                Diagnostic(
                    path, 1, 1, "A001", "registered as a guard but has no `## Advisory` section"
                )
            )
        if not context.is_guard and sections:
            found.append(
                Diagnostic(
                    path,
                    sections[0].heading_line or 1,
                    1,
                    "A002",
                    "has an `## Advisory` section but is not registered as a guard",
                )
            )
    if not sections:
        return found

    text, start = message.section_text(sections[0])
    heading = sections[0].heading_line or 1
    if not text:
        return [*found, Diagnostic(path, heading, 1, "A008", "the `## Advisory` section is empty")]

    scan = scan_template(text)
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
    error = template_error(text)
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
    if context.registered and context.placeholders is not None and error is None:
        declared = context.placeholders
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
