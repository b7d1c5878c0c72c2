"""The statistics API, per game type: a player's statistics, head-to-head and rating history,
and the leaderboard (scoring/api/stats.py). Fixtures (``api``, ``anon_api``, ``user``) come from
tests/api/conftest.py; games are built with tests/scoring/stats_builders.py."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.test import APIClient

from games.records.models import Game, Player
from scoring.api.stats import (
    HeadToHeadSerializer,
    LeaderboardEntrySerializer,
    RatingHistoryEntrySerializer,
    player_stats_serializer,
)
from scoring.models import Rating
from scoring.stats import selectors
from tests.accounts import first_club
from tests.scoring import stats_builders as B

tableau, scorepad, day = B.tableau, B.scorepad, B.day
POT_DE_VIN, COMPLOTS = B.POT_DE_VIN, B.COMPLOTS
# The fields of a Pot de Vin body before statistics knew of game types: kept, one added.
POT_DE_VIN_BUCKET = {
    "games", "wins", "win_rate", "average_score", "best_score", "worst_score", "average_rank",
    "logged_games", "rounds_won", "gems_paid", "gems_won", "pot_de_vin_sweeps",
    "negative_columns", "revokes",
}  # fmt: skip
POT_DE_VIN_BODY = POT_DE_VIN_BUCKET | {
    "player", "current_streak", "longest_streak", "by_player_count", "individual", "team",
    "head_to_head", "rating", "game_types",
}  # fmt: skip

pytestmark = pytest.mark.django_db


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any, settings: Any) -> Any:
    """``with commit(): ...``: the after-commit work (ratings, in process) runs at the end."""
    settings.POTDEVIN_RATINGS_SYNC = True
    return lambda: django_capture_on_commit_callbacks(execute=True)


def pid(name: str) -> int:
    return Player.objects.get(name=name).pk


def assert_shape(data: Any, serializer: serializers.BaseSerializer[Any]) -> None:
    """The response has exactly the documented fields, recursively."""
    if isinstance(serializer, serializers.ListSerializer):
        assert isinstance(data, list)
        for item in data:
            assert_shape(item, serializer.child)
        return
    if data is None:
        assert serializer.allow_null
        return
    assert isinstance(data, dict)
    fields = serializer.fields
    assert sorted(data) == sorted(fields)
    for name, field in fields.items():
        if isinstance(field, serializers.BaseSerializer):
            assert_shape(data[name], field)


def stats_of(client: APIClient, name: str, **query: str) -> dict[str, Any]:
    response = client.get(f"/api/players/{pid(name)}/stats/", query)
    assert response.status_code == 200, response.content
    return response.json()


def test_player_stats(api: APIClient, user: Any, commit: Any) -> None:
    with commit():
        # Ada and Bea share first place; Cy is third (see tests/scoring/test_stats.py).
        scorepad(user, ["Ada", "Bea", "Cy"], [tableau(nobles=3), tableau(artists=3), tableau()])
        # Ada's team wins on cards (12 points each); her own tableau holds the 4 Pot de Vin.
        scorepad(
            user,
            ["Ada", "Bea", "Cy", "Dev"],
            [
                tableau(knights=5, pot_de_vin=4),
                tableau(artists=3),
                tableau(nobles=4, knights=2),
                tableau(traders=3),
            ],
            teams=[[0, 2], [1, 3]],
            played_on=day(1),
        )
    body = stats_of(api, "Ada")
    assert_shape(body, player_stats_serializer(POT_DE_VIN)())
    # Exactly the fields served before game types, and the game types played.
    assert set(body) == POT_DE_VIN_BODY
    assert set(body["team"]) == set(body["by_player_count"]["3"]) == POT_DE_VIN_BUCKET
    assert sorted(body["by_player_count"]) == ["3", "4", "5", "6"]
    assert body["game_types"] == [{"game_type": POT_DE_VIN, "label": "Pot de Vin", "games": 2}]
    assert stats_of(api, "Ada", game_type=POT_DE_VIN) == body  # the default
    assert body["player"] == {"id": pid("Ada"), "name": "Ada"}
    assert (body["games"], body["wins"], body["win_rate"]) == (2, 1.5, 0.75)
    assert (body["average_score"], body["best_score"], body["worst_score"]) == (9, 12, 6)
    assert (body["average_rank"], body["pot_de_vin_sweeps"]) == (1, 1)
    assert (body["current_streak"], body["longest_streak"]) == (2, 2)
    assert body["by_player_count"]["3"]["wins"] == 0.5
    assert body["by_player_count"]["4"]["wins"] == 1
    assert body["by_player_count"]["5"]["games"] == 0
    assert body["by_player_count"]["5"]["win_rate"] is None
    assert (body["individual"]["games"], body["team"]["games"]) == (1, 1)
    # The most met first, then by name; Cy was Ada's teammate in the team game.
    assert body["head_to_head"] == [
        {"opponent": {"id": pid("Bea"), "name": "Bea"}, "games": 2, "wins": 1, "losses": 0,
         "ties": 1},
        {"opponent": {"id": pid("Cy"), "name": "Cy"}, "games": 1, "wins": 1, "losses": 0,
         "ties": 0},
        {"opponent": {"id": pid("Dev"), "name": "Dev"}, "games": 1, "wins": 1, "losses": 0,
         "ties": 0},
    ]  # fmt: skip
    rating = Rating.objects.get(player_id=pid("Ada"))
    assert body["rating"] == {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "games": 2,
    }
    cy = stats_of(api, "Cy")
    assert cy["negative_columns"]["nobles"] == 1
    assert body == selectors.player_stats(player=Player.objects.get(name="Ada"))


def test_a_player_without_games(api: APIClient) -> None:
    player = Player.objects.create(club=first_club(), name="Newcomer")
    body = api.get(f"/api/players/{player.pk}/stats/").json()
    assert_shape(body, player_stats_serializer(POT_DE_VIN)())
    assert (body["games"], body["wins"], body["win_rate"], body["rating"]) == (0, 0, None, None)
    assert (body["head_to_head"], body["game_types"]) == ([], [])
    complots = api.get(f"/api/players/{player.pk}/stats/", {"game_type": COMPLOTS}).json()
    assert_shape(complots, player_stats_serializer(COMPLOTS)())
    assert (complots["games"], complots["challenge_success"], complots["survival"]) == (
        0,
        None,
        None,
    )
    ratings = api.get(f"/api/players/{player.pk}/ratings/").json()
    assert (ratings["count"], ratings["results"]) == (0, [])


@pytest.mark.parametrize("path", ["stats", "ratings", "head-to-head"])
def test_unknown_player(api: APIClient, path: str) -> None:
    for pk in ("999999", "9" * 30):
        response = api.get(f"/api/players/{pk}/{path}/")
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_reads_need_a_sign_in_unless_public(anon_api: APIClient) -> None:
    club = first_club()
    player = Player.objects.create(club=club, name="Ada")
    paths = (f"/api/players/{player.pk}/stats/", "/api/leaderboard/", "/api/leaderboard/?club=club")
    for path in paths:
        response = anon_api.get(path)
        assert response.status_code == 401
        assert response.json()["code"] == "not_authenticated"
    # Public results: the club's leaderboards, named; never a player's own statistics.
    club.public_results = True
    club.save()
    assert anon_api.get("/api/leaderboard/?club=club").status_code == 200
    assert anon_api.get("/api/leaderboard/").status_code == 401
    assert anon_api.get(f"/api/players/{player.pk}/stats/").status_code == 401
    assert anon_api.post("/api/leaderboard/?club=club", {}).status_code in (401, 405)


def _simulated_games(api: APIClient, commit: Any, count: int) -> list[dict[str, Any]]:
    names = ["Ada", "Bea", "Cy", "Dev", "Eli"]
    logs = [
        B.simulated(3, k, names=names[k % 3 : k % 3 + 3], played_on=day(k)) for k in range(count)
    ]
    with commit():
        response = api.post("/api/games/import/", logs, format="json")
    assert response.status_code == 201, response.content
    return response.json()["games"]


def test_leaderboard(api: APIClient, commit: Any) -> None:
    _simulated_games(api, commit, 8)
    response = api.get("/api/leaderboard/", {"page_size": 2})
    assert response.status_code == 200
    first = response.json()
    assert first["count"] == 5
    assert_shape(first["results"], LeaderboardEntrySerializer(many=True))
    second = api.get("/api/leaderboard/", {"page_size": 2, "page": 2}).json()
    entries = first["results"] + second["results"]
    assert [e["position"] for e in entries] == [1, 2, 3, 4]
    ratings = list(Rating.objects.order_by("-ordinal", "player_id"))
    assert [e["player"]["id"] for e in entries] == [r.player_id for r in ratings[:4]]
    assert [e["ordinal"] for e in entries] == sorted((e["ordinal"] for e in entries), reverse=True)
    for e in entries:
        stats = selectors.player_stats(player=Player.objects.get(pk=e["player"]["id"]))
        assert (e["games"], e["wins"], e["win_rate"]) == (
            stats["games"],
            stats["wins"],
            stats["win_rate"],
        )
    most = max(r.games for r in ratings)
    only = api.get("/api/leaderboard/", {"min_games": most}).json()
    assert only["count"] == sum(1 for r in ratings if r.games >= most)
    assert all(e["games"] >= most for e in only["results"])


@pytest.mark.parametrize(
    "query", [{"min_games": "-1"}, {"min_games": "many"}, {"page_size": "0"}, {"page_size": "999"}]
)
def test_leaderboard_refuses_bad_queries(api: APIClient, query: dict[str, str]) -> None:
    response = api.get("/api/leaderboard/", query)
    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_rating_history_and_head_to_head(api: APIClient, commit: Any) -> None:
    games = _simulated_games(api, commit, 6)
    ada = pid("Ada")
    response = api.get(f"/api/players/{ada}/ratings/")
    assert response.status_code == 200
    body = response.json()
    ada_games = [g["id"] for g in games if Game.objects.get(pk=g["id"]).seats.filter(player=ada)]
    assert len(ada_games) >= 2
    assert body["count"] == len(ada_games) == Rating.objects.get(player_id=ada).games
    assert_shape(body["results"], RatingHistoryEntrySerializer(many=True))
    assert [r["game"] for r in body["results"]] == ada_games  # oldest first
    count = body["count"]
    last = api.get(f"/api/players/{ada}/ratings/", {"page_size": 1, "page": count}).json()
    assert last["results"][0]["ordinal"] == Rating.objects.get(player_id=ada).ordinal

    response = api.get(f"/api/players/{ada}/head-to-head/")
    assert response.status_code == 200
    results = response.json()["results"]
    assert_shape(results, HeadToHeadSerializer(many=True))
    assert results == stats_of(api, "Ada")["head_to_head"]
    assert [r["games"] for r in results] == sorted((r["games"] for r in results), reverse=True)


def test_finish_reopen_and_delete_through_the_api(api: APIClient, commit: Any) -> None:
    (game,) = _simulated_games(api, commit, 1)
    assert stats_of(api, "Ada")["games"] == 1
    with commit():
        assert api.post(f"/api/games/{game['id']}/reopen/").status_code == 200
    assert stats_of(api, "Ada")["games"] == 0
    assert stats_of(api, "Ada")["rating"] is None
    with commit():
        assert api.post(f"/api/games/{game['id']}/finish/", {}, format="json").status_code == 200
    assert stats_of(api, "Ada")["games"] == 1
    assert stats_of(api, "Ada")["rating"]["games"] == 1
    with commit():
        assert api.delete(f"/api/games/{game['id']}/").status_code == 204
    ada = stats_of(api, "Ada")
    assert (ada["games"], ada["head_to_head"], ada["rating"]) == (0, [], None)
    assert api.get("/api/leaderboard/").json()["count"] == 0


def test_the_schema_documents_the_endpoints() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = {
        op["operationId"]: op for path in schema["paths"].values() for op in path.values()
    }
    for operation_id in ("player_stats", "player_ratings", "player_head_to_head", "leaderboard"):
        responses = operations[operation_id]["responses"]
        assert {"200", "401", "404"} <= set(responses)
        error = responses["404"]["content"]["application/json"]["schema"]["$ref"]
        assert error.endswith("/Error")
    # One body per game type: the generic part, and the game's own.
    components = schema["components"]["schemas"]
    variants = [v["$ref"].split("/")[-1] for v in components["PlayerStats"]["oneOf"]]
    assert variants == [
        "PotDeVinPlayerStats",
        "ComplotsPlayerStats",
        "BrugesPlayerStats",
        "OtherPlayerStats",  # every named game's series, `?game_type=other-<id>`
    ]
    for name in variants:
        stats = components[name]["properties"]
        assert {"by_player_count", "individual", "team", "head_to_head", "rating"} <= set(stats)
        assert {"games", "wins", "average_rank", "game_types"} <= set(stats)
    assert {"pot_de_vin_sweeps", "negative_columns"} <= set(
        components["PotDeVinPlayerStats"]["properties"]
    )
    complots = components["ComplotsPlayerStats"]["properties"]
    assert {"challenge_success", "bluffs_caught_per_claim", "survival", "claims_made"} <= set(
        complots
    )
    counts = components["ComplotsPlayerCountStats"]["properties"]
    assert sorted(counts, key=int) == [str(n) for n in range(2, 9)]
    for operation_id in ("player_stats", "player_ratings", "player_head_to_head", "leaderboard"):
        parameters = {p["name"]: p for p in operations[operation_id]["parameters"]}
        # The game types, and a club's named games' series ("other-<id>").
        assert parameters["game_type"]["schema"]["pattern"] == (
            f"^({POT_DE_VIN}|{COMPLOTS}|bruges|other|(other)-[1-9][0-9]{{0,18}})$"
        )
        assert "400" in operations[operation_id]["responses"]
    assert "/api/players/{id}/" in schema["paths"]  # the player itself is untouched


# --- Game types ------------------------------------------------------------------------------


def test_complots_stats_head_to_head_ratings_and_leaderboard(
    api: APIClient, user: Any, commit: Any
) -> None:
    with commit():
        scorepad(user, ["Ada", "Bea", "Cy"], [tableau(), tableau(nobles=1), tableau()])
        # Ada survives both Complots games (rules K4: rank 1); hand-written results.
        B.complots_result(
            user,
            ["Ada", "Bea", "Dev"],
            [{"rank": 1, "claims_made": 4, "bluffs_caught": 1, "challenges_made": 3,
              "challenges_won": 2}, {"rank": 2}, {"rank": 3}],
            played_on=day(1),
        )  # fmt: skip
        B.complots_result(
            user,
            ["Ada", "Dev"],
            [{"rank": 1, "claims_made": 1, "challenges_made": 1}, {"rank": 2}],
            played_on=day(2),
        )
    body = stats_of(api, "Ada", game_type=COMPLOTS)
    assert_shape(body, player_stats_serializer(COMPLOTS)())
    assert (body["games"], body["wins"], body["average_score"], body["best_score"]) == (
        2, 2, None, None
    )  # fmt: skip
    # challenge success (2 + 0) / (3 + 1); bluffs caught per claim (1 + 0) / (4 + 1).
    assert (body["challenge_success"], body["bluffs_caught_per_claim"]) == (0.5, 0.2)
    assert (body["survival"], body["claims_made"]) == (1, 5)
    assert body["by_player_count"]["2"]["games"] == 1
    assert body["rating"]["games"] == 2
    assert body["game_types"] == [
        {"game_type": POT_DE_VIN, "label": "Pot de Vin", "games": 1},
        {"game_type": COMPLOTS, "label": "Complots", "games": 2},
    ]
    assert [h["opponent"]["name"] for h in body["head_to_head"]] == ["Dev", "Bea"]
    ada = pid("Ada")
    h2h = api.get(f"/api/players/{ada}/head-to-head/", {"game_type": COMPLOTS}).json()
    assert h2h["results"] == body["head_to_head"]
    pot_de_vin = api.get(f"/api/players/{ada}/head-to-head/").json()["results"]
    assert [h["opponent"]["name"] for h in pot_de_vin] == ["Bea", "Cy"]
    ratings = api.get(f"/api/players/{ada}/ratings/", {"game_type": COMPLOTS}).json()
    assert ratings["count"] == 2
    assert ratings["results"][-1]["ordinal"] == body["rating"]["ordinal"]
    assert api.get(f"/api/players/{ada}/ratings/").json()["count"] == 1
    board = api.get("/api/leaderboard/", {"game_type": COMPLOTS}).json()
    assert [e["player"]["name"] for e in board["results"]][0] == "Ada"
    assert {e["player"]["name"] for e in board["results"]} == {"Ada", "Bea", "Dev"}
    assert board["results"][0]["wins"] == 2
    default = api.get("/api/leaderboard/").json()
    assert {e["player"]["name"] for e in default["results"]} == {"Ada", "Bea", "Cy"}
    assert default == api.get("/api/leaderboard/", {"game_type": POT_DE_VIN}).json()


@pytest.mark.parametrize("game_type", ["bruges-someday", "", "Pot de Vin", "POT-DE-VIN"])
def test_unknown_game_type(api: APIClient, game_type: str) -> None:
    player = Player.objects.create(club=first_club(), name="Ada")
    for path in ("stats", "head-to-head", "ratings"):
        response = api.get(f"/api/players/{player.pk}/{path}/", {"game_type": game_type})
        assert response.status_code == 400
        body = response.json()
        assert body["code"] == "unknown_game_type"
        assert "pot-de-vin" in body["message"] and "complots" in body["message"]
    response = api.get("/api/leaderboard/", {"game_type": game_type, "min_games": 2})
    assert (response.status_code, response.json()["code"]) == (400, "unknown_game_type")
