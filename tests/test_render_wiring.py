"""The wiring diagram (`render/wiring.py`) escapes for Mermaid: labels are one quoted line
of entities, and node ids are hashes, so two spellings never share a node.
"""

from __future__ import annotations

from hookmsg.render.wiring import label, node_id


def test_mermaid_labels_are_one_quoted_line_of_entities() -> None:
    text = label('a"b<c>d`e&f\n```\n[x](javascript:alert(1))')
    assert text.startswith('"') and text.endswith('"')
    inner = text[1:-1]
    assert not set(inner) & set('"<>`\n')
    assert "#quot;" in inner and "#96;" in inner and "#lt;" in inner


def test_node_ids_are_stable_hashes_that_never_collide_on_spelling() -> None:
    assert node_id("matcher", "SessionStart", "com-pact") != node_id(
        "matcher", "SessionStart", "com.pact"
    )
    assert node_id("event", "Stop") == node_id("event", "Stop")
    assert node_id("event", "Stop").removeprefix("event_").isalnum()
