"""A game through the API round by round: append, list, read, correct, undo, finish, reopen;
log export and import; scorepad games; and the error body of every refusal."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.records.models import Game, Player, Round, Seat
from scoring.engine import get_engine
from scoring.engine.potdevin.simulate import simulate

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str | None = None, **where: Any) -> dict:
    """The error body every refusal has: code, message, round and seat (null when they do not
    apply); ``where`` checks round, seat or index."""
    assert response.status_code == status, response.content
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    assert "round" in body and "seat" in body
    if code is not None:
        assert body["code"] == code, body
    for key, value in where.items():
        assert body[key] == value, body
    return body


def rounds_of(game_id: int) -> list[tuple[int, str, list]]:
    rows = Round.objects.filter(game_id=game_id).order_by("number").values_list("number", "data")
    return [(number, data["trump"], data["plays"]) for number, data in rows]


def create_from_log(api, log: dict[str, Any]) -> int:
    body = {
        "players": log["players"],
        "first_player": log["first_player"],
        "teams": log["teams"],
        "hands": log["hands"],
        "trump_pile": log["trump_pile"],
    }
    response = api.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def play_log(api, game_id: int, rounds: list[dict[str, Any]], start: int = 1) -> None:
    for number, data in enumerate(rounds, start=start):
        response = api.post(
            f"/api/games/{game_id}/rounds/", {"number": number, **data}, format="json"
        )
        assert response.status_code == 201, response.content


# --- append, list, read -----------------------------------------------------------------------


def test_append_returns_the_round_and_the_standings(api, make_game, hand) -> None:
    game = make_game()
    response = api.post(
        f"/api/games/{game.pk}/rounds/", {"number": 1, **hand.rounds[0]}, format="json"
    )
    assert response.status_code == 201
    body = response.json()
    assert body["round"] == {"number": 1, **hand.rounds[0]}
    result = body["result"]
    assert result["rounds_played"] == 1 and result["complete"] is False
    # Worked by hand (tests/api/conftest.py): seat 0 wins round 1 and has 5 points.
    assert result["players"][0]["score"] == hand.seat0_after_1
    assert [p["rank"] for p in result["players"]] == [1, 2, 2]
    assert result["rounds"][0]["winner"] == 0
    assert rounds_of(game.pk) == [(1, "E5", hand.rounds[0]["plays"])]


def test_append_without_a_number_takes_the_next(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:1])
    response = api.post(f"/api/games/{game.pk}/rounds/", hand.rounds[1], format="json")
    assert response.status_code == 201
    assert response.json()["round"]["number"] == 2


def test_rounds_list_and_one_round(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    listed = api.get(f"/api/games/{game.pk}/rounds/").json()
    assert listed == [{"number": i, **r} for i, r in enumerate(hand.rounds, start=1)]
    assert api.get(f"/api/games/{game.pk}/rounds/2/").json() == {"number": 2, **hand.rounds[1]}
    assert_error(api.get(f"/api/games/{game.pk}/rounds/4/"), 404, "not_found")
    assert_error(api.get(f"/api/games/{game.pk}/rounds/0/"), 404, "not_found")


def test_the_standings_after_three_rounds(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:2])
    body = api.post(f"/api/games/{game.pk}/rounds/", hand.rounds[2], format="json").json()
    assert [p["score"] for p in body["result"]["players"]] == hand.scores_after_3
    assert [p["rank"] for p in body["result"]["players"]] == hand.ranks_after_3
    assert body["result"]["winners"] == [2]


def test_an_impossible_round_is_refused_with_its_round_and_seat(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:1])
    before = Game.objects.get(pk=game.pk).result
    duplicate = {"number": 2, "trump": "U4", "plays": [{"seat": 0, "card": "A9"}]}
    response = api.post(f"/api/games/{game.pk}/rounds/", duplicate, format="json")
    assert_error(response, 400, "duplicate_card", round=2, seat=0)
    assert rounds_of(game.pk) == [(1, "E5", hand.rounds[0]["plays"])]
    assert Game.objects.get(pk=game.pk).result == before


def test_a_stale_number_is_a_conflict(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:2])
    response = api.post(
        f"/api/games/{game.pk}/rounds/", {"number": 2, **hand.rounds[1]}, format="json"
    )
    assert_error(response, 409, "round_conflict", round=2)
    assert len(rounds_of(game.pk)) == 2


# --- correct and undo -------------------------------------------------------------------------


def test_correct_a_round(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    corrected = copy.deepcopy(hand.rounds[2])
    corrected["plays"][1]["card"] = "U12"  # seat 0 now beats U9 with U12 and wins round 3
    response = api.put(f"/api/games/{game.pk}/rounds/3/", corrected, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["rounds"][2] == {"number": 3, **corrected}
    assert [r["winner"] for r in body["result"]["rounds"]] == [0, 2, 0]
    # Seat 0 now also holds U9 traders, U12 two assassins, E6 knights and the gem (D1):
    # workmen 2 (3) + assassins 3 (6) + traders 1 (1) + knights 1 (1) + 2 gems = 13.
    # Seat 2 keeps round 2 only: P5 traders (1), P8 and U6 assassins (3), U4 workmen (1) = 5.
    assert [p["score"] for p in body["result"]["players"]] == [13, 0, 5]
    assert rounds_of(game.pk)[2] == (3, "E6", corrected["plays"])


def test_a_correction_that_breaks_a_later_round_changes_nothing(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    before = (rounds_of(game.pk), Game.objects.get(pk=game.pk).result)
    # Round 1 with A6 for A9: seat 1's A7 wins, so seat 1 must start round 2, where seat 0 leads.
    corrected = copy.deepcopy(hand.rounds[0])
    corrected["plays"][2]["card"] = "A6"
    response = api.put(f"/api/games/{game.pk}/rounds/1/", corrected, format="json")
    assert_error(response, 400, "out_of_turn", round=2)
    assert (rounds_of(game.pk), Game.objects.get(pk=game.pk).result) == before


def test_correct_a_round_that_does_not_exist(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:1])
    response = api.put(f"/api/games/{game.pk}/rounds/2/", hand.rounds[1], format="json")
    assert_error(response, 400, "no_such_round", round=2)


def test_undo_the_last_round(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds[:2])
    response = api.delete(f"/api/games/{game.pk}/rounds/last/")
    assert response.status_code == 200
    body = response.json()
    assert [r["number"] for r in body["rounds"]] == [1]
    assert [p["score"] for p in body["result"]["players"]] == [5, 0, 0]
    api.delete(f"/api/games/{game.pk}/rounds/last/")
    assert_error(api.delete(f"/api/games/{game.pk}/rounds/last/"), 409, "no_rounds")
    assert rounds_of(game.pk) == []


# --- finish and reopen ------------------------------------------------------------------------


def test_finish_an_unfinished_game_is_409(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    assert_error(
        api.post(f"/api/games/{game.pk}/finish/", {}, format="json"), 409, "game_incomplete"
    )
    assert Game.objects.get(pk=game.pk).status == "in_progress"


def test_finish_a_complete_game_then_reopen(api, standard_deck) -> None:
    log = simulate(3, seed=41)
    game_id = create_from_log(api, log)
    play_log(api, game_id, log["rounds"])
    response = api.post(f"/api/games/{game_id}/finish/", {}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "finished" and body["finished_at"] is not None
    replay = get_engine("pot-de-vin").replay(log)
    assert [(s["score"], s["rank"]) for s in body["seats"]] == [
        (p["score"], p["rank"]) for p in replay["players"]
    ]
    assert body["winners"] == replay["winners"]

    # Finished: read-only.
    last = log["rounds"][-1]
    assert_error(
        api.post(f"/api/games/{game_id}/rounds/", last, format="json"), 409, "game_finished"
    )
    assert_error(api.delete(f"/api/games/{game_id}/rounds/last/"), 409, "game_finished")
    assert_error(
        api.put(f"/api/games/{game_id}/rounds/1/", log["rounds"][0], format="json"),
        409,
        "game_finished",
    )
    assert len(rounds_of(game_id)) == len(log["rounds"])

    response = api.post(f"/api/games/{game_id}/reopen/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "in_progress" and body["finished_at"] is None
    assert [s["score"] for s in body["seats"]] == [None, None, None]
    assert_error(api.post(f"/api/games/{game_id}/reopen/"), 409, "game_not_finished")
    assert api.delete(f"/api/games/{game_id}/rounds/last/").status_code == 200


def test_finish_with_a_joker_placement(api, standard_deck) -> None:
    log = simulate(3, seed=0)  # seat 0 ends with one Joker and no artists symbol
    game_id = create_from_log(api, log)
    play_log(api, game_id, log["rounds"])
    response = api.post(
        f"/api/games/{game_id}/finish/", {"jokers": {"0": ["artists"]}}, format="json"
    )
    assert_error(response, 400, "bad_joker_placement", seat=0)
    assert Game.objects.get(pk=game_id).status == "in_progress"
    assert Game.objects.get(pk=game_id).finish is None

    response = api.post(
        f"/api/games/{game_id}/finish/", {"jokers": {"0": ["knights"]}}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["jokers"] == {"0": ["knights"]}
    assert body["result"]["players"][0]["breakdown"]["jokers"]["placed"] == ["knights"]
    optimal = get_engine("pot-de-vin").replay(log)["players"][0]["score"]
    # Knights 3 -> 4 symbols: 6 -> -1; the Joker's best column (+2) is lost: 9 points less.
    assert body["seats"][0]["score"] == optimal - 9


def test_finish_with_a_malformed_joker_placement(api, make_game, hand) -> None:
    game = make_game(rounds=hand.rounds)
    response = api.post(f"/api/games/{game.pk}/finish/", {"jokers": ["nobles"]}, format="json")
    assert_error(response, 400, "invalid")


# --- log export and import --------------------------------------------------------------------


def test_export_then_import_gives_the_same_result(api, standard_deck) -> None:
    log = simulate(4, seed=42, teams=True)
    game_id = create_from_log(api, log)
    play_log(api, game_id, log["rounds"])
    api.patch(f"/api/games/{game_id}/", {"location": "Club", "notes": "n"}, format="json")
    api.post(f"/api/games/{game_id}/finish/", {}, format="json")
    original = api.get(f"/api/games/{game_id}/").json()

    exported = api.get(f"/api/games/{game_id}/log/")
    assert exported.status_code == 200
    document = exported.json()
    assert document["format"] == "potdevin-log/1"
    assert document["rounds"] == log["rounds"] and document["teams"] == log["teams"]
    assert (document["location"], document["notes"]) == ("Club", "n")

    response = api.post("/api/games/import/", document, format="json")
    assert response.status_code == 201
    (made,) = response.json()["games"]
    assert made["status"] == "finished" and made["player_count"] == 4
    copy_game = api.get(f"/api/games/{made['id']}/").json()
    key = ("seat", "name", "team", "score", "rank", "tiebreak")
    assert [{k: p[k] for k in key} for p in copy_game["result"]["players"]] == [
        {k: p[k] for k in key} for p in original["result"]["players"]
    ]
    assert [r["winner"] for r in copy_game["result"]["rounds"]] == [
        r["winner"] for r in original["result"]["rounds"]
    ]
    assert made["winners"] == original["winners"] == copy_game["winners"]
    # Independent of the export: the engine's own replay of the simulated log.
    replay = get_engine("pot-de-vin").replay(log)
    assert [p["score"] for p in copy_game["result"]["players"]] == [
        p["score"] for p in replay["players"]
    ]
    assert [s["player"]["id"] for s in copy_game["seats"]] == [
        s["player"]["id"] for s in original["seats"]
    ]
    assert (copy_game["location"], copy_game["notes"]) == ("Club", "n")


def test_import_a_list(api, standard_deck) -> None:
    complete = simulate(3, seed=43)
    partial = simulate(5, seed=44)
    partial["rounds"] = partial["rounds"][:4]
    six = simulate(6, seed=45, teams=True)
    response = api.post("/api/games/import/", [complete, partial, six], format="json")
    assert response.status_code == 201
    games = response.json()["games"]
    assert [(g["status"], g["player_count"]) for g in games] == [
        ("finished", 3),
        ("in_progress", 5),
        ("finished", 6),
    ]
    engine = get_engine("pot-de-vin")
    assert games[0]["winners"] == engine.replay(complete)["winners"]
    assert games[2]["winners"] == engine.replay(six)["winners"]
    assert Round.objects.count() == len(complete["rounds"]) + 4 + len(six["rounds"])
    assert Game.objects.filter(owner__username="alice").count() == 3


def test_import_is_all_or_nothing(api, standard_deck) -> None:
    good = simulate(3, seed=46, names=["Ann", "Bo", "Cid"])
    bad = simulate(3, seed=47, names=["Dee", "Eve", "Fay"])
    bad["rounds"][1]["trump"] = bad["rounds"][0]["trump"]  # a trump revealed twice
    response = api.post("/api/games/import/", [good, bad], format="json")
    body = assert_error(response, 400, index=1, round=2)
    assert body["code"] in {"duplicate_card", "trump_reused", "wrong_trump"}
    assert not Game.objects.exists() and not Player.objects.exists()
    assert not Seat.objects.exists() and not Round.objects.exists()


@pytest.mark.parametrize(
    ("document", "code"),
    [
        ({"format": "potdevin-log/9"}, "unsupported_format"),
        (
            {"format": "potdevin-log/1", "players": ["A", "B"], "first_player": 0},
            "bad_player_count",
        ),
        ({**simulate(3, seed=48), "deck": "nope"}, "unknown_deck"),
        ({**simulate(3, seed=48), "played_on": "last week"}, "malformed"),
        ({**simulate(3, seed=48), "players": ["Ada", "ADA", "Cy"]}, "player_twice"),
        (5, "malformed"),
    ],
)
def test_import_refusals(api, standard_deck, document, code) -> None:
    assert_error(api.post("/api/games/import/", document, format="json"), 400, code, index=0)
    assert not Game.objects.exists()


def test_import_an_empty_list_is_400(api, standard_deck) -> None:
    assert_error(api.post("/api/games/import/", [], format="json"), 400, "invalid")


def test_log_of_a_scorepad_game_is_409(api, standard_deck) -> None:
    body = {"players": ["A", "B", "C"], "tableaux": [{}, {}, {}]}
    game = api.post("/api/games/scorepad/", body, format="json").json()
    assert_error(api.get(f"/api/games/{game['id']}/log/"), 409, "scorepad_game")
    assert_error(
        api.post(f"/api/games/{game['id']}/rounds/", {"trump": "E5", "plays": []}, format="json"),
        409,
        "scorepad_game",
    )


# --- scorepad ---------------------------------------------------------------------------------


def test_scorepad_game(api, standard_deck) -> None:
    body = {
        "players": ["Ada", "Bea", "Cy", "Dev"],
        "teams": None,
        "played_on": "2026-06-01",
        "tableaux": [
            # nobles 2 (3) + traders 2 (3) + a Joker: on either column 2 -> 3 symbols
            # (3 -> 6): 9 points; +2 card 2; four Pot de Vin +10; no gem. 21. Cards: 2-4
            # guild cards + 6 neutral.
            {"nobles": 2, "traders": 2, "jokers": 1, "bonus": 1, "pot_de_vin": 4, "cards": 9},
            # knights 7 (10) + 2 gems = 12. The deck's knights are 4 single and 2 double
            # cards (D1), so 7 symbols are 5 cards.
            {"knights": 7, "gems": 2, "cards": 5},
            # artists 1 and a Joker, which must join it (D5): 2 symbols (3); -2 card: -2;
            # one gem: 1. Total 2.
            {"artists": 1, "jokers": 1, "malus": 1, "gems": 1, "cards": 3},
            # Nothing at all: 0.
            {},
        ],
    }
    response = api.post("/api/games/scorepad/", body, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["mode"] == "scorepad" and game["status"] == "finished"
    assert [s["score"] for s in game["seats"]] == [21, 12, 2, 0]
    assert [s["rank"] for s in game["seats"]] == [1, 2, 3, 4]
    assert game["winners"] == [0]
    assert game["rounds"] == [] and game["tableaux"][1]["knights"] == 7


def test_scorepad_impossible_tableaux_store_nothing(api, standard_deck) -> None:
    body = {"players": ["Ada", "Bea", "Cy"], "tableaux": [{"pot_de_vin": 3}, {"pot_de_vin": 2}, {}]}
    response = api.post("/api/games/scorepad/", body, format="json")
    assert_error(response, 400, "bad_tableau")
    assert not Game.objects.exists() and not Player.objects.exists()


# --- unknown games ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/games/{id}/"),
        ("get", "/api/games/{id}/rounds/"),
        ("get", "/api/games/{id}/rounds/1/"),
        ("get", "/api/games/{id}/log/"),
        ("post", "/api/games/{id}/rounds/"),
        ("put", "/api/games/{id}/rounds/1/"),
        ("delete", "/api/games/{id}/rounds/last/"),
        ("post", "/api/games/{id}/finish/"),
        ("post", "/api/games/{id}/reopen/"),
        ("patch", "/api/games/{id}/"),
        ("delete", "/api/games/{id}/"),
    ],
)
def test_unknown_game_is_404(api, make_game, hand, method, path) -> None:
    game = make_game()
    response = getattr(api, method)(path.format(id=game.pk + 1000), hand.rounds[0], format="json")
    assert_error(response, 404, "not_found")
