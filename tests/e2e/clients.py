"""Run the real clients offline against the stand-in endpoint, one scratch world per run.

Each runner lays out what its client needs to start without a prompt and without the
network (a scratch HOME, its settings, the project trusted), points it at the stand-in,
runs one non-interactive session with a prompt, and returns what happened. The project's
own hook registration (its `.claude/settings.json`, `.codex/hooks.json` or
`.qwen/settings.json`) is whatever the test put there before the run.

Each runner also knows where its client's wire format puts what a hook hands to the model
(`hook_context`): Claude Code sends it as `role: "system"` messages, Codex as
`role: "developer"` input items, Qwen Code appends SessionStart context to the system
message and PostToolUse context to the tool result.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.standin import StandIn, Use

# A safety bound on one client session (not a timing assertion): a client that hangs
# fails the test instead of stalling the suite.
SESSION_TIMEOUT = 180
API_KEY = "sk-standin-not-a-secret"


@dataclass(frozen=True)
class Session:
    """One finished client run."""

    returncode: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        return f"exit {self.returncode}\n--- stdout\n{self.stdout}\n--- stderr\n{self.stderr}"


def base_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """A clean environment: no variable of the session running the tests leaks through."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin"),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "TMPDIR": str(home / "tmp"),
    }
    (home / "tmp").mkdir(parents=True, exist_ok=True)
    env.update(extra or {})
    return env


def _run(
    argv: list[str], cwd: Path, env: Mapping[str, str], timeout: int = SESSION_TIMEOUT
) -> Session:
    try:
        done = subprocess.run(
            argv,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as expired:
        out = expired.stdout.decode() if isinstance(expired.stdout, bytes) else ""
        err = expired.stderr.decode() if isinstance(expired.stderr, bytes) else ""
        return Session(-1, out, err + f"\n(no exit within {timeout} s)")
    return Session(done.returncode, done.stdout, done.stderr)


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _texts(content: Any) -> list[str]:
    """The text parts of a message content (a string, or a list of typed blocks)."""
    if isinstance(content, str):
        return [content]
    found: list[str] = []
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict):
                for key in ("text", "content", "output"):
                    if key in block:
                        found += _texts(block[key])
    return found


def _quote(argument: str) -> str:
    """Double quotes, as the generated registrations quote (they refuse $ ` " \\ in paths)."""
    if any(c in argument for c in '$`"\\'):
        return shlex.quote(argument)
    return f'"{argument}"'


def everything(body: Mapping[str, Any]) -> str:
    """The whole request as text, for 'appears nowhere' assertions."""
    return json.dumps(body, ensure_ascii=False)


class Runner:
    """What every client runner offers the tests."""

    harness: str
    #: the project-relative file holding the client's project hook registration
    settings_file: str
    #: the client's name for its file-writing tool, as hooks see it in PreToolUse
    write_tool: str
    #: a PreToolUse matcher that selects that tool
    write_matcher: str
    #: a matcher that selects every tool
    any_matcher: str = "*"
    #: a Stop hook exiting 2 makes the client prompt the model again (seen with the pins)
    stop_exit_2_loops: bool = True
    #: PreToolUse `additionalContext` reaches the model (Qwen Code computes it, sends nothing)
    pretool_context: bool = True
    #: Stop `additionalContext` reaches the model, which costs one more model request (the
    #: client prompts it again with the context); elsewhere only a block would reach it
    stop_context: bool = False
    #: True: the registration gives `command` + `args` (exec form); False: one shell string
    exec_form: bool = False
    #: the client's name for PreToolUse in its registration
    pre_tool_event: str = "PreToolUse"
    #: the bound on one session, in seconds (a safety bound, not a timing assertion)
    session_timeout: int = SESSION_TIMEOUT
    #: the client itself refuses to write build files such as package.json
    build_files_refused: bool = False
    #: its registration is Claude Code's hook shape and event names (`register` writes it)
    claude_shaped: bool = True
    #: a PreToolUse deny refuses the call (`install --strict` registers one)
    deny: bool = True
    #: a tool call that lasts a second, made before the compaction test's write, for a
    #: client that writes a model call's usage to disk only a moment after the call
    usage_lag_call: Use | None = None

    def __init__(self, executable: Path, home: Path) -> None:
        self.executable = executable
        self.home = home
        home.mkdir(parents=True, exist_ok=True)

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        raise NotImplementedError

    def hook(self, argv: list[str]) -> dict[str, Any]:
        """One command hook running `argv`, in the form this client's registrations use."""
        if self.exec_form:
            return {"type": "command", "command": argv[0], "args": argv[1:]}
        return {"type": "command", "command": " ".join(_quote(a) for a in argv)}

    def register(self, project: Path, entries: list[tuple[str, str | None, list[str]]]) -> Path:
        """Write the project's hook registration: (event, matcher or None, argv) entries."""
        hooks: dict[str, list[dict[str, Any]]] = {}
        for event, matcher, argv in entries:
            group: dict[str, Any] = {"hooks": [self.hook(argv)]}
            if matcher is not None:
                group["matcher"] = matcher
            hooks.setdefault(event, []).append(group)
        path = project / self.settings_file
        _write_json(path, {"hooks": hooks})
        return path

    def registered_events(self, project: Path) -> set[str]:
        """The events (in the client's spelling) the project's registration names."""
        data = json.loads((project / self.settings_file).read_text(encoding="utf-8"))
        hooks = data.get("hooks") if isinstance(data, dict) else None
        return set(hooks) if isinstance(hooks, dict) else set()

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        """The texts in this request that the client's hooks handed to the model."""
        raise NotImplementedError

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        """The texts of the tool results in this request (a refused call's reason too)."""
        raise NotImplementedError


