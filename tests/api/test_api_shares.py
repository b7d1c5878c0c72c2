"""Share links through the API: the game's owner or staff makes, lists and stops them; nobody
else sees a token; a stopped link opens nothing; hostile tokens are not found."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.records.models import GameShare
from tests.api.conftest import GameFactory

pytestmark = pytest.mark.django_db


def test_owner_makes_lists_and_stops_a_share_link(
    api: APIClient, anon_api: APIClient, make_complots: GameFactory
) -> None:
    game = make_complots()
    made = api.post(f"/api/games/{game.pk}/shares/")
    assert made.status_code == 201, made.content
    body = made.json()
    assert set(body) == {"token", "url", "created_by", "created_at"}
    token = body["token"]
    assert body["url"] == f"http://testserver/shared/{token}/"
    assert body["created_by"] == "alice"
    assert GameShare.objects.get().token == token
    listed = api.get(f"/api/games/{game.pk}/shares/")
    assert [s["token"] for s in listed.json()] == [token]

    # The page opens for anyone with the link, until it is stopped.
    assert anon_api.get(f"/shared/{token}/").status_code == 200
    assert api.delete(f"/api/games/{game.pk}/shares/{token}/").status_code == 204
    assert anon_api.get(f"/shared/{token}/").status_code == 404
    assert api.get(f"/api/games/{game.pk}/shares/").json() == []
    again = api.delete(f"/api/games/{game.pk}/shares/{token}/")
    assert again.status_code == 404 and again.json()["code"] == "not_found"


def test_nobody_else_sees_or_makes_a_games_links(
    api: APIClient,
    other_api: APIClient,
    staff_api: APIClient,
    anon_api: APIClient,
    make_complots: GameFactory,
) -> None:
    game = make_complots()
    token = api.post(f"/api/games/{game.pk}/shares/").json()["token"]
    for response in (
        other_api.get(f"/api/games/{game.pk}/shares/"),
        other_api.post(f"/api/games/{game.pk}/shares/"),
        other_api.delete(f"/api/games/{game.pk}/shares/{token}/"),
    ):
        assert response.status_code == 403, response.content
        assert token not in response.content.decode()
    for response in (
        anon_api.get(f"/api/games/{game.pk}/shares/"),
        anon_api.post(f"/api/games/{game.pk}/shares/"),
    ):
        assert response.status_code == 401
    assert GameShare.objects.count() == 1
    # Staff may, as for every change of a game.
    assert [s["token"] for s in staff_api.get(f"/api/games/{game.pk}/shares/").json()] == [token]
    assert staff_api.delete(f"/api/games/{game.pk}/shares/{token}/").status_code == 204
    # A link is stopped only through its own game.
    other_game = make_complots()
    token = api.post(f"/api/games/{game.pk}/shares/").json()["token"]
    assert api.delete(f"/api/games/{other_game.pk}/shares/{token}/").status_code == 404
    assert GameShare.objects.get(token=token).revoked_at is None


@pytest.mark.parametrize(
    "token", ["A" * 32, "A" * 65, "%00", "..%2F..%2F", "%F0%9F%8E%B2", "a b", "9" * 64]
)
def test_a_hostile_token_is_not_found(
    api: APIClient, make_complots: GameFactory, token: str
) -> None:
    game = make_complots()
    response = api.delete(f"/api/games/{game.pk}/shares/{token}/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_at_most_twenty_links_at_once(api: APIClient, make_complots: GameFactory) -> None:
    game = make_complots()
    for _ in range(20):
        assert api.post(f"/api/games/{game.pk}/shares/").status_code == 201
    refused = api.post(f"/api/games/{game.pk}/shares/")
    assert refused.status_code == 409 and refused.json()["code"] == "too_many_shares"
    assert GameShare.objects.filter(game=game).count() == 20


def test_a_shared_games_links_go_with_it(api: APIClient, make_complots: GameFactory) -> None:
    game = make_complots()
    token = api.post(f"/api/games/{game.pk}/shares/").json()["token"]
    assert api.delete(f"/api/games/{game.pk}/").status_code == 204
    assert not GameShare.objects.exists()
    assert APIClient().get(f"/shared/{token}/").status_code == 404
