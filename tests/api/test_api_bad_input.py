"""Bad requests: each gets its status and error code, and leaves the database as it was (row
counts of games, rounds, players, seats and decks, and every stored result and round)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.records.models import Player
from scoring.engine.potdevin.simulate import simulate

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str, **where: Any) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    assert "round" in body and "seat" in body
    for key, value in where.items():
        assert body[key] == value, body
    return body


@pytest.fixture
def game(make_game, hand):
    """A game with round 1 played: round 2 is seat 0's to start."""
    return make_game(rounds=hand.rounds[:1])


@pytest.fixture
def unchanged(snapshot, game):
    """Asserts, after the test, that the database is as it was before it."""
    before = snapshot()
    yield
    assert snapshot() == before


def rounds_url(game) -> str:
    return f"/api/games/{game.pk}/rounds/"


def test_malformed_json_is_400_parse_error(api, game, unchanged) -> None:
    for body in ('{"trump": "U4", "plays": [', "{'trump': 'U4'}", "nul", '{"a": 1}}'):
        response = api.generic("POST", rounds_url(game), body, content_type="application/json")
        assert_error(response, 400, "parse_error")
    response = api.generic("POST", "/api/games/import/", "[{", content_type="application/json")
    assert_error(response, 400, "parse_error")


def test_unknown_card_names_round_and_seat(api, game, unchanged) -> None:
    body = {"number": 2, "trump": "U4", "plays": [{"seat": 0, "card": "Z9"}]}
    assert_error(
        api.post(rounds_url(game), body, format="json"), 400, "unknown_card", round=2, seat=0
    )
    body = {"number": 2, "trump": "U14", "plays": [{"seat": 0, "card": "P5"}]}
    assert_error(api.post(rounds_url(game), body, format="json"), 400, "unknown_card", round=2)


def test_out_of_turn(api, game, unchanged) -> None:
    body = {"number": 2, "trump": "U4", "plays": [{"seat": 1, "card": "P5"}]}
    assert_error(
        api.post(rounds_url(game), body, format="json"), 400, "out_of_turn", round=2, seat=1
    )
    # A seat that should act is missing.
    body = {
        "number": 2,
        "trump": "U4",
        "plays": [{"seat": 0, "card": "P5"}, {"seat": 1, "card": "P8"}],
    }
    assert_error(
        api.post(rounds_url(game), body, format="json"), 400, "out_of_turn", round=2, seat=2
    )


@pytest.mark.parametrize("seat", [3, 7, -1, 1000])
def test_a_seat_not_at_the_table(api, game, unchanged, seat) -> None:
    body = {
        "number": 2,
        "trump": "U4",
        "plays": [{"seat": 0, "card": "P5"}, {"seat": seat, "card": "P8"}],
    }
    assert_error(
        api.post(rounds_url(game), body, format="json"), 400, "unknown_seat", round=2, seat=seat
    )


def test_a_play_with_neither_card_nor_pass(api, game, unchanged) -> None:
    body = {"number": 2, "trump": "U4", "plays": [{"seat": 0}]}
    assert_error(api.post(rounds_url(game), body, format="json"), 400, "malformed", round=2, seat=0)
    body = {"number": 2, "trump": "U4", "plays": [{"seat": 0, "card": "P5", "pass": True}]}
    assert_error(api.post(rounds_url(game), body, format="json"), 400, "malformed", round=2, seat=0)