class ClaudeCode(Runner):
    harness = "claude-code-engine"
    settings_file = ".claude/settings.json"
    write_tool = "Write"
    write_matcher = "Write"
    exec_form = True
    stop_exit_2_loops = False
    stop_context = True

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        # Onboarding done and the project trusted: no prompt on start.
        _write_json(
            self.home / ".claude.json",
            {
                "hasCompletedOnboarding": True,
                "projects": {str(project): {"hasTrustDialogAccepted": True}},
            },
        )
        variables = base_env(
            self.home,
            {
                "ANTHROPIC_BASE_URL": standin.url,
                "ANTHROPIC_API_KEY": API_KEY,
                # As root, --dangerously-skip-permissions is refused outside a sandbox.
                "IS_SANDBOX": "1",
                "DISABLE_AUTOUPDATER": "1",
                "DISABLE_TELEMETRY": "1",
                "DISABLE_ERROR_REPORTING": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                **(env or {}),
            },
        )
        argv = [str(self.executable), "-p", "--dangerously-skip-permissions", prompt]
        return _run(argv, project, variables, self.session_timeout)

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        return [
            text
            for message in body.get("messages") or []
            if isinstance(message, dict) and message.get("role") == "system"
            for text in _texts(message.get("content"))
        ]

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return [
            text
            for message in body.get("messages") or []
            if isinstance(message, dict) and isinstance(message.get("content"), list)
            for block in message["content"]
            if isinstance(block, dict) and block.get("type") == "tool_result"
            for text in _texts(block.get("content"))
        ]


