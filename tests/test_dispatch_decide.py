"""Deciding a match without `re` gives the answer `re` gives, and a firing guard never loads `re`.

Every pattern the dispatch table carries is asked of every text of the guard cases (their
commands, their added lines, and each cut into pieces), by `search`, `match` and
`fullmatch`, with `hookmsg_dispatch.decide` and with `re`.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from hookmsg_dispatch import decide
from hookmsg_dispatch.literal import LazyPattern
from tests.support.repository import REPO

TABLE = json.loads((REPO / "generated" / "dispatch-table.json").read_text(encoding="utf-8"))
FLAGS = (re.MULTILINE, 0)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _patterns() -> list[str]:
    found = {s for s in _strings(TABLE.get("conditions", {})) if re.search(r"[\\()\[\]*+?|^$]", s)}
    return sorted(found)


def _texts() -> list[str]:
    texts: set[str] = {"", "\n", " ", "eval(", "x\n", "\nx"}
    for path in sorted((REPO / "catalog" / "guards").glob("*.toml")):
        for case in tomllib.loads(path.read_text(encoding="utf-8")).get("cases", []):
            for text in _strings(case.get("payload", {})):
                for line in [text, *text.split("\n")]:
                    if len(line) <= 300:
                        texts.add(line)
                        texts.add(line[len(line) // 3 :])
    ordered = sorted(texts)
    return ordered[:: max(1, len(ordered) // 400)]  # a spread of about 400


PATTERNS = _patterns()
TEXTS = _texts()
HOSTILE = ["a" * 200, " " * 200, "x\n" * 100, "git " * 50, "(" * 200, "eval" * 50, "é日本\u00a0٣"]


def _compiled(source: str, flags: int) -> re.Pattern[str] | None:
    try:
        return re.compile(source, flags)
    except re.error:
        return None


def test_most_catalogue_patterns_are_read() -> None:
    read = 0
    for source in PATTERNS:
        try:
            decide.parse(source, re.MULTILINE)
            read += 1
        except decide.Unsupported:
            continue
    assert len(PATTERNS) > 50 and read >= len(PATTERNS) * 0.8, (read, len(PATTERNS))


@pytest.mark.slow
@pytest.mark.parametrize("flags", FLAGS)
def test_decide_agrees_with_re_on_every_catalogue_pattern(flags: int) -> None:
    differ = []
    for source in PATTERNS:
        compiled = _compiled(source, flags)
        try:
            tree = decide.parse(source, flags)
        except decide.Unsupported:
            continue
        assert compiled is not None, source  # re refuses it: it must not be read here
        for text in [*TEXTS, *HOSTILE]:
            for how in ("search", "match", "fullmatch"):
                want = getattr(compiled, how)(text) is not None
                if decide.matches(tree, text, how) != want:
                    differ.append((source, text, how, want))
    assert differ == []


CONSTRUCTS = [
    (r"a{2,3}b", ["ab", "aab", "aaab", "aaaab", "b"]),
    (r"a{,2}b", ["b", "ab", "aaab"]),
    (r"^x$", ["x", "x\n", "y\nx\nz", "xx"]),
    (r"\bfoo\B", ["foo", "foobar", " foox", ""]),
    (r"\B", ["", "a", " "]),
    (r"(?<=ab)c|(?<!x)d", ["abc", "xd", "d", "c"]),
    (r"(?=a)\w+(?!b)", ["ab", "aa", "b", "a"]),
    (r"[^\s\d-]+z", ["-z", "az", "9z", " z"]),
    (r"[a-c\x41-\x43]+$", ["abcABC", "abd", "\n"]),
    (r"(?P<n>x|y)*?z", ["z", "xyz", "xyw"]),
    (r"(a*)*b", ["aaaa", "aaab"]),
    (r"a.c", ["abc", "a\nc"]),
    (r"\A\s*\Z", ["", " \n", "x"]),
]


@pytest.mark.parametrize(("source", "texts"), CONSTRUCTS)
@pytest.mark.parametrize("flags", FLAGS)
def test_decide_agrees_with_re_on_each_construct(source: str, texts: list[str], flags: int) -> None:
    tree = decide.parse(source, flags)
    compiled = re.compile(source, flags)
    for text in texts:
        for how in ("search", "match", "fullmatch"):
            assert decide.matches(tree, text, how) == (getattr(compiled, how)(text) is not None), (
                text,
                how,
            )


@pytest.mark.parametrize(
    "source", [r"(?i)x", r"(\w)\1", r"a++", r"x{2", r"[[a]", r"(?<=a+)b", r"\N{DASH}", r"a**"]
)
def test_constructs_not_read_here_are_left_to_re(source: str) -> None:
    with pytest.raises(decide.Unsupported):
        decide.parse(source, re.MULTILINE)


def test_a_decided_match_tells_what_the_compiled_pattern_would() -> None:
    lazy = LazyPattern(r"(?<![\w.])eval\s*\(", re.MULTILINE)
    found = lazy.search("x = eval (y)")
    assert found is not None and lazy._compiled is None  # decided, nothing compiled
    assert (found.start(), found.group(0)) == (4, "eval (")
    assert lazy.search("x = my_eval(y)") is None


@pytest.mark.slow
def test_a_firing_eval_guard_does_not_import_re(tmp_path: Path) -> None:
    import subprocess
    import sys

    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "from hookmsg_dispatch.literal import lazy;"
        r"p = lazy('(?<![\\w.])(?<!def )eval\\s*\\(', 8);"
        "print(p.search('value = eval(input())') is not None, 're' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(REPO / "scripts")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.split() == ["True", "False"], done.stderr


def test_the_tables_literals_are_what_the_dispatcher_would_read() -> None:
    from hookmsg_dispatch.literal import prefilter, required

    literals = TABLE["literals"]
    assert set(PATTERNS) <= set(literals)
    for source, entry in literals.items():
        found = required(source)
        assert entry == (None if found is None else [found[1], sorted(found[0])]), source
        assert prefilter(source) == found
