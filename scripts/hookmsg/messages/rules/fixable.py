"""The findings `hookmsg fix` is responsible for: those that have one right answer.

After `fix` has mended a file, any finding left with one of these codes is one it could
not mend (a different licence id, a byte that is not UTF-8, a bullet that is not a
binding...): `fix` reports it and exits non-zero. Every other code is left to
`validate`.
"""

from __future__ import annotations

from collections.abc import Iterable

from hookmsg.codes import MENDED
from hookmsg.diagnostics import Diagnostic


def left_for_fix(found: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The findings among `found` that `fix` should have mended and could not."""
    return sorted(d for d in found if d.code in MENDED)
