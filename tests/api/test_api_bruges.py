"""Bruges through the API, round by round: create (player counts, editions), append, refusals with
the engine's codes and the round, turn and seat, number conflicts, undo, correct, finish with
the laurel points, export and import, a corrected edition and a re-score job with it, the list
filter. Expected values are worked by hand from shared/rules/bruges.md (the arithmetic is in the
comments); docs/bruges-engine.md names the error codes.

Finishing a Bruges game is giving `final` (the table says when the game ended: draws are not
logged): a finish without it is 400 `invalid`, and with it the game is over."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.records.models import Edition, Game, Player, Round, Seat
from scoring import jobs
from scoring.engine.bruges.simulate import simulate
from scoring.jobs import tasks
from tests.engine.bruges.logs import WORKED_EXAMPLE_ROUND

pytestmark = pytest.mark.django_db

BRUGES = "bruges"

# Rules B1, written out again here: the default edition, not verified against the board.
STANDARD = {
    "prestige_points": [0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 20],
    "canal": {
        "left": [{"cost": c, "color": None} for c in (1, 2, 3, 4, 5)],
        "right": [{"cost": c, "color": None} for c in (1, 2, 3, 4, 5)],
    },
}

# Ada (seat 0) and Bea (seat 1), Ada first. Everyone starts with 5 florins, 1 worker of each
# colour, 5 points on the track, step 0.
#
# Round 1: the rules' own example (bruges.md, "Log format"). Brown 5 and yellow 6: a brown and a
# yellow threat token each. Prestige costs the dice showing 1 or 2: blue 2 + red 1 = 3; Bea pays
# 3 (5 - 3 = 2 florins) and climbs to step 1. Turns: Ada +2 red workers (3); Bea + the yellow
# die = 6 florins (8); Ada builds a red house (red workers 2); Bea builds left canal space 1 for
# 1 florin (7); Ada + the blue die = 2 florins (7); Bea returns her brown token, +1 point (6);
# Ada hires the Alchimista (price 6) into house 0 (1 florin) and its arrow gives 6 (7); Bea +2
# purple workers (3). Majorities: Bea alone on a step (prestige) and alone with a tile (canals),
# Ada alone with a person (persons).
# Standings: Ada 5 track + 6/3 Alchimista + 1 house + 4 (one tile) + 0 (step 0) = 12;
# Bea 6 track + 8 (two tiles) + 1 (step 1) = 15. Florins 7 and 7: Bea first, Ada second.
ROUND_1 = WORKED_EXAMPLE_ROUND

# Round 2: Bea (seat 1) is first. Dice 3 4 3 4 3: no 5 or 6 (no threat token), no 1 or 2 (no
# prestige). Bea builds a purple house (purple workers 3 - 1 = 2); Ada a blue house (blue
# workers 1 - 1 = 0; houses: red with the Alchimista, blue); Bea returns her yellow token, +1
# point (7); Ada hires the Poeta (laurel, price 3) into house 1 (7 - 3 = 4 florins); Bea + the
# red die = 3 florins (10); Ada returns her yellow token, +1 point (6); Bea hires the Mercante
# (infinity, price 3) into house 0 (7 florins); Ada +2 red workers. The majorities stay as they
# were (Bea step 1 against 0, Ada 2 persons against 1, Bea 1 tile against 0).
# Standings without laurels: Ada 6 track + (6 + 3)/3 persons + 2 houses + 4 + 0 = 15;
# Bea 7 track + 3/3 + 1 house + 8 + 1 = 18. Florins: Ada 4, Bea 7.
POETA = {"id": "p2", "name": "Poeta", "price": 3, "group": "artists", "icon": "laurel"}
MERCANTE = {"id": "p3", "name": "Mercante", "price": 3, "group": "merchants", "icon": "infinity"}
ROUND_2: dict[str, Any] = {
    "dice": {"blue": 3, "brown": 4, "red": 3, "purple": 4, "yellow": 3},
    "penalties": [],
    "prestige": [],
    "turns": [
        {"seat": 1, "steps": [{"card": "purple", "action": "house"}]},
        {"seat": 0, "steps": [{"card": "blue", "action": "house"}]},
        {"seat": 1, "steps": [{"card": "yellow", "action": "threat"}]},
        {"seat": 0, "steps": [{"card": "brown", "action": "person", "house": 1, "person": POETA}]},
        {"seat": 1, "steps": [{"card": "red", "action": "florins"}]},
        {"seat": 0, "steps": [{"card": "yellow", "action": "threat"}]},
        {
            "seat": 1,
            "steps": [{"card": "blue", "action": "person", "house": 0, "person": MERCANTE}],
        },
        {"seat": 0, "steps": [{"card": "red", "action": "workers"}]},
    ],
}
# The Poeta's laurel gives Ada 4 at the end: Ada 15 + 4 = 19 against Bea 18, Ada wins.
LAURELS_4 = {"laurels": [{"seat": 0, "person": "p2", "points": 4}]}


def assert_error(response, status: int, code: str | None = None, **where: Any) -> dict:
    """The error body every refusal has: code, message, round and seat (null when they do not
    apply); ``where`` checks round, seat, turn, index or the absence of ``turn`` (``turn=None``
    meaning no turn key: the error is outside the turns)."""
    assert response.status_code == status, response.content
    body = response.json()
    assert isinstance(body["code"], str) and body["code"]
    assert isinstance(body["message"], str) and body["message"]
    assert "round" in body and "seat" in body
    if code is not None:
        assert body["code"] == code, body
    for key, value in where.items():
        if key == "turn" and value is None:
            assert "turn" not in body, body
        else:
            assert body[key] == value, body
    return body


def per_seat(result: dict[str, Any], key: str) -> list[Any]:
    return [p[key] for p in result["players"]]


def rounds_of(game_id: int) -> list[dict[str, Any]]:
    return [r.data for r in Round.objects.filter(game_id=game_id).order_by("number")]


def create(api, **body: Any):
    return api.post("/api/games/", {"game_type": BRUGES, **body}, format="json")


def new_game(api, players=("Ada", "Bea"), first_player: int = 0, **body: Any) -> dict[str, Any]:
    response = create(api, players=list(players), first_player=first_player, **body)
    assert response.status_code == 201, response.content
    return response.json()


def play(api, game_id: int, rounds: list[dict[str, Any]], start: int = 1) -> dict[str, Any]:
    """Append ``rounds`` (numbered from ``start``); the last response's body."""
    body: dict[str, Any] = {}
    for number, rnd in enumerate(rounds, start=start):
        response = api.post(
            f"/api/games/{game_id}/rounds/", {"number": number, **rnd}, format="json"
        )
        assert response.status_code == 201, response.content
        body = response.json()
    return body


