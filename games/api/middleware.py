"""Every answer under ``/api/`` is JSON with a ``code``, whatever went wrong and wherever: an
error raised outside a DRF view (a middleware, the database gone before the view ran), a page
Django renders itself (a bad host, a CSRF failure, a 404 with DEBUG on), a 500 with DEBUG on.
DRF's own errors are shaped by ``games.api.exceptions``; this catches the rest."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext_lazy

from games.api import language
from games.api.error_bodies import body as error_body
from games.api.error_bodies import internal_error, logger, out_of_range, unavailable

API_PREFIX = "/api/"


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


# The statuses Django answers itself under /api/, said in the reader's language.
STATUS_MESSAGES = {
    400: gettext_lazy("Bad request."),
    403: gettext_lazy("Forbidden."),
    404: gettext_lazy("Not found."),
    405: gettext_lazy("Method not allowed."),
    413: gettext_lazy("The request body is too large."),
}


def _client_error(status: int) -> dict[str, Any]:
    """``bad_request``, ``not_found``, ... from the status's own phrase."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    message = str(STATUS_MESSAGES.get(status, f"{phrase}."))
    return error_body(phrase.lower().replace(" ", "_").replace("-", "_"), message)


class ApiJsonErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Every request starts in its own language (language.py; the user's setting is read
        # once the user is known), never in the one a previous request left on this thread.
        translation.activate(language.for_request(request))
        response = self.get_response(request)
        if not _is_api(request) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        # A page Django rendered itself (HTML): the same error, as the API's JSON.
        status = response.status_code
        body = internal_error() if status >= 500 else _client_error(status)
        json = JsonResponse(body, status=status)
        for header in ("Retry-After", "Allow", "WWW-Authenticate"):
            if header in response:
                json[header] = response[header]
        return json

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if not _is_api(request):
            return None
        if isinstance(exc, OverflowError):
            return JsonResponse(out_of_range(), status=400)
        if isinstance(exc, OperationalError | InterfaceError):
            logger.warning("database unavailable: %s", exc)
            return JsonResponse(unavailable(), status=503)
        logger.error("unhandled API error", exc_info=exc)
        return JsonResponse(internal_error(), status=500)
