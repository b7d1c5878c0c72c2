"""Which language a request is answered in: one place for every page and the API.

- The API (``/api/``): the request's ``Accept-Language`` only, English without it. Codes, field
  names and log formats never change; only the human ``message`` texts follow the header.
- The pages: the signed-in user's language setting, else the language chosen with the switcher
  (a cookie, so it works before signing in), else the browser's ``Accept-Language``, else
  English.

Every answer says its language (``Content-Language``) and that it varies with the header and
the cookie, for caches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext_noop, ngettext, trans_real

from games.records.models import UserSettings

API_PREFIX = "/api/"
# The rules engine's files for the browser (games/web/engine_files.py) are the same for every
# reader in every language: no language is chosen for them, so no session is read and no Vary
# added, which would have a browser download 13 MB again after a sign-in or a language switch.
SAME_FOR_EVERYONE_PREFIX = "/engine/"

# Month and day names as a date writes them ("martedì 3 novembre 2026"): Django's own
# catalogues capitalise them in Italian and Portuguese, where they are lowercase; the project's
# catalogues (read after Django's, so they win) say them again for the date filter's "F" and "l".
MONTH_NAMES = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
DAY_NAMES = (
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
)


def _django_words_missing_upstream() -> None:
    """Never called: marks Django's words its catalogues lack in a language, for the project's
    catalogues to say. Django 5.2's Italian catalogue has the password validator's "too short"
    only in an older wording (``%(min_length)d``), so the sign-up and password pages said it
    in English."""
    ngettext(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        8,
    )


def supported(code: str | None) -> str | None:
    """``code`` as one of the site's languages ("pt-BR" and "pt" are pt-br), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def from_header(request: HttpRequest) -> str | None:
    """The first language of ``Accept-Language`` the site speaks, by the client's weights."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _weight in trans_real.parse_accept_lang_header(header):
        if code == "*":
            break
        found = supported(code)
        if found:
            return found
    return None


def user_language(request: HttpRequest) -> str | None:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    language = UserSettings.objects.filter(user=user).values_list("language", flat=True).first()
    return supported(language)


def for_request(request: HttpRequest) -> str:
    if request.path.startswith(API_PREFIX):
        return from_header(request) or settings.LANGUAGE_CODE
    return (
        user_language(request)
        or supported(request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME))
        or from_header(request)
        or settings.LANGUAGE_CODE
    )


class LanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith(SAME_FOR_EVERYONE_PREFIX):
            translation.activate(settings.LANGUAGE_CODE)
            return self.get_response(request)
        language = for_request(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
        response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", language)
        return response


# --- The API's documentation ----------------------------------------------------------------

ACCEPT_LANGUAGE_PARAMETER = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "description": (
        "The language of the human `message` of an error: "
        + ", ".join(f"`{code}` ({name})" for code, name in settings.LANGUAGES)
        + "; English without the header or for a language not listed. Codes, field names, "
        "enum values and log formats are the same in every language. The answer's "
        "`Content-Language` header says which was used."
    ),
    "schema": {"type": "string", "example": "it"},
}


def document_accept_language(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation takes ``Accept-Language``."""
    for path_item in result.get("paths", {}).values():
        for method, operation in path_item.items():
            if method in {"get", "put", "patch", "post", "delete", "head", "options"}:
                parameters = operation.setdefault("parameters", [])
                if not any(p.get("name") == "Accept-Language" for p in parameters):
                    parameters.append(dict(ACCEPT_LANGUAGE_PARAMETER))
    return result
