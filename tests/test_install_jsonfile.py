"""Properties of the lossless JSON reader and writer behind `hookmsg install`.

For any document written in any of the layouts a person might use: reading it and writing
it back unchanged gives the same bytes; a rewrite to another document parses to exactly
that document and keeps every untouched top-level member byte for byte; and taking a
change back out restores the original bytes when the change only added members.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hookmsg.install.jsonfile import Layout, dump, load, rewrite

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("HOOKMSG_FUZZ_EXAMPLES", "100"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

KEYS = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=8)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: repr(f) == json.dumps(f)),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)
DOCUMENTS = st.dictionaries(KEYS, VALUES, min_size=1, max_size=5)
LAYOUTS = st.sampled_from(
    [
        Layout("  ", ",", ": ", False, True),
        Layout("    ", ",", ": ", False, False),
        Layout("\t", ",", ": ", False, True),
        Layout(None, ", ", ": ", False, True),
        Layout(None, ",", ":", False, False),
        Layout("  ", ",", ": ", False, True, "\r\n"),
        Layout("\t", ",", ": ", False, False, "\r\n"),
    ]
)


def _text(document: dict[str, Any], layout: Layout) -> str:
    return dump(document, layout)


@SETTINGS
@given(DOCUMENTS, LAYOUTS)
# A key holding the item separator: the layout is read between tokens, not inside strings.
@example({"": None, ", ": None}, Layout(None, ",", ":", False, False))
def test_an_unchanged_document_is_written_back_byte_for_byte(
    document: dict[str, Any], layout: Layout
) -> None:
    text = _text(document, layout)
    parsed, found = load("f.json", text.encode("utf-8"))
    assert parsed == document
    assert rewrite(text, parsed, parsed, found) == text
    assert dump(parsed, found) == text


@SETTINGS
@given(DOCUMENTS, DOCUMENTS, LAYOUTS)
def test_a_rewrite_holds_the_new_document_and_keeps_untouched_members(
    document: dict[str, Any], other: dict[str, Any], layout: Layout
) -> None:
    text = _text(document, layout)
    parsed, found = load("f.json", text.encode("utf-8"))
    # The merge's shape: every old key in order (some values changed), then new keys.
    new = {key: other.get(key, value) for key, value in parsed.items()}
    new.update({key: value for key, value in other.items() if key not in new})
    result = rewrite(text, parsed, new, found)
    assert json.loads(result) == new
    for key, value in parsed.items():
        if new[key] == value and layout.indent is not None:
            member = json.dumps(key, ensure_ascii=False) + layout.key_separator
            assert member in result


@SETTINGS
@given(DOCUMENTS, DOCUMENTS, LAYOUTS)
def test_taking_added_members_out_again_restores_the_bytes(
    document: dict[str, Any], extra: dict[str, Any], layout: Layout
) -> None:
    text = _text(document, layout)
    parsed, found = load("f.json", text.encode("utf-8"))
    grown = {**parsed, **{k: v for k, v in extra.items() if k not in parsed}}
    added = rewrite(text, parsed, grown, found)
    again, layout_again = load("f.json", added.encode("utf-8"))
    assert again == grown
    assert rewrite(added, again, parsed, layout_again) == text


@SETTINGS
@given(DOCUMENTS, DOCUMENTS, LAYOUTS)
def test_a_rewrite_keeps_the_files_line_endings(
    document: dict[str, Any], extra: dict[str, Any], layout: Layout
) -> None:
    text = _text(document, layout)
    parsed, found = load("f.json", text.encode("utf-8"))
    grown = {**parsed, **{k: v for k, v in extra.items() if k not in parsed}}
    added = rewrite(text, parsed, grown, found)
    if layout.newline == "\r\n":
        assert "\n" not in added.replace("\r\n", "")
    else:
        assert "\r" not in added