def finish(api, game_id: int, final: Any) -> Any:
    return api.post(f"/api/games/{game_id}/finish/", {"final": final}, format="json")


@pytest.fixture(autouse=True)
def bruges_standard(db: None) -> Edition:
    """Bruges' `standard` edition. A migration stores it; a flush after a transactional test
    removes it, so it is made again (from B1, as written above) when missing."""
    edition, _ = Edition.objects.get_or_create(
        game_type=BRUGES, key="standard", defaults={"data": STANDARD, "description": "B1"}
    )
    return edition


@pytest.fixture
def played(api) -> dict[str, Any]:
    """Ada and Bea after rounds 1 and 2 (in progress)."""
    game = new_game(api)
    play(api, game["id"], [ROUND_1, ROUND_2])
    return game


# --- create -----------------------------------------------------------------------------------


def test_create_on_the_standard_edition(api) -> None:
    game = new_game(api, players=["Ada", "Bea", "Cy"], first_player=2)
    assert game["game_type"] == BRUGES and game["status"] == "in_progress"
    assert game["edition"] == "standard" and game["deck"] == "standard"
    assert game["edition_verified"] is False  # B1: the standard board is not verified
    assert game["rounds"] == [] and game["final"] is None and game["teams"] is None
    assert "turns" not in game and "hands" not in game and "variant" not in game
    assert [s["player"]["name"] for s in game["seats"]] == ["Ada", "Bea", "Cy"]
    result = game["result"]
    assert result["edition"] == "standard" and result["complete"] is False
    # Nothing played: 5 track points and 5 florins each, a rank shared by all three (B7).
    assert per_seat(result, "score") == [5, 5, 5]
    assert per_seat(result, "florins") == [5, 5, 5]
    assert per_seat(result, "rank") == [1, 1, 1]
    assert Game.objects.get(pk=game["id"]).edition.key == "standard"
    assert api.get(f"/api/games/{game['id']}/").json() == game


def test_create_with_two_and_with_four_players(api) -> None:
    assert new_game(api, players=["Ada", "Bea"], first_player=1)["player_count"] == 2
    four = new_game(api, players=["Cy", "Dev", "Eli", "Flo"], first_player=3)
    assert four["player_count"] == 4 and four["first_player"] == 3
    # Round 1 starts with seat 3: a turn of seat 0 first is out of turn.
    rnd = copy.deepcopy(ROUND_1)
    rnd["prestige"] = []
    response = api.post(f"/api/games/{four['id']}/rounds/", rnd, format="json")
    assert_error(response, 400, "out_of_turn", round=1, turn=1, seat=0)


