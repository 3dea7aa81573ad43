"""hookmsg.catalogue.detectors: the detectors the dispatcher's modules declare (`DETECTS`),
read without importing them; what the dispatch table names as each message's module."""

from __future__ import annotations

import json

import pytest

from hookmsg.catalogue.detectors import (
    DetectorModule,
    Source,
    declared,
    detector_modules,
    read_declarations,
)
from hookmsg.errors import EXIT_USAGE, DeclarationError
from tests.support.repository import REPO


def source(text: str, module: str = "guards.secrets") -> Source:
    return Source(module, f"scripts/hookmsg_dispatch/{module.replace('.', '/')}.py", text)


def test_the_shipped_modules_declare_every_detector_once() -> None:
    found = detector_modules()
    assert found["write-plan"] == DetectorModule("guards.plans", frozenset({"path", "plan"}))
    assert found["bash-plan"].module == "guards.plans"  # one module, two detectors
    assert found["compaction"] == DetectorModule("compaction", frozenset())
    assert [name for name, spec in found.items() if spec.condition] == ["compaction"]
    assert list(found) == sorted(found)


def test_the_dispatch_table_names_the_module_of_each_conditioned_message() -> None:
    table = json.loads((REPO / "generated" / "dispatch-table.json").read_bytes())
    modules = {
        name: (entry["condition"], entry["module"])
        for name, entry in table["messages"].items()
        if entry["condition"] is not None
    }
    assert modules["pretooluse-bash-plan-guard"] == ("bash-plan", "guards.plans")
    assert modules["posttooluse-proactive-compaction"] == ("compaction", "compaction")
    found = detector_modules()
    assert all(found[detector].module == module for detector, module in modules.values())
    plain = [entry["module"] for entry in table["messages"].values() if not entry["condition"]]
    assert plain and set(plain) == {None}


def test_a_module_without_a_declaration_declares_nothing() -> None:
    assert declared(source("def detect(detector, call, data, root):\n    return None\n")) == {}
    assert declared(source("DETECTED = {'x': ()}\n")) == {}


def test_an_annotated_declaration_is_read_too() -> None:
    text = "DETECTS: dict[str, tuple[str, ...]] = {'secrets': ('found', 'where')}\n"
    assert declared(source(text)) == {"secrets": ("found", "where")}


@pytest.mark.parametrize(
    "value",
    [
        "{'secrets': ['found']}",  # a list, not a tuple
        "{'secrets': (1,)}",
        "{1: ('found',)}",
        "dict(secrets=('found',))",  # a call: not a literal
        "NAMES",
        "('secrets', 'found')",
    ],
)
def test_a_declaration_that_is_not_a_literal_table_is_refused_at_its_line(value: str) -> None:
    text = f'"""A detector."""\n\nDETECTS = {value}\n'
    with pytest.raises(DeclarationError) as raised:
        declared(source(text))
    assert str(raised.value) == (
        "scripts/hookmsg_dispatch/guards/secrets.py:3:1: DETECTS must be a literal dict of "
        "detector ids to tuples of placeholder names"
    )
    assert raised.value.exit_code == EXIT_USAGE


def test_a_module_that_is_not_python_is_refused_at_the_error() -> None:
    with pytest.raises(DeclarationError, match=r"secrets\.py:2:\d+: not Python"):
        declared(source("DETECTS = {}\ndef (\n"))


def test_one_detector_declared_by_two_modules_is_refused() -> None:
    first = source("DETECTS = {'secrets': ('found',)}\n", "guards.secrets")
    second = source("DETECTS = {'secrets': ('found',)}\n", "guards.keys")
    with pytest.raises(DeclarationError) as raised:
        read_declarations([first, second])
    assert str(raised.value) == (
        "scripts/hookmsg_dispatch/guards/keys.py:1:1: detector 'secrets' is declared here and "
        "in the module guards.secrets"
    )


def test_declarations_merge_in_id_order_whatever_the_module_order() -> None:
    one = source("DETECTS = {'zeta': (), 'alpha': ('a',)}\n", "guards.one")
    two = source("DETECTS = {'mid': ('m',)}\n", "guards.two")
    assert list(read_declarations([two, one])) == ["alpha", "mid", "zeta"]
    assert read_declarations([one, two]) == read_declarations([two, one])
