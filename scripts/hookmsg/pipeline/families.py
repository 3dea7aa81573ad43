"""The one table of the rule families run over a loaded project, and what they may read.

Every family has the same signature: `(ProjectFacts) -> list[Diagnostic]`. Adding a
project-level family is one function and one row in FAMILIES. (The file rules and the
catalogue rules judge each file as it is loaded, `loading.py`; the output rules judge the
rendered bytes, `outputs.py`.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from hookmsg.catalogue.models import PartialCatalogue
from hookmsg.diagnostics import Diagnostic
from hookmsg.messages.message import Message
from hookmsg.messages.rules.context import MessageContext
from hookmsg.messages.rules.family import check_message, reserved_name
from hookmsg.render.loaded import SkillIndex


@dataclass(frozen=True)
class ProjectFacts:
    """What the project-level rules read: the parsed sources and their names."""

    catalogue: PartialCatalogue
    # Authored messages, and the generated ones (the skill index), by name.
    authored: Mapping[str, Message]
    generated_messages: Mapping[str, Message]
    # The names of the generated messages, whether or not they could be rendered.
    generated_names: frozenset[str]
    # Every name a registry may use, with the path shown for it (None: unknown).
    names: Mapping[str, str] | None
    # The facts one message is checked with (`registered`: the registry rules apply).
    context_for: Callable[[Message, bool], MessageContext]
    # The generated folder, as shown in diagnostics.
    generated: str
    # What the rule on a rendered output reads: the skill index (None: not rendered).
    skill_index: SkillIndex | None
    # The skill catalogue as shown, and the budget its index must stay within.
    skills_display: str
    skill_index_budget: int
    # The cap on what a harness reads per call (`delivered-cap`).
    delivered_cap: int = 10_000


def messages(facts: ProjectFacts) -> list[Diagnostic]:
    """Every message rule on every message; R009 for an authored one with a generated name."""
    found: list[Diagnostic] = []
    for message in facts.authored.values():
        # An authored file may not take a generated message's name; it is still checked,
        # but as a file the registry knows nothing about.
        for reserved in sorted(facts.generated_names):
            found += reserved_name(message, reserved)
        registered = message.name not in facts.generated_names
        found += check_message(message, facts.context_for(message, registered))
    for message in facts.generated_messages.values():
        found += check_message(message, facts.context_for(message, True))
    return found


def wiring(facts: ProjectFacts) -> list[Diagnostic]:
    """R001-R008: the registry's links to the message files."""
    from hookmsg.catalogue.rules import wiring as wiring_rules

    catalogue = facts.catalogue
    if catalogue.registry is None or facts.names is None:
        return []
    readable = {*facts.authored, *facts.generated_messages}
    return wiring_rules.check(
        catalogue.registry,
        catalogue.registry_text,
        catalogue.registry_display,
        facts.names,
        readable=readable,
    )


def guard_references(facts: ProjectFacts) -> list[Diagnostic]:
    """U005, U006, U008: guard data tables and wired guards name each other."""
    from hookmsg.catalogue.rules.guards import check_references

    catalogue = facts.catalogue
    guards = catalogue.guards
    if catalogue.registry is None or facts.names is None or guards is None or not guards.text:
        return []
    return check_references(
        guards,
        catalogue.registry,
        catalogue.registry_display,
        set(facts.names),
        catalogue.registry_text,
    )


def contract(facts: ProjectFacts) -> list[Diagnostic]:
    """H002, H004, H006: each harness's registration against its contract."""
    from hookmsg.harnesses.rules import contract as contract_rules

    catalogue = facts.catalogue
    if catalogue.registry is None or catalogue.harnesses is None:
        return []
    return contract_rules.check(
        catalogue.registry,
        catalogue.registry_text,
        catalogue.registry_display,
        catalogue.harnesses,
        facts.generated,
    )


def skill_index_budget(facts: ProjectFacts) -> list[Diagnostic]:
    """G001: the rendered skill index, in every install form, within its budget."""
    from hookmsg.render.rules import skill_index_budget as budget_rule

    index = facts.skill_index
    if index is None:
        return []
    return budget_rule(
        facts.skills_display,
        facts.skill_index_budget,
        # The skills form lists a subset of the engine form's entries under a shorter
        # opening line, so it is never the larger: measuring it too would repeat a finding.
        {form: size for form, size in index.sizes().items() if form != "skills"},
        {form: index.largest_groups(3, form=form) for form in ("plugin", "engine")},
    )


def envelope_cap(facts: ProjectFacts) -> list[Diagnostic]:
    """D005: each context message's answer within the cap, as each wired harness counts it."""
    from hookmsg.harnesses.rules import envelope

    catalogue = facts.catalogue
    if catalogue.registry is None or catalogue.harnesses is None:
        return []
    messages = {**facts.authored, **facts.generated_messages}
    return envelope.check(catalogue.registry, catalogue.harnesses, messages, facts.delivered_cap)


def guard_case_files(facts: ProjectFacts) -> list[Diagnostic]:
    """U009: every guard case file reads as cases for a wired guard, a harness contract and
    a registry event (the guard_cases task then runs them through the dispatcher)."""
    from hookmsg.catalogue.rules.guard_cases import check_case_files

    catalogue = facts.catalogue
    files = catalogue.guard_cases
    if files is None or catalogue.registry is None or catalogue.harnesses is None:
        return []
    return check_case_files(files, catalogue.registry, catalogue.harnesses)


Family = Callable[[ProjectFacts], list[Diagnostic]]
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


def check_project(facts: ProjectFacts) -> list[Diagnostic]:
    """Every project-level family over `facts`, unsorted."""
    return [found for family in FAMILIES for found in family(facts)]
