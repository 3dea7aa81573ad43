"""The question guard: a choice with no option marked "(Recommended)"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hookmsg_dispatch.call import Call
from tests.support.guards import run

GUARD = "pretooluse-askuserquestion-recommended"


def ask(questions: list[dict[str, Any]], *, in_call: bool = True) -> Call:
    # Claude Code's AskUserQuestion input: questions[].question, questions[].options[].label.
    return Call(
        event="PreToolUse",
        harness="claude",
        cwd=str(Path.cwd()),
        tool="AskUserQuestion",
        tool_input={"questions": questions},
        questions=questions if in_call else [],
    )


def question(text: str, *labels: str) -> dict[str, Any]:
    return {
        "question": text,
        "header": "Choice",
        "multiSelect": False,
        "options": [{"label": label, "description": f"about {label}"} for label in labels],
    }


def test_unmarked_choice_fires_with_the_question() -> None:
    call = ask([question("Which database should the service use?", "Postgres", "SQLite")])
    assert run(GUARD, call) == {"question": "Which database should the service use?"}
    raw = ask([question("Which one?", "A", "B")], in_call=False)
    assert run(GUARD, raw) == {"question": "Which one?"}


def test_marked_or_single_option_questions_are_silent() -> None:
    marked = question("Which database?", "Postgres (Recommended)", "SQLite")
    assert run(GUARD, ask([marked])) is None
    assert run(GUARD, ask([question("Proceed?", "Yes")])) is None
    assert run(GUARD, ask([])) is None


def test_the_first_unmarked_question_of_several_is_named() -> None:
    calls = [
        question("First?", "A (Recommended)", "B"),
        question("Second?", "C", "D"),
    ]
    assert run(GUARD, ask(calls)) == {"question": "Second?"}


def test_a_long_question_is_capped() -> None:
    found = run(GUARD, ask([question("Why " * 200, "A", "B")]))
    assert found is not None and len(found["question"]) <= 160
