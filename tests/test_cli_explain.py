"""`hookmsg explain` and the rule table: both read the one code table (`hookmsg/codes.py`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hookmsg.codes import CODES
from tests.support.diagnostics import Result
from tests.support.repository import REPO

Cli = Callable[..., Result]


@pytest.mark.slow
def test_explain_every_code(cli: Cli) -> None:
    for code, rule in CODES.items():
        result = cli("explain", code.lower())
        assert result.code == 0
        assert result.out.startswith(f"{code}: {rule.summary}\n")
        assert f"Fix: {rule.fix}" in result.out and f"Example: {rule.example}" in result.out


def test_explain_lists_every_code_and_rejects_unknown_ones(cli: Cli) -> None:
    listing = cli("explain")
    assert [line.split()[0] for line in listing.out.splitlines()] == list(CODES)
    unknown = cli("explain", "Z999")
    assert unknown.code == 2 and "unknown code 'Z999'" in unknown.err


def test_the_code_type_and_the_code_table_list_the_same_codes() -> None:
    # `Code` (what mypy checks) and `CODES` (what explain and generated/rules.md print)
    # are written side by side in codes.py: neither may hold a code the other lacks.
    from typing import get_args

    from hookmsg.codes import Code

    assert list(get_args(Code)) == list(CODES)


def test_generated_rule_table_comes_from_the_code_table() -> None:
    # The committed table is drift-checked like every output (`hookmsg check`); here: it
    # has one row per code, in the table's order, with the code's text and fix.
    table = (REPO / "generated" / "rules.md").read_text(encoding="utf-8")
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(CODES)
    for row, rule in zip(rows, CODES.values(), strict=True):
        cells = [cell.strip() for cell in row.split(" | ")]
        assert cells[1:3] == [rule.summary, rule.fix]


def test_readme_links_to_the_generated_rule_table() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "(generated/rules.md)" in readme
    assert "| `F001` |" not in readme, "the rule table lives in generated/rules.md only"
