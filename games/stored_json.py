"""The one gate for JSON a client sends that is stored: entries, log headers, finishes, score
sheets, editions' data and import documents go through ``clean`` before anything is written.

Two things happen there:

- **Safety.** The value is walked once (iteratively: a deep document is what attacks a
  recursive walk) and refused, with a ``RecordError`` naming the path (``rounds[2].plays[0]``),
  if it holds an integer outside the signed 64-bit range (``out_of_range``), a string with a
  lone surrogate or a NUL character (``invalid_text``), a string or a list longer than the
  limits below (``too_long``), or nesting deeper than ``MAX_DEPTH`` (``too_deep``). Every
  database stores what passes, and every encoder (the API's, the backup's) writes it.
- **Keys a format does not define are ignored, and ignored means not kept** (the rules
  references say so of every log format): ``prune`` drops them following the engine's JSON
  Schema, so what is stored is exactly what the engine reads. An object whose schema says
  ``additionalProperties: false`` keeps its unknown keys, for the engine to refuse them (a
  Bruges ``gain``, rules B8); one whose extra keys follow a schema (Pot de Vin's ``hands`` by
  seat) keeps them for the engine to check.

Nothing here knows a game: the schemas come from the engines' ``GameInfo``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.errors import RecordError

INT_MIN = -(2**63)
INT_MAX = 2**63 - 1
MAX_DEPTH = 32  # a game log is 6 levels deep; deeper is an attack or a mistake


@dataclass(frozen=True)
class Limits:
    """How long a stored string or list may be. Far above what any real game needs (a person's
    name, a note of a page), far below what would make one game a burden to every read."""

    max_string: int = 5_000
    max_items: int = 2_000
    max_depth: int = MAX_DEPTH


DEFAULT_LIMITS = Limits()


class JsonRefused(RecordError):
    """A stored value the gate refuses; ``path`` says where in the document it is."""

    def __init__(self, code: str, message: str, *, path: str, index: int | None = None) -> None:
        where = f" at {path}" if path else ""
        super().__init__(code, f"{message}{where}", index=index)
        self.path = path

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "path": self.path}


def join_path(path: str, key: str | int) -> str:
    """``rounds`` + 2 is ``rounds[2]``; ``gain`` + ``florins`` is ``gain.florins``. A key with
    a character an error body cannot carry as it is (a lone surrogate, a control character)
    is shown escaped, as JSON escapes it."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if not key.isprintable() or _has_surrogate(key):
        key = json.dumps(key)[1:-1]
    return f"{path}.{key}" if path else key


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_text(value: str, *, path: str = "", max_length: int | None = None) -> None:
    """Refuse a string no database or encoder takes whole: a lone surrogate (not Unicode at
    all; SQLite would store it and every later read would fail), or NUL (PostgreSQL stores
    none). Raises ``JsonRefused`` (invalid_text, too_long)."""
    if "\x00" in value:
        raise JsonRefused("invalid_text", "text cannot hold the NUL character", path=path)
    if _has_surrogate(value):
        raise JsonRefused(
            "invalid_text", "text holds a lone surrogate, which is not a character", path=path
        )
    if max_length is not None and len(value) > max_length:
        raise JsonRefused(
            "too_long", f"text is {len(value)} characters; at most {max_length}", path=path
        )


