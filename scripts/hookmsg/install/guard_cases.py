"""Run guard case files through the packaged dispatcher, and score each guard.

Each case runs the way a harness runs a registration: the install root `hookmsg package`
builds (written to a temporary folder), `python -I -S -c BOOT hooks/dispatch.py --contract
<contract> <event> <guard>` as a subprocess, the payload on standard input, a fresh git
project holding the case's `files` as the working folder and a fresh state folder. A case
"fires" when the answer carries the guard's advisory (its `Full procedure:` line). Where a
harness hands the event's output to the model only as a refusal (Qwen Code's PreToolUse),
the case runs in strict mode, the only mode in which that harness shows the advisory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookmsg.catalogue.guard_files import FOLDER as GUARD_FILES
from hookmsg.catalogue.rules.guard_cases import Case, CaseFile, Known, check_case_file, disagreement
from hookmsg.diagnostics import Diagnostic

CASES_FOLDER = GUARD_FILES  # under the catalogue folder: the guard files hold the cases
HOLDOUT_FOLDER = "tests/guard_holdout"  # the independent corpus, when present
TIMEOUT = 30  # seconds for one dispatcher run; a hung run counts as silent


@dataclass
class Score:
    """One guard's confusion counts on one corpus."""

    fire_fired: int = 0
    fire_silent: int = 0
    silent_fired: int = 0
    silent_silent: int = 0

    def add(self, expect: str, fired: bool) -> None:
        if expect == "fire":
            self.fire_fired += fired
            self.fire_silent += not fired
        else:
            self.silent_fired += fired
            self.silent_silent += not fired

    @property
    def precision(self) -> float:
        fired = self.fire_fired + self.silent_fired
        return self.fire_fired / fired if fired else 1.0

    @property
    def recall(self) -> float:
        wanted = self.fire_fired + self.fire_silent
        return self.fire_fired / wanted if wanted else 1.0

    @property
    def cases(self) -> int:
        return self.fire_fired + self.fire_silent + self.silent_fired + self.silent_silent


@dataclass
class CorpusRun:
    """What one folder of case files gave: findings, and the score of each guard."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    scores: dict[str, Score] = field(default_factory=dict)


def write_install_root(project_root: Path, target: Path) -> Path:
    """The install root `hookmsg package` archives, written under `target`."""
    from hookmsg.install.contents import install_root_files
    from hookmsg.pipeline.workspace import load_workspace
    from hookmsg.project.settings import load_project

    files = install_root_files(load_workspace(load_project(project_root)))
    for name, data in files.items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return target


def read_table(root: Path) -> dict[str, Any]:
    data = json.loads((root / "data" / "dispatch-table.json").read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def known_from(table: dict[str, Any]) -> Known:
    """The guards, contracts and events a dispatch table answers for."""
    messages = table.get("messages", {})
    return Known(
        guards=frozenset(n for n, e in messages.items() if e.get("kind") == "guard"),
        contracts=frozenset(table.get("contracts", {})),
        events=frozenset(table.get("events", ())),
    )


def _texts(value: Any) -> list[str]:
    """Every string in a decoded envelope (the advisory may sit at any depth)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _texts(item)]
    if isinstance(value, list):
        return [text for item in value for text in _texts(item)]
    return []


def _project(folder: Path, files: dict[str, str]) -> Path:
    project = folder / "project"
    (project / ".git").mkdir(parents=True)
    for name, text in files.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return project


def replaced_everywhere(value: Any, old: str, new: str) -> Any:
    """`value` (decoded JSON) with `old` replaced by `new` in every string, at every depth."""
    if isinstance(value, str):
        return value.replace(old, new)
    if isinstance(value, dict):
        return {key: replaced_everywhere(item, old, new) for key, item in value.items()}
    if isinstance(value, list):
        return [replaced_everywhere(item, old, new) for item in value]
    return value


