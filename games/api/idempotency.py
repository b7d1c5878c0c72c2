"""Exactly-once writes, for the API and the pages alike: one middleware.

A write carries a key: the API's ``Idempotency-Key`` header (the IETF httpapi draft), a page's
hidden ``idempotency_key`` field (``{% idempotency_field %}``, made once per rendered form). The
first request with a key is run and its answer kept (``games.records.idempotency``); the same
key and request again get that answer again, marked ``Idempotent-Replayed: true``, and write
nothing. So a Save whose answer was lost, tapped again or sent again from a phone's queue, is
saved once and says "saved" once.

- The API: the same key with another request (method, address or body) is 422
  ``idempotency_key_reused``; a key whose first request is still running is 409
  ``idempotency_key_in_use``; a malformed key is 400 ``idempotency_key_invalid``. Answers kept:
  every one below 500 but those that may change by themselves (401, 403, 408, 409, 423, 425,
  429); a 5xx or an exception forgets the claim, so a retry runs again.
- The pages: a double tap waits for the first tap's answer instead of a 409; the same form key
  with other fields (Back, changed, sent again) is a new entry and runs as any post does; only
  redirects are kept (a refusal comes back as a page and is checked again when sent again), with
  the page's notices ("Round 4 saved: ..."), shown again with the answer, while the game is as
  that answer left it (sent again after other changes, the form is checked as any post is).

Requests without a key, reads, and anonymous requests pass through untouched.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.settings import api_settings

from games.api.error_bodies import body as error_body
from games.records import access
from games.records import idempotency as keys
from games.records.models import IdempotencyKey

HEADER = "HTTP_IDEMPOTENCY_KEY"
FIELD = "idempotency_key"
REPLAYED = "Idempotent-Replayed"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Visible ASCII without spaces (a header's value loses its outer spaces on the way), and a
# length the column holds.
KEY = re.compile(r"[\x21-\x7e]{1,255}")
# Fields a page's form sends that are not the entry: the CSRF token changes with each render.
NOT_THE_REQUEST = frozenset({"csrfmiddlewaretoken", FIELD})
# Answers that may change by themselves: never kept.
TRANSIENT = frozenset({401, 403, 408, 409, 423, 425, 429})
# How long a page's second tap waits for the first tap's answer.
PAGE_WAIT_SECONDS = 10.0
API_PREFIX = "/api/"
FORM = "application/x-www-form-urlencoded"


IDEMPOTENCY_KEY_PARAMETER = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[\\x21-\\x7e]+$"},
    "description": (
        "Makes the write exactly once: sent again with the same key and body, it is answered "
        "with the first answer (Idempotent-Replayed: true) and writes nothing; with another "
        "body, 422 idempotency_key_reused; while the first is being answered, 409 "
        "idempotency_key_in_use. Keys are the user's own, kept 30 days."
    ),
}


ERROR_RESPONSE = {
    "description": "",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def document_idempotency_key(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every write takes ``Idempotency-Key``."""
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method.upper() in WRITES:
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == "Idempotency-Key" for p in parameters):
                    parameters.append(dict(IDEMPOTENCY_KEY_PARAMETER))
                responses = operation.setdefault("responses", {})
                for status in ("400", "409", "422"):  # a malformed key, in use, reused
                    responses.setdefault(status, dict(ERROR_RESPONSE))
    return result


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def _key(request: HttpRequest) -> str | None:
    """The key sent, or None; "" for one that is not a key."""
    raw = request.META.get(HEADER)
    if raw is None and not _is_api(request) and (_is_form(request) or _is_upload(request)):
        raw = request.POST.get(FIELD)
    if raw is None:
        return None
    return raw if KEY.fullmatch(raw) else ""


def _is_form(request: HttpRequest) -> bool:
    return request.content_type == FORM


def _is_upload(request: HttpRequest) -> bool:
    return request.content_type == "multipart/form-data"


def _fingerprint(request: HttpRequest) -> str:
    """The request as a SHA-256 of its method, address and body (a form's fields in order,
    without its CSRF token and key; any other body byte for byte)."""
    digest = hashlib.sha256()
    digest.update(f"{request.method}\n{request.get_full_path()}\n".encode())
    if _is_form(request):
        fields = parse_qsl(request.body.decode("latin-1"), keep_blank_values=True)
        for name, value in fields:
            if name not in NOT_THE_REQUEST:
                digest.update(
                    f"{len(name)}:{name}={len(value)}:{value}\n".encode("utf-8", "replace")
                )
    elif _is_upload(request):  # never read whole into memory
        for name, values in sorted(request.POST.lists()):
            if name not in NOT_THE_REQUEST:
                digest.update(f"{name}={values!r}\n".encode("utf-8", "surrogatepass"))
        for name, files in sorted(request.FILES.lists()):
            for upload in files:
                digest.update(f"{name}:{upload.name}:{upload.size}\n".encode("utf-8", "replace"))
                for chunk in upload.chunks():
                    digest.update(chunk)
                upload.seek(0)
    else:
        digest.update(request.content_type.encode("latin-1", "replace") + b"\n")
        digest.update(request.body)
    return digest.hexdigest()


