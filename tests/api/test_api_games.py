"""Players, deck versions, and games as resources: create, read, change, delete; the list's
filters and pagination."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.authtoken.models import Token

from games.records import services
from games.records.models import Edition, Game, Player, Round, Seat
from scoring.engine.potdevin.cards import GUILDS
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import first_club

pytestmark = pytest.mark.django_db


def d1_cards() -> dict[str, list[str]]:
    """Rules D1 layout (A=0, P=1, E=2, U=3)."""
    cards = {}
    for ci, ch in enumerate("APEU"):
        for v in range(4, 10):
            cards[f"{ch}{v}"] = [GUILDS[(v - 4 + ci) % 6]]
        for v in range(10, 13):
            cards[f"{ch}{v}"] = [GUILDS[((v - 10) * 4 + ci) % 6]] * 2
    return cards


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    assert "round" in body and "seat" in body
    if code is not None:
        assert body["code"] == code, body
    return body


# --- players ----------------------------------------------------------------------------------


def test_player_crud(api, user) -> None:
    response = api.post("/api/players/", {"name": "  Ada  "}, format="json")
    assert response.status_code == 201
    ada = response.json()
    assert ada["name"] == "Ada" and ada["user"] is None
    stored = Player.objects.get(pk=ada["id"])
    assert stored.name == "Ada" and stored.created_by_id == user.pk

    api.post("/api/players/", {"name": "Bea"}, format="json")
    listed = api.get("/api/players/").json()
    assert listed["count"] == 2
    assert [p["name"] for p in listed["results"]] == ["Ada", "Bea"]
    assert api.get(f"/api/players/{ada['id']}/").json()["name"] == "Ada"
    assert [p["name"] for p in api.get("/api/players/?name__icontains=E").json()["results"]] == [
        "Bea"
    ]

    response = api.patch(f"/api/players/{ada['id']}/", {"name": "Ada L."}, format="json")
    assert response.status_code == 200 and response.json()["name"] == "Ada L."
    assert api.delete(f"/api/players/{ada['id']}/").status_code == 204
    assert list(Player.objects.values_list("name", flat=True)) == ["Bea"]
    assert_error(api.get(f"/api/players/{ada['id']}/"), 404, "not_found")


@pytest.mark.parametrize("name", ["ada", "ADA", " Ada ", "aDa"])
def test_player_name_taken_in_any_case_is_409(api, name) -> None:
    api.post("/api/players/", {"name": "Ada"}, format="json")
    assert_error(api.post("/api/players/", {"name": name}, format="json"), 409, "player_exists")
    assert Player.objects.count() == 1


def test_player_rename_to_a_taken_name_is_409(api) -> None:
    api.post("/api/players/", {"name": "Ada"}, format="json")
    bea = api.post("/api/players/", {"name": "Bea"}, format="json").json()
    response = api.patch(f"/api/players/{bea['id']}/", {"name": "ADA"}, format="json")
    assert_error(response, 409, "player_exists")
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ada", "Bea"]
    # Renaming a player to itself in another case is fine.
    response = api.patch(f"/api/players/{bea['id']}/", {"name": "BEA"}, format="json")
    assert response.status_code == 200 and response.json()["name"] == "BEA"


def test_player_with_games_cannot_be_deleted(api, make_game) -> None:
    make_game(players=["Ada", "Bea", "Cy"])
    ada = Player.objects.get(name="Ada")
    # make_game's players were made by the user, so the user may delete them, if unused.
    assert_error(api.delete(f"/api/players/{ada.pk}/"), 409, "in_use")
    assert Player.objects.filter(pk=ada.pk).exists()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": ""}, "blank_name"),
        ({"name": "   "}, "blank_name"),
        ({}, "invalid"),
        ({"name": "x" * 81}, "too_long"),
    ],
)
def test_player_bad_name_is_400(api, body, code) -> None:
    body_json = assert_error(api.post("/api/players/", body, format="json"), 400, code)
    assert "name" in body_json["fields"]
    assert not Player.objects.exists()


# --- decks ------------------------------------------------------------------------------------


def test_standard_deck_is_listed_and_not_verified(api, standard_deck) -> None:
    listed = api.get("/api/decks/").json()
    assert [d["key"] for d in listed["results"]] == ["standard"]
    deck = api.get("/api/decks/standard/").json()
    assert deck["verified"] is False
    assert deck["cards"] == d1_cards()  # rules D1, computed here from the rule
    assert_error(api.get("/api/decks/nope/"), 404, "not_found")


def test_deck_create(api, user, standard_deck) -> None:
    cards = d1_cards()
    cards["A4"] = ["nobles", "artists"]  # a card with two different guilds (D1 allows it)
    body = {"key": "club-2026", "cards": cards, "description": "as printed", "verified": True}
    response = api.post("/api/decks/", body, format="json")
    assert response.status_code == 201
    created = response.json()
    assert created["key"] == "club-2026" and created["cards"] == cards
    assert created["verified"] is False  # only staff mark a deck verified
    deck = Edition.objects.get(game_type="pot-de-vin", key="club-2026")
    assert deck.created_by_id == user.pk and deck.verified is False
    assert deck.data == cards


@pytest.mark.parametrize(
    "change",
    [
        lambda c: c.pop("A4"),  # a guild card missing
        lambda c: c.update(A1=["nobles"]),  # a Joker with a symbol
        lambda c: c.update(A5=["bankers"]),  # an unknown guild
        lambda c: c.update(A5=[]),  # no symbol
        lambda c: c.update(Z5=["nobles"]),  # not a card
    ],
)
def test_deck_with_a_bad_layout_is_400_bad_deck(api, standard_deck, change) -> None:
    cards = d1_cards()
    change(cards)
    response = api.post("/api/decks/", {"key": "broken", "cards": cards}, format="json")
    assert_error(response, 400, "bad_deck")
    assert not Edition.objects.filter(key="broken").exists()


def test_deck_with_three_symbols_on_a_card_is_400(api, standard_deck) -> None:
    cards = d1_cards()
    cards["A5"] = ["nobles"] * 3
    response = api.post("/api/decks/", {"key": "broken", "cards": cards}, format="json")
    error = assert_error(response, 400, "too_long")  # at most 2 symbols
    assert error["path"] == "cards.A5" and "cards" in error["fields"]
    assert not Edition.objects.filter(key="broken").exists()


def test_deck_key_taken_is_409(api, standard_deck) -> None:
    changed = d1_cards()
    changed["A4"] = ["artists"]
    response = api.post("/api/decks/", {"key": "standard", "cards": changed}, format="json")
    assert_error(response, 409, "deck_exists")
    assert Edition.objects.get(game_type="pot-de-vin", key="standard").data == d1_cards()


def test_deck_verified_is_set_by_staff_only(api, staff_api, standard_deck) -> None:
    assert_error(api.patch("/api/decks/standard/", {"verified": True}, format="json"), 403)
    assert Edition.objects.get(game_type="pot-de-vin", key="standard").verified is False
    changed = d1_cards()
    changed["A4"] = ["artists"]
    response = staff_api.patch(
        "/api/decks/standard/", {"verified": True, "cards": changed}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["verified"] is True
    deck = Edition.objects.get(game_type="pot-de-vin", key="standard")
    assert deck.verified is True
    assert deck.data == d1_cards()  # a version's cards never change


# --- games: create, read, change, delete ------------------------------------------------------


def test_game_create_by_names_and_ids(api, user, standard_deck) -> None:
    bea = Player.objects.create(club=first_club(), name="Bea")
    body = {
        "players": ["Ada", bea.pk, "Cy"],
        "first_player": 2,
        "played_on": "2026-05-01",
        "location": "Club",
        "notes": "first game",
    }
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 201
    game = response.json()
    assert game["status"] == "in_progress" and game["mode"] == "rounds"
    assert game["deck"] == "standard" and game["deck_verified"] is False
    assert [s["player"]["name"] for s in game["seats"]] == ["Ada", "Bea", "Cy"]
    assert game["seats"][1]["player"]["id"] == bea.pk
    assert [s["seat"] for s in game["seats"]] == [0, 1, 2]
    assert (game["first_player"], game["played_on"], game["location"]) == (2, "2026-05-01", "Club")
    assert game["rounds"] == [] and game["winners"] == []
    assert game["game_type"] == "pot-de-vin" and game["edition"] == "standard"
    assert "turns" not in game and "variant" not in game
    assert Player.objects.count() == 3
    assert Game.objects.get(pk=game["id"]).owner_id == user.pk
    assert api.get(f"/api/games/{game['id']}/").json() == game


def test_game_create_naming_its_game_type(api, standard_deck) -> None:
    body = {"game_type": "pot-de-vin", "players": ["Ada", "Bea", "Cy"], "first_player": 0}
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["game_type"] == "pot-de-vin" and game["deck"] == "standard"
    assert [p["score"] for p in game["result"]["players"]] == [0, 0, 0]
    # A Complots field means nothing to a Pot de Vin game; its own are checked as always.
    body = {**body, "players": ["Dev", "Eli", "Flo"], "variant": "inquisitor", "deck": "nope"}
    response = api.post("/api/games/", body, format="json")
    assert "deck" in assert_error(response, 400, "invalid")["fields"]


def test_game_create_with_the_deal(api, standard_deck) -> None:
    log = simulate(4, seed=21)
    body = {
        "players": log["players"],
        "first_player": log["first_player"],
        "hands": log["hands"],
        "trump_pile": log["trump_pile"],
        "teams": None,
    }
    game = api.post("/api/games/", body, format="json").json()
    assert game["hands"] == log["hands"] and game["trump_pile"] == log["trump_pile"]
    # The deal is checked: a round off the recorded pile is refused.
    first = log["rounds"][0]
    wrong = {"trump": log["trump_pile"][1], "plays": first["plays"]}
    response = api.post(f"/api/games/{game['id']}/rounds/", wrong, format="json")
    assert_error(response, 400, "wrong_trump")


def test_game_create_with_teams(api, standard_deck) -> None:
    body = {"players": ["A", "B", "C", "D"], "first_player": 0, "teams": [[0, 2], [1, 3]]}
    game = api.post("/api/games/", body, format="json").json()
    assert [s["team"] for s in game["seats"]] == [0, 1, 0, 1]
    body["teams"] = [[0, 1], [2, 3]]  # teammates side by side
    body["players"] = ["E", "F", "G", "H"]
    assert_error(api.post("/api/games/", body, format="json"), 400, "bad_teams")
    assert not Player.objects.filter(name="E").exists()


def test_game_update_changes_only_what_the_engine_does_not_read(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    response = api.patch(
        f"/api/games/{game.pk}/",
        {"played_on": "2026-02-03", "location": "Home", "notes": "rematch", "first_player": 0},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["played_on"], body["location"], body["notes"]) == (
        "2026-02-03",
        "Home",
        "rematch",
    )
    assert body["first_player"] == 1
    assert [p["score"] for p in body["result"]["players"]] == hand.scores_after_3


def test_game_delete_removes_its_seats_and_rounds_not_its_players(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    assert api.delete(f"/api/games/{game.pk}/").status_code == 204
    assert not Game.objects.exists() and not Seat.objects.exists() and not Round.objects.exists()
    assert Player.objects.count() == 3
    assert_error(api.get(f"/api/games/{game.pk}/"), 404, "not_found")


def test_game_detail_shows_the_hand_worked_result(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    body = api.get(f"/api/games/{game.pk}/").json()
    assert [r["number"] for r in body["rounds"]] == [1, 2, 3]
    assert [p["score"] for p in body["result"]["players"]] == hand.scores_after_3
    assert [p["rank"] for p in body["result"]["players"]] == hand.ranks_after_3
    assert [r["winner"] for r in body["result"]["rounds"]] == hand.winners
    # In progress: the seats have no stored score or rank yet, so no winners either.
    assert [s["score"] for s in body["seats"]] == [None, None, None]
    assert body["winners"] == []


# --- games: list, filters, pagination ---------------------------------------------------------


@pytest.fixture
def varied_games(user, make_game, standard_deck):
    """Five games with known players, dates, sizes, status and mode."""
    g1 = make_game(players=["Ada", "Bea", "Cy"], played_on=datetime.date(2026, 1, 10))
    log2 = simulate(4, seed=31, names=["Ada", "Dev", "Eli", "Flo"])
    log2["played_on"] = "2026-02-10"
    log3 = simulate(3, seed=32, names=["Bea", "Cy", "Dev"])
    log3["played_on"] = "2026-03-10"
    log4 = simulate(5, seed=33, names=["Cy", "Dev", "Eli", "Flo", "Gus"])
    log4["played_on"] = "2026-03-20"
    log4["rounds"] = log4["rounds"][:3]  # in progress
    g2, g3, g4 = services.game_import(club=first_club(), owner=user, documents=[log2, log3, log4])
    full = [dict.fromkeys((*GUILDS, "jokers", "bonus", "malus", "pot_de_vin", "gems"), 0)] * 3
    g5 = services.scorepad_game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(
            club=first_club(), refs=["Ada", "Eli", "Gus"], created_by=user
        ),
        game_type="pot-de-vin",
        edition=standard_deck,
        sheet=[{**t, "cards": 0} for t in full],
        played_on=datetime.date(2026, 4, 1),
    )
    names = {p.name: p.pk for p in Player.objects.all()}
    return {"g1": g1.pk, "g2": g2.pk, "g3": g3.pk, "g4": g4.pk, "g5": g5.pk, "players": names}


def ids(api, query: str = "") -> list[int]:
    response = api.get(f"/api/games/{query}")
    assert response.status_code == 200, response.content
    return [g["id"] for g in response.json()["results"]]


def test_game_list_order_and_shape(api, varied_games) -> None:
    g = varied_games
    assert ids(api) == [g["g5"], g["g4"], g["g3"], g["g2"], g["g1"]]  # newest played first
    first = api.get("/api/games/").json()["results"][-1]
    assert first["player_count"] == 3 and first["owner"] == "alice"
    assert [s["player"]["name"] for s in first["seats"]] == ["Ada", "Bea", "Cy"]
    assert "result" not in first and "rounds" not in first


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("?player={Ada}", {"g1", "g2", "g5"}),
        ("?player={Dev}", {"g2", "g3", "g4"}),
        ("?player={Gus}", {"g4", "g5"}),
        ("?date_from=2026-02-10", {"g2", "g3", "g4", "g5"}),
        ("?date_to=2026-02-10", {"g1", "g2"}),
        ("?date_from=2026-02-11&date_to=2026-03-19", {"g3"}),
        ("?players=3", {"g1", "g3", "g5"}),
        ("?players=4", {"g2"}),
        ("?players=6", set()),
        ("?status=finished", {"g2", "g3", "g5"}),
        ("?status=in_progress", {"g1", "g4"}),
        ("?mode=scorepad", {"g5"}),
        ("?game_type=pot-de-vin", {"g1", "g2", "g3", "g4", "g5"}),
        ("?player={Bea}&status=finished", {"g3"}),
        ("?player={Cy}&players=3&date_from=2026-02-01", {"g3"}),
        ("?player=999999", set()),
    ],
)
def test_game_list_filters(api, varied_games, query, expected) -> None:
    query = query.format(**varied_games["players"])
    assert set(ids(api, query)) == {varied_games[k] for k in expected}


@pytest.mark.parametrize(
    "query",
    [
        "?status=over",
        "?game_type=chess",
        "?date_from=yesterday",
        "?date_to=2026-13-01",
        "?player=abc",
        "?players=x",
        "?player=99999999999999999999999999",
        "?players=99999999999999999999999999",
        "?player=-1",
    ],
)
def test_game_list_bad_filters_are_400(api, varied_games, query) -> None:
    assert_error(api.get(f"/api/games/{query}"), 400, "invalid")


def test_the_winners_of_finished_games_are_listed(api, user, standard_deck) -> None:
    log = simulate(3, seed=34)
    (game,) = services.game_import(club=first_club(), owner=user, documents=[log])
    listed = api.get("/api/games/").json()["results"][0]
    ranks = {s["seat"]: s["rank"] for s in listed["seats"]}
    assert listed["winners"] == sorted(s for s, r in ranks.items() if r == 1)
    assert listed["winners"] == game.result["winners"]


def test_pagination(api, make_game) -> None:
    made = [make_game(played_on=datetime.date(2026, 1, day)).pk for day in (1, 2, 3)]
    page1 = api.get("/api/games/?page_size=2").json()
    assert page1["count"] == 3
    assert [g["id"] for g in page1["results"]] == [made[2], made[1]]
    assert page1["previous"] is None and "page=2" in page1["next"]
    page2 = api.get("/api/games/?page_size=2&page=2").json()
    assert [g["id"] for g in page2["results"]] == [made[0]]
    assert page2["next"] is None
    assert len(api.get("/api/games/?page_size=200").json()["results"]) == 3
    assert_error(api.get("/api/games/?page_size=2&page=3"), 404, "not_found")
    assert_error(api.get("/api/games/?page=99"), 404, "not_found")
    assert_error(api.get("/api/games/?page=abc"), 404, "not_found")


@pytest.mark.parametrize("size", ["201", "500", "0", "-1", "abc", "1.5", "", "²", "1e2"])
def test_page_sizes_out_of_range_are_400(api, make_game, size) -> None:
    make_game()
    body = assert_error(api.get(f"/api/games/?page_size={size}"), 400, "invalid")
    assert "page_size" in body["fields"]


def test_players_and_decks_lists_are_paginated_too(api) -> None:
    for i in range(3):
        api.post("/api/players/", {"name": f"P{i}"}, format="json")
    body = api.get("/api/players/?page_size=2").json()
    assert body["count"] == 3 and len(body["results"]) == 2
    assert_error(api.get("/api/players/?page_size=500"), 400, "invalid")
    assert_error(api.get("/api/decks/?page_size=0"), 400, "invalid")


def test_me_names_the_linked_player(api, user) -> None:
    ada = Player.objects.create(club=first_club(), name="Ada", user=user)
    assert api.get("/api/me/").json()["player"] == ada.pk
    assert Token.objects.filter(user=user).exists()


# --- game types and editions ------------------------------------------------------------------


def test_game_types_say_how_each_game_is_recorded(api) -> None:
    body = api.get("/api/game-types/").json()
    by_type = {g["game_type"]: g for g in body}
    # ...and "other": every game without an engine here, by its final scores (its own test).
    assert list(by_type) == ["pot-de-vin", "complots", "bruges", "other"]
    pot, plot, bruges = by_type["pot-de-vin"], by_type["complots"], by_type["bruges"]
    # Pot de Vin: 3 to 6 players, round by round, decks, a scorepad mode (its rules).
    assert (pot["entries_key"], pot["entry_name"], pot["log_format"]) == (
        "rounds",
        "round",
        "potdevin-log/1",
    )
    assert pot["player_counts"] == [3, 4, 5, 6] and pot["variants"] == []
    assert (pot["has_editions"], pot["default_edition"], pot["scorepad"]) == (
        True,
        "standard",
        True,
    )
    # Complots: 2 to 8 players, turn by turn, the ambassador or the inquisitor (its rules).
    assert (plot["entries_key"], plot["entry_name"], plot["log_format"]) == (
        "turns",
        "turn",
        "complots-log/1",
    )
    assert plot["player_counts"] == [2, 3, 4, 5, 6, 7, 8]
    assert plot["variants"] == ["ambassador", "inquisitor"]
    assert plot["default_variant"] == "ambassador"
    # ... and by its result only, the elimination order (scorepad mode, K4).
    assert (plot["has_editions"], plot["default_edition"], plot["scorepad"]) == (
        False,
        None,
        True,
    )
    # Bruges: 2 to 4 players, round by round, on an edition of its board (rules B1).
    assert (bruges["entries_key"], bruges["entry_name"], bruges["log_format"]) == (
        "rounds",
        "round",
        "bruges-log/1",
    )
    assert bruges["player_counts"] == [2, 3, 4] and bruges["variants"] == []
    assert (bruges["has_editions"], bruges["default_edition"], bruges["scorepad"]) == (
        True,
        "standard",
        True,  # by its final score sheet too
    )


def test_editions_of_every_game(api, standard_deck) -> None:
    listed = api.get("/api/editions/").json()
    # The built-in ones: Pot de Vin's deck (D1) and Bruges' board (B1), by game type.
    assert [(e["game_type"], e["key"]) for e in listed["results"]] == [
        ("bruges", "standard"),
        ("pot-de-vin", "standard"),
    ]
    one = api.get("/api/editions/pot-de-vin/standard/").json()
    assert one["data"] == d1_cards() and one["verified"] is False
    assert api.get("/api/editions/?game_type=complots").json()["results"] == []
    assert len(api.get("/api/editions/?game_type=pot-de-vin").json()["results"]) == 1
    assert_error(api.get("/api/editions/?game_type=chess"), 400, "invalid")
    assert_error(api.get("/api/editions/complots/standard/"), 404, "not_found")
    assert_error(api.get("/api/editions/pot-de-vin/nope/"), 404, "not_found")


def test_edition_create_and_verify(api, staff_api, user, standard_deck) -> None:
    cards = d1_cards()
    cards["A4"] = ["nobles", "artists"]
    body = {"game_type": "pot-de-vin", "key": "club-2026", "data": cards, "verified": True}
    response = api.post("/api/editions/", body, format="json")
    assert response.status_code == 201, response.content
    created = response.json()
    assert created["data"] == cards and created["verified"] is False  # staff verify
    assert Edition.objects.get(game_type="pot-de-vin", key="club-2026").created_by_id == user.pk
    # A Pot de Vin edition is one of its decks.
    assert api.get("/api/decks/club-2026/").json()["cards"] == cards
    assert_error(api.post("/api/editions/", body, format="json"), 409, "deck_exists")

    broken = {**body, "key": "broken", "data": {**cards, "A1": ["nobles"]}}
    assert_error(api.post("/api/editions/", broken, format="json"), 400, "bad_deck")
    plot = {"game_type": "complots", "key": "first", "data": {}}
    assert_error(api.post("/api/editions/", plot, format="json"), 400, "no_editions")
    chess = {"game_type": "chess", "key": "first", "data": {}}
    assert_error(api.post("/api/editions/", chess, format="json"), 400, "unknown_game_type")
    assert Edition.objects.filter(game_type="pot-de-vin").count() == 2

    path = "/api/editions/pot-de-vin/club-2026/"
    assert_error(api.patch(path, {"verified": True}, format="json"), 403)
    response = staff_api.patch(path, {"verified": True, "data": d1_cards()}, format="json")
    assert response.status_code == 200 and response.json()["verified"] is True
    assert Edition.objects.get(game_type="pot-de-vin", key="club-2026").data == cards
