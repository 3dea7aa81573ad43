"""The eval guard: dynamic evaluation or unsafe deserialisation in added text or a command.

Data: `languages` (name -> `extensions`, `comment` prefix, optional `block-comment` pair and
`strings` delimiters, `primitives`: display name -> regular expression, and `command-start`
for a shell, whose primitives are matched at the start of each simple command and pipeline),
`commands` (tool -> language, e.g. Bash -> shell), `interpreters` (program -> language: the
code of a `python -c` / `node -e` one-liner is read as that language) and `justification`
(a pattern that, in a comment on the primitive's line or the line above, marks it reviewed),
`build-files` and `script-keys` (the shell lines of CI and build files, `guards/buildfiles`).

A file's language follows its extension; only lines the call adds are scanned (for a Write
over an existing file, lines already on disk are not new). Text inside string literals,
docstrings and comments is not code: one linear pass per text sorts code from the rest.
Only the patterns of the languages in play are compiled.
"""

from __future__ import annotations

from hookmsg_dispatch.guards.common import (
    MAX_READ_BYTES,
    extension,
    format_of,
    pattern,
    project_changes,
    strings,
    table,
)

TYPE_CHECKING = False  # not `typing`: importing it costs every hook call start-up time
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from hookmsg_dispatch.call import Call, FileChange
    from hookmsg_dispatch.project import Project

COMMAND_SHOWN = 80  # characters of the command line an advisory quotes as the location
DEFAULT_JUSTIFICATION = r"(?i)\btrusted:"
# A string literal this short and plain is kept as code: `exec.Command("sh", "-c", x)`.
_KEPT_LITERAL = 16
# Options after which an interpreter's next argument is the code it runs.
# A call spread over lines (`Command::new("sh")` / `.arg("-c")` / `.arg(script)`) is read
# whole: each line's code is matched joined with the next ones, up to this many lines.
_WINDOW = 3
_CODE_OPTIONS = ("-c", "-e", "-E", "-r", "--eval", "-p", "--print", "-Command", "-command")


def _language_for(languages: dict[str, Any], ext: str, path: str = "") -> dict[str, Any] | None:
    """The language of a file: by its extension, or by its whole name (`files`: Jenkinsfile)."""
    name = path.rsplit("/", 1)[-1]
    for spec in languages.values():
        if isinstance(spec, dict) and (
            ext in spec.get("extensions", ()) or (name and name in spec.get("files", ()))
        ):
            return spec
    return None


def _plain(literal: str) -> bool:
    return len(literal) <= _KEPT_LITERAL and all(c.isalnum() or c in "._-/" for c in literal)


def _in_string(
    text: str, index: int, closing: str, literal: list[str], code: list[str]
) -> tuple[int, bool]:
    """One step inside a string literal at `index`: (the next index, whether it closed).
    A closed literal goes to `code` emptied, unless short and plain; an interpolating one
    (`${x}`, `#{x}`) keeps that mark, since it builds text."""
    if text[index] == "\\":
        literal.append(text[index : index + 2])
        return index + 2, False
    if text.startswith(closing, index):
        kept = "".join(literal)
        mark = "${}" if "${" in kept else "#{}" if "#{" in kept else ""
        code.append((kept if _plain(kept) else mark) + closing)
        return index + len(closing), True
    literal.append(text[index])
    return index + 1, False