def _user(request: HttpRequest) -> Any:
    """Who sends the request: the session's user, or the API's token (read as the API's views
    will; a credential they will refuse gives None, and the view then answers)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return user
    if not _is_api(request):
        return None
    wrapped = Request(request)
    for authentication in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        try:
            found = authentication().authenticate(wrapped)
        except APIException:
            return None
        if found is not None:
            return found[0]
    return None


def _game(request: HttpRequest, user: Any) -> tuple[int | None, int | None]:
    """The game the address names (``/games/<pk>/...``) and its club, when the user sees it."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None, None
    pk = match.kwargs.get("pk")
    if not isinstance(pk, int) and not (isinstance(pk, str) and pk.isdigit() and len(pk) < 10):
        return None, None
    if "games" not in request.path_info.split("/"):
        return None, None
    club_id = access.games(user).filter(pk=int(pk)).values_list("club_id", flat=True).first()
    return (None, None) if club_id is None else (int(pk), club_id)


def _refused(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse(error_body(code, message), status=status)


def _replayed(request: HttpRequest, row: IdempotencyKey) -> HttpResponse:
    response: HttpResponse
    if row.location:
        response = HttpResponseRedirect(row.location, content=bytes(row.body))
        response.status_code = row.status
    else:
        response = HttpResponse(bytes(row.body), status=row.status)
    if row.content_type:
        response["Content-Type"] = row.content_type
    else:
        del response["Content-Type"]
    response[REPLAYED] = "true"
    for level, text, tags in row.notices:
        messages.add_message(request, level, text, extra_tags=tags)
    return response


def _notices(request: HttpRequest, before: int) -> list[list[Any]]:
    """The notices the request added (the messages framework queues them until the answer)."""
    queued = getattr(getattr(request, "_messages", None), "_queued_messages", [])
    return [[m.level, str(m.message), m.extra_tags or ""] for m in queued[before:]]


def _kept(request: HttpRequest, response: HttpResponse) -> bool:
    if response.streaming:
        return False
    if _is_api(request):
        return response.status_code < 500 and response.status_code not in TRANSIENT
    return 300 <= response.status_code < 400


class IdempotencyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method not in WRITES:
            return self.get_response(request)
        key = _key(request)
        if key is None:
            return self.get_response(request)
        if key == "":
            return _refused(
                "idempotency_key_invalid",
                _("The Idempotency-Key must be 1 to 255 visible ASCII characters, without spaces."),
                400,
            )
        user = _user(request)
        if user is None:
            return self.get_response(request)
        fingerprint = _fingerprint(request)
        game_id, club_id = _game(request, user)
        claim = keys.claim(user=user, key=key, fingerprint=fingerprint, club_id=club_id)
        if claim.outcome is keys.Outcome.IN_USE and not _is_api(request):
            claim = self._waited(user, key, fingerprint, claim)
        if claim.outcome is keys.Outcome.REPLAY and claim.row is not None:
            if not _is_api(request) and not keys.still_as_answered(claim.row, game_id):
                # A page sent again after other changes to its game: checked as any post is.
                return self.get_response(request)
            return _replayed(request, claim.row)
        if claim.outcome is keys.Outcome.IN_USE:
            return _refused(
                "idempotency_key_in_use",
                _("A request with this Idempotency-Key is still being answered; try again."),
                409,
            )
        if claim.outcome is keys.Outcome.OTHER_REQUEST:
            if not _is_api(request):  # a page's form sent again with other fields
                return self.get_response(request)
            return _refused(
                "idempotency_key_reused",
                _("This Idempotency-Key was used for another request."),
                422,
            )
        assert claim.row is not None
        return self._first(request, claim.row, None if _is_api(request) else game_id)

    def _first(
        self, request: HttpRequest, row: IdempotencyKey, game_id: int | None
    ) -> HttpResponse:
        queued = getattr(getattr(request, "_messages", None), "_queued_messages", [])
        before = len(queued)
        try:
            response = self.get_response(request)
        except BaseException:
            keys.released(row)
            raise
        if not _kept(request, response):
            keys.released(row)
            return response
        keys.answered(
            row,
            status=response.status_code,
            content_type=response.get("Content-Type", ""),
            location=response.get("Location", ""),
            body=response.content,
            notices=_notices(request, before),
            game_id=game_id,
        )
        return response

    @staticmethod
    def _waited(user: Any, key: str, fingerprint: str, claim: keys.Claim) -> keys.Claim:
        """A page's second tap: the first tap's answer once it is there."""
        deadline = time.monotonic() + PAGE_WAIT_SECONDS
        while claim.outcome is keys.Outcome.IN_USE and time.monotonic() < deadline:
            time.sleep(0.1)
            claim = keys.claim(user=user, key=key, fingerprint=fingerprint, club_id=None)
        return claim
