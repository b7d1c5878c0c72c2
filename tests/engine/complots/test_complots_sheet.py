"""Complots by its result (scorepad mode, ``engine.score_sheet``): a finished game known by the
order in which its players were eliminated, and optionally the K4 counts a player kept.

Ranks are K4's for a finished game: the last one standing 1, the one eliminated last 2, ...,
the first out n, no ties (K5: of two out in the same turn, the later loss ranks better, which
the order says). The replay tests take the elimination order from the naive ``reference``
module (not from the engine) for every golden log and hundreds of simulated games, and check
that the sheet's ranks and winners are the replay's. Every refusal has its code and seat
(docs/complots-engine.md, "The result sheet").
"""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from scoring.engine import get_engine
from scoring.engine.complots import ENGINE
from scoring.engine.complots.rules import STAT_NAMES
from scoring.engine.complots.simulate import simulate
from scoring.engine.errors import LogError
from tests.engine.complots import reference
from tests.engine.golden import golden_files, load
from tests.paths import ROOT

NAMES = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus", "Hal"]


def body(
    n: int,
    eliminated: Any,
    counts: Any = None,
    *,
    variant: Any = "ambassador",
    **extra: Any,
) -> dict[str, Any]:
    """A result sheet of ``n`` players (``extra`` replaces or adds header keys)."""
    sheet: dict[str, Any] = {"eliminated": eliminated}
    if counts is not None:
        sheet["counts"] = counts
    return {"players": NAMES[:n], "teams": None, "variant": variant, "sheet": sheet, **extra}


def refused(doc: Any) -> LogError:
    with pytest.raises(LogError) as caught:
        ENGINE.score_sheet(doc)
    return caught.value


def assert_refused(doc: Any, code: str, seat: int | None) -> LogError:
    err = refused(doc)
    assert (err.code, err.seat, err.round, err.turn) == (code, seat, None, None), repr(err)
    return err


# --- the registry says so --------------------------------------------------------------------


def test_complots_has_a_scorepad_mode_with_its_sheet_key() -> None:
    info = get_engine("complots").info
    assert (info.scorepad, info.sheet_key) == (True, "sheet")


# --- ranks, worked by hand (K4, K5) -----------------------------------------------------------


def test_four_players_ranked_by_elimination() -> None:
    # Cy out first (4th), then Ada (3rd), then Dev (2nd); Bea, never listed, is the last one
    # standing (1st). K4: "the one eliminated last second".
    result = ENGINE.score_sheet(body(4, [2, 0, 3]))
    assert [p["rank"] for p in result["players"]] == [3, 1, 4, 2]
    assert result["winners"] == [1]
    assert result["complete"] is True
    assert [p["alive"] for p in result["players"]] == [False, True, False, False]
    assert all(p["tiebreak"] is None for p in result["players"])  # no ties in a finished game


def test_two_players_the_one_out_is_second() -> None:
    result = ENGINE.score_sheet(body(2, [0]))
    assert [p["rank"] for p in result["players"]] == [2, 1]
    assert result["winners"] == [1]


def test_eight_players_every_rank_once() -> None:
    order = [7, 0, 6, 1, 5, 2, 4]  # seat 3 wins
    result = ENGINE.score_sheet(body(8, order))
    ranks = {p["seat"]: p["rank"] for p in result["players"]}
    assert ranks == {7: 8, 0: 7, 6: 6, 1: 5, 5: 4, 2: 3, 4: 2, 3: 1}
    assert result["winners"] == [3]


