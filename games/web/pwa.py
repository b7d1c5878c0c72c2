"""The app as phones install it and open it offline: its web app manifest (in the page's
language) and its service worker (``templates/web/sw.js``), served from the site's root so that
its scope is every page.

The service worker's version is a digest of the static files and of itself: a deployment that
changes either is a new worker, which the browser installs beside the old one and activates
when it is ready (``static/js/offline.js`` keeps the entries waiting on the phone, in IndexedDB,
which no worker update touches)."""

from __future__ import annotations

import hashlib
import json
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

THEME = "#0b5394"  # --primary of static/css/app.css
OWN_STATIC = ("css/", "js/", "img/")


@cache
def _static_files() -> tuple[tuple[str, ...], str]:
    """Every static file's URL, and a digest of their contents (and of the worker itself)."""
    digest = hashlib.sha256()
    urls = []
    for finder in finders.get_finders():
        for path, storage in finder.list([]):
            if not path.startswith(OWN_STATIC):  # the admin's and the API docs' are not the app
                continue
            urls.append(static(path))
            with storage.open(path) as handle:
                digest.update(path.encode() + b"\0" + handle.read())
    template = get_template("web/sw.js").template.source  # type: ignore[attr-defined]
    digest.update(template.encode())
    return tuple(sorted(set(urls))), digest.hexdigest()[:16]


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: installable, standalone, opening at the home page."""
    response = JsonResponse(
        {
            "name": "potdevin",
            "short_name": "potdevin",
            "description": _("Scores of the games played at your table, kept by your club."),
            "lang": get_language(),
            "start_url": reverse("web:home"),
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME,
            "background_color": "#ffffff",
            "icons": [
                {
                    "src": static("img/icon.svg"),
                    "sizes": "any",
                    "type": "image/svg+xml",
                    "purpose": "any",
                }
            ],
        },
        content_type="application/manifest+json",
    )
    return response


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the root so that its scope is the whole site; never cached by
    the browser's HTTP cache, so an update is found at the next visit."""
    urls, version = _static_files()
    body = render_to_string(
        "web/sw.js",
        {
            "version": version,
            "static_urls": json.dumps(list(urls)),
            "offline_text": _(
                "You are offline, and this page was not opened on this phone before. Open a "
                "game you opened before, or try again when the connection is back."
            ),
            "engine_manifest": reverse("web:engine-manifest"),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response
