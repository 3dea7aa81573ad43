"""JSON in and out without importing `json` on the hot path.

`import json` pulls in `re` and `enum` (most of its import time); the C scanner and string
encoder in CPython's `_json` do the same work without them. Where `_json` is missing
(another Python implementation) the `json` module is used instead. Standard library only.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, BinaryIO, Callable

_WHITESPACE = " \t\n\r"
MAX_PAYLOAD = 4 * 1024 * 1024  # bytes read from stdin; a larger payload is refused
MAX_TABLE = 64 * 1024 * 1024  # bytes read of the dispatch table


_quote: Callable[[str], str] | None
_scanner: Callable[[str, int], tuple[Any, int]] | None
try:
    import _json
    import sys

    _quote = _json.encode_basestring_ascii

    # The attributes `_json.make_scanner` reads, the same defaults as `json.loads`, on a
    # `types.SimpleNamespace` (the type of `sys.implementation`): a class costs more.
    _namespace: Any = type(sys.implementation)
    _scanner = _json.make_scanner(
        _namespace(
            strict=True,
            object_hook=None,
            object_pairs_hook=None,
            parse_float=float,
            parse_int=int,
            parse_constant=float,  # NaN, Infinity, -Infinity, as json.loads accepts them
        )
    )
except ImportError:  # pragma: no cover - CPython always has _json
    _quote = _scanner = None


def loads(text: str) -> Any:
    """Parse one JSON document; ValueError when it is not exactly one valid document."""
    if _scanner is None:  # pragma: no cover
        import json

        return json.loads(text)
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scanner(text, start)
    except StopIteration:
        raise ValueError("no JSON value") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError:
        raise
    except Exception:
        # Invalid input: the C scanner raises json.decoder.JSONDecodeError only when that
        # module is already loaded (a SystemError otherwise). Let `json` name the error.
        import json

        return json.loads(text)
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data after the JSON value at offset {end}")
    return value


def dumps(value: Any) -> str:
    """Compact ASCII JSON of strings, booleans, None and dicts of them (keys in order)."""
    if _quote is None:  # pragma: no cover
        import json

        return json.dumps(value, ensure_ascii=True)
    if isinstance(value, str):
        return str(_quote(value))
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_quote(str(k))}: {dumps(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {type(value).__name__} as JSON here")


def read_bounded(path: str, limit: int) -> bytes:
    """The file's bytes; ValueError when it holds more than `limit` (never reads past it)."""
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    return data


def read_payload(stdin: BinaryIO, given: str | None) -> dict[str, Any]:
    """The hook's payload, from `given` (a command-line payload) or standard input."""
    raw = stdin.read(MAX_PAYLOAD + 1) if given is None else given.encode("utf-8", "replace")
    if len(raw) > MAX_PAYLOAD:
        raise ValueError(f"the payload is larger than {MAX_PAYLOAD} bytes")
    if not raw.strip():
        raise ValueError("the payload is empty")
    # A byte-order mark is dropped by hand: the `utf-8-sig` codec is one more import.
    payload = loads((raw[3:] if raw.startswith(b"\xef\xbb\xbf") else raw).decode("utf-8"))
    if not isinstance(payload, dict):
        raise ValueError("the payload is not a JSON object")
    return payload


def read_table(path: str, contract: str | None = None) -> dict[str, Any]:
    """The dispatch table; ValueError when it is not an object with contracts and messages.

    Given `contract`, a table as the install root writes it (`guard_data` in it, its
    `contracts` the last member) is read with that one contract: the others are never
    parsed."""
    text = read_bounded(path, MAX_TABLE).decode("utf-8")
    at = text.rfind(_CONTRACTS) if contract is not None else -1
    try:
        table = loads(text[:at] + "}") if at > 0 else None
    except ValueError:  # not that layout: read whole
        table = None
    if isinstance(table, dict) and "guard_data" in table and "contracts" not in table:
        found = member(text[at + len(_CONTRACTS) - 1 :], str(contract), None)
        table["contracts"] = {} if found is None else {contract: found}
    else:
        table = loads(text)
    if not isinstance(table, dict) or not all(
        isinstance(table.get(key), dict) for key in ("contracts", "messages")
    ):
        raise ValueError("it lacks contracts or messages")
    return table


_CONTRACTS = ',"contracts":{'  # the installed table's last member

GUARD_DATA = "data/guards"  # one file per message with guard data, read when it runs


def guard_data(table: Mapping[str, Any], root: str, name: str) -> dict[str, Any]:
    """`name`'s condition data, with the table's bound of every file read (`max-file-bytes`):
    the table's own (a table as built holds them all), or else the file
    `data/guards/<name>.json` that the installed table names for it, read only now (its
    literals handed to `literal.know`); OSError or ValueError when it cannot be read."""
    from hookmsg_dispatch.literal import know

    conditions = table.get("conditions")
    if isinstance(conditions, dict) and name in conditions:
        know(table.get("literals"))
        condition = conditions[name]
    elif name in table.get("guard_data", ()):
        text = read_bounded(f"{root}/{GUARD_DATA}/{name}.json", MAX_TABLE).decode("utf-8")
        condition, literals = _condition_first(text)
        if not isinstance(condition, dict):
            raise ValueError(f"{GUARD_DATA}/{name}.json holds no condition")
        know(literals)
    else:
        condition = {}
    bound = table.get("max_file_bytes")
    return {**condition, "max-file-bytes": bound} if isinstance(bound, int) else condition


_CONDITION, _LITERALS = '{"condition":', ',"literals":'


def _condition_first(text: str) -> tuple[Any, Any]:
    """A guard data file's condition, and its literals: as written (compact, the condition
    first), the literals stay text for `member` to search; otherwise the parsed value."""
    if _scanner is not None and text.startswith(_CONDITION):
        try:
            condition, end = _scanner(text, len(_CONDITION))
        except Exception:  # damaged: `loads` names the error
            condition, end = None, 0
        rest = text[end:].rstrip(_WHITESPACE)
        if end and rest.startswith(_LITERALS + "{") and rest.endswith("}}"):
            return condition, rest[len(_LITERALS) : -1]
    data = loads(text)
    return (data.get("condition"), data.get("literals")) if isinstance(data, dict) else (None, None)


def member(text: str, key: str, missing: Any) -> Any:
    """The value of `key` in `text`, a compact JSON object's members (`,"key":value,...`,
    as `_condition_first` leaves them) without parsing the rest; `missing` where it is not
    there or cannot be read."""
    if _quote is None or _scanner is None:  # pragma: no cover
        return missing
    quoted = _quote(key) + ":"
    at = text.find(quoted)
    # A member's name follows `{` or `,`; inside a string every quote is escaped.
    while at > 0 and text[at - 1] not in ",{":
        at = text.find(quoted, at + 1)
    if at <= 0:
        return missing
    try:
        return _scanner(text, at + len(quoted))[0]
    except Exception:
        return missing
