"""Complots through the API, turn by turn: create (variants, player counts), append, refusals
with the engine's codes and the turn, number conflicts, undo, correct, finish, export and
import, the list filter. Expected values are worked by hand from shared/rules/complots.md (the
games in tests/api/conftest.py, and the arithmetic in the comments here)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.records.models import Game, Player, Round, Seat
from scoring.engine.complots.simulate import simulate
from tests.engine.complots import reference

pytestmark = pytest.mark.django_db

COUNTS = reference.COUNT_NAMES  # K5's names, as the rules file spells them


def assert_error(response, status: int, code: str | None = None, **where: Any) -> dict:
    """The error body every refusal has: code, message, round and seat (null when they do not
    apply); ``where`` checks round, seat, turn or index."""
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


def turns_of(game_id: int) -> list[dict[str, Any]]:
    return [r.data for r in Round.objects.filter(game_id=game_id).order_by("number")]


def per_seat(result: dict[str, Any], key: str) -> list[Any]:
    return [p[key] for p in result["players"]]


def create(api, **body: Any):
    return api.post("/api/games/", {"game_type": "complots", **body}, format="json")


def play(api, game_id: int, turns: list[dict[str, Any]], start: int = 1) -> dict[str, Any]:
    """Append ``turns`` (numbered from ``start``); the last response's body."""
    body: dict[str, Any] = {}
    for number, turn in enumerate(turns, start=start):
        response = api.post(
            f"/api/games/{game_id}/turns/", {"number": number, **turn}, format="json"
        )
        assert response.status_code == 201, response.content
        body = response.json()
    return body


# --- create -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sent", "variant"),
    [
        ({"variant": "inquisitor"}, "inquisitor"),
        ({"variant": "ambassador"}, "ambassador"),
        ({}, "ambassador"),
    ],
)
def test_create_with_each_variant(api, sent, variant) -> None:
    response = create(api, players=["Ada", "Bea", "Cy"], first_player=2, **sent)
    assert response.status_code == 201, response.content
    game = response.json()
    assert game["game_type"] == "complots" and game["variant"] == variant
    assert game["status"] == "in_progress" and game["mode"] == "rounds"
    assert game["edition"] is None and game["deck"] is None and game["teams"] is None
    assert game["turns"] == [] and game["winners"] == [] and game["first_player"] == 2
    assert "rounds" not in game and "hands" not in game and "jokers" not in game
    assert [s["player"]["name"] for s in game["seats"]] == ["Ada", "Bea", "Cy"]
    result = game["result"]
    # Everyone starts with 2 hidden influences and 2 coins; the Treasury holds 54 - 6 = 48 (K1).
    assert per_seat(result, "influences") == [2, 2, 2]
    assert per_seat(result, "coins") == [2, 2, 2]
    assert result["treasury"] == 48 and result["variant"] == variant
    assert result["complete"] is False and result["winners"] == []
    assert Game.objects.get(pk=game["id"]).variant == variant
    assert api.get(f"/api/games/{game['id']}/").json() == game


def test_create_with_two_and_with_eight_players(api) -> None:
    two = create(api, players=["Ada", "Bea"], first_player=1).json()
    # 2 players: the first player (seat 1) starts with 1 coin, the other with 2; 54 - 3 = 51.
    assert per_seat(two["result"], "coins") == [2, 1]
    assert two["result"]["treasury"] == 51
    names = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus", "Hal"]
    eight = create(api, players=names, first_player=7, variant="inquisitor").json()
    # 8 players: 2 coins each, 54 - 16 = 38 in the Treasury.
    assert per_seat(eight["result"], "coins") == [2] * 8
    assert eight["result"]["treasury"] == 38
    assert eight["player_count"] == 8 and eight["first_player"] == 7
    # Seat 7 starts: its turn is the first one the engine takes.
    response = api.post(
        f"/api/games/{eight['id']}/turns/", {"actor": 7, "action": "income"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["result"]["players"][7]["coins"] == 3


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"players": ["Ada", "Bea", "Cy"], "first_player": 0, "variant": "spy"}, "bad_variant"),
        ({"players": ["Ada"], "first_player": 0}, "bad_player_count"),
        ({"players": [f"P{k}" for k in range(9)], "first_player": 0}, "bad_player_count"),
        ({"players": ["Ada", "Bea", "Cy"], "first_player": 3}, "bad_first_player"),
        ({"players": ["Ada", "Bea", "ada"], "first_player": 0}, "player_twice"),
    ],
)
def test_create_refusals_are_the_engines(api, snapshot, body, code) -> None:
    before = snapshot()
    assert_error(create(api, **body), 400, code)
    assert snapshot() == before
    assert not Player.objects.exists()  # the names of a refused game make no player


