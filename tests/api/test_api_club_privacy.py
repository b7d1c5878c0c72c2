"""Nothing of a club leaks to another: two clubs, each with a player named Ada, finished and
unfinished games of Pot de Vin and Complots. A member of one club finds the other's records
nowhere (404 as for what does not exist, empty lists), neither in errors nor in the schema;
anonymous visitors read a club's finished games and leaderboard only when its results are
public.

Statistics and ratings per club are computed again here by an independent route: from the
stored seats (``Seat`` rows) and openskill's Plackett-Luce model run over the club's finished
games in (date, id) order, in this file, without the scoring package."""

from __future__ import annotations

import datetime
import json
from collections import Counter, defaultdict
from types import SimpleNamespace
from typing import Any

import pytest
from openskill.models import PlackettLuce
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.records import clubs, services
from games.records.models import Club, Game, Player, Seat
from scoring.engine import get_engine
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from tests.accounts import make_user
from tests.scoring.stats_builders import tableau

pytestmark = pytest.mark.django_db

POT_DE_VIN, COMPLOTS = "pot-de-vin", "complots"
DAY = datetime.date(2026, 2, 1)

# Names chosen to occur nowhere in the code or its schema, so that finding one in a response
# can only be a leak. Both clubs have an "Ada".
A_NAME, A_SLUG = "Zebulon Quartet", "zebulon-quartet"
B_NAME, B_SLUG = "Quokka Society", "quokka-society"
A_PLAYERS = ["Ada", "Xanthippe", "Quirinus", "Belisarius", "Hypatia", "Zenobia"]
B_PLAYERS = ["Ada", "Wolfram", "Philomena", "Thaddeus", "Eudoxia", "Leofric"]
B_ONLY_UNFINISHED = "Ophelianne"  # seated in B's unfinished game only
DISTINCT_B_NAMES = [*B_PLAYERS[1:], B_ONLY_UNFINISHED]
DISTINCT_A_NAMES = A_PLAYERS[1:]
NO_SUCH_GAME = 9_000_000_000
NO_SUCH_SLUG = "no-such-club-at-all"

# A 2-player Complots game won by seat 0 in two turns (tests/api/conftest.py, COMPLOTS_DUEL).
DUEL = [
    {
        "actor": 0,
        "action": "duchess",
        "challenge": {"by": 1, "truthful": True},
        "losses": [{"seat": 1, "card": "captain"}],
    },
    {
        "actor": 1,
        "action": "duchess",
        "challenge": {"by": 0, "truthful": False},
        "losses": [{"seat": 1, "card": "assassin"}],
    },
]


# --- building the clubs -----------------------------------------------------------------------


def client_for(user: Any) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def day(n: int) -> datetime.date:
    return DAY + datetime.timedelta(days=n)


def _resolve(club: Club, owner: Any, names: list[str]) -> list[Player]:
    return services.players_resolve(names, club=club, created_by=owner)


def scorepad(
    club: Club,
    owner: Any,
    names: list[str],
    tableaux: list[dict[str, int]],
    *,
    played_on: datetime.date,
    teams: list[list[int]] | None = None,
) -> Game:
    return services.scorepad_game_create(
        club=club,
        owner=owner,
        players=_resolve(club, owner, names),
        game_type=POT_DE_VIN,
        sheet=tableaux,
        teams=teams,
        played_on=played_on,
    )


def duel(club: Club, owner: Any, names: list[str], *, played_on: datetime.date) -> Game:
    game = services.game_create(
        club=club,
        owner=owner,
        players=_resolve(club, owner, names),
        game_type=COMPLOTS,
        first_player=0,
        played_on=played_on,
    )
    for turn in DUEL:
        game, _ = services.round_append(game=game, round_data=turn)
    return services.game_finish(game=game)


def imported(club: Club, owner: Any, logs: list[dict[str, Any]]) -> list[Game]:
    return services.game_import(club=club, owner=owner, documents=logs)


def pdv_log(
    players: int, seed: int, names: list[str], played_on: datetime.date, teams: bool = False
) -> dict[str, Any]:
    log = potdevin_simulate(players, seed=seed, teams=teams, names=names)
    log["played_on"] = played_on.isoformat()
    return log


def complots_log(
    players: int, seed: int, names: list[str], played_on: datetime.date, complete: bool = True
) -> dict[str, Any]:
    simulate = get_engine(COMPLOTS).info.simulate
    assert simulate is not None
    log = simulate(players, seed=seed, complete=complete, names=names)
    log["played_on"] = played_on.isoformat()
    return log