def split_code(text: str, spec: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(code, comment) of each line of `text`: string literals emptied (short plain ones
    kept), line and block comments moved to the comment part. One pass, linear."""
    prefix = spec.get("comment", "")
    block = strings(spec, "block-comment")
    opener, closer = (block[0], block[1]) if len(block) == 2 else ("", "")
    delimiters = sorted(strings(spec, "strings"), key=len, reverse=True)
    lines: list[tuple[str, str]] = []
    code: list[str] = []
    comment: list[str] = []
    literal: list[str] = []
    state, closing = "", ""  # "" code, "block", "string" (ended by `closing`)
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char == "\n":
            if state == "string" and len(closing) == 1 and closing != "`":
                state = ""  # an unterminated one-line string ends with its line
            lines.append(("".join(code), "".join(comment)))
            code, comment = [], []
            index += 1
            continue
        if state == "block":
            if text.startswith(closer, index):
                state, index = "", index + len(closer)
                continue
            comment.append(char)
        elif state == "string":
            index, closed = _in_string(text, index, closing, literal, code)
            state = "" if closed else state
            continue
        elif opener and text.startswith(opener, index):
            state, index = "block", index + len(opener)
            continue
        elif (
            prefix
            and text.startswith(prefix, index)
            and (prefix != "#" or index == 0 or text[index - 1] in " \t;({")
        ):
            end = text.find("\n", index)
            end = size if end < 0 else end
            comment.append(text[index:end])
            index = end
            continue
        else:
            quote = next((d for d in delimiters if text.startswith(d, index)), "")
            if quote:
                code.append(quote)
                state, closing, literal = "string", quote, []
                index += len(quote)
                continue
            code.append(char)
        index += 1
    lines.append(("".join(code), "".join(comment)))
    return lines


def _compiled(spec: Mapping[str, Any]) -> list[tuple[str, Any]]:
    primitives = table(spec, "primitives")
    return [
        (name, pattern(source)) for name, source in primitives.items() if isinstance(source, str)
    ]


def _justified(lines: list[tuple[str, str]], number: int, justification: Any) -> bool:
    """Is there a justification comment on line `number` (0-based) or the line above?"""
    return any(
        0 <= at < len(lines) and justification.search(lines[at][1]) is not None
        for at in (number, number - 1)
    )


def first_in_code(
    text: str, spec: Mapping[str, Any], wanted: set[int] | None, justification: Any
) -> tuple[str, int] | None:
    """(primitive, 0-based line) of the first unjustified primitive in the code of `text`,
    looking only at the lines in `wanted` (None: all)."""
    lines = split_code(text, spec)
    compiled = _compiled(spec)
    for number, (code, _) in enumerate(lines):
        if not code.strip():
            continue
        window = [c for c, _ in lines[number : number + _WINDOW]]
        joined = " ".join(window)
        for name, regex in compiled:
            # On the line itself, and still with the lines after it (a safe loader there):
            # no match offsets are asked, so the answer may come without `re`.
            if regex.search(code) is not None and regex.search(joined) is not None:
                touched = wanted is None or number in wanted
            else:
                found = regex.search(joined) if len(window) > 1 else None
                if found is None or found.start() >= len(code):
                    continue  # none, or it starts on a later line: found there
                touched = _touched(wanted, number, window, found.end())
            if touched and not _justified(lines, number, justification):
                return name, number
    return None


def _touched(wanted: set[int] | None, number: int, window: list[str], end: int) -> bool:
    """Does a match from line `number` to offset `end` of the joined window reach a line
    in `wanted` (None: every line is)?"""
    if wanted is None:
        return True
    for offset, code in enumerate(window):
        if number + offset in wanted:
            return True
        end -= len(code) + 1
        if end <= 0:
            return False
    return False


def _one_liner(
    text: str, data: Mapping[str, Any], languages: Mapping[str, Any], justification: Any
) -> str | None:
    """What a `python -c '...'` (`node -e`, `ruby -e`, `perl -e`) one-liner runs that counts."""
    word, _, rest = text.partition(" ")
    program = word.rsplit("/", 1)[-1].removesuffix(".exe").rstrip("0123456789.")
    language = table(data, "interpreters").get(program)
    spec = languages.get(language) if isinstance(language, str) else None
    if not isinstance(spec, dict):
        return None
    words = rest.split(" ")
    option = next((w for w in words[:8] if w in _CODE_OPTIONS), None)
    if option is None:
        return None
    from hookmsg_dispatch.guards.shell import first_word

    code = first_word(rest.split(option, 1)[1].strip())[0]
    quote = code[:1]
    if quote in "\"'" and code.endswith(quote) and len(code) > 1:
        code = code[1:-1]
    if "$" in code and quote != "'":
        return f"{word} {option} with interpolated code"
    found = first_in_code(code.replace("\\n", "\n"), spec, None, justification)
    return f"{found[0]} in {word} {option}" if found is not None else None


def _shell_command(
    command: str, spec: Mapping[str, Any], data: Mapping[str, Any], justification: Any
) -> tuple[str, str] | None:
    """(primitive, command shown) for a shell command line: each pattern at the start of
    each simple command and pipeline, and the code of interpreter one-liners. Linear."""
    from hookmsg_dispatch.guards.shell import commands, pipelines

    compiled = _compiled(spec)
    languages = table(data, "languages")
    justified = justification.search(command) is not None and "#" in command
    pieces = [c.text for c in commands(command)] + pipelines(command)
    for piece in pieces:
        for name, regex in compiled:
            if regex.match(piece) is not None and not justified:
                return name, _shown(piece)
        found = _one_liner(piece, data, languages, justification)
        if found is not None and not justified:
            return found, _shown(piece)
    return None


def _line_of(command: str, piece: str) -> str:
    """The command line (of a multi-line command) holding `piece`, as the location."""
    at = command.find(piece.rstrip("…"))
    if at < 0:
        return piece
    start = command.rfind("\n", 0, at) + 1
    end = command.find("\n", at)
    return _shown(command[start : end if end >= 0 else len(command)])


def _shown(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= COMMAND_SHOWN else line[: COMMAND_SHOWN - 1] + "…"


def _added(project: Project, relative: str, change: FileChange) -> tuple[set[int], int, bool]:
    """The 0-based lines of `change.after` the call adds, the file line of its first line,
    and whether that placement is known."""
    new = change.after.split("\n")
    if change.created or (change.created is None and change.before is None):
        disk = project.read_text(relative, MAX_READ_BYTES)
        old = set(disk.split("\n")) if disk else set()
        return {n for n, line in enumerate(new) if line not in old}, 0, True
    old = set((change.before or "").split("\n"))
    disk = project.read_text(relative, MAX_READ_BYTES)
    base, placed = 0, False
    if disk is not None and change.before and change.before in disk:
        base, placed = disk[: disk.index(change.before)].count("\n"), True
    return {n for n, line in enumerate(new) if line not in old}, base, placed


def _file_change(
    spec: Mapping[str, Any],
    data: Mapping[str, Any],
    text: str,
    wanted: set[int],
    justification: Any,
) -> tuple[str, int] | None:
    if spec.get("command-start") is True:
        for number, line in enumerate(text.split("\n")):
            if number in wanted:
                found = _shell_command(line, spec, data, justification)
                if found is not None:
                    return found[0], number
        return None
    return first_in_code(text, spec, wanted, justification)


def _written_code(
    shell_text: str, docs: list[Any], data: Mapping[str, Any], justification: Any
) -> dict[str, str] | None:
    """A primitive in code the command writes to a file or feeds to an interpreter: a
    heredoc's body, or the text of an `echo`/`printf` redirected into a source file."""
    from hookmsg_dispatch.guards import heredoc
    from hookmsg_dispatch.guards.shell import commands

    languages = table(data, "languages")
    pieces: list[tuple[str, str, Mapping[str, Any] | None]] = []
    for doc in docs:
        kind, where = heredoc.target(doc.header)
        if kind == "file":
            pieces.append((where, doc.body, _language_for(languages, extension(where))))
        elif kind == "program":
            pieces.append((f"{where} heredoc", doc.body, _interpreted(where, data, languages)))
    for simple in commands(shell_text) if ">" in shell_text else ():
        echoed = heredoc.echoed(simple.text)
        if echoed is not None:
            pieces.append((echoed[0], echoed[1], _language_for(languages, extension(echoed[0]))))
    for where, body, found in pieces:
        if found is None:
            continue
        hit = _file_change(found, data, body, set(range(body.count("\n") + 1)), justification)
        if hit is not None:
            return {"primitive": hit[0], "location": _shown(f"{where}:{hit[1] + 1}")}
    return None


def _interpreted(program: str, data: Mapping[str, Any], languages: Mapping[str, Any]) -> Any:
    """The language spec of the code a program reads from its input (`python -`, `bash`)."""
    name = program.removesuffix(".exe").rstrip("0123456789.")
    language = "shell" if name in ("sh", "bash", "zsh", "dash", "ksh") else None
    language = language or table(data, "interpreters").get(name)
    spec = languages.get(language) if isinstance(language, str) else None
    return spec if isinstance(spec, dict) else None


def _command_hit(
    command: str, spec: Mapping[str, Any], data: Mapping[str, Any], justification: Any
) -> dict[str, str] | None:
    if spec.get("command-start") is not True:
        found = first_in_code(command, spec, None, justification)
        if found is None:
            return None
        return {"primitive": found[0], "location": _shown(command.split("\n")[found[1]])}
    from hookmsg_dispatch.guards import heredoc

    shell_text, docs = heredoc.split(command)
    shell = _shell_command(shell_text, spec, data, justification)
    if shell is not None:
        return {"primitive": shell[0], "location": _line_of(shell_text, shell[1])}
    return _written_code(shell_text, docs, data, justification)


def _in_file(project: Project, relative: str, change: FileChange) -> tuple[str, set[int], bool]:
    """The text to read for a change (for an edit, the whole file as it will be: a YAML
    key's block needs the lines above the edit), the 0-based lines of it the change adds,
    and whether their file lines are known."""
    wanted, base, placed = _added(project, relative, change)
    text = change.after
    if placed and change.before:
        disk = project.read_text(relative, MAX_READ_BYTES) or ""
        text = disk.replace(change.before, change.after, 1)
        wanted = {base + n for n in wanted}
    return text, wanted, placed


def _workflow_hit(
    project: Project, relative: str, change: FileChange, data: Mapping[str, Any]
) -> dict[str, str] | None:
    """An untrusted expression the change adds to a GitHub Actions workflow's script."""
    source = data.get("workflow-expressions")
    if not isinstance(source, str) or not relative.endswith((".yml", ".yaml")):
        return None
    from hookmsg_dispatch.guards import workflow

    if not workflow.is_workflow(relative):
        return None
    text, wanted, placed = _in_file(project, relative, change)
    number = workflow.injection(text, wanted, pattern(source))
    if number is None:
        return None
    where = f"{relative}:{number + 1}" if placed else relative
    return {"primitive": "${{ }} expression in a workflow script", "location": where}


def _build_file_hit(
    project: Project, relative: str, change: FileChange, data: Mapping[str, Any], justified: Any
) -> dict[str, str] | None:
    """A shell primitive (`sh -c "...$VAR..."`, `eval "$(TASK)"`) the change adds to a
    shell line of a CI or build file: a pipeline's script, a recipe, a `RUN`."""
    kind = format_of(table(data, "build-files"), relative)
    spec = table(data, "languages").get("shell")
    if kind is None or not isinstance(spec, dict):
        return None
    from hookmsg_dispatch.guards import buildfiles

    text, wanted, placed = _in_file(project, relative, change)
    keys = frozenset(strings(data, "script-keys"))
    for number, line in buildfiles.shell_lines(kind, text, keys):
        found = _shell_command(line, spec, data, justified) if number in wanted else None
        if found is not None:
            where = f"{relative}:{number + 1}" if placed else relative
            return {"primitive": found[0], "location": where}
    return None


# The detectors this module answers for, and the placeholders each fills when it fires
# (the build side reads this with `ast`: hookmsg.catalogue.detectors).
DETECTS = {"eval": ("location", "primitive")}


def detect(detector: str, call: Call, data: Mapping[str, Any], root: str) -> dict[str, str] | None:
    languages = table(data, "languages")
    source = data.get("justification")
    justification = pattern(source if isinstance(source, str) else DEFAULT_JUSTIFICATION)
    if call.command is not None and call.tool is not None:
        language = table(data, "commands").get(call.tool)
        spec = languages.get(language) if isinstance(language, str) else None
        if isinstance(spec, dict):
            found = _command_hit(call.command, spec, data, justification)
            if found is not None:
                return found
    for project, relative, change in project_changes(call, root):
        injected = _workflow_hit(project, relative, change, data) or _build_file_hit(
            project, relative, change, data, justification
        )
        if injected is not None:
            return injected
        spec = _language_for(languages, extension(relative), relative)
        if spec is None:
            continue
        wanted, base, placed = _added(project, relative, change)
        hit = _file_change(spec, data, change.after, wanted, justification)
        if hit is not None:
            where = f"{relative}:{base + hit[1] + 1}" if placed else relative
            return {"primitive": hit[0], "location": where}
    return None
