"""Skill and command rules: S001-S018, and C005/C006 on the skill catalogue's references.

The skill loader (`skill_sources.py`) and the front matter reader (`frontmatter.py`) find
each problem as they read and report it through these, one constructor per code, so
every code is produced here. Each takes the path shown, the line, the column and the
text that says what was found.
"""

from __future__ import annotations

from hookmsg.finding import finding_for

no_front_matter = finding_for("S001")
front_matter_unclosed = finding_for("S002")
front_matter_unreadable = finding_for("S003")
front_matter_not_a_mapping = finding_for("S004")
front_matter_tab = finding_for("S005")
bom_before_front_matter = finding_for("S006")
name_differs_from_folder = finding_for("S007")
bad_name = finding_for("S008")
bad_description = finding_for("S009")
description_too_long = finding_for("S010")
unknown_key = finding_for("S011")
defined_twice = finding_for("S012")
in_no_group = finding_for("S013")
key_repeated = finding_for("S014")
wrong_type = finding_for("S015")
source_folder_unusable = finding_for("S016")
skill_entry_incomplete = finding_for("S017")
would_overwrite = finding_for("S018")
unknown_reference = finding_for("C005")
empty_group = finding_for("C006")
