"""The generic scorer (rules O1-O6, docs/other-games.md): ranks computed by hand for ties,
lowest wins, marked tie-breaks, ranks that split a tie, teams, cooperative games, and a refusal
with a stable code (and its seat) for every inconsistency."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import ENGINES, LogError, get_engine, score_result

NAMES = ["Ada", "Bea", "Cy", "Dan"]


def body(
    lines: list[dict[str, Any]],
    *,
    win: str = "highest",
    teams: Any = None,
    won: Any = None,
    names: list[str] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "players": names or NAMES[: len(lines)],
        "teams": teams,
        "win": win,
        "sheet": lines,
    }
    if won is not None:
        out["won"] = won
    return out


def ranks(result: dict[str, Any]) -> list[int]:
    return [p["rank"] for p in result["players"]]


def why(result: dict[str, Any]) -> list[str | None]:
    return [p["tiebreak"] for p in result["players"]]


def refused(doc: dict[str, Any]) -> LogError:
    with pytest.raises(LogError) as err:
        score_result(doc)
    return err.value


def test_o3_highest_wins_competition_ranking() -> None:
    # 30 > 20 = 20 > 5: places 1, 2, 2, 4 (the two on 20 share the second place).
    r = score_result(body([{"score": 30}, {"score": 20}, {"score": 20}, {"score": 5}]))
    assert ranks(r) == [1, 2, 2, 4]
    assert why(r) == [None, "shared", "shared", None]
    assert r["winners"] == [0]
    assert [p["winner"] for p in r["players"]] == [True, False, False, False]
    assert [p["score"] for p in r["players"]] == [30, 20, 20, 5]
    assert r["complete"] is True and r["game"] == "other" and r["teams"] is None


def test_o3_lowest_wins() -> None:
    # Golf: 3 < 7 < 9 = 9.
    r = score_result(body([{"score": 9}, {"score": 3}, {"score": 7}, {"score": 9}], win="lowest"))
    assert ranks(r) == [3, 1, 2, 3]
    assert r["winners"] == [1]


def test_o3_a_tie_for_first_is_shared_without_marks() -> None:
    r = score_result(body([{"score": 10}, {"score": 10}, {"score": 4}]))
    assert ranks(r) == [1, 1, 3]
    assert r["winners"] == [0, 1]


def test_o3_winner_marks_break_a_tie_for_first() -> None:
    # 10, 10, 10, 5 with Bea marked: Bea first, Ada and Cy next (2), Dan keeps 4.
    r = score_result(
        body([{"score": 10}, {"score": 10, "winner": True}, {"score": 10}, {"score": 5}])
    )
    assert ranks(r) == [2, 1, 2, 4]
    assert why(r) == ["marked", "marked", "marked", None]
    assert r["winners"] == [1]


def test_o3_two_marked_of_three_tied() -> None:
    r = score_result(
        body([{"score": 8, "winner": True}, {"score": 8}, {"score": 8, "winner": True}])
    )
    assert ranks(r) == [1, 3, 1]
    assert r["winners"] == [0, 2]


def test_o3_all_tied_marked_share_the_win() -> None:
    r = score_result(body([{"score": 8, "winner": True}, {"score": 8, "winner": True}]))
    assert ranks(r) == [1, 1]
    assert why(r) == ["shared", "shared"]


def test_o3_ranks_given_for_every_tied_unit_split_the_tie() -> None:
    # 12, 9, 9, 2: the two on 9 are places 2 to 3, and the sheet says Cy was second.
    r = score_result(
        body([{"score": 12}, {"score": 9, "rank": 3}, {"score": 9, "rank": 2}, {"score": 2}])
    )
    assert ranks(r) == [1, 3, 2, 4]
    assert why(r) == [None, "ranked", "ranked", None]


def test_o3_ranks_that_agree_with_the_scores_are_taken() -> None:
    r = score_result(
        body([{"score": 1, "rank": 2}, {"score": 5, "rank": 1}, {"score": 1, "rank": 2}])
    )
    assert ranks(r) == [2, 1, 2]


def test_o3_a_rank_against_the_scores_is_refused_with_its_seat() -> None:
    err = refused(body([{"score": 30, "rank": 2}, {"score": 20}, {"score": 10}]))
    assert (err.code, err.seat) == ("rank_disagrees", 0)


def test_o3_ranks_may_not_reorder_different_scores() -> None:
    # 9 and 9 share places 2 and 3, so ranks 2 and 3 may split them...
    r = score_result(body([{"score": 9, "rank": 2}, {"score": 9, "rank": 3}, {"score": 10}]))
    assert ranks(r) == [2, 3, 1]
    # ...but 10 above 9 is the scores' to say.
    err = refused(body([{"score": 10, "rank": 2}, {"score": 9, "rank": 1}]))
    assert (err.code, err.seat) == ("rank_disagrees", 0)


def test_o3_ranks_outside_the_tied_places_are_refused() -> None:
    # The two on 9 are places 2 and 3: ranks 3 and 4 are not theirs (nobody tied is ahead of
    # the one ranked 3, so it would be 2).
    err = refused(
        body([{"score": 10}, {"score": 9, "rank": 3}, {"score": 9, "rank": 4}, {"score": 1}])
    )
    assert (err.code, err.seat) == ("rank_disagrees", 1)


def test_o3_a_partial_split_of_a_tie_is_refused() -> None:
    # Only one of the tied has a rank, and it is not the shared place.
    err = refused(body([{"score": 10}, {"score": 9, "rank": 3}, {"score": 9}]))
    assert (err.code, err.seat) == ("rank_disagrees", 1)


def test_o3_a_winner_mark_against_the_scores_is_refused() -> None:
    err = refused(body([{"score": 3, "winner": True}, {"score": 5}]))
    assert (err.code, err.seat) == ("winner_disagrees", 0)
    err = refused(body([{"score": 3}, {"score": 5, "winner": False}]))
    assert (err.code, err.seat) == ("winner_disagrees", 1)


def test_o4_without_scores_ranks_decide() -> None:
    r = score_result(body([{"rank": 2}, {"rank": 1}, {"rank": 2}, {"rank": 4}]))
    assert ranks(r) == [2, 1, 2, 4]
    assert why(r) == ["shared", None, "shared", None]
    assert [p["score"] for p in r["players"]] == [None] * 4


def test_o4_ranks_must_count_like_1_1_3() -> None:
    err = refused(body([{"rank": 1}, {"rank": 1}, {"rank": 2}]))
    assert (err.code, err.seat) == ("bad_ranks", 2)
    err = refused(body([{"rank": 1}, {"rank": 3}]))
    assert err.code == "bad_rank" and err.seat == 1  # 2 units: places 1 and 2 only


def test_o4_without_scores_winners_marked_decide() -> None:
    # Two winners marked: they share the first place; the others are next (1, 1, 3, 3).
    r = score_result(
        body([{"winner": True}, {}, {"winner": True}, {"winner": False}], win="lowest")
    )
    assert ranks(r) == [1, 3, 1, 3]
    assert r["winners"] == [0, 2]


def test_o4_some_scores_missing_ranks_decide_and_scores_must_follow() -> None:
    r = score_result(body([{"score": 10, "rank": 1}, {"rank": 2}, {"score": 3, "rank": 3}]))
    assert ranks(r) == [1, 2, 3]
    err = refused(body([{"score": 3, "rank": 1}, {"rank": 2}, {"score": 10, "rank": 3}]))
    assert (err.code, err.seat) == ("rank_disagrees", 2)


def test_o4_nothing_decides() -> None:
    err = refused(body([{"score": 3}, {}]))
    assert err.code == "result_undecided" and err.seat is None
    err = refused(body([{"winner": False}, {"winner": False}], win="manual"))
    assert err.code == "result_undecided"


def test_o2_manual_scores_do_not_decide() -> None:
    # The lower score won: manual games say so by ranks or marks, and scores are only kept.
    r = score_result(
        body([{"score": 40, "winner": False}, {"score": 12, "winner": True}], win="manual")
    )
    assert ranks(r) == [2, 1]
    r = score_result(body([{"score": 40, "rank": 2}, {"score": 12, "rank": 1}], win="manual"))
    assert ranks(r) == [2, 1]
    err = refused(body([{"score": 40}, {"score": 12}], win="manual"))
    assert err.code == "result_undecided"


def test_o3_teams_share_score_and_rank() -> None:
    # Teams {0, 2} on 15 and {1, 3} on 21: the second team wins.
    r = score_result(
        body(
            [{"score": 15}, {"score": 21}, {}, {"score": 21}],
            teams=[[0, 2], [1, 3]],
        )
    )
    assert ranks(r) == [2, 1, 2, 1]
    assert [p["team"] for p in r["players"]] == [0, 1, 0, 1]
    assert [p["score"] for p in r["players"]] == [15, 21, 15, 21]
    assert r["winners"] == [1, 3]
    assert r["teams"] == [
        {"team": 0, "seats": [0, 2], "score": 15, "rank": 2, "tiebreak": None},
        {"team": 1, "seats": [1, 3], "score": 21, "rank": 1, "tiebreak": None},
    ]


def test_o3_teammates_who_disagree_are_refused() -> None:
    err = refused(body([{"score": 15}, {"score": 21}, {"score": 16}], teams=[[0, 2], [1]]))
    assert (err.code, err.seat) == ("team_disagrees", 2)
    err = refused(body([{"winner": True}, {"winner": False}], teams=[[0, 1]], win="manual"))
    assert (err.code, err.seat) == ("team_disagrees", 1)


@pytest.mark.parametrize(
    "teams",
    [
        [[0, 1]],  # seat 2 in no team
        [[0, 1], [1, 2]],  # seat 1 twice
        [[0, 3], [1, 2]],  # no seat 3
        [[], [0, 1, 2]],  # an empty team
        [[0, True], [2]],  # not a seat
        "0,1",
        [],
    ],
)
def test_o3_teams_are_every_seat_once(teams: Any) -> None:
    err = refused(body([{"score": 1}, {"score": 2}, {"score": 3}], teams=teams))
    assert err.code == "bad_teams"


def test_o5_cooperative_won_and_lost() -> None:
    won = score_result(body([{"score": 25}, {}, {"winner": True}], win="cooperative", won=True))
    assert ranks(won) == [1, 1, 1]
    assert won["winners"] == [0, 1, 2]
    assert won["won"] is True
    assert [p["team"] for p in won["players"]] == [0, 0, 0]
    assert [p["score"] for p in won["players"]] == [25, 25, 25]  # the table's one score
    lost = score_result(body([{}, {}], win="cooperative", won=False))
    assert ranks(lost) == [2, 2]
    assert lost["winners"] == []
    assert lost["teams"] == [
        {"team": 0, "seats": [0, 1], "score": None, "rank": 2, "tiebreak": None}
    ]


def test_o5_cooperative_refusals() -> None:
    err = refused(body([{}, {}], win="cooperative"))
    assert err.code == "bad_won"
    err = refused(body([{}, {}], win="cooperative", won="yes"))
    assert err.code == "bad_won"
    err = refused(body([{"winner": True}, {}], win="cooperative", won=False))
    assert (err.code, err.seat) == ("winner_disagrees", 0)
    err = refused(body([{}, {}], win="cooperative", won=True, teams=[[0], [1]]))
    assert err.code == "bad_teams"
    err = refused(body([{"score": 3}, {"score": 4}], win="cooperative", won=True))
    assert (err.code, err.seat) == ("team_disagrees", 1)
    err = refused(body([{"score": 3}, {"score": 4}], won=True))
    assert err.code == "bad_won"  # `won` is for cooperative games only


def test_a_solo_game_ranks_its_player_first() -> None:
    r = score_result(body([{}], names=["Ada"]))
    assert ranks(r) == [1]


@pytest.mark.parametrize(
    ("lines", "code", "seat"),
    [
        ([{"score": "10"}, {"score": 3}], "bad_score", 0),
        ([{"score": 1.5}, {"score": 3}], "bad_score", 0),
        ([{"score": True}, {"score": 3}], "bad_score", 0),
        ([{"score": 1}, {"rank": 0}], "bad_rank", 1),
        ([{"score": 1}, {"rank": "1"}], "bad_rank", 1),
        ([{"score": 1}, {"winner": 1}], "bad_winner", 1),
        ([{"score": 1}, {"points": 3}], "malformed", 1),
        ([{"score": 1}, None], "malformed", 1),
        ([{"score": 1}, [3]], "malformed", 1),
    ],
)
def test_o1_a_bad_line_is_refused_with_its_seat(lines: list[Any], code: str, seat: int) -> None:
    err = refused(body(lines))
    assert (err.code, err.seat) == (code, seat)


@pytest.mark.parametrize(
    ("doc", "code"),
    [
        ([], "malformed"),
        ({"players": ["Ada"], "win": "highest", "sheet": []}, "malformed"),
        ({"players": ["Ada", "Bea"], "win": "most", "sheet": [{}, {}]}, "bad_win"),
        ({"players": ["Ada", "Bea"], "sheet": [{}, {}]}, "bad_win"),
        ({"players": [], "win": "highest", "sheet": []}, "bad_player_count"),
        (
            {"players": [f"P{i}" for i in range(17)], "win": "manual", "sheet": []},
            "bad_player_count",
        ),
        ({"players": ["Ada", ""], "win": "highest", "sheet": [{}, {}]}, "malformed"),
        ({"players": ["Ada", None], "win": "highest", "sheet": [{}, {}]}, "malformed"),
        ({"players": ["Ada", "Bea"], "win": "highest", "sheet": {"0": {}}}, "malformed"),
    ],
)
def test_o1_a_bad_sheet_is_refused(doc: Any, code: str) -> None:
    assert refused(doc).code == code


def test_huge_numbers_are_compared_exactly() -> None:
    # The scorer compares whole numbers of any size; what may be stored is the records' to say.
    r = score_result(body([{"score": 2**64}, {"score": 2**64 + 1}]))
    assert ranks(r) == [2, 1]


def test_o1_the_engine_reads_no_log() -> None:
    engine = get_engine("other")
    assert "other" in ENGINES and not engine.info.logged
    for call in (
        lambda: engine.replay({"format": "other-log/1", "players": ["Ada"], "rounds": [{}]}),
        lambda: engine.replay({"format": "other-log/1", "players": ["Ada"]}),
        lambda: engine.start({"format": "other-log/1"}),
        lambda: engine.apply_entry(None, {}),
        lambda: engine.result(None),
    ):
        with pytest.raises(LogError) as err:
            call()
        assert err.value.code == "result_only"


def test_the_engine_scores_a_sheet_as_game_other_and_any_game_by_name() -> None:
    engine: Any = get_engine("other")
    r = engine.score_sheet(body([{"score": 2}, {"score": 1}]))
    assert r["game"] == "other" and ranks(r) == [1, 2]
    r = score_result(body([{"score": 2}, {"score": 1}]), game="bruges")
    assert r["game"] == "bruges" and r["format"] == "scores-result/1"


def test_every_refusal_is_said_in_english_with_its_template() -> None:
    err = refused(body([{"score": 30, "rank": 2}, {"score": 20}]))
    assert "seat 0" in err.message
    assert err.template.startswith("{seat} is ranked {given}")
