"""Bruges by its final score sheet (scorepad mode, ``engine.score_sheet``; docs/bruges-engine.md,
"Score sheet").

The rulebook's own example of a final scoring, the tie-breaks of B7 worked by hand, every
refusal with its code, seat and category, and the check the issue asks for: the score sheet
read off the end state of a logged game (simulated games of 2, 3 and 4 players, florin ties
included, some on a corrected edition, and the golden logs) scores the same totals, ranks,
tie-breaks and winners as the log.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scoring.engine import get_engine
from scoring.engine.bruges import ENGINE
from scoring.engine.bruges.editions import STANDARD_EDITION, Edition, edition_from_dict
from scoring.engine.bruges.simulate import simulate
from scoring.engine.errors import LogError
from tests.engine.golden import golden_files, load
from tests.paths import ROOT

DOC = ROOT / "docs" / "bruges-engine.md"
SHEET_CODES = {
    "malformed",
    "bad_player_count",
    "bad_teams",
    "unknown_edition",
    "bad_edition",
    "bad_sheet",
}
# A corrected board (B1): other points from step 7 on; the canal as the standard one.
CORRECTED: Edition = edition_from_dict(
    {
        **STANDARD_EDITION.as_dict(),
        "id": "corrected",
        "prestige_points": [0, 1, 2, 3, 4, 5, 7, 8, 10, 12, 14, 16, 19],
    }
)


def body(*seats: dict[str, Any], names: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    names = names or ["Ada", "Bea", "Cy", "Dan"][: len(seats)]
    return {"players": names, "teams": None, "sheet": list(seats), **extra}


def refused(document: Any, **kw: Any) -> LogError:
    with pytest.raises(LogError) as caught:
        ENGINE.score_sheet(document, **kw)
    return caught.value


def category(err: LogError) -> str | None:
    """The category a refusal names (its ``category`` parameter, as the message quotes it)."""
    code = err.params.get("category")
    return None if code is None else code.value


# --- scoring ------------------------------------------------------------------------------------


def test_the_rulebooks_example_of_a_final_scoring() -> None:
    # "Esempio di punteggio finale": persons 3 + 1 + 2 + 0 + 2 = 8 (prices 9, 3, 6, 0, 6: B4,
    # price / 3), 6 houses = 6, the Borgomastro's laurel 2 x 2 = 4, two majority tiles
    # 2 x 4 = 8, a canal's 3rd space = 3, step 6 = 7 (the one prestige value the rulebook
    # gives, B1): 36 points.
    example = {
        "persons": [9, 3, 6, 0, 6],
        "houses": 6,
        "laurels": 4,
        "majorities": 2,
        "canals": 1,
        "step": 6,
    }
    result = ENGINE.score_sheet(body(example, {}))
    ada = result["players"][0]
    assert ada["breakdown"] == {
        "track": 0,
        "persons": 8,
        "houses": 6,
        "laurels": 4,
        "majorities": 8,
        "canals": 3,
        "statues": 0,
        "prestige": 7,
    }
    assert ada["score"] == 36
    assert (ada["rank"], ada["tiebreak"], result["winners"]) == (1, None, [0])
    # The same numbers written on the sheet (points per category and the total) are accepted.
    written = {
        **example,
        "points": {"persons": 8, "houses": 6, "majorities": 8, "canals": 3, "prestige": 7},
        "score": 36,
    }
    assert ENGINE.score_sheet(body(written, {}))["players"][0]["score"] == 36


def test_ties_follow_b7_most_florins_then_shared() -> None:
    # Ada 20 points and 4 florins, Bea 20 and 4, Cy 19 + 1 house = 20 and 2 florins:
    # Ada and Bea share first place (as many points and florins), Cy is third by florins.
    result = ENGINE.score_sheet(
        body(
            {"track": 20, "florins": 4},
            {"track": 20, "florins": 4},
            {"track": 19, "houses": 1, "florins": 2},
        )
    )
    players = result["players"]
    assert [p["score"] for p in players] == [20, 20, 20]
    assert [p["rank"] for p in players] == [1, 1, 3]
    assert [p["tiebreak"] for p in players] == ["shared", "shared", "florins"]
    assert result["winners"] == [0, 1]
    # More florins wins a tie on points.
    result = ENGINE.score_sheet(body({"track": 9, "florins": 1}, {"track": 9, "florins": 7}))
    assert [(p["rank"], p["tiebreak"]) for p in result["players"]] == [
        (2, "florins"),
        (1, "florins"),
    ]
    assert result["winners"] == [1]


def test_statues_are_scored_and_taken_from_the_top_of_the_pile() -> None:
    # B3: Ada completed a section first (7), Bea next (6), then Ada again (5): 12 and 6.
    result = ENGINE.score_sheet(body({"statues": [5, 7]}, {"statues": [6]}))
    assert [p["breakdown"]["statues"] for p in result["players"]] == [12, 6]
    assert [p["statues"] for p in result["players"]] == [[7, 5], [6]]
    assert [p["statues_taken"] for p in result["players"]] == [2, 1]
    assert result["statues"] == {
        "taken": [
            {"seat": 0, "section": None, "value": 7, "round": None},
            {"seat": 1, "section": None, "value": 6, "round": None},
            {"seat": 0, "section": None, "value": 5, "round": None},
        ],
        "pile": [4, 3, 2],
    }


def test_prestige_points_come_from_the_edition() -> None:
    # B1: step 8 is 11 points on the standard board, 10 on the corrected one.
    sheet = body({"step": 8}, {"step": 12})
    assert [p["breakdown"]["prestige"] for p in ENGINE.score_sheet(sheet)["players"]] == [11, 20]
    corrected = ENGINE.score_sheet(sheet, edition=CORRECTED)
    assert [p["breakdown"]["prestige"] for p in corrected["players"]] == [10, 19]
    assert corrected["edition"] == "corrected"
    # The edition as JSON, as ``replay`` takes it; a built-in one named by the sheet.
    assert ENGINE.score_sheet(sheet, edition=CORRECTED.as_dict())["edition"] == "corrected"
    assert ENGINE.score_sheet({**sheet, "edition": "standard"})["edition"] == "standard"


def test_an_impossible_sheet_names_the_category_prestige_points_the_step_cannot_give() -> None:
    # Step 3 scores 3 on the standard board: a sheet that writes 7 for it is refused.
    err = refused(body({"step": 3, "points": {"prestige": 7}}, {}))
    assert (err.code, err.seat, category(err)) == ("bad_sheet", 0, "prestige")
    assert str(err) == (
        "seat 0: 'prestige' points are 7 on the sheet, but step 3 scores 3 in edition standard"
    )
    # Step 6 is 7 on the standard board and on the corrected one; step 8 differs.
    sheet = body({}, {"step": 8, "points": {"prestige": 11}})
    assert ENGINE.score_sheet(sheet)["players"][1]["score"] == 11
    err = refused(sheet, edition=CORRECTED)
    assert (err.code, err.seat, category(err)) == ("bad_sheet", 1, "prestige")
    assert "step 8 scores 10 in edition corrected" in str(err)


def test_what_a_sheet_cannot_know_is_null_not_zero() -> None:
    result = ENGINE.score_sheet(
        body({"persons": [3], "houses": 1, "majorities": 2, "statues": [7]}, {})
    )
    ada = result["players"][0]
    assert (ada["persons"], ada["houses"], ada["majorities_flipped"], ada["statues_taken"]) == (
        1,
        1,
        2,
        1,
    )
    for key in ("canals", "workers", "threats", "majorities", "tableau", "laurels"):
        assert ada[key] is None, key
    for key in ("cards_played", "penalties", "hired"):
        assert ada[key] is None, key
    assert (result["final"], result["majorities"], result["persons"]) == (None, None, None)
    assert (result["complete"], result["rounds_played"], result["rounds"]) == (True, 0, [])
    # Every statistic the engine contributes (``info.stats``) reads a number where the sheet
    # says it and null where it does not.
    known = {"points", "statues_taken", "majorities_flipped"}
    for stat in ENGINE.info.stats:
        value: Any = ada
        for key in stat.path:
            value = value.get(key) if isinstance(value, dict) else None
        if stat.name in known or stat.name.startswith("points_"):
            assert isinstance(value, int), stat.name
        else:
            assert value is None, stat.name


def test_the_result_has_the_shape_of_a_logged_result() -> None:
    log = simulate(3, seed=5)
    logged = ENGINE.replay(log)
    sheet = ENGINE.score_sheet(body({}, {}, {}, names=log["players"]))
    assert set(sheet) == set(logged)
    for mine, theirs in zip(sheet["players"], logged["players"], strict=True):
        assert set(mine) == set(theirs)
        assert tuple(mine["breakdown"]) == tuple(theirs["breakdown"])
    assert set(sheet["statues"]) == set(logged["statues"])


def test_missing_and_null_keys_are_zero_or_empty() -> None:
    keys = ("track", "persons", "houses", "laurels", "majorities", "canals", "statues", "step")
    nulls = dict.fromkeys((*keys, "florins", "points", "score"))
    for seat in ({}, nulls):
        ada = ENGINE.score_sheet(body(seat, {}))["players"][0]
        assert (ada["score"], ada["florins"], ada["step"], ada["statues"]) == (0, 0, 0, [])


def test_the_engine_is_registered_with_a_scorepad() -> None:
    engine = get_engine("bruges")
    assert engine.info.scorepad and engine.info.sheet_key == "sheet"
    assert engine.score_sheet(body({"track": 5}, {}))["players"][0]["score"] == 5


# --- refusals -----------------------------------------------------------------------------------


def two(seat0: dict[str, Any], seat1: dict[str, Any] | None = None) -> dict[str, Any]:
    return body(seat0, {} if seat1 is None else seat1)


BAD_SEATS: list[tuple[str, dict[str, Any], dict[str, Any] | None, int | None, str | None]] = [
    # (what, seat 0, seat 1, seat refused, category named)
    ("unknown field", {"cards": 3}, None, 0, None),
    ("negative track", {"track": -1}, None, 0, "track"),
    ("track as text", {"track": "3"}, None, 0, "track"),
    ("track as a boolean", {"track": True}, None, 0, "track"),
    ("track as a float", {"track": 2.0}, None, 0, "track"),
    ("houses as a list", {"houses": [1]}, None, 0, "houses"),
    ("negative laurels", {"laurels": -2}, None, 0, "laurels"),
    ("four majority tiles", {"majorities": 4}, None, 0, "majorities"),
    ("three canal sections", {"canals": 3}, None, 0, "canals"),
    ("step 13", {"step": 13}, None, 0, "step"),
    ("negative florins", {"florins": -1}, {}, 0, "florins"),
    ("a price not a multiple of 3 (B4)", {"persons": [4], "houses": 1}, None, 0, "persons"),
    ("a price above 12 (B4)", {"persons": [15], "houses": 1}, None, 0, "persons"),
    ("a null price", {"persons": [3, None], "houses": 2}, None, 0, "persons"),
    ("persons as a number", {"persons": 3, "houses": 3}, None, 0, "persons"),
    ("more persons than houses", {"persons": [3, 6], "houses": 1}, None, 0, "houses"),
    ("laurels and no person", {"laurels": 2}, None, 0, "laurels"),
    ("a statue that is none", {}, {"statues": [8]}, 1, "statues"),
    ("a null statue", {}, {"statues": [None]}, 1, "statues"),
    ("the same statue twice", {"statues": [7, 7]}, None, 0, "statues"),
    ("three statues (B3)", {"statues": [7, 6, 5]}, None, 0, "statues"),
    ("a statue under the top (B3)", {"statues": [6]}, None, 0, "statues"),
    ("a statue skipped (B3)", {"statues": [7]}, {"statues": [5]}, 1, "statues"),
    ("one statue on two sheets", {"statues": [7]}, {"statues": [7, 6]}, 1, "statues"),
    (
        "more houses and persons than cards",
        {"houses": 80, "persons": [0] * 60},
        {"houses": 26},  # 80 + 60 + 26 = 166 cards
        None,
        "houses",
    ),
    ("points not an object", {"points": 7}, None, 0, "points"),
    ("points of the score track", {"points": {"track": 5}, "track": 5}, None, 0, "points"),
    ("negative prestige points", {"points": {"prestige": -1}}, None, 0, "points.prestige"),
    (
        "person points not price / 3",
        {"persons": [9], "houses": 1, "points": {"persons": 9}},
        None,
        0,
        "persons",
    ),
    ("house points", {"houses": 2, "points": {"houses": 4}}, None, 0, "houses"),
    (
        "majority points not 4 each",
        {"majorities": 2, "points": {"majorities": 6}},
        None,
        0,
        "majorities",
    ),
    ("canal points not 3 each", {"canals": 2, "points": {"canals": 3}}, None, 0, "canals"),
    ("statue points", {"statues": [7], "points": {"statues": 6}}, None, 0, "statues"),
    ("prestige points", {"step": 6, "points": {"prestige": 6}}, None, 0, "prestige"),
    ("a total that is not the sum", {"track": 5, "houses": 1, "score": 5}, None, 0, "score"),
    ("a negative total", {"score": -1}, None, 0, "score"),
]


@pytest.mark.parametrize(
    ("seat0", "seat1", "seat", "named"),
    [pytest.param(a, b, s, c, id=what) for what, a, b, s, c in BAD_SEATS],
)
def test_an_impossible_sheet_is_refused_naming_seat_and_category(
    seat0: dict[str, Any], seat1: dict[str, Any] | None, seat: int | None, named: str | None
) -> None:
    err = refused(two(seat0, seat1))
    assert (err.code, err.round, err.seat, category(err)) == ("bad_sheet", None, seat, named)
    if named is not None:
        assert f"'{named}'" in err.message
    if seat is not None:
        assert err.message.startswith(f"seat {seat}: ")


@pytest.mark.parametrize(
    ("document", "code", "seat"),
    [
        pytest.param(["Ada", "Bea"], "malformed", None, id="not an object"),
        pytest.param({"players": ["Ada", "Bea"]}, "malformed", None, id="no sheet"),
        pytest.param(
            body({}, {}, {}, names=["Ada", "Bea"]), "malformed", None, id="a seat too many"
        ),
        pytest.param({**two({}), "sheet": {"0": {}}}, "malformed", None, id="sheet an object"),
        pytest.param({**two({}), "sheet": [{}, None]}, "malformed", 1, id="a null seat"),
        pytest.param({**two({}), "sheet": [[], {}]}, "malformed", 0, id="a seat as a list"),
        pytest.param(body({}), "bad_player_count", None, id="one player"),
        pytest.param({**two({}), "players": "Ada"}, "malformed", None, id="players a string"),
        pytest.param({**two({}), "teams": [[0], [1]]}, "bad_teams", None, id="teams"),
        pytest.param({**two({}), "edition": "deluxe"}, "unknown_edition", None, id="edition"),
    ],
)
def test_a_malformed_body_is_refused(document: Any, code: str, seat: int | None) -> None:
    err = refused(document)
    assert (err.code, err.seat) == (code, seat)


def test_the_cards_of_the_game_bound_houses_and_persons() -> None:
    # "165 carte": every house and every person in play is one of them; 165 in all is allowed.
    sheet = two({"houses": 80, "persons": [0] * 60}, {"houses": 25})
    assert [p["score"] for p in ENGINE.score_sheet(sheet)["players"]] == [80, 25]


def test_a_bad_edition_given_is_refused() -> None:
    assert refused(two({}), edition={"id": "x", "prestige_points": [1]}).code == "bad_edition"


def test_the_doc_lists_exactly_the_sheets_codes() -> None:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Score sheet", 1)[1].split("\n## ", 1)[0].split("| code |", 1)[1]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))
    assert documented == SHEET_CODES


def test_a_refused_sheet_changes_nothing_it_was_given() -> None:
    document = two({"persons": [3, 6], "houses": 1, "statues": [6]})
    before = copy.deepcopy(document)
    refused(document)
    assert document == before


# --- the sheet of a logged game's end state ------------------------------------------------------


def sheet_from_state(log: dict[str, Any], edition: Edition | None = None) -> list[dict[str, Any]]:
    """The paper sheet a table fills at the end of ``log``'s game, read off the engine's state
    after its last round (not its result): each seat's track, the prices of its persons in
    play, its houses, the laurel points ``final`` gives it, its majority tiles flipped, its
    canal sections with a 3rd tile, its statues, its step and its florins; with the points per
    category and the total written as a table adds them (by hand, from the rules)."""
    state = ENGINE.start(log, edition=edition)
    for entry in log["rounds"]:
        state = ENGINE.apply_entry(state, entry)
    board = edition or STANDARD_EDITION
    laurels = Counter[int]()
    for item in log["final"]["laurels"]:
        laurels[item["seat"]] += item["points"]
    out = []
    for s, ps in enumerate(state.seats):
        prices = [state.persons[p].price for p in ps.tenants if p >= 0]
        majorities = bin(ps.flipped).count("1")
        canals = sum(1 for tiles in ps.canal if tiles >= 3)
        points = {
            "persons": sum(price // 3 for price in prices),
            "houses": len(ps.houses),
            "majorities": 4 * majorities,
            "canals": 3 * canals,
            "statues": sum(ps.statues),
            "prestige": board.prestige_points[ps.step],
        }
        out.append(
            {
                "track": ps.points,
                "persons": prices,
                "houses": len(ps.houses),
                "laurels": laurels[s],
                "majorities": majorities,
                "canals": canals,
                "statues": list(ps.statues),
                "step": ps.step,
                "florins": ps.florins,
                "points": points,
                "score": ps.points + laurels[s] + sum(points.values()),
            }
        )
    return out


SAME = ("score", "rank", "tiebreak", "florins", "breakdown", "step", "houses", "persons")
SAME += ("statues", "majorities_flipped", "statues_taken", "name", "seat", "team")


def assert_same_as_the_log(log: dict[str, Any], edition: Edition | None = None) -> dict[str, Any]:
    logged = ENGINE.replay(log, edition=edition)
    sheet = {"players": log["players"], "teams": None, "sheet": sheet_from_state(log, edition)}
    scored = ENGINE.score_sheet(sheet, edition=edition)
    for mine, theirs in zip(scored["players"], logged["players"], strict=True):
        assert {k: mine[k] for k in SAME} == {k: theirs[k] for k in SAME}
    assert scored["winners"] == logged["winners"]
    assert scored["statues"]["pile"] == logged["statues"]["pile"]
    taken = [(t["seat"], t["value"]) for t in scored["statues"]["taken"]]
    assert taken == [(t["seat"], t["value"]) for t in logged["statues"]["taken"]]
    assert scored["edition"] == logged["edition"]
    return logged


def test_the_sheet_of_200_simulated_games_scores_as_their_logs() -> None:
    """2, 3 and 4 players, 67 games each; every third on a corrected board (its own prestige
    points); florin tie-breaks and shared places among them."""
    tiebreaks = Counter[str | None]()
    for n in (2, 3, 4):
        for seed in range(67):
            edition = CORRECTED if seed % 3 == 0 else None
            log = simulate(n, seed=1000 + seed, edition=edition)
            logged = assert_same_as_the_log(log, edition)
            tiebreaks.update(p["tiebreak"] for p in logged["players"])
    assert tiebreaks["florins"] >= 10 and tiebreaks["shared"] >= 4, tiebreaks


@pytest.mark.parametrize(
    "path",
    [p for p in golden_files("bruges") if load(p)["expected"]["complete"]],
    ids=lambda p: p.stem,
)
def test_the_sheet_of_a_golden_game_scores_as_its_log(path: Path) -> None:
    doc = load(path)
    logged = assert_same_as_the_log(doc["log"])
    expected = doc["expected"]["players"]
    assert [(p["score"], p["rank"]) for p in logged["players"]] == [
        (p["score"], p["rank"]) for p in expected
    ]
