"""Properties of the message parser and the message rules, over arbitrary text.

Two kinds of input: any Unicode text (control characters included), and Markdown-ish
text assembled from the lines that matter to the rules (section headings real and in
disguise, fences, binding bullets, licence lines, templates, paths), joined with LF,
CRLF or CR. Hypothesis runs derandomized and without its example database, so every
run tries the same examples.
"""

from __future__ import annotations

import string
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookmsg.codes import CODES
from hookmsg.messages.message import Message, parse_text
from hookmsg.messages.referenced import look_up
from hookmsg.messages.rules.family import MessageContext, check_message
from tests.support.message import LICENCE
from tests.support.repository import REPO

pytestmark = pytest.mark.slow

PROPERTY = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

MARKDOWN_LINES = (
    "## Bindings",
    "## Bindings (§0.j five-direction)",
    "## Advisory",
    "## Notes",
    "# Title heading",
    "```",
    "~~~",
    "> ## x",
    "> ## Bindings",
    "- ## Bindings",
    "    ## indented",
    "Title\n---",
    "Bindings\n---",
    "Title\n===",
    "- **Drives →** x",
    "- **Drives →** TBD",
    "- **Drives ↑** the wrong glyph",
    "- **Established by ↑** `catalog/hooks.toml`",
    "- **Cross-bound with ↔** `messages/stop.md` (why)",
    "- **Cross-bound with ↔** `../outside.md`",
    "- edits -> tests <-> docs",
    "Drives: x",
    "* **Drives →** star bullet",
    "  continuation line",
    LICENCE,
    f"{LICENCE}  ",
    "<!-- SPDX-License-Identifier: Apache-2.0 -->",
    "<!-- a comment -->",
    "<div>",
    "Title sentence.",
    "",
    "   ",
    "{{ path }}",
    "{{ path",
    "{{ path | upper }}",
    "{% if x %}",
    "{# note #}",
    "${HOME}",
    "\u202e",
    "\ufeff",
    "\t",
    "\x00",
    "1. item",
)

# Backticked paths: ordinary ones, and names around the file system's length limit.
_PATHS = st.one_of(
    st.text(alphabet=string.ascii_lowercase + "./-_~", min_size=1, max_size=40),
    st.integers(min_value=1, max_value=400).map(lambda n: "a" * n + ".md"),
).map(lambda path: f"- **Established by ↑** `{path}`")
# Advisory sections whose expression nests deeper than a recursive parser expects.
_NESTED = st.integers(min_value=0, max_value=1000).map(
    lambda n: "## Advisory\n\n{{ " + "(" * n + "path" + ")" * n + " }}"
)
# Lists and blockquotes nested deeper than markdown-it's default nesting limit.
_DEEP = st.builds(
    lambda marker, depth: marker * depth + "item",
    st.sampled_from(["- ", "> ", "1. "]),
    st.integers(min_value=1, max_value=40),
)
_LINE = st.one_of(
    st.sampled_from(MARKDOWN_LINES),
    st.text(max_size=12),
    _PATHS,
    _NESTED,
    _DEEP,
)
MARKDOWNISH = st.builds(
    lambda lines, ending, final: ending.join(lines) + (ending if final else ""),
    st.lists(_LINE, max_size=30),
    st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"]),
    st.booleans(),
)
TEXTS = st.one_of(st.text(), MARKDOWNISH)

CONTEXTS = st.sampled_from(
    [
        MessageContext(licence_line=LICENCE, delivered_cap=10_000),
        MessageContext(licence_line=LICENCE, delivered_cap=200, registered=True),
        MessageContext(
            licence_line=LICENCE,
            delivered_cap=200,
            registered=True,
            placeholders={"path": "src/app.py", "plan": "plans/x.md"},
        ),
    ]
)


def parse(text: str) -> Message:
    return parse_text(text, LICENCE, "messages/property.md")


@PROPERTY
@given(TEXTS)
def test_parse_text_never_raises(text: str) -> None:
    message = parse(text)
    assert isinstance(message.delivered, str)
    assert message.text.count("\n") == len(message.lines)


@PROPERTY
@given(TEXTS)
def test_sections_cover_every_line_once_in_order(text: str) -> None:
    message = parse(text)
    next_line = 1
    for index, section in enumerate(message.sections):
        assert section.start == next_line, message.sections
        assert section.end >= section.start, message.sections
        if section.heading_line is None:
            assert index == 0, "only the preamble has no heading"
        else:
            assert section.heading_line == section.start
            assert message.line(section.heading_line).lstrip(" ").startswith("##")
        next_line = section.end + 1
    assert next_line == len(message.lines) + 1, message.sections


@PROPERTY
@given(TEXTS, CONTEXTS)
def test_check_message_never_raises_and_reports_valid_positions(
    text: str, context: MessageContext
) -> None:
    message = parse(text)
    # The named paths looked up under the repository, as loading does; no message read.
    context = replace(context, referenced=look_up(message, REPO, lambda path: None))
    for diagnostic in check_message(message, context):
        assert diagnostic.code in CODES, diagnostic
        assert diagnostic.line >= 1, diagnostic
        assert diagnostic.col >= 1, diagnostic
        assert diagnostic.line <= max(len(message.lines), 1) + 1, diagnostic
        assert diagnostic.path == "messages/property.md", diagnostic


@PROPERTY
@given(TEXTS)
def test_delivered_text_has_no_licence_line_nor_bindings_heading(body: str) -> None:
    text = f"{LICENCE}\n{body}"
    message = parse(text)
    assert message.licence_line == LICENCE
    assert 1 not in message.delivered_lines
    if text.count(LICENCE) == 1:
        assert LICENCE not in message.delivered
    for section in message.bindings_sections:
        assert section.heading_line is not None
        assert section.heading_line not in message.delivered_lines
        heading = message.line(section.heading_line)
        if text.count(heading) == 1:
            assert heading not in message.delivered
