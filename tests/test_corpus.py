"""Golden corpus of broken messages: `tests/corpus/NAME.md` beside `NAME.expected`.

Each `NAME.expected` holds the exact standard output of

    hookmsg validate tests/corpus/NAME.md

run from the repository root: one `path:line:col: CODE message` line per finding, every
finding of the file (not only the first). The test runs the CLI in-process from the real
repository root (not a copy: cross-bindings name the real `messages/`), compares standard
output byte for byte, and expects exit code 1.

Several files hold bytes that an editor would "fix" (CRLF, a BOM, invalid UTF-8, trailing
spaces); edit them with Python, writing bytes, never with a text editor.

To regenerate every `.expected` file from what the code prints today, run

    HOOKMSG_UPDATE_GOLDEN=1 pytest tests/test_corpus.py

and then read every changed line by eye against the spec (`PRODUCT.md` section 2.1):
an expected file states what is right, not what the code happens to print. Where the
code is wrong, correct the expected file by hand and fix the code.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result
from tests.support.repository import REPO

CORPUS = Path(__file__).resolve().parent / "corpus"
NAMES = sorted(path.stem for path in CORPUS.glob("*.md"))
UPDATE = os.environ.get("HOOKMSG_UPDATE_GOLDEN") == "1"


def test_corpus_is_complete() -> None:
    assert len(NAMES) >= 15
    expected = sorted(path.stem for path in CORPUS.glob("*.expected"))
    assert expected == NAMES or UPDATE, "every NAME.md needs a NAME.expected, and vice versa"


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_corpus(name: str, monkeypatch: pytest.MonkeyPatch, cli: Callable[..., Result]) -> None:
    monkeypatch.chdir(REPO)
    result = cli("validate", f"tests/corpus/{name}.md")
    golden = CORPUS / f"{name}.expected"
    if UPDATE:
        golden.write_bytes(result.out.encode("utf-8"))
    assert result.code == 1, result.out + result.err
    assert result.out, "a broken message must produce findings"
    assert result.out == golden.read_bytes().decode("utf-8")
