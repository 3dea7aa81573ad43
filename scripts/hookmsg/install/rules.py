"""Install rules: I003-I013, what `install`, `verify` and `uninstall` find and refuse.

The installer (`installing/`, `commands/verify.py`) finds each problem as it reads a
settings file or an install root and reports it through these, one constructor per code.
Each takes the path shown, the line, the column and the text that says what was found.
"""

from __future__ import annotations

from hookmsg.finding import finding_for

not_json = finding_for("I003")
not_written_back_exactly = finding_for("I004")
unmergeable_shape = finding_for("I005")
not_an_install_root = finding_for("I006")
absent = finding_for("I007")
stale = finding_for("I008")
install_root_broken = finding_for("I009")
stale_content = finding_for("I010")
foreign_content = finding_for("I011")
leaves_the_base = finding_for("I012")
not_a_regular_file = finding_for("I013")
