"""The archive's format, shared by the export and the restore: its kinds of record, in
order, and each record as one line of JSON that reads back to the very value stored."""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

ARCHIVE_FORMAT = "potdevin-archive/1"
# The records, in the archive's order.
KINDS = (
    "user",
    "club",
    "membership",
    "invitation",
    "player",
    "board_game",
    "edition",
    "game",
    "event",
    "source_ref",
    "play_source",
    "job",
    "idempotency_key",
)
# The kinds an older archive's trailer may not count: it was written before they existed.
LATER_KINDS = (
    "club",
    "membership",
    "invitation",
    "event",
    "board_game",
    "source_ref",
    "play_source",
    "idempotency_key",
)
CHUNK = 500  # games read (or rows written) at a time


class ArchiveError(Exception):
    """A record that cannot be archived, or an archive that cannot be restored here (in which
    case nothing was written)."""


def _encode(record: dict[str, Any]) -> bytes:
    """``record`` as one line of JSON (without its newline) that reads back as an equal value:
    orjson's when it writes one, else the standard library's. Raises ``ValueError`` or
    ``TypeError`` for a value neither writes faithfully (an infinite float, say)."""
    try:
        line = orjson.dumps(record)
        if orjson.loads(line) == record:  # orjson writes NaN and infinities as null
            return line
    except orjson.JSONEncodeError:  # an integer beyond 64 bits, a lone surrogate
        pass
    text = json.dumps(record, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    line = text.encode("ascii")
    if _decode(line) != record:
        raise ValueError("its JSON does not read back as the stored value")
    return line


_LONG_NUMBER = re.compile(rb"\d{19}")  # orjson reads an integer beyond 64 bits as a float


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number out of range: {text}")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _decode(line: bytes) -> Any:
    """One archive line's value, as ``json.loads`` reads it (orjson when that is the same)."""
    if _LONG_NUMBER.search(line) is None:
        try:
            return orjson.loads(line)
        except orjson.JSONDecodeError:
            pass  # a lone surrogate's escape, or not JSON at all: json tells
    return json.loads(line, parse_float=_finite, parse_constant=_refuse_constant)


def _named(record: dict[str, Any]) -> str:
    """How a message names a record: its kind and id (a user by name, an edition by key)."""
    kind = record.get("kind")
    if kind is None:
        return "the header"
    if "id" in record:
        return f"{kind} id {record['id']}"
    if kind == "user":
        return f"user {record['username']!r}"
    return f"{kind} {record.get('game_type')}/{record.get('key')}"
