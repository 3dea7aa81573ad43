"""The guards' patterns load `re` only for a text that could match them.

`hookmsg_dispatch.literal` reads a pattern's source for the literals every match needs;
a text without any of them is answered "no match" without compiling. The property that
makes this safe: whenever `re` finds a match, the prefilter said "could match". It is
checked on every pattern of the guard files' conditions and on hand-written hard cases,
with texts that hypothesis builds to match each pattern, and with texts that merely
resemble it.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookmsg_dispatch.literal import LazyPattern, could_match, glob_match, required
from tests.support.repository import REPO


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node


def _catalogue_patterns() -> list[str]:
    strings: set[str] = set()
    for path in sorted((REPO / "catalog" / "guards").glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        strings.update(_strings(data.get("condition", {})))
    found = []
    for text in sorted(strings):
        try:
            re.compile(text)
        except re.error:
            continue
        found.append(text)
    return found


HARD = [
    r"a+b",
    r"xa+b",
    r"ab?c",
    r"(?:foo|bar)baz",
    r"(?:foo|)bar",
    r"(?:foo|x*)",
    r"colou?r",
    r"a{2,3}b",
    r"a{0,3}b",
    r"(?i)HeLLo",
    r"(?<!x)eval\s*\(",
    r"[abc]def",
    r"[]x]yz",
    r"\.\*literal",
    r"a|b|cd",
    r"(?P<name>abc)d",
    r"(a(b(c)))",
    r"\bword\b",
    r"x(?=abc)",
    r"a.b",
    r"^start",
    r"end$",
    r"a\+b",
    r"}x",
    r"(?:ab)+c",
    r"(?:ab)*c",
    r"a+?b",
    r"a*+b" if sys.version_info >= (3, 11) else r"a*b",
]
PATTERNS = _catalogue_patterns() + HARD


def test_the_catalogue_has_patterns_to_check() -> None:
    assert len(PATTERNS) > 40
    assert any(required(p) is not None for p in PATTERNS)


@pytest.mark.parametrize("source", PATTERNS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_match_holds_a_required_literal(source: str, data: st.DataObject) -> None:
    compiled = re.compile(source, re.MULTILINE)
    found = required(source)
    text = data.draw(st.from_regex(compiled, fullmatch=False), label="matching text")
    assert compiled.search(text) is not None
    assert could_match(found, text), (source, found, text)


@pytest.mark.parametrize("source", PATTERNS)
@settings(max_examples=15, deadline=None)
@given(text=st.text(alphabet="abcdefghijklmnopqrstuvwxyzEIVL.() \\n$;|<-_", max_size=40))
def test_the_lazy_pattern_answers_as_re_does(source: str, text: str) -> None:
    compiled = re.compile(source, re.MULTILINE)
    lazy = LazyPattern(source, re.MULTILINE)
    expected = compiled.search(text)
    got = lazy.search(text)
    assert (got is None) == (expected is None), (source, text)
    if got is not None and expected is not None:
        assert (got.start(), got.end(), got.group()) == (*expected.span(), expected.group())
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in compiled.finditer(text)]


def test_a_plain_literal_is_found_without_re() -> None:
    lazy = LazyPattern("SPDX-License-Identifier:", re.MULTILINE)
    match = lazy.search("# SPDX-License-Identifier: MIT")
    assert match is not None and match.span() == (2, 26)
    assert lazy.search("# no licence") is None
    assert [
        m.start() for m in lazy.finditer("aSPDX-License-Identifier:SPDX-License-Identifier:")
    ] == [1, 25]


def test_a_silent_guard_call_never_imports_re() -> None:
    code = (
        "import sys; sys.path.insert(0, 'scripts')\n"
        "from hookmsg_dispatch.literal import LazyPattern, glob_match\n"
        "p = LazyPattern(r'(?<![\\w.])eval\\s*\\(', 8)\n"
        "assert p.search('print(value)') is None\n"
        "assert list(p.finditer('x = 1')) == []\n"
        "h = LazyPattern('SPDX-License-Identifier:', 8)\n"
        "assert h.search('# SPDX-License-Identifier: MIT')\n"
        "assert glob_match('requirements-dev.txt', 'requirements*.txt')\n"
        "print('re' in sys.modules, 'fnmatch' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.split() == ["False", "False"], done.stderr


@settings(max_examples=200, deadline=None)
@given(
    name=st.text(alphabet="ab*.-txr", max_size=12),
    glob=st.text(alphabet="ab*.-txr", max_size=8),
)
def test_the_star_glob_matches_as_fnmatch_does(name: str, glob: str) -> None:
    import fnmatch

    assert glob_match(name, glob) == fnmatch.fnmatchcase(name, glob)
