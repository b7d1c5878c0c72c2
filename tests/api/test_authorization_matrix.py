"""Who may do what, on every route: an authorization matrix generated from the routes themselves.

The routes come from the OpenAPI schema (every API operation: method and path) and from the URL
conf (every URL name, pages and API alike); each must have a row in the tables below, so a new
route without a row fails ``test_every_*_has_a_row`` ("route X has no row in the matrix").

A row names a *rule*: the expected answer as a function of the caller and of the object. Callers
(``CALLERS``): an anonymous visitor, an outsider (a recorder of club B only), a member, a
recorder, an admin and an owner of club A, and a staff user in no club. Objects (``SIDES``):
club A's ("own"), club B's ("other") and those of club C, whose results are public ("public");
a game route runs on each club's game in progress and on its finished game (C's finished game is
the one anyone reads). ``EXTRA_CELLS`` adds what a row cannot say: who made the record (a
recorder deletes their own games and players), members leaving, the last owner staying.

Expected outcomes: ``OK`` (a read answers 200; a write anything but 401, 403, 404 or a 5xx: a
refused body, 400 or 409, still shows the caller was let through), ``EMPTY`` (a list that shows
nothing of a club the caller cannot read), ``LOGIN`` (a page redirecting to the sign-in page),
or exactly 401, 403 or 404. Every API error is JSON with a ``code``; no answer to a caller shows
the name, slug or players of a club they cannot read, nor does a 404 show its ids.

The records are built once for the module, in a transaction rolled back at its end; each cell
runs in a savepoint rolled back after it, so deletes, transfers and joins never reach another
cell (no order dependence, no broker: ``on_commit`` never fires). One test per caller runs
every route and reports every failing cell at once.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache as memoized
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.records import access, board_games, clubs, services
from games.records.models import Club, Edition, Membership, Player
from games.web import engine_files, offline_app
from scoring import jobs
from scoring.engine.potdevin.simulate import simulate

# Who may do what is decided by the access helpers, the same on every database: checked once
# (CI's SQLite pass). Other clubs' ids on each database: test_api_club_privacy, test_api_hostile.
pytestmark = pytest.mark.one_database

Can = access.Can
READ, RECORD, ADMIN, OWN = Can.READ, Can.RECORD, Can.ADMIN, Can.OWN

CALLERS = ("anonymous", "outsider", "member", "recorder", "admin", "owner", "staff")
SIDES = ("own", "other", "public")
SITE = ("site",)  # a route about no club's record (the caller's own, the site's editions)
GAMES = ("open", "finished")  # a game route runs on both games of each club

OK, EMPTY, LOGIN = "ok", "empty", "login"
METHODS = ("get", "post", "put", "patch", "delete")

# Each caller's role in each club; staff have none (and act in every club as an owner would).
ROLES = {
    "own": {"member": "member", "recorder": "recorder", "admin": "admin", "owner": "owner"},
    "other": {"outsider": "recorder"},
    "public": {},
}
# The club a caller's pages show (their only club; staff: every club counts).
CURRENT = {"outsider": "other", "member": "own", "recorder": "own", "admin": "own", "owner": "own"}

# The records of each club, with names no page or message would hold by chance.
CLUB_NAMES = {"own": "Aubergine Assembly", "other": "Zebulon Conclave", "public": "Public Parlour"}
PLAYER_NAMES = {
    "own": ["Albertinox", "Amadeoquux", "Anselmowitz"],
    "other": ["Zorbaquill", "Zeldaquint", "Zenoquarles"],
    "public": ["Pollyanthe", "Perceval", "Prudenzia"],
}
SPARE_NAMES = {"own": "Abelardspare", "other": "Zacharyspare", "public": "Philospare"}
BOARD_GAME_NAMES = {"own": "Ownboardgame", "other": "Zacharyboardgame", "public": "Philoboardgame"}
# Who started each club's jobs: a job is seen by its club's admins and by whoever started it.
JOB_CREATORS = {
    "import": {"own": "recorder", "other": "outsider", "public": "c-owner"},
    "rescore": {"own": "admin", "other": "b-owner", "public": "c-owner"},
}
CLUB_OWNERS = {"own": "owner", "other": "b-owner", "public": "c-owner"}
TARGETS = {"own": "a-target", "other": "b-target", "public": "c-target"}  # plain members
SIGN_UP = {"username": "matrix-newcomer", "password": "a-long-test-password-42"}


# --- who is who ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    caller: str
    side: str  # own / other / public / site
    state: str | None = None  # the game's: open / finished

    @property
    def anonymous(self) -> bool:
        return self.caller == "anonymous"

    @property
    def level(self) -> int:
        """What the caller may do in the object's club (``access.Can``; 0: not a member)."""
        if self.caller == "anonymous" or self.side == "site":
            return 0
        if self.caller == "staff":
            return OWN
        role = ROLES[self.side].get(self.caller)
        return access.LEVEL[Membership.Role(role)] if role else 0

    @property
    def public_game(self) -> bool:
        """The object is a game anyone reads: a finished game of a club with public results."""
        return self.side == "public" and self.state == "finished"


Rule = Callable[[Cell], Any]


def hidden_sides(caller: str) -> list[str]:
    """The clubs whose names, players and ids must never reach the caller."""
    return [s for s in ("own", "other") if Cell(caller, s).level == 0]


# --- the rules: expected outcome per cell --------------------------------------------------------


def public(c: Cell) -> Any:
    return OK


def signed_in(c: Cell) -> Any:
    return 401 if c.anonymous else OK


def staff_only(c: Cell) -> Any:
    return 401 if c.anonymous else OK if c.caller == "staff" else 403


def in_club(need: int) -> Rule:
    """A club's record (or a new record in it): hidden from non-members, 403 below ``need``."""

    def rule(c: Cell) -> Any:
        if c.anonymous:
            return 401
        return 404 if c.level == 0 else 403 if c.level < need else OK

    return rule


# A club the caller cannot see, named in the body or the query (a new record's club, the
# leaderboard's) rather than in the path: a refused field, 400 `unknown_club`, the same as for
# a club that does not exist. (An expectation with a code is written (status, code).)
NAMED_HIDDEN_CLUB: Any = (400, "unknown_club")


def named_club(need: int) -> Rule:
    """A new record in the club named by the request (``club``): as ``in_club``."""

    def rule(c: Cell) -> Any:
        if c.anonymous:
            return 401
        return NAMED_HIDDEN_CLUB if c.level == 0 else 403 if c.level < need else OK

    return rule


