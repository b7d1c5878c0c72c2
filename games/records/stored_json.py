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
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.records.errors import RecordError

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
        super().__init__(code, f"{path}: {message}" if path else message, index=index)
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
        raise JsonRefused("invalid_text", _("text cannot hold the NUL character"), path=path)
    if _has_surrogate(value):
        raise JsonRefused(
            "invalid_text",
            _("text holds a lone surrogate, which is not a character"),
            path=path,
        )
    if max_length is not None and len(value) > max_length:
        raise JsonRefused(
            "too_long",
            _("text is %(length)s characters; at most %(most)s")
            % {"length": len(value), "most": max_length},
            path=path,
        )


def check(value: Any, *, path: str = "", limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse what no database or encoder stores whole (see the module's docstring). Object keys
    are checked like strings. Raises ``JsonRefused``."""
    if not _is_clean(value, limits):
        _refuse(value, path, limits)


_INFINITIES = (float("inf"), float("-inf"))


def _is_clean(value: Any, limits: Limits) -> bool:
    """Whether ``value`` passes ``check``, fast: one walk without paths, and every string (keys
    too) checked at once. Stores, reads and imports all pass through here."""
    if type(value) is not dict and type(value) is not list:
        value = [value]
    strings: list[Any] = []
    stack: list[tuple[Any, int]] = [(value, 1)]
    max_depth, max_items = limits.max_depth, limits.max_items
    while stack:
        container, depth = stack.pop()
        if depth > max_depth or len(container) > max_items:
            return False
        if type(container) is dict:
            strings.extend(container)
            children = container.values()
        else:
            children = container
        for child in children:
            kind = type(child)
            if kind is str:
                strings.append(child)
            elif kind is int:
                if child > INT_MAX or child < INT_MIN:
                    return False
            elif kind is dict or kind is list:
                stack.append((child, depth + 1))
            elif kind is float:
                if child != child or child in _INFINITIES:
                    return False
            elif child is not None and kind is not bool:
                return False
    if not strings:
        return True
    try:
        joined = "\x01".join(strings)  # a TypeError for a key that is no string
        joined.encode("utf-8")  # a UnicodeEncodeError for a lone surrogate
    except (TypeError, UnicodeEncodeError):
        return False
    return "\x00" not in joined and max(map(len, strings)) <= limits.max_string


def _refuse(value: Any, path: str, limits: Limits) -> None:
    """Find what ``_is_clean`` did not take, and raise its ``JsonRefused`` with the path."""
    stack: list[tuple[Any, str, int]] = [(value, path, 1)]
    while stack:
        item, where, depth = stack.pop()
        kind = type(item)
        if kind is str:
            check_text(item, path=where, max_length=limits.max_string)
        elif kind is int:
            if not INT_MIN <= item <= INT_MAX:
                raise JsonRefused(
                    "out_of_range", _("a number outside the signed 64-bit range"), path=where
                )
        elif kind is dict or kind is list:
            if depth > limits.max_depth:
                raise JsonRefused(
                    "too_deep",
                    _("nested more than %(depth)s levels deep") % {"depth": limits.max_depth},
                    path=where,
                )
            if len(item) > limits.max_items:
                raise JsonRefused(
                    "too_long",
                    _("%(count)s items; at most %(most)s")
                    % {"count": len(item), "most": limits.max_items},
                    path=where,
                )
            if kind is dict:
                for key, child in item.items():
                    child_path = join_path(where, str(key))
                    check_text(str(key), path=child_path, max_length=limits.max_string)
                    stack.append((child, child_path, depth + 1))
            else:
                stack.extend((c, join_path(where, i), depth + 1) for i, c in enumerate(item))
        elif kind is float:
            if item != item or item in _INFINITIES:
                raise JsonRefused("out_of_range", _("a number JSON cannot write"), path=where)
        elif item is not None and kind is not bool:
            raise JsonRefused(
                "malformed",
                _("%(type)s is not a JSON value") % {"type": kind.__name__},
                path=where,
            )


# --- keys a format does not define --------------------------------------------------------


def prune(value: Any, schema: Mapping[str, Any], *, root: Mapping[str, Any] | None = None) -> Any:
    """``value`` without the object keys ``schema`` does not define (``value`` is not changed:
    every object that may lose keys is a new one; the rest is shared). What the schema cannot
    place (a value of the wrong shape) is kept as it is, for the engine to refuse with its own
    code. ``$ref`` resolves in ``root`` (by default ``schema`` itself)."""
    pruner = _pruner(schema, schema if root is None else root)
    return value if pruner is None else pruner(value)


Pruner = Callable[[Any], Any] | None  # None: the value is kept as it is
# Compiled once per schema: the schemas are the engines' constants, read on every store.
_PRUNERS: dict[tuple[int, int], tuple[Mapping[str, Any], Mapping[str, Any], Pruner]] = {}


def _pruner(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Pruner:
    key = (id(schema), id(root))
    cached = _PRUNERS.get(key)
    if cached is None or cached[0] is not schema or cached[1] is not root:
        cached = (schema, root, _Compiler(root).compile(schema))
        _PRUNERS[key] = cached
    return cached[2]


class _Compiler:
    """Turns a JSON Schema into a function that prunes values of it: the schema is read once,
    not at every value (``$ref`` resolved, branches and key sets prepared)."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.done: dict[int, Pruner] = {}

    def resolve(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        while "$ref" in schema:
            ref = schema["$ref"]
            assert ref.startswith("#/"), ref  # the engines' schemas are self-contained
            target: Any = self.root
            for part in ref[2:].split("/"):
                target = target[part]
            schema = target
        return schema

    def compile(self, schema: Mapping[str, Any]) -> Pruner:
        schema = self.resolve(schema)
        key = id(schema)
        if key not in self.done:
            self.done[key] = None  # a schema that refers to itself keeps what it nests
            self.done[key] = self.build(schema)
        return self.done[key]

    def build(self, schema: Mapping[str, Any]) -> Pruner:
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches:
            return self.any_of([self.resolve(b) for b in branches])
        if "properties" in schema or "additionalProperties" in schema:
            return self.object([schema])
        items = schema.get("items")
        if isinstance(items, Mapping):
            each = self.compile(items)
            if each is None:
                return None
            return lambda v: [each(x) for x in v] if type(v) is list else v
        return None

    def object(self, schemas: list[Mapping[str, Any]]) -> Pruner:
        """Keep a key any of ``schemas`` defines (pruned by the first that does); an unknown
        key as the first schema with a word on others says."""
        defined: dict[str, Pruner] = {}
        for schema in schemas:
            for key, sub in schema.get("properties", {}).items():
                if key not in defined:
                    defined[key] = self.compile(sub)
        keep_others, others = False, None
        for schema in schemas:
            # Unsaid, an object with named properties has no others; one without is open.
            extra = schema.get("additionalProperties", "properties" not in schema)
            if extra is False and "additionalProperties" in schema:
                keep_others = True  # the format refuses them: kept for the engine's own code
                break
            if isinstance(extra, Mapping):
                keep_others, others = True, self.compile(extra)  # keys the engine checks
                break
            if extra is True:
                keep_others = True
                break
        if keep_others and others is None and all(f is None for f in defined.values()):
            return None
        nested = [(key, each) for key, each in defined.items() if each is not None]
        names = frozenset(defined)

        def run(value: Any) -> Any:
            if type(value) is not dict:
                return value
            # Copied whole or filtered by the dict's own code, then the few keys with a
            # schema of their own pruned in place: most objects of a log lose nothing.
            if keep_others or value.keys() <= names:
                out = dict(value)
            else:
                out = {key: child for key, child in value.items() if key in names}
            for key, each in nested:
                if key in out:
                    out[key] = each(out[key])
            if others is not None:
                for key in out.keys() - names:
                    out[key] = others(out[key])
            return out

        return run

    def any_of(self, branches: list[Mapping[str, Any]]) -> Pruner:
        # A null branch keeps a null; a value another branch does not fit is kept whole anyway.
        branches = [b for b in branches if b.get("type") != "null"]
        if len(branches) == 1:
            return self.compile(branches[0])
        tests = list(enumerate(_fits(b) for b in branches))
        # Objects only, told apart by their required keys: tested without a call each.
        required = None
        if all(b.get("type") == "object" for b in branches):
            required = list(enumerate(frozenset(b.get("required", ())) for b in branches))
        pruners = [self.compile(b) for b in branches]
        unions: dict[tuple[int, ...], Pruner] = {}

        def run(value: Any) -> Any:
            # Run for every step of every entry (hundreds in a Bruges log): no call per branch.
            if required is None:
                fitting = tuple([i for i, fits in tests if fits(value)])
            elif type(value) is dict:
                keys = value.keys()
                fitting = tuple([i for i, r in required if keys >= r])
            else:
                return value
            if not fitting:
                return value
            if len(fitting) == 1 or type(value) is not dict:
                chosen = pruners[fitting[0]]
            else:  # an object several branches take: what any of them defines is kept
                if fitting not in unions:
                    unions[fitting] = self.object([branches[i] for i in fitting])
                chosen = unions[fitting]
            return value if chosen is None else chosen(value)

        return run


def _fits(schema: Mapping[str, Any]) -> Callable[[Any], bool]:
    """A shallow match, enough to choose among an ``anyOf``'s branches: a constant, the JSON
    type, and the required keys of an object."""
    if "const" in schema:
        constant = schema["const"]
        return lambda v: bool(v == constant)
    if "enum" in schema:
        values = list(schema["enum"])
        return lambda v: v in values
    types = schema.get("type")
    allowed: set[str] | None = None
    if types is not None:
        allowed = {types} if isinstance(types, str) else set(types)
        if "number" in allowed:
            allowed.add("integer")
    required = tuple(schema.get("required", ()))

    def fits(value: Any) -> bool:
        if allowed is not None and _JSON_TYPES.get(type(value)) not in allowed:
            return False
        return not (required and type(value) is dict and not all(k in value for k in required))

    return fits


_JSON_TYPES: dict[type, str] = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


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
