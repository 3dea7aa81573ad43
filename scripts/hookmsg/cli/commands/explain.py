"""`hookmsg explain [CODE]`: what a diagnostic means, an example, and the fix."""

from __future__ import annotations

import sys

from hookmsg.codes import CODES, code_info
from hookmsg.errors import EXIT_OK, UsageError


def explain(code: str | None) -> int:
    if code is None:
        width = max(len(c) for c in CODES)
        sys.stdout.writelines(f"{c:<{width}}  {rule.summary}\n" for c, rule in CODES.items())
        return EXIT_OK
    rule = code_info(code)
    if rule is None:
        raise UsageError(f"unknown code '{code}'; `hookmsg explain` lists them all")
    sys.stdout.write(f"{rule.code}: {rule.summary}\n\nExample: {rule.example}\nFix: {rule.fix}\n")
    return EXIT_OK
