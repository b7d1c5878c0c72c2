"""Complots by its result through the API (``POST /api/games/scorepad/``): a finished game known
by the order in which its players were eliminated, and optionally the counts they kept. Ranked
as rules K4/K5 rank a finished logged game (the last one standing 1, the one eliminated last 2,
..., no ties); every refusal is a 400 with the engine's code and seat and stores nothing;
statistics, ratings and lists read a result game as they read a logged one."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.api.plugins import api_for
from games.records import adapters
from games.records.models import Game, Player, Round
from scoring.engine.complots.simulate import simulate
from tests.api.test_api_complots import assert_error
from tests.engine.complots import reference

pytestmark = pytest.mark.django_db

COUNTS = reference.COUNT_NAMES  # K5's names, as the rules file spells them


def post(api: APIClient, **body: Any) -> Any:
    return api.post("/api/games/scorepad/", {"game_type": "complots", **body}, format="json")


def recorded(api: APIClient, **body: Any) -> dict[str, Any]:
    response = post(api, **body)
    assert response.status_code == 201, response.content
    game: dict[str, Any] = response.json()
    return game


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any, settings: Any) -> Any:
    """``with commit(): ...``: the after-commit work (ratings, in process) runs at the end."""
    settings.POTDEVIN_RATINGS_SYNC = True
    return lambda: django_capture_on_commit_callbacks(execute=True)


# --- a result game ----------------------------------------------------------------------------


def test_a_result_is_ranked_by_elimination(api: APIClient) -> None:
    # Dev out first (4th), then Ada (3rd), then Cy (2nd); Bea, not listed, won (K4).
    game = recorded(
        api, players=["Ada", "Bea", "Cy", "Dev"], variant="inquisitor", eliminated=[3, 0, 2]
    )
    assert (game["mode"], game["status"], game["variant"]) == ("scorepad", "finished", "inquisitor")
    assert [s["rank"] for s in game["seats"]] == [3, 1, 2, 4]
    assert [s["score"] for s in game["seats"]] == [None, None, None, None]
    assert game["winners"] == [1]
    assert (game["turns"], game["eliminated"], game["counts"]) == ([], [3, 0, 2], None)
    result = game["result"]
    assert (result["format"], result["complete"], result["variant"]) == (
        "complots-result/1",
        True,
        "inquisitor",
    )
    assert [p["rank"] for p in result["players"]] == [3, 1, 2, 4]
    assert all(p["tiebreak"] is None for p in result["players"])
    stored = Game.objects.get(pk=game["id"])
    assert stored.sheet == {"eliminated": [3, 0, 2], "counts": None}
    assert (stored.variant, Round.objects.filter(game=stored).count()) == ("inquisitor", 0)
    # The detail reads the same as the answer to the POST.
    assert api.get(f"/api/games/{game['id']}/").json() == game


def test_the_variant_defaults_to_the_base_game(api: APIClient) -> None:
    game = recorded(api, players=["Ada", "Bea"], eliminated=[1])
    assert (game["variant"], game["result"]["variant"], game["winners"]) == (
        "ambassador",
        "ambassador",
        [0],
    )


def test_counts_kept_are_stored_and_unknown_ones_are_null(api: APIClient) -> None:
    counts = [{"claims_made": 3, "bluffs_caught": 1}, None, {"players_eliminated": 2}]
    game = recorded(api, players=["Ada", "Bea", "Cy"], eliminated=[0, 1], counts=counts)
    assert game["counts"] == counts
    ada, bea, cy = game["result"]["players"]
    assert (ada["claims_made"], ada["bluffs_caught"], ada["coins_gained"]) == (3, 1, None)
    assert all(bea[name] is None for name in COUNTS)  # never an invented 0
    assert cy["players_eliminated"] == 2 and cy["rank"] == 1


@pytest.mark.parametrize("example", api_for("complots").scorepad_examples, ids=lambda e: e.name)
def test_the_openapi_examples_are_accepted(api: APIClient, example: Any) -> None:
    response = api.post("/api/games/scorepad/", example.value, format="json")
    assert response.status_code == 201, response.content


def test_the_game_types_say_complots_has_a_scorepad(api: APIClient) -> None:
    by_type = {t["game_type"]: t for t in api.get("/api/game-types/").json()}
    assert by_type["complots"]["scorepad"] is True


def test_a_result_game_takes_no_turn_and_has_no_log(api: APIClient, snapshot: Any) -> None:
    game = recorded(api, players=["Ada", "Bea", "Cy"], eliminated=[2, 1])
    before = snapshot()
    base = f"/api/games/{game['id']}/"
    assert_error(api.get(f"{base}log/"), 409, "scorepad_game")
    turn = {"number": 1, "actor": 0, "action": "income"}
    assert_error(api.post(f"{base}turns/", turn, format="json"), 409, "scorepad_game")
    assert_error(api.post(f"{base}reopen/", format="json"), 409)
    assert snapshot() == before


def test_the_list_shows_the_result_with_its_winner(api: APIClient) -> None:
    game = recorded(api, players=["Ada", "Bea", "Cy"], eliminated=[2, 1])
    listed = api.get("/api/games/?game_type=complots").json()["results"]
    assert [(g["id"], g["winners"], g["mode"]) for g in listed] == [(game["id"], [0], "scorepad")]


def test_a_rescore_gives_the_same_result(api: APIClient) -> None:
    game = recorded(
        api,
        players=["Ada", "Bea", "Cy"],
        variant="inquisitor",
        eliminated=[1, 2],
        counts=[{"claims_made": 2}, None, None],
    )
    stored = Game.objects.get(pk=game["id"])
    names = [s.player.name for s in stored.seats.order_by("seat")]
    again = adapters.score_sheet(stored, names, stored.sheet, stored.finish)
    assert again == stored.result and again["variant"] == "inquisitor"


# --- refusals: a 400 with the engine's code and the seat, nothing stored ----------------------


@pytest.mark.parametrize(
    ("body", "code", "seat"),
    [
        ({"eliminated": [0, 0]}, "eliminated_twice", 0),
        ({"eliminated": [2, 0, 2]}, "eliminated_twice", 2),
        ({"eliminated": [0]}, "missing_seat", None),
        ({"eliminated": []}, "missing_seat", None),
        ({"eliminated": [0, 1, 2]}, "no_winner", 2),
        ({"eliminated": [0, 3]}, "bad_seat", None),
        ({"eliminated": [0, -1]}, "bad_seat", None),
        ({"eliminated": [0, 1], "variant": "reformation"}, "bad_variant", None),
        ({"eliminated": [0, 1], "counts": [{"claims_made": -1}, None, None]}, "bad_count", 0),
        ({"eliminated": [0, 1], "counts": [None, {"coins_gained": 10**5}, None]}, "bad_count", 1),
        ({"eliminated": [0, 1], "counts": [None, None, {"coups": 2}]}, "unknown_count", 2),
        ({"eliminated": [0, 1], "counts": [None, None]}, "malformed", None),
        ({"eliminated": [0, 1], "counts": [{"challenges_made": 0, "challenges_won": 1}, None,
                                            {}]}, "inconsistent_counts", 0),
        # K5: 2 eliminations in a 3-player game, 3 credited.
        ({"eliminated": [0, 1], "counts": [{"players_eliminated": 2},
                                           {"players_eliminated": 1}, None]},
         "inconsistent_counts", None),
    ],
)  # fmt: skip
def test_an_impossible_result_is_refused_and_nothing_stored(
    api: APIClient, snapshot: Any, body: dict[str, Any], code: str, seat: int | None
) -> None:
    before = snapshot()
    response = post(api, players=["Ada", "Bea", "Newcomer"], **body)
    assert_error(response, 400, code, seat=seat, round=None)
    assert snapshot() == before
    assert not Player.objects.filter(name="Newcomer").exists()  # created by name, not kept


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"eliminated": [0, 2**64]}, "out_of_range"),  # past 64 bits: refused, not a crash
        ({"eliminated": [0, -(2**70)]}, "out_of_range"),
        ({"eliminated": [0, 2**40]}, "invalid"),  # within 64 bits, past any seat
        ({"eliminated": [0, None]}, "invalid"),  # a null in the list
        ({"eliminated": [0, "x"]}, "invalid"),
        ({"eliminated": [0, [1]]}, "invalid"),
        ({"eliminated": "0,1"}, "invalid"),
        ({"eliminated": None}, "invalid"),
        ({}, "invalid"),  # no order at all
        ({"eliminated": [0, 1], "counts": [None, {"claims_made": 2**64}, None]}, "out_of_range"),
        ({"eliminated": [0, 1], "counts": [None, {"claims_made": "many"}, None]}, "invalid"),
        ({"eliminated": [0, 1], "counts": [None, [1, 2], None]}, "invalid"),
        ({"eliminated": [0, 1], "counts": "all"}, "invalid"),
        ({"eliminated": [0, 1], "counts": [None] * 30}, "too_long"),
        ({"eliminated": list(range(100))}, "too_long"),
        ({"eliminated": [0, 1], "variant": None}, "invalid"),
    ],
)
def test_a_malformed_body_is_a_clean_400(
    api: APIClient, snapshot: Any, body: dict[str, Any], code: str
) -> None:
    before = snapshot()
    response = post(api, players=["Ada", "Bea", "Newcomer"], **body)
    assert_error(response, 400, code)
    assert snapshot() == before


def test_player_count_and_players_are_checked_as_for_any_game(
    api: APIClient, snapshot: Any
) -> None:
    before = snapshot()
    assert_error(post(api, players=["Ada"], eliminated=[]), 400, "bad_player_count")
    assert_error(post(api, players=["Ada", "Ada"], eliminated=[0]), 400, "player_twice")
    assert snapshot() == before


def test_a_refusal_is_said_in_the_readers_language_with_the_same_code(api: APIClient) -> None:
    body = {"game_type": "complots", "players": ["Ada", "Bea", "Cy"], "eliminated": [1, 1]}
    english = api.post("/api/games/scorepad/", body, format="json").json()
    italian = api.post(
        "/api/games/scorepad/", body, format="json", HTTP_ACCEPT_LANGUAGE="it"
    ).json()
    assert (
        (english["code"], english["seat"])
        == (italian["code"], italian["seat"])
        == (
            "eliminated_twice",
            1,
        )
    )
    assert english["message"] == "seat 1 is listed twice in 'eliminated', at positions 1 and 2"


# --- statistics, ratings and head-to-head read a result game like a logged one ----------------


def _elimination_order(log: dict[str, Any]) -> list[int]:
    table = reference.Table(log)  # the naive reference, not the engine
    for number, turn in enumerate(log["turns"], start=1):
        table.play(number, turn)
    return list(table.elimination_order)


@pytest.mark.parametrize(("players", "seed"), [(3, 4), (5, 11)])
def test_statistics_of_a_result_game_are_those_of_its_logged_game(
    api: APIClient, commit: Any, players: int, seed: int
) -> None:
    """The same simulated game twice: logged turn by turn by one group of players, and by its
    result and every count by another. Each player of one group has the statistics, rating
    and ranks of the player at the same seat in the other."""
    logged_names = [f"Log{k}" for k in range(players)]
    sheet_names = [f"Sheet{k}" for k in range(players)]
    log = simulate(players, seed=seed, variant="inquisitor", names=logged_names)
    with commit():
        made = api.post("/api/games/import/", [log], format="json")
        assert made.status_code == 201, made.content
        logged = api.get(f"/api/games/{made.json()['games'][0]['id']}/").json()
        counts = [{k: p[k] for k in COUNTS} for p in logged["result"]["players"]]
        game = recorded(
            api,
            players=sheet_names,
            variant="inquisitor",
            eliminated=_elimination_order(log),
            counts=counts,
        )
    assert [s["rank"] for s in game["seats"]] == [s["rank"] for s in logged["seats"]]
    assert game["winners"] == logged["winners"]

    def stats(name: str) -> dict[str, Any]:
        pk = Player.objects.get(name=name).pk
        body: dict[str, Any] = api.get(f"/api/players/{pk}/stats/?game_type=complots").json()
        return body

    for mine, theirs in zip(sheet_names, logged_names, strict=True):
        a, b = stats(mine), stats(theirs)
        kept = [k for k in a if k not in ("player", "head_to_head")]
        assert {k: a[k] for k in kept} == {k: b[k] for k in kept}, mine
        assert a["games"] == 1 and a["claims_made"] == b["claims_made"]
        h2h = [(h["opponent"]["name"][5:], h["wins"], h["losses"]) for h in a["head_to_head"]]
        assert h2h == [
            (h["opponent"]["name"][3:], h["wins"], h["losses"]) for h in b["head_to_head"]
        ]
