"""orjson's names the project uses, on the standard library's json, for Pyodide (orjson is a
C extension without a wheel in the npm package). Only what the pages' code paths touch is
faithful: ``dumps`` gives compact UTF-8 bytes like orjson, ``loads`` takes bytes or str.
Options are accepted and, where they change the output, followed (sorted keys, non-string
keys); the passthrough options fall back to ``default``, as orjson's do."""

from __future__ import annotations

import json
import math
from typing import Any

OPT_APPEND_NEWLINE = 1 << 0
OPT_INDENT_2 = 1 << 1
OPT_NAIVE_UTC = 1 << 2
OPT_NON_STR_KEYS = 1 << 3
OPT_OMIT_MICROSECONDS = 1 << 4
OPT_PASSTHROUGH_DATACLASS = 1 << 5
OPT_PASSTHROUGH_DATETIME = 1 << 6
OPT_PASSTHROUGH_SUBCLASS = 1 << 7
OPT_SERIALIZE_DATACLASS = 0
OPT_SERIALIZE_NUMPY = 1 << 8
OPT_SERIALIZE_UUID = 0
OPT_SORT_KEYS = 1 << 9
OPT_STRICT_INTEGER = 1 << 10
OPT_UTC_Z = 1 << 11

JSONDecodeError = json.JSONDecodeError


class JSONEncodeError(TypeError):
    """orjson's: a TypeError."""


class Fragment:
    """Pre-serialised JSON (orjson.Fragment)."""

    def __init__(self, contents: bytes | str) -> None:
        self.contents = contents


def _walked(value: Any, option: int) -> Any:
    """``value`` as orjson sees it: keys checked (or made strings with OPT_NON_STR_KEYS),
    integers bounded (53 bits with OPT_STRICT_INTEGER, else 64), NaN and infinities as null."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if not isinstance(key, str):
                if not option & OPT_NON_STR_KEYS:
                    raise JSONEncodeError("Dict key must be str")
                key = json.dumps(key) if not isinstance(key, (int, float, bool)) else str(key)
                key = key.lower() if key in ("True", "False") else key
            out[key] = _walked(item, option)
        return out
    if isinstance(value, list | tuple):
        return [_walked(item, option) for item in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        bound = 2**53 - 1 if option & OPT_STRICT_INTEGER else 2**64 - 1
        low = -(2**53 - 1) if option & OPT_STRICT_INTEGER else -(2**63)
        if not low <= value <= bound:
            raise JSONEncodeError(
                "Integer exceeds 53-bit range" if bound < 2**60 else "Integer exceeds 64-bit range"
            )
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return value


def dumps(value: Any, default: Any = None, option: int | None = None) -> bytes:
    """Compact UTF-8 JSON bytes, as orjson gives."""
    option = option or 0
    value = _walked(value, option)
    try:
        text = json.dumps(
            value,
            default=default,
            ensure_ascii=False,
            allow_nan=False,
            separators=(",", ":") if not option & OPT_INDENT_2 else (",", ": "),
            indent=2 if option & OPT_INDENT_2 else None,
            sort_keys=bool(option & OPT_SORT_KEYS),
        )
    except (TypeError, ValueError) as exc:
        raise JSONEncodeError(str(exc)) from exc
    if option & OPT_APPEND_NEWLINE:
        text += "\n"
    return text.encode()


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """JSON text (bytes or str) to Python."""
    if isinstance(data, bytes | bytearray | memoryview):
        data = bytes(data).decode()
    return json.loads(data)
