"""The project's own pages, run in the browser: one game's entry pages (or a new play's)
answered in a Web Worker by the same views, forms, templates, engine and catalogues as the
server's, under Pyodide, on an in-memory SQLite database holding only that game, or what a new
play reads (``static/js/app-worker.js``).

- ``snapshot``: one game as the browser loads it (``GET /games/<pk>/offline.json``, members of
  its club only): its club, the signed-in user and their membership and language, its edition,
  seats, players, entries, history and share links, Django's serialisation of each row. Other
  accounts it names (the game's owner, a link's maker) come with their username only, and
  without a password; a reference to anyone else is dropped (their name stays where the row
  keeps it, as the history does).
- ``new_play_snapshot``: what the pages of a new play read (``GET /plays/offline.json``, the
  current club's recorders only): the club, the user's membership and language, every
  edition, the club's named games and players. A quick score sheet or another game's play
  saved offline is checked there, then kept on the phone and sent as it was typed.
- ``app.zip`` (``GET /engine/app/<digest>/app.zip``): the project's packages, templates and
  compiled catalogues under ``app/``, and under ``site/`` the pure-Python packages the pages
  import, with ``browser_shims/`` (stand-ins for C extensions and zone data Pyodide has not)
  before them; built from the files on disk once per process, named by a digest like
  ``engine.zip`` (``games.web.engine_files``).
- In the worker: ``start`` builds the tables (``potdevin_site.settings_browser``), loads the
  snapshot and signs its user in; ``answer`` runs one request through ``django.test.Client``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from functools import cache
from importlib.machinery import PathFinder
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, models
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import path, reverse
from django.views.decorators.http import require_safe

from games.records import access, selectors
from games.records.models import (
    BoardGame,
    Club,
    Edition,
    Game,
    GameEvent,
    GameShare,
    Membership,
    Player,
    Round,
    Seat,
    UserSettings,
)
from games.web.clubs import current_club
from games.web.engine_files import FOREVER, Built, _zip

FORMAT = "potdevin-offline/1"
SHIMS_DIR = settings.BASE_DIR / "browser_shims"
# The pure-Python distributions the pages import under Pyodide (found by running them there:
# django.setup(), a game's page, a review, a save, a refusal), by their top-level name.
SITE_PACKAGES = (
    "amqp",
    "asgiref",
    "billiard",
    "celery",
    "certifi",
    "charset_normalizer",
    "click",
    "dateutil",
    "defusedxml",
    "dj_database_url",
    "django",
    "django_celery_results",
    "django_filters",
    "django_ratelimit",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "idna",
    "inflection",
    "kombu",
    "openskill",
    "pygments",
    "requests",
    "rest_framework",
    "segno",
    "six",
    "sqlparse",
    "typing_extensions",
    "tzlocal",
    "uritemplate",
    "urllib3",
    "vine",
    "whitenoise",
    "yaml",
)
PROJECT = ("games", "scoring", "potdevin_site")
# The languages the pages speak besides English (the source), as locale folders.
LOCALES = ("it", "pt_BR")
# Parts of those packages no page runs: left out of the zip.
LEFT_OUT = (
    "django/contrib/admin/static/",
    "django/contrib/gis/",
    "django/contrib/postgres/",
    "django/db/backends/mysql/",
    "django/db/backends/oracle/",
    "django/db/backends/postgresql/",
    "drf_spectacular_sidecar/static/",
    "rest_framework/static/",
    "pygments/lexers/",  # pygments is imported (by the browsable API), never asked to lex
)
SKIPPED_SUFFIXES = (".pyc", ".so", ".pyi", ".c", ".h", ".pyx", ".pxd", ".typed")


# --- The snapshot: one game, as the browser's database holds it --------------------------------


def _only_name(user: Any) -> dict[str, Any]:
    """Another account as the snapshot names it: who it is, never how it signs in."""
    return {
        "model": "auth.user",
        "pk": user.pk,
        "fields": {
            "username": user.get_username(),
            "password": "!",  # unusable
            "is_active": user.is_active,
            "is_staff": user.is_staff,
            "is_superuser": False,
            "date_joined": user.date_joined,
        },
    }


def _dropping_others(rows: list[dict[str, Any]], model: type[models.Model], kept: set[int]) -> None:
    """References to an account the snapshot does not hold are dropped (nullable ones only:
    the others are kept accounts by construction)."""
    user_model = get_user_model()
    for field in model._meta.concrete_fields:
        if field.is_relation and field.related_model is user_model and field.null:
            for row in rows:
                if row["fields"].get(field.name) not in kept:
                    row["fields"][field.name] = None


def snapshot(user: Any, game: Game) -> dict[str, Any]:
    """``game`` as ``user`` sees it, for the browser's database (see the module's docstring)."""
    seats = list(game.seats.select_related("player").order_by("seat"))
    shares = list(selectors.game_shares(game=game))
    others = {game.owner_id} | {s.created_by_id for s in shares if s.created_by_id}
    groups: list[tuple[type[models.Model], Iterable[models.Model]]] = [
        (Club, [game.club]),
        (
            Membership,
            Membership.objects.filter(club_id=game.club_id, user_id__in={user.pk, *others}),
        ),
        (UserSettings, UserSettings.objects.filter(user_id=user.pk)),
        (Edition, [game.edition] if game.edition_id else []),
        (BoardGame, [game.board_game] if game.board_game_id else []),
        (Player, [s.player for s in seats]),
        (Game, [game]),
        (Seat, seats),
        (Round, Round.objects.filter(game=game).order_by("number")),
        (GameEvent, selectors.game_history(game=game)),
        (GameShare, shares),
    ]
    return {
        "format": FORMAT,
        "user": user.pk,
        "game": game.pk,
        "objects": _rows(user, others, groups),
    }


def new_play_snapshot(user: Any, club: Club) -> dict[str, Any]:
    """What the pages of a new play (the quick score sheets, another game's play) read, for the
    browser's database: the club, the user's membership and language, every edition, the
    club's named games and players. No game: a play saved there is checked, then sent."""
    groups: list[tuple[type[models.Model], Iterable[models.Model]]] = [
        (Club, [club]),
        (Membership, Membership.objects.filter(club=club, user_id=user.pk)),
        (UserSettings, UserSettings.objects.filter(user_id=user.pk)),
        (Edition, Edition.objects.order_by("pk")),
        (BoardGame, BoardGame.objects.filter(club=club).order_by("pk")),
        (Player, Player.objects.filter(club=club).order_by("pk")),
    ]
    return {"format": FORMAT, "user": user.pk, "game": None, "objects": _rows(user, set(), groups)}


def _rows(
    user: Any, others: set[int], groups: list[tuple[type[models.Model], Iterable[models.Model]]]
) -> list[dict[str, Any]]:
    """The user (their own fields), the other accounts named (their names only), then each
    group's rows, with references to any other account dropped."""
    others = others - {user.pk}
    accounts = get_user_model().objects.filter(pk__in=others)
    kept = {user.pk, *others}
    me = serializers.serialize("python", [user], fields=_own_fields())
    rows: list[dict[str, Any]] = [*me, *(_only_name(other) for other in accounts)]
    for model, objects in groups:
        found = serializers.serialize("python", list(objects))
        _dropping_others(found, model, kept)
        rows.extend(found)
    return rows


def _own_fields() -> list[str]:
    """The signed-in user's own fields the pages read (never the password)."""
    return ["username", "first_name", "last_name", "email", "is_active", "is_staff"]


def game_snapshot(request: HttpRequest, pk: int) -> HttpResponse:
    """``GET /games/<pk>/offline.json``: the snapshot of a game of the user's clubs, with the
    URL of ``app.zip``; 404 alike for a game that is missing, not theirs, or only public."""
    if request.method not in ("GET", "HEAD") or not request.user.is_authenticated:
        raise Http404
    game = access.games(request.user).filter(pk=pk).select_related("club", "edition").first()
    if game is None or not access.may(request.user, game.club_id, access.Can.READ):
        raise Http404
    return _snapshot_response(snapshot(request.user, game))


def new_play_snapshot_view(request: HttpRequest) -> HttpResponse:
    """``GET /plays/offline.json``: what the pages of a new play read offline, in the user's
    current club where they record; 404 otherwise (signed out, no club, a member only)."""
    if request.method not in ("GET", "HEAD") or not request.user.is_authenticated:
        raise Http404
    club = current_club(request)
    if club is None or not access.may(request.user, club.pk, access.Can.RECORD):
        raise Http404
    return _snapshot_response(new_play_snapshot(request.user, club))


def _snapshot_response(data: dict[str, Any]) -> HttpResponse:
    body = {**data, "app": app_url()}
    response = JsonResponse(body, encoder=DjangoJSONEncoder, json_dumps_params={"indent": None})
    response["Cache-Control"] = "private, no-cache"
    return response


# --- app.zip: the pages' code for Pyodide --------------------------------------------------------


def _package_root(name: str) -> tuple[Path, Path]:
    """Where ``name`` is (a package's folder or a module's file), and the folder holding it."""
    spec = PathFinder.find_spec(name)  # on sys.path, never imported (nor as imported)
    assert spec is not None and spec.origin is not None, name
    found = Path(spec.origin)
    if spec.submodule_search_locations:
        found = found.parent
    return found, found.parent


def _files(top: Path, base: Path) -> Iterator[tuple[str, Path]]:
    """The files of a package (or one module) by their path under ``base``, less what no page
    needs: compiled files, tests, static files, other languages' catalogues and formats."""
    paths = sorted(top.rglob("*")) if top.is_dir() else [top]
    for file in paths:
        name = file.relative_to(base).as_posix()
        parts = name.split("/")
        if not file.is_file() or "__pycache__" in parts or "tests" in parts:
            continue
        if name.endswith(SKIPPED_SUFFIXES) or any(name.startswith(p) for p in LEFT_OUT):
            continue
        if "migrations" in parts[:-1] and parts[0] in PROJECT:
            continue  # the browser's tables are built from the models (settings_browser)
        if "locale" in parts[:-1]:
            language = parts[parts.index("locale") + 1]
            if language not in (*LOCALES, "en", "__init__.py") or name.endswith(".po"):
                continue
        yield name, file


def app_files() -> dict[str, bytes]:
    """app.zip's files: ``app/`` (the project), ``site/`` (the packages and the stand-ins)."""
    files: dict[str, bytes] = {}
    root = settings.BASE_DIR
    for name in PROJECT:
        for path_name, file in _files(root / name, root):
            files[f"app/{path_name}"] = file.read_bytes()
    for folder in ("templates", "locale"):
        for path_name, file in _files(root / folder, root):
            if not path_name.endswith(".po"):
                files[f"app/{path_name}"] = file.read_bytes()
    for name in SITE_PACKAGES:
        top, base = _package_root(name)
        for path_name, file in _files(top, base):
            files[f"site/{path_name}"] = file.read_bytes()
    for file in sorted(SHIMS_DIR.rglob("*")):
        if file.is_file() and "__pycache__" not in file.parts:
            files[f"site/{file.relative_to(SHIMS_DIR).as_posix()}"] = file.read_bytes()
    return files


@cache
def built_app() -> Built:
    """app.zip as built from the files on disk, once per process."""
    return Built(_zip(app_files()), "application/zip")


def app_url() -> str:
    return reverse("web:engine-app", args=[built_app().digest])


@require_safe
def app_zip(request: HttpRequest, digest: str) -> HttpResponse:
    """``app.zip`` as built now; another digest is gone (404)."""
    built = built_app()
    if digest != built.digest:
        raise Http404
    response = HttpResponse(built.body, content_type=built.content_type)
    response["Cache-Control"] = FOREVER
    return response


urlpatterns = [
    path("games/<int:pk>/offline.json", game_snapshot, name="game-offline"),
    path("plays/offline.json", new_play_snapshot_view, name="new-play-offline"),
    path("engine/app/<str:digest>/app.zip", app_zip, name="engine-app"),
]


# --- In the worker ------------------------------------------------------------------------------

_client: Any = None


def load(data: dict[str, Any]) -> None:
    """The snapshot's rows into the (empty, just built) database, as ``loaddata`` would."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} snapshot")
    Edition.objects.all().delete()  # the built-in ones post_migrate stored: the game's come
    with connection.constraint_checks_disabled():
        for obj in serializers.deserialize("python", data["objects"]):
            obj.save()
    connection.check_constraints()


def start(snapshot_text: str, host: str = "testserver") -> str:
    """Build the tables, load the snapshot, sign its user in (pages say ``host`` in the links
    they show whole); the times taken, as JSON."""
    global _client
    from django.core.management import call_command
    from django.test import Client

    times = {}
    begin = time.perf_counter()
    call_command("migrate", run_syncdb=True, verbosity=0)
    times["migrate_ms"] = (time.perf_counter() - begin) * 1000
    begin = time.perf_counter()
    data = json.loads(snapshot_text)
    load(data)  # JSON's dates come back as text: the deserialiser reads them as the fields do
    times["load_ms"] = (time.perf_counter() - begin) * 1000
    _client = Client(HTTP_HOST=host)
    _client.force_login(get_user_model().objects.get(pk=data["user"]))
    return json.dumps(times)


def answer(request_text: str) -> str:
    """One request ``{method, path, body, language}`` (``body``: form-encoded text) answered
    as ``{status, location, html}``; a redirect to a page of the site is followed once, so a
    Save answers with the game's page (``location``: where it went)."""
    request = json.loads(request_text)
    if request.get("language"):
        _client.cookies[settings.LANGUAGE_COOKIE_NAME] = request["language"]
    method = request.get("method", "GET").upper()
    if method == "POST":
        response = _client.post(
            request["path"],
            request.get("body") or "",
            content_type="application/x-www-form-urlencoded",
        )
    else:
        response = _client.get(request["path"])
    location = None
    if response.status_code in (301, 302, 303) and response["Location"].startswith("/"):
        location = response["Location"]
        response = _client.get(location.split("#")[0])
    return json.dumps(
        {
            "status": response.status_code,
            "location": location,
            "html": response.content.decode(response.charset or "utf-8"),
        }
    )