@pytest.mark.parametrize("game_type", ["chess", "", 5, None, ["complots"]])
def test_an_unknown_game_type_is_400(api, snapshot, game_type) -> None:
    before = snapshot()
    body = {"game_type": game_type, "players": ["Ada", "Bea", "Cy"], "first_player": 0}
    assert_error(api.post("/api/games/", body, format="json"), 400, "unknown_game_type")
    assert snapshot() == before


def test_bad_create_fields_are_400_invalid(api) -> None:
    for body in [
        {"players": ["Ada", "Bea"]},
        {"players": ["Ada", "Bea"], "first_player": "x"},
        {"players": ["Ada", "Bea"], "first_player": 0, "variant": ["inquisitor"]},
    ]:
        response = api.post("/api/games/", {"game_type": "complots", **body}, format="json")
        assert_error(response, 400, "invalid")
    body = {"game_type": "complots", "players": ["Ada", "Bea"], "first_player": 0}
    response = api.post("/api/games/", {**body, "variant": "x" * 33}, format="json")
    assert assert_error(response, 400, "too_long")["path"] == "variant"
    assert not Game.objects.exists()


# --- append and read --------------------------------------------------------------------------


def test_append_turns_and_the_standings(api, make_complots, plot) -> None:
    game = make_complots()
    for number, turn in enumerate(plot.turns, start=1):
        response = api.post(
            f"/api/games/{game.pk}/turns/", {"number": number, **turn}, format="json"
        )
        assert response.status_code == 201, response.content
        assert response.json()["turn"] == {"number": number, **turn}
        assert "round" not in response.json()
    result = response.json()["result"]
    assert result["turns_played"] == 6 and result["complete"] is False
    assert per_seat(result, "influences") == plot.influences_after_6
    assert per_seat(result, "coins") == plot.coins_after_6
    assert per_seat(result, "rank") == plot.ranks_after_6
    assert per_seat(result, "face_up") == plot.face_up_after_6
    assert per_seat(result, "alive") == [True, True, True]
    assert result["treasury"] == plot.treasury_after_6 and result["winners"] == []
    for key, expected in plot.counts_after_6.items():
        assert per_seat(result, key) == expected, key
    # Stored exactly as complots-log/1 has them.
    assert turns_of(game.pk) == plot.turns


def test_turns_are_read_under_both_names(api, make_complots, plot) -> None:
    game = make_complots(turns=plot.turns)
    numbered = [{"number": n, **t} for n, t in enumerate(plot.turns, start=1)]
    assert api.get(f"/api/games/{game.pk}/turns/").json() == numbered
    assert api.get(f"/api/games/{game.pk}/rounds/").json() == numbered
    assert api.get(f"/api/games/{game.pk}/turns/2/").json() == numbered[1]
    assert api.get(f"/api/games/{game.pk}/rounds/5/").json() == numbered[4]
    assert_error(api.get(f"/api/games/{game.pk}/turns/7/"), 404, "not_found")
    detail = api.get(f"/api/games/{game.pk}/").json()
    assert detail["turns"] == numbered and detail["variant"] == "inquisitor"


def test_append_through_the_rounds_path_and_without_a_number(api, make_complots, plot) -> None:
    game = make_complots()
    response = api.post(f"/api/games/{game.pk}/rounds/", plot.turns[0], format="json")
    assert response.status_code == 201
    assert response.json()["turn"] == {"number": 1, **plot.turns[0]}
    response = api.post(f"/api/games/{game.pk}/turns/", plot.turns[1], format="json")
    assert response.json()["turn"]["number"] == 2


