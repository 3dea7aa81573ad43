"""Skill and command rules: S001-S017, and C005/C006 on the skill catalogue's references.

The skill loader (`skill_sources.py`) and the front matter reader (`frontmatter.py`) find
each problem as they read and report it through these, one constructor per code, so
every code is produced here. Each takes the path shown, the line, the column and the
text that says what was found.
"""

from __future__ import annotations

from collections.abc import Callable

from hookmsg.codes import Code
from hookmsg.diagnostics import Diagnostic

Finding = Callable[[str, int, int, str], Diagnostic]


def _finding(code: Code) -> Finding:
    def make(display: str, line: int, col: int, message: str) -> Diagnostic:
        return Diagnostic(display, line, col, code, message)

    return make


no_front_matter = _finding("S001")
front_matter_unclosed = _finding("S002")
front_matter_unreadable = _finding("S003")
front_matter_not_a_mapping = _finding("S004")
front_matter_tab = _finding("S005")
bom_before_front_matter = _finding("S006")
name_differs_from_folder = _finding("S007")
bad_name = _finding("S008")
bad_description = _finding("S009")
description_too_long = _finding("S010")
unknown_key = _finding("S011")
defined_twice = _finding("S012")
in_no_group = _finding("S013")
key_repeated = _finding("S014")
wrong_type = _finding("S015")
source_folder_unusable = _finding("S016")
skill_entry_incomplete = _finding("S017")
unknown_reference = _finding("C005")
empty_group = _finding("C006")