def test_create_on_another_edition(api, staff_api) -> None:
    corrected = {**STANDARD, "prestige_points": [0, 5, *STANDARD["prestige_points"][2:]]}
    body = {"game_type": BRUGES, "key": "board-v2", "data": corrected, "description": "step 1"}
    assert api.post("/api/editions/", body, format="json").status_code == 201
    game = new_game(api, edition="board-v2")
    assert (game["edition"], game["edition_verified"]) == ("board-v2", False)
    assert game["result"]["edition"] == "board-v2"
    # Round 1 on it: Bea's step 1 is worth 5, not 1: 15 - 1 + 5 = 19.
    body = play(api, game["id"], [ROUND_1])
    assert per_seat(body["result"], "score") == [12, 19]
    # Staff check it against the printed board: its games say so.
    response = staff_api.patch("/api/editions/bruges/board-v2/", {"verified": True}, format="json")
    assert response.status_code == 200, response.content
    assert api.get(f"/api/games/{game['id']}/").json()["edition_verified"] is True


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["Ada"], "first_player": 0}, "bad_player_count"),
        ({"players": ["Ada", "Bea", "Cy", "Dev", "Eli"], "first_player": 0}, "bad_player_count"),
        ({"players": ["Ada", "Bea"], "first_player": 2}, "bad_first_player"),
        ({"players": ["Ada", "Bea"], "first_player": 0, "edition": "deluxe"}, "unknown_edition"),
        # An edition of another game is no Bruges edition.
        ({"players": ["Ada", "Bea"], "first_player": 0, "edition": "pdv-only"}, "unknown_edition"),
        ({"players": ["Ada", "Bea", "ada"], "first_player": 0}, "player_twice"),
    ],
)
def test_create_refusals(api, snapshot, body, code) -> None:
    Edition.objects.create(game_type="pot-de-vin", key="pdv-only", data={})
    before = snapshot()
    assert_error(create(api, **body), 400, code)
    assert snapshot() == before
    assert not Player.objects.exists()  # the names of a refused game make no player


def test_bad_create_fields_are_400_invalid(api) -> None:
    for body, field in [
        ({"players": ["Ada", "Bea"]}, "first_player"),
        ({"players": ["Ada", "Bea"], "first_player": 0, "edition": ["standard"]}, "edition"),
        ({"players": ["Ada", "Bea"], "first_player": 0, "edition": "no spaces"}, "edition"),
    ]:
        assert field in assert_error(create(api, **body), 400, "invalid")["fields"]
    assert not Game.objects.exists()


def test_the_game_type_is_listed(api) -> None:
    (row,) = [g for g in api.get("/api/game-types/").json() if g["game_type"] == BRUGES]
    assert row["label"] == "Bruges" and row["log_format"] == "bruges-log/1"
    assert (row["entries_key"], row["entry_name"]) == ("rounds", "round")
    assert row["player_counts"] == [2, 3, 4]  # "per 2-4 giocatori"
    # A game can also be recorded by its final score sheet (tests/api/test_api_bruges_sheet.py).
    assert (row["has_editions"], row["default_edition"], row["scorepad"]) == (
        True,
        "standard",
        True,
    )
    editions = api.get("/api/editions/", {"game_type": BRUGES}).json()["results"]
    assert [(e["key"], e["verified"]) for e in editions] == [("standard", False)]
    standard = api.get("/api/editions/bruges/standard/").json()
    assert standard["data"] == STANDARD


# --- append and read --------------------------------------------------------------------------