def test_keys_that_do_not_apply_are_not_stored(api, make_complots) -> None:
    game = make_complots()
    turn = {
        "actor": 0,
        "action": "income",
        "target": None,
        "challenge": None,
        "block": None,
        "losses": [],
        "forced_swap": None,
    }
    response = api.post(f"/api/games/{game.pk}/turns/", turn, format="json")
    assert response.status_code == 201
    assert turns_of(game.pk) == [{"actor": 0, "action": "income"}]


@pytest.mark.parametrize(
    ("turn", "code", "seat"),
    [
        # Ada (seat 0) has 4 coins: a coup costs 7.
        ({"actor": 0, "action": "coup", "target": 1}, "not_enough_coins", 0),
        # Turn 7 is Ada's, not Bea's.
        ({"actor": 1, "action": "income"}, "out_of_turn", 1),
        ({"actor": 0, "action": "steal", "target": 1}, "unknown_action", 0),
        ({"actor": 0, "action": "income", "target": 1}, "bad_target", 0),
        # Bea challenges a true duchess: she must lose an influence, and none is listed.
        (
            {"actor": 0, "action": "duchess", "challenge": {"by": 1, "truthful": True}},
            "missing_loss",
            1,
        ),
        # The duchess claims no block.
        (
            {"actor": 0, "action": "duchess", "block": {"by": 1, "as": "duchess"}},
            "not_blockable",
            1,
        ),
        (
            {"actor": 0, "action": "income", "losses": [{"seat": 2, "card": "countess"}]},
            "unexpected_loss",
            2,
        ),
    ],
)
def test_an_impossible_turn_is_refused_with_its_turn(
    api, make_complots, plot, snapshot, turn, code, seat
) -> None:
    game = make_complots(turns=plot.turns)
    before = snapshot()
    response = api.post(f"/api/games/{game.pk}/turns/", {"number": 7, **turn}, format="json")
    assert_error(response, 400, code, round=7, turn=7, seat=seat)
    assert snapshot() == before


def test_inquire_needs_the_inquisitor(api, make_complots, snapshot) -> None:
    game = make_complots(variant="ambassador")
    before = snapshot()
    turn = {"actor": 0, "action": "inquire", "target": 1}
    response = api.post(f"/api/games/{game.pk}/turns/", turn, format="json")
    assert_error(response, 400, "action_not_in_variant", round=1, turn=1, seat=0)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"actor": "x", "action": "income"}, "actor"),
        ({"action": "income"}, "actor"),
        ({"actor": 0}, "action"),
        ({"actor": 0, "action": ["income"]}, "action"),
        ({"actor": 0, "action": "income", "target": "Bea"}, "target"),
        ({"actor": 0, "action": "duchess", "challenge": 1}, "challenge"),
        ({"actor": 0, "action": "duchess", "challenge": {"by": 1}}, "challenge"),
        ({"actor": 0, "action": "duchess", "challenge": {"by": 1, "truthful": "?"}}, "challenge"),
        ({"actor": 0, "action": "foreign_aid", "block": {"by": 1}}, "block"),
        ({"actor": 0, "action": "coup", "losses": {"seat": 1}}, "losses"),
        ({"actor": 0, "action": "coup", "losses": [{"seat": 1}]}, "losses"),
        ({"actor": 0, "action": "coup", "losses": [{"seat": 1, "card": "x"}] * 9}, "losses"),
        ({"actor": 0, "action": "inquire", "forced_swap": "maybe"}, "forced_swap"),
        ({"number": 0, "actor": 0, "action": "income"}, "number"),
    ],
)
def test_a_turn_of_the_wrong_shape_is_400_invalid(
    api, make_complots, snapshot, body, field
) -> None:
    game = make_complots()
    before = snapshot()
    response = api.post(f"/api/games/{game.pk}/turns/", body, format="json")
    too_long = len(body.get("losses") or ()) > 8  # a list past its length alone: the gate's code
    assert field in assert_error(response, 400, "too_long" if too_long else "invalid")["fields"]
    assert snapshot() == before


