"""A JSON parser with a size limit: DRF reads the body as a stream, so Django's own
DATA_UPLOAD_MAX_MEMORY_SIZE never applies to JSON."""

from __future__ import annotations

import io
import re
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from potdevin_site.exceptions import PayloadTooLarge

MAX_DEPTH = 32  # a game log is 5 levels deep; deeper is an attack or a mistake

# A NUL character can only come escaped in JSON (\u0000 after an even run of backslashes).
# PostgreSQL stores none, in text or jsonb: refused here rather than as a 500 at the database.
_NUL_ESCAPE = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")


class LimitedJSONParser(JSONParser):
    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.POTDEVIN_MAX_BODY_BYTES
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and str(declared).isdigit() and int(declared) > limit:
            raise PayloadTooLarge(f"The request body is over {limit} bytes.")
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise PayloadTooLarge(f"The request body is over {limit} bytes.")
        if _NUL_ESCAPE.search(body):
            raise ParseError("JSON strings here cannot hold the NUL character (\\u0000).")
        try:
            data = super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError as exc:  # nested past what the decoder follows
            raise ParseError(f"JSON nested more than {MAX_DEPTH} levels deep.") from exc
        if _deeper_than(data, MAX_DEPTH):
            raise ParseError(f"JSON nested more than {MAX_DEPTH} levels deep.")
        return data


def _deeper_than(data: Any, limit: int) -> bool:
    """Whether ``data`` nests lists and objects more than ``limit`` levels (iteratively: a
    recursive walk is what a deep document attacks)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False
