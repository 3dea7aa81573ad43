"""Output rules: G001 on the rendered skill index, G002-G006 on the generated folder."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic

DriftState = Literal["drifted", "missing", "stale", "foreign", "link"]

DRIFT_CODES: dict[DriftState, Code] = {
    "drifted": "G002",
    "missing": "G003",
    "stale": "G004",
    "foreign": "G005",
    "link": "G006",
}
_DRIFT_TEXT: dict[DriftState, str] = {
    "drifted": "differs from what the sources produce",
    "missing": "is missing",
    "stale": "is produced by nothing",
    "foreign": "was not written by hookmsg (not in the generated folder's outputs.json); "
    "build never removes it: move or delete it yourself",
    "link": "is a symbolic link; the generated folder holds only real files and folders, "
    "and build never writes through a link: replace it with a real folder or remove it",
}


def drift(display: str, state: DriftState, *, diff: str = "", fix: str = "") -> Diagnostic:
    """G002-G006: one generated file that differs from what the sources produce."""
    return Diagnostic(display, 1, 1, DRIFT_CODES[state], _DRIFT_TEXT[state], diff=diff, fix=fix)


def skill_index_budget(
    display: str,
    budget: int,
    sizes: Mapping[str, int],
    largest: Mapping[str, Sequence[tuple[str, int]]],
) -> list[Diagnostic]:
    """G001 for each install form (`sizes`: form -> delivered characters) over `budget`.

    `largest` names each form's largest groups (title, characters), largest first.
    """
    found = []
    for form, size in sizes.items():
        if size > budget:
            groups = ", ".join(f"{title} ({chars})" for title, chars in largest[form])
            found.append(
                Diagnostic(
                    display,
                    1,
                    1,
                    "G001",
                    f"skill index ({form} form) delivers {size} characters, {size - budget} over "
                    f"the {budget} budget; largest groups: {groups}",
                )
            )
    return found
