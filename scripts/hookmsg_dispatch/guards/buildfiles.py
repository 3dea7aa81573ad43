"""The shell command lines held in a CI or build file, for the eval guard to read as shell.

A CI pipeline (GitLab CI, CircleCI, Azure Pipelines, Bitbucket, Drone, Woodpecker, a
Taskfile, a GitHub workflow), a Makefile, a Dockerfile or Earthfile, a justfile: each holds
shell scripts inside another format, and a string it builds by interpolation (`$VAR`,
`$(VAR)`, `{{ var }}`) is substituted before a nested shell parses it. The eval guard's
`build-files` data maps a file name (a glob: `*.yml`, `Makefile`, `Dockerfile.*`, matched
by `common.format_of`) to how its shell lines are found:

- `yaml`: the values of the `script-keys` (`script:`, `run:`, `cmds:` ...), inline, as a
  block scalar (`|`, `>`) or as a list, by indentation;
- `make`: a recipe's tab-indented lines, without the `@`, `-` and `+` prefixes;
- `run`: the `RUN` instructions of a Dockerfile or Earthfile, with their continuation lines;
- `recipe`: a justfile's indented recipe lines.

Comment lines are never shell. One pass over the lines, each looked at once: linear.
Standard library only, Python 3.9 or newer.
"""

from __future__ import annotations


def shell_lines(kind: str, text: str, keys: frozenset[str]) -> list[tuple[int, str]]:
    """(0-based line, shell command line) of each shell line of a build file."""
    if kind == "yaml":
        return _yaml(text, keys)
    found: list[tuple[int, str]] = []
    continued = False
    for number, line in enumerate(text.split("\n")):
        stripped = line.strip()
        shell: str | None = None
        if continued:
            shell = stripped
        elif kind == "make" and line.startswith("\t"):
            shell = stripped.lstrip("@-+ \t")
        elif kind == "recipe" and line[:1] in (" ", "\t"):
            shell = stripped.lstrip("@- \t")
        elif kind == "run" and stripped[:4].upper() == "RUN ":
            shell = _without_options(stripped[4:])
        continued = kind in ("run", "make") and shell is not None and stripped.endswith("\\")
        if shell and not shell.startswith("#"):
            found.append((number, shell.rstrip("\\").strip()))
    return found


def _without_options(rest: str) -> str:
    """A `RUN` instruction's command, without its `--mount=...`, `--network=...` options."""
    words = rest.split(" ")
    while words and (words[0].startswith("--") or not words[0]):
        words.pop(0)
    return " ".join(words)


def _key_value(stripped: str, keys: frozenset[str]) -> str | None:
    """The value of a script key on this line (`- run: x`, `script: |`), else None."""
    if stripped.startswith("- "):
        stripped = stripped[2:].lstrip()
    key, colon, value = stripped.partition(":")
    if not colon or key.strip().strip("\"'") not in keys:
        return None
    return value.strip()


def _unquoted(value: str) -> str:
    """A YAML scalar without its quotes (`"sh -c \\"x\\""`, `'it''s'`)."""
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1].replace('\\"', '"')
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    return value


def _yaml(text: str, keys: frozenset[str]) -> list[tuple[int, str]]:
    """The script lines of a YAML pipeline: a script key's inline value, block scalar or
    list. A block ends at the first content line indented less than its first line (YAML's
    rule); a list may sit at its key's own indentation (`script:` then `- make`)."""
    found: list[tuple[int, str]] = []
    block = -1  # the indentation of the script being read; -1: none, -2: not yet known
    parent = 0
    for number, line in enumerate(text.split("\n")):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if block != -1 and stripped and not stripped.startswith("#"):
            listed = stripped.startswith("- ")
            if block == -2:
                block = indent if indent > parent or (indent == parent and listed) else -1
            elif indent < block or (indent == block == parent and not listed):
                block = -1
        if block >= 0 and stripped:
            if not stripped.startswith("#"):
                value = _key_value(stripped, keys)
                item = stripped[2:] if stripped.startswith("- ") else stripped
                found.append((number, _unquoted(value if value is not None else item.strip())))
            continue
        value = _key_value(stripped, keys)
        if value is None:
            continue
        if not value or value[:1] in ("|", ">"):
            block, parent = -2, indent
        elif not value.startswith("#"):
            found.append((number, _unquoted(value)))
    return found