def test_append_the_rules_example_round(api) -> None:
    game = new_game(api)
    response = api.post(f"/api/games/{game['id']}/rounds/", {"number": 1, **ROUND_1}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["round"] == {"number": 1, **ROUND_1} and "turn" not in body
    result = body["result"]
    assert result["rounds_played"] == 1 and result["complete"] is False
    assert per_seat(result, "score") == [12, 15]
    assert per_seat(result, "rank") == [2, 1] and result["winners"] == [1]
    assert per_seat(result, "florins") == [7, 7]
    assert per_seat(result, "step") == [0, 1]
    assert per_seat(result, "breakdown") == [
        {"track": 5, "persons": 2, "houses": 1, "laurels": 0, "majorities": 4, "canals": 0,
         "statues": 0, "prestige": 0},
        {"track": 6, "persons": 0, "houses": 0, "laurels": 0, "majorities": 8, "canals": 0,
         "statues": 0, "prestige": 1},
    ]  # fmt: skip
    assert per_seat(result, "majorities") == [["persons"], ["prestige", "canals"]]
    # Threat tokens: brown and yellow for both; Bea returned her brown one.
    assert [p["threats"]["brown"] for p in result["players"]] == [1, 0]
    assert [p["threats"]["yellow"] for p in result["players"]] == [1, 1]
    assert rounds_of(game["id"]) == [ROUND_1]  # stored exactly as bruges-log/1 has it


def test_two_rounds_and_how_they_are_read(api, played) -> None:
    game_id = played["id"]
    numbered = [{"number": n, **r} for n, r in enumerate([ROUND_1, ROUND_2], start=1)]
    assert api.get(f"/api/games/{game_id}/rounds/").json() == numbered
    assert api.get(f"/api/games/{game_id}/rounds/2/").json() == numbered[1]
    assert_error(api.get(f"/api/games/{game_id}/rounds/3/"), 404, "not_found")
    detail = api.get(f"/api/games/{game_id}/").json()
    assert detail["rounds"] == numbered and detail["final"] is None
    result = detail["result"]
    # Provisional, without laurels (the comments of ROUND_2): 15 and 18.
    assert per_seat(result, "score") == [15, 18]
    assert per_seat(result, "rank") == [2, 1]
    assert per_seat(result, "florins") == [4, 7]
    assert per_seat(result, "persons") == [2, 1] and per_seat(result, "houses") == [2, 1]
    # In progress: the seats have no score or rank yet.
    assert [(s["score"], s["rank"]) for s in detail["seats"]] == [(None, None)] * 2


def test_keys_left_out_or_null_are_not_stored(api) -> None:
    game = new_game(api)
    sent = copy.deepcopy(ROUND_1)
    sent["upkeep"] = None
    sent["turns"][0]["pass"] = None
    sent["turns"][0]["steps"][0].update(section=None, house=None, person=None, gain=None)
    sent["turns"][6]["steps"][0]["person"]["worker"] = None
    response = api.post(f"/api/games/{game['id']}/rounds/", sent, format="json")
    assert response.status_code == 201, response.content
    assert rounds_of(game["id"]) == [ROUND_1]


# Round 2 variants that cannot have happened after round 1 (Bea first in round 2).
R2_OUT_OF_TURN = {**ROUND_2, "turns": [ROUND_2["turns"][1], *ROUND_2["turns"][1:]]}  # Ada first
R2_BROWN_THREAT = copy.deepcopy(ROUND_2)  # Bea returned her only brown token in round 1
R2_BROWN_THREAT["turns"][0]["steps"] = [{"card": "brown", "action": "threat"}]
R2_PRESTIGE = {**ROUND_2, "prestige": [0]}  # no die shows 1 or 2
R2_DEAR = copy.deepcopy(ROUND_2)  # Ada has 7 florins at turn 4
R2_DEAR["turns"][3]["steps"][0]["person"] = {**POETA, "price": 12}
R2_ARROW_AGAIN = copy.deepcopy(ROUND_2)  # the Alchimista's arrow acted right after its hire
R2_ARROW_AGAIN["turns"][1]["steps"].append({"effect": "p1", "gain": {"florins": 6}})
R2_PENALTY = {**ROUND_2, "penalties": [{"seat": 0, "color": "brown"}]}  # Ada has 1 brown token
R2_SHORT = {**ROUND_2, "turns": ROUND_2["turns"][:7]}
R2_PASS = copy.deepcopy(ROUND_2)  # Bea has played no card yet this round
R2_PASS["turns"][0] = {"seat": 1, "pass": True}
R2_GAIN = copy.deepcopy(ROUND_2)
R2_GAIN["turns"][3]["steps"] = [
    {"card": "brown", "action": "person", "house": 1, "person": {**POETA, "icon": "arrow"}},
    {"effect": "p2", "gain": {"cards": 1}},
]


@pytest.mark.parametrize(
    ("rnd", "code", "turn", "seat"),
    [
        (R2_OUT_OF_TURN, "out_of_turn", 1, 0),
        (R2_BROWN_THREAT, "no_threat_token", 1, 1),
        (R2_PRESTIGE, "prestige_not_allowed", None, 0),
        (R2_DEAR, "not_enough_florins", 4, 0),
        (R2_ARROW_AGAIN, "effect_not_allowed", 2, 0),
        (R2_PENALTY, "unexpected_penalty", None, 0),
        (R2_SHORT, "missing_turn", 8, 0),
        (R2_PASS, "early_pass", 1, 1),
        (R2_GAIN, "bad_gain", 4, 0),
    ],
)
def test_an_impossible_round_is_refused_with_its_round_turn_and_seat(
    api, snapshot, rnd, code, turn, seat
) -> None:
    game = new_game(api)
    play(api, game["id"], [ROUND_1])
    before = snapshot()
    response = api.post(f"/api/games/{game['id']}/rounds/", {"number": 2, **rnd}, format="json")
    assert_error(response, 400, code, round=2, turn=turn, seat=seat)
    assert snapshot() == before


WRONG_SHAPES = [
    (lambda r: r.pop("dice"), "dice"),
    (lambda r: r["dice"].pop("yellow"), "dice"),
    (lambda r: r.update(dice={**r["dice"], "red": "six"}), "dice"),
    (lambda r: r.pop("turns"), "turns"),
    (lambda r: r.update(turns="none"), "turns"),
    (lambda r: r.update(prestige=[True]), "prestige"),
    (lambda r: r.update(penalties=[{"seat": 0}]), "penalties"),
    (lambda r: r["turns"][0].update(steps=[1]), "turns"),
    (lambda r: r["turns"][0].pop("seat"), "turns"),
    (lambda r: r["turns"][6]["steps"][0].update(person=5), "turns"),
    (lambda r: r["turns"][6]["steps"][0]["person"].pop("price"), "turns"),
    (lambda r: r["turns"][6]["steps"][1].update(gain=[6]), "turns"),
    (lambda r: r.update(upkeep=[{"at": ["dice"]}]), "upkeep"),
    (lambda r: r.update(number=0), "number"),
]


@pytest.mark.parametrize(("change", "field"), WRONG_SHAPES)
def test_a_round_of_the_wrong_shape_is_400_invalid(api, snapshot, change, field) -> None:
    game = new_game(api)
    before = snapshot()
    rnd = copy.deepcopy(ROUND_1)
    change(rnd)
    response = api.post(f"/api/games/{game['id']}/rounds/", rnd, format="json")
    assert field in assert_error(response, 400, "invalid")["fields"]
    assert snapshot() == before


def test_the_quick_check_of_a_round_agrees_with_its_documented_shape() -> None:
    from games.plugins.bruges import api as bruges_api  # needs the engine registered

    # A round sent is checked by plain functions (an append's hot path); the serializers that
    # document it must say the same of every simulated round and of each wrong shape above.
    for seed in range(60):
        for rnd in simulate(2 + seed % 3, seed=seed)["rounds"]:
            quick = bruges_api.BrugesRoundInputSerializer(data=rnd)
            assert quick.is_valid(), quick.errors
            assert quick.entry_data() == rnd
            documented = bruges_api.BrugesRoundEntrySerializer(data=rnd)
            assert documented.is_valid(), documented.errors
            assert bruges_api._given(dict(documented.validated_data)) == rnd
    for change, field in WRONG_SHAPES:
        rnd = copy.deepcopy(ROUND_1)
        change(rnd)
        quick = bruges_api.BrugesRoundInputSerializer(data=rnd)
        assert not quick.is_valid() and field in quick.errors, field
        documented = bruges_api.BrugesRoundSerializer(data=rnd)
        assert not documented.is_valid() and field in documented.errors, field


def test_a_stale_number_is_a_conflict(api, snapshot) -> None:
    game = new_game(api)
    play(api, game["id"], [ROUND_1])
    before = snapshot()
    for number in (1, 3):
        body = {"number": number, **ROUND_2}
        response = api.post(f"/api/games/{game['id']}/rounds/", body, format="json")
        assert_error(response, 409, "round_conflict", round=number)
    assert snapshot() == before


# --- undo and correct -------------------------------------------------------------------------


def test_undo_the_last_rounds(api, played) -> None:
    body = api.delete(f"/api/games/{played['id']}/rounds/last/").json()
    assert [r["number"] for r in body["rounds"]] == [1]
    assert per_seat(body["result"], "score") == [12, 15]  # round 1 alone (ROUND_1)
    body = api.delete(f"/api/games/{played['id']}/rounds/last/").json()
    assert body["rounds"] == [] and per_seat(body["result"], "score") == [5, 5]
    assert_error(api.delete(f"/api/games/{played['id']}/rounds/last/"), 409, "no_rounds")
    assert rounds_of(played["id"]) == []


def test_correct_a_past_round(api, played) -> None:
    # Round 1 corrected: Bea's 6th turn takes 2 purple workers instead of returning her brown
    # token, so she keeps it and misses that point: track 5 + 1 (round 2) = 6, and 6 + 1 + 1 +
    # 8 + 1 = 17 after round 2. Ada is unchanged: 15.
    corrected = copy.deepcopy(ROUND_1)
    corrected["turns"][5]["steps"] = [{"card": "purple", "action": "workers"}]
    response = api.put(f"/api/games/{played['id']}/rounds/1/", corrected, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["rounds"][0] == {"number": 1, **corrected}
    assert per_seat(body["result"], "score") == [15, 17]
    assert [p["threats"]["brown"] for p in body["result"]["players"]] == [1, 1]
    assert body["result"]["players"][1]["workers"]["purple"] == 3 + 2 - 1  # two plays, a house
    assert rounds_of(played["id"]) == [corrected, ROUND_2]


def test_a_correction_that_breaks_a_later_round_changes_nothing(api, played, snapshot) -> None:
    before = snapshot()
    # Round 1 with the yellow die on 4: possible (Bea's florins: 5 - 3 + 4 - 1 = 5), but no one
    # gets a yellow token, so Bea's yellow threat in round 2 (turn 3) returns a token she lacks.
    corrected = copy.deepcopy(ROUND_1)
    corrected["dice"]["yellow"] = 4
    response = api.put(f"/api/games/{played['id']}/rounds/1/", corrected, format="json")
    assert_error(response, 400, "no_threat_token", round=2, turn=3, seat=1)
    assert snapshot() == before


def test_correct_a_round_that_does_not_exist(api) -> None:
    game = new_game(api)
    response = api.put(f"/api/games/{game['id']}/rounds/1/", ROUND_1, format="json")
    assert_error(response, 400, "no_such_round", round=1)


# --- finish -----------------------------------------------------------------------------------


def test_finish_with_the_laurel_points(api, played) -> None:
    response = finish(api, played["id"], LAURELS_4)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "finished" and body["finished_at"] is not None
    assert body["final"] == LAURELS_4
    result = body["result"]
    assert result["complete"] is True and result["final"] == LAURELS_4
    # The Poeta's 4 laurel points: Ada 15 + 4 = 19, Bea 18: the laurels decide the game.
    assert per_seat(result, "score") == [19, 18]
    assert [p["breakdown"]["laurels"] for p in result["players"]] == [4, 0]
    assert per_seat(result, "rank") == [1, 2] and body["winners"] == [0]
    assert [(s["score"], s["rank"]) for s in body["seats"]] == [(19, 1), (18, 2)]
    assert list(Seat.objects.filter(game_id=played["id"]).values_list("score", "rank")) == [
        (19, 1),
        (18, 2),
    ]
    # Finished: read-only until reopened.
    response = api.post(f"/api/games/{played['id']}/rounds/", ROUND_2, format="json")
    assert_error(response, 409, "game_finished")
    assert_error(api.delete(f"/api/games/{played['id']}/rounds/last/"), 409, "game_finished")


def test_finish_again_after_a_reopen_replaces_final(api, played) -> None:
    assert finish(api, played["id"], LAURELS_4).status_code == 200
    response = api.post(f"/api/games/{played['id']}/reopen/")
    assert response.status_code == 200 and response.json()["status"] == "in_progress"
    # 3 laurel points: Ada 15 + 3 = 18, as many as Bea; Bea has more florins (7 to 4) and wins
    # (B7), each placed by florins.
    three = {"laurels": [{"seat": 0, "person": "p2", "points": 3}]}
    body = finish(api, played["id"], three).json()
    assert body["status"] == "finished" and body["final"] == three
    assert per_seat(body["result"], "score") == [18, 18]
    assert per_seat(body["result"], "rank") == [2, 1] and body["winners"] == [1]
    assert per_seat(body["result"], "tiebreak") == ["florins", "florins"]


def test_finish_without_laurels(api, played) -> None:
    # An empty `final` (no laurel person scored): the provisional standings stand, 15 and 18.
    body = finish(api, played["id"], {}).json()
    assert body["status"] == "finished" and body["final"] == {"laurels": []}
    assert per_seat(body["result"], "score") == [15, 18] and body["winners"] == [1]


def test_finishing_is_giving_final(api, played) -> None:
    for sent in (None, {}, {"final": None}, {"final": "over"}, {"laurels": []}):
        response = api.post(f"/api/games/{played['id']}/finish/", sent, format="json")
        assert "final" in assert_error(response, 400, "invalid")["fields"], sent
    bad = {"laurels": [{"seat": 0, "person": "p2", "points": "four"}]}
    assert "final" in assert_error(finish(api, played["id"], bad), 400, "invalid")["fields"]
    assert Game.objects.get(pk=played["id"]).status == "in_progress"


def test_finish_the_rules_example_after_its_round(api) -> None:
    # The rules' example log is a whole game: one round and `final` with no laurel; its "Final
    # scores" are Ada 12, Bea 15 (bruges.md, "Log format"; the engine trusts `final`).
    game = new_game(api)
    play(api, game["id"], [ROUND_1])
    response = finish(api, game["id"], {"laurels": []})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "finished" and body["result"]["complete"] is True
    assert [(s["score"], s["rank"]) for s in body["seats"]] == [(12, 2), (15, 1)]
    assert body["winners"] == [1]


@pytest.mark.parametrize(
    ("laurels", "seat"),
    [
        ([{"seat": 0, "person": "p1", "points": 2}], 0),  # the Alchimista is an arrow person
        ([{"seat": 0, "person": "p3", "points": 2}], 0),  # the Mercante is Bea's
        ([{"seat": 0, "person": "p2", "points": -1}], 0),
        ([{"seat": 0, "person": "p2", "points": 1}, {"seat": 0, "person": "p2", "points": 1}], 0),
        ([{"seat": 1, "person": "p9", "points": 2}], 1),  # never met
    ],
)
def test_impossible_laurels_are_refused(api, played, snapshot, laurels, seat) -> None:
    before = snapshot()
    response = finish(api, played["id"], {"laurels": laurels})
    assert_error(response, 400, "bad_laurels", round=None, seat=seat)
    assert snapshot() == before


# --- export and import ------------------------------------------------------------------------


def test_export_then_import_gives_the_same_game(api, played) -> None:
    api.patch(f"/api/games/{played['id']}/", {"location": "Club", "notes": "n"}, format="json")
    original = finish(api, played["id"], LAURELS_4).json()

    document = api.get(f"/api/games/{played['id']}/log/").json()
    assert document["format"] == "bruges-log/1" and document["edition"] == "standard"
    assert document["players"] == ["Ada", "Bea"] and document["first_player"] == 0
    assert document["rounds"] == [ROUND_1, ROUND_2] and document["final"] == LAURELS_4
    assert document["teams"] is None
    assert (document["location"], document["notes"]) == ("Club", "n")

    response = api.post("/api/games/import/", document, format="json")
    assert response.status_code == 201, response.content
    (made,) = response.json()["games"]
    assert (made["game_type"], made["status"], made["winners"]) == (BRUGES, "finished", [0])
    copied = api.get(f"/api/games/{made['id']}/").json()
    assert copied["result"] == original["result"]
    assert copied["rounds"] == original["rounds"] and copied["final"] == LAURELS_4
    assert (copied["edition"], copied["edition_verified"]) == ("standard", False)
    assert [(s["player"]["id"], s["score"], s["rank"]) for s in copied["seats"]] == [
        (s["player"]["id"], s["score"], s["rank"]) for s in original["seats"]
    ]
    assert api.get(f"/api/games/{made['id']}/log/").json() == document


def test_an_unfinished_game_exports_without_final(api) -> None:
    game = new_game(api)
    play(api, game["id"], [ROUND_1])
    document = api.get(f"/api/games/{game['id']}/log/").json()
    assert document["final"] is None and document["rounds"] == [ROUND_1]
    (made,) = api.post("/api/games/import/", document, format="json").json()["games"]
    assert made["status"] == "in_progress" and made["winners"] == [1]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (4, 5)])