def test_the_starter_cannot_pass(api, game, unchanged) -> None:
    body = {"number": 2, "trump": "U4", "plays": [{"seat": 0, "pass": True}]}
    assert_error(
        api.post(rounds_url(game), body, format="json"), 400, "starter_passed", round=2, seat=0
    )


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"trump": "U4", "plays": [{"seat": "x", "card": "P5"}]}, "plays"),
        ({"trump": "U4", "plays": {"seat": 0, "card": "P5"}}, "plays"),
        ({"trump": "U4", "plays": "P5"}, "plays"),
        ({"trump": "U4", "plays": [5]}, "plays"),
        ({"trump": "U4", "plays": [{"card": "P5"}]}, "plays"),
        ({"trump": "U4", "plays": [{"seat": 0, "card": ["P5"]}]}, "plays"),
        ({"trump": "U4", "plays": [{"seat": 0, "pass": "maybe"}]}, "plays"),
        ({"trump": "U4", "plays": [{"seat": 0, "card": "P5"}] * 13}, "plays"),  # too_long
        ({"trump": ["U4"], "plays": []}, "trump"),
        ({"trump": "U4" * 10, "plays": []}, "trump"),  # too_long
        ({"plays": []}, "trump"),
        ({"trump": "U4"}, "plays"),
        ({"number": "two", "trump": "U4", "plays": []}, "number"),
        ({"number": 0, "trump": "U4", "plays": []}, "number"),
        ({"number": 1001, "trump": "U4", "plays": []}, "number"),
        ({"number": 2.5, "trump": "U4", "plays": []}, "number"),
    ],
)
def test_wrong_types_are_400_invalid(api, game, unchanged, body, field) -> None:
    """Wrong shapes are `invalid`; a string or a list past its length alone is `too_long`, the
    stored-data gate's code, with its path."""
    response = api.post(rounds_url(game), body, format="json")
    too_long = len(body.get("plays") or ()) > 12 or len(str(body.get("trump"))) > 8
    error = assert_error(response, 400, "too_long" if too_long else "invalid")
    assert field in error["fields"]
    if too_long:
        assert error["path"] == field


@pytest.mark.parametrize("body", [[], [1, 2], "round", 42, None])
def test_a_body_that_is_not_an_object_is_400(api, game, unchanged, body) -> None:
    response = api.post(rounds_url(game), json.dumps(body), content_type="application/json")
    assert_error(response, 400, "invalid")


def test_oversized_payload_is_413(api, game, unchanged, settings, hand) -> None:
    settings.POTDEVIN_MAX_BODY_BYTES = 2000
    body = {"number": 2, **hand.rounds[1], "padding": "x" * 3000}
    assert_error(api.post(rounds_url(game), body, format="json"), 413, "payload_too_large")
    response = api.post("/api/games/import/", [{"notes": "y" * 2500}], format="json")
    assert_error(response, 413, "payload_too_large")
    response = api.post("/api/players/", {"name": "Ada", "pad": "z" * 2500}, format="json")
    assert_error(response, 413, "payload_too_large")
    # Under the limit the same round is taken.
    response = api.post(rounds_url(game), {"number": 2, **hand.rounds[1]}, format="json")
    assert response.status_code == 201
    api.delete(f"/api/games/{game.pk}/rounds/last/")  # as it was, for `unchanged`


@pytest.mark.parametrize("size", ["500", "201", "0", "-5", "abc", "99999999999999999999"])
def test_absurd_page_sizes_are_400(api, game, unchanged, size) -> None:
    for path in ("/api/games/", "/api/players/", "/api/decks/", "/api/editions/"):
        body = assert_error(api.get(f"{path}?page_size={size}"), 400, "invalid")
        assert "page_size" in body["fields"]


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/xml",
    ],
)
def test_non_json_content_type_is_415(api, game, unchanged, hand, content_type) -> None:
    body = json.dumps({"number": 2, **hand.rounds[1]})
    for path in (rounds_url(game), "/api/games/", "/api/games/import/", "/api/players/"):
        response = api.generic("POST", path, body, content_type=content_type)
        assert_error(response, 415, "unsupported_media_type")


def test_unknown_game_is_404(api, game, unchanged, hand) -> None:
    missing = game.pk + 100
    for method, path in [
        ("get", f"/api/games/{missing}/"),
        ("post", f"/api/games/{missing}/rounds/"),
        ("put", f"/api/games/{missing}/rounds/1/"),
        ("post", f"/api/games/{missing}/finish/"),
        ("delete", f"/api/games/{missing}/"),
    ]:
        response = getattr(api, method)(path, {"number": 2, **hand.rounds[1]}, format="json")
        assert_error(response, 404, "not_found")
    assert api.get("/api/games/abc/").status_code == 404