def club_list(c: Cell) -> Any:
    """A list filtered by ``?club=``: another club's shows nothing."""
    return 401 if c.anonymous else OK if c.level else EMPTY


# What an anonymous visitor gets from the game routes opened to them (list, detail, log,
# entries; history) for what is not public: 401, alike for what exists and what does not (a
# list names its public club; a game's history is its club's members' only).
ANONYMOUS_HIDDEN_GAME = 401
ANONYMOUS_HIDDEN_LIST = 401


def game_list(c: Cell) -> Any:
    """The games list (``?club=``): anyone; a club's games for its members, public results for
    everyone."""
    if c.level or c.side == "public":
        return OK
    return ANONYMOUS_HIDDEN_LIST if c.anonymous else EMPTY


def game_read(c: Cell) -> Any:
    """A game's detail, log, entries: its club's members, and anyone for a public game; anything
    else is not found."""
    if c.level or c.public_game:
        return OK
    return ANONYMOUS_HIDDEN_GAME if c.anonymous else 404


def game_members_only(c: Cell) -> Any:
    """A game's history: its club's members only (404 to anyone else)."""
    if c.level:
        return OK
    return ANONYMOUS_HIDDEN_GAME if c.anonymous else 404


# A non-member writing to a game they can read (public results): they see it, so the answer is
# the one of a member lacking the role (403), not "no such game".
PUBLIC_GAME_WRITE = 403


def game_write(need: int = RECORD) -> Rule:
    def rule(c: Cell) -> Any:
        if c.anonymous:
            return 401
        if c.level >= need:
            return OK
        if c.level:
            return 403
        return PUBLIC_GAME_WRITE if c.public_game else 404

    return rule


def game_shares(c: Cell) -> Any:
    """A game's share links: its club's recorders; 401 anonymous, 404 other readers."""
    if c.anonymous:
        return 401
    return 404 if c.level == 0 else 403 if c.level < RECORD else OK


def game_share_write(c: Cell) -> Any:
    """Making or stopping a share link: as reading them, but a write to a game the caller
    reads (public results) is refused as any other write to it."""
    if c.public_game and not c.anonymous and c.level == 0:
        return PUBLIC_GAME_WRITE
    return game_shares(c)


def leaderboard(c: Cell) -> Any:
    """A club's leaderboard: its members, and anyone for public results (an anonymous caller
    asking for another club's: 401, as on every route not opened to them)."""
    if c.level or c.side == "public":
        return OK
    return 401 if c.anonymous else NAMED_HIDDEN_CLUB


def job(kind: str) -> Rule:
    """A job: its club's admins, and whoever started it while in the club; hidden otherwise."""

    def rule(c: Cell) -> Any:
        if c.anonymous:
            return 401
        mine = JOB_CREATORS[kind][c.side] == c.caller and c.level >= READ
        return OK if c.level >= ADMIN or mine else 404

    return rule


# Pages: the same rules, with a sign-in redirect where the API answers 401.


def page_signed_in(c: Cell) -> Any:
    return LOGIN if c.anonymous else OK


def page_staff_only(c: Cell) -> Any:
    return LOGIN if c.anonymous else OK if c.caller == "staff" else 403


def page_club(need: int) -> Rule:
    def rule(c: Cell) -> Any:
        return LOGIN if c.anonymous else in_club(need)(c)

    return rule


def page_current_club(need: int) -> Rule:
    """A page of the current club (the caller's only club; staff: any)."""

    def rule(c: Cell) -> Any:
        if c.anonymous:
            return LOGIN
        level = OWN if c.caller == "staff" else Cell(c.caller, CURRENT[c.caller]).level
        return OK if level >= need else 403

    return rule


def page_game_read(c: Cell) -> Any:
    """A game's page: as the API, but an anonymous visitor is sent to sign in."""
    if c.level or c.public_game:
        return OK
    return LOGIN if c.anonymous else 404


def page_game_write(need: int = RECORD) -> Rule:
    def rule(c: Cell) -> Any:
        return LOGIN if c.anonymous else game_write(need)(c)

    return rule


def page_results(c: Cell) -> Any:
    """A club's results page: its members, and anyone for public results."""
    return OK if c.level or c.side == "public" else 404


def page_job(c: Cell) -> Any:
    return LOGIN if c.anonymous else job("rescore")(c)


def page_import_job(c: Cell) -> Any:
    return LOGIN if c.anonymous else job("import")(c)


def admin_site(c: Cell) -> Any:
    """Django's admin: staff only; anyone else is sent to its sign-in page."""
    return OK if c.caller == "staff" else LOGIN


# --- the routes: one row per API operation (method, schema path) and per page URL name ---------

Args = Callable[[Any], dict[str, Any]]


@dataclass(frozen=True)
class Api:
    rule: Rule
    args: Args = lambda o: {}  # noqa: E731  path parameters from the object
    body: Any = None  # a dict, or a function of the object (and the cell)
    query: Args | None = None
    sides: tuple[str, ...] = SIDES
    states: tuple[str | None, ...] = (None,)
    leaks_by_design: bool = False  # the route shows a club to whoever holds its link


def _club(o: Any) -> dict[str, Any]:
    return {"slug": o.slug}


def _game(o: Any) -> dict[str, Any]:
    return {"id": o.game}


def _entry(o: Any) -> dict[str, Any]:
    return {"id": o.game, "number": 1}


def _club_query(o: Any) -> dict[str, Any]:
    return {"club": o.slug}


def _player(o: Any) -> dict[str, Any]:
    return {"id": o.player}


def _spare(o: Any) -> dict[str, Any]:
    return {"id": o.spare}


def _board_game(o: Any) -> dict[str, Any]:
    return {"id": o.board_game}


def _result_play(o: Any) -> dict[str, Any]:
    return {
        "game_type": "other",
        "club": o.slug,
        "board_game": o.board_game,
        "players": o.player_ids,
        "sheet": [{"score": 3}, {"score": 1}, {"score": 2}],
    }


def _new_game(o: Any) -> dict[str, Any]:
    return {
        "game_type": "pot-de-vin",
        "club": o.slug,
        "players": o.player_ids,
        "first_player": 0,
    }


def _scorepad(o: Any) -> dict[str, Any]:
    return {
        "game_type": "pot-de-vin",
        "club": o.slug,
        "players": o.player_ids,
        "tableaux": [
            {"nobles": 3, "artists": 2, "jokers": 1, "gems": 2, "cards": 5},
            {"traders": 2, "workmen": 2, "pot_de_vin": 1, "gems": 1, "cards": 4},
            {"knights": 3, "assassins": 1, "bonus": 1, "gems": 1, "cards": 4},
        ],
    }


