"""A shell command line cut into pipelines and simple commands, in one linear pass.

The command guards match their patterns at the start of each simple command (after the
wrappers that only run another command: `sudo`, `env`, `time`, `VAR=value`, ...), never
anywhere in the line: `grep release CHANGELOG.md` runs grep, whatever word it searches for.
Quotes are respected (`git commit -m "fix; git push"` is one command); `#` starts a comment
only at the start of a word. The text of a `sh -c '...'` (or `bash -c`, `pwsh -Command`) is
read once more as a command line of its own, one level deep, so every character is looked
at a bounded number of times: the cost is linear in the length of the command.
Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

# Characters that end a simple command; `|` also continues the pipeline.
_BREAKS = frozenset(";&|\n()`")
# Programs that run the command after them (their own options are skipped too).
WRAPPERS = frozenset(
    {"sudo", "doas", "env", "time", "nohup", "nice", "command", "exec", "builtin", "xargs"}
    | {"timeout", "setsid", "stdbuf", "ionice", "unbuffer", "chronic", "caffeinate", "!"}
)
# Shell keywords after which a command starts (`for f in *; do rm "$f"; done`).
_KEYWORDS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "{", "}"})
# Wrappers whose first operand is theirs, not the command's (`timeout 5 cmd`).
_OPERAND = frozenset({"timeout"})
# Wrapper options that take a value (`sudo -u deploy`, `env -u NAME`, `nice -n 5`).
_VALUED = frozenset({"-u", "-g", "-n", "-C", "-E", "-p", "-I"})
# Shells whose `-c` argument is itself a command line (read one level deep).
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "pwsh", "powershell"})
_MAX_WRAPPERS = 8
_SSH_VALUED = frozenset({"-i", "-p", "-o", "-l", "-F", "-J", "-L", "-R", "-D", "-E", "-S", "-W"})
_EXEC_VALUED = frozenset({"-e", "-u", "-w", "--env", "--user", "--workdir"})


class Command:
    """One simple command: its text from the program on, and whether a `|` fed it."""

    __slots__ = ("piped", "text")

    def __init__(self, text: str, piped: bool) -> None:
        self.text = text
        self.piped = piped


def _cut(line: str) -> tuple[list[tuple[str, bool]], list[str]]:
    """(commands with `piped`, pipelines) of one command line, outside quotes and comments."""
    commands: list[tuple[str, bool]] = []
    pipelines: list[str] = []
    start = pipe_start = 0
    quote = ""
    piped = False
    index, size = 0, len(line)
    while index < size:
        char = line[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char == "\\":
            index += 1
        elif char in "\"'":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            end = line.find("\n", index)
            commands.append((line[start:index], piped))
            pipelines.append(line[pipe_start:index])
            if end < 0:
                return commands, pipelines
            index = start = pipe_start = end
            piped = False
            continue
        elif char in _BREAKS and not (char == "(" and index and line[index - 1] in "<>="):
            commands.append((line[start:index], piped))
            is_pipe = char == "|" and "|" not in (
                line[index + 1 : index + 2],
                line[index - 1 : index],
            )
            if not is_pipe:
                pipelines.append(line[pipe_start:index])
                pipe_start = index + 1
            piped = is_pipe
            start = index + 1
        index += 1
    commands.append((line[start:], piped))
    pipelines.append(line[pipe_start:])
    return commands, pipelines


def first_word(text: str) -> tuple[str, str]:
    """(first word, the rest) of a command, a quoted part (`A="x y"`) kept in the word."""
    quote = ""
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in " \t":
            return text[:index], text[index + 1 :]
    return text, ""


def unwrap(text: str) -> str:
    """The command from its program on: assignments and wrappers (`sudo -u x`) skipped."""
    rest = text.strip()
    for _ in range(_MAX_WRAPPERS):
        word, after = first_word(rest)
        name = word.rsplit("/", 1)[-1]
        if "=" in word and not word.startswith(("=", "-")) and word.split("=", 1)[0].isidentifier():
            rest = after.lstrip()
            continue
        if word in _KEYWORDS:
            rest = after.lstrip()
            continue
        if name not in WRAPPERS:
            return rest
        rest = _options(after.lstrip())
        if name in _OPERAND:
            rest = rest.partition(" ")[2].lstrip()
    return rest


def _options(rest: str, valued: frozenset[str] = _VALUED) -> str:
    """`rest` after a wrapper's options (`-u deploy`), a bounded number of them."""
    for _ in range(_MAX_WRAPPERS):
        if not rest.startswith("-"):
            break
        option, _, after = rest.partition(" ")
        rest = after.lstrip()
        if option in valued:
            rest = rest.partition(" ")[2].lstrip()
    return rest


def _unquoted(text: str) -> str:
    """A command passed as one quoted word (`ssh h "sh -c \\"$X\\""`), its quotes undone."""
    text = text.strip()
    if len(text) >= 2 and text[0] in "\"'" and text[-1] == text[0]:
        inner = text[1:-1]
        return inner.replace('\\"', '"') if text[0] == '"' else inner
    return text


def _remote(text: str) -> str | None:
    """The command a runner runs elsewhere: `find -exec CMD \\;`, `ssh HOST CMD`,
    `docker exec CONTAINER CMD`, `kubectl exec POD -- CMD`; None for any other command."""
    word, rest = first_word(text)
    name = word.rsplit("/", 1)[-1]
    if name == "find":
        at = max(rest.find(" -exec "), rest.find(" -execdir "))
        if at < 0:
            return None
        run = rest[at:].lstrip().partition(" ")[2]
        return run.rsplit(" \\;", 1)[0].rsplit(" ';'", 1)[0].removesuffix(" +")
    if name == "ssh":
        rest = _options(rest.lstrip(), _SSH_VALUED)
        return _unquoted(rest.partition(" ")[2]) or None
    if name in ("docker", "podman", "nerdctl") and rest.startswith("exec "):
        rest = _options(rest[5:].lstrip(), _EXEC_VALUED)
        return _unquoted(rest.partition(" ")[2]) or None
    if name in ("kubectl", "oc") and rest.startswith("exec ") and " -- " in rest:
        return _unquoted(rest.split(" -- ", 1)[1]) or None
    return None


def _inner(text: str) -> str | None:
    """The command line a `sh -c '...'` runs, or None when `text` is not such a call."""
    word, _, rest = text.partition(" ")
    if word.rsplit("/", 1)[-1].removesuffix(".exe") not in _SHELLS:
        return None
    option, _, rest = rest.lstrip().partition(" ")
    if option.lower() not in ("-c", "-lc", "-command", "-ic"):
        return None
    rest = rest.strip()
    if len(rest) >= 2 and rest[0] in "\"'" and rest[-1] == rest[0]:
        return rest[1:-1]
    return rest or None


def commands(line: str) -> list[Command]:
    """Every simple command of a command line (and of a `sh -c` it runs), unwrapped."""
    found: list[Command] = []
    pieces, _ = _cut(line)
    for text, piped in pieces:
        body = unwrap(text)
        if not body:
            continue
        found.append(Command(body, piped))
        remote = _remote(body)
        if remote is not None:
            body = unwrap(remote)
            found.append(Command(body, piped))
        inner = _inner(body)
        if inner is not None:
            found += [Command(unwrap(t), p) for t, p in _cut(inner)[0] if t.strip()]
    return found


def pipelines(line: str) -> list[str]:
    """Every pipeline of a command line (`curl ... | sh` is one), from its first program."""
    return [unwrap(text) for text in _cut(line)[1] if text.strip()]