def test_a_refused_game_keeps_no_new_player(api, game, unchanged) -> None:
    """Players named in a game the engine refuses are not created."""
    for body, code in [
        ({"players": ["New1", "New2", "New3"], "first_player": 5}, "bad_first_player"),
        ({"players": ["New1", "New2"], "first_player": 0}, "bad_player_count"),
        ({"players": ["New1", "New2", 99999], "first_player": 0}, "unknown_player"),
        ({"players": ["New1", "New2", "new1"], "first_player": 0}, "player_twice"),
        (
            {
                "players": ["New1", "New2", "New3", "New4"],
                "first_player": 0,
                "teams": [[0, 1], [2, 3]],
            },
            "bad_teams",
        ),
        (
            {"players": ["New1", "New2", "New3"], "first_player": 0, "hands": {"0": ["A1"]}},
            "bad_hands",
        ),
    ]:
        response = api.post("/api/games/", body, format="json")
        assert response.status_code == 400, response.content
        assert response.json()["code"] == code
    scorepad = {"players": ["New1", "New2", "New3"], "tableaux": [{"jokers": 5}, {}, {}]}
    assert_error(api.post("/api/games/scorepad/", scorepad, format="json"), 400, "bad_tableau")
    assert not Player.objects.filter(name__startswith="New").exists()


def test_bad_game_fields_are_400_invalid(api, game, unchanged) -> None:
    for body in [
        {"players": "Ada", "first_player": 0},
        {"players": [], "first_player": 0},
        {"players": ["A", "B", "C"], "first_player": "first"},
        {"players": ["A", "B", "C"], "first_player": 0, "played_on": "2026-02-30"},
        {"players": ["A", "B", "C"], "first_player": 0, "deck": "nope"},
        {"players": ["A", "B", True], "first_player": 0},
    ]:
        assert_error(api.post("/api/games/", body, format="json"), 400, "invalid")
    # A name the name rule refuses has its code (games/names.py) and its place.
    for name, code in [("", "blank_name"), ("\u200b ", "blank_name"), ("x" * 81, "too_long")]:
        body = {"players": ["A", "B", name], "first_player": 0}
        error = assert_error(api.post("/api/games/", body, format="json"), 400, code)
        assert error["path"] == "players[2]" and "players" in error["fields"]


def test_import_refused_documents_change_nothing(api, game, unchanged) -> None:
    for body in [{"format": "potdevin-log/1", "players": ["A", "B", "C"]}, [{}], [[]]]:
        response = api.post("/api/games/import/", body, format="json")
        assert response.status_code == 400, response.content
        assert response.json()["index"] == 0


def test_bad_finish_and_patch_bodies(api, game, unchanged) -> None:
    url = f"/api/games/{game.pk}/"
    assert_error(api.post(f"{url}finish/", {"jokers": "nobles"}, format="json"), 400, "invalid")
    assert_error(api.patch(url, {"played_on": "tomorrow"}, format="json"), 400, "invalid")
    assert_error(api.patch(url, {"location": "x" * 121}, format="json"), 400, "too_long")


def test_nul_characters_are_refused_before_the_database(api, game, unchanged) -> None:
    """PostgreSQL stores no NUL in text or jsonb (it was a 500 there); refused on every
    database alike, with where it was."""
    log = simulate(3, seed=61)
    log["notes"] = "before\x00after"
    assert_error(
        api.post("/api/games/import/", log, format="json"), 400, "invalid_text", path="notes"
    )
    body = {"players": ["Ada\x00", "Bea", "Cy"], "first_player": 0}
    assert_error(
        api.post("/api/games/", body, format="json"), 400, "invalid_text", path="players[0]"
    )
    assert_error(api.post("/api/players/", {"name": "\x00"}, format="json"), 400, "invalid_text")
    # An escaped backslash before "u0000" is no NUL: that name is taken as written.
    response = api.post("/api/players/", {"name": "back\\u0000slash"}, format="json")
    assert response.status_code == 201 and response.json()["name"] == "back\\u0000slash"
    api.delete(f"/api/players/{response.json()['id']}/")  # as it was, for `unchanged`
    assert_error(api.get("/api/decks/%00/"), 404, "not_found")
    assert_error(api.get("/api/players/?name=%00"), 400, "invalid_text", path="name")


def test_an_api_url_no_route_takes_is_a_json_404(api, game, unchanged) -> None:
    for path in (
        "/api/nothing/",
        f"/api/games/{game.pk}/rounds/abc/",
        f"/api/games/{game.pk}/rounds/12345/",
        "/api/decks/not a slug/",
    ):
        assert_error(api.get(path), 404, "not_found")