def check(value: Any, *, path: str = "", limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse what no database or encoder stores whole (see the module's docstring). Object keys
    are checked like strings. Raises ``JsonRefused``."""
    stack: list[tuple[Any, str, int]] = [(value, path, 1)]
    while stack:
        item, where, depth = stack.pop()
        kind = type(item)
        if kind is str:
            check_text(item, path=where, max_length=limits.max_string)
        elif kind is int:
            if not INT_MIN <= item <= INT_MAX:
                raise JsonRefused(
                    "out_of_range", "a number outside the signed 64-bit range", path=where
                )
        elif kind is dict or kind is list:
            if depth > limits.max_depth:
                raise JsonRefused(
                    "too_deep", f"nested more than {limits.max_depth} levels deep", path=where
                )
            if len(item) > limits.max_items:
                raise JsonRefused(
                    "too_long", f"{len(item)} items; at most {limits.max_items}", path=where
                )
            if kind is dict:
                for key, child in item.items():
                    child_path = join_path(where, str(key))
                    check_text(str(key), path=child_path, max_length=limits.max_string)
                    stack.append((child, child_path, depth + 1))
            else:
                stack.extend((c, join_path(where, i), depth + 1) for i, c in enumerate(item))
        elif kind is float:
            if item != item or item in (float("inf"), float("-inf")):
                raise JsonRefused("out_of_range", "a number JSON cannot write", path=where)
        elif item is not None and kind is not bool:
            raise JsonRefused("malformed", f"{kind.__name__} is not a JSON value", path=where)


# --- keys a format does not define --------------------------------------------------------


def prune(value: Any, schema: Mapping[str, Any]) -> Any:
    """``value`` without the object keys ``schema`` does not define (a copy: ``value`` is not
    changed). What the schema cannot place (a value of the wrong shape) is kept as it is, for
    the engine to refuse with its own code."""
    return _Pruner(schema).prune(value, schema)


class _Pruner:
    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        while "$ref" in schema:
            ref = schema["$ref"]
            assert ref.startswith("#/"), ref  # the engines' schemas are self-contained
            target: Any = self.root
            for part in ref[2:].split("/"):
                target = target[part]
            schema = target
        return schema

    def prune(self, value: Any, schema: Mapping[str, Any]) -> Any:
        schema = self.resolve(schema)
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches:
            fitting = [b for b in map(self.resolve, branches) if self.fits(value, b)]
            if not fitting:
                return value
            if len(fitting) > 1 and isinstance(value, dict):
                return self.prune_object(value, fitting)
            return self.prune(value, fitting[0])
        if isinstance(value, dict):
            return self.prune_object(value, [schema])
        if isinstance(value, list) and isinstance(schema.get("items"), Mapping):
            return [self.prune(item, schema["items"]) for item in value]
        return value

    def prune_object(self, value: dict[str, Any], schemas: list[Mapping[str, Any]]) -> Any:
        """Keep a key that any of ``schemas`` defines (pruned by the first that does)."""
        out: dict[str, Any] = {}
        for key, child in value.items():
            kept, child_schema = self.place(key, schemas)
            if kept:
                out[key] = child if child_schema is None else self.prune(child, child_schema)
        return out

    @staticmethod
    def place(key: str, schemas: list[Mapping[str, Any]]) -> tuple[bool, Any]:
        """Whether ``key`` is kept, and the schema its value follows (None: kept as it is)."""
        for schema in schemas:
            if key in schema.get("properties", {}):
                return True, schema["properties"][key]
        for schema in schemas:
            # Unsaid, an object with named properties has no others; one without is open.
            extra = schema.get("additionalProperties", "properties" not in schema)
            if extra is False and "additionalProperties" in schema:
                return True, None  # the format refuses it: kept for the engine's own code
            if isinstance(extra, Mapping):
                return True, extra  # keys of a kind the engine checks (seats, colours)
            if extra is True:
                return True, None
        return False, None

    def fits(self, value: Any, schema: Mapping[str, Any]) -> bool:
        """A shallow match, enough to choose among an ``anyOf``'s branches: the JSON type, a
        constant, and the required keys of an object."""
        schema = self.resolve(schema)
        if "const" in schema:
            return bool(value == schema["const"])
        if "enum" in schema:
            return value in schema["enum"]
        types = schema.get("type")
        if types is not None:
            allowed = [types] if isinstance(types, str) else list(types)
            if _json_type(value) not in allowed and not (
                "number" in allowed and _json_type(value) == "integer"
            ):
                return False
        if isinstance(value, dict):
            return all(k in value for k in schema.get("required", ()))
        return True


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def clean(
    value: Any,
    schema: Mapping[str, Any] | None = None,
    *,
    path: str = "",
    limits: Limits = DEFAULT_LIMITS,
) -> Any:
    """``value`` as it may be stored: checked (``check``), then without the keys ``schema``
    does not define (``prune``). Raises ``JsonRefused``."""
    check(value, path=path, limits=limits)
    return value if schema is None else prune(value, schema)


_LOG_SCHEMAS: dict[str, dict[str, Any]] = {}


def log_schema(info: Any) -> Mapping[str, Any]:
    """The schema of a whole log document of ``info``'s game (a ``GameInfo``): its header's
    keys and its entries, and no other key."""
    schema = _LOG_SCHEMAS.get(info.game_id)
    if schema is None:
        header = info.header_schema
        entry = info.entry_schema
        properties = {
            **header.get("properties", {}),
            info.entries_key: {"type": "array", "items": _without_defs(entry)},
        }
        schema = {
            "type": "object",
            "properties": properties,
            "$defs": {**header.get("$defs", {}), **entry.get("$defs", {})},
        }
        _LOG_SCHEMAS[info.game_id] = schema
    return schema


def _without_defs(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k not in ("$defs", "$schema")}
