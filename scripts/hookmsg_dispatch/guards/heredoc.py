"""The code a shell command writes or runs from its own text: heredocs and `echo`/`printf`.

`cat > x.py <<'EOF' ... EOF`, `tee x.js <<EOF`, `python - <<EOF`, `node <<EOF`, `bash <<EOF`
and `printf '...' > x.py` carry code in the command line itself. `split` cuts each heredoc's
body out of the command (so the shell guards do not read a file's content as commands) and
says where it goes: a file, whose extension gives its language, or an interpreter. One pass
over the lines of the command; each body line is looked at once.
Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from re import Pattern

_OPENER_SOURCE = r"(?<!<)<<(?!<)(-?)[ \t]*([\x22\x27]?)([A-Za-z_][\w.-]*)\2"
_opener: list[Pattern[str]] = []
_REDIRECTS = (">>", ">|", ">")
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh"})
MAX_HEREDOCS = 16


class Heredoc:
    """A heredoc: the command line that opens it, its body, and its first body line (0-based)."""

    __slots__ = ("body", "header", "line")

    def __init__(self, header: str, body: str, line: int) -> None:
        self.header = header
        self.body = body
        self.line = line


def _pattern() -> Pattern[str]:
    if not _opener:
        import re

        _opener.append(re.compile(_OPENER_SOURCE))
    return _opener[0]


def split(command: str) -> tuple[str, list[Heredoc]]:
    """(the command without heredoc bodies, each heredoc in order)."""
    if "<<" not in command:
        return command, []
    opener = _pattern()
    lines = command.split("\n")
    kept: list[str] = []
    found: list[Heredoc] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        kept.append(line)
        index += 1
        counted, quotes = 0, 0  # quotes before `counted`: each character counted once
        for match in opener.finditer(line):
            if len(found) >= MAX_HEREDOCS:
                break
            piece = line[counted : match.start()]
            quotes += piece.count('"') + piece.count("'")
            counted = match.start()
            if quotes % 2:
                continue  # `<<` inside a quoted string: not a heredoc
            strip_tabs, delimiter = match.group(1) == "-", match.group(3)
            start = index
            while index < len(lines):
                text = lines[index].lstrip("\t") if strip_tabs else lines[index]
                if text.strip() == delimiter:
                    break
                index += 1
            found.append(Heredoc(line, "\n".join(lines[start:index]), start))
            index += 1  # the delimiter line
    return "\n".join(kept), found


def _words(text: str) -> list[str]:
    from hookmsg_dispatch.guards.shell import first_word

    words: list[str] = []
    rest = text.strip()
    while rest and len(words) < 64:
        word, rest = first_word(rest)
        rest = rest.lstrip()
        if word:
            words.append(word)
    return words


def _segment(header: str) -> str:
    """The simple command of `header` that holds the heredoc opener."""
    from hookmsg_dispatch.guards.shell import commands

    found = [c.text for c in commands(header) if "<<" in c.text]
    return found[0] if found else header


def target(header: str) -> tuple[str, str]:
    """Where a heredoc goes: ("file", path), ("program", name) or ("", "")."""
    words = _words(_segment(header))
    if not words:
        return "", ""
    program = words[0].rsplit("/", 1)[-1]
    written = written_file(words)
    if written:
        return "file", written
    if program == "tee" and len(words) > 1:
        files = [w for w in words[1:] if not w.startswith(("-", "<"))]
        return ("file", files[0].strip("\"'")) if files else ("", "")
    arguments = [w for w in words[1:] if not w.startswith(("<", "-"))]
    if not arguments or program in _SHELLS:
        return "program", program
    return "", ""


def written_file(words: list[str]) -> str:
    """The file a command's words redirect its output into (`> x.py`, `>>x.py`), or ""."""
    for index, word in enumerate(words):
        for mark in _REDIRECTS:
            if word.startswith(mark) and not word.startswith(">&"):
                rest = word[len(mark) :]
                if not rest and index + 1 < len(words):
                    rest = words[index + 1]
                return rest.strip("\"'")
    return ""


def echoed(text: str) -> tuple[str, str] | None:
    """(file, content) of an `echo '...' > x.py` or `printf '...' > x.py`, or None."""
    words = _words(text)
    if not words or words[0].rsplit("/", 1)[-1] not in ("echo", "printf"):
        return None
    written = written_file(words)
    if not written:
        return None
    parts: list[str] = []
    for word in words[1:]:
        if word.startswith(_REDIRECTS):
            break
        if word.startswith("-") and not parts:
            continue  # `echo -e`, `printf --`
        quoted = len(word) >= 2 and word[0] in "\"'" and word[-1] == word[0]
        parts.append(word[1:-1] if quoted else word)
    return written, " ".join(parts).replace("\\n", "\n")


def executed(command: str) -> str:
    """The command as the shell runs it: a heredoc fed to a shell (`bash <<EOF`) keeps its
    body, every other body (a file's content, a commit message, a manifest piped to
    `kubectl`) is data and is left out."""
    shell_text, docs = split(command)
    if not docs:
        return command
    run = [doc.body for doc in docs if target(doc.header) in _SHELL_TARGETS]
    return "\n".join([shell_text, *run])


_SHELL_TARGETS = frozenset(("program", shell) for shell in _SHELLS)
