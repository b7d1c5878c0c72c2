"""Scoring tests for Pot de Vin: the printed tables, Jokers (D5), D6, tie-breaks (D7), teams (D8).

Every expected number is worked out by hand from the tables in the rules file; the comment next
to it shows the arithmetic. The standard deck (D1) is tabulated in `logs.py`.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import LogError, get_engine
from tests.engine.potdevin import logs as L

ENGINE = get_engine("pot-de-vin")
make_log, rnd, seat = L.make_log, L.rnd, L.seat


def replay(log: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    return ENGINE.replay(log, **kwargs)


def check_breakdown_adds_up(breakdown: dict[str, Any]) -> None:
    """The breakdown must let a player check the total by hand."""
    guilds = sum(g["points"] for g in breakdown["guilds"].values())
    assert breakdown["guild_points"] == guilds
    assert breakdown["total"] == (
        guilds
        + breakdown["bonus"]["points"]
        + breakdown["malus"]["points"]
        + breakdown["pot_de_vin"]["points"]
        + breakdown["gems"]["points"]
    )


# --- The guild table ------------------------------------------------------------------------------
# Nobles cards (D1): A4, P9, E8, U7 one symbol; A10, E11 two symbols. Seat 0 wins every round.
R_SIX_NOBLES = rnd("E11", "0:A10 1:A4 2:U7")  # no E played: A10 beats A4; U7 is off-lead


@pytest.mark.parametrize(
    ("rounds", "symbols", "points", "total"),
    [
        # A4 = 1 -> 1; +2 card U2 = +2; 2 gems = +2 => 5
        ([rnd("U2", "0:A4 1:- 2:-")], 1, 1, 5),
        # A10 = 2 -> 3; -2 card U3 = -2; 2 gems => 3
        ([rnd("U3", "0:A10 1:- 2:-")], 2, 3, 3),
        # A10 + P9 = 3 -> 6; 2 gems => 8
        ([rnd("P9", "0:A10 1:- 2:-")], 3, 6, 8),
        # A10 + E11 = 4 -> -1; 2 gems => 1
        ([rnd("E11", "0:A10 1:- 2:-")], 4, -1, 1),
        # A10 + A4 + E11 = 5 -> -3; 1 gem => -2
        ([rnd("E11", "0:A10 1:A4 2:-")], 5, -3, -2),
        # A10 + A4 + U7 + E11 = 6 -> -6 => -6
        ([R_SIX_NOBLES], 6, -6, -6),
        # 6 + P9 = 7 -> 10; -2 card A3 = -2; 2 gems => 10
        ([R_SIX_NOBLES, rnd("P9", "0:A3 1:- 2:-")], 7, 10, 10),
        # 6 + E8 + P9 = 8 -> 15; 2 gems => 17
        ([R_SIX_NOBLES, rnd("P9", "0:E8 1:- 2:-")], 8, 15, 17),
    ],
)
def test_guild_table(rounds: list[dict[str, Any]], symbols: int, points: int, total: int) -> None:
    """rules "Scoring": 1 -> 1, 2 -> 3, 3 -> 6, 4 -> -1, 5 -> -3, 6 -> -6, 7 -> 10, 8 -> 15."""
    result = replay(make_log(3, rounds))
    zero = seat(result, 0)
    nobles = zero["breakdown"]["guilds"]["nobles"]
    assert (nobles["symbols"], nobles["joker"], nobles["points"]) == (symbols, False, points)
    assert zero["score"] == total
    assert zero["breakdown"]["total"] == total
    check_breakdown_adds_up(zero["breakdown"])


def test_joker_on_an_eight_column_scores_fifteen() -> None:
    """rules D6: a column above 8 symbols scores 15, like 8."""
    rounds = [R_SIX_NOBLES, rnd("P9", "0:E8 1:- 2:-"), rnd("U1", "0:A2 1:- 2:-")]
    zero = seat(replay(make_log(3, rounds)), 0)
    nobles = zero["breakdown"]["guilds"]["nobles"]
    # 8 nobles + the Joker U1 (forced: the only column) = 9 -> 15
    assert (nobles["symbols"], nobles["joker"], nobles["points"]) == (8, True, 15)
    # 15 + A2 bonus +2 + 4 gems => 21
    assert zero["score"] == 21


@pytest.mark.parametrize(
    ("spec", "trump", "count", "points", "total"),
    [
        # A13 = 1 Pot de Vin -> -1; U4 workmen 1 -> +1; 2 gems => 2
        ("0:A13 1:- 2:-", "U4", 1, -1, 2),
        # A13 + U13 = 2 -> -3; 2 gems => -1
        ("0:A13 1:- 2:-", "U13", 2, -3, -1),
        # A13 + P13 + U13 = 3 -> -6; 1 gem => -5
        ("0:A13 1:P13 2:-", "U13", 3, -6, -5),
        # all four -> +10 => 10
        ("0:A13 1:P13 2:E13", "U13", 4, 10, 10),
    ],
)
def test_pot_de_vin_table(spec: str, trump: str, count: int, points: int, total: int) -> None:
    """rules "Scoring": Pot de Vin 1 -> -1, 2 -> -3, 3 -> -6, 4 -> +10."""
    zero = seat(replay(make_log(3, [rnd(trump, spec)])), 0)
    assert zero["breakdown"]["pot_de_vin"] == {"cards": count, "points": points}
    assert zero["score"] == total


def test_bonus_malus_and_gems() -> None:
    """rules "Scoring": each +2 card +2, each -2 card -2, +1 per gem won."""
    # lead A2, no U played: A2 wins; +2 cards A2 E2 U2 = +6, -2 card P3 = -2 => 4
    zero = seat(replay(make_log(3, [rnd("U2", "0:A2 1:P3 2:E2")])), 0)
    assert zero["breakdown"]["bonus"] == {"cards": 3, "points": 6}
    assert zero["breakdown"]["malus"] == {"cards": 1, "points": -2}
    assert zero["breakdown"]["gems"] == {"count": 0, "points": 0}
    assert zero["score"] == 4
    # 2 passes: A2 +2, U2 +2, 2 gems => 6
    zero = seat(replay(make_log(3, [rnd("U2", "0:A2 1:- 2:-")])), 0)
    assert zero["breakdown"]["gems"] == {"count": 2, "points": 2}
    assert zero["score"] == 6


# --- Jokers (D5) ------------------------------------------------------------------------------

# Seat 0 ends with traders 6, artists 3, nobles 2, Jokers 2, one +2 card and 2 gems:
# round 1 (no E played, A12 wins): A12 traders x2, A6 traders, A5 artists, E10 traders x2
# round 2 (no U played, A10 wins): A10 nobles x2, P1 Joker, E1 Joker, U2 +2
# round 3 (P10 is trump and alone): P10 artists x2, P5 traders, 2 gems
JOKER_ROUNDS = [
    rnd("E10", "0:A12 1:A6 2:A5"),
    rnd("U2", "0:A10 1:P1 2:E1"),
    rnd("P5", "0:P10 1:- 2:-"),
]


def test_jokers_optimal_placement() -> None:
    """rules D5: exactly min(2 Jokers, 3 columns) = 2 placed, where the score is highest."""
    result = replay(make_log(3, JOKER_ROUNDS))
    zero = seat(result, 0)
    assert result["violations"] == []
    breakdown = zero["breakdown"]
    # traders 6 -> -6, artists 3 -> 6, nobles 2 -> 3. Two Jokers, one per column:
    # traders + nobles: 7 -> 10, 3 -> 6, artists 6 = 22  <- best
    # traders + artists: 10 + (4 -> -1) + 3 = 12; nobles + artists: -6 + 6 - 1 = -1
    traders = breakdown["guilds"]["traders"]
    assert (traders["symbols"], traders["joker"], traders["points"]) == (6, True, 10)
    nobles = breakdown["guilds"]["nobles"]
    assert (nobles["symbols"], nobles["joker"], nobles["points"]) == (2, True, 6)
    artists = breakdown["guilds"]["artists"]
    assert (artists["symbols"], artists["joker"], artists["points"]) == (3, False, 6)
    assert sorted(breakdown["jokers"]["placed"]) == ["nobles", "traders"]
    assert (breakdown["jokers"]["held"], breakdown["jokers"]["discarded"]) == (2, 0)
    assert breakdown["guild_points"] == 22
    # 22 + 2 (bonus U2) + 2 gems => 26
    assert zero["score"] == 26
    check_breakdown_adds_up(breakdown)


def test_jokers_explicit_placement_is_scored_as_given() -> None:
    """rules D5: a stated placement that keeps the rules is accepted and scored as given."""
    log = make_log(3, JOKER_ROUNDS, jokers={"0": ["traders", "artists"]})
    zero = seat(replay(log), 0)
    # traders 7 -> 10, artists 4 -> -1, nobles 2 -> 3 = 12; + 2 bonus + 2 gems => 16
    assert sorted(zero["breakdown"]["jokers"]["placed"]) == ["artists", "traders"]
    assert zero["breakdown"]["guild_points"] == 12
    assert zero["score"] == 16


def test_jokers_explicit_placement_via_result() -> None:
    """rules D5: the same, through the round-by-round API."""
    log = make_log(3, JOKER_ROUNDS)
    state = ENGINE.start(log)
    for one in log["rounds"]:
        state = ENGINE.apply_round(state, one)
    assert seat(ENGINE.result(state), 0)["score"] == 26  # optimal, see above
    placed = ENGINE.result(state, jokers={"0": ["nobles", "artists"]})
    # nobles 3 -> 6, artists 4 -> -1, traders 6 -> -6 = -1; + 2 + 2 => 3
    assert seat(placed, 0)["score"] == 3


@pytest.mark.parametrize(
    "jokers",
    [
        {"0": ["traders"]},  # 2 Jokers and 3 columns: both must be placed
        {"0": ["traders", "traders"]},  # at most one Joker per column
        {"0": ["traders", "knights"]},  # no knights symbol: a Joker cannot make a column alone
        {"0": ["traders", "nobles", "artists"]},  # only 2 Jokers held
        {"0": ["traders", "nobles"], "1": ["nobles"]},  # seat 1 holds no Joker
    ],
)
def test_jokers_bad_explicit_placement(jokers: dict[str, list[str]]) -> None:
    """rules D5 and "End of game: Jokers": a placement breaking the rules is rejected."""
    with pytest.raises(LogError) as info:
        replay(make_log(3, JOKER_ROUNDS, jokers=jokers))
    assert info.value.code == "bad_joker_placement"
    assert info.value.round is None


def test_joker_forced_into_a_worse_column() -> None:
    """rules D5: placement is forced even when it lowers the score (3 -> 4 symbols)."""
    # trump A1: A4 is the only trump played -> seat 2 takes U7 E8 A4 (nobles 3) and the Joker
    result = replay(make_log(3, [rnd("A1", "0:U7 1:E8 2:A4")]))
    two = seat(result, 2)
    nobles = two["breakdown"]["guilds"]["nobles"]
    # 3 + Joker = 4 -> -1 (not 6)
    assert (nobles["symbols"], nobles["joker"], nobles["points"]) == (3, True, -1)
    assert two["score"] == -1
    # seats 0 and 1: 0 points, 0 cards, 0 gems: shared first place; seat 2 third (D7)
    assert [seat(result, s)["rank"] for s in range(3)] == [1, 1, 3]
    assert result["winners"] == [0, 1]


def test_joker_forced_goes_to_the_least_bad_column() -> None:
    """rules D5: with only bad choices the engine still maximises the score."""
    rounds = [
        # no U played: A10 wins; A10 x2 + A4 nobles, A5 + U11 x2 artists
        rnd("U11", "0:A10 1:A5 2:A4"),
        rnd("A1", "0:P10 1:- 2:-"),  # P10 artists x2, the Joker A1, 2 gems
    ]
    zero = seat(replay(make_log(3, rounds)), 0)
    guilds = zero["breakdown"]["guilds"]
    # nobles 3 -> 6, artists 5 -> -3; Joker on nobles: -1 - 3 = -4; on artists: 6 - 6 = 0
    assert (guilds["artists"]["symbols"], guilds["artists"]["joker"]) == (5, True)
    assert (guilds["nobles"]["symbols"], guilds["nobles"]["joker"]) == (3, False)
    assert zero["breakdown"]["guild_points"] == 0
    assert zero["score"] == 2  # 0 + 2 gems


def test_jokers_beyond_the_columns_are_discarded() -> None:
    """rules "End of game: Jokers": at most one per column; the rest is discarded."""
    # trump E1: no E played, A4 beats A1 -> seat 1 takes A1 A4 E1 and a gem
    one = seat(replay(make_log(3, [rnd("E1", "0:A1 1:A4 2:-")])), 1)
    assert one["breakdown"]["jokers"] == {"held": 2, "placed": ["nobles"], "discarded": 1}
    # nobles 1 + Joker = 2 -> 3, 1 gem => 4
    assert one["score"] == 4
    assert one["cards_won"] == 3  # the discarded Joker is still a card won


def test_joker_cannot_make_a_column_alone() -> None:
    """rules "End of game: Jokers": no guild symbol at all: the Joker is discarded."""
    zero = seat(replay(make_log(3, [rnd("U1", "0:A13 1:- 2:-")])), 0)
    assert zero["breakdown"]["jokers"] == {"held": 1, "placed": [], "discarded": 1}
    assert all(not g["joker"] for g in zero["breakdown"]["guilds"].values())
    # Pot de Vin A13 -> -1, 2 gems => 1
    assert zero["score"] == 1


# --- Tie-breaks (D7) ----------------------------------------------------------------------------


def test_tie_broken_by_cards_won() -> None:
    """rules D7: equal points -> most cards won (before gems)."""
    rounds = [
        rnd("U4", "0:A4 1:A5 2:A6"),  # A6 -> seat 2: A4 A5 A6 U4, four singles = 4
        rnd("E7", "2:P4 0:P9 1:-"),  # P9 -> seat 0: P4 P9 E7, three singles = 3, + 1 gem = 4
    ]
    result = replay(make_log(3, rounds))
    assert [seat(result, s)["score"] for s in range(3)] == [4, 0, 4]
    assert [seat(result, s)["cards_won"] for s in range(3)] == [3, 0, 4]
    assert [seat(result, s)["rank"] for s in range(3)] == [2, 3, 1]
    assert [seat(result, s)["tiebreak"] for s in range(3)] == ["cards", None, "cards"]
    assert result["winners"] == [2]


def test_tie_broken_by_gems_won() -> None:
    """rules D7: equal points and cards -> most gems won."""
    rounds = [
        rnd("U5", "0:A4 1:- 2:-"),  # seat 0: A4 nobles, U5 knights, 2 gems
        rnd("E4", "0:P4 1:- 2:-"),  # seat 0: P4 artists, E4 traders, 2 gems
        rnd("E11", "0:U6 1:U7 2:U8"),  # no E played: U8 -> seat 2: U6 U7 U8 E11
    ]
    result = replay(make_log(3, rounds))
    # seat 0: 4 singles = 4, + 4 gems => 8; 4 cards
    # seat 2: nobles U7 + E11 x2 = 3 -> 6, assassins U6 1, artists U8 1 => 8; 4 cards
    assert [seat(result, s)["score"] for s in range(3)] == [8, 0, 8]
    assert [seat(result, s)["cards_won"] for s in range(3)] == [4, 0, 4]
    assert [seat(result, s)["gems_won"] for s in range(3)] == [4, 0, 0]
    assert [seat(result, s)["rank"] for s in range(3)] == [1, 3, 2]
    assert [seat(result, s)["tiebreak"] for s in range(3)] == ["gems", None, "gems"]
    assert result["winners"] == [0]


def test_shared_place_and_competition_ranks() -> None:
    """rules D7: all equal -> shared place; ranks 1, 2, 2, 4."""
    rounds = [
        rnd("U4", "0:A4 1:A5 2:A6 3:A7"),  # A7 -> seat 3
        rnd("E4", "3:P4 0:P5 1:P6 2:P7"),  # P7 -> seat 2
        rnd("U10", "2:E5 3:E6 0:E7 1:E9"),  # E9 -> seat 1
    ]
    result = replay(make_log(4, rounds))
    # seat 3: A4 nobles, A5 artists, A6 traders, A7 + U4 workmen 2 -> 1 + 1 + 1 + 3 = 6
    # seat 2: P4 artists, P5 + E4 traders 2 -> 3, P6 workmen, P7 knights => 6
    # seat 1: E5 + U10 x2 workmen 3 -> 6, E6 knights, E7 assassins, E9 artists => 9
    assert [seat(result, s)["score"] for s in range(4)] == [0, 9, 6, 6]
    assert [seat(result, s)["cards_won"] for s in range(4)] == [0, 5, 5, 5]
    assert [seat(result, s)["rank"] for s in range(4)] == [4, 1, 2, 2]
    assert [seat(result, s)["tiebreak"] for s in range(4)] == [None, None, "shared", "shared"]
    assert result["winners"] == [1]


def test_tie_break_counts_trump_cards_and_discarded_jokers() -> None:
    """rules D7: cards won include trump cards won and discarded Jokers."""
    rounds = [
        rnd("U2", "0:A3 1:- 2:-"),  # seat 0: A3 -2, U2 +2, 2 gems => 2; 2 cards
        rnd("U1", "0:A2 1:A13 2:-"),  # no U played: A13 -> seat 1: A2 +2, A13 -1, Joker U1
    ]
    result = replay(make_log(3, rounds))
    # seat 1: +2 - 1, the Joker U1 has no column and is discarded, 1 gem => 2; 3 cards
    assert [seat(result, s)["score"] for s in range(3)] == [2, 2, 0]
    assert [seat(result, s)["cards_won"] for s in range(3)] == [2, 3, 0]
    assert [seat(result, s)["gems_won"] for s in range(3)] == [2, 1, 0]
    assert [seat(result, s)["rank"] for s in range(3)] == [2, 1, 3]
    assert [seat(result, s)["tiebreak"] for s in range(3)] == ["cards", "cards", None]


# --- Teams (D8) ---------------------------------------------------------------------------------

TEAM_ROUNDS = [
    # trump A: A13 is the highest trump -> seat 0: A13 PdV, A4 nobles, A5 artists, A10 nobles
    # x2, the Joker A1
    rnd("A1", "0:A13 1:A4 2:A5 3:A10"),
    # seat 0 alone: P13 PdV, U2 +2, 3 gems
    rnd("U2", "0:P13 1:- 2:- 3:-"),
    # trump E: E13 beats E4 -> seat 2: E4 traders, E13 PdV, E11 nobles x2, 2 gems
    rnd("E11", "0:E4 1:- 2:E13 3:-"),
    # no P played, U13 highest -> seat 2: U13 PdV, U4 workmen, U5 knights, P12 workmen x2, 1 gem
    rnd("P12", "2:U13 3:U4 0:- 1:U5"),
]


def test_team_scoring() -> None:
    """rules D8: fewer-symbol column per guild, team Jokers, Pot de Vin on the team total."""
    result = replay(make_log(4, TEAM_ROUNDS, teams=[[0, 2], [1, 3]]))
    assert result["violations"] == []
    # own tableaux are kept
    assert seat(result, 0)["tableau"]["nobles"] == 3
    assert seat(result, 2)["tableau"]["nobles"] == 2
    team0 = L.team(result, 0)
    assert team0["seats"] == [0, 2]
    breakdown = team0["breakdown"]
    guilds = breakdown["guilds"]
    # nobles: seat 0 has 3, seat 2 has 2 -> seat 2's column counts (Jokers not counted)
    nobles = guilds["nobles"]
    assert (nobles["symbols"], nobles["seat"]) == (2, 2)
    assert nobles["dropped"] == [{"seat": 0, "symbols": 3}]
    # counted: nobles 2, artists 1 (seat 0), traders 1, workmen 3, knights 1 (seat 2)
    # = 3 + 1 + 1 + 6 + 1 = 12. seat 0's Joker on the team columns: nobles 2 -> 3 (+3) beats
    # artists/traders/knights 1 -> 2 (+2) and workmen 3 -> 4 (-7): nobles 6 => guild 15
    assert (nobles["joker"], nobles["points"]) == (True, 6)
    assert (guilds["artists"]["symbols"], guilds["artists"]["seat"]) == (1, 0)
    assert (guilds["workmen"]["symbols"], guilds["workmen"]["points"]) == (3, 6)
    assert guilds["assassins"]["symbols"] == 0
    assert breakdown["jokers"]["placed"] == ["nobles"]
    assert breakdown["guild_points"] == 15
    # Pot de Vin: seat 0 2 + seat 2 2 = 4 -> +10 (not -3 + -3)
    assert breakdown["pot_de_vin"] == {"cards": 4, "points": 10}
    assert breakdown["bonus"] == {"cards": 1, "points": 2}
    assert breakdown["gems"] == {"count": 6, "points": 6}  # 3 + 3
    # 15 + 2 + 10 + 6 => 33
    assert team0["score"] == 33
    assert breakdown["total"] == 33
    check_breakdown_adds_up(breakdown)
    assert (team0["cards_won"], team0["gems_won"]) == (14, 6)  # 7 + 7 cards, 3 + 3 gems
    assert team0["rank"] == 1
    team1 = L.team(result, 1)
    assert (team1["score"], team1["rank"], team1["cards_won"]) == (0, 2, 0)
    # players carry their team's score, rank and team index
    assert [seat(result, s)["team"] for s in range(4)] == [0, 1, 0, 1]
    assert [seat(result, s)["score"] for s in range(4)] == [33, 0, 33, 0]
    assert [seat(result, s)["rank"] for s in range(4)] == [1, 2, 1, 2]
    assert result["winners"] == [0, 2]


def test_team_explicit_joker_placement() -> None:
    """rules D8 and D5: a stated placement goes on the team's counted columns."""
    log = make_log(4, TEAM_ROUNDS, teams=[[0, 2], [1, 3]], jokers={"0": ["workmen"]})
    team0 = L.team(replay(log), 0)
    # nobles 2 -> 3, artists 1, traders 1, workmen 3 + Joker = 4 -> -1, knights 1 => 5;
    # 5 + 2 (bonus) + 10 (4 Pot de Vin) + 6 gems => 23
    assert team0["breakdown"]["guild_points"] == 5
    assert team0["score"] == 23
    # the team has no assassins column: the Joker cannot make one alone
    with pytest.raises(LogError) as info:
        replay({**log, "jokers": {"0": ["assassins"]}})
    assert (info.value.code, info.value.round) == ("bad_joker_placement", None)


