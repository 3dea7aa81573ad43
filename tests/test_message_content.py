"""What the shipped messages say is true once delivered, one test per point.

PreToolUse output reaches the model after the call ran (Claude Code, Codex) and the
dispatcher opens guard text with "This call went ahead." or "This call was refused.", so
an Advisory names a remedy to carry out now. The messages are read here as files, and
through `hookmsg preview` where the delivered text is what matters.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.diagnostics import Result
from tests.support.dispatch import build_install_root, clean_env, dispatch
from tests.support.repository import REPO

Cli = Callable[..., Result]

MESSAGES = REPO / "messages"
NOTE = ".hookmsg/compaction-note.md"
NOTE_HEADINGS = [
    "## Goal",
    "## Plan",
    "## Done",
    "## Decisions",
    "## Open files",
    "## Failing",
    "## Next step",
    "## Traps",
]
PLAN_FILES = ["PLAN.md", "plan.md", "docs/plan.md", ".hookmsg/plan.md"]
PLAN_GUARDS = ("pretooluse-write-plan-guard", "pretooluse-bash-plan-guard")
COMPACTION = ("precompact", "postcompact", "posttooluse-proactive-compaction", "sessionstart")
# Words that only make sense before the call ran: false in advise mode.
BEFORE_ONLY = (
    "before writing",
    "before running",
    "before you",
    "before the call",
    "do not run",
    "don't run",
    "add it at the top",
    "about to",
    "not run it yet",
)
# Words that offer a choice of actions where the plan guards give one.
MENU = re.compile(r"\b(or|either|alternatively|otherwise|instead|if none|may go ahead)\b")
CODE_LIKE = ("path", "header", "command", "primitive", "location", "plan", "action")
CONTEXT_BUDGET = 2500
ADVISORY_BUDGET = 600
# A long install root, as `Full procedure:` carries it at run time.
ROOT = "/home/a-rather-long-user-name/.local/share/hookmsg-install-root"
OUTCOMES = ("This call went ahead.", "This call was refused.")


def source(name: str) -> str:
    return (MESSAGES / f"{name}.md").read_text(encoding="utf-8")


def delivered(name: str) -> str:
    """The file without its licence line and its Bindings section, trimmed."""
    text = source(name).split("\n", 1)[1]
    return text.split("\n## Bindings\n", 1)[0].strip()


def title(name: str) -> str:
    return delivered(name).split("\n", 1)[0]


def bindings(name: str) -> str:
    return source(name).split("\n## Bindings\n", 1)[1]


def cross_bound(name: str) -> dict[str, str]:
    """Partner message name -> the explanation given for it under Cross-bound with."""
    line = next(
        (x for x in bindings(name).split("\n") if x.startswith("- **Cross-bound with ↔**")), ""
    )
    found = re.findall(r"`messages/([a-z0-9-]+)\.md` \(([^()]*(?:\([^()]*\)[^()]*)*)\)", line)
    return dict(found)


def advisories() -> dict[str, dict[str, object]]:
    data = json.loads((REPO / "generated" / "advisories.json").read_text(encoding="utf-8"))
    return {entry["name"]: entry for entry in data["advisories"]}


def pretooluse_guards() -> dict[str, str]:
    return {
        name: str(entry["template"])
        for name, entry in advisories().items()
        if any(
            isinstance(load, dict) and load.get("event") == "PreToolUse"
            for load in entry["loaded_by"]  # type: ignore[attr-defined]
        )
    }


def registry() -> dict[str, object]:
    return tomllib.loads((REPO / "catalog" / "hooks.toml").read_text(encoding="utf-8"))


def wired_context_messages() -> list[str]:
    data = json.loads(
        (REPO / "generated" / "hook-message-inventory.json").read_text(encoding="utf-8")
    )
    return [
        row["name"]
        for row in data["messages"]
        if row["kind"] == "context" and row["loaded_by"] and row["name"] != "skill-index"
    ]


def backticked(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


@pytest.fixture
def preview(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)

    def show(name: str) -> str:
        result = cli("preview", name)
        assert result.code == 0, result.err
        return result.out.rstrip("\n")

    return show


def test_the_pretooluse_guards_include_the_ones_named_here() -> None:
    # The parametrised tests below run over every PreToolUse guard; these must be among them.
    named = {*PLAN_GUARDS, "pretooluse-dependency-guard", "pretooluse-eval-guard"}
    assert named <= set(pretooluse_guards())


@pytest.mark.parametrize("name", sorted(pretooluse_guards()))
def test_no_pretooluse_advisory_only_makes_sense_before_the_call(name: str) -> None:
    template = pretooluse_guards()[name].lower()
    assert [words for words in BEFORE_ONLY if words in template] == []
    # The dispatcher states the outcome; an advisory that does so too would contradict it.
    assert "went ahead" not in template
    assert "refused" not in template


@pytest.mark.parametrize("name", ["pretooluse-write", "pretooluse-edit", "pretooluse-bash"])
def test_pretooluse_context_messages_hold_after_the_call(name: str) -> None:
    assert not title(name).lower().startswith("before"), title(name)
    assert "this " in delivered(name).split("\n\n", 2)[1].lower()  # checks the call just made
    assert "before you run it" not in delivered(name).lower()


def test_pretooluse_notebookedit_holds_after_the_call() -> None:
    assert not title("pretooluse-notebookedit").lower().startswith("before")


def test_fail_open_is_stated_once_in_sessionstart() -> None:
    text = delivered("sessionstart")
    assert "Hooks fail open" in text
    assert "a guard that errors stays silent" in text
    assert "no advisory does not mean a clean change" in text
    assert "carry it out now, even when the call went ahead" in text
    others = [
        path.stem
        for path in MESSAGES.glob("*.md")
        if path.stem != "sessionstart" and "fail open" in delivered(path.stem).lower()
    ]
    assert others == []


def test_sessionstart_agrees_with_the_plan_guards() -> None:
    start = delivered("sessionstart")
    assert "continue with a one-line reason" not in start
    assert "not a blanket ban" not in start
    for name in (*PLAN_GUARDS, "sessionstart"):
        text = delivered(name)
        plan_files = [span for span in backticked(text) if span in PLAN_FILES]
        assert plan_files[:4] == PLAN_FILES, name
        assert "one of its parent folders" in text or "program and subcommand" in text, name
    assert "one of its parent folders" in start and "program and subcommand" in start
    assert "add it to the plan with a one-line reason and tell the user" in start
    assert "Add the path to the plan with a one-line reason" in delivered(PLAN_GUARDS[0])
    assert "add a step naming its program and subcommand to the plan" in delivered(PLAN_GUARDS[1])


@pytest.mark.parametrize("name", PLAN_GUARDS)
def test_plan_guards_name_one_action(name: str) -> None:
    template = pretooluse_guards()[name].lower()
    assert MENU.findall(template) == []
    body = delivered(name).lower()
    assert re.findall(r"\b(may go ahead|either|alternatively)\b", body) == []
    assert "a step phrased in other words does not count" in body


def test_the_write_plan_guard_defines_coverage_and_exemptions() -> None:
    text = delivered("pretooluse-write-plan-guard")
    assert "names the file's path or one of its parent folders" in text
    assert "The plan file itself and the compaction note `.hookmsg/compaction-note.md`" in text
    assert "are never checked" in text


def test_the_bash_plan_guard_names_what_changes_state() -> None:
    text = delivered("pretooluse-bash-plan-guard")
    for kind in ("push", "tag", "branch deletion", "rebase", "recursive delete", "migration"):
        assert kind in text, kind
    assert "program and subcommand" in text


@pytest.mark.parametrize("name", COMPACTION)
def test_the_compaction_messages_name_the_same_note_and_headings(name: str) -> None:
    text = delivered(name)
    assert f"`{NOTE}`" in text
    headings = [span for span in backticked(text) if span.startswith("## ")]
    assert headings == NOTE_HEADINGS


def test_precompact_asks_for_the_note_file_that_postcompact_reads() -> None:
    before, after = delivered("precompact"), delivered("postcompact")
    assert f"can still write files, bring `{NOTE}` up to date now" in before
    assert f"Name `{NOTE}` in the summary" in before
    assert "Put the note in the compaction summary" not in before
    assert f"Read `{NOTE}`" in after
    assert "look for the same headings in the summary" in after
    assert "Do not restart the task" in after


def test_the_reminder_asks_the_user_to_compact() -> None:
    text = delivered("posttooluse-proactive-compaction")
    assert "Ask the user to run /compact" in text
    assert "You cannot compact the conversation yourself" in text
    assert "Compact, or ask the user to" not in text
    assert "at most twice per compaction cycle" in text


def test_sessionstart_after_a_compaction_agrees_with_postcompact() -> None:
    start, after = delivered("sessionstart"), delivered("postcompact")
    assert "Run the fast checks once now" not in start
    assert "At a fresh start, run the fast checks once" in start
    assert "If this session continues after a compaction, do not restart the task" in start
    assert "re-run only the check under Failing, and resume at Next step" in start
    assert "Re-run the check named under Failing" in after
    assert "These checks replace the session-start baseline" in after
    assert "Resume at Next step" in after


def test_conformity_claims_no_hook_delivers_it() -> None:
    text = source("pretooluse-conformity")
    assert "\n## Advisory\n" not in text
    assert "pretooluse-conformity" not in advisories()
    catalogue = registry()
    assert not (REPO / "catalog" / "guards" / "pretooluse-conformity.toml").exists()
    assert "pretooluse-conformity" in catalogue["unwired"]  # type: ignore[operator]
    assert "no hook" in catalogue["unwired"]["pretooluse-conformity"]  # type: ignore[index]
    assert "No hook delivers this text" in delivered("pretooluse-conformity")
    assert "which runs it" not in bindings("pretooluse-conformity")


@pytest.mark.parametrize("name", sorted(pretooluse_guards()))
def test_code_like_placeholders_are_in_backticks(name: str) -> None:
    template = pretooluse_guards()[name]
    for placeholder in re.findall(r"\{\{ (\w+) \}\}", template):
        if placeholder in CODE_LIKE:
            bare = template.replace(f"`{{{{ {placeholder} }}}}`", "")
            assert f"{{{{ {placeholder} }}}}" not in bare, placeholder
        else:
            assert placeholder in ("question", "change"), placeholder


def test_stop_reports_only_the_delta_when_it_fires_again() -> None:
    text = delivered("stop")
    assert "## When this fires again" in text
    assert "report only what changed since then" in text
    assert "Do not repeat the earlier report" in text


def test_the_dependency_guard_names_the_change_and_one_action_per_kind() -> None:
    guard_file = REPO / "catalog" / "guards" / "pretooluse-dependency-guard.toml"
    declared = tomllib.loads(guard_file.read_text(encoding="utf-8"))["placeholders"]
    assert sorted(declared) == ["change", "path"]
    template = pretooluse_guards()["pretooluse-dependency-guard"]
    assert "{{ change }}" in template
    assert "If this is a lockfile, regenerate it with its package manager now" in template
    assert "If it is a manifest, tell the user in one line why" in template
    assert "pin it" in template
    for checklist in ("licence", "maintenance", "vet", "never hand-edit"):
        assert checklist not in template.lower(), checklist
    assert "`[tool.ruff]` section of `pyproject.toml`, leave it silent" in delivered(
        "pretooluse-dependency-guard"
    )


def test_every_cross_binding_pair_names_each_other_with_a_reason() -> None:
    names = sorted(path.stem for path in MESSAGES.glob("*.md"))
    pairs = {name: cross_bound(name) for name in names}
    assert any(pairs.values())
    for name, partners in pairs.items():
        for partner, reason in partners.items():
            assert name in pairs.get(partner, {}), f"{partner} does not name {name} back"
            assert len(reason.split()) >= 5, (name, partner, reason)


def test_the_compaction_and_plan_pairs_describe_the_same_thing_from_both_sides() -> None:
    for one in COMPACTION[:3]:
        for other, reason in cross_bound(one).items():
            if other in COMPACTION:
                assert "note" in reason, (one, other)
                assert "note" in cross_bound(other)[one], (other, one)
    for guard in PLAN_GUARDS:
        assert "when a plan is in force and what it covers" in cross_bound(guard)["sessionstart"]
        assert "plan coverage defined here" in cross_bound("sessionstart")[guard]
    assert "same remedy" in cross_bound(PLAN_GUARDS[0])[PLAN_GUARDS[1]]
    assert "same remedy" in cross_bound(PLAN_GUARDS[1])[PLAN_GUARDS[0]]


def test_pretooluse_bash_is_about_half_its_former_size(preview: Callable[[str], str]) -> None:
    size = len(preview("pretooluse-bash"))
    assert 900 <= size <= 1250, size


@pytest.mark.slow
def test_context_messages_stay_within_their_budget(preview: Callable[[str], str]) -> None:
    names = wired_context_messages()
    assert "sessionstart" in names and "stop" in names
    sizes = {name: len(preview(name)) for name in names}
    assert {name: size for name, size in sizes.items() if size > CONTEXT_BUDGET} == {}


@pytest.mark.slow
def test_advisories_as_delivered_stay_within_their_budget(
    preview: Callable[[str], str],
) -> None:
    for name in pretooluse_guards():
        text = preview(name).replace(
            "Full procedure: messages/", f"Full procedure: {ROOT}/messages/"
        )
        longest = max(len(f"{outcome}\n\n{text}") for outcome in OUTCOMES)
        assert longest <= ADVISORY_BUDGET, (name, longest)


def documented_blocks(outcome: str) -> list[str]:
    doc = (REPO / "docs" / "message-format.md").read_text(encoding="utf-8")
    return re.findall(rf"```text\n({re.escape(outcome)}\n.*?)\n```", doc, re.DOTALL)


@pytest.mark.slow
def test_the_documented_advisory_examples_are_what_the_dispatcher_emits(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    root = build_install_root(tmp_path_factory.mktemp("install"))
    question = "Which database should the service use?"
    payload = {
        "session_id": "doc",
        "hook_event_name": "PreToolUse",
        "cwd": str(tmp_path),
        "tool_name": "AskUserQuestion",
        "tool_input": {
            "questions": [{"question": question, "options": [{"label": "A"}, {"label": "B"}]}]
        },
    }
    argv = ("PreToolUse", "pretooluse-askuserquestion-recommended")
    advised = dispatch(root, *argv, payload=payload, env=clean_env(tmp_path / "state"))
    strict = dispatch(
        root, *argv, payload=payload, env=clean_env(tmp_path / "state", HOOKMSG_STRICT="1")
    )
    emitted = {
        OUTCOMES[0]: advised.json()["hookSpecificOutput"]["additionalContext"],
        OUTCOMES[1]: strict.json()["hookSpecificOutput"]["permissionDecisionReason"],
    }
    for outcome, text in emitted.items():
        shown = [
            block.replace("/home/me/.hookmsg", str(root)) for block in documented_blocks(outcome)
        ]
        assert shown == [text], outcome


def _default_root() -> str:
    """Where `install` (and so `preview`) puts this repository's content now."""
    from hookmsg.install.identity import content_root
    from hookmsg.pipeline.workspace import load_workspace
    from hookmsg.project.settings import load_project

    project = load_project(REPO)
    return content_root(project, load_workspace(project))


