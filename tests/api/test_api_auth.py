"""Signing in (token and session), throttling of sign-in, and who may read and write what."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.records.models import Game, Player, Round
from tests.accounts import PASSWORD, first_club

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    assert "round" in body and "seat" in body
    if code is not None:
        assert body["code"] == code, body
    return body


# --- token sign-in ----------------------------------------------------------------------------


def test_token_for_good_credentials(anon_api, user) -> None:
    response = anon_api.post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=user).key}
    # The token signs in.
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    me = client.get("/api/me/")
    assert me.status_code == 200
    assert me.json() == {
        "id": user.pk,
        "username": "alice",
        "is_staff": False,
        "player": None,
        "clubs": [{"slug": "club", "name": "Club", "role": "recorder"}],
    }


def test_token_accepts_a_form_post_too(anon_api, user) -> None:
    response = anon_api.post("/api/auth/token/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=user).key


@pytest.mark.parametrize(
    "credentials",
    [
        {"username": "alice", "password": "wrong"},
        {"username": "nobody", "password": PASSWORD},
        {"username": "alice"},
        {},
    ],
)
def test_token_for_bad_credentials_is_a_json_400(anon_api, user, credentials) -> None:
    response = anon_api.post("/api/auth/token/", credentials, format="json")
    body = assert_error(response, 400, "invalid")
    assert "token" not in body
    assert not Token.objects.exists()


def test_token_for_an_inactive_user_is_refused(anon_api, user) -> None:
    user.is_active = False
    user.save()
    response = anon_api.post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert_error(response, 400, "invalid")


def test_sign_in_is_throttled(anon_api, user, throttle_rates) -> None:
    throttle_rates(signin="3/min")
    for _ in range(3):
        response = anon_api.post(
            "/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json"
        )
        assert response.status_code == 400
    # The fourth attempt in the minute is refused, even with the right password.
    response = anon_api.post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    body = assert_error(response, 429, "throttled")
    assert 0 < body["wait"] <= 60
    assert int(response["Retry-After"]) >= 1
    assert not Token.objects.exists()


def test_throttle_counts_start_afresh_in_each_test(anon_api, user, throttle_rates) -> None:
    # Same rate as above: this passes only because the cache is cleared between tests.
    throttle_rates(signin="3/min")
    response = anon_api.post(
        "/api/auth/token/", {"username": "alice", "password": PASSWORD}, format="json"
    )
    assert response.status_code == 200


def test_writes_are_throttled_per_user(api, staff_api, throttle_rates) -> None:
    throttle_rates(writes="2/min")
    for name in ("P1", "P2"):
        assert api.post("/api/players/", {"name": name}, format="json").status_code == 201
    assert_error(api.post("/api/players/", {"name": "P3"}, format="json"), 429, "throttled")
    # Reads are not throttled, and another user has a count of their own.
    assert api.get("/api/players/").status_code == 200
    assert staff_api.post("/api/players/", {"name": "P4"}, format="json").status_code == 201
    assert sorted(Player.objects.values_list("name", flat=True)) == ["P1", "P2", "P4"]


# --- session sign-in (pages) ------------------------------------------------------------------


def test_session_login_reads_the_api(user, make_game) -> None:
    game = make_game()
    client = APIClient()
    assert client.login(username="alice", password=PASSWORD)
    response = client.get("/api/games/")
    assert response.status_code == 200
    assert [g["id"] for g in response.json()["results"]] == [game.pk]
    assert client.get("/api/me/").json()["username"] == "alice"


def test_session_writes_need_the_csrf_token(user) -> None:
    client = APIClient(enforce_csrf_checks=True)
    assert client.login(username="alice", password=PASSWORD)
    refused = client.post("/api/players/", {"name": "Ada"}, format="json")
    assert_error(refused, 403)
    assert not Player.objects.exists()
    # A page has the token from its CSRF cookie.
    client.get("/admin/login/")
    csrf = client.cookies["csrftoken"].value
    response = client.post("/api/players/", {"name": "Ada"}, format="json", HTTP_X_CSRFTOKEN=csrf)
    assert response.status_code == 201


def test_a_bad_token_is_401_not_anonymous() -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert_error(client.get("/api/games/"), 401, "authentication_failed")


# --- permissions ------------------------------------------------------------------------------


def writes(game: Game, hand) -> list[tuple[str, str, dict | None]]:
    """Every write on one game, as (method, path, body)."""
    base = f"/api/games/{game.pk}/"
    return [
        ("patch", base, {"notes": "mine now"}),
        ("delete", base, None),
        ("post", f"{base}rounds/", {"number": 2, **hand.rounds[1]}),
        ("put", f"{base}rounds/1/", hand.rounds[0]),
        ("delete", f"{base}rounds/last/", None),
        ("post", f"{base}finish/", {}),
        ("post", f"{base}reopen/", None),
    ]


def game_state(game: Game) -> tuple:
    game = Game.objects.get(pk=game.pk)
    rounds = list(Round.objects.filter(game=game).values_list("number", "data"))
    return (game.notes, game.status, game.result, rounds)


def test_another_users_writes_are_403(other_api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:1])
    before = game_state(game)
    for method, path, body in writes(game, hand):
        response = getattr(other_api, method)(path, body, format="json")
        assert_error(response, 403, "permission_denied")
    assert game_state(game) == before
    # Reading it is allowed.
    assert other_api.get(f"/api/games/{game.pk}/").status_code == 200


def test_anonymous_writes_are_401(anon_api, make_game, hand, settings) -> None:
    game = make_game(rounds=hand.rounds[:1])
    before = game_state(game)
    for public in (False, True):
        settings.POTDEVIN_PUBLIC_READS = public
        for method, path, body in [
            *writes(game, hand),
            ("post", "/api/games/", {"players": ["X", "Y", "Z"], "first_player": 0}),
            ("post", "/api/games/import/", {"format": "potdevin-log/1"}),
            ("post", "/api/players/", {"name": "Zed"}),
            ("post", "/api/decks/", {"key": "mine", "cards": {}}),
        ]:
            response = getattr(anon_api, method)(path, body, format="json")
            assert_error(response, 401, "not_authenticated")
            assert response["WWW-Authenticate"].startswith("Token")
    assert game_state(game) == before
    assert not Player.objects.filter(name__in=["X", "Zed"]).exists()


READ_PATHS = [
    "/api/games/",
    "/api/games/{id}/",
    "/api/games/{id}/rounds/",
    "/api/games/{id}/rounds/1/",
    "/api/games/{id}/log/",
    "/api/players/",
    "/api/decks/",
    "/api/decks/standard/",
]


def test_anonymous_reads_are_401_by_default(anon_api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:1])
    for path in READ_PATHS:
        assert_error(anon_api.get(path.format(id=game.pk)), 401, "not_authenticated")


def test_anonymous_reads_a_public_clubs_finished_games(anon_api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    club = first_club()
    # Not public: every read is 401, whether the game exists or not.
    for path in [*READ_PATHS[:5], "/api/games/?club=club", "/api/games/999/"]:
        assert_error(anon_api.get(path.format(id=game.pk)), 401, "not_authenticated")
    club.public_results = True
    club.save()
    for path in READ_PATHS[1:5]:
        response = anon_api.get(path.format(id=game.pk))
        assert response.status_code == 200, (path, response.content)
    listed = anon_api.get("/api/games/?club=club").json()["results"]
    assert [g["id"] for g in listed] == [game.pk]
    # The list names its club; a game in progress, the players and the history stay private.
    assert_error(anon_api.get("/api/games/"), 401, "not_authenticated")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PROGRESS)
    assert_error(anon_api.get(f"/api/games/{game.pk}/"), 401, "not_authenticated")
    assert anon_api.get("/api/games/?club=club").json()["results"] == []
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert_error(anon_api.get(f"/api/games/{game.pk}/history/"), 401, "not_authenticated")
    assert_error(anon_api.get("/api/players/"), 401, "not_authenticated")
    # Still never a write, and the account endpoint is for signed-in users only.
    response = anon_api.post(f"/api/games/{game.pk}/rounds/", hand.rounds[1], format="json")
    assert_error(response, 401)
    assert_error(anon_api.get("/api/me/"), 401, "not_authenticated")


def test_staff_write_other_users_games(staff_api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:1])
    response = staff_api.patch(f"/api/games/{game.pk}/", {"notes": "checked"}, format="json")
    assert response.status_code == 200 and response.json()["notes"] == "checked"
    response = staff_api.post(
        f"/api/games/{game.pk}/rounds/", {"number": 2, **hand.rounds[1]}, format="json"
    )
    assert response.status_code == 201
    assert Round.objects.filter(game=game).count() == 2
    response = staff_api.delete(f"/api/games/{game.pk}/rounds/last/")
    assert response.status_code == 200
    assert staff_api.delete(f"/api/games/{game.pk}/").status_code == 204
    assert not Game.objects.filter(pk=game.pk).exists()


def test_staff_edits_keep_the_owner(staff_api, make_game, user) -> None:
    game = make_game()
    staff_api.patch(f"/api/games/{game.pk}/", {"location": "Hall"}, format="json")
    game.refresh_from_db()
    assert game.owner_id == user.pk and game.location == "Hall"


def test_players_are_changed_by_their_creator_or_staff(api, other_api, staff_api) -> None:
    created = api.post("/api/players/", {"name": "Ada"}, format="json").json()
    path = f"/api/players/{created['id']}/"
    assert_error(other_api.patch(path, {"name": "Eve"}, format="json"), 403)
    assert_error(other_api.delete(path), 403)
    assert Player.objects.get().name == "Ada"
    assert staff_api.patch(path, {"name": "Ada L."}, format="json").status_code == 200
    assert api.patch(path, {"name": "Ada Lovelace"}, format="json").status_code == 200
    assert Player.objects.get().name == "Ada Lovelace"


def test_client_cannot_set_owner_result_engine_version_or_status(api, user, other_user) -> None:
    forged = {
        "players": ["Ada", "Bea", "Cy"],
        "first_player": 1,
        "owner": other_user.pk,
        "result": {"players": [{"score": 99}]},
        "engine_version": "9.9.9",
        "status": "finished",
        "mode": "scorepad",
        "finished_at": "2026-01-01T00:00:00Z",
        "id": 4242,
    }
    response = api.post("/api/games/", forged, format="json")
    assert response.status_code == 201
    body = response.json()
    game = Game.objects.get(pk=body["id"])
    assert game.pk != 4242
    assert game.owner_id == user.pk and body["owner"] == "alice"
    assert game.status == body["status"] == "in_progress"
    assert game.mode == "rounds" and game.finished_at is None
    assert game.engine_version == body["engine_version"] == "1.0.0"
    assert body["result"]["rounds_played"] == 0
    assert [p["score"] for p in body["result"]["players"]] == [0, 0, 0]

    patch = {k: v for k, v in forged.items() if k != "players"}
    patch["notes"] = "edited"
    response = api.patch(f"/api/games/{game.pk}/", patch, format="json")
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.notes == "edited"
    assert game.owner_id == user.pk and game.status == "in_progress" and game.mode == "rounds"
    assert game.engine_version == "1.0.0" and game.result["rounds_played"] == 0
    assert game.first_player == 1


def test_new_users_games_list_is_everyones(api, other_api, make_game, other_user) -> None:
    """Signed-in users read every game (only writes are the owner's)."""
    mine = make_game()
    theirs = make_game(owner=other_user, players=["Dev", "Eli", "Flo"])
    ids = {g["id"] for g in other_api.get("/api/games/").json()["results"]}
    assert ids == {mine.pk, theirs.pk}
    assert get_user_model().objects.count() == 2