EDITION = {"game_type": "pot-de-vin", "key": "standard"}
ANY_SIGNED_IN_BODY = {"key": "matrix-deck"}  # no data: 400 for whoever may try

GAME_ENTRY_ROUTES = {
    # (method, suffix): the row, for /rounds/ and /turns/ alike
    ("get", ""): Api(game_read, _game, states=GAMES),
    ("post", ""): Api(game_write(), _game, body=lambda o: o.next_round, states=("open",)),
    ("get", "/{number}"): Api(game_read, _entry, states=GAMES),
    ("put", "/{number}"): Api(game_write(), _entry, body=lambda o: o.first_round, states=GAMES),
    ("delete", "/last"): Api(game_write(), _game, states=GAMES),
}

API_ROWS: dict[tuple[str, str], Api] = {
    ("post", "/api/auth/token/"): Api(
        public, body={"username": "nobody", "password": "wrong"}, sides=SITE
    ),
    ("get", "/api/health/"): Api(public, sides=SITE),
    ("get", "/api/ready/"): Api(public, sides=SITE),
    ("get", "/api/me/"): Api(signed_in, sides=SITE),
    ("get", "/api/game-types/"): Api(signed_in, sides=SITE),
    # Clubs.
    ("get", "/api/clubs/"): Api(signed_in, sides=SITE),
    ("post", "/api/clubs/"): Api(signed_in, body={"name": "Matrix New Club"}, sides=SITE),
    ("get", "/api/clubs/{slug}/"): Api(in_club(READ), _club),
    ("patch", "/api/clubs/{slug}/"): Api(
        in_club(ADMIN), _club, body=lambda o: {"public_results": o.public}
    ),
    ("delete", "/api/clubs/{slug}/"): Api(in_club(OWN), _club),
    ("post", "/api/clubs/{slug}/transfer/"): Api(
        in_club(OWN), _club, body=lambda o: {"username": o.target}
    ),
    ("get", "/api/clubs/{slug}/members/"): Api(in_club(READ), _club),
    ("patch", "/api/clubs/{slug}/members/{username}/"): Api(
        in_club(ADMIN), lambda o: {"slug": o.slug, "username": o.target}, body={"role": "member"}
    ),
    ("delete", "/api/clubs/{slug}/members/{username}/"): Api(
        in_club(ADMIN), lambda o: {"slug": o.slug, "username": o.target}
    ),
    ("get", "/api/clubs/{slug}/invitations/"): Api(in_club(ADMIN), _club),
    ("post", "/api/clubs/{slug}/invitations/"): Api(
        in_club(ADMIN), _club, body={"role": "member", "days": 1}
    ),
    ("delete", "/api/clubs/{slug}/invitations/{id}/"): Api(
        in_club(ADMIN), lambda o: {"slug": o.slug, "id": o.invitation}
    ),
    # A club's plays as BG Stats' file: everything in it its members read already.
    ("get", "/api/clubs/{slug}/export/bgstats/"): Api(in_club(READ), _club),
    # An invitation link: anyone holding it sees the club's name and takes it (an anonymous
    # caller signs up: 201; a member already in: 409; anyone else joins: 200).
    ("get", "/api/invitations/{token}/"): Api(
        public, lambda o: {"token": o.token}, leaks_by_design=True
    ),
    ("post", "/api/invitations/{token}/"): Api(
        public, lambda o: {"token": o.token}, body=SIGN_UP, leaks_by_design=True
    ),
    # Players and their statistics.
    ("get", "/api/players/"): Api(club_list, query=_club_query),
    ("post", "/api/players/"): Api(
        named_club(RECORD), body=lambda o: {"name": "Matrixnewplayer", "club": o.slug}
    ),
    ("get", "/api/players/{id}/"): Api(in_club(READ), _player),
    ("patch", "/api/players/{id}/"): Api(
        in_club(RECORD), _spare, body=lambda o: {"name": o.spare_name}
    ),
    # The spare player was added by the club's owner: the others need to be admins.
    ("delete", "/api/players/{id}/"): Api(in_club(ADMIN), _spare),
    ("get", "/api/players/{id}/stats/"): Api(in_club(READ), _player),
    ("get", "/api/players/{id}/head-to-head/"): Api(in_club(READ), _player),
    ("get", "/api/players/{id}/ratings/"): Api(in_club(READ), _player),
    ("get", "/api/leaderboard/"): Api(leaderboard, query=_club_query),
    # A club's named games (games without an engine here), and a play known by its scores.
    ("get", "/api/board-games/"): Api(club_list, query=_club_query),
    ("post", "/api/board-games/"): Api(
        named_club(RECORD), body=lambda o: {"name": "Matrix new game", "club": o.slug}
    ),
    ("get", "/api/board-games/{id}/"): Api(in_club(READ), _board_game),
    ("patch", "/api/board-games/{id}/"): Api(in_club(RECORD), _board_game, body={"bgg_id": 13}),
    # Added by the club's owner, without plays: the others need to be admins.
    ("delete", "/api/board-games/{id}/"): Api(in_club(ADMIN), _board_game),
    ("post", "/api/games/result/"): Api(named_club(RECORD), body=_result_play),
    # Games.
    ("get", "/api/games/"): Api(game_list, query=_club_query),
    ("post", "/api/games/"): Api(named_club(RECORD), body=_new_game),
    ("post", "/api/games/scorepad/"): Api(named_club(RECORD), body=_scorepad),
    ("post", "/api/games/import/"): Api(
        named_club(RECORD), query=_club_query, body=lambda o: o.import_doc
    ),
    ("get", "/api/games/{id}/"): Api(game_read, _game, states=GAMES),
    ("patch", "/api/games/{id}/"): Api(
        game_write(), _game, body={"location": "Matrix"}, states=GAMES
    ),
    # The games were created by their club's owner: the others need to be admins.
    ("delete", "/api/games/{id}/"): Api(game_write(ADMIN), _game, states=GAMES),
    ("get", "/api/games/{id}/log/"): Api(game_read, _game, states=GAMES),
    ("get", "/api/games/{id}/version/"): Api(game_read, _game, states=GAMES),
    ("get", "/api/games/{id}/history/"): Api(game_members_only, _game, states=GAMES),
    ("post", "/api/games/{id}/finish/"): Api(game_write(), _game, body={}, states=("open",)),
    ("post", "/api/games/{id}/reopen/"): Api(game_write(), _game, states=("finished",)),
    ("get", "/api/games/{id}/shares/"): Api(game_shares, _game, states=GAMES),
    ("post", "/api/games/{id}/shares/"): Api(game_share_write, _game, states=GAMES),
    ("delete", "/api/games/{id}/shares/{token}/"): Api(
        game_share_write, lambda o: {"id": o.game, "token": o.share}, states=GAMES
    ),
    **{
        (method, f"/api/games/{{id}}/{entries}{suffix}/"): row
        for (method, suffix), row in GAME_ENTRY_ROUTES.items()
        for entries in ("rounds", "turns")
    },
    # Jobs.
    ("get", "/api/imports/"): Api(signed_in, sides=SITE),
    ("post", "/api/imports/"): Api(
        named_club(RECORD), query=_club_query, body=lambda o: o.import_doc
    ),
    # A file of plays (here our own logs, as a file's body): a new job, or a dry run.
    ("post", "/api/imports/file/"): Api(
        named_club(RECORD), query=_club_query, body=lambda o: o.import_doc
    ),
    ("get", "/api/imports/{id}/"): Api(job("import"), lambda o: {"id": o.import_job}),
    ("post", "/api/imports/{id}/resume/"): Api(job("import"), lambda o: {"id": o.import_job}),
    ("get", "/api/rescore/"): Api(signed_in, sides=SITE),
    ("post", "/api/rescore/"): Api(named_club(ADMIN), body=lambda o: {"club": o.slug}),
    ("get", "/api/rescore/{id}/"): Api(job("rescore"), lambda o: {"id": o.rescore_job}),
    ("post", "/api/rescore/{id}/resume/"): Api(job("rescore"), lambda o: {"id": o.rescore_job}),
    # Editions (the site's, of no club): anyone signed in reads and proposes; staff verify.
    ("get", "/api/editions/"): Api(signed_in, sides=SITE),
    ("post", "/api/editions/"): Api(signed_in, body=ANY_SIGNED_IN_BODY, sides=SITE),
    ("get", "/api/editions/{game_type}/{key}/"): Api(signed_in, lambda o: EDITION, sides=SITE),
    ("patch", "/api/editions/{game_type}/{key}/"): Api(
        staff_only, lambda o: EDITION, body={}, sides=SITE
    ),
    ("get", "/api/decks/"): Api(signed_in, sides=SITE),
    ("post", "/api/decks/"): Api(signed_in, body=ANY_SIGNED_IN_BODY, sides=SITE),
    ("get", "/api/decks/{key}/"): Api(signed_in, lambda o: {"key": "standard"}, sides=SITE),
    ("patch", "/api/decks/{key}/"): Api(
        staff_only, lambda o: {"key": "standard"}, body={}, sides=SITE
    ),
}