def test_the_docs_show_one_advisory_as_delivered_in_both_modes(
    preview: Callable[[str], str],
) -> None:
    doc = (REPO / "docs" / "message-format.md").read_text(encoding="utf-8")
    # preview renders the advise-mode text, outcome line first, as the dispatcher does.
    shown = preview("pretooluse-askuserquestion-recommended").replace(
        "Full procedure: " + _default_root() + "/", "Full procedure: /home/me/.hookmsg/"
    )
    head = "This call went ahead.\n\n"
    assert shown.startswith(head)
    shown = shown[len(head) :]
    for outcome in OUTCOMES:
        assert f"```text\n{outcome}\n\n{shown}\n```" in doc, outcome


# How each harness is named in prose, by its id in the catalogue.
HARNESS_NAMES = {
    "Claude Code": ("claude-code-engine", "claude-code-plugin"),
    "Codex": ("codex",),
    "Qwen Code": ("qwen-code",),
    "CodeBuddy": ("codebuddy",),
    "Kiro": ("kiro",),
    "Copilot": ("copilot",),
    "Devin": ("devin-local",),
    "Windsurf": ("devin-local",),
    "Cursor": ("cursor",),
    "xcsh": ("xcsh",),
}


def test_no_message_names_a_harness_that_never_delivers_it() -> None:
    inventory = json.loads((REPO / "generated/hook-message-inventory.json").read_text("utf-8"))
    for entry in inventory["messages"]:
        if entry["kind"] != "context" or not entry["delivered_by"]:
            continue
        text = delivered(entry["name"])
        for name, ids in HARNESS_NAMES.items():
            if re.search(rf"\b{re.escape(name)}\b", text):
                assert set(ids) & set(entry["delivered_by"]), (entry["name"], name)


def test_stop_speaks_of_the_turn_as_ended_because_it_arrives_after_it() -> None:
    text = delivered("stop")
    title = text.split("\n", 1)[0]
    assert title.startswith("Your turn has just ended")
    assert "This arrives after your final message" in text
    for before in ("Before ending a turn", "before it ends the turn", "before you end"):
        assert before.lower() not in text.lower(), before
    assert "once its turn has ended" in bindings("stop")


def test_sessionstart_promises_only_installed_skills() -> None:
    text = delivered("sessionstart")
    assert "The skill index follows this message" not in text
    assert "A skill index after this message lists only installed skills" in text


@pytest.mark.parametrize("name", sorted(pretooluse_guards()))
def test_every_guard_procedure_says_what_a_silent_or_failed_guard_means(name: str) -> None:
    body = delivered(name).split("## Advisory", 1)[0]
    assert "## When it is silent" in body
    assert "This guard fails open" in body
    assert "Silence is not a clearance: no advisory does not mean the call is clean" in body
    # Only in the full procedure (read on demand), never in the per-call advisory.
    assert "fails open" not in pretooluse_guards()[name]