def test_a_stale_number_is_a_conflict(api, make_complots, plot, snapshot) -> None:
    game = make_complots(turns=plot.turns)
    before = snapshot()
    for number in (6, 8):
        body = {"number": number, "actor": 0, "action": "income"}
        response = api.post(f"/api/games/{game.pk}/turns/", body, format="json")
        assert_error(response, 409, "round_conflict", round=number)
    assert snapshot() == before


# --- undo and correct -------------------------------------------------------------------------


def test_undo_the_last_turns(api, make_complots, plot) -> None:
    game = make_complots(turns=plot.turns)
    body = api.delete(f"/api/games/{game.pk}/turns/last/").json()
    assert [t["number"] for t in body["turns"]] == [1, 2, 3, 4, 5]
    assert body["result"]["turns_played"] == 5
    body = api.delete(f"/api/games/{game.pk}/turns/last/").json()
    # After turn 4 (conftest.py): Ada 4 coins, Bea 4 (her assassin not paid yet), Cy 4.
    assert per_seat(body["result"], "coins") == [4, 4, 4]
    assert per_seat(body["result"], "rank") == [2, 1, 2]
    body = api.delete(f"/api/games/{game.pk}/rounds/last/").json()  # the same under /rounds/
    # After turn 3: Ada 1 coin, Bea 4, Cy 4. Bea first (2 influences); Cy second on coins,
    # Ada third.
    assert per_seat(body["result"], "coins") == [1, 4, 4]
    assert per_seat(body["result"], "rank") == [3, 1, 2]
    assert turns_of(game.pk) == plot.turns[:3]


def test_undo_with_no_turn_is_409(api, make_complots) -> None:
    game = make_complots()
    assert_error(api.delete(f"/api/games/{game.pk}/turns/last/"), 409, "no_rounds")