def fill_club(club: Club, owner: Any, names: list[str], seed: int) -> None:
    """Finished games of both game types (a tie, team games, several games on one day), and
    one unfinished game of each type."""
    n = names
    # Ada (seat 0) and the second player share the first place: a tie.
    scorepad(
        club,
        owner,
        n[:3],
        [tableau(nobles=3), tableau(artists=3), tableau()],
        played_on=day(0),
    )
    # A team game: seats 0 and 2 against 1 and 3.
    scorepad(
        club,
        owner,
        [n[0], n[1], n[2], n[3]],
        [
            tableau(knights=5, pot_de_vin=4),
            tableau(artists=3),
            tableau(nobles=4, knights=2),
            tableau(traders=3),
        ],
        teams=[[0, 2], [1, 3]],
        played_on=day(1),
    )
    logs = [
        pdv_log(3, seed, [n[3], n[0], n[4]], day(1)),
        pdv_log(4, seed + 1, [n[1], n[2], n[0], n[5]], day(2), teams=True),
        pdv_log(5, seed + 2, [n[5], n[4], n[3], n[2], n[0]], day(2)),
        pdv_log(6, seed + 3, [n[0], n[1], n[2], n[3], n[4], n[5]], day(3), teams=True),
        pdv_log(3, seed + 4, [n[2], n[4], n[1]], day(4)),
        complots_log(3, seed, [n[0], n[1], n[2]], day(0)),
        complots_log(4, seed + 1, [n[3], n[0], n[5], n[4]], day(2)),
        complots_log(2, seed + 2, [n[1], n[0]], day(2)),
        complots_log(5, seed + 3, [n[0], n[1], n[2], n[3], n[4]], day(5)),
    ]
    games = imported(club, owner, logs)
    assert all(g.status == Game.Status.FINISHED for g in games)
    duel(club, owner, [n[0], n[3]], played_on=day(3))
    duel(club, owner, [n[4], n[0]], played_on=day(1))


@pytest.fixture
def world(
    standard_deck: Any, django_capture_on_commit_callbacks: Any, settings: Any
) -> SimpleNamespace:
    """Clubs A and B (each with its own owner, and B with an extra member), their games, and
    the API clients of their members. Ratings are computed as each change commits."""
    settings.POTDEVIN_RATINGS_SYNC = True
    ua = make_user("ursula", role=None)
    ub = make_user("umberto", role=None)
    with django_capture_on_commit_callbacks(execute=True):
        a = clubs.club_create(name=A_NAME, owner=ua)
        b = clubs.club_create(name=B_NAME, owner=ub)
    assert (a.slug, b.slug) == (A_SLUG, B_SLUG)
    with django_capture_on_commit_callbacks(execute=True):
        fill_club(a, ua, A_PLAYERS, seed=100)
    with django_capture_on_commit_callbacks(execute=True):
        fill_club(b, ub, B_PLAYERS, seed=200)
    # Unfinished games: a Complots game at its start, and a Pot de Vin game halfway.
    b_unfinished = services.game_create(
        club=b,
        owner=ub,
        players=_resolve(b, ub, [B_ONLY_UNFINISHED, "Ada", "Wolfram"]),
        game_type=COMPLOTS,
        first_player=0,
        played_on=day(6),
    )
    (b_partial,) = imported(
        b, ub, [complots_log(3, 7, ["Wolfram", "Ada", "Leofric"], day(6), complete=False)]
    )
    assert b_partial.status == Game.Status.IN_PROGRESS
    a_unfinished = services.game_create(
        club=a,
        owner=ua,
        players=_resolve(a, ua, ["Ada", "Xanthippe"]),
        game_type=COMPLOTS,
        first_player=0,
        played_on=day(6),
    )
    # What the ratings and statistics below must get right is there: team games, a shared
    # first place, several games on one day (ordered by id), both game types, in both clubs.
    for club in (a, b):
        finished = Game.objects.filter(club=club, status=Game.Status.FINISHED)
        assert finished.filter(game_type=POT_DE_VIN, teams__isnull=False).count() >= 2
        assert finished.filter(game_type=COMPLOTS).count() >= 5
        firsts = Seat.objects.filter(game__in=finished, rank=1, game__teams__isnull=True)
        assert any(n > 1 for n in Counter(firsts.values_list("game_id", flat=True)).values()), (
            "no tie"
        )
        days = Counter(finished.values_list("game_type", "played_on"))
        assert max(days.values()) >= 2
    return SimpleNamespace(
        a=a,
        b=b,
        ua=ua,
        ub=ub,
        api_a=client_for(ua),
        api_b=client_for(ub),
        anon=APIClient(),
        a_ada=Player.objects.get(club=a, name="Ada"),
        b_ada=Player.objects.get(club=b, name="Ada"),
        b_wolfram=Player.objects.get(club=b, name="Wolfram"),
        a_games=set(Game.objects.filter(club=a).values_list("pk", flat=True)),
        b_games=set(Game.objects.filter(club=b).values_list("pk", flat=True)),
        b_finished=Game.objects.filter(club=b, status=Game.Status.FINISHED).order_by("id").first(),
        b_unfinished=b_unfinished,
        a_unfinished=a_unfinished,
        commit=lambda: django_capture_on_commit_callbacks(execute=True),
    )


