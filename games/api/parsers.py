"""A JSON parser with a size limit (DRF reads the body as a stream, so Django's own
DATA_UPLOAD_MAX_MEMORY_SIZE never applies to JSON) that refuses, for every route, what no
database or encoder stores whole: the safety half of ``games.records.stored_json``'s gate (integers
past 64 bits, lone surrogates, NUL, nesting past ``MAX_DEPTH``), with the path of what it
refused. Lengths are each route's own to bound."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.parsers import JSONParser

from games.api.exceptions import PayloadTooLarge
from games.records import stored_json

MAX_DEPTH = stored_json.MAX_DEPTH
# Lengths are bounded by the body's size here; each route bounds its own fields.
_SAFETY_ONLY = stored_json.Limits(max_string=2**62, max_items=2**62, max_depth=MAX_DEPTH)


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
        too_large = _("The request body is over %(limit)s bytes.")
        if declared and str(declared).isdigit() and int(declared) > limit:
            raise PayloadTooLarge(too_large % {"limit": limit})
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise PayloadTooLarge(too_large % {"limit": limit})
        try:
            data = super().parse(io.BytesIO(body), media_type, parser_context)
        except RecursionError as exc:  # nested past what the decoder follows
            raise stored_json.JsonRefused(
                "too_deep",
                _("nested more than %(depth)s levels deep") % {"depth": MAX_DEPTH},
                path="",
            ) from exc
        stored_json.check(data, limits=_SAFETY_ONLY)
        return data
