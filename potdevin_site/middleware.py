"""Every answer under ``/api/`` is JSON with a ``code``, whatever went wrong and wherever: an
error raised outside a DRF view (a middleware, the database gone before the view ran), a page
Django renders itself (a bad host, a CSRF failure, a 404 with DEBUG on), a 500 with DEBUG on.
DRF's own errors are shaped by ``potdevin_site.exceptions``; this catches the rest."""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

from potdevin_site.error_bodies import body as error_body
from potdevin_site.error_bodies import internal_error, logger, out_of_range, unavailable

API_PREFIX = "/api/"


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _client_error(status: int) -> dict[str, Any]:
    """``bad_request``, ``not_found``, ... from the status's own phrase."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    return error_body(phrase.lower().replace(" ", "_").replace("-", "_"), f"{phrase}.")


class ApiJsonErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
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