# --- helpers ----------------------------------------------------------------------------------


def assert_not_found(response: Any, *hidden: Any) -> None:
    """A JSON 404 with code ``not_found`` that names none of ``hidden``."""
    assert response.status_code == 404, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == "not_found", body
    text = response.content.decode()
    for thing in hidden:
        assert str(thing) not in text, (thing, text)


def assert_no_such_club(response: Any, twin: Any, *hidden: Any) -> None:
    """Another club named by its slug (in a body or a query) is refused exactly as a slug no
    club has (``twin``, the same request with such a slug): 404 ``not_found`` (the rules) or
    400 ``unknown_club`` (the code as it stands), the same body, naming none of ``hidden``."""
    assert (response.status_code, response.json().get("code")) in (
        (404, "not_found"),
        (400, "unknown_club"),
    ), response.content
    assert (response.status_code, response.json()) == (twin.status_code, twin.json())
    for thing in hidden:
        assert str(thing) not in response.content.decode(), thing


def b_secrets(w: SimpleNamespace) -> list[str]:
    """What of B must never reach a member of A: its name, slug, distinct player names."""
    return [B_NAME, B_SLUG, *DISTINCT_B_NAMES]


def results(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 200, response.content
    body = response.json()
    return body["results"] if isinstance(body, dict) else body


def all_pages(client: APIClient, url: str, params: dict[str, Any] | None = None) -> list[Any]:
    rows: list[Any] = []
    page = 1
    while True:
        response = client.get(url, {**(params or {}), "page": page, "page_size": 200})
        assert response.status_code == 200, response.content
        body = response.json()
        rows.extend(body["results"])
        if not body.get("next"):
            return rows
        page += 1


# --- a member of A finds nothing of B ---------------------------------------------------------


def test_lists_hold_only_the_members_club(world: SimpleNamespace) -> None:
    w = world
    listed = all_pages(w.api_a, "/api/games/")
    assert {g["id"] for g in listed} == w.a_games
    assert {g["club"] for g in listed} == {A_SLUG}
    text = json.dumps(listed)
    for secret in b_secrets(w):
        assert secret not in text
    # Filtering by B's slug is a filter: nothing matches.
    assert results(w.api_a.get("/api/games/", {"club": B_SLUG})) == []
    assert {g["id"] for g in all_pages(w.api_a, "/api/games/", {"club": A_SLUG})} == w.a_games
    # By a B player's id: none either.
    assert results(w.api_a.get("/api/games/", {"player": w.b_ada.pk})) == []

    players = all_pages(w.api_a, "/api/players/")
    assert sorted(p["name"] for p in players) == sorted(A_PLAYERS)
    assert {p["club"] for p in players} == {A_SLUG}
    assert results(w.api_a.get("/api/players/", {"club": B_SLUG})) == []
    adas = results(w.api_a.get("/api/players/", {"name__icontains": "ada"}))
    assert [(p["id"], p["name"]) for p in adas] == [(w.a_ada.pk, "Ada")]
    adas = results(w.api_a.get("/api/players/", {"name": "Ada"}))
    assert [p["id"] for p in adas] == [w.a_ada.pk]
    # The other way round too.
    adas = results(w.api_b.get("/api/players/", {"name__icontains": "Ada"}))
    assert [p["id"] for p in adas] == [w.b_ada.pk]

    clubs_listed = results(w.api_a.get("/api/clubs/"))
    assert [c["slug"] for c in clubs_listed] == [A_SLUG]
    assert w.api_a.get("/api/me/").json()["clubs"] == [
        {"slug": A_SLUG, "name": A_NAME, "role": "owner"}
    ]


def test_a_b_game_is_not_found_whatever_is_asked(world: SimpleNamespace) -> None:
    w = world
    secrets = b_secrets(w)
    for game_id in (w.b_finished.pk, w.b_unfinished.pk):
        assert_not_found(w.api_a.get(f"/api/games/{game_id}/"), game_id, *secrets)
        for url in (
            f"/api/games/{game_id}/",
            f"/api/games/{game_id}/log/",
            f"/api/games/{game_id}/history/",
            f"/api/games/{game_id}/rounds/",
            f"/api/games/{game_id}/turns/",
            f"/api/games/{game_id}/turns/1/",
            f"/api/games/{game_id}/shares/",
        ):
            assert_not_found(w.api_a.get(url), *secrets)
        for method, url, body in (
            ("patch", f"/api/games/{game_id}/", {"notes": "mine now"}),
            ("delete", f"/api/games/{game_id}/", None),
            ("post", f"/api/games/{game_id}/finish/", {}),
            ("post", f"/api/games/{game_id}/reopen/", None),
            ("post", f"/api/games/{game_id}/shares/", None),
            ("post", f"/api/games/{game_id}/turns/", {"actor": 0, "action": "income"}),
            ("delete", f"/api/games/{game_id}/turns/last/", None),
        ):
            response = getattr(w.api_a, method)(url, body, format="json")
            assert_not_found(response, *secrets)
    assert set(Game.objects.filter(club=w.b).values_list("pk", flat=True)) == w.b_games
    w.b_finished.refresh_from_db()
    assert w.b_finished.notes == "" and w.b_finished.status == Game.Status.FINISHED
    assert not w.b_finished.shares.exists()


def test_a_b_players_statistics_are_not_found(world: SimpleNamespace) -> None:
    w = world
    for player in (w.b_ada, w.b_wolfram):
        for suffix in ("", "stats/", "head-to-head/", "ratings/"):
            for game_type in (POT_DE_VIN, COMPLOTS):
                response = w.api_a.get(
                    f"/api/players/{player.pk}/{suffix}", {"game_type": game_type}
                )
                assert_not_found(response, *b_secrets(w))
        assert_not_found(w.api_a.patch(f"/api/players/{player.pk}/", {"name": "Renamed"}))
        assert_not_found(w.api_a.delete(f"/api/players/{player.pk}/"))
    assert Player.objects.get(pk=w.b_wolfram.pk).name == "Wolfram"


def test_a_b_leaderboard_is_refused_unless_public(world: SimpleNamespace) -> None:
    w = world
    for game_type in (POT_DE_VIN, COMPLOTS):
        response = w.api_a.get("/api/leaderboard/", {"club": B_SLUG, "game_type": game_type})
        twin = w.api_a.get("/api/leaderboard/", {"club": NO_SUCH_SLUG, "game_type": game_type})
        assert_no_such_club(response, twin, B_NAME, *DISTINCT_B_NAMES)
    # Without a club: A's only club.
    board = results(w.api_a.get("/api/leaderboard/"))
    assert {e["player"]["name"] for e in board} <= set(A_PLAYERS)
    assert w.a_ada.pk in {e["player"]["id"] for e in board}

    Club.objects.filter(pk=w.b.pk).update(public_results=True)
    board = results(w.api_a.get("/api/leaderboard/", {"club": B_SLUG}))
    ids = {e["player"]["id"] for e in board}
    assert ids == set(
        Seat.objects.filter(
            game__club=w.b, game__status=Game.Status.FINISHED, game__game_type=POT_DE_VIN
        ).values_list("player_id", flat=True)
    )
    # A public club's roster and statistics stay its members'.
    assert_not_found(w.api_a.get(f"/api/players/{w.b_ada.pk}/stats/"))
    assert results(w.api_a.get("/api/players/", {"club": B_SLUG})) == []


def test_head_to_head_of_as_ada_meets_only_as_players(world: SimpleNamespace) -> None:
    w = world
    a_ids = set(Player.objects.filter(club=w.a).values_list("pk", flat=True))
    for game_type in (POT_DE_VIN, COMPLOTS):
        rows = all_pages(
            w.api_a, f"/api/players/{w.a_ada.pk}/head-to-head/", {"game_type": game_type}
        )
        assert rows, game_type
        assert {r["opponent"]["id"] for r in rows} <= a_ids
        stats = w.api_a.get(f"/api/players/{w.a_ada.pk}/stats/", {"game_type": game_type}).json()
        assert {r["opponent"]["id"] for r in stats["head_to_head"]} <= a_ids
        text = json.dumps(rows) + json.dumps(stats)
        for secret in DISTINCT_B_NAMES:
            assert secret not in text
        # Independently: everyone Ada of A sat with, not as a teammate, in A's finished games.
        expected: dict[int, int] = defaultdict(int)
        for game in Game.objects.filter(club=w.a, status=Game.Status.FINISHED, game_type=game_type):
            team_of = {s: i for i, t in enumerate(game.teams or []) for s in t}
            seats = list(game.seats.values_list("seat", "player_id"))
            mine = [s for s, p in seats if p == w.a_ada.pk]
            if not mine:
                continue
            for seat, player in seats:
                if seat == mine[0]:
                    continue
                if mine[0] in team_of and team_of.get(seat) == team_of[mine[0]]:
                    continue
                expected[player] += 1
        assert {r["opponent"]["id"]: r["games"] for r in rows} == dict(expected)


def test_creating_in_a_with_bs_records_is_refused(world: SimpleNamespace) -> None:
    w = world
    before = (Game.objects.count(), Player.objects.count())
    # B's player by id, in A (the only club of the user: it is used).
    body = {"game_type": COMPLOTS, "players": [w.a_ada.pk, w.b_wolfram.pk], "first_player": 0}
    response = w.api_a.post("/api/games/", body, format="json")
    assert response.status_code == 400, response.content
    refused = response.json()
    assert refused["code"] == "unknown_player" and refused["seat"] == 1
    for secret in b_secrets(w):
        assert secret not in response.content.decode()
    # Naming B's Ada (same name as A's) by id: refused as well.
    body = {"game_type": COMPLOTS, "players": [w.b_ada.pk, "Xanthippe"], "first_player": 0}
    response = w.api_a.post("/api/games/", body, format="json")
    assert response.status_code == 400 and response.json()["code"] == "unknown_player"
    # A scorepad game too.
    sheet = [tableau(nobles=3), tableau(artists=3), tableau()]
    body = {"game_type": POT_DE_VIN, "players": [w.a_ada.pk, w.b_wolfram.pk, "Quirinus"]}
    response = w.api_a.post("/api/games/scorepad/", {**body, "tableaux": sheet}, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["code"] == "unknown_player"
    assert "Wolfram" not in response.content.decode()

    # Into B, by its slug: no such club, whatever the players.
    for players in (["New One", "New Two"], [w.b_ada.pk, w.b_wolfram.pk]):
        body = {"game_type": COMPLOTS, "players": players, "first_player": 0}
        assert_no_such_club(
            w.api_a.post("/api/games/", {**body, "club": B_SLUG}, format="json"),
            w.api_a.post("/api/games/", {**body, "club": NO_SUCH_SLUG}, format="json"),
            *DISTINCT_B_NAMES,
        )
    assert_no_such_club(
        w.api_a.post("/api/players/", {"name": "Intruder", "club": B_SLUG}, format="json"),
        w.api_a.post("/api/players/", {"name": "Intruder", "club": NO_SUCH_SLUG}, format="json"),
    )
    log = complots_log(2, 3, ["New One", "New Two"], day(0))
    for route in ("/api/games/import/", "/api/imports/"):
        assert_no_such_club(
            w.api_a.post(f"{route}?club={B_SLUG}", [log], format="json"),
            w.api_a.post(f"{route}?club={NO_SUCH_SLUG}", [log], format="json"),
            *DISTINCT_B_NAMES,
        )
    assert (Game.objects.count(), Player.objects.count()) == before
    assert not Player.objects.filter(name__in=["New One", "New Two", "Intruder"]).exists()


def test_bs_jobs_are_not_found(world: SimpleNamespace) -> None:
    """B's import and re-score jobs (started by B's owner; not run here: the queue is only
    sent to once the test's transaction would commit) are nowhere for a member of A."""
    w = world
    log = complots_log(2, 5, ["Wolfram", "Leofric"], day(0))
    imported_job = w.api_b.post(f"/api/imports/?club={B_SLUG}", [log], format="json")
    assert imported_job.status_code == 202, imported_job.content
    rescore_job = w.api_b.post("/api/rescore/", {"club": B_SLUG}, format="json")
    assert rescore_job.status_code == 202, rescore_job.content
    for route, job in (("imports", imported_job.json()), ("rescore", rescore_job.json())):
        assert results(w.api_a.get(f"/api/{route}/")) == []
        assert_not_found(w.api_a.get(f"/api/{route}/{job['id']}/"), *b_secrets(w))
        assert_not_found(w.api_a.post(f"/api/{route}/{job['id']}/resume/"), *b_secrets(w))
        # B's owner sees them.
        assert [j["id"] for j in results(w.api_b.get(f"/api/{route}/"))] == [job["id"]]
    # Nor may A's owner start a re-score of B.
    assert_no_such_club(
        w.api_a.post("/api/rescore/", {"club": B_SLUG}, format="json"),
        w.api_a.post("/api/rescore/", {"club": NO_SUCH_SLUG}, format="json"),
    )


def test_the_schema_holds_no_club_or_player_of_the_database(world: SimpleNamespace) -> None:
    for client in (world.anon, world.api_a):
        response = client.get("/api/schema/")
        assert response.status_code == 200
        text = response.content.decode()
        assert "openapi" in text
        for secret in (A_NAME, A_SLUG, B_NAME, B_SLUG, *DISTINCT_A_NAMES, *DISTINCT_B_NAMES):
            assert secret not in text, secret


# --- public results ---------------------------------------------------------------------------


def assert_as_if_missing(response: Any, twin: Any, *hidden: Any) -> None:
    """Refused to an anonymous visitor exactly as ``twin``, the same request for a record that
    does not exist, is: 401 or 404 (the rules say 404; the code may ask to sign in first),
    with the same body, naming none of ``hidden``."""
    assert response.status_code in (401, 404), response.content
    assert (response.status_code, response.json()) == (twin.status_code, twin.json())
    for thing in hidden:
        assert str(thing) not in response.content.decode(), thing


def test_public_results_open_finished_games_and_the_leaderboard_only(
    world: SimpleNamespace,
) -> None:
    w = world
    anon = w.anon
    # A finished game recorded entry by entry (a scorepad game has no log to export).
    finished = (
        Game.objects.filter(club=w.b, status=Game.Status.FINISHED, mode=Game.Mode.ROUNDS)
        .order_by("id")
        .first()
    )
    assert finished is not None
    entries = "turns" if finished.game_type == COMPLOTS else "rounds"
    b_finished_ids = set(
        Game.objects.filter(club=w.b, status=Game.Status.FINISHED).values_list("pk", flat=True)
    )
    b_secret = [B_NAME, *DISTINCT_B_NAMES]

    def closed(url: str, *hidden: Any, **params: Any) -> None:
        for game_id in (finished.pk, w.b_unfinished.pk, w.a_unfinished.pk):
            twin = anon.get(url.format(id=NO_SUCH_GAME), params)
            assert_as_if_missing(anon.get(url.format(id=game_id), params), twin, *hidden)

    def closed_to_anonymous() -> None:
        for suffix in ("", "log/", f"{entries}/", "history/"):
            closed(f"/api/games/{{id}}/{suffix}", *b_secret)
        assert_as_if_missing(
            anon.get("/api/leaderboard/", {"club": B_SLUG}),
            anon.get("/api/leaderboard/", {"club": NO_SUCH_SLUG}),
            *b_secret,
        )
        # The list: nothing of B (an empty list, or a request to sign in first).
        for params in ({}, {"club": B_SLUG}):
            response = anon.get("/api/games/", params)
            assert response.status_code in (200, 401), response.content
            if response.status_code == 200:
                assert response.json()["results"] == []
            for secret in b_secret:
                assert secret not in response.content.decode()

    closed_to_anonymous()

    Club.objects.filter(pk=w.b.pk).update(public_results=True)
    shown = anon.get(f"/api/games/{finished.pk}/")
    assert shown.status_code == 200, shown.content
    assert shown.json()["id"] == finished.pk and shown.json()["club"] == B_SLUG
    log = anon.get(f"/api/games/{finished.pk}/log/")
    assert log.status_code == 200, log.content
    assert anon.get(f"/api/games/{finished.pk}/{entries}/").status_code == 200
    # Finished games only, B's only.
    assert {g["id"] for g in all_pages(anon, "/api/games/", {"club": B_SLUG})} == b_finished_ids
    unnamed = anon.get("/api/games/")
    assert unnamed.status_code in (200, 401), unnamed.content
    if unnamed.status_code == 200:
        assert {g["id"] for g in all_pages(anon, "/api/games/")} == b_finished_ids
    a_listed = anon.get("/api/games/", {"club": A_SLUG})
    assert a_listed.status_code in (200, 401)
    if a_listed.status_code == 200:
        assert a_listed.json()["results"] == []
    # Not the unfinished games, nor the history, nor the roster, nor anything of A.
    for game_id in (w.b_unfinished.pk, w.a_unfinished.pk):
        for suffix in ("", "log/"):
            assert_as_if_missing(
                anon.get(f"/api/games/{game_id}/{suffix}"),
                anon.get(f"/api/games/{NO_SUCH_GAME}/{suffix}"),
                B_ONLY_UNFINISHED,
            )
    assert_as_if_missing(
        anon.get(f"/api/games/{finished.pk}/history/"),
        anon.get(f"/api/games/{NO_SUCH_GAME}/history/"),
    )
    assert anon.get(f"/api/games/{finished.pk}/shares/").status_code == 401
    for url in (
        "/api/players/",
        f"/api/players/{w.b_ada.pk}/",
        f"/api/players/{w.b_ada.pk}/stats/",
        f"/api/players/{w.b_ada.pk}/head-to-head/",
        f"/api/players/{w.b_ada.pk}/ratings/",
        f"/api/clubs/{B_SLUG}/",
        f"/api/clubs/{B_SLUG}/members/",
        "/api/me/",
    ):
        response = anon.get(url)
        assert response.status_code == 401, (url, response.content)
        assert "Ada" not in response.content.decode()
    # Anonymous never writes, public or not.
    assert (
        anon.patch(f"/api/games/{finished.pk}/", {"notes": "x"}, format="json").status_code == 401
    )
    assert anon.delete(f"/api/games/{finished.pk}/").status_code == 401
    finished.refresh_from_db()
    assert finished.notes == ""
    # The leaderboard: the players of B's finished games, never the one only at an unfinished
    # table, never A's.
    for game_type in (POT_DE_VIN, COMPLOTS):
        board = all_pages(anon, "/api/leaderboard/", {"club": B_SLUG, "game_type": game_type})
        expected = set(
            Seat.objects.filter(
                game__club=w.b, game__status=Game.Status.FINISHED, game__game_type=game_type
            ).values_list("player_id", flat=True)
        )
        assert {e["player"]["id"] for e in board} == expected
        assert B_ONLY_UNFINISHED not in json.dumps(board)
    assert_as_if_missing(
        anon.get("/api/leaderboard/", {"club": A_SLUG}),
        anon.get("/api/leaderboard/", {"club": NO_SUCH_SLUG}),
        *DISTINCT_A_NAMES,
    )
    assert anon.get("/api/leaderboard/").status_code in (400, 401, 404)

    Club.objects.filter(pk=w.b.pk).update(public_results=False)
    closed_to_anonymous()


# --- statistics and ratings, by an independent route ------------------------------------------


def _seat_facts(club: Club, game_type: str) -> list[tuple[Game, list[tuple[int, int, Any, Any]]]]:
    """The club's finished games of ``game_type`` in (date, id) order, each with its seats as
    (seat, player id, score, rank), read from the stored Seat rows."""
    games = Game.objects.filter(
        club=club, game_type=game_type, status=Game.Status.FINISHED
    ).order_by("played_on", "id")
    out = []
    for game in games:
        seats = list(
            Seat.objects.filter(game=game)
            .order_by("seat")
            .values_list("seat", "player_id", "score", "rank")
        )
        out.append((game, seats))
    return out


def expected_stats(club: Club, player: Player, game_type: str) -> dict[str, Any]:
    """Games, wins (a first place shared by k players or teams is 1/k each), average, best and
    worst score and average rank of ``player`` over the club's finished games."""
    games = 0
    wins = 0.0
    scores: list[int] = []
    ranks: list[int] = []
    for game, seats in _seat_facts(club, game_type):
        mine = [s for s in seats if s[1] == player.pk]
        if not mine:
            continue
        (seat, _, score, rank) = mine[0]
        games += 1
        ranks.append(rank)
        if score is not None:
            scores.append(score)
        if rank == 1:
            team_of = {s: i for i, t in enumerate(game.teams or []) for s in t}
            first = [s[0] for s in seats if s[3] == 1]
            units = {team_of[s] for s in first} if team_of else set(first)
            wins += 1 / len(units)
    return {
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else None,
        "average_score": sum(scores) / len(scores) if scores else None,
        "best_score": max(scores) if scores else None,
        "worst_score": min(scores) if scores else None,
        "average_rank": sum(ranks) / len(ranks) if ranks else None,
    }


def expected_ratings(club: Club, game_type: str) -> dict[int, tuple[float, float, int]]:
    """Each player's (mu, sigma, rated games): openskill's Plackett-Luce model over the club's
    finished games in (date, id) order; a unit is a player, or a team in team play, ranked by
    the stored seats' rank (ties are shared ranks)."""
    model = PlackettLuce()
    state: dict[int, Any] = {}
    counts: dict[int, int] = defaultdict(int)
    for game, seats in _seat_facts(club, game_type):
        team_of = {s: i for i, t in enumerate(game.teams or []) for s in t}
        units: dict[Any, list[int]] = {}
        unit_rank: dict[Any, int] = {}
        for seat, player_id, _score, rank in seats:
            key = ("team", team_of[seat]) if seat in team_of else ("player", player_id)
            units.setdefault(key, []).append(player_id)
            assert unit_rank.setdefault(key, rank) == rank  # teammates share the rank
        teams = [
            [state[p] if p in state else model.rating() for p in members]
            for members in units.values()
        ]
        rated = model.rate(teams, ranks=[unit_rank[k] for k in units])
        for members, new in zip(units.values(), rated, strict=True):
            for player_id, r in zip(members, new, strict=True):
                state[player_id] = r
                counts[player_id] += 1
    return {p: (r.mu, r.sigma, counts[p]) for p, r in state.items()}


def board_of(client: APIClient, slug: str, game_type: str) -> dict[int, dict[str, Any]]:
    rows = all_pages(client, "/api/leaderboard/", {"club": slug, "game_type": game_type})
    return {e["player"]["id"]: e for e in rows}


@pytest.mark.parametrize("game_type", [POT_DE_VIN, COMPLOTS])
def test_statistics_per_club_match_the_seats(world: SimpleNamespace, game_type: str) -> None:
    w = world
    checked = 0
    for club, client in ((w.a, w.api_a), (w.b, w.api_b)):
        for player in Player.objects.filter(club=club):
            expected = expected_stats(club, player, game_type)
            if club == w.b and player.name == B_ONLY_UNFINISHED:
                assert expected["games"] == 0
            response = client.get(f"/api/players/{player.pk}/stats/", {"game_type": game_type})
            assert response.status_code == 200, response.content
            body = response.json()
            assert body["player"] == {"id": player.pk, "name": player.name}
            assert body["games"] == expected["games"], (player.name, club.slug)
            for key in ("wins", "win_rate", "average_score", "average_rank"):
                if expected[key] is None:
                    assert body[key] is None, (key, player.name)
                else:
                    assert body[key] == pytest.approx(expected[key], abs=1e-4), (key, player.name)
            assert (body["best_score"], body["worst_score"]) == (
                expected["best_score"],
                expected["worst_score"],
            )
            checked += expected["games"] > 0
    assert checked >= 10
    # The two Adas are two players: their statistics are their own club's.
    a_ada = expected_stats(w.a, w.a_ada, game_type)
    b_ada = expected_stats(w.b, w.b_ada, game_type)
    assert a_ada["games"] > 0 and b_ada["games"] > 0
    merged = w.api_a.get(f"/api/players/{w.a_ada.pk}/stats/", {"game_type": game_type}).json()
    assert merged["games"] == a_ada["games"] != a_ada["games"] + b_ada["games"]


@pytest.mark.parametrize("game_type", [POT_DE_VIN, COMPLOTS])
def test_ratings_per_club_match_openskill_over_the_clubs_games(
    world: SimpleNamespace, game_type: str
) -> None:
    w = world
    for club, client, slug in ((w.a, w.api_a, A_SLUG), (w.b, w.api_b, B_SLUG)):
        expected = expected_ratings(club, game_type)
        assert len(expected) >= 5
        board = board_of(client, slug, game_type)
        assert set(board) == set(expected), slug
        for pid, (mu, sigma, games) in expected.items():
            entry = board[pid]
            assert entry["mu"] == pytest.approx(mu, abs=1e-9), (slug, pid)
            assert entry["sigma"] == pytest.approx(sigma, abs=1e-9), (slug, pid)
            assert entry["ordinal"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
            assert entry["games"] == games
        # The board's order: the best ordinal first.
        ordinals = [
            e["ordinal"]
            for e in all_pages(client, "/api/leaderboard/", {"club": slug, "game_type": game_type})
        ]
        assert ordinals == sorted(ordinals, reverse=True)
        # A player's own rating, and its history, say the same.
        for pid, (mu, sigma, games) in list(expected.items())[:3]:
            stats = client.get(f"/api/players/{pid}/stats/", {"game_type": game_type}).json()
            assert stats["rating"]["mu"] == pytest.approx(mu, abs=1e-9)
            assert stats["rating"]["games"] == games
            history = all_pages(client, f"/api/players/{pid}/ratings/", {"game_type": game_type})
            assert len(history) == games
            assert history[-1]["mu"] == pytest.approx(mu, abs=1e-9)
            assert history[-1]["sigma"] == pytest.approx(sigma, abs=1e-9)


def test_games_in_b_change_no_rating_of_a(world: SimpleNamespace) -> None:
    w = world
    before = {g: board_of(w.api_a, A_SLUG, g) for g in (POT_DE_VIN, COMPLOTS)}
    a_history = {
        g: all_pages(w.api_a, f"/api/players/{w.a_ada.pk}/ratings/", {"game_type": g})
        for g in (POT_DE_VIN, COMPLOTS)
    }
    b_before = board_of(w.api_b, B_SLUG, POT_DE_VIN)
    # B's Ada wins games dated before every game of A, and B's games are reopened and deleted:
    # each recomputes ratings from its date on.
    with w.commit():
        scorepad(
            w.b,
            w.ub,
            ["Ada", "Wolfram", "Eudoxia"],
            [tableau(nobles=6, gems=3), tableau(), tableau(artists=1)],
            played_on=day(-10),
        )
        imported(
            w.b,
            w.ub,
            [
                pdv_log(4, 901, ["Ada", "Thaddeus", "Leofric", "Philomena"], day(-5)),
                complots_log(3, 902, ["Ada", "Wolfram", "Leofric"], day(-5)),
                pdv_log(3, 903, ["Ada", "Eudoxia", "Leofric"], day(2)),
            ],
        )
    with w.commit():
        services.game_reopen(
            game=Game.objects.filter(
                club=w.b, status=Game.Status.FINISHED, mode=Game.Mode.ROUNDS
            ).first()
        )
    with w.commit():
        services.game_delete(
            game=Game.objects.filter(club=w.b, status=Game.Status.FINISHED).order_by("-id").first()
        )
    for game_type in (POT_DE_VIN, COMPLOTS):
        after = board_of(w.api_a, A_SLUG, game_type)
        assert after == before[game_type], game_type
        history = all_pages(
            w.api_a, f"/api/players/{w.a_ada.pk}/ratings/", {"game_type": game_type}
        )
        assert history == a_history[game_type]
        # And still the independent computation over A's games alone.
        expected = expected_ratings(w.a, game_type)
        assert set(after) == set(expected)
        for pid, (mu, sigma, _games) in expected.items():
            assert after[pid]["mu"] == pytest.approx(mu, abs=1e-9)
            assert after[pid]["sigma"] == pytest.approx(sigma, abs=1e-9)
    # B's ratings did change (the new games were rated), and match its own games.
    b_after = board_of(w.api_b, B_SLUG, POT_DE_VIN)
    assert b_after[w.b_ada.pk]["games"] != b_before[w.b_ada.pk]["games"]
    expected_b = expected_ratings(w.b, POT_DE_VIN)
    for pid, (mu, sigma, games) in expected_b.items():
        assert b_after[pid]["mu"] == pytest.approx(mu, abs=1e-9)
        assert b_after[pid]["sigma"] == pytest.approx(sigma, abs=1e-9)
        assert b_after[pid]["games"] == games