@dataclass(frozen=True)
class Page:
    rules: dict[str, Rule]  # by method
    kwargs: Args = lambda o: {}  # noqa: E731
    data: Any = field(default_factory=dict)  # POST data: a dict or a function of the object
    sides: tuple[str, ...] = SIDES
    states: tuple[str | None, ...] = (None,)
    leaks_by_design: bool = False


def _slug(o: Any) -> dict[str, Any]:
    return {"slug": o.slug}


def _pk(o: Any) -> dict[str, Any]:
    return {"pk": o.game}


def _target(o: Any) -> dict[str, Any]:
    return {"slug": o.slug, "username": o.target}


POST_GAME_WRITE = {"POST": page_game_write()}


def _pyodide_file() -> dict[str, str]:
    installed = engine_files.pyodide_installed()
    return {"version": installed["version"] if installed else "-", "name": "pyodide-lock.json"}


def _engine_file() -> dict[str, str]:
    return {"digest": engine_files.built()["engine.zip"].digest, "name": "engine.zip"}


def _app_zip() -> dict[str, str]:
    return {"digest": offline_app.built_app().digest}


def page_game_member(c: Cell) -> Any:
    """A game as the phone keeps it for offline: its club's members only, anyone else finds
    nothing (not even a sign-in page)."""
    return OK if c.level else 404


def page_new_play_recorder(c: Cell) -> Any:
    """What a new play's pages read offline: the current club's recorders only, anyone else
    finds nothing (not even a sign-in page)."""
    if c.anonymous:
        return 404
    level = OWN if c.caller == "staff" else Cell(c.caller, CURRENT[c.caller]).level
    return OK if level >= RECORD else 404