def test_the_result_has_the_shape_of_a_logged_result() -> None:
    doc = body(3, [2, 0], [{"claims_made": 4, "bluffs_caught": 1}, None, {}], variant="inquisitor")
    result = ENGINE.score_sheet(doc)
    logged = ENGINE.replay(simulate(3, seed=1, variant="inquisitor"))
    assert list(result) == list(logged)
    assert [list(p) for p in result["players"]] == [list(p) for p in logged["players"]]
    assert (result["format"], result["game"], result["variant"]) == (
        "complots-result/1",
        "complots",
        "inquisitor",
    )
    assert (result["turns_played"], result["treasury"], result["turns"]) == (None, None, [])
    ada, bea, cy = result["players"]
    assert [p["name"] for p in result["players"]] == ["Ada", "Bea", "Cy"]
    assert all((p["score"], p["team"]) == (None, None) for p in result["players"])
    # K5: an eliminated player has no hidden card and no coin; the winner's are not known.
    assert (ada["influences"], ada["coins"], ada["alive"]) == (0, 0, False)
    assert (bea["influences"], bea["coins"], bea["alive"]) == (None, None, True)
    assert all(p["face_up"] is None and p["eliminated_on_turn"] is None for p in (ada, bea, cy))
    # Kept counts as given; every other count unknown (null), never 0.
    assert (ada["claims_made"], ada["bluffs_caught"], ada["coins_gained"]) == (4, 1, None)
    assert all(bea[name] is None and cy[name] is None for name in STAT_NAMES)


def test_the_variant_defaults_to_the_base_game() -> None:
    doc = body(3, [0, 1])
    del doc["variant"]
    assert ENGINE.score_sheet(doc)["variant"] == "ambassador"
    assert ENGINE.score_sheet(body(3, [0, 1], variant=None))["variant"] == "ambassador"


def test_a_sheet_is_not_changed_by_scoring() -> None:
    doc = body(4, [1, 2, 0], [{"claims_made": 1}, None, None, {"players_eliminated": 3}])
    before = copy.deepcopy(doc)
    ENGINE.score_sheet(doc)
    assert doc == before


def test_the_credited_eliminations_of_a_finished_game_add_up_to_n_minus_1() -> None:
    # K5: each eliminated player is credited to one other: 3 eliminations in a 4-player game.
    counts = [{"players_eliminated": k} for k in (0, 2, 0, 1)]
    result = ENGINE.score_sheet(body(4, [0, 2, 3], counts))
    assert [p["players_eliminated"] for p in result["players"]] == [0, 2, 0, 1]
    # Some seats unknown: the known ones only need to stay within n - 1.
    ENGINE.score_sheet(body(4, [0, 2, 3], [None, {"players_eliminated": 3}, None, None]))


# --- the replay gives the same ranks and winners ----------------------------------------------


def sheet_of_replay(log: dict[str, Any], *, with_counts: bool) -> dict[str, Any]:
    """The result sheet of a finished logged game, its elimination order read by the naive
    reference (which never calls the engine), and its counts if asked."""
    table = reference.Table(log)
    for number, turn in enumerate(log["turns"], start=1):
        table.play(number, turn)
    assert len(table.live_seats()) == 1
    counts = [dict(c) for c in table.counts] if with_counts else None
    return body(
        len(log["players"]),
        list(table.elimination_order),
        counts,
        variant=log.get("variant"),
        players=list(log["players"]),
    )


def assert_same_standing(log: dict[str, Any], *, with_counts: bool) -> None:
    replayed = ENGINE.replay(log)
    scored = ENGINE.score_sheet(sheet_of_replay(log, with_counts=with_counts))
    assert [p["rank"] for p in scored["players"]] == [p["rank"] for p in replayed["players"]]
    assert scored["winners"] == replayed["winners"]
    assert scored["variant"] == replayed["variant"]
    if with_counts:  # statistics read the same numbers as from the logged game
        for mine, theirs in zip(scored["players"], replayed["players"], strict=True):
            assert {k: mine[k] for k in STAT_NAMES} == {k: theirs[k] for k in STAT_NAMES}


COMPLETE_GOLDEN = [p for p in golden_files("complots") if load(p)["expected"]["complete"]]


def test_the_golden_files_hold_finished_games_with_two_out_in_one_turn() -> None:
    assert len(COMPLETE_GOLDEN) >= 4
    assert any("two-out-in-one-turn" in p.stem for p in COMPLETE_GOLDEN)


@pytest.mark.parametrize("path", COMPLETE_GOLDEN, ids=lambda p: p.stem)
@pytest.mark.parametrize("with_counts", [False, True])
def test_a_golden_games_result_sheet_ranks_as_its_replay(path: Any, with_counts: bool) -> None:
    doc = load(path)
    assert_same_standing(doc["log"], with_counts=with_counts)
    # And as the golden file, built by the reference alone, says.
    scored = ENGINE.score_sheet(sheet_of_replay(doc["log"], with_counts=False))
    expected = doc["expected"]
    assert [p["rank"] for p in scored["players"]] == [p["rank"] for p in expected["players"]]
    assert scored["winners"] == expected["winners"]


