"""A game's history through the API: who created it, entered, corrected and undid each entry,
edited, finished and reopened it, and when, as the people did it (the owner, another person,
staff), stored with each change; a refused change leaves no line; a deleted game's history
stays in the database."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.records import services
from games.records.models import Game, GameEvent
from scoring.engine.complots.simulate import simulate as complots_simulate
from tests.accounts import first_club
from tests.api.conftest import ROUND_1, ROUND_2, GameFactory

pytestmark = pytest.mark.django_db


def lines(client: APIClient, game_id: int) -> list[tuple[str, int | None, str | None]]:
    response = client.get(f"/api/games/{game_id}/history/")
    assert response.status_code == 200, response.content
    body = response.json()["results"]
    assert response.json()["count"] == len(body)
    times = [datetime.datetime.fromisoformat(line["at"]) for line in body]
    assert times == sorted(times)  # oldest first
    assert all(set(line) == {"action", "number", "user", "at"} for line in body)
    return [(line["action"], line["number"], line["user"]) for line in body]


def test_every_change_of_a_game_is_a_line_of_its_history(
    api: APIClient, staff_api: APIClient, other_api: APIClient, standard_deck: Any
) -> None:
    created = api.post(
        "/api/games/", {"players": ["Ada", "Bea", "Cy"], "first_player": 1}, format="json"
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert api.post(f"/api/games/{game_id}/rounds/", ROUND_1, format="json").status_code == 201
    assert api.post(f"/api/games/{game_id}/rounds/", ROUND_2, format="json").status_code == 201
    # Staff corrects round 1 (the same round, written again) and undoes round 2.
    put = staff_api.put(f"/api/games/{game_id}/rounds/1/", ROUND_1, format="json")
    assert put.status_code == 200, put.content
    assert staff_api.delete(f"/api/games/{game_id}/rounds/last/").status_code == 200
    patched = api.patch(f"/api/games/{game_id}/", {"notes": "Club night"}, format="json")
    assert patched.status_code == 200, patched.content
    # Refused: bob may not write alice's game; a round with a card already played. No line.
    assert other_api.delete(f"/api/games/{game_id}/rounds/last/").status_code == 403
    again = {"trump": "E6", "plays": [{"seat": 0, "card": "A9"}]}
    assert api.post(f"/api/games/{game_id}/rounds/", again, format="json").status_code == 400

    expected = [
        ("created", None, "alice"),
        ("added", 1, "alice"),
        ("added", 2, "alice"),
        ("corrected", 1, "carol"),
        ("undone", 2, "carol"),
        ("edited", None, "alice"),
    ]
    assert lines(api, game_id) == expected
    assert lines(other_api, game_id) == expected  # read like the game itself


def test_finishing_and_reopening_are_in_the_history(api: APIClient, user: Any) -> None:
    log = complots_simulate(3, seed=5, variant="inquisitor")
    (game,) = services.game_import(club=first_club(), owner=user, documents=[log])
    assert game.status == Game.Status.FINISHED
    assert api.post(f"/api/games/{game.pk}/reopen/").status_code == 200
    assert api.post(f"/api/games/{game.pk}/finish/", {}, format="json").status_code == 200
    # An imported game is one line: its owner created it, whole.
    assert lines(api, game.pk) == [
        ("created", None, "alice"),
        ("reopened", None, "alice"),
        ("finished", None, "alice"),
    ]


def test_a_deleted_games_history_stays(api: APIClient, make_complots: GameFactory) -> None:
    game = make_complots(turns=[{"actor": 0, "action": "income"}])
    assert api.delete(f"/api/games/{game.pk}/").status_code == 204
    assert api.get(f"/api/games/{game.pk}/history/").json()["code"] == "not_found"
    kept = GameEvent.objects.filter(game_id=game.pk).order_by("id")
    # The factory works through the services without a person: the turn's line names nobody.
    assert [(e.action, e.number, e.username) for e in kept] == [
        ("created", None, "alice"),
        ("added", 1, ""),
        ("deleted", None, "alice"),
    ]


@pytest.mark.parametrize("game_id", ["0", "9" * 30, str(2**63), "-1", "1e3"])
def test_a_history_of_no_game_is_not_found(api: APIClient, game_id: str) -> None:
    response = api.get(f"/api/games/{game_id}/history/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_history_needs_a_signed_in_user(anon_api: APIClient, make_complots: GameFactory) -> None:
    game = make_complots()
    response = anon_api.get(f"/api/games/{game.pk}/history/")
    assert response.status_code == 401
    assert "user" not in response.content.decode() and "alice" not in response.content.decode()