def test_a_whole_simulated_game_through_the_api_round_trips(api, players, seed) -> None:
    log = simulate(players, seed=seed)
    game = new_game(api, players=log["players"], first_player=log["first_player"])
    play(api, game["id"], log["rounds"])
    finished = finish(api, game["id"], log["final"]).json()
    assert finished["status"] == "finished" and finished["final"] == log["final"]

    document = api.get(f"/api/games/{game['id']}/log/").json()
    assert document["rounds"] == log["rounds"]  # every shape of step kept exactly
    (made,) = api.post("/api/games/import/", document, format="json").json()["games"]
    assert made["status"] == "finished" and made["winners"] == finished["winners"]
    copied = api.get(f"/api/games/{made['id']}/").json()
    assert copied["result"] == finished["result"]
    assert [s["rank"] for s in copied["seats"]] == [s["rank"] for s in finished["seats"]]


def test_import_is_all_or_nothing_and_names_the_round_and_turn(api) -> None:
    good = simulate(3, seed=9, names=["Ann", "Bo", "Cid"])
    bad = {
        "format": "bruges-log/1",
        "players": ["Dee", "Eve"],
        "first_player": 0,
        "rounds": [ROUND_1, R2_BROWN_THREAT],
    }
    response = api.post("/api/games/import/", [good, bad], format="json")
    assert_error(response, 400, "no_threat_token", index=1, round=2, turn=1, seat=1)
    assert not Game.objects.exists() and not Player.objects.exists()


