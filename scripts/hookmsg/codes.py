"""Every diagnostic code: what it means, how to fix it, and an example.

`Code` is the closed set of codes, so a mistyped code fails the type check; `CODES` is the
one table of what each means: its texts, the package that finds it and whether `fix` mends
it. `DOMAINS` and `MENDED` are read off that table. It is the source of `hookmsg explain` and
of the generated `generated/rules.md` (the rule table the docs link to).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Code = Literal[
    "F001",
    "F002",
    "F003",
    "F004",
    "F005",
    "F006",
    "F007",
    "F008",
    "L001",
    "L002",
    "L003",
    "L004",
    "L005",
    "L006",
    "L007",
    "L008",
    "T001",
    "B001",
    "B002",
    "B003",
    "B004",
    "B005",
    "B006",
    "B007",
    "B008",
    "B009",
    "B010",
    "B011",
    "B012",
    "A001",
    "A002",
    "A003",
    "A004",
    "A005",
    "A006",
    "A007",
    "A008",
    "D001",
    "D002",
    "D003",
    "D004",
    "D005",
    "R001",
    "R002",
    "R003",
    "R004",
    "R005",
    "R006",
    "R007",
    "R008",
    "R009",
    "C001",
    "C002",
    "C003",
    "C004",
    "C005",
    "C006",
    "C013",
    "H002",
    "H004",
    "H006",
    "U001",
    "U002",
    "U003",
    "U004",
    "U005",
    "U006",
    "U007",
    "U008",
    "U009",
    "U010",
    "U011",
    "U012",
    "K001",
    "K002",
    "K003",
    "K004",
    "K005",
    "G001",
    "G002",
    "G003",
    "G004",
    "G005",
    "G006",
    "S001",
    "S002",
    "S003",
    "S004",
    "S005",
    "S006",
    "S007",
    "S008",
    "S009",
    "S010",
    "S011",
    "S012",
    "S013",
    "S014",
    "S015",
    "S016",
    "S017",
    "S018",
    "X001",
    "X002",
    "X003",
    "X004",
    "I001",
    "I002",
    "I003",
    "I004",
    "I005",
    "I006",
    "I007",
    "I008",
    "I009",
    "I010",
    "I011",
    "I012",
    "I013",
]


# The domain packages (`scripts/hookmsg/<domain>/`) that find problems. A code is built
# where its problem is found, in any module of its owner and in no other
# (`tests/test_layers.py` proves it), so every finding has one owner and a reader reports
# what it finds itself. A code's letter is not its owner: the letters group the rule table,
# the owner is where the problem is seen (K003, a settings code, is found reading doit's
# state file in `inputs/`; S018, a skill code, by the installer).
Owner = Literal["inputs", "project", "messages", "catalogue", "harnesses", "render", "install"]


@dataclass(frozen=True)
class CodeInfo:
    """What one diagnostic code means: its text, how to fix it, an example, who finds it,
    and whether `hookmsg fix` mends it (only findings with one right answer: the bytes and
    line endings, the licence line, the Bindings section's order, arrows and reciprocity)."""

    code: Code
    summary: str
    fix: str
    example: str
    owner: Owner
    mended: bool = False


_CODES: tuple[CodeInfo, ...] = (
    # File level: checked on the raw bytes, before any parsing.
    CodeInfo(
        "F001",
        "File is not valid UTF-8.",
        "Re-save the file as UTF-8.",
        "a Latin-1 `\\xe9`",
        owner="inputs",
        mended=True,
    ),
    CodeInfo(
        "F002",
        "File uses CRLF line endings.",
        "Convert the file to LF endings.",
        "`text\\r\\n`",
        owner="inputs",
        mended=True,
    ),
    CodeInfo(
        "F003",
        "File uses bare CR line endings.",
        "Convert the file to LF endings.",
        "`a\\rb`",
        owner="inputs",
        mended=True,
    ),
    CodeInfo(
        "F004",
        "File contains a NUL byte.",
        "Remove the NUL byte; it is binary data.",
        "`a\\x00b`",
        owner="inputs",
        mended=True,
    ),
    CodeInfo(
        "F005",
        "File is empty.",
        "Write the message or delete the file.",
        "a 0-byte file",
        owner="inputs",
        mended=True,
    ),
    CodeInfo(
        "F006",
        "File is larger than `max-file-bytes`; it is refused before parsing.",
        "Shorten the file or raise `max-file-bytes` in `[tool.hookmsg]`.",
        "a 5 MB message",
        owner="inputs",
        mended=True,
    ),
    CodeInfo(
        "F007",
        "File cannot be read (permissions, not a regular file, or a link out of the repository).",
        "Make the path a readable regular file inside the repository.",
        "`chmod 000 messages/x.md`",
        owner="inputs",
        mended=True,
    ),
    CodeInfo(
        "F008",
        "Lists or blockquotes nest deeper than 100 levels; the file cannot be checked.",
        "Flatten the nesting.",
        "a list nested 60 levels deep",
        owner="messages",
    ),
    # Licence header.
    CodeInfo(
        "L001",
        "The licence line is missing.",
        "Put the configured licence line on line 1, then a blank line.",
        "a file starting with its title",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "L002",
        "The licence line is not on line 1.",
        "Move the licence line to line 1.",
        "the licence line on line 3",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "L003",
        "Line 1 looks like a licence line but its text is wrong.",
        "Write the configured licence line exactly.",
        "`<!-- SPDX-Licence-Identifier: MIT -->`",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "L004",
        "The licence line names a different licence id.",
        "Use the configured licence id.",
        "`<!-- SPDX-License-Identifier: Apache-2.0 -->`",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "L005",
        "The licence line appears more than once.",
        "Keep only the one on line 1.",
        "the licence line on lines 1 and 9",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "L006",
        "The file starts with a byte order mark.",
        "Save as UTF-8 without BOM.",
        "`\\ufeff<!-- SPDX-... -->`",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "L007",
        "The licence line has trailing whitespace.",
        "Delete the spaces after `-->`.",
        "`<!-- SPDX-License-Identifier: MIT -->  `",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "L008",
        "The licence line is not followed by a blank line.",
        "Insert a blank line after line 1.",
        "the title on line 2",
        owner="messages",
        mended=True,
    ),
    # Title.
    CodeInfo(
        "T001",
        "The message has no title line before its first section.",
        "Start the message with a sentence or a `#` heading saying what it is for.",
        "`## Advisory` right after the licence line",
        owner="messages",
    ),
    # Bindings.
    CodeInfo(
        "B001",
        "There is no `## Bindings` section.",
        "Close the file with a `## Bindings` section.",
        "a message that ends with its body",
        owner="messages",
    ),
    CodeInfo(
        "B002",
        "The `## Bindings` section is not the last thing in the file.",
        "Move the Bindings section to the end.",
        "`## Advisory` after `## Bindings`",
        owner="messages",
    ),
    CodeInfo(
        "B003",
        "There is more than one `## Bindings` section.",
        "Merge them into one closing section.",
        "two `## Bindings` headings",
        owner="messages",
    ),
    CodeInfo(
        "B004",
        "A required binding direction is missing.",
        "Add the `Drives →`, `Established by ↑` and `Cross-bound with ↔` bullets.",
        "no `- **Drives →**` bullet",
        owner="messages",
    ),
    CodeInfo(
        "B005",
        "Binding directions are out of order.",
        "Order: Drives →, Driven by ←, Gated by ←, Satisfies →, Established by ↑, "
        "Cross-bound with ↔.",
        "`Cross-bound with ↔` before `Drives →`",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "B006",
        "Unknown binding direction or wrong glyph.",
        "Use a direction from the vocabulary with its glyph.",
        "`- **Drives ↑** ...`",
        owner="messages",
    ),
    CodeInfo(
        "B007",
        "A binding is empty or says TBD.",
        "Write the binding, or omit a direction that has none.",
        "`- **Drives →** TBD`",
        owner="messages",
    ),
    CodeInfo(
        "B008",
        "An ASCII arrow appears in the Bindings section outside code.",
        "Use the glyphs → ← ↑ ↔, or put the text in backticks.",
        "`- **Drives →** edits -> tests`",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "B009",
        "A backticked repository path in the Bindings section does not exist.",
        "Fix the path or create the file.",
        "`` `messages/missing.md` ``",
        owner="messages",
    ),
    CodeInfo(
        "B010",
        "A cross-binding is not reciprocated.",
        "Name this message in the other message's `Cross-bound with ↔` bullet.",
        "A names `messages/b.md`, B does not name A",
        owner="messages",
        mended=True,
    ),
    CodeInfo(
        "B011",
        "A line in the Bindings section is not a `- **<Direction> <glyph>** text` bullet.",
        "Write each binding as one bullet of that form.",
        "`Drives: tests`",
        owner="messages",
    ),
    CodeInfo(
        "B012",
        "A backticked path leaves the repository.",
        "Name a path inside the repository, relative to its root.",
        "`` `../other/file.md` ``",
        owner="messages",
    ),
    # Advisory.
    CodeInfo(
        "A001",
        "A guard has no `## Advisory` section.",
        "Add the short text that the guard inserts when it fires.",
        "a registered guard with only a body",
        owner="messages",
    ),
    CodeInfo(
        "A002",
        "A message that is not a guard has an `## Advisory` section.",
        "Remove the section, or register the message as a guard in the registry.",
        "a context message with `## Advisory`",
        owner="messages",
    ),
    CodeInfo(
        "A003",
        "There is more than one `## Advisory` section.",
        "Keep one Advisory section.",
        "two `## Advisory` headings",
        owner="messages",
    ),
    CodeInfo(
        "A004",
        "The Advisory uses a placeholder that the registry does not declare for this guard.",
        "Declare it under `[placeholders]` in its guard file, or remove it.",
        "`{{ file }}` where only `path` is declared",
        owner="messages",
    ),
    CodeInfo(
        "A005",
        "A placeholder declared for this guard is not used in its Advisory.",
        "Use it in the Advisory or remove it from the registry.",
        "`path` declared, never written",
        owner="messages",
    ),
    CodeInfo(
        "A006",
        "The Advisory uses Jinja2 syntax other than a plain `{{ name }}` variable.",
        "Write only `{{ name }}`; no filters, attributes, tags or comments.",
        "`{{ path | upper }}`, `{% if %}`",
        owner="messages",
    ),
    CodeInfo(
        "A007",
        "The Advisory is not a valid Jinja2 template.",
        "Close every `{{` with `}}`.",
        "`{{ path`",
        owner="messages",
    ),
    CodeInfo(
        "A008",
        "The `## Advisory` section is empty.",
        "Write the text the guard inserts.",
        "`## Advisory` directly followed by `## Bindings`",
        owner="messages",
    ),
    # Delivered text.
    CodeInfo(
        "D001",
        "The delivered text is longer than the harness cap (`delivered-cap`).",
        "Shorten the message or split it.",
        "a 12,000-character body",
        owner="messages",
    ),
    CodeInfo(
        "D002",
        "The delivered text contains `${`, an unexpanded install token.",
        "Remove the token or rewrite it.",
        "`${HARNESS_ROOT}/hooks`",
        owner="messages",
    ),
    CodeInfo(
        "D003",
        "The delivered text contains an invisible or bidirectional control character.",
        "Delete the character; hidden text in model context is an injection vector.",
        "U+202E RIGHT-TO-LEFT OVERRIDE",
        owner="messages",
    ),
    CodeInfo(
        "D004",
        "The message delivers no text.",
        "Write the message body.",
        "a licence line and a Bindings section only",
        owner="messages",
    ),
    CodeInfo(
        "D005",
        "The answer that carries the delivered text is over the cap as a harness counts it "
        "(its whole output or the field it reads, JSON escaping included, in its unit).",
        "Shorten the message: quotes, backslashes, line breaks and non-ASCII text take more "
        "room once escaped.",
        "9,000 characters of Cyrillic text, 54,000 once JSON-escaped",
        owner="harnesses",
    ),
    # Hook registry.
    CodeInfo(
        "R001",
        "A message file is neither registered nor listed as unwired.",
        "Wire it in `[[dispatch]]` or list it under `[unwired]` with the reason.",
        "`messages/new.md` missing from `catalog/hooks.toml`",
        owner="catalogue",
    ),
    CodeInfo(
        "R002",
        "The registry names a message that does not exist.",
        "Create the message file or fix the name.",
        '`messages = ["stopp"]`',
        owner="catalogue",
    ),
    CodeInfo(
        "R003",
        "A message is registered twice for the same event and matcher.",
        "List each message once per dispatcher entry.",
        '`messages = ["stop", "stop"]`',
        owner="catalogue",
    ),
    CodeInfo(
        "R004",
        "A dispatcher entry names an unknown event.",
        "Use an event from the harness vocabulary.",
        '`event = "PreToolCall"`',
        owner="catalogue",
    ),
    CodeInfo(
        "R005",
        "Two dispatcher entries share one event and matcher.",
        "Merge them: one dispatcher entry per event and matcher.",
        "two `PreToolUse`/`Write` entries",
        owner="catalogue",
    ),
    CodeInfo(
        "R006",
        "A message is both registered and listed as unwired.",
        "Remove it from `[unwired]` or from the dispatcher entries.",
        "`stop` wired on Stop and unwired",
        owner="catalogue",
    ),
    CodeInfo(
        "R007",
        "A guard is wired into no hook entry and is not listed as unwired.",
        "Name its entries in `wired` in its guard file, or list it under `[unwired]`.",
        "`catalog/guards/x.toml` with placeholders and cases but no `wired`",
        owner="catalogue",
    ),
    CodeInfo(
        "R008",
        "A registered event has no timeout.",
        "Add the event to `[timeouts]`.",
        "`Stop` wired, no `timeouts.Stop`",
        owner="catalogue",
    ),
    CodeInfo(
        "R009",
        "A message file takes a name reserved for a generated message.",
        "Rename the file; `skill-index` is generated from `catalog/skills.toml`.",
        "`messages/skill-index.md`",
        owner="messages",
    ),
    # Catalogue files.
    CodeInfo(
        "C001",
        "A catalogue file is not valid TOML.",
        "Fix the TOML syntax at the reported position.",
        "`name = ` with no value",
        owner="catalogue",
    ),
    CodeInfo(
        "C002",
        "A catalogue entry breaks the schema (a missing, unknown or ill-typed field).",
        "Fix the named field of the named entry.",
        '`manual = "yes"`',
        owner="catalogue",
    ),
    CodeInfo(
        "C003",
        "A catalogue file is missing.",
        "Create it; docs/ describes each catalogue file's shape.",
        "no `catalog/skills.toml`",
        owner="catalogue",
    ),
    CodeInfo(
        "C004",
        "A name is defined twice in the catalogue.",
        "Rename or remove one of them.",
        "two skills named `plan`",
        owner="catalogue",
    ),
    CodeInfo(
        "C005",
        "A catalogue entry refers to something that does not exist.",
        "Fix the reference (task group, event or tool name).",
        '`group = "plann"`',
        owner="catalogue",
    ),
    CodeInfo(
        "C006",
        "A task group has no skills or commands.",
        "Add entries to the group or remove it.",
        '`[[groups]] id = "docs"` with no entries',
        owner="catalogue",
    ),
    CodeInfo(
        "C013",
        "An override of a built-in harness changes its facts without evidence.",
        "Add a `[[harnesses.facts]]` entry with the evidence for the change to the override.",
        "`matchers = false` for `codex` in `catalog/harnesses.toml`, no fact",
        owner="catalogue",
    ),
    # Harness registrations (generated from the registry). That a generated file parses,
    # registers only delivered events and keeps only install tokens is no finding: the
    # renderer guarantees it and its tests prove it (tests/test_render_registrations.py).
    CodeInfo(
        "H002",
        "A message is registered twice for one event and matcher on one harness.",
        "Remove the repeat from the registry, or the fold that repeats it.",
        "`stop` twice under Stop on codex",
        owner="harnesses",
    ),
    CodeInfo(
        "H004",
        "A wired guard is registered on no harness.",
        "Wire the guard on an event some harness delivers, or list it as unwired.",
        "a guard only on PreCompact",
        owner="harnesses",
    ),
    CodeInfo(
        "H006",
        "An event's timeout is outside a harness's range once converted to its unit.",
        "Lower the timeout in `[timeouts]`.",
        "`Stop = 900` where Claude Code and Codex allow 600 seconds",
        owner="harnesses",
    ),
    # The guard files (`catalog/guards/<name>.toml`).
    CodeInfo(
        "U001",
        "A guard file's `[condition]` names an unknown detector (or none).",
        "Set `detector` to one of the detectors docs/guards.md lists.",
        '`detector = "dependancy"`',
        owner="catalogue",
    ),
    CodeInfo(
        "U002",
        "A guard's data is missing, ill-typed or has a key its detector does not read.",
        "Fix the named key; docs/guards.md lists each detector's keys.",
        '`lockfiles = "yarn.lock"` instead of a list',
        owner="catalogue",
    ),
    CodeInfo(
        "U003",
        "A regular expression in the guard data does not compile.",
        "Fix the pattern (Python `re` syntax, searched line by line).",
        "`'(eval\\s*'` (a group never closed)",
        owner="catalogue",
    ),
    CodeInfo(
        "U004",
        "A regular expression repeats a group that holds an unbounded quantifier.",
        "Rewrite it without nested quantifiers; it could take exponential time on a hook.",
        "`'(\\w+\\s?)*='`",
        owner="catalogue",
    ),
    CodeInfo(
        "U005",
        "A guard file names no message, is wired into an entry `catalog/hooks.toml` lacks, or "
        "is of the wrong kind (the compaction condition: not a wired context message).",
        "Name the file after its message, wire it into existing entries, and give a "
        "condition of a context message no wiring or cases.",
        "`catalog/guards/pretooluse-dependancy-guard.toml`",
        owner="catalogue",
    ),
    CodeInfo(
        "U006",
        "The placeholders a detector fills differ from those its guard file declares.",
        "Make the guard file's `[placeholders]` list exactly the detector's.",
        "dependency guard declaring `path` only (it fills `path` and `change`)",
        owner="catalogue",
    ),
    CodeInfo(
        "U007",
        "A guard's data refers to something that does not exist (a tool or a language).",
        "Name a registry tool and a language defined in the same table.",
        '`[...commands] Bash = "sh"` with no `languages.sh`',
        owner="catalogue",
    ),
    CodeInfo(
        "U008",
        "A guard file has no `[condition]`: no detector, so the guard can never fire.",
        'Add its `[condition]` (a `detector` and that detector\'s data; `detector = "match"` '
        "for a guard made of paths, patterns and commands).",
        "`catalog/guards/pretooluse-secrets-guard.toml` with `wired` and no `[condition]`",
        owner="catalogue",
    ),
    CodeInfo(
        "U009",
        "A guard's cases (`[[cases]]` in `catalog/guards/<guard>.toml`, or a corpus file) are "
        "malformed: a missing or ill-typed field, an unknown guard, contract or event, a "
        "duplicate id.",
        "Fix the named case; docs/guards.md describes the format.",
        '`expect = "fires"` (must be "fire" or "silent")',
        owner="catalogue",
    ),
    CodeInfo(
        "U010",
        "A guard case disagrees with the packaged dispatcher: it fired where it must stay "
        "silent, stayed silent where it must fire, or its advisory lacks a `says` text.",
        "Fix the guard (its `[condition]`, or its detector), or the case if the case is wrong.",
        "case 'grep-mentions-release' expected silent, fired",
        owner="catalogue",
    ),
    CodeInfo(
        "U011",
        "A wired guard with a detector has no cases, so nothing pins what it finds.",
        "Add `[[cases]]` to its guard file: calls that must fire and near-misses.",
        "`catalog/guards/pretooluse-eval-guard.toml` with no `[[cases]]`",
        owner="catalogue",
    ),
    CodeInfo(
        "U012",
        "A rule of a data-only (`match`) guard can never fire: it names no paths, content "
        "pattern or command pattern.",
        "Give the rule `paths`, `content` or `command`.",
        '`[[...rules]] name = "a private key"` and nothing else',
        owner="catalogue",
    ),
    # Configuration.
    CodeInfo(
        "K001",
        "A `[tool.hookmsg]` setting is invalid (unknown key, wrong type, path out of the root, "
        "or a generated folder that is not a dedicated folder of its own).",
        "Fix the named key in `pyproject.toml`.",
        '`delivered-cap = "10k"`',
        owner="project",
    ),
    CodeInfo(
        "K002",
        "No readable `pyproject.toml` was found from the working directory upward.",
        "Run hookmsg inside the project, or fix the TOML syntax of `pyproject.toml`.",
        "running in `/tmp`",
        owner="project",
    ),
    CodeInfo(
        "K003",
        "doit's state file (`.doit.db`) is not a regular file, or is unreadable and cannot be "
        "removed.",
        "Remove it; losing it only costs one rebuild.",
        "a folder named `.doit.db`",
        owner="inputs",
    ),
    CodeInfo(
        "K004",
        "`SOURCE_DATE_EPOCH` is not a whole number of seconds (ASCII digits) that a tar "
        "archive can hold (0 to 8589934591, the largest ustar time).",
        "Set it to the last commit's time (`git log -1 --format=%ct`), or unset it.",
        "`SOURCE_DATE_EPOCH=99999999999999999999`",
        owner="project",
    ),
    CodeInfo(
        "K005",
        "`package` would write its archive through a symbolic link that leads out of the "
        "repository (`dist` or a folder above the archive is a link).",
        "Remove the link, or name the output folder with `--output` on purpose.",
        "`dist -> /tmp/elsewhere`",
        owner="project",
    ),
    # Generated outputs.
    CodeInfo(
        "G001",
        "The skill index is over its character budget.",
        "Shorten descriptions of the largest groups, or move entries out of the index.",
        "1,712 characters against a 1,600 budget",
        owner="render",
    ),
    CodeInfo(
        "G002",
        "A generated file differs from what the sources produce (drift, or a hand edit).",
        "Run `hookmsg build` and commit the result; never edit generated files by hand.",
        "a hand edit of `generated/advisories.json`",
        owner="render",
    ),
    CodeInfo(
        "G003",
        "A generated file is missing.",
        "Run `hookmsg build` and commit the result.",
        "`generated/skill-index.md` deleted",
        owner="render",
    ),
    CodeInfo(
        "G004",
        "A file in the generated folder is produced by nothing (stale).",
        "Run `hookmsg build`, which removes it (it is listed in `outputs.json` or is "
        "hookmsg's own temporary file).",
        "`generated/cursor/hooks.json` left behind after a rename",
        owner="render",
    ),
    CodeInfo(
        "G005",
        "A file in the generated folder was not written by hookmsg (not in its `outputs.json`); "
        "build refuses to run while it is there, and never removes it.",
        "Move the file out of the generated folder, or delete it yourself.",
        "`generated/notes.md` added by hand",
        owner="render",
    ),
    CodeInfo(
        "G006",
        "The generated folder holds a symbolic link; build never writes through one.",
        "Replace the link with a real folder or file, or remove it.",
        "`generated/codex -> ~/.codex`",
        owner="render",
    ),
    # Skills and commands read from their own files (`[[sources]]` in the skill catalogue).
    CodeInfo(
        "S001",
        "A SKILL.md has no YAML front matter.",
        "Start the file with `---`, a `name:` and a `description:` line, then `---`.",
        "a SKILL.md that starts with `# Example Skill`",
        owner="catalogue",
    ),
    CodeInfo(
        "S002",
        "The front matter opened with `---` is never closed.",
        "Close the front matter with a `---` line before the body.",
        "`---` on line 1 and no second `---`",
        owner="catalogue",
    ),
    CodeInfo(
        "S003",
        "The front matter is not valid YAML (or a value in it cannot be read).",
        "Fix the YAML at the position given; quote values that contain `: ` or start with `[`.",
        "`description: Use when: the user asks` (an unquoted `: `)",
        owner="catalogue",
    ),
    CodeInfo(
        "S004",
        "The front matter is not a mapping of keys to values, or a key is not a string.",
        "Write the front matter as `key: value` lines.",
        "a front matter that is a YAML list",
        owner="catalogue",
    ),
    CodeInfo(
        "S005",
        "A tab indents a front matter line; YAML indents with spaces only.",
        "Replace the tab with spaces.",
        "`metadata:` then a line indented with a tab",
        owner="catalogue",
    ),
    CodeInfo(
        "S006",
        "A byte order mark precedes the front matter.",
        "Save the file as UTF-8 without BOM.",
        "`\\ufeff---` on line 1",
        owner="catalogue",
    ),
    CodeInfo(
        "S007",
        "A skill's `name` differs from the name of its folder.",
        "Rename the folder or the `name`; harnesses find a skill by its folder.",
        "`skills/postgresql/SKILL.md` with `name: postgresql-table-design`",
        owner="catalogue",
    ),
    CodeInfo(
        "S008",
        "A name is missing, or is not 1-64 lowercase letters, digits and single hyphens.",
        "Write the name in kebab case, without leading, trailing or doubled hyphens.",
        "`name: Hook Development`",
        owner="catalogue",
    ),
    CodeInfo(
        "S009",
        "A skill or command has no description, or an empty one.",
        "Write a `description:` that says what it does and when to use it.",
        "`description:` followed by nothing",
        owner="catalogue",
    ),
    CodeInfo(
        "S010",
        "A description is longer than 1,024 characters.",
        "Shorten it; move the detail into the body.",
        "a 1,929-character description",
        owner="catalogue",
    ),
    CodeInfo(
        "S011",
        "The front matter has a key that the skill or command format does not define.",
        "Remove the key, or accept it under `[front-matter] extra-keys` in the skill catalogue.",
        "`version: 1.0.0` in a SKILL.md",
        owner="catalogue",
    ),
    CodeInfo(
        "S012",
        "Two skills or commands have the same name.",
        "Rename one, or pick the one that wins with a `[[skills]]` entry naming its `source`.",
        "`brainstorming` in two skill folders",
        owner="catalogue",
    ),
    CodeInfo(
        "S013",
        "A skill or command is in no task group, so the index cannot list it.",
        "Give its `[[sources]]` a `group`, add a `[[skills]]` entry with one, or list it under "
        "`[omit]`.",
        "a source without `group` and no `[[skills]]` entry",
        owner="catalogue",
    ),
    CodeInfo(
        "S014",
        "A front matter key appears twice; YAML keeps only one of the values.",
        "Keep one of them.",
        "two `description:` lines",
        owner="catalogue",
    ),
    CodeInfo(
        "S015",
        "A front matter key has the wrong type.",
        "Write the value as the message says; quote an `argument-hint` like `[message]`.",
        "`argument-hint: [message-hint]`, which YAML reads as a list",
        owner="catalogue",
    ),
    CodeInfo(
        "S016",
        "A folder named by `[[sources]]` does not exist or cannot be listed.",
        "Fix the `path`, relative to the project root, or create the folder.",
        '`path = "skils"`',
        owner="catalogue",
    ),
    CodeInfo(
        "S017",
        "A `[[skills]]` entry is incomplete, or sets what its source file decides.",
        "Give an entry that no file defines a description and `manual`; edit a sourced "
        "entry's description in its front matter.",
        '`[[skills]] name = "x"` with only a group, and no file defines `x`',
        owner="catalogue",
    ),
    CodeInfo(
        "S018",
        "`install` would overwrite a skill or command file in the project that hookmsg did "
        "not write (or that was edited since).",
        "Rename or move the project's own file, or remove it if the shipped one replaces it; "
        "then run `hookmsg install` again.",
        "a hand-written `.claude/skills/add-guard/SKILL.md`",
        owner="install",
    ),
    # The xcsh extension module (its entry in the harness facts, hookmsg/data/harnesses.toml).
    CodeInfo(
        "X001",
        "The xcsh harness maps an event to an xcsh event that cannot carry context to the model.",
        "Map it to session_start, before_agent_start, tool_result or session.compacting, "
        "or leave the event out (a `delivered = false` fact says why).",
        '`PreToolUse = "tool_call"`',
        owner="catalogue",
    ),
    CodeInfo(
        "X002",
        "The xcsh harness claims session start sources, which xcsh does not report.",
        "Set `session_start_sources = false` for xcsh.",
        "`session_start_sources = true`",
        owner="catalogue",
    ),
    CodeInfo(
        "X003",
        "The xcsh module's file name does not end in `.js`.",
        "Name it `hookmsg.js`: xcsh loads `*.js` and `*.ts` extension files.",
        '`file = "hookmsg.json"`',
        owner="catalogue",
    ),
    CodeInfo(
        "X004",
        "An extension-module harness's user folder file (`user_file`) does not end in `.js`, "
        "or is set on a harness whose registration is not a module.",
        "Name the module `<folder>/hookmsg.js` where the client loads user extensions, or drop "
        "`user_file` from a settings-file harness.",
        '`user_file = ".pi/agent/extensions/hookmsg.json"`',
        owner="catalogue",
    ),
)

# Install (`hookmsg install`, `verify`, `uninstall`) and the harness facts behind it.
_CODES += (
    CodeInfo(
        "I001",
        "A harness that records facts delivers an event without a fact giving its evidence.",
        "Add a `[[harnesses.facts]]` entry with the event, `delivered = true` and `evidence`.",
        "`PostToolUse` under [harnesses.events] with no fact about it",
        owner="catalogue",
    ),
    CodeInfo(
        "I002",
        "A harness fact contradicts the harness's event lists.",
        "Make `delivered` agree with [harnesses.events] (and [harnesses.deny_events]).",
        "`delivered = false` for an event listed as delivered",
        owner="catalogue",
    ),
    CodeInfo(
        "I003",
        "A settings file is not valid JSON, or holds a key twice; install leaves it untouched.",
        "Fix the file by hand (or move it away), then install again.",
        '`{"hooks": {}, "hooks": {}}`',
        owner="install",
    ),
    CodeInfo(
        "I004",
        "A settings file holds a value that would not be written back exactly.",
        "Write the value in its plain JSON form (e.g. `1.0` not `1.0e0`, no lone surrogate, "
        "integers within 2^53), then install again.",
        '`{"n": 1E2}`',
        owner="install",
    ),
    CodeInfo(
        "I005",
        "A settings file has a shape the registration cannot be merged into.",
        "Fix the named key (e.g. `hooks` must be an object; Codex takes only `description` "
        "and `hooks` at the top level).",
        '`{"hooks": []}` in `.claude/settings.json`',
        owner="install",
    ),
    CodeInfo(
        "I006",
        "The install root exists and is not a hookmsg install root; install will not replace it.",
        "Choose another `--root`, or move the folder away.",
        "`--root ~/Documents`",
        owner="install",
    ),
    CodeInfo(
        "I007",
        "verify: the harness's settings file holds no hookmsg registration.",
        "Run `hookmsg install --harness ID`.",
        "`.codex/hooks.json` missing",
        owner="install",
    ),
    CodeInfo(
        "I008",
        "verify: the registration differs from what the registry generates now (stale).",
        "Run `hookmsg install --harness ID` again.",
        "a Stop entry left from an older install",
        owner="install",
    ),
    CodeInfo(
        "I009",
        "verify: the install root the registration runs is missing, incomplete or changed.",
        "Run `hookmsg install --harness ID` again.",
        "`hooks/dispatch.py` deleted from the install root",
        owner="install",
    ),
    CodeInfo(
        "I010",
        "verify: the install root holds another build of this content (stale text).",
        "Run `hookmsg install --harness ID --project DIR` again from the content repository.",
        "a message edited and rebuilt after the install",
        owner="install",
    ),
    CodeInfo(
        "I011",
        "verify: the install root holds content from another source (foreign).",
        "Run `hookmsg install --harness ID --project DIR` from the content repository the "
        "project should use.",
        "a second content repository installed into the same root",
        owner="install",
    ),
    CodeInfo(
        "I012",
        "A folder on the way to a target is a link that leads out of the project or root.",
        "Replace the link with a folder, or install into the project the link points to.",
        "`.claude` linked to `~/dotfiles/claude`",
        owner="install",
    ),
    CodeInfo(
        "I013",
        "A target is not a regular file (a FIFO, a device, a socket) or is over the size bound.",
        "Move it away; install, verify and uninstall read and write regular files only.",
        "`manifest.json` made a FIFO",
        owner="install",
    ),
)

CODES: dict[Code, CodeInfo] = {info.code: info for info in _CODES}
KNOWN_CODES: frozenset[str] = frozenset(get_args(Code))


# Each owner's codes, in the table's order.
DOMAINS: dict[Owner, tuple[Code, ...]] = {
    owner: tuple(info.code for info in _CODES if info.owner == owner) for owner in get_args(Owner)
}
# The findings `hookmsg fix` is responsible for (`messages/rules/fixable.py`).
MENDED: frozenset[Code] = frozenset(info.code for info in _CODES if info.mended)


def code_info(text: str) -> CodeInfo | None:
    """The table entry of a code given as text (any case), or None when there is none."""
    return _BY_TEXT.get(text.upper())


_BY_TEXT: dict[str, CodeInfo] = {info.code: info for info in _CODES}