PAGE_ROWS: dict[str, Page] = {
    "web:login": Page({"GET": public}, sides=SITE),
    "web:logout": Page({"POST": lambda c: LOGIN}, sides=SITE),  # then the sign-in page
    "web:home": Page({"GET": page_signed_in}, sides=SITE),
    "web:language": Page({"POST": public}, data={"language": "en"}, sides=SITE),
    "web:account": Page({"GET": page_signed_in, "POST": page_signed_in}, sides=SITE),
    "web:password-change": Page({"POST": page_signed_in}, sides=SITE),
    "web:players": Page({"GET": page_signed_in}, sides=SITE),
    "javascript-catalog": Page({"GET": public}, sides=SITE),
    # The rules engine for the browser: the same files for anyone (no club's records in them).
    "web:engine-manifest": Page({"GET": public}, sides=SITE),
    "web:engine-pyodide": Page({"GET": public}, lambda o: _pyodide_file(), sides=SITE),
    "web:engine-file": Page({"GET": public}, lambda o: _engine_file(), sides=SITE),
    "web:engine-app": Page({"GET": public}, lambda o: _app_zip(), sides=SITE),
    # The app as phones install it, and its service worker: the same for anyone.
    "web:manifest": Page({"GET": public}, sides=SITE),
    "web:service-worker": Page({"GET": public}, sides=SITE),
    # The API's own pages: its schema and documentation, for anyone.
    "schema": Page({"GET": public}, sides=SITE),
    "swagger-ui": Page({"GET": public}, sides=SITE),
    "redoc": Page({"GET": public}, sides=SITE),
    # New games, in the current club: the game chooser is a menu; the forms are the recorders'.
    "web:game-new": Page({"GET": page_current_club(RECORD)}, sides=SITE),
    "web:game-new-of": Page(
        {"GET": page_current_club(RECORD)}, lambda o: {"game_type": "pot-de-vin"}, sides=SITE
    ),
    # Only one game has a scorepad: its "chooser" is that game's form.
    "web:scorepad-new": Page({"GET": page_current_club(RECORD)}, sides=SITE),
    "web:new-play-offline": Page({"GET": page_new_play_recorder}, sides=SITE),
    "web:scorepad-new-of": Page(
        {"GET": page_current_club(RECORD)}, lambda o: {"game_type": "pot-de-vin"}, sides=SITE
    ),
    "web:rescore": Page(
        {"GET": page_signed_in, "POST": page_current_club(ADMIN)}, data={}, sides=SITE
    ),
    # Other games: the current club's named games, a play of one by its final scores.
    "web:board-games": Page(
        {"GET": page_signed_in, "POST": page_current_club(RECORD)},
        data={"name": "Matrix page game", "win": "highest"},
        sides=SITE,
    ),
    "web:play-new": Page(
        {"GET": page_current_club(RECORD), "POST": page_current_club(RECORD)},
        data={
            "game_type": "other",
            "new_name": "Matrix play game",
            "new_win": "highest",
            "player_0": "Matrixplayera",
            "player_1": "Matrixplayerb",
            "score_0": "3",
            "score_1": "2",
        },
        sides=SITE,
    ),
    "web:board-game": Page(
        {"GET": page_club(READ), "POST": page_club(RECORD)},
        lambda o: {"pk": o.board_game},
        data=lambda o: {"name": o.board_game_name, "bgg_id": "13", "win": "highest"},
    ),
    # Added by the club's owner, without plays: the others need to be admins.
    "web:board-game-delete": Page({"POST": page_club(ADMIN)}, lambda o: {"pk": o.board_game}),
    # A game.
    "web:game": Page({"GET": page_game_read}, _pk, states=GAMES),
    "web:game-live": Page({"GET": page_game_read}, _pk, states=GAMES),
    "web:game-offline": Page({"GET": page_game_member}, _pk, states=GAMES),
    "web:round-append": Page(POST_GAME_WRITE, _pk, states=("open",)),
    "web:round-undo": Page(POST_GAME_WRITE, _pk, states=GAMES),
    "web:game-finish": Page(POST_GAME_WRITE, _pk, states=("open",)),
    "web:game-reopen": Page(POST_GAME_WRITE, _pk, states=("finished",)),
    # As the API's delete: an admin any game (the game's maker is in the cells of who made what).
    "web:game-delete": Page(
        {"POST": page_game_write(ADMIN)}, _pk, states=GAMES, data={"confirmed": "yes"}
    ),
    "web:share-create": Page(POST_GAME_WRITE, _pk, states=GAMES),
    "web:share-revoke": Page(
        POST_GAME_WRITE, lambda o: {"pk": o.game, "token": o.share}, states=GAMES
    ),
    # A share link shows its game to whoever holds it.
    "web:shared": Page(
        {"GET": public}, lambda o: {"token": o.share}, states=GAMES, leaks_by_design=True
    ),
    "web:shared-live": Page(
        {"GET": public}, lambda o: {"token": o.share}, states=GAMES, leaks_by_design=True
    ),
    # Clubs.
    "web:club-new": Page(
        {"GET": page_signed_in, "POST": page_signed_in},
        data={"name": "Matrix Page Club"},
        sides=SITE,
    ),
    "web:club-switch": Page({"POST": page_club(READ)}, data=lambda o: {"club": o.slug}),
    "web:club-results": Page({"GET": page_results}, _slug),
    "web:club-members": Page({"GET": page_club(READ)}, _slug),
    "web:club-member-role": Page({"POST": page_club(ADMIN)}, _target, data={"role": "member"}),
    "web:club-member-player": Page({"POST": page_club(ADMIN)}, _target, data={"player": ""}),
    "web:club-member-remove": Page({"POST": page_club(ADMIN)}, _target),
    "web:club-invitations": Page(
        {"GET": page_club(ADMIN), "POST": page_club(ADMIN)},
        _slug,
        data={"role": "member", "days": "1"},
    ),
    "web:club-export-bgstats": Page({"GET": page_club(READ)}, _slug),
    "web:club-invitation-revoke": Page(
        {"POST": page_club(ADMIN)}, lambda o: {"slug": o.slug, "pk": o.invitation}
    ),
    # The club's name, given by an owner (Home asks the fresh server's first owner).
    "web:club-name": Page(
        {"GET": page_club(OWN), "POST": page_club(OWN)}, _slug, data=lambda o: {"name": o.name}
    ),
    "web:club-settings": Page(
        {"GET": page_club(ADMIN), "POST": page_club(ADMIN)},
        _slug,
        data=lambda o: {"name": o.name, **({"public_results": "on"} if o.public else {})},
    ),
    "web:invitation": Page(
        {"GET": public, "POST": public}, lambda o: {"token": o.token}, leaks_by_design=True
    ),
    # Players and jobs.
    "web:player": Page({"GET": page_club(READ)}, lambda o: {"pk": o.player}),
    "web:job": Page({"GET": page_job}, lambda o: {"pk": o.rescore_job}),
    "web:job-resume": Page({"POST": page_job}, lambda o: {"pk": o.rescore_job}),
    # Imports of a file: the page lists the current club's; its recorders upload (no file: 400).
    "web:imports": Page(
        {"GET": page_signed_in, "POST": page_current_club(RECORD)}, data={}, sides=SITE
    ),
    "web:import": Page({"GET": page_import_job}, lambda o: {"pk": o.import_job}),
    "web:import-confirm": Page({"POST": page_import_job}, lambda o: {"pk": o.import_job}),
    "web:import-discard": Page(
        {"POST": page_import_job}, lambda o: {"pk": o.import_job}, data={"confirmed": "yes"}
    ),
    # Editions: anyone signed in reads them and proposes a new version; staff verify one.
    "web:decks": Page({"GET": page_signed_in}, sides=SITE),
    "web:deck-new": Page({"GET": page_signed_in}, sides=SITE),
    "web:deck": Page(
        {"GET": page_signed_in, "POST": page_staff_only},
        lambda o: {"key": "standard"},
        data={"verified": "0"},
        sides=SITE,
    ),
    "web:bruges-editions": Page({"GET": page_signed_in}, sides=SITE),
    "web:bruges-edition-new": Page({"GET": page_signed_in}, sides=SITE),
    "web:bruges-edition": Page(
        {"GET": page_signed_in, "POST": page_staff_only},
        lambda o: {"key": o.bruges_edition},
        data={"verified": "0"},
        sides=SITE,
    ),
    # Django's admin (every ``admin:`` name): tested at its index.
    "admin:index": Page({"GET": admin_site}, sides=SITE),
}
# Every name (and unnamed pattern) in it is Django's admin, gated as ``admin:index``. The API's
# URL names are found from the schema's paths (resolved); the schema's own pages are rows above.
ADMIN_NAMESPACE = "admin"