@pytest.mark.parametrize("players", range(2, 9))
@pytest.mark.parametrize("variant", ["ambassador", "inquisitor"])
def test_simulated_games_result_sheets_rank_as_their_replays(players: int, variant: str) -> None:
    simulate_game = get_engine("complots").info.simulate
    assert simulate_game is not None
    for seed in range(40):  # 7 x 2 x 40 = 560 finished games
        log = simulate_game(players, seed=seed, variant=variant)
        assert_same_standing(log, with_counts=seed % 2 == 0)


# --- refusals: a code, the seat when there is one, nothing half-read --------------------------


@pytest.mark.parametrize(
    ("eliminated", "code", "seat"),
    [
        ([0, 1, 0], "eliminated_twice", 0),  # a seat twice
        ([2, 2], "eliminated_twice", 2),
        ([0], "missing_seat", None),  # seats 1 and 2 both left out: which one won?
        ([], "missing_seat", None),
        ([0, 1, 2], "no_winner", 2),  # nobody left standing; the last listed was never out
        ([0, 3], "bad_seat", None),  # no seat 3 at a 3-player table
        ([-1, 0], "bad_seat", None),
        ([2**64, 0], "bad_seat", None),  # past 64 bits: still a refusal, not a crash
        ([0, -(2**70)], "bad_seat", None),
        ([0, None], "malformed", None),  # a null in the list
        ([0, "1"], "malformed", None),
        ([0, 1.0], "malformed", None),
        ([True, 0], "malformed", None),  # a boolean is no seat
        ([[0], 1], "malformed", None),
        ("0,1", "malformed", None),
        (None, "malformed", None),
        ({"0": 1}, "malformed", None),
    ],
)
def test_a_bad_elimination_order_is_refused(eliminated: Any, code: str, seat: int | None) -> None:
    assert_refused(body(3, eliminated), code, seat)


def test_the_refusals_say_which_seat_and_where() -> None:
    err = assert_refused(body(4, [1, 0, 1]), "eliminated_twice", 1)
    assert str(err) == "seat 1 is listed twice in 'eliminated', at positions 1 and 3"
    err = assert_refused(body(4, [1, 3]), "missing_seat", None)
    assert str(err) == "seat 0 and seat 2 are both left out of 'eliminated': only the winner is"
    err = assert_refused(body(4, [1]), "missing_seat", None)
    assert str(err).startswith("3 seats are left out of 'eliminated', seat 0 and seat 2 among")
    err = assert_refused(body(3, [0, 5]), "bad_seat", None)
    assert str(err) == "'eliminated' lists 5 at position 2: the seats are 0 to 2"
    err = assert_refused(body(2, [1, 0]), "no_winner", 0)
    assert str(err).startswith("seat 0 is listed last in 'eliminated', after every other seat")
    counts = [None, {"claims_made": 1, "blocks_made": 0, "bluffs_caught": 2}, None]
    err = assert_refused(body(3, [0, 1], counts), "inconsistent_counts", 1)
    assert str(err) == (
        "seat 1 has 2 'bluffs_caught', more than its 1 'claims_made' and 0 'blocks_made' together"
    )