def test_team_tie_break_uses_summed_counts() -> None:
    """rules D8 and D7: the teammates' cards won are summed for the tie-break."""
    rounds = [
        rnd("U4", "0:A4 1:A5 2:A6 3:A7"),  # A7 -> seat 3 (team 1): 6 points, 5 cards
        rnd("E4", "3:P4 0:P5 1:P6 2:P7"),  # P7 -> seat 2 (team 0): 6 points, 5 cards
        rnd("U3", "2:E2 3:- 0:E3 1:-"),  # E3 beats E2 -> seat 0 (team 0): 3 cards, 2 gems
    ]
    result = replay(make_log(4, rounds, teams=[[0, 2], [1, 3]]))
    # team 0: seat 2 artists 1, traders 2 (P5 E4) -> 3, workmen 1, knights 1 = 6;
    # seat 0: E2 +2, E3 -2, U3 -2, 2 gems => 6 + 2 - 4 + 2 = 6; cards 5 + 3 = 8
    # team 1: seat 3 nobles, artists, traders 1, workmen 2 (A7 U4) -> 1 + 1 + 1 + 3 = 6; 5 cards
    team0, team1 = L.team(result, 0), L.team(result, 1)
    assert (team0["score"], team0["cards_won"], team0["gems_won"]) == (6, 8, 2)
    assert (team1["score"], team1["cards_won"], team1["gems_won"]) == (6, 5, 0)
    # summed cards (8 vs 5) decide; per player it would be 5 vs 5 and then gems
    assert (team0["rank"], team0["tiebreak"]) == (1, "cards")
    assert (team1["rank"], team1["tiebreak"]) == (2, "cards")
    assert result["winners"] == [0, 2]