# --- the routes as the project declares them ------------------------------------------------------


@memoized
def schema_operations() -> list[tuple[str, str]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method, path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method in METHODS
    )


def _walk(
    patterns: list[Any], prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = ":".join(n for n in (namespace, pattern.namespace or "") if n)
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace and pattern.name else pattern.name
            yield prefix + str(pattern.pattern), name or "", namespace


@memoized
def url_patterns() -> list[tuple[str, str, str]]:
    """Every URL pattern of the URL conf: its pattern, its name (with its namespace), its
    namespace."""
    return sorted(set(_walk(get_resolver().url_patterns)))


SAMPLE_ARGS = {
    "id": "1",
    "slug": "club",
    "token": "t" * 32,
    "username": "someone",
    "number": "1",
    "game_type": "pot-de-vin",
    "key": "standard",
}


def _filled(path: str, args: dict[str, Any]) -> str:
    filled = re.sub(r"\{(\w+)\}", lambda m: str(args[m.group(1)]), path)
    assert "{" not in filled, path
    return filled


def api_url_names() -> dict[str, tuple[str, str]]:
    """The URL name each schema operation's path resolves to."""
    names = {}
    for method, path in schema_operations():
        names[resolve(_filled(path, SAMPLE_ARGS)).view_name] = (method, path)
    return names


# --- the records ---------------------------------------------------------------------------------


def _user(username: str, *, staff: bool = False) -> Any:
    return get_user_model().objects.create_user(username=username, is_staff=staff)


def _build() -> SimpleNamespace:
    users = {name: _user(name, staff=name == "staff") for name in CALLERS if name != "anonymous"}
    for extra in ("b-owner", "c-owner", *TARGETS.values()):
        users[extra] = _user(extra)
    Edition.objects.get_or_create(game_type="pot-de-vin", key="standard")  # from the migrations
    bruges = Edition.objects.filter(game_type="bruges").order_by("key").first()
    sides = {}
    for n, side in enumerate(SIDES):
        owner = users[CLUB_OWNERS[side]]
        club = clubs.club_create(name=CLUB_NAMES[side], owner=owner)
        if side == "public":
            clubs.club_update(club=club, public_results=True)
        roles = {**ROLES[side], TARGETS[side]: "member"}
        for username, role in roles.items():
            if role != "owner":
                Membership.objects.create(club=club, user=users[username], role=role)
        names = PLAYER_NAMES[side]
        full = simulate(3, seed=40 + n, names=names)
        partial = {**copy.deepcopy(full), "rounds": full["rounds"][:2]}
        (finished,) = services.game_import(club=club, owner=owner, documents=[full])
        (open_game,) = services.game_import(club=club, owner=owner, documents=[partial])
        assert (open_game.status, finished.status) == ("in_progress", "finished")
        spare = services.player_create(club=club, name=SPARE_NAMES[side], created_by=owner)
        board_game = board_games.board_game_create(
            club=club, name=BOARD_GAME_NAMES[side], win="highest", by=owner
        )
        invitation = clubs.invitation_create(club=club, role="member", by=owner)
        players = list(Player.objects.filter(club=club).exclude(pk=spare.pk).order_by("id"))
        import_job = jobs.import_start(
            club=club,
            created_by=users[JOB_CREATORS["import"][side]],
            documents=[simulate(3, seed=60 + n, names=names)],
        )
        rescore_job = jobs.rescore_start(created_by=users[JOB_CREATORS["rescore"][side]], club=club)
        sides[side] = SimpleNamespace(
            slug=club.slug,
            name=club.name,
            public=club.public_results,
            games={"open": open_game.pk, "finished": finished.pk},
            shares={
                state: services.share_create(game=game, by=owner).token
                for state, game in (("open", open_game), ("finished", finished))
            },
            player=players[0].pk,
            player_ids=[p.pk for p in players],
            player_names=[p.name for p in players],
            spare=spare.pk,
            spare_name=spare.name,
            board_game=board_game.pk,
            board_game_name=board_game.name,
            invitation=invitation.pk,
            token=invitation.token,
            target=TARGETS[side],
            import_job=import_job.pk,
            rescore_job=rescore_job.pk,
            next_round=full["rounds"][2],
            first_round=full["rounds"][0],
            import_doc=simulate(3, seed=80 + n, names=names),
            bruges_edition=bruges.key if bruges else "standard",
        )
    tokens = {name: Token.objects.create(user=u).key for name, u in users.items()}
    sessions = {}
    for name in CALLERS[1:]:
        client = Client()
        client.force_login(users[name])
        sessions[name] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return SimpleNamespace(users=users, sides=sides, tokens=tokens, sessions=sessions)


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[SimpleNamespace]:
    """The module's records, in one transaction rolled back at the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _build()
        transaction.set_rollback(True)


@pytest.fixture
def matrix(world: SimpleNamespace, django_db_blocker: Any) -> Iterator[SimpleNamespace]:
    with django_db_blocker.unblock():
        cache.clear()  # throttles and rate limits count in the cache
        yield world
        cache.clear()


def view(world: SimpleNamespace, cell: Cell) -> SimpleNamespace:
    """The object of a cell: its club's records, ``game`` and ``share`` of the cell's game."""
    if cell.side == "site":
        return SimpleNamespace(bruges_edition=world.sides["own"].bruges_edition)
    o = world.sides[cell.side]
    state = cell.state or "open"
    return SimpleNamespace(**vars(o), game=o.games[state], share=o.shares[state])


def markers(world: SimpleNamespace, caller: str) -> list[str]:
    """What no answer to the caller may show: the names of the clubs they cannot read."""
    found = []
    for side in hidden_sides(caller):
        o = world.sides[side]
        found += [o.name, o.slug, *o.player_names, o.spare_name, o.board_game_name]
    return found


def hidden_ids(world: SimpleNamespace, caller: str) -> set[int]:
    ids: set[int] = set()
    for side in hidden_sides(caller):
        o = world.sides[side]
        ids |= {*o.games.values(), *o.player_ids, o.spare, o.invitation, o.board_game}
        ids |= {o.import_job, o.rescore_job}
    return ids


# --- running the cells ---------------------------------------------------------------------------

IPS = {caller: f"10.77.0.{n + 1}" for n, caller in enumerate(CALLERS)}


def _rolled_back(send: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Send one request in a savepoint undone after it: no cell sees another's writes."""
    with transaction.atomic():
        try:
            return send(*args, **kwargs)
        finally:
            transaction.set_rollback(True)


def _send_api(client: APIClient, method: str, url: str, body: Any) -> HttpResponse:
    data = json.dumps(body) if body is not None else ""
    response: HttpResponse = client.generic(
        method.upper(), url, data, content_type="application/json"
    )
    return response


def _json(response: HttpResponse) -> Any:
    try:
        return json.loads(response.content or b"null")
    except ValueError:
        return None


def _is_empty(body: Any) -> bool:
    if isinstance(body, dict) and "results" in body:
        body = body["results"]
    return isinstance(body, list) and not body


def _login_redirect(response: HttpResponse) -> bool:
    return response.status_code == 302 and "login" in response.get("Location", "")


def _text(response: HttpResponse) -> str:
    """What the answer shows, a streamed file (Pyodide's, for the browser's engine) read whole."""
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode("utf-8", "replace")
    return response.content.decode("utf-8", "replace")


def _leaks(text: str, secrets: list[str], ids: set[int], sent: str) -> list[str]:
    shown = [s for s in secrets if s in text]
    sent_ids = {int(n) for n in re.findall(r"\d+", sent)}
    for number in sorted(ids - sent_ids):
        if re.search(rf"(?<![\d.]){number}(?![\d.])", text):
            shown.append(f"id {number}")
    return shown


def check_api(response: HttpResponse, method: str, expected: Any) -> str | None:
    """Why the answer is not the expected one (None: it is)."""
    status = response.status_code
    body = _json(response)
    if status >= 500:
        return f"got {status} {response.content[:200]!r}"
    if expected == OK:
        if method == "get" and status != 200:
            return f"expected 200, got {status} {response.content[:200]!r}"
        if status in (401, 403, 404):
            return f"expected to be allowed, got {status} {response.content[:200]!r}"
        return None
    if expected == EMPTY:
        if status != 200 or not _is_empty(body):
            return f"expected an empty list, got {status} {response.content[:200]!r}"
        return None
    expected, code = expected if isinstance(expected, tuple) else (expected, None)
    if status != expected:
        return f"expected {expected}, got {status} {response.content[:200]!r}"
    if not isinstance(body, dict) or "code" not in body:
        return f"{status} without a JSON body with a code: {response.content[:200]!r}"
    if code is not None and body["code"] != code:
        return f"{status} with code {body['code']!r}, not {code!r}"
    if status == 404 and body["code"] != "not_found":
        return f"404 with code {body['code']!r}, not 'not_found'"
    if status == 403 and body["code"] not in ("forbidden", "permission_denied"):
        return f"403 with code {body['code']!r}"
    return None


def check_page(response: HttpResponse, method: str, expected: Any) -> str | None:
    status = response.status_code
    if status >= 500:
        return f"got {status}"
    if expected == LOGIN:
        return None if _login_redirect(response) else f"expected a sign-in redirect, got {status}"
    if expected == OK:
        if _login_redirect(response):
            return "expected to be allowed, got a sign-in redirect"
        if method == "GET" and status not in (200, 302):
            return f"expected 200, got {status}"
        if status in (403, 404, 405):
            return f"expected to be allowed, got {status}"
        return None
    return None if status == expected else f"expected {expected}, got {status}"


@dataclass
class Report:
    caller: str
    cells: int = 0
    failures: list[str] = field(default_factory=list)

    def fail(self, cell_id: str, why: str) -> None:
        self.failures.append(f"{cell_id}: {why}")

    def verdict(self) -> str:
        return (
            f"{len(self.failures)} of {self.cells} cells failed for {self.caller}:\n  "
            + "\n  ".join(self.failures)
        )


def api_cells(row: Api) -> list[tuple[str, str | None]]:
    return [(side, state) for side in row.sides for state in row.states]


def page_cells(row: Page) -> list[tuple[str, str | None]]:
    return [(side, state) for side in row.sides for state in row.states]


def api_client(world: SimpleNamespace, caller: str) -> APIClient:
    client = APIClient(REMOTE_ADDR=IPS[caller])
    if caller != "anonymous":
        client.credentials(HTTP_AUTHORIZATION=f"Token {world.tokens[caller]}")
    return client


def page_client(world: SimpleNamespace, caller: str) -> Client:
    client = Client(REMOTE_ADDR=IPS[caller])
    if caller != "anonymous":
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[caller]
    return client


def run_api(world: SimpleNamespace, caller: str) -> Report:
    report = Report(caller)
    client = api_client(world, caller)
    secrets, ids = markers(world, caller), hidden_ids(world, caller)
    for (method, path), row in API_ROWS.items():
        for side, state in api_cells(row):
            cell = Cell(caller, side, state)
            o = view(world, cell)
            url = _filled(path, row.args(o))
            if row.query is not None:
                url += "?" + urlencode(row.query(o))
            body = row.body(o) if callable(row.body) else row.body
            cell_id = f"{method.upper()} {path} [{side}{'/' + state if state else ''}]"
            expected = row.rule(cell)
            report.cells += 1
            try:
                response = _rolled_back(_send_api, client, method, url, body)
            except Exception as exc:  # a view that raised: a failing cell, not a stopped run
                report.fail(cell_id, f"raised {exc!r}: the site answers 500")
                continue
            why = check_api(response, method, expected)
            if why is None and not row.leaks_by_design:
                text = response.content.decode("utf-8", "replace")
                shown = _leaks(text, secrets, ids if response.status_code == 404 else set(), url)
                if shown:
                    why = f"{response.status_code} shows {shown}"
            if why:
                report.fail(cell_id, why)
    return report


def run_pages(world: SimpleNamespace, caller: str) -> Report:
    report = Report(caller)
    secrets = markers(world, caller)
    for name, row in PAGE_ROWS.items():
        for side, state in page_cells(row):
            cell = Cell(caller, side, state)
            o = view(world, cell)
            url = reverse(name, kwargs=row.kwargs(o))
            for method, rule in row.rules.items():
                expected = rule(cell)
                cell_id = f"{method} {name} {url} [{side}{'/' + state if state else ''}]"
                report.cells += 1
                client = page_client(world, caller)
                data = row.data(o) if callable(row.data) else row.data
                try:
                    if method == "POST":
                        response = _rolled_back(client.post, url, data)
                    else:
                        response = _rolled_back(client.get, url)
                except Exception as exc:
                    report.fail(cell_id, f"raised {exc!r}: the site answers 500")
                    continue
                why = check_page(response, method, expected)
                if why is None and not row.leaks_by_design:
                    shown = _leaks(_text(response), secrets, set(), "")
                    if shown:
                        why = f"{response.status_code} shows {shown}"
                if why:
                    report.fail(cell_id, why)
    return report


# --- the cells a route's row cannot hold: who made the record, who is asking about themselves ----


def _made_by(username: str, what: str) -> Callable[[SimpleNamespace], str]:
    """A record of club A made by ``username`` in the cell (rolled back with it): its URL."""

    def make(world: SimpleNamespace) -> str:
        o, user = world.sides["own"], world.users[username]
        club = Club.objects.get(slug=o.slug)
        if what == "player":
            player = services.player_create(club=club, name="Matrixmade", created_by=user)
            return f"/api/players/{player.pk}/"
        doc = simulate(3, seed=99, names=PLAYER_NAMES["own"])
        (game,) = services.game_import(club=club, owner=user, documents=[doc])
        return f"/api/games/{game.pk}/"

    return make


def _member_url(username: str) -> Callable[[SimpleNamespace], str]:
    return lambda world: f"/api/clubs/{world.sides['own'].slug}/members/{username}/"


# (caller, method, URL (made in the cell), body, expected)
EXTRA_CELLS: list[tuple[str, str, Callable[[SimpleNamespace], str], Any, Any]] = [
    # A recorder deletes the games and players they made; a member does not, even their own.
    ("recorder", "delete", _made_by("recorder", "game"), None, OK),
    ("recorder", "delete", _made_by("recorder", "player"), None, OK),
    ("member", "delete", _made_by("member", "game"), None, 403),
    ("member", "delete", _made_by("member", "player"), None, 403),
    ("recorder", "delete", _made_by("admin", "game"), None, 403),
    # Anyone leaves their club; the last owner stays; nobody leaves a club they are not in.
    ("member", "delete", _member_url("member"), None, OK),
    ("recorder", "delete", _member_url("recorder"), None, OK),
    ("owner", "delete", _member_url("owner"), None, 409),
    ("outsider", "delete", _member_url("outsider"), None, 404),
    # Only owners change an owner's role or make one; the last owner stays owner.
    ("admin", "patch", _member_url("owner"), {"role": "member"}, 403),
    ("admin", "patch", _member_url("member"), {"role": "owner"}, 403),
    ("owner", "patch", _member_url("owner"), {"role": "admin"}, 409),
    ("staff", "patch", _member_url("member"), {"role": "owner"}, OK),
]


# --- the tests -----------------------------------------------------------------------------------


def test_every_api_operation_has_a_row() -> None:
    operations = set(schema_operations())
    missing = [
        f"route {m.upper()} {p} has no row in the matrix"
        for m, p in sorted(operations - set(API_ROWS))
    ]
    stale = [f"row {m.upper()} {p} matches no route" for m, p in sorted(set(API_ROWS) - operations)]
    assert not missing + stale, "\n".join(missing + stale)


def test_every_url_name_has_a_row() -> None:
    reached = api_url_names()
    problems = []
    names = set()
    for pattern, name, namespace in url_patterns():
        if namespace.split(":")[0] == ADMIN_NAMESPACE:
            names.add(name)
            continue
        if not name:
            problems.append(f"route {pattern!r} has no name: it cannot have a row in the matrix")
            continue
        names.add(name)
        if name in PAGE_ROWS or name in reached:
            continue
        problems.append(f"route {name} ({pattern}) has no row in the matrix")
    problems += [f"row {n} matches no URL name" for n in sorted(set(PAGE_ROWS) - names)]
    assert not problems, "\n".join(problems)


@pytest.mark.django_db  # the test database (the records are the module's: ``world``)
@pytest.mark.parametrize("caller", CALLERS)
def test_api_matrix(matrix: SimpleNamespace, caller: str) -> None:
    report = run_api(matrix, caller)
    assert report.cells == API_CELLS_PER_CALLER
    assert not report.failures, report.verdict()


def _make_and_send(
    world: SimpleNamespace, caller: str, method: str, make: Any, body: Any
) -> tuple[str, HttpResponse]:
    url = make(world)
    return url, _send_api(api_client(world, caller), method, url, body)


@pytest.mark.django_db
def test_creators_and_members_themselves(matrix: SimpleNamespace) -> None:
    report = Report("the extra cells")
    for caller, method, make, body, expected in EXTRA_CELLS:
        report.cells += 1
        url, response = _rolled_back(_make_and_send, matrix, caller, method, make, body)
        why = check_api(response, method, expected)
        if why:
            report.fail(f"{caller} {method.upper()} {url}", why)
    assert not report.failures, report.verdict()


@pytest.mark.django_db  # the test database (the records are the module's: ``world``)
@pytest.mark.parametrize("caller", CALLERS)
def test_page_matrix(matrix: SimpleNamespace, caller: str) -> None:
    report = run_pages(matrix, caller)
    assert report.cells == PAGE_CELLS_PER_CALLER
    assert not report.failures, report.verdict()


API_CELLS_PER_CALLER = sum(len(api_cells(row)) for row in API_ROWS.values())
PAGE_CELLS_PER_CALLER = sum(len(page_cells(row)) * len(row.rules) for row in PAGE_ROWS.values())
MATRIX_SIZE = {
    "api_routes": len(API_ROWS),
    "page_routes": len(PAGE_ROWS),
    "callers": len(CALLERS),
    "api_cells": API_CELLS_PER_CALLER * len(CALLERS),
    "page_cells": PAGE_CELLS_PER_CALLER * len(CALLERS),
    "extra_cells": len(EXTRA_CELLS),
}


def test_matrix_size(capsys: pytest.CaptureFixture[str]) -> None:
    """Every route of the schema and the URL conf, for every caller, on each object."""
    size = MATRIX_SIZE
    assert size["api_routes"] == len(schema_operations())
    with capsys.disabled():
        print(
            f"\nauthorization matrix: {size['api_routes']} API operations + "
            f"{size['page_routes']} pages x {size['callers']} callers x objects (own, other, "
            f"public; x open/finished for games) = {size['api_cells']} API cells + "
            f"{size['page_cells']} page cells (+ {size['extra_cells']} cells of who made what)"
        )