class Codex(Runner):
    harness = "codex"
    settings_file = ".codex/hooks.json"
    write_tool = "apply_patch"
    write_matcher = "Edit|Write|apply_patch"
    # A model the client knows: its bundled metadata gives it the apply_patch tool
    # (an unknown model falls back to metadata without it).
    model = "gpt-5.5"

    @property
    def codex_home(self) -> Path:
        return self.home / ".codex"

    def _config(self, project: Path, standin: StandIn, trusted: Mapping[str, str]) -> None:
        lines = [
            f'model = "{self.model}"',
            'model_provider = "standin"',
            'web_search = "disabled"',
            "",
            "[model_providers.standin]",
            'name = "stand-in"',
            f'base_url = "{standin.url}/v1"',
            'wire_api = "responses"',
            'env_key = "STANDIN_API_KEY"',
            "",
            f"[projects.{json.dumps(str(project))}]",
            'trust_level = "trusted"',
            "",
            "[features]",
            "plugins = false",
        ]
        for key, digest in sorted(trusted.items()):
            lines += [
                "",
                f"[hooks.state.{json.dumps(key)}]",
                f"trusted_hash = {json.dumps(digest)}",
            ]
        self.codex_home.mkdir(parents=True, exist_ok=True)
        (self.codex_home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")

    def _env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        return base_env(
            self.home,
            {"CODEX_HOME": str(self.codex_home), "STANDIN_API_KEY": API_KEY, **(extra or {})},
        )

    def list_hooks(self, project: Path) -> list[dict[str, Any]]:
        """The project's hooks as `codex app-server` reports them (`hooks/list`)."""
        requests = [
            {
                "id": 1,
                "method": "initialize",
                "params": {"clientInfo": {"name": "hookmsg-e2e", "version": "1"}},
            },
            {"method": "initialized"},
            {"id": 2, "method": "hooks/list", "params": {"cwds": [str(project)]}},
        ]
        process = subprocess.Popen(
            [str(self.executable), "app-server"],
            cwd=project,
            env=self._env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stdin is not None and process.stdout is not None
        try:
            for request in requests:
                process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            while True:
                line = process.stdout.readline()
                if not line:
                    raise AssertionError("codex app-server closed before answering hooks/list")
                message = json.loads(line)
                if message.get("id") == 2:
                    break
        finally:
            process.stdin.close()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        assert "result" in message, message
        hooks: list[dict[str, Any]] = []
        for entry in message["result"]["data"]:
            assert not entry.get("errors"), entry["errors"]
            hooks += entry["hooks"]
        return hooks

    def trust_project_hooks(self, project: Path, standin: StandIn) -> list[dict[str, Any]]:
        """Trust every hook of the project, as a user accepting them would; return them."""
        self._config(project, standin, {})
        hooks = [h for h in self.list_hooks(project) if h.get("source") == "project"]
        self._config(project, standin, {h["key"]: h["currentHash"] for h in hooks})
        return hooks

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        hooks = self.trust_project_hooks(project, standin)
        untrusted = [
            h["key"]
            for h in self.list_hooks(project)
            if h["trustStatus"] != "trusted" and h.get("source") == "project"
        ]
        assert not untrusted, f"hooks still untrusted after trusting {len(hooks)}: {untrusted}"
        argv = [
            str(self.executable),
            "exec",
            "--dangerously-bypass-approvals-and-sandbox",
            "--skip-git-repo-check",
            prompt,
        ]
        return _run(argv, project, self._env(env), self.session_timeout)

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        items = [
            item
            for item in body.get("input") or []
            if isinstance(item, dict) and item.get("role") == "developer"
        ]
        # The first developer item is the client's own instructions.
        return [text for item in items[1:] for text in _texts(item.get("content"))]

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return [
            text
            for item in body.get("input") or []
            if isinstance(item, dict) and str(item.get("type", "")).endswith("call_output")
            for text in _texts(item.get("output"))
        ]


class QwenCode(Runner):
    harness = "qwen-code"
    settings_file = ".qwen/settings.json"
    write_tool = "write_file"
    write_matcher = "^write_file$"
    any_matcher = ".*"
    pretool_context = False

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        _write_json(
            self.home / ".qwen" / "settings.json",
            {
                "security": {"auth": {"selectedType": "openai"}},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
                "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
                # Its memory agent asks the model on the side after each answer.
                "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False},
            },
        )
        variables = base_env(
            self.home,
            {
                "OPENAI_BASE_URL": f"{standin.url}/v1",
                "OPENAI_API_KEY": API_KEY,
                "OPENAI_MODEL": "stand-in-model",
                "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
                **(env or {}),
            },
        )
        argv = [str(self.executable), "--auth-type", "openai", "--yolo", "-p", prompt]
        return _run(argv, project, variables, self.session_timeout)

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        found: list[str] = []
        for message in body.get("messages") or []:
            if not isinstance(message, dict):
                continue
            texts = _texts(message.get("content"))
            if message.get("role") == "system":
                found += [part for text in texts for part in _qwen_hook_parts(text)]
            elif message.get("role") == "tool":
                found += texts
        return found

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return [
            text
            for message in body.get("messages") or []
            if isinstance(message, dict) and message.get("role") == "tool"
            for text in _texts(message.get("content"))
        ]


def _qwen_hook_parts(system: str) -> list[str]:
    """The hook context blocks Qwen Code appends to its system message."""
    parts = []
    rest = system
    while "<qwen:session-start-context" in rest:
        start = rest.index("<qwen:session-start-context")
        end = rest.find("</qwen:session-start-context>", start)
        end = len(rest) if end < 0 else end
        parts.append(rest[start:end])
        rest = rest[end + 1 :]
    return parts


def git_project(folder: Path) -> Path:
    """An empty git repository (the clients and the dispatcher find the project by it)."""
    folder.mkdir(parents=True, exist_ok=True)
    git = shutil.which("git")
    assert git is not None, "git is needed for the end-to-end tests"
    subprocess.run([git, "init", "-q", str(folder)], check=True)
    return folder.resolve()


def _chat_hook_context(body: Mapping[str, Any], roles: tuple[str, ...]) -> list[str]:
    """Every text of the messages in `roles` (Chat Completions), for clients that hand hook
    context over as whole messages or inside tool results."""
    return [
        text
        for message in body.get("messages") or []
        if isinstance(message, dict) and message.get("role") in roles
        for text in _texts(message.get("content"))
    ]


def _chat_tool_outputs(body: Mapping[str, Any]) -> list[str]:
    return _chat_hook_context(body, ("tool",))


def client_folder(executable: Path) -> Path:
    """The client's cache folder (`<cache>/<package>@<version>/`) from its executable."""
    for parent in executable.parents:
        if (parent / ".hookmsg-e2e-complete").is_file():
            return parent
    raise AssertionError(f"{executable} is not inside a cached client folder")


class Copilot(Runner):
    harness = "copilot"
    settings_file = ".github/hooks/hookmsg.json"
    write_tool = "create"
    write_matcher = "create"
    pre_tool_event = "preToolUse"
    claude_shaped = False
    # Its session log (`events.jsonl`, where the usage records are) is written some 50 to
    # 100 ms after each event: a create that returns at once runs postToolUse before the
    # answer's usage is on disk. A real tool takes longer; this one takes a second.
    usage_lag_call = Use({"bash": {"command": "sleep 1", "description": "Wait a second"}})

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        variables = base_env(
            self.home,
            {
                "COPILOT_OFFLINE": "true",
                "COPILOT_AUTO_UPDATE": "false",
                "COPILOT_PROVIDER_BASE_URL": f"{standin.url}/v1",
                "COPILOT_PROVIDER_TYPE": "openai",
                "COPILOT_PROVIDER_WIRE_API": "completions",
                "COPILOT_PROVIDER_API_KEY": API_KEY,
                "COPILOT_MODEL": "gpt-4.1",
                # The opt-in `hookmsg install --harness copilot` names: without it (or a
                # trusted folder) prompt mode runs no repository hook.
                "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS": "true",
                # Its JavaScript, unpacked once when the client was installed.
                "XDG_CACHE_HOME": str(client_folder(self.executable) / ".home" / ".cache"),
                **(env or {}),
            },
        )
        argv = [str(self.executable), "-p", prompt, "--allow-all-tools", "--no-auto-update"]
        return _run(argv, project, variables, self.session_timeout)

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        return _chat_hook_context(body, ("user", "tool"))

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return _chat_tool_outputs(body)


class CodeBuddy(Runner):
    harness = "codebuddy"
    settings_file = ".codebuddy/settings.local.json"
    write_tool = "Write"
    write_matcher = "Write"
    # PreToolUse fires, but its context is not handed to the model.
    pretool_context = False
    stop_exit_2_loops = False

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        model = {
            "id": "stand-in",
            "name": "stand-in",
            "vendor": "OpenAI",
            "apiKey": API_KEY,
            "url": f"{standin.url}/v1/chat/completions",
            "maxInputTokens": 200000,
            "maxOutputTokens": 8192,
            "supportsToolCall": True,
            "supportsImages": False,
        }
        _write_json(
            self.home / ".codebuddy" / "models.json",
            {"models": [model], "availableModels": ["stand-in"]},
        )
        variables = base_env(
            self.home,
            {
                "DISABLE_TELEMETRY": "1",
                "DISABLE_AUTOUPDATER": "1",
                "CODEBUDDY_CODE_ENABLE_TELEMETRY": "0",
                "CODEBUDDY_REMOTE_CONFIG_DISABLED": "1",
                "CODEBUDDY_SKIP_BUILTIN_MARKETPLACE": "1",
                "CODEBUDDY_DISABLE_IDE": "1",
                "IS_SANDBOX": "1",
                **(env or {}),
            },
        )
        argv = [
            str(self.executable),
            "-p",
            prompt,
            "--model",
            "stand-in",
            "--dangerously-skip-permissions",
            "--output-format",
            "json",
        ]
        return _run(argv, project, variables, self.session_timeout)

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        found: list[str] = []
        for text in _chat_hook_context(body, ("user",)):
            found += _blocks(text, '<system-reminder data-role="hook">', "</system-reminder>")
        return found + _chat_tool_outputs(body)

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return _chat_tool_outputs(body)


def _blocks(text: str, start: str, end: str) -> list[str]:
    """The parts of `text` from each `start` to its `end` (or the end of the text)."""
    parts = []
    rest = text
    while start in rest:
        begin = rest.index(start)
        stop = rest.find(end, begin)
        stop = len(rest) if stop < 0 else stop
        parts.append(rest[begin:stop])
        rest = rest[stop + 1 :]
    return parts


class ExtensionRunner(Runner):
    """oh-my-pi and pi: the project's registration is the generated extension module.

    The module hands session-start text over as a user message (`pi.sendMessage`, next
    turn) and tool-result text inside the tool result; it never blocks a call.
    """

    write_tool = "write"
    write_matcher = "write"
    claude_shaped = False
    pretool_context = False
    deny = False
    stop_exit_2_loops = False

    def registered_events(self, project: Path) -> set[str]:
        text = (project / self.settings_file).read_text(encoding="utf-8")
        events = ("session_start", "before_agent_start", "tool_result", "session.compacting")
        return {event for event in events if f'"{event}": {{' in text}

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        return _chat_hook_context(body, ("user", "tool"))

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return _chat_tool_outputs(body)

    def provider(self, standin: StandIn) -> dict[str, Any]:
        """The stand-in as a custom Chat Completions provider with one model."""
        return {
            "baseUrl": f"{standin.url}/v1",
            "apiKey": "STANDIN_API_KEY",
            "auth": "apiKey",
            "api": "openai-completions",
            "models": [
                {
                    "id": "stand-in",
                    "name": "stand-in",
                    "reasoning": False,
                    "input": ["text"],
                    "contextWindow": 200000,
                    "maxTokens": 8192,
                }
            ],
        }


class Pi(ExtensionRunner):
    harness = "pi"
    settings_file = ".pi/extensions/hookmsg.js"

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        _write_json(
            self.home / ".pi" / "agent" / "models.json",
            {"providers": {"standin": self.provider(standin)}},
        )
        variables = base_env(
            self.home,
            {
                "PI_OFFLINE": "1",
                "PI_SKIP_VERSION_CHECK": "1",
                "STANDIN_API_KEY": API_KEY,
                **(env or {}),
            },
        )
        argv = [str(self.executable), "-p", prompt, "--offline", "--model", "standin/stand-in"]
        return _run(argv, project, variables, self.session_timeout)


class OhMyPi(ExtensionRunner):
    harness = "oh-my-pi"
    settings_file = ".omp/extensions/hookmsg.js"

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        # YAML is a superset of JSON: the provider written as JSON is a valid models.yml.
        _write_json(
            self.home / ".omp" / "agent" / "models.yml",
            {"providers": {"standin": self.provider(standin)}},
        )
        folder = client_folder(self.executable)
        variables = base_env(
            self.home,
            {
                # Bun, installed beside the client from npm.
                "PATH": f"{folder / 'node_modules' / '.bin'}{os.pathsep}{os.environ['PATH']}",
                "OTEL_SDK_DISABLED": "true",
                "PI_NO_TITLE": "1",
                "OMP_SKIP_SETUP": "1",
                "STANDIN_API_KEY": API_KEY,
                **(env or {}),
            },
        )
        argv = [str(self.executable), "-p", prompt, "--model", "standin/stand-in", "--auto-approve"]
        return _run(argv, project, variables, self.session_timeout)


class GeminiCli(Runner):
    harness = "gemini-cli"
    settings_file = ".gemini/settings.json"
    write_tool = "write_file"
    write_matcher = "^write_file$"
    any_matcher = ".*"
    pre_tool_event = "BeforeTool"
    claude_shaped = False
    build_files_refused = True
    # BeforeTool context never reaches the model; only a deny does.
    pretool_context = False
    stop_exit_2_loops = False

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        _write_json(
            self.home / ".gemini" / "settings.json",
            {
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
            },
        )
        variables = base_env(
            self.home,
            {
                "GEMINI_API_KEY": API_KEY,
                "GOOGLE_GEMINI_BASE_URL": standin.url,
                # The trusted workspace `hookmsg install --harness gemini-cli` names:
                # without it project hooks do not run.
                "GEMINI_CLI_TRUST_WORKSPACE": "true",
                "GEMINI_CLI_NO_RELAUNCH": "true",
                **(env or {}),
            },
        )
        argv = [
            str(self.executable),
            "-p",
            prompt,
            "-m",
            "gemini-2.5-flash",
            "--approval-mode",
            "yolo",
            "--output-format",
            "json",
        ]
        return _run(argv, project, variables, self.session_timeout)

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        return [
            text
            for content in body.get("contents") or []
            if isinstance(content, dict)
            for text in _gemini_texts(content.get("parts"))
            if "<hook_context>" in text
        ]

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return [
            json.dumps(part["functionResponse"].get("response"), ensure_ascii=False)
            for content in body.get("contents") or []
            if isinstance(content, dict)
            for part in content.get("parts") or []
            if isinstance(part, dict) and isinstance(part.get("functionResponse"), dict)
        ]


def _gemini_texts(parts: Any) -> list[str]:
    """The texts of Gemini content parts, a function response's output included."""
    found: list[str] = []
    for part in parts if isinstance(parts, list) else []:
        if not isinstance(part, dict):
            continue
        if isinstance(part.get("text"), str):
            found.append(part["text"])
        response = part.get("functionResponse")
        if isinstance(response, dict):
            found.append(json.dumps(response.get("response"), ensure_ascii=False))
    return found


class FactoryDroid(Runner):
    harness = "factory-droid"
    settings_file = ".factory/settings.json"
    write_tool = "Create"
    write_matcher = "Create"
    # PreToolUse fires, but its context is not handed to the model.
    pretool_context = False

    def session(
        self,
        project: Path,
        standin: StandIn,
        prompt: str,
        env: Mapping[str, str] | None = None,
    ) -> Session:
        model = {
            "model": "stand-in",
            "model_display_name": "stand-in",
            "base_url": f"{standin.url}/v1",
            "api_key": API_KEY,
            "provider": "generic-chat-completion-api",
            "max_tokens": 8192,
        }
        _write_json(self.home / ".factory" / "config.json", {"custom_models": [model]})
        variables = base_env(
            self.home,
            {
                "FACTORY_AIRGAP_ENABLED": "1",
                "FACTORY_DROID_AUTO_UPDATE_ENABLED": "false",
                "FACTORY_DISABLE_DYNAMIC_CONFIG": "1",
                "FACTORY_DISABLE_KEYRING": "1",
                **(env or {}),
            },
        )
        argv = [
            str(self.executable),
            "exec",
            "--skip-permissions-unsafe",
            "--model",
            "custom:stand-in-0",
            "-o",
            "json",
            prompt,
        ]
        return _run(argv, project, variables, self.session_timeout)

    def hook_context(self, body: Mapping[str, Any]) -> list[str]:
        return _chat_hook_context(body, ("user", "tool"))

    def tool_outputs(self, body: Mapping[str, Any]) -> list[str]:
        return _chat_tool_outputs(body)


RUNNERS: dict[str, type[Runner]] = {
    runner.harness: runner
    for runner in (
        ClaudeCode,
        Codex,
        QwenCode,
        Copilot,
        CodeBuddy,
        OhMyPi,
        Pi,
        GeminiCli,
        FactoryDroid,
    )
}
