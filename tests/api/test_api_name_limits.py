"""Names over their limit are refused by the API (400, the name rule's code, the field, the
limit in the message), never cut; a name at the limit is stored whole. Nothing is stored for a
refusal."""

from __future__ import annotations

from typing import Any

import pytest

from games.records.models import (
    MAX_GAME_NAME_LENGTH,
    MAX_LOCATION_LENGTH,
    BoardGame,
    Club,
    Game,
    Player,
)
from games.records.names import MAX_NAME_LENGTH

pytestmark = pytest.mark.django_db

# Long names of real words: a cut would fall in the middle of one.
WORDS = "Anne-Sophie Marie-Thérèse de la Tour d'Auvergne-Lauraguais du Plessis-Praslin " * 4


def name_of(length: int) -> str:
    name = WORDS[:length]
    return name[:-1] + "x" if name.endswith(" ") else name


def counts() -> tuple[int, ...]:
    return (
        Player.objects.count(),
        Game.objects.count(),
        Club.objects.count(),
        BoardGame.objects.count(),
    )


def refused(response: Any, code: str = "too_long", most: int = MAX_NAME_LENGTH) -> dict[str, Any]:
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == code, body
    text = str(body)
    assert f"at most {most} characters" in text or f"no more than {most} characters" in text
    return body


def test_a_player_name_over_the_limit_is_refused_and_one_at_it_stored_whole(api: Any) -> None:
    assert len(name_of(81)) == 81 and len(name_of(80)) == 80
    before = counts()
    body = refused(api.post("/api/players/", {"name": name_of(81)}, format="json"))
    assert "name" in body["fields"], body
    assert counts() == before
    made = api.post("/api/players/", {"name": name_of(80)}, format="json")
    assert made.status_code == 201, made.content
    assert Player.objects.get(pk=made.json()["id"]).name == name_of(80)


def test_a_rename_over_the_limit_is_refused(api: Any) -> None:
    ada = api.post("/api/players/", {"name": "Ada"}, format="json").json()
    body = refused(api.patch(f"/api/players/{ada['id']}/", {"name": name_of(81)}, format="json"))
    assert "name" in body["fields"], body
    assert Player.objects.get(pk=ada["id"]).name == "Ada"


def test_a_new_game_with_a_player_name_over_the_limit_is_refused(
    api: Any, standard_deck: Any
) -> None:
    before = counts()
    players = ["Ada", name_of(81), "Cy"]
    body = {"players": players, "first_player": 0}
    answer = refused(api.post("/api/games/", body, format="json"))
    assert "players" in str(answer.get("fields")) or answer.get("seat") == 1, answer
    assert counts() == before
    body = {"players": ["Ada", name_of(80), "Cy"], "first_player": 0}
    made = api.post("/api/games/", body, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["seats"][1]["player"]["name"] == name_of(80)


def test_a_club_name_over_the_limit_is_refused(api: Any) -> None:
    before = counts()
    body = refused(api.post("/api/clubs/", {"name": name_of(81)}, format="json"))
    assert "name" in str(body.get("fields", body)), body
    assert counts() == before
    made = api.post("/api/clubs/", {"name": name_of(80)}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["name"] == name_of(80)


def test_a_board_game_name_over_the_limit_is_refused(api: Any) -> None:
    before = counts()
    body = refused(
        api.post("/api/board-games/", {"name": name_of(121)}, format="json"),
        most=MAX_GAME_NAME_LENGTH,
    )
    assert "name" in str(body.get("fields", body)), body
    assert counts() == before
    made = api.post("/api/board-games/", {"name": name_of(120)}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["name"] == name_of(120)


def test_a_location_over_the_limit_is_refused(api: Any, standard_deck: Any) -> None:
    before = counts()
    body = {"players": ["Ada", "Bea", "Cy"], "first_player": 0, "location": "L" * 121}
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 400, response.content
    assert "location" in str(response.json()), response.json()
    assert f"{MAX_LOCATION_LENGTH} characters" in str(response.json())
    assert counts() == before
