"""Properties of the front matter reader: any text gives data or findings, never an exception,
and what the YAML says comes back with the position it was written at."""

from __future__ import annotations

import os
import string

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookmsg.catalogue.frontmatter import read_front_matter

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("HOOKMSG_FUZZ_EXAMPLES", "100"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

# Text made of YAML's syntax characters, so that generated files hit the parser's corners.
YAMLISH = st.text(
    alphabet=st.sampled_from(list("-:[]{}|>!&*#'\"?,%@`\t\n \ufeff\x00\x85\u2028ab1")),
    max_size=120,
)
KEY = st.from_regex(r"[a-z][a-z0-9-]{0,20}", fullmatch=True).filter(
    lambda key: key not in ("y", "n", "yes", "no", "on", "off", "true", "false", "null")
)
SCALAR = st.one_of(
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs", "Co", "Cn", "Zl", "Zp"), blacklist_characters="\ufeff"
        ),
        max_size=40,
    ),
    st.integers(min_value=-(10**9), max_value=10**9),
    st.booleans(),
)
VALUE = st.one_of(SCALAR, st.lists(SCALAR, max_size=4), st.dictionaries(KEY, SCALAR, max_size=3))


def _check_positions(text: str, found: list) -> None:  # type: ignore[type-arg]
    lines = text.split("\n")
    for item in found:
        assert 1 <= item.line <= len(lines) + 1, item
        assert item.col >= 1, item
        assert item.code[0] == "S", item


@SETTINGS
@given(body=YAMLISH)
def test_any_front_matter_gives_data_or_findings(body: str) -> None:
    for text in (f"---\n{body}\n---\n# Title\n", f"---\n{body}", body):
        front, found = read_front_matter(text, "SKILL.md")
        _check_positions(text, found)
        if front is None:
            assert found, "an unusable front matter is always explained"
        else:
            assert all(isinstance(key, str) for key in front.fields)


@SETTINGS
@given(data=st.dictionaries(KEY, VALUE, min_size=1, max_size=6), body=st.text(max_size=60))
def test_written_keys_come_back_with_their_values_and_lines(
    data: dict[str, object], body: str
) -> None:
    dumped = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000)
    text = f"---\n{dumped}---\n{body}"
    front, found = read_front_matter(text, "SKILL.md")
    assert found == []
    assert front is not None and front.present
    assert {key: field.value for key, field in front.fields.items()} == data
    lines = text.split("\n")
    for key, field in front.fields.items():
        assert lines[field.line - 1][field.col - 1 :].startswith(key), (key, field)
    assert front.body == body


@SETTINGS
@given(
    data=st.dictionaries(KEY, st.dictionaries(KEY, SCALAR, min_size=1, max_size=3), min_size=1),
    pick=st.integers(min_value=0),
)
def test_a_tab_in_the_indentation_is_its_own_finding(data: dict[str, object], pick: int) -> None:
    dumped = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000)
    lines = dumped.split("\n")
    indented = [i for i, line in enumerate(lines) if line.startswith("  ") and ":" in line]
    index = indented[pick % len(indented)]
    lines[index] = "\t" + lines[index][2:]
    text = "---\n" + "\n".join(lines) + "---\n"
    front, found = read_front_matter(text, "SKILL.md")
    assert front is None
    assert [(f.line, f.col, f.code) for f in found] == [(index + 2, 1, "S005")]


@SETTINGS
@given(
    prefix=st.text(alphabet=string.ascii_letters + " #\n", max_size=40),
)
def test_a_file_without_the_opening_delimiter_has_no_front_matter(prefix: str) -> None:
    text = "x" + prefix + "\n---\nname: a\n---\n"
    front, found = read_front_matter(text, "SKILL.md")
    assert found == []
    assert front is not None and not front.present and front.body == text
