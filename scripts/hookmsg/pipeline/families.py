"""The one table of the rule families run over the loaded project.

Every family has the same signature: `(Workspace) -> list[Diagnostic]`, the loaded project
the renderers are built from too (`workspace.Workspace`; they receive its complete form,
`Workspace.loaded()`). Adding a project-level family is one function and one row in
FAMILIES. (The file rules and the catalogue rules judge each file as it is loaded,
`loading.py`; the output rules judge the rendered bytes, `outputs/generated.py`.) No family
reads a file: what the rules judge was read when the project was loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.rules.family import check_message, reserved_name
from hookmsg.render.loaded import SKILL_INDEX

if TYPE_CHECKING:
    from hookmsg.pipeline.workspace import Workspace

# The generated messages' names (the skill index), whether or not they could be rendered.
GENERATED_NAMES = frozenset({SKILL_INDEX})


def messages(workspace: Workspace) -> list[Diagnostic]:
    """Every message rule on every message; R009 for an authored one with a generated name."""
    found: list[Diagnostic] = []
    for message in workspace.authored.values():
        # An authored file may not take a generated message's name; it is still checked,
        # but as a file the registry knows nothing about.
        for reserved in sorted(GENERATED_NAMES):
            found += reserved_name(message, reserved)
        registered = message.name not in GENERATED_NAMES
        found += check_message(message, workspace.context_for(message, registered=registered))
    if workspace.skill_index_message is not None:
        generated = workspace.skill_index_message
        found += check_message(generated, workspace.context_for(generated, registered=True))
    return found


def wiring(workspace: Workspace) -> list[Diagnostic]:
    """R001-R008: the registry's links to the message files."""
    from hookmsg.catalogue.rules import wiring as wiring_rules

    catalogue = workspace.catalogue
    names = workspace.registrable_names()
    if catalogue.registry is None or names is None:
        return []
    return wiring_rules.check(
        catalogue.registry,
        catalogue.registry_text,
        catalogue.registry_display,
        names,
        readable=set(workspace.all_messages()),
    )


def guard_references(workspace: Workspace) -> list[Diagnostic]:
    """U005, U006, U008, R007: each guard file against its message and its detector."""
    from hookmsg.catalogue.rules.guards import check_references

    catalogue = workspace.catalogue
    guards = catalogue.guards
    names = workspace.registrable_names()
    if catalogue.registry is None or names is None or guards is None:
        return []
    return check_references(guards.files, catalogue.registry, set(names))


def contract(workspace: Workspace) -> list[Diagnostic]:
    """H002, H004, H006: each harness's registration against its contract."""
    from hookmsg.harnesses.rules import contract as contract_rules

    catalogue = workspace.catalogue
    if catalogue.registry is None or catalogue.harnesses is None:
        return []
    guards = catalogue.guards
    return contract_rules.check(
        catalogue.registry,
        catalogue.registry_text,
        catalogue.registry_display,
        catalogue.harnesses,
        workspace.project.settings.generated,
        guards.files if guards is not None else {},
    )


def skill_index_budget(workspace: Workspace) -> list[Diagnostic]:
    """G001: the rendered skill index, in every install form, within its budget."""
    from hookmsg.render.rules import skill_index_budget as budget_rule

    index = workspace.skill_index
    if index is None:
        return []
    project = workspace.project
    return budget_rule(
        project.relative(project.catalog_file("skills.toml")),
        project.settings.skill_index_budget,
        # The skills form lists a subset of the engine form's entries under a shorter
        # opening line, so it is never the larger: measuring it too would repeat a finding.
        {form: size for form, size in index.sizes().items() if form != "skills"},
        {form: index.largest_groups(3, form=form) for form in ("plugin", "engine")},
    )


def envelope_cap(workspace: Workspace) -> list[Diagnostic]:
    """D005: each context message's answer within the cap, as each wired harness counts it."""
    from hookmsg.harnesses.rules import envelope

    catalogue = workspace.catalogue
    if catalogue.registry is None or catalogue.harnesses is None:
        return []
    cap = workspace.project.settings.delivered_cap
    return envelope.check(catalogue.registry, catalogue.harnesses, workspace.all_messages(), cap)


def guard_case_files(workspace: Workspace) -> list[Diagnostic]:
    """U009: every guard's cases read as cases for a wired guard, a harness contract and a
    registry event (the guard_cases task then runs them through the dispatcher)."""
    from hookmsg.catalogue.rules.guard_cases import check_case_files

    catalogue = workspace.catalogue
    files = catalogue.guard_cases
    if files is None or catalogue.registry is None or catalogue.harnesses is None:
        return []
    return check_case_files(files, catalogue.registry, catalogue.harnesses)


Family = Callable[["Workspace"], list[Diagnostic]]
# Every project-level rule family, in the order it runs.
FAMILIES: tuple[Family, ...] = (
    messages,
    wiring,
    guard_references,
    contract,
    skill_index_budget,
    envelope_cap,
    guard_case_files,
)


def check_project(workspace: Workspace) -> list[Diagnostic]:
    """Every project-level family over the loaded project, unsorted."""
    return [found for family in FAMILIES for found in family(workspace)]
