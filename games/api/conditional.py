"""Conditional reads of a game (RFC 9110, section 13): an ``ETag`` made of the game's version
(``selectors.version_of``), and ``If-None-Match`` answered 304 before anything else is read,
so that a phone following an unchanged game costs one small query. One format for the API and
the pages:

- the API's reads of a game (``/api/games/{id}/``, its entries, its log, its version):
  ``"g<id>-v<version>"``, strong: the JSON is the same byte for byte while the game is;
- a game's page as ``static/js/live.js`` follows it: ``W/"g<id>-v<version>-<language>"``
  (``-shared`` added for its share link's page), weak: a page carries a fresh CSRF token each
  time, so it is the same page, not the same bytes.
"""

from __future__ import annotations

from typing import TypeVar

from django.http import HttpRequest, HttpResponse

Answer = TypeVar("Answer", bound=HttpResponse)

# Reads of a game are one reader's (a club's, a share link's) and are asked again each time.
CACHE_CONTROL = "private, no-cache"


def etag(game_id: int, version: int, *variant: str, weak: bool = False) -> str:
    tag = "-".join([f"g{game_id}", f"v{version}", *variant])
    return f'W/"{tag}"' if weak else f'"{tag}"'


def unchanged(request: HttpRequest, current: str) -> bool:
    """Whether ``If-None-Match`` names ``current`` (or is ``*``), compared weakly as RFC 9110
    says for this header (``W/`` or not, the same tag). Anything else names nothing."""
    header = (request.headers.get("If-None-Match") or "").strip()
    if header == "*":
        return True
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return current.removeprefix("W/") in tags


def tagged(response: Answer, current: str) -> Answer:
    """``response`` with the game's ``ETag``, to be asked again each time."""
    response["ETag"] = current
    response["Cache-Control"] = CACHE_CONTROL
    return response
