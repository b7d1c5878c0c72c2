"""The API's one exception handler: every error is JSON with a stable ``code`` and a human
``message``, plus ``round`` and ``seat`` where they apply (``turn`` too in a game played turn by
turn, ``index`` for an import's document, ``fields`` for form errors)."""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import DataError, InterfaceError, OperationalError
from django.db.models import ProtectedError
from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler

from games.api.error_bodies import body, internal_error, logger, out_of_range, unavailable
from games.records.errors import Forbidden, GameConflict, RecordError
from games.records.i18n import engine_message
from scoring.engine import LogError
from scoring.jobs import CannotResume, QueueUnavailable


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "payload_too_large"


def _server_side(exc: Exception) -> Response | None:
    """Errors no view handles: a number the database cannot hold (the client's: 400), the
    database gone (503, retried by the client), anything else (500, logged). Always JSON,
    whatever DEBUG says."""
    if isinstance(exc, OverflowError) or (
        isinstance(exc, DataError) and "out of range" in str(exc)
    ):
        return Response(out_of_range(), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, OperationalError | InterfaceError):
        logger.warning("database unavailable: %s", exc)
        return Response(unavailable(), status=status.HTTP_503_SERVICE_UNAVAILABLE)
    logger.error("unhandled API error", exc_info=exc)
    return Response(internal_error(), status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, LogError):
        refused = exc.as_dict()
        refused["message"] = engine_message(exc)  # in the reader's language; codes as they are
        return Response(refused, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, RecordError):
        code = (
            status.HTTP_409_CONFLICT
            if isinstance(exc, GameConflict)
            else status.HTTP_403_FORBIDDEN
            if isinstance(exc, Forbidden)
            else status.HTTP_400_BAD_REQUEST
        )
        shown = exc.as_dict()
        cause = exc.__cause__
        if isinstance(cause, LogError) and cause.turn is not None:  # an import's engine error
            shown["turn"] = cause.turn
        return Response(shown, status=code)
    if isinstance(exc, ProtectedError):
        return Response(
            body("in_use", _("it is used by stored games and cannot be deleted")),
            status=status.HTTP_409_CONFLICT,
        )
    if isinstance(exc, QueueUnavailable):
        return Response(
            body("queue_unavailable", _("The job queue cannot be reached; try again later.")),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
    if isinstance(exc, CannotResume):
        return Response(body(exc.code, exc.message), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    # DRF turns these two Django exceptions into responses too, but keeps them out of the
    # APIException branch below: without this their body would be {"detail": ...}.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(_not_found(exc))
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = exception_handler(exc, context)
    if response is None:
        return _server_side(exc)
    if not isinstance(exc, exceptions.APIException):
        return response
    if isinstance(exc, exceptions.ValidationError):
        fields = _plain(exc.detail)
        gate = _gate_refusal(exc.detail)
        if gate is None:
            response.data = body(
                "invalid", _("The request is not valid: see fields."), fields=fields
            )
        else:
            code, message, path = gate
            response.data = body(code, f"{path}: {message}", path=path, fields=fields)
    else:
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else exc.default_code
        extra = {"wait": exc.wait} if isinstance(exc, exceptions.Throttled) else {}
        response.data = body(str(code), str(exc.detail), **extra)
    return response


# Django's 404 of a record looked up (get_object_or_404), in the reader's language: one sentence
# per kind of record the API looks up; another keeps Django's English.
_NOT_FOUND = {
    "Game": gettext_lazy("No Game matches the given query."),
    "Player": gettext_lazy("No Player matches the given query."),
    "Edition": gettext_lazy("No Edition matches the given query."),
    "Round": gettext_lazy("No Round matches the given query."),
    "Job": gettext_lazy("No Job matches the given query."),
}
_DJANGO_NOT_FOUND = re.compile(r"No (\w+) matches the given query\.")


def _not_found(exc: Http404) -> str | None:
    text = str(exc)
    match = _DJANGO_NOT_FOUND.fullmatch(text)
    if match is not None and match.group(1) in _NOT_FOUND:
        return str(_NOT_FOUND[match.group(1)])
    return text or None


# A field's error that is one of the stored-data gate's refusals (games/stored_json.py) has the
# gate's code, whichever route refused it: a name or a note too long is `too_long` on a form
# route as in an import.
_GATE_CODES = {
    "too_long": "too_long",
    "max_length": "too_long",
    "invalid_text": "invalid_text",
    "null_characters_not_allowed": "invalid_text",
    "surrogate_characters_not_allowed": "invalid_text",
    "blank_name": "blank_name",
}


def _gate_refusal(detail: Any) -> tuple[str, str, str] | None:
    """The gate's code, message and path when ``detail`` holds exactly one error and it is one
    of the gate's refusals; None otherwise (the request gets `invalid`)."""
    leaves: list[tuple[str, exceptions.ErrorDetail]] = []
    stack: list[tuple[str, Any]] = [("", detail)]
    while stack and len(leaves) < 2:
        path, node = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                if key == api_settings.NON_FIELD_ERRORS_KEY:
                    step = ""
                elif isinstance(key, int) or str(key).isdigit():
                    step = f"[{key}]"
                else:
                    step = f".{key}"
                stack.append((f"{path}{step}".lstrip("."), child))
        elif isinstance(node, list):
            stack.extend((path, child) for child in node)
        elif isinstance(node, exceptions.ErrorDetail):
            leaves.append((path, node))
    if len(leaves) != 1:
        return None
    path, error = leaves[0]
    code = _GATE_CODES.get(str(error.code))
    return None if code is None or not path else (code, str(error), path)


def _plain(detail: Any) -> Any:
    """DRF's error details as plain lists and dicts of strings."""
    if isinstance(detail, dict):
        return {str(k): _plain(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_plain(v) for v in detail]
    return str(detail)