def test_correct_a_past_turn(api, make_complots, plot) -> None:
    game = make_complots(turns=plot.turns)
    income = {"actor": 0, "action": "income"}
    response = api.put(f"/api/games/{game.pk}/turns/4/", income, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["turns"][3] == {"number": 4, **income}
    result = body["result"]
    # Turn 4 is now income: Ada 1 + 1 = 2 coins (not 4); turns 5 and 6 change no coin of hers.
    # Bea 1, Cy 4. Treasury: 48 - 1 (turn 1) - 2 (turn 3) - 1 (turn 4) + 3 (turn 5) = 47.
    assert per_seat(result, "coins") == [2, 1, 4]
    assert result["treasury"] == 47
    # Bea first on influences; Cy ahead of Ada on coins (4 to 2).
    assert per_seat(result, "rank") == [3, 1, 2]
    assert per_seat(result, "coins_gained") == [2, 2, 2]
    assert per_seat(result, "claims_made") == [0, 2, 1]
    assert turns_of(game.pk)[3] == income
    assert turns_of(game.pk)[4:] == plot.turns[4:]


def test_a_correction_that_breaks_a_later_turn_changes_nothing(
    api, make_complots, plot, snapshot
) -> None:
    game = make_complots(turns=plot.turns)
    before = snapshot()
    # Turn 3 corrected: Ada's duchess block was true, so Cy, who challenged it, loses her last
    # influence and is out on turn 3. Turn 3 itself is possible; turn 5, Bea's assassin aimed at
    # Cy, no longer is (a target is a live player).
    corrected = copy.deepcopy(plot.turns[2])
    corrected["block"]["challenge"]["truthful"] = True
    corrected["losses"] = [{"seat": 2, "card": "captain"}]
    response = api.put(f"/api/games/{game.pk}/turns/3/", corrected, format="json")
    assert_error(response, 400, "bad_target", round=5, turn=5, seat=1)
    assert snapshot() == before


def test_correct_a_turn_that_does_not_exist(api, make_complots, plot) -> None:
    game = make_complots(turns=plot.turns[:2])
    response = api.put(f"/api/games/{game.pk}/turns/3/", plot.turns[2], format="json")
    assert_error(response, 400, "no_such_round", round=3)


# --- finish -----------------------------------------------------------------------------------


def test_finish_a_won_game_then_reopen(api, make_complots, plot) -> None:
    game = make_complots(players=["Ada", "Bea"], variant="ambassador", turns=plot.duel)
    response = api.post(f"/api/games/{game.pk}/finish/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "finished" and body["finished_at"] is not None
    # The duel (conftest.py): Ada is the last player left, Bea out on turn 2.
    assert body["winners"] == [0]
    assert [(s["rank"], s["score"]) for s in body["seats"]] == [(1, None), (2, None)]
    result = body["result"]
    assert result["complete"] is True and result["winners"] == [0]
    assert per_seat(result, "alive") == [True, False]
    assert per_seat(result, "eliminated_on_turn") == [None, 2]
    assert per_seat(result, "coins") == [4, 0] and result["treasury"] == 50
    assert per_seat(result, "players_eliminated") == [1, 0]
    assert per_seat(result, "bluffs_caught") == [0, 1]
    assert per_seat(result, "challenges_won") == [1, 0]
    assert list(Seat.objects.filter(game=game).values_list("rank", flat=True)) == [1, 2]

    # Finished: read-only until reopened.
    turn = {"actor": 0, "action": "income"}
    assert_error(
        api.post(f"/api/games/{game.pk}/turns/", turn, format="json"), 409, "game_finished"
    )
    assert_error(api.delete(f"/api/games/{game.pk}/turns/last/"), 409, "game_finished")
    response = api.post(f"/api/games/{game.pk}/reopen/")
    assert response.status_code == 200 and response.json()["status"] == "in_progress"
    # The game is won: no turn comes after it.
    response = api.post(f"/api/games/{game.pk}/turns/", turn, format="json")
    assert_error(response, 400, "game_over", round=3, turn=3)


def test_finish_with_an_empty_body_too(api, make_complots, plot) -> None:
    game = make_complots(players=["Ada", "Bea"], variant="ambassador", turns=plot.duel)
    response = api.post(f"/api/games/{game.pk}/finish/", {}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "finished"


def test_finish_a_game_in_progress_is_409(api, make_complots, plot) -> None:
    game = make_complots(turns=plot.turns)
    assert_error(api.post(f"/api/games/{game.pk}/finish/"), 409, "game_incomplete")
    stored = Game.objects.get(pk=game.pk)
    assert stored.status == "in_progress" and stored.finished_at is None
    assert list(Seat.objects.filter(game=game).values_list("rank", flat=True)) == [None] * 3


# --- export and import ------------------------------------------------------------------------


def test_export_then_import_gives_the_same_result(api, make_complots, plot) -> None:
    game = make_complots(turns=plot.turns)
    api.patch(f"/api/games/{game.pk}/", {"location": "Club", "notes": "n"}, format="json")
    original = api.get(f"/api/games/{game.pk}/").json()

    document = api.get(f"/api/games/{game.pk}/log/").json()
    assert document["format"] == "complots-log/1" and document["variant"] == "inquisitor"
    assert document["players"] == ["Ada", "Bea", "Cy"] and document["first_player"] == 0
    assert document["turns"] == plot.turns and document["teams"] is None
    assert (document["location"], document["notes"]) == ("Club", "n")

    response = api.post("/api/games/import/", document, format="json")
    assert response.status_code == 201, response.content
    (made,) = response.json()["games"]
    assert made["game_type"] == "complots" and made["status"] == "in_progress"
    assert made["player_count"] == 3 and made["winners"] == []
    copied = api.get(f"/api/games/{made['id']}/").json()
    assert copied["result"] == original["result"]
    assert copied["turns"] == original["turns"] and copied["variant"] == "inquisitor"
    assert [s["player"]["id"] for s in copied["seats"]] == [
        s["player"]["id"] for s in original["seats"]
    ]
    assert (copied["location"], copied["notes"]) == ("Club", "n")


@pytest.mark.parametrize(
    ("players", "seed", "variant"),
    [(2, 3, "ambassador"), (5, 4, "inquisitor"), (8, 5, "ambassador")],
)
def test_a_whole_game_through_the_api_round_trips(api, players, seed, variant) -> None:
    log = simulate(players, seed=seed, variant=variant)
    game = create(
        api, players=log["players"], first_player=log["first_player"], variant=variant
    ).json()
    play(api, game["id"], log["turns"])
    finished = api.post(f"/api/games/{game['id']}/finish/").json()
    assert finished["status"] == "finished"
    assert len(finished["winners"]) == 1  # one player left

    document = api.get(f"/api/games/{game['id']}/log/").json()
    assert document["turns"] == log["turns"]
    (made,) = api.post("/api/games/import/", document, format="json").json()["games"]
    assert made["status"] == "finished" and made["winners"] == finished["winners"]
    copied = api.get(f"/api/games/{made['id']}/").json()
    assert copied["result"] == finished["result"]
    assert [s["rank"] for s in copied["seats"]] == [s["rank"] for s in finished["seats"]]


def test_import_is_all_or_nothing_and_names_the_turn(api, standard_deck) -> None:
    good = simulate(3, seed=9, variant="inquisitor", names=["Ann", "Bo", "Cid"])
    bad = {
        "format": "complots-log/1",
        "players": ["Dee", "Eve", "Fay"],
        "first_player": 0,
        # Turn 2 is seat 1's, not seat 0's again.
        "turns": [{"actor": 0, "action": "income"}, {"actor": 0, "action": "income"}],
    }
    response = api.post("/api/games/import/", [good, bad], format="json")
    assert_error(response, 400, "out_of_turn", index=1, round=2, turn=2, seat=0)
    assert not Game.objects.exists() and not Player.objects.exists()
    assert not Round.objects.exists()


def test_import_both_games_in_one_request(api, standard_deck) -> None:
    from scoring.engine.potdevin.simulate import simulate as simulate_pot_de_vin

    documents = [simulate_pot_de_vin(3, seed=10), simulate(4, seed=11, variant="inquisitor")]
    response = api.post("/api/games/import/", documents, format="json")
    assert response.status_code == 201, response.content
    made = response.json()["games"]
    assert [(g["game_type"], g["player_count"]) for g in made] == [
        ("pot-de-vin", 3),
        ("complots", 4),
    ]
    assert Round.objects.filter(game_id=made[1]["id"]).count() == len(documents[1]["turns"])


# --- the list, the scorepad, permissions ------------------------------------------------------


def test_the_list_filters_by_game_type(api, make_game, make_complots, plot) -> None:
    pot = make_game()
    three = make_complots(turns=plot.turns[:2])
    duel = make_complots(players=["Dev", "Eli"], turns=plot.duel)

    def ids(query: str) -> set[int]:
        response = api.get(f"/api/games/{query}")
        assert response.status_code == 200, response.content
        return {g["id"] for g in response.json()["results"]}

    assert ids("?game_type=complots") == {three.pk, duel.pk}
    assert ids("?game_type=pot-de-vin") == {pot.pk}
    assert ids("") == {pot.pk, three.pk, duel.pk}
    assert ids("?game_type=complots&players=2") == {duel.pk}
    assert_error(api.get("/api/games/?game_type=chess"), 400, "invalid")
    listed = api.get("/api/games/?game_type=complots&players=3").json()["results"]
    assert [(g["game_type"], g["edition"], g["deck"]) for g in listed] == [("complots", None, None)]


def test_complots_scorepad_takes_a_result_not_tableaux(api, snapshot) -> None:
    # Complots is recorded by its result (the elimination order, K4; see
    # test_api_complots_result.py): a Pot de Vin sheet sent for it is refused, nothing stored.
    before = snapshot()
    body = {"game_type": "complots", "players": ["Ada", "Bea"], "tableaux": [{}, {}]}
    body = assert_error(api.post("/api/games/scorepad/", body, format="json"), 400, "invalid")
    assert "eliminated" in body["fields"]
    assert snapshot() == before


def test_another_users_turns_are_403(other_api, make_complots, plot, snapshot) -> None:
    game = make_complots(turns=plot.turns[:1])
    before = snapshot()
    base = f"/api/games/{game.pk}/"
    for method, path, body in [
        ("post", f"{base}turns/", plot.turns[1]),
        ("put", f"{base}turns/1/", plot.turns[0]),
        ("delete", f"{base}turns/last/", None),
        ("post", f"{base}finish/", None),
    ]:
        response = getattr(other_api, method)(path, body, format="json")
        assert_error(response, 403, "permission_denied")
    assert snapshot() == before