@pytest.mark.parametrize(
    ("counts", "code", "seat"),
    [
        ([{"claims_made": -1}, None, None], "bad_count", 0),  # negative
        ([None, {"coins_gained": 2**64}, None], "bad_count", 1),  # past 64 bits
        ([None, None, {"challenges_made": 100_000}], "bad_count", 2),
        ([None, None, {"claims_made": "3"}], "malformed", 2),  # wrong types
        ([None, {"claims_made": 2.0}, None], "malformed", 1),
        ([{"claims_made": True}, None, None], "malformed", 0),
        ([None, [1, 2], None], "malformed", 1),
        ([None, "x", None], "malformed", 1),
        ([None, None], "malformed", None),  # one entry per seat
        ([None, None, None, None], "malformed", None),
        ({"0": {"claims_made": 1}}, "malformed", None),
        ("claims", "malformed", None),
        ([None, {"coups": 1}, None], "unknown_count", 1),
        # What the rules say of the counts, where the ones needed are known.
        ([{"challenges_made": 1, "challenges_won": 2}, None, None], "inconsistent_counts", 0),
        ([None, {"blocks_made": 0, "blocks_standing": 1}, None], "inconsistent_counts", 1),
        (
            [None, None, {"claims_made": 1, "blocks_made": 1, "bluffs_caught": 3}],
            "inconsistent_counts",
            2,
        ),
        ([None, {"players_eliminated": 3}, None], "inconsistent_counts", 1),  # 3 players: 2
        (  # 2 eliminations in a 3-player game, 3 credited (K5)
            [{"players_eliminated": 1}, {"players_eliminated": 2}, None],
            "inconsistent_counts",
            None,
        ),
        (  # every seat known: the credits must be exactly the 2 eliminations
            [{"players_eliminated": 0}, {"players_eliminated": 1}, {"players_eliminated": 0}],
            "inconsistent_counts",
            None,
        ),
        (  # 3 players turn up at most 5 influences (the winner keeps one)
            [{"influences_taken": 3}, {"influences_taken": 3}, None],
            "inconsistent_counts",
            None,
        ),
    ],
)
def test_bad_counts_are_refused(counts: Any, code: str, seat: int | None) -> None:
    assert_refused(body(3, [0, 1], counts), code, seat)


def test_counts_within_the_rules_are_taken() -> None:
    counts = [
        {"challenges_made": 2, "challenges_won": 2, "influences_taken": 2},
        {"claims_made": 1, "blocks_made": 1, "bluffs_caught": 2, "blocks_standing": 1},
        {"players_eliminated": 2, "influences_taken": 3, "coins_gained": 99_999},
    ]
    result = ENGINE.score_sheet(body(3, [0, 1], counts))
    assert result["players"][2]["coins_gained"] == 99_999
    # Nulls inside an entry are unknown counts too.
    result = ENGINE.score_sheet(body(3, [0, 1], [{"claims_made": None}, None, None]))
    assert result["players"][0]["claims_made"] is None


@pytest.mark.parametrize(
    ("doc", "code"),
    [
        (None, "malformed"),
        ([], "malformed"),
        ("sheet", "malformed"),
        (body(1, []), "bad_player_count"),
        (body(3, [0, 1], players=["Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus", "Hal", "Ivo"]),
         "bad_player_count"),
        (body(3, [0, 1], players=["Ada", "", "Cy"]), "malformed"),
        (body(3, [0, 1], players=None), "malformed"),
        (body(4, [0, 1, 2], teams=[[0, 2], [1, 3]]), "bad_teams"),
        (body(3, [0, 1], variant="reformation"), "bad_variant"),
        (body(3, [0, 1], variant=1), "bad_variant"),
        ({"players": NAMES[:3], "sheet": None}, "malformed"),
        ({"players": NAMES[:3], "sheet": [0, 1]}, "malformed"),
        ({"players": NAMES[:3]}, "malformed"),
        ({"players": NAMES[:3], "sheet": {"eliminated": [0, 1], "winner": 2}}, "malformed"),
    ],
)  # fmt: skip
def test_a_bad_header_or_sheet_is_refused(doc: Any, code: str) -> None:
    assert_refused(doc, code, None)


# --- the documentation's example is what the engine does --------------------------------------


def test_the_documented_example_scores_as_documented() -> None:
    text = (ROOT / "docs" / "complots-engine.md").read_text()
    section = text.split("## The result sheet (scorepad mode)", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```json\n(.*?)```", section, flags=re.S)
    example, shown = json.loads(blocks[0]), json.loads(blocks[1])
    result = ENGINE.score_sheet(example)
    assert [p["rank"] for p in result["players"]] == [3, 1, 4, 2]  # Cy out, Ada, Dev; Bea won
    assert result["players"][0] == shown["players"][0]  # the one seat shown whole
    for mine, documented in zip(result["players"], shown["players"], strict=True):
        assert {k: mine[k] for k in documented if k != "..."} == {
            k: v for k, v in documented.items() if k != "..."
        }
    assert {k: v for k, v in result.items() if k != "players"} == {
        k: v for k, v in shown.items() if k != "players"
    }