def test_import_of_an_unknown_edition(api) -> None:
    document = {"format": "bruges-log/1", "players": ["Ada", "Bea"], "first_player": 0}
    response = api.post("/api/games/import/", {**document, "edition": "deluxe"}, format="json")
    assert_error(response, 400, "unknown_edition", index=0)


# --- a corrected edition and a re-score -------------------------------------------------------


@pytest.fixture
def sent_batches(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, list[int]]]:
    """Batches are run by the test itself (as in tests/scoring/test_jobs.py): record them."""
    sent: list[tuple[int, list[int]]] = []
    monkeypatch.setattr(tasks.rescore_batch, "delay", lambda job, keys: sent.append((job, keys)))
    return sent


def _rescore(staff_api, sent, django_capture_on_commit_callbacks, **body: Any) -> dict:
    with django_capture_on_commit_callbacks(execute=True):
        response = staff_api.post("/api/rescore/", body, format="json")
    assert response.status_code == 202, response.content
    job = response.json()
    for job_id, keys in sent:
        if job_id == job["id"]:
            jobs.rescore_batch(job_id=job_id, game_ids=keys)
    return staff_api.get(f"/api/rescore/{job['id']}/").json()


def test_a_corrected_edition_rescores_the_bruges_games(
    api, staff_api, played, make_complots, sent_batches, django_capture_on_commit_callbacks
) -> None:
    finish(api, played["id"], LAURELS_4)
    short = new_game(api, players=["Cy", "Dev"])
    play(api, short["id"], [ROUND_1])
    plot = make_complots()
    plot_before = (plot.result, plot.updated_at)
    # The printed board, say, gives step 1 five points (not 1): a new edition version.
    corrected = copy.deepcopy(STANDARD)
    corrected["prestige_points"][1] = 5
    response = api.post(
        "/api/editions/",
        {"game_type": BRUGES, "key": "standard-v2", "data": corrected},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["verified"] is False  # only staff mark an edition verified

    job = _rescore(
        staff_api,
        sent_batches,
        django_capture_on_commit_callbacks,
        game_type=BRUGES,
        new_edition="standard-v2",
    )
    assert (job["status"], job["total"], job["failures"]) == ("done", 2, [])
    assert job["params"]["new_edition"] == "standard-v2"
    # The finished game: Bea 18 - 1 + 5 = 22 against Ada's 19: Bea wins now.
    assert job["winners_changed"] == [
        {"game": played["id"], "winners_before": [0], "winners_after": [1]}
    ]
    detail = api.get(f"/api/games/{played['id']}/").json()
    assert (detail["edition"], detail["edition_verified"]) == ("standard-v2", False)
    assert detail["result"]["edition"] == "standard-v2"
    assert per_seat(detail["result"], "score") == [19, 22]
    assert [(s["score"], s["rank"]) for s in detail["seats"]] == [(19, 2), (22, 1)]
    # The game in progress after round 1: Cy 12, Dev 15 - 1 + 5 = 19.
    detail = api.get(f"/api/games/{short['id']}/").json()
    assert per_seat(detail["result"], "score") == [12, 19]
    # Complots has no editions: its game is not touched.
    plot.refresh_from_db()
    assert (plot.result, plot.updated_at) == plot_before


def test_an_edition_that_makes_a_game_impossible_is_a_failure_of_the_job(
    api, staff_api, played, sent_batches, django_capture_on_commit_callbacks
) -> None:
    # Left canal space 1 printed red: Bea built it with a blue card (round 1, turn 4).
    red = copy.deepcopy(STANDARD)
    red["canal"]["left"][0]["color"] = "red"
    body = {"game_type": BRUGES, "key": "red-seal", "data": red}
    assert api.post("/api/editions/", body, format="json").status_code == 201
    before = api.get(f"/api/games/{played['id']}/").json()
    job = _rescore(
        staff_api,
        sent_batches,
        django_capture_on_commit_callbacks,
        game_type=BRUGES,
        new_edition="red-seal",
    )
    ((failure),) = job["failures"]
    assert (failure["game"], failure["code"]) == (played["id"], "wrong_space_color")
    assert (failure["round"], failure["turn"], failure["seat"]) == (1, 4, 1)
    assert api.get(f"/api/games/{played['id']}/").json() == before


def test_a_bad_edition_is_refused(api, snapshot) -> None:
    before = snapshot()
    for data in (
        {**STANDARD, "prestige_points": [0, 1]},
        {**STANDARD, "canal": {"left": STANDARD["canal"]["left"]}},
        {**STANDARD, "canal": {**STANDARD["canal"], "right": [{"cost": -1, "color": None}] * 5}},
    ):
        body = {"game_type": BRUGES, "key": "broken", "data": data}
        assert_error(api.post("/api/editions/", body, format="json"), 400, "bad_edition")
    assert snapshot() == before
    body = {"game_type": BRUGES, "key": "standard", "data": STANDARD}
    assert_error(api.post("/api/editions/", body, format="json"), 409, "edition_exists")


# --- the list, the scorepad, permissions ------------------------------------------------------


def test_the_list_filters_by_game_type(api, played, make_complots) -> None:
    three = new_game(api, players=["Cy", "Dev", "Eli"])
    plot = make_complots(players=["Flo", "Gus"])

    def ids(query: str) -> set[int]:
        response = api.get(f"/api/games/{query}")
        assert response.status_code == 200, response.content
        return {g["id"] for g in response.json()["results"]}

    assert ids("?game_type=bruges") == {played["id"], three["id"]}
    assert ids("?game_type=complots") == {plot.pk}
    assert ids("?game_type=bruges&players=3") == {three["id"]}
    finish(api, played["id"], LAURELS_4)
    assert ids("?game_type=bruges&status=finished") == {played["id"]}
    listed = api.get("/api/games/?game_type=bruges&players=2").json()["results"]
    assert [(g["game_type"], g["edition"], g["winners"]) for g in listed] == [
        (BRUGES, "standard", [0])
    ]


def test_the_scorepad_takes_a_bruges_sheet_not_pot_de_vin_tableaux(api, snapshot) -> None:
    # Bruges has a scorepad: its body is a score sheet (`sheet`, one line per seat); Pot de
    # Vin's tableaux are no Bruges sheet (the sheet is required).
    before = snapshot()
    body = {"game_type": BRUGES, "players": ["Ada", "Bea"], "tableaux": [{}, {}]}
    refused = assert_error(api.post("/api/games/scorepad/", body, format="json"), 400, "invalid")
    assert "sheet" in refused["fields"]
    assert snapshot() == before
    body = {"game_type": BRUGES, "players": ["Ada", "Bea"], "sheet": [{"track": 7}, {}]}
    response = api.post("/api/games/scorepad/", body, format="json")
    assert response.status_code == 201, response.content
    assert [(s["score"], s["rank"]) for s in response.json()["seats"]] == [(7, 1), (0, 2)]


def test_another_users_rounds_are_403(api, other_api, snapshot) -> None:
    game = new_game(api)
    play(api, game["id"], [ROUND_1])
    before = snapshot()
    base = f"/api/games/{game['id']}/"
    for method, path, body in [
        ("post", f"{base}rounds/", ROUND_2),
        ("put", f"{base}rounds/1/", ROUND_1),
        ("delete", f"{base}rounds/last/", None),
        ("post", f"{base}finish/", {"final": {}}),
    ]:
        response = getattr(other_api, method)(path, body, format="json")
        assert_error(response, 403, "permission_denied")
    assert snapshot() == before