def _payload(case: Case, project: Path, folder: Path) -> dict[str, Any]:
    """The case's payload with what a harness always sends filled in where left out.

    A payload recorded in a real session names that session's project folder (`cwd`, and
    absolute paths under it); the case's project is a fresh folder, so the recorded folder
    stands for it wherever it appears.
    """
    payload = dict(case.payload)
    recorded = payload.get("cwd")
    if isinstance(recorded, str) and recorded.startswith("/") and len(recorded) > 1:
        # A harness sends absolute paths, and names the folder in commands and patches.
        payload = replaced_everywhere(payload, recorded.rstrip("/"), str(project))
    if "cwd" not in payload and "workspace_roots" not in payload:
        payload["cwd"] = str(project)
    if not {"session_id", "sessionId", "conversation_id"} & set(payload):
        payload["session_id"] = f"case-{case.id}"
    if "hook_event_name" not in payload and "hookEventName" not in payload:
        payload["hook_event_name"] = case.event
    if "transcript_path" not in payload and "transcriptPath" not in payload:
        transcript = folder / "transcript.jsonl"
        transcript.write_text("", encoding="utf-8")
        payload["transcript_path"] = str(transcript)
    return payload


def run_case(root: Path, guard: str, case: Case, table: dict[str, Any]) -> str:
    """Everything the packaged dispatcher answered for `case` (empty: nothing)."""
    from hookmsg.harnesses.registration_plan import BOOT

    contract = table.get("contracts", {}).get(case.contract, {})
    strict = case.event not in contract.get("context_events", ()) and bool(contract.get("deny"))
    with tempfile.TemporaryDirectory(prefix="hookmsg-case-") as temporary:
        folder = Path(temporary)
        project = _project(folder, case.files)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKMSG_", "PYTHON"))}
        env["HOOKMSG_HOOK_STATE_DIR"] = str(folder / "state")
        if strict:
            env["HOOKMSG_STRICT"] = "1"
        argv = [sys.executable, "-I", "-S", "-c", BOOT, str(root / "hooks" / "dispatch.py")]
        argv += ["--contract", case.contract, case.event, guard]
        stdin = json.dumps(_payload(case, project, folder)).encode("utf-8")
        try:
            ran = subprocess.run(
                argv,
                input=stdin,
                capture_output=True,
                cwd=project,
                env=env,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return ""
    out = ran.stdout.decode("utf-8", "replace")
    try:
        return "\n".join(_texts(json.loads(out))) if out.strip() else ""
    except ValueError:
        return out


def _judge(
    root: Path, parsed: CaseFile, text: str, display: str, *, table: dict[str, Any], jobs: int
) -> tuple[list[Diagnostic], Score]:
    marker = f"Full procedure: {root / 'messages' / parsed.guard}.md"
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        answers = list(pool.map(lambda c: run_case(root, parsed.guard, c, table), parsed.cases))
    found: list[Diagnostic] = []
    score = Score()
    for index, (case, answer) in enumerate(zip(parsed.cases, answers, strict=True)):
        fired = marker in answer
        score.add(case.expect, fired)
        missing = [text for text in case.says if fired and text not in answer]
        problem = disagreement(text, display, index, case, fired=fired, missing=missing)
        if problem is not None:
            found.append(problem)
    return found, score


def run_folder(folder: Path, display: str, root: Path, jobs: int = 2) -> CorpusRun:
    """Every file of cases in `folder` (guard files, or a corpus) through the install root
    `root`, scored per guard."""
    table = read_table(root)
    known = known_from(table)
    result = CorpusRun()
    for path in sorted(folder.glob("*.toml")):
        shown = f"{display}/{path.name}"
        text = path.read_text(encoding="utf-8")
        parsed, problems = check_case_file(text, shown, known)
        result.diagnostics += problems
        if parsed is None:
            continue
        found, score = _judge(root, parsed, text, shown, table=table, jobs=jobs)
        result.diagnostics += found
        previous = result.scores.get(parsed.guard)
        if previous is not None:
            score = _merged(previous, score)
        result.scores[parsed.guard] = score
    return result


def _merged(one: Score, other: Score) -> Score:
    return Score(
        one.fire_fired + other.fire_fired,
        one.fire_silent + other.fire_silent,
        one.silent_fired + other.silent_fired,
        one.silent_silent + other.silent_silent,
    )
