"""Bruges by its final score sheet through the API (``POST /api/games/scorepad/``): the
rulebook's example of a final scoring, B7's tie-breaks, a sheet no game can leave (refused with
the seat and the category, nothing stored), hostile bodies (integers past 64 bits, nulls in
lists, wrong types, NUL) as clean 400s, the statistics of a sheet game beside a logged one, and
a re-score with a corrected edition that changes a sheet game's totals. Expected values are
worked by hand from shared/rules/bruges.md ("End and scoring", B1, B3, B4, B7)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.records import services
from games.records.models import Edition, Game, Player
from scoring import jobs
from scoring.engine.bruges import ENGINE
from scoring.jobs import tasks
from scoring.models import Job, PlayerGame
from scoring.stats import selectors
from tests.accounts import first_club
from tests.api.test_api_bruges import (
    LAURELS_4,
    ROUND_1,
    ROUND_2,
    STANDARD,
    assert_error,
    bruges_standard,  # noqa: F401 (autouse: the standard edition stored)
    finish,
    new_game,
    per_seat,
    play,
)

pytestmark = pytest.mark.django_db

BRUGES = "bruges"
# Ada's line is the rulebook's "Esempio di punteggio finale": persons 3 + 1 + 2 + 0 + 2 = 8
# (prices 9, 3, 6, 0, 6: B4), 6 houses, the Borgomastro's 2 x 2 = 4 laurel points, two
# majority tiles 2 x 4 = 8, a canal's 3rd space 3, step 6 = 7 (B1): 36. Bea: 21 on the track,
# a 12-florin person 4, 2 houses, the statue of 7, step 3 = 3: 37. Bea wins.
ADA = {
    "track": 0,
    "persons": [9, 3, 6, 0, 6],
    "houses": 6,
    "laurels": 4,
    "majorities": 2,
    "canals": 1,
    "step": 6,
    "florins": 3,
}
BEA = {"track": 21, "persons": [12], "houses": 2, "statues": [7], "step": 3, "florins": 5}


def scorepad(api, sheet: list[Any], players: list[str] | None = None, **body: Any):
    document = {
        "game_type": BRUGES,
        "players": players or ["Ada", "Bea", "Cy", "Dan"][: len(sheet)],
        "sheet": sheet,
        **body,
    }
    return api.post("/api/games/scorepad/", document, format="json")


def test_a_game_by_its_score_sheet(api) -> None:
    response = scorepad(api, [ADA, BEA], played_on="2026-03-01", location="Club")
    assert response.status_code == 201, response.content
    game = response.json()
    assert (game["mode"], game["status"], game["edition"]) == ("scorepad", "finished", "standard")
    assert game["edition_verified"] is False  # B1: the standard edition is not verified
    assert [(s["player"]["name"], s["score"], s["rank"]) for s in game["seats"]] == [
        ("Ada", 36, 2),
        ("Bea", 37, 1),
    ]
    assert game["winners"] == [1]
    result = game["result"]
    assert result["format"] == "bruges-result/1" and result["complete"] is True
    assert per_seat(result, "breakdown")[0] == {
        "track": 0,
        "persons": 8,
        "houses": 6,
        "laurels": 4,
        "majorities": 8,
        "canals": 3,
        "statues": 0,
        "prestige": 7,
    }
    assert per_seat(result, "breakdown")[1] == {
        "track": 21,
        "persons": 4,
        "houses": 2,
        "laurels": 0,
        "majorities": 0,
        "canals": 0,
        "statues": 7,
        "prestige": 3,
    }
    assert result["statues"] == {
        "taken": [{"seat": 1, "section": None, "value": 7, "round": None}],
        "pile": [6, 5, 4, 3, 2],
    }
    # The sheet is kept as given, and the game has no rounds (nor a log to export).
    assert game["sheet"] == [ADA, BEA]
    assert (game["rounds"], game["final"]) == ([], None)
    detail = api.get(f"/api/games/{game['id']}/").json()
    assert detail["sheet"] == [ADA, BEA] and detail["result"] == result
    assert_error(api.get(f"/api/games/{game['id']}/log/"), 409, "scorepad_game")
    assert_error(api.post(f"/api/games/{game['id']}/rounds/", ROUND_1, format="json"), 409)


def test_the_openapi_example_is_the_rulebooks_example(api) -> None:
    from games.plugins.bruges.api import EXAMPLE_SHEET

    response = scorepad(api, copy.deepcopy(EXAMPLE_SHEET), edition="standard")
    assert response.status_code == 201, response.content
    assert [(s["score"], s["rank"]) for s in response.json()["seats"]] == [(36, 2), (37, 1)]


def test_written_points_and_totals_are_checked_and_kept(api) -> None:
    ada = {**ADA, "points": {"persons": 8, "majorities": 8, "prestige": 7}, "score": 36}
    response = scorepad(api, [ada, BEA])
    assert response.status_code == 201, response.content
    assert response.json()["sheet"][0] == ada
    assert response.json()["seats"][0]["score"] == 36


def test_ties_are_broken_by_florins_then_shared_b7(api) -> None:
    # 20 points each: Ada and Bea with 4 florins share the first place; Cy, with 2, is third.
    sheet = [
        {"track": 20, "florins": 4},
        {"track": 19, "houses": 1, "florins": 4},
        {"track": 17, "canals": 1, "florins": 2},
    ]
    result = scorepad(api, sheet).json()["result"]
    assert per_seat(result, "score") == [20, 20, 20]
    assert per_seat(result, "rank") == [1, 1, 3]
    assert per_seat(result, "tiebreak") == ["shared", "shared", "florins"]
    assert result["winners"] == [0, 1]


def test_an_impossible_sheet_is_refused_with_the_category_named(api, snapshot) -> None:
    before = snapshot()
    # Step 3 scores 3 on the standard board (B1), not 7.
    body = assert_error(
        scorepad(api, [{**ADA, "step": 3, "points": {"prestige": 7}}, BEA]),
        400,
        "bad_sheet",
        seat=0,
        round=None,
    )
    assert body["message"] == (
        "seat 0: 'prestige' points are 7 on the sheet, but step 3 scores 3 in edition standard"
    )
    # A statue under the top of the pile (B3), more persons than houses, laurels without
    # persons, a price that is none (B4): each names its category.
    for sheet, seat, category in [
        ([{"statues": [6]}, {}], 0, "statues"),
        ([{}, {"statues": [7, 6, 5]}], 1, "statues"),
        ([{"persons": [3, 3], "houses": 1}, {}], 0, "houses"),
        ([{}, {"laurels": 3}], 1, "laurels"),
        ([{"persons": [4], "houses": 1}, {}], 0, "persons"),
        ([{"statues": [7]}, {"statues": [7]}], 1, "statues"),
        ([{"track": 5, "score": 6}, {}], 0, "score"),
        ([{"majorities": 1, "points": {"majorities": 3}}, {}], 0, "majorities"),
        ([{"cards": 3}, {}], 0, None),
        ([{"points": {"track": 3}}, {}], 0, "points"),
    ]:
        body = assert_error(scorepad(api, sheet), 400, "bad_sheet", seat=seat)
        assert body["message"].startswith(f"seat {seat}: "), body
        if category is not None:
            assert f"'{category}'" in body["message"], body
    # A seat too many or too few for the players.
    assert_error(scorepad(api, [{}, {}, {}], players=["Ada", "Bea"]), 400, "malformed")
    assert snapshot() == before
    assert not Player.objects.exists()  # no player is created for a refused game


@pytest.mark.parametrize(
    ("sheet", "code"),
    [
        pytest.param([{"track": 2**64}, {}], "out_of_range", id="an integer past 64 bits"),
        pytest.param([{"track": 2**70}, {}], "out_of_range", id="an integer past 2**70"),
        pytest.param([{"track": -(2**64)}, {}], "out_of_range", id="a negative past 64 bits"),
        pytest.param([{"persons": [2**64]}, {}], "out_of_range", id="a price past 64 bits"),
        pytest.param(
            [{"points": {"prestige": 2**64}}, {}], "out_of_range", id="points past 64 bits"
        ),
        pytest.param([{"cards": 2**64}, {}], "out_of_range", id="an unknown key past 64 bits"),
        pytest.param([{"persons": [3, None], "houses": 2}, {}], "invalid", id="a null price"),
        pytest.param([{"statues": [None]}, {}], "invalid", id="a null statue"),
        pytest.param([None, {}], "invalid", id="a null seat"),
        pytest.param([{"track": "x"}, {}], "invalid", id="track a word"),
        pytest.param([{"track": True}, {}], "invalid", id="track a boolean"),
        pytest.param([{"track": 2.5}, {}], "invalid", id="track a fraction"),
        pytest.param([{"track": [1]}, {}], "invalid", id="track a list"),
        pytest.param([{"persons": 9}, {}], "invalid", id="persons a number"),
        pytest.param([{"persons": [9] * 200}, {}], "too_long", id="too many persons"),
        pytest.param([{"statues": {"7": True}}, {}], "invalid", id="statues an object"),
        pytest.param([{"points": [7]}, {}], "invalid", id="points a list"),
        pytest.param([{"track": "1\u0000"}, {}], "invalid_text", id="a NUL in a number"),
        pytest.param([{"x\u0000": 1}, {}], "invalid_text", id="a NUL in a key"),
        pytest.param([{"note": "a\u0000b"}, {}], "invalid_text", id="a NUL in a value"),
        pytest.param([{"track": 1001}, {}], "invalid", id="past the shape's bound"),
        pytest.param([[], {}], "invalid", id="a seat a list"),
        pytest.param({"0": {}}, "invalid", id="the sheet an object"),
        pytest.param([], "invalid", id="no line"),
        pytest.param("sheet", "invalid", id="the sheet a string"),
    ],
)
def test_hostile_sheets_are_clean_400s(api, snapshot, sheet: Any, code: str) -> None:
    before = snapshot()
    assert_error(scorepad(api, sheet, players=["Ada", "Bea"]), 400, code)
    assert snapshot() == before


def test_other_bad_bodies(api, snapshot) -> None:
    before = snapshot()
    assert_error(scorepad(api, [{}, {}], edition="deluxe"), 400, "unknown_edition")
    assert_error(scorepad(api, [{}], players=["Ada"]), 400)
    assert_error(scorepad(api, [{}, {}], players=["Ada", "Ada"]), 400)
    assert_error(scorepad(api, [{}, {}], players=["Ada", "B\u0000"]), 400)
    body = {"game_type": BRUGES, "players": ["Ada", "Bea"]}
    assert (
        "sheet"
        in assert_error(api.post("/api/games/scorepad/", body, format="json"), 400)["fields"]
    )
    assert snapshot() == before


def test_a_stored_edition_scores_the_sheet(api) -> None:
    corrected = copy.deepcopy(STANDARD)
    corrected["prestige_points"][8] = 10
    body = {"game_type": BRUGES, "key": "v2", "data": corrected}
    assert api.post("/api/editions/", body, format="json").status_code == 201
    # Step 8: 11 points on the standard board, 10 on v2 (B1).
    sheet = [{"step": 8}, {"step": 7}]
    assert per_seat(scorepad(api, sheet).json()["result"], "score") == [11, 9]
    game = scorepad(api, sheet, edition="v2").json()
    assert (game["edition"], per_seat(game["result"], "score")) == ("v2", [10, 9])


# --- statistics ------------------------------------------------------------------------------


def test_statistics_read_a_sheet_game_as_a_logged_one(
    api, django_capture_on_commit_callbacks
) -> None:
    # A logged game (tests/api/test_api_bruges.py: Ada 19, Bea 18 with the laurels) and a
    # sheet game of the same players (Ada 36, Bea 37).
    with django_capture_on_commit_callbacks(execute=True):
        logged = new_game(api)
        play(api, logged["id"], [ROUND_1, ROUND_2])
        finish(api, logged["id"], LAURELS_4)
        sheet = scorepad(api, [ADA, BEA]).json()
    ada = selectors.player_stats(player=Player.objects.get(name="Ada"), game_type=BRUGES)
    assert (ada["games"], ada["wins"], ada["best_score"], ada["worst_score"]) == (2, 1, 36, 19)
    # Per category, (logged + sheet) / 2: track (6 + 0) / 2, persons (3 + 8) / 2, houses
    # (2 + 6) / 2, laurels (4 + 4) / 2, majorities (4 + 8) / 2, canals (0 + 3) / 2,
    # prestige (0 + 7) / 2; they add up to the average score, (19 + 36) / 2.
    assert ada["average_points"] == {
        "track": 3,
        "persons": 5.5,
        "houses": 4,
        "laurels": 4,
        "majorities": 6,
        "canals": 1.5,
        "statues": 0,
        "prestige": 3.5,
    }
    assert sum(ada["average_points"].values()) == ada["average_score"] == 27.5
    # Majority tiles: persons (logged), two on the sheet.
    assert (ada["majorities_flipped"], ada["statues_taken"]) == (3, 0)
    bea = selectors.player_stats(player=Player.objects.get(name="Bea"), game_type=BRUGES)
    assert (bea["statues_taken"], bea["statues_per_game"]) == (1, 0.5)
    # Only the logged game knows the persons hired: Ada's scholar and artist.
    assert {g: n for g, n in ada["hired"].items() if n} == {"scholars": 1, "artists": 1}
    # The sheet game's counters a sheet cannot know are null, not 0.
    row = PlayerGame.objects.get(game_id=sheet["id"], seat=0)
    assert (row.counters["statues_taken"], row.counters["majorities_flipped"]) == (0, 2)
    assert row.counters["points_persons"] == 8
    for name in ("cards_played", "penalties_blue", "hired_scholars", "hired_nobles"):
        assert row.counters[name] is None, name
    logged_row = PlayerGame.objects.get(game_id=logged["id"], seat=0)
    assert logged_row.counters["cards_played"] == 8 and logged_row.counters["hired_scholars"] == 1


# --- a corrected edition and a re-score ---------------------------------------------------------


def test_a_corrected_edition_rescores_a_sheet_game(
    api, staff_user, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks
) -> None:
    sent: list[tuple[int, list[int]]] = []
    monkeypatch.setattr(tasks.rescore_batch, "delay", lambda job, keys: sent.append((job, keys)))
    # Ada on step 8 (11 points on the standard board), Bea 10 on the track and step 0:
    # Ada 11 against 10, Ada wins. A second sheet wrote Cy's prestige points (11 for step 8).
    first = scorepad(api, [{"step": 8}, {"track": 10}]).json()
    wrote = scorepad(api, [{"step": 8, "points": {"prestige": 11}}, {}], ["Cy", "Dan"]).json()
    assert per_seat(first["result"], "score") == [11, 10]
    # The printed board, say, gives step 8 nine points: a corrected edition version (B1).
    corrected = copy.deepcopy(STANDARD)
    corrected["prestige_points"][8] = 9
    edition = services.edition_create(
        game_type=BRUGES, key="standard-v2", data=corrected, created_by=staff_user
    )
    with django_capture_on_commit_callbacks(execute=True):
        job = jobs.rescore_start(created_by=staff_user, new_edition=edition)
    assert job.total == 2
    for job_id, keys in sent:
        assert job_id == job.pk
        jobs.rescore_batch(job_id=job_id, game_ids=keys)
    progress = jobs.job_progress(Job.objects.get(pk=job.pk))
    assert (progress["status"], progress["done"]) == ("done", 2)
    # The first sheet: Ada 9 against Bea's 10: Bea wins now.
    game = Game.objects.get(pk=first["id"])
    assert game.edition.key == "standard-v2" and game.result["edition"] == "standard-v2"
    assert per_seat(game.result, "score") == [9, 10]
    assert [(s.score, s.rank) for s in game.seats.order_by("seat")] == [(9, 2), (10, 1)]
    assert game.result["winners"] == [1]
    detail = api.get(f"/api/games/{first['id']}/").json()
    assert detail["winners"] == [1] and detail["sheet"] == [{"step": 8}, {"track": 10}]
    # The sheet that wrote 11 prestige points for step 8 contradicts the corrected board: the
    # job records it as a failure (naming the category) and the game keeps its result.
    kept = Game.objects.get(pk=wrote["id"])
    assert per_seat(kept.result, "score") == [11, 0] and kept.result["edition"] == "standard"
    (failure,) = progress["failures"]
    assert (failure["game"], failure["code"], failure["seat"]) == (wrote["id"], "bad_sheet", 0)
    assert failure["message"] == (
        "seat 0: 'prestige' points are 11 on the sheet, but step 8 scores 9 in edition standard-v2"
    )
    assert progress["winners_changed"] == [
        {"game": first["id"], "winners_before": [0], "winners_after": [1]}
    ]


def test_a_sheet_game_is_kept_by_the_services_like_any_game(user) -> None:
    services.editions_ensure_builtin()
    owner = user
    players = services.players_resolve(club=first_club(), refs=["Ada", "Bea"], created_by=owner)
    game = services.scorepad_game_create(
        club=first_club(),
        owner=owner,
        players=players,
        game_type=BRUGES,
        sheet=[ADA, BEA],
        edition=Edition.objects.get(game_type=BRUGES, key="standard"),
    )
    assert game.mode == Game.Mode.SCOREPAD and game.status == Game.Status.FINISHED
    assert [(s.score, s.rank) for s in game.seats.order_by("seat")] == [(36, 2), (37, 1)]


# --- any sheet at all --------------------------------------------------------------------------

JSON_VALUE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(
    ["track", "persons", "houses", "laurels", "majorities", "canals", "statues", "step",
     "florins", "points", "score", "cards"]
)  # fmt: skip
SMALL = st.integers(min_value=-2, max_value=15)
LINE = st.dictionaries(
    KEYS,
    SMALL | st.lists(st.sampled_from([0, 2, 3, 5, 6, 7, 9, 12, 13]), max_size=4) | JSON_VALUE,
    max_size=8,
)


# Lines a table could write, most of them possible: the engine's checks are met or missed.
PLAUSIBLE = st.fixed_dictionaries(
    {},
    optional={
        "track": st.integers(0, 60),
        "persons": st.lists(st.sampled_from([0, 3, 6, 9, 12]), max_size=5),
        "houses": st.integers(0, 8),
        "laurels": st.integers(0, 9),
        "majorities": st.integers(0, 3),
        "canals": st.integers(0, 2),
        "statues": st.lists(st.sampled_from([7, 6, 5]), max_size=2, unique=True),
        "step": st.integers(0, 12),
        "florins": st.integers(0, 20),
    },
)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
    database=None,
)
@given(
    sheet=st.lists(PLAUSIBLE, min_size=2, max_size=2)
    | st.lists(LINE, min_size=1, max_size=5)
    | JSON_VALUE
)
def test_any_sheet_is_scored_or_refused_with_a_code(api, sheet: Any) -> None:
    """Whatever the sheet holds, the answer is a game (201) or a refusal with a code (400),
    never a server error; a game stored is scored as its engine scores the stored sheet."""
    response = scorepad(api, sheet, players=["Ada", "Bea"])
    assert response.status_code in (201, 400), (sheet, response.content)
    body = response.json()
    if response.status_code == 400:
        assert isinstance(body["code"], str) and body["message"]
        return
    game = Game.objects.get(pk=body["id"])
    scored = ENGINE.score_sheet({"players": ["Ada", "Bea"], "sheet": game.sheet})
    assert [s["score"] for s in body["seats"]] == [p["score"] for p in scored["players"]]
