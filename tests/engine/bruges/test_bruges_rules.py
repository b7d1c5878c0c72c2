"""Scenario tests for the Bruges rules: one or more per rule and per decision (B1-B8).

Rules: ``shared/rules/bruges.md``; source: ``shared/rulebooks/bruges.it.txt`` (its final scoring
example and the rules file's worked example, Ada 12 and Bea 15, are tests below). Every expected
number is worked out by hand from the rules; the comment next to it shows the arithmetic. Seats
are 0-based and clockwise. Unless a test says otherwise the dice are ``QUIET`` (blue 3, brown 4,
red 3, purple 4, yellow 3: no threat token, no prestige) and a seat's unlisted turns take 2 red
workers (``logs.order``), which changes no score.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scoring.engine.bruges import ENGINE
from scoring.engine.bruges.editions import BUILTIN_EDITIONS, STANDARD_EDITION, edition_from_dict
from scoring.engine.errors import LogError
from tests.engine.bruges.logs import (
    COLORS,
    NAMES,
    QUIET,
    canal,
    dice,
    eff,
    final,
    five_of,
    florins,
    hire,
    house,
    laurel,
    make_log,
    order,
    pas,
    pen,
    pen_step,
    person,
    quiet_round,
    rnd,
    threat,
    turn,
    up,
    workers,
)

PRESTIGE_POINTS = [0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 20]  # B1: the standard edition
NO_THREATS = dict.fromkeys(COLORS, 0)


# --- result helpers ------------------------------------------------------------------------------


def replay(log: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return ENGINE.replay(log, **kw)


def seat(result: dict[str, Any], s: int) -> dict[str, Any]:
    player = result["players"][s]
    assert player["seat"] == s
    return player


def scores(result: dict[str, Any]) -> list[int]:
    return [p["score"] for p in result["players"]]


def ranks(result: dict[str, Any]) -> list[int]:
    return [p["rank"] for p in result["players"]]


def tiebreaks(result: dict[str, Any]) -> list[str | None]:
    return [p["tiebreak"] for p in result["players"]]


def bd(result: dict[str, Any], s: int) -> dict[str, int]:
    """The categories of seat ``s``'s breakdown that are not zero."""
    return {k: v for k, v in seat(result, s)["breakdown"].items() if v != 0}


def wk(**given: int) -> dict[str, int]:
    """Workers (or tokens) per colour: the colours not given are 0."""
    return {c: given.get(c, 0) for c in COLORS}


def rejected(log: dict[str, Any], **kw: Any) -> LogError:
    with pytest.raises(LogError) as info:
        ENGINE.replay(log, **kw)
    return info.value


def where(err: LogError) -> tuple[str, int | None, int | None, int | None]:
    return (err.code, err.round, err.turn, err.seat)


def banker(pid: str = "bk", price: int = 0, **kw: Any) -> dict[str, Any]:
    """An ``infinity`` person: the log states what it gives (B6: no limit)."""
    return person(pid, price, icon="infinity", group="merchants", **kw)


def with_banker(pid: str = "bk") -> list[Any]:
    """A seat's first two turns: a red house (its red worker), then ``pid`` hired into it."""
    return [house("red"), hire("blue", 0, banker(pid))]


# --- Engine identity and the start ---------------------------------------------------------------


def test_engine_identity() -> None:
    """Brief and rulebook ("per 2-4 giocatori"): ids, formats, 2 to 4 players, editions (B1)."""
    assert ENGINE.game_id == "bruges"
    assert ENGINE.log_format == "bruges-log/1"
    assert ENGINE.version == "1.0.0"
    info = ENGINE.info
    assert (info.game_id, info.log_format) == ("bruges", "bruges-log/1")
    assert (info.entries_key, info.entry_name) == ("rounds", "round")
    assert tuple(info.player_counts) == (2, 3, 4)
    assert tuple(info.finish_keys) == ("final",)
    assert tuple(info.setup_keys) == ()
    assert info.has_editions and info.default_edition == "standard"
    assert not info.team_counts


@pytest.mark.parametrize("n", [2, 3, 4])
def test_starting_values(n: int) -> None:
    """ "What the engine tracks": florins 5, 1 worker of each colour, no token, 5 points, step 0."""
    result = replay(make_log(n, []))
    assert result["format"] == "bruges-result/1"
    assert (result["game"], result["engine_version"]) == ("bruges", "1.0.0")
    assert result["complete"] is False and result["rounds_played"] == 0
    for p in result["players"]:
        assert p["name"] == NAMES[p["seat"]]
        assert (p["florins"], p["step"], p["houses"], p["persons"]) == (5, 0, 0, 0)
        assert p["workers"] == dict.fromkeys(COLORS, 1)
        assert p["threats"] == NO_THREATS
        assert p["canals"] == {"left": 0, "right": 0}
        assert (p["statues"], p["majorities"], p["tableau"]) == ([], [], [])
        assert p["score"] == 5 and bd(result, p["seat"]) == {"track": 5}  # 5 + step 0 = 0
    # B7: all on 5 points and 5 florins: one rank shared by everybody
    assert ranks(result) == [1] * n and tiebreaks(result) == ["shared"] * n
    assert result["statues"]["pile"] == [7, 6, 5, 4, 3, 2]  # B3: 7 on top


# --- The rules file's worked example --------------------------------------------------------------


def worked_example() -> dict[str, Any]:
    """The log of the rules file's "Log format" section, verbatim."""
    return make_log(
        2,
        [
            rnd(
                "25146",  # blue 2, brown 5, red 1, purple 4, yellow 6
                [
                    turn(0, workers("red")),
                    turn(1, florins("yellow")),
                    turn(0, house("red")),
                    turn(1, canal("blue", "left")),
                    turn(0, florins("blue")),
                    turn(1, threat("brown")),
                    turn(
                        0,
                        hire(
                            "purple",
                            0,
                            person("p1", 6, name="Alchimista", group="scholars", icon="arrow"),
                        ),
                        eff("p1", florins=6),
                    ),
                    turn(1, workers("purple")),
                ],
                penalties=[],
                prestige=[1],
            )
        ],
        final=final(),
    )


def test_worked_example_ada_12_bea_15() -> None:
    """Rules file, "Log format": Ada 12, Bea 15, Bea wins."""
    result = replay(worked_example())
    ada, bea = seat(result, 0), seat(result, 1)
    # Ada: 5 (track) + 2 (Alchimista 6 / 3) + 1 (house) + 4 (persons tile) + 0 (step 0) = 12
    assert ada["breakdown"] == {
        "track": 5,
        "persons": 2,
        "houses": 1,
        "laurels": 0,
        "majorities": 4,
        "canals": 0,
        "statues": 0,
        "prestige": 0,
    }
    assert ada["score"] == 12
    # Bea: 6 (track 5 + 1 for the brown token returned) + 8 (prestige and canals tiles)
    #      + 1 (step 1) = 15
    assert bea["breakdown"] == {
        "track": 6,
        "persons": 0,
        "houses": 0,
        "laurels": 0,
        "majorities": 8,
        "canals": 0,
        "statues": 0,
        "prestige": 1,
    }
    assert bea["score"] == 15
    assert ranks(result) == [2, 1] and result["winners"] == [1]
    assert tiebreaks(result) == [None, None]
    # prestige cost: the dice showing 1 or 2 are blue 2 and red 1: 1 + 2 = 3
    assert result["rounds"][0]["prestige_cost"] == 3
    # Ada: 5 + 2 (blue die) - 6 (Alchimista) + 6 (its arrow effect) = 7;
    # Bea: 5 - 3 (prestige) + 6 (yellow die) - 1 (the first canal space) = 7
    assert (ada["florins"], bea["florins"]) == (7, 7)
    assert (ada["step"], bea["step"]) == (0, 1)
    # brown 5 and yellow 6: a brown and a yellow token each; Bea returned her brown one
    assert ada["threats"] == wk(brown=1, yellow=1)
    assert bea["threats"] == wk(yellow=1)
    # Ada: red 1 + 2 - 1 (the house) = 2; Bea: purple 1 + 2 = 3
    assert ada["workers"] == wk(blue=1, brown=1, red=2, purple=1, yellow=1)
    assert bea["workers"] == wk(blue=1, brown=1, red=1, purple=3, yellow=1)
    assert ada["majorities"] == ["persons"]
    assert bea["majorities"] == ["prestige", "canals"]
    assert result["majorities"] == {"prestige": [1], "persons": [0], "canals": [1]}
    assert ada["tableau"] == [{"color": "red", "person": "p1"}]
    assert bea["canals"] == {"left": 1, "right": 0}


def test_worked_example_is_a_final_score() -> None:
    """End: `final` says the game is over, "which the engine trusts since draws are not
    logged"; the rules file calls the example's scores "Final scores"."""
    result = replay(worked_example())
    assert result["complete"] is True
    assert scores(result) == [12, 15]


# --- B1: the edition is data --------------------------------------------------------------------


def standard_json() -> dict[str, Any]:
    space = [{"cost": c, "color": None} for c in (1, 2, 3, 4, 5)]
    return {
        "id": "standard",
        "prestige_points": list(PRESTIGE_POINTS),
        "canal": {"left": copy.deepcopy(space), "right": copy.deepcopy(space)},
    }


def test_standard_edition_is_the_rules_files() -> None:
    """B1: costs 1..5 outward, colours unknown (null), prestige points as listed."""

    assert STANDARD_EDITION.as_dict() == standard_json()
    assert BUILTIN_EDITIONS["standard"].as_dict() == standard_json()
    data = dict(standard_json())
    del data["id"]
    assert ENGINE.info.builtin_editions["standard"]["data"] == data


def test_log_edition_key_standard_and_missing_are_the_same() -> None:
    """B1: a log without `edition` means `standard`."""
    log = worked_example()
    named = copy.deepcopy(log)
    named["edition"] = "standard"
    assert replay(named)["players"] == replay(log)["players"]


def test_prestige_points_come_from_the_edition() -> None:
    """B1: the points of each step are edition data; a corrected edition re-scores a game."""

    data = standard_json()
    data["id"] = "v2"
    data["prestige_points"][1] = 10
    result = replay(worked_example(), edition=edition_from_dict(data))
    # Bea on step 1: 6 + 8 + 10 (step 1 in v2) = 24; Ada unchanged 12
    assert scores(result) == [12, 24]
    assert bd(result, 1)["prestige"] == 10
    # the same edition given as its JSON object
    assert scores(replay(worked_example(), edition=data)) == [12, 24]


def test_canal_costs_and_colours_come_from_the_edition() -> None:
    """B1/B3: a space's cost and colour are edition data; a known colour is enforced."""
    data = standard_json()
    data["id"] = "coloured"
    data["canal"]["left"] = [
        {"cost": 0, "color": "blue"},
        {"cost": 2, "color": "red"},
        {"cost": 1, "color": None},
        {"cost": 0, "color": "yellow"},
        {"cost": 0, "color": "brown"},
    ]
    log = make_log(
        2,
        [
            quiet_round(
                2,
                0,
                {0: [canal("blue", "left"), canal("red", "left"), canal("purple", "left")]},
            )
        ],
    )
    result = replay(log, edition=data)
    # Ada: 5 - 0 - 2 - 1 = 2 florins; 3 tiles: 3 points for the 3rd space, and the canal tile
    assert seat(result, 0)["florins"] == 2
    assert seat(result, 0)["canals"] == {"left": 3, "right": 0}
    assert bd(result, 0) == {"track": 5, "canals": 3, "majorities": 4}  # 5 + 3 + 4 = 12
    # a red card on the blue first space is refused
    bad = make_log(2, [quiet_round(2, 0, {0: [canal("red", "left")]})])
    assert where(rejected(bad, edition=data)) == ("wrong_space_color", 1, 1, 0)


def test_unknown_space_colour_accepts_any_card_every_time() -> None:
    """B3: a space whose colour the edition does not know takes a card of any colour."""
    given = {
        0: [
            canal("purple", "right"),
            canal("brown", "right"),
            florins("red"),
            canal("yellow", "right"),
        ],
        1: [canal("blue", "right")],
    }
    result = replay(make_log(2, [quiet_round(2, 0, given)]))
    # Ada: 5 - 1 - 2 + 3 (the red die) - 3 = 2; Bea 5 - 1 = 4
    assert [p["florins"] for p in result["players"]] == [2, 4]
    assert seat(result, 0)["canals"] == {"left": 0, "right": 3}
    assert seat(result, 1)["canals"] == {"left": 0, "right": 1}


# --- B2: dice, threat tokens and the five penalties -----------------------------------------------


def test_dice_five_or_six_give_every_player_a_token() -> None:
    """Phase 2: each die showing 5 or 6 gives every player a token of its colour; 1-4 none."""
    # blue 5, brown 6, red 4, purple 3, yellow 1
    result = replay(make_log(3, [rnd("56431", order(3, 0))]))
    for p in result["players"]:
        assert p["threats"] == wk(blue=1, brown=1)
        assert p["score"] == 5  # a token given scores nothing
    assert result["rounds"][0]["prestige_cost"] == 1  # only yellow 1 shows 1 or 2


def penalties_log() -> dict[str, Any]:
    """Three rounds of 5 on every die: in round 3 both seats suffer all five penalties."""
    r1 = rnd(
        "55555",
        order(
            2,
            0,
            {
                0: [
                    house("red"),
                    hire("blue", 0, person("p1", 3)),
                    canal("yellow", "left"),
                    florins("yellow"),
                ]
            },
        ),
    )
    r2 = rnd(
        "55555",
        order(
            2,
            1,
            {
                0: [house("blue")],
                1: [house("red"), house("red"), florins("yellow"), canal("blue", "left")],
            },
        ),
    )
    r3 = rnd(
        "55555",
        order(2, 0),
        penalties=[
            # each seat in the order it chose; the two seats interleave (B8)
            pen(0, "purple"),
            pen(1, "blue"),
            pen(0, "red", house=0),  # the red house: p1 goes back to Ada's hand
            pen(1, "red", section="left"),  # Bea's only tile
            pen(0, "brown"),  # Ada has no person left in play: no choice
            pen(1, "brown"),  # Bea never had one
            pen(0, "yellow"),
            pen(1, "yellow"),
            pen(0, "blue"),
            pen(1, "purple"),
        ],
    )
    return make_log(2, [r1, r2, r3])


def test_all_five_penalties_with_their_choices() -> None:
    """B2 and "Tessere Minaccia": the third token of a colour triggers its penalty, listed in
    the order the player applied it, with the choice where there is one; the 3 tokens go back
    without points."""
    result = replay(penalties_log())
    ada, bea = seat(result, 0), seat(result, 1)
    for p in (ada, bea):
        assert p["threats"] == NO_THREATS  # 3 of each returned after each penalty
        assert p["penalties"] == dict.fromkeys(COLORS, 1)
        # blue (flood) took every worker; round 3's 4 filler turns then gave 2 red each: 8
        assert p["workers"] == wk(red=8)
        assert p["florins"] == 0  # yellow (pillage)
    # purple (plot): 5 - 3 = 2, and no point for the returned tokens
    assert (ada["breakdown"]["track"], bea["breakdown"]["track"]) == (2, 2)
    # red (fire) on Ada's house 0 (the red one with p1): her blue house is left, p1 in her hand
    assert ada["tableau"] == [{"color": "blue", "person": None}]
    assert [(p["id"], p["seat"], p["status"]) for p in result["persons"]] == [("p1", 0, "hand")]
    assert ada["canals"] == {"left": 1, "right": 0}  # Ada's tile was not touched
    # red on Bea's left section: its only tile
    assert bea["canals"] == {"left": 0, "right": 0}
    assert bea["houses"] == 2
    # Majorities: round 1 Ada alone has a person and a tile (persons, canals); round 2 canals
    # are 1-1 (no one); round 3 Ada's tile alone (already flipped).
    assert ada["majorities"] == ["persons", "canals"] and bea["majorities"] == []
    # Ada: 2 (track) + 1 (house) + 8 (two tiles) = 11; Bea: 2 + 2 (houses) = 4
    assert scores(result) == [11, 4]


def test_penalty_order_is_the_players_choice() -> None:
    """B2: the player applies several penalties in the order it chooses: brown first (taking
    p1 for good), then red on the now empty red house."""
    log = penalties_log()
    pens = log["rounds"][2]["penalties"]
    pens[2], pens[4] = pen(0, "brown", person="p1"), pen(0, "red", house=0)
    result = replay(log)
    # same houses as before, but p1 was discarded by the plague and never returns
    assert seat(result, 0)["tableau"] == [{"color": "blue", "person": None}]
    assert [(p["id"], p["status"]) for p in result["persons"]] == [("p1", "discarded")]
    assert scores(result) == [11, 4]


def three_rounds(
    n: int, spec: str, givens: list[dict[int, list[Any]]], **last: Any
) -> dict[str, Any]:
    """Rounds with dice ``spec`` (first player 0, then clockwise), ``last`` on the last one."""
    rounds = []
    for k, given in enumerate(givens):
        kw = last if k == len(givens) - 1 else {}
        rounds.append(rnd(spec, order(n, k % n, given), **kw))
    return make_log(n, rounds)


def test_brown_plague_discards_the_chosen_person_and_the_house_stays() -> None:
    """ "Pestilenza" and B2/B4: one person of the player's choice leaves play; its house stays;
    it never returns."""
    r1 = {
        0: [
            house("red"),
            house("blue"),
            hire("purple", 0, person("p1", 3, group="clergy")),
            hire("yellow", 1, person("p2", 0)),
        ]
    }
    log = three_rounds(
        2,
        five_of("brown"),
        [r1, {}, {}],
        penalties=[pen(0, "brown", person="p1"), pen(1, "brown")],
    )
    result = replay(log)
    ada = seat(result, 0)
    assert ada["tableau"] == [
        {"color": "red", "person": None},
        {"color": "blue", "person": "p2"},
    ]
    assert (ada["houses"], ada["persons"]) == (2, 1)
    assert [(p["id"], p["status"]) for p in result["persons"]] == [
        ("p1", "discarded"),
        ("p2", "in_play"),
    ]
    assert ada["florins"] == 2  # 5 - 3 (p1); p2 was free
    # Ada: 5 + 0 (p2, price 0) + 2 (houses) + 4 (persons tile, round 1) = 11; Bea 5
    assert scores(result) == [11, 5]
    # plague: p1 never returns (B4)
    log["rounds"].append(quiet_round(2, 1, {0: [hire("red", 0, "p1")]}))
    assert where(rejected(log)) == ("person_gone", 4, 2, 0)


def test_red_fire_on_a_house_sends_its_person_back_to_the_hand() -> None:
    """ "Incendio": the house is discarded, its person goes back to the hand and may be hired
    again by its id alone (B4); B8: house 0 is now the blue one (later houses move up)."""
    r1 = {0: [house("red"), house("blue"), hire("purple", 0, person("p1", 3))]}
    r3 = {0: [florins("red"), hire("yellow", 0, "p1")]}
    log = three_rounds(
        2, five_of("red"), [r1, {}, r3], penalties=[pen(0, "red", house=0), pen(1, "red")]
    )
    result = replay(log)
    ada = seat(result, 0)
    assert ada["tableau"] == [{"color": "blue", "person": "p1"}]
    # 5 - 3 (p1) + 5 (the red die) - 3 (p1 again) = 4
    assert ada["florins"] == 4
    assert ada["hired"]["nobles"] == 2  # a re-hire after a fire counts again
    # Ada: 5 + 1 (p1) + 1 (house) + 4 (persons tile) = 11; Bea: nothing to lose, 5
    assert scores(result) == [11, 5]
    # before the re-hire p1 was in Ada's hand
    partial = copy.deepcopy(log)
    partial["rounds"][2]["turns"][2] = turn(0, workers("red"))
    assert [(p["id"], p["status"]) for p in replay(partial)["persons"]] == [("p1", "hand")]


def test_red_fire_on_a_canal_takes_the_outermost_tile() -> None:
    """ "Incendio" on a section: its outermost tile goes (no gaps); the 3rd-space bonus with it."""
    r1 = {0: [florins("red"), canal("red", "left"), canal("red", "left"), canal("red", "left")]}
    log = three_rounds(
        2, five_of("red"), [r1, {}, {}], penalties=[pen(0, "red", section="left"), pen(1, "red")]
    )
    before = replay({**log, "rounds": log["rounds"][:2]})
    assert bd(before, 0) == {"track": 5, "majorities": 4, "canals": 3}  # 3 tiles: 3 points
    result = replay(log)
    ada = seat(result, 0)
    assert ada["canals"] == {"left": 2, "right": 0}
    # 5 + 5 (red die) - 1 - 2 - 3 (spaces 1, 2, 3) = 4
    assert ada["florins"] == 4
    assert bd(result, 0) == {"track": 5, "majorities": 4}  # 5 + 4 = 9: no 3rd space now
    assert scores(result) == [9, 5]


def test_blue_flood_takes_all_workers() -> None:
    """ "Alluvione": all workers back to the supply."""
    log = three_rounds(
        2,
        five_of("blue"),
        [{}, {}, {0: [florins("red")] * 4, 1: [florins("red")] * 4}],
        penalties=[pen(1, "blue"), pen(0, "blue")],
    )
    result = replay(log)
    for p in result["players"]:
        # 1 of each + 2 x 4 red (rounds 1 and 2) = all gone; round 3 takes florins only
        assert p["workers"] == wk()
        assert p["florins"] == 5 + 4 * 3  # the red die shows 3: 17
        assert p["threats"] == NO_THREATS and p["score"] == 5


def test_yellow_pillage_takes_all_florins() -> None:
    """ "Saccheggio": all florins to the bank; and only then the round's turns."""
    given = {0: [florins("red")] * 4, 1: [florins("red")] * 4}
    log = three_rounds(
        2, five_of("yellow"), [given, given, {}], penalties=[pen(0, "yellow"), pen(1, "yellow")]
    )
    result = replay(log)
    # 5 + 8 x 3 = 29 florins each, all lost in round 3
    assert [p["florins"] for p in result["players"]] == [0, 0]
    assert ranks(result) == [1, 1] and tiebreaks(result) == ["shared", "shared"]


def test_purple_plot_costs_3_points_not_below_zero() -> None:
    """ "Complotto": 3 points, the score cannot go below zero."""
    spec = five_of("purple")
    rounds = []
    for k in range(6):
        kw: dict[str, Any] = {}
        if k in (2, 5):
            kw["penalties"] = [pen(0, "purple"), pen(1, "purple")]
        rounds.append(rnd(spec, order(2, k % 2), **kw))
    log = make_log(2, rounds)
    assert scores(replay({**log, "rounds": rounds[:3]})) == [2, 2]  # 5 - 3 = 2
    result = replay(log)
    assert scores(result) == [0, 0]  # max(0, 2 - 3) = 0
    assert seat(result, 0)["threats"] == NO_THREATS


def test_penalty_with_nothing_to_lose_needs_no_choice() -> None:
    """B2: none needed when the player has nothing to lose (brown: no person; red: no house,
    no tile)."""
    log = three_rounds(
        2,
        "35543",  # brown 5, red 5
        [{}, {}, {}],
        penalties=[pen(0, "brown"), pen(0, "red"), pen(1, "red"), pen(1, "brown")],
    )
    result = replay(log)
    assert [p["penalties"] for p in result["players"]] == [wk(brown=1, red=1)] * 2
    assert scores(result) == [5, 5]


# --- Prestige ------------------------------------------------------------------------------------


def test_prestige_cost_is_the_sum_of_the_dice_showing_1_or_2() -> None:
    """Phase 2: the cost is the sum of the dice showing 1 or 2; each listed seat pays it and
    climbs one step, clockwise from the first player."""
    # blue 1, brown 2, red 3, purple 3, yellow 4: cost 1 + 2 = 3
    log = make_log(3, [rnd("12334", order(3, 0), prestige=[0, 2])])
    result = replay(log)
    assert result["rounds"][0]["prestige_cost"] == 3
    assert [p["florins"] for p in result["players"]] == [2, 5, 2]  # 5 - 3
    assert [p["step"] for p in result["players"]] == [1, 0, 1]
    # step 1 = 1 point; Ada and Cy tie on the ladder: no one flips prestige (B5)
    assert scores(result) == [6, 5, 6]
    assert result["majorities"]["prestige"] == []
    # 6 points and 2 florins each: Ada and Cy share rank 1; Bea third (B7)
    assert ranks(result) == [1, 3, 1]


def test_prestige_who_can_afford_it() -> None:
    """Phase 2: "Se non hai abbastanza fiorini per avanzare, non puoi farlo": paying exactly
    all one's florins is allowed, one florin short is not."""
    spec = "21113"  # blue 2, brown 1, red 1, purple 1, yellow 3: cost 2 + 1 + 1 + 1 = 5
    given = {1: [florins("yellow"), florins("yellow")]}
    log = make_log(2, [rnd(spec, order(2, 0, given), prestige=[0, 1])])
    result = replay(log)
    assert [p["florins"] for p in result["players"]] == [0, 6]  # 5 - 5; 5 - 5 + 3 + 3
    assert [p["step"] for p in result["players"]] == [1, 1]
    # round 2: Bea took 3 + 3 (yellow die) in round 1 and can pay again; Ada has 0
    log["rounds"].append(rnd(spec, order(2, 1), prestige=[1]))
    assert [p["step"] for p in replay(log)["players"]] == [1, 2]
    log["rounds"][1]["prestige"] = [1, 0]
    assert where(rejected(log)) == ("not_enough_florins", 2, None, 0)


def test_no_die_showing_1_or_2_means_no_prestige() -> None:
    """Phase 2: "Se nessun dado mostra 1 e/o 2, allora non è possibile avanzare"."""
    log = make_log(2, [rnd(QUIET, order(2, 0), prestige=[0])])
    assert where(rejected(log)) == ("prestige_not_allowed", 1, None, 0)


def test_prestige_is_listed_clockwise_from_the_rounds_first_player() -> None:
    """Phase 2 and B8: clockwise from the round's first player, each seat at most once."""
    spec = "13343"  # blue 1: cost 1
    r1 = rnd(spec, order(3, 0), prestige=[0, 1, 2])
    r2 = rnd(spec, order(3, 1), prestige=[1, 2, 0])  # round 2: Bea is the first player
    result = replay(make_log(3, [r1, r2]))
    assert [p["step"] for p in result["players"]] == [2, 2, 2]
    assert [p["florins"] for p in result["players"]] == [3, 3, 3]  # 5 - 1 - 1
    bad = make_log(3, [r1, rnd(spec, order(3, 1), prestige=[0, 1])])
    assert where(rejected(bad)) == ("prestige_out_of_order", 2, None, 1)
    twice = make_log(3, [rnd(spec, order(3, 0), prestige=[0, 0])])
    assert where(rejected(twice)) == ("prestige_out_of_order", 1, None, 0)


def test_a_seat_on_step_12_may_not_be_listed() -> None:
    """Phase 2: a seat already on step 12 may not be listed; B8: a prestige gain stops at 12."""
    r1 = quiet_round(2, 0, {0: [*with_banker(), [eff("bk", prestige=20), workers("red")]]})
    result = replay(make_log(2, [r1]))
    assert seat(result, 0)["step"] == 12  # 0 + 20 stops at 12
    # 5 (track) + 0 (price 0) + 1 (house) + 8 (prestige and persons tiles) + 20 (step 12) = 34
    assert scores(result) == [34, 5]
    log = make_log(2, [r1, rnd("13343", order(2, 1), prestige=[1, 0])])
    assert where(rejected(log)) == ("prestige_at_top", 2, None, 0)


# --- Phase 3: turn order --------------------------------------------------------------------------


def test_four_turns_each_clockwise_from_a_first_player_who_changes_every_round() -> None:
    """Phase 3 and 4: 4 turns per player clockwise from the first player; the first player
    token passes clockwise after every round."""
    rounds = [quiet_round(3, first) for first in (2, 0, 1, 2)]
    result = replay(make_log(3, rounds, first=2))
    assert [r["first_player"] for r in result["rounds"]] == [2, 0, 1, 2]
    assert [t["seat"] for t in rounds[0]["turns"]] == [2, 0, 1] * 4
    for p in result["players"]:
        assert p["cards_played"] == 16  # 4 rounds x 4 turns
        assert p["workers"]["red"] == 1 + 16 * 2
    # round 2 started again by seat 2: turn 1 is out of turn
    bad = make_log(3, [quiet_round(3, 2), quiet_round(3, 2)], first=2)
    assert where(rejected(bad)) == ("out_of_turn", 2, 1, 2)


def test_a_pass_only_after_five_cards() -> None:
    """Phase 3: a seat out of cards passes its remaining turns, only once it has played 5."""
    # Ada's banker grants 3 extra plays in her turn 3: 1 + 1 + 4 = 6 cards, then a pass.
    given = {
        0: [
            *with_banker(),
            [eff("bk", plays=3)] + [workers("blue")] * 4,
            pas(0),
        ]
    }
    result = replay(make_log(2, [quiet_round(2, 0, given)]))
    assert seat(result, 0)["cards_played"] == 6
    assert seat(result, 0)["workers"]["blue"] == 1 + 4 * 2
    early = {0: [pas(0)]}
    assert where(rejected(make_log(2, [quiet_round(2, 0, early)]))) == ("early_pass", 1, 1, 0)


# --- Phase 3: the six actions ---------------------------------------------------------------------


def test_action_workers_takes_two_of_the_cards_colour() -> None:
    """Action I: 2 workers of the colour played."""
    given = {0: [workers("blue"), workers("blue"), workers("purple"), workers("yellow")]}
    result = replay(make_log(2, [quiet_round(2, 0, given)]))
    assert seat(result, 0)["workers"] == wk(blue=5, brown=1, red=1, purple=3, yellow=3)
    assert scores(result) == [5, 5]


def test_action_florins_takes_the_value_of_the_die_of_the_cards_colour() -> None:
    """Action II: florins = the die of the card's colour."""
    # blue 1, brown 3, red 4, purple 5, yellow 6
    given = {0: [florins("blue"), florins("brown"), florins("purple"), florins("yellow")]}
    result = replay(make_log(2, [rnd("13456", order(2, 0, given))]))
    assert seat(result, 0)["florins"] == 5 + 1 + 3 + 5 + 6  # 20
    assert seat(result, 1)["florins"] == 5


def test_action_threat_returns_a_token_and_scores_a_point() -> None:
    """Action III: return a token of the card's colour, +1 point."""
    given = {0: [threat("red")], 1: [threat("yellow")]}
    result = replay(make_log(2, [rnd("34536", order(2, 0, given))]))  # red 5, yellow 6
    assert seat(result, 0)["threats"] == wk(yellow=1)
    assert seat(result, 1)["threats"] == wk(red=1)
    assert scores(result) == [6, 6]  # 5 + 1
    none = make_log(2, [quiet_round(2, 0, {0: [threat("red")]})])
    assert where(rejected(none)) == ("no_threat_token", 1, 1, 0)


def test_action_canal_outward_with_the_third_space_bonus() -> None:
    """Action IV and B1: spaces from the seal outward, paying 1, 2, 3; a tile on the 3rd space
    scores 3 at the end."""
    r1 = rnd(
        "44444",
        order(
            2,
            0,
            {
                0: [
                    canal("red", "left"),
                    canal("blue", "left"),
                    florins("red"),
                    canal("red", "left"),
                ]
            },
        ),
    )
    result = replay(make_log(2, [r1]))
    ada = seat(result, 0)
    assert ada["canals"] == {"left": 3, "right": 0}
    assert ada["florins"] == 5 - 1 - 2 + 4 - 3  # 3
    # 5 + 3 (3rd space) + 4 (canals tile) = 12
    assert bd(result, 0) == {"track": 5, "canals": 3, "majorities": 4}
    # Bea builds right, then left: both sections are hers, one tile each
    r2 = rnd("44444", order(2, 1, {1: [canal("red", "right"), canal("red", "left")]}))
    result = replay(make_log(2, [r1, r2]))
    assert seat(result, 1)["canals"] == {"left": 1, "right": 1}
    assert seat(result, 1)["florins"] == 3  # 5 - 1 - 1


def test_action_house_pays_a_worker_of_the_cards_colour() -> None:
    """Action V: a new house of the card's colour for 1 worker of that colour."""
    given = {0: [house("purple"), house("yellow")]}
    result = replay(make_log(2, [quiet_round(2, 0, given)]))
    ada = seat(result, 0)
    assert ada["workers"] == wk(blue=1, brown=1, red=5, purple=0, yellow=0)  # red: 1 + 2 x 2
    assert ada["tableau"] == [
        {"color": "purple", "person": None},
        {"color": "yellow", "person": None},
    ]
    assert bd(result, 0) == {"track": 5, "houses": 2}
    twice = make_log(2, [quiet_round(2, 0, {0: [house("blue"), house("blue")]})])
    assert where(rejected(twice)) == ("not_enough_workers", 1, 3, 0)


def test_action_person_pays_its_price_into_an_empty_house_of_any_colour() -> None:
    """Action VI and B4: the price is paid; a person's colour need not match its house; it
    scores price / 3."""
    p = person("pr", 3, name="Principe", group="nobles", icon="worker", worker="yellow")
    result = replay(make_log(2, [quiet_round(2, 0, {0: [house("red"), hire("purple", 0, p)]})]))
    ada = seat(result, 0)
    assert ada["tableau"] == [{"color": "red", "person": "pr"}]
    assert ada["florins"] == 2  # 5 - 3
    # 5 + 1 (3 / 3) + 1 (house) + 4 (persons tile) = 11
    assert bd(result, 0) == {"track": 5, "persons": 1, "houses": 1, "majorities": 4}
    assert ada["hired"]["nobles"] == 1
    none = make_log(2, [quiet_round(2, 0, {0: [hire("purple", 0, p)]})])
    assert where(rejected(none)) == ("no_empty_house", 1, 1, 0)


def test_b4_person_prices_and_their_points() -> None:
    """B4: a price is a multiple of 3 from 0 to 12 and scores price / 3."""
    prices = [0, 3, 6, 9, 12]
    steps: list[dict[str, Any]] = [eff("bk", florins=30, workers={"red": 4}, plays=7)]
    steps += [house("red")] * 4
    steps += [hire("blue", k + 1, person(f"x{price}", price)) for k, price in enumerate(prices[1:])]
    result = replay(make_log(2, [quiet_round(2, 0, {0: [*with_banker(), steps]})]))
    ada = seat(result, 0)
    assert ada["persons"] == 5 and ada["houses"] == 5
    assert ada["florins"] == 5 + 30 - (3 + 6 + 9 + 12)  # 5
    # persons: 0 + 1 + 2 + 3 + 4 = 10; 5 + 10 + 5 (houses) + 4 (persons tile) = 24
    assert bd(result, 0) == {"track": 5, "persons": 10, "houses": 5, "majorities": 4}
    bad = make_log(2, [quiet_round(2, 0, {0: [house("red"), hire("blue", 0, person("q", 4))]})])
    assert where(rejected(bad)) == ("bad_person", 1, 3, 0)


# --- B3: canals, statues and the pile -------------------------------------------------------------


def full_section(section: str, pid: str = "bk") -> list[dict[str, Any]]:
    """One turn completing ``section`` from empty: 15 florins (1 + 2 + 3 + 4 + 5) from the
    banker ``pid``, then 5 cards."""
    return [eff(pid, florins=15, plays=4)] + [canal("red", section)] * 5


def test_statue_pile_order_and_limits() -> None:
    """B3: completing a section takes the top statue (7, then 6, 5, 4, 3, 2); at most one per
    section and two per player; none when the pile is empty."""
    r1 = quiet_round(4, 0, {s: with_banker(f"bk{s}") for s in range(4)})

    given = {s: [full_section("left", f"bk{s}"), full_section("right", f"bk{s}")] for s in range(4)}
    r2 = quiet_round(4, 1, given)  # order 1, 2, 3, 0
    result = replay(make_log(4, [r1, r2]))
    statues = [seat(result, s)["statues"] for s in range(4)]
    # turn order 1, 2, 3, 0 (left), then 1, 2 take 3 and 2; 3 and 0 find the pile empty
    assert statues == [[4], [7, 3], [6, 2], [5]]
    assert result["statues"]["pile"] == []
    assert [
        (t["seat"], t["section"], t["value"], t["round"]) for t in result["statues"]["taken"]
    ] == [
        (1, "left", 7, 2),
        (2, "left", 6, 2),
        (3, "left", 5, 2),
        (0, "left", 4, 2),
        (1, "right", 3, 2),
        (2, "right", 2, 2),
    ]
    for s, values in enumerate(statues):
        p = seat(result, s)
        assert p["canals"] == {"left": 5, "right": 5}
        assert p["florins"] == 5  # +30 -30
        # 5 + 1 (house) + 6 (two 3rd spaces) + the statues; persons tile round 1: all tie
        assert p["breakdown"]["statues"] == sum(values)
        assert p["score"] == 5 + 1 + 6 + sum(values)
    assert scores(result) == [16, 22, 20, 17]


def test_a_section_completed_again_after_a_fire_takes_no_statue() -> None:
    """B3 and "Incendio": the statue stays; completing the section again takes none."""
    red = five_of("red")
    r1 = rnd(red, order(2, 0, {0: [*with_banker(), full_section("left")]}))
    r2 = rnd(red, order(2, 1))
    r3 = rnd(
        red,
        order(2, 0, {0: [[eff("bk", florins=5), canal("red", "left")]], 1: with_banker("bb")}),
        penalties=[pen(0, "red", section="left"), pen(1, "red")],
    )
    r4 = rnd(QUIET, order(2, 1, {1: [full_section("left", "bb")]}))
    result = replay(make_log(2, [r1, r2, r3, r4]))
    ada, bea = seat(result, 0), seat(result, 1)
    assert ada["canals"]["left"] == 5  # burnt to 4, then the 5th space again
    assert ada["statues"] == [7]  # kept after the fire, none for the second completion
    assert bea["statues"] == [6]  # the pile went on: 6 was on top
    assert [(t["seat"], t["value"], t["round"]) for t in result["statues"]["taken"]] == [
        (0, 7, 1),
        (1, 6, 4),
    ]
    assert result["statues"]["pile"] == [5, 4, 3, 2]


# --- B4: houses and persons -----------------------------------------------------------------------


def test_b8_house_index_counts_the_houses_as_they_stand() -> None:
    """B8: `house` is the 0-based position among the houses as they stand; a house lost to
    fire is removed and later ones move up."""
    r1 = {0: [house("red"), house("blue"), house("yellow"), florins("red")]}
    r3 = {0: [hire("purple", 1, person("p1", 3))]}
    log = three_rounds(
        2, five_of("red"), [r1, {}, r3], penalties=[pen(0, "red", house=1), pen(1, "red")]
    )
    result = replay(log)
    # fire on house 1 (blue): [red, yellow]; house 1 is now the yellow one
    assert seat(result, 0)["tableau"] == [
        {"color": "red", "person": None},
        {"color": "yellow", "person": "p1"},
    ]


# --- B6: person effects ---------------------------------------------------------------------------


def test_arrow_person_acts_right_after_its_hire_once() -> None:
    """B6/B8: an `arrow` person acts only in the step right after its hire, once per hire."""
    p = person("al", 3, name="Alchimista", group="scholars")
    ok = quiet_round(2, 0, {0: [house("red"), [hire("blue", 0, p), eff("al", florins=6)]]})
    assert seat(replay(make_log(2, [ok])), 0)["florins"] == 5 - 3 + 6  # 8
    twice = quiet_round(
        2, 0, {0: [house("red"), [hire("blue", 0, p), eff("al", florins=6), eff("al", points=1)]]}
    )
    assert where(rejected(make_log(2, [twice]))) == ("effect_not_allowed", 1, 3, 0)
    later = quiet_round(
        2, 0, {0: [house("red"), hire("blue", 0, p), [workers("red"), eff("al", florins=6)]]}
    )
    assert where(rejected(make_log(2, [later]))) == ("effect_not_allowed", 1, 5, 0)


def test_arrow_person_acts_again_after_a_rehire() -> None:
    """B8: "an `arrow` person acts once per hire": a re-hire after a fire is a new hire."""
    p = person("al", 3)
    r1 = {0: [house("red"), house("blue"), [hire("blue", 0, p), eff("al", florins=1)]]}
    r3 = {0: [[hire("yellow", 0, "al"), eff("al", florins=2)]]}
    log = three_rounds(
        2, five_of("red"), [r1, {}, r3], penalties=[pen(0, "red", house=0), pen(1, "red")]
    )
    # 5 - 3 + 1 - 3 + 2 = 2
    assert seat(replay(log), 0)["florins"] == 2


def worker_person_log(round2: list[Any]) -> dict[str, Any]:
    """Ada hires a `worker` person paid with a yellow worker, and uses it in turn 3."""
    w = person("w1", 0, icon="worker", worker="yellow", name="Cocchiere", group="courtiers")
    r1 = quiet_round(
        2, 0, {0: [house("red"), hire("blue", 0, w), [eff("w1", florins=2), workers("yellow")]]}
    )
    r2 = quiet_round(2, 1, {0: round2})
    return make_log(2, [r1, r2])


def test_worker_person_pays_its_worker_once_per_round_in_its_owners_turns() -> None:
    """B6: a `worker` person acts only in its owner's turns, once per round, and pays its
    worker colour itself (B8: before its gain)."""
    log = worker_person_log([workers("red"), [eff("w1", points=2), workers("blue")]])
    result = replay(log)
    ada = seat(result, 0)
    # round 1: yellow 1 - 1 (w1) + 2 = 2; round 2: - 1 (w1) = 1
    assert ada["workers"]["yellow"] == 1
    assert ada["florins"] == 5 + 2
    # track 5 + 2; + 0 (price 0) + 1 (house) + 4 (persons tile) = 12
    assert ada["score"] == 12
    twice = worker_person_log([[eff("w1", points=2), workers("red")], [eff("w1", points=2)]])
    assert where(rejected(twice)) == ("effect_not_allowed", 2, 4, 0)
    # in Bea's turn (round 2, turn 1 is Bea's): not its owner's turn
    log = worker_person_log([])
    log["rounds"][1]["turns"][0] = turn(1, eff("w1", seat=0, points=2), workers("red"))
    assert where(rejected(log)) == ("effect_not_allowed", 2, 1, 0)


def test_infinity_persons_have_no_limit_and_act_in_other_seats_turns() -> None:
    """B6: `infinity` persons have no limit; another seat's infinity person triggered by what
    happened in this turn names its owner."""
    r1 = quiet_round(2, 0, {1: with_banker("b1")})
    r2 = quiet_round(
        2,
        1,
        {
            0: [
                [
                    workers("red"),
                    eff("b1", seat=1, florins=1),
                    eff("b1", seat=1, florins=1),
                ]
            ],
            1: [[eff("b1", points=1), workers("red"), eff("b1", points=1)]],
        },
    )
    result = replay(make_log(2, [r1, r2]))
    assert seat(result, 1)["florins"] == 7  # 5 + 1 + 1
    # Bea: 5 + 2 (track) + 1 (house) + 4 (persons tile) = 12
    assert scores(result) == [5, 12]
    plays = copy.deepcopy(r2)
    plays["turns"][1] = turn(0, workers("red"), eff("b1", seat=1, plays=1), workers("red"))
    assert where(rejected(make_log(2, [r1, plays]))) == ("bad_gain", 2, 2, 1)


def test_upkeep_effects_run_at_draw_dice_or_prestige() -> None:
    """B6: effects outside phase 3 go in `upkeep`: `draw` before the dice, `dice` (the
    default) after the penalties and before prestige, `prestige` after prestige."""
    r1 = quiet_round(2, 0, {0: with_banker("i1")})
    spec = "22223"  # cost 2 + 2 + 2 + 2 = 8 > 5
    r2 = rnd(spec, order(2, 1), upkeep=[up(0, "i1", florins=3)], prestige=[0])
    result = replay(make_log(2, [r1, r2]))
    assert seat(result, 0)["florins"] == 0  # 5 + 3 - 8
    assert seat(result, 0)["step"] == 1
    late = rnd(spec, order(2, 1), upkeep=[up(0, "i1", at="prestige", florins=3)], prestige=[0])
    assert where(rejected(make_log(2, [r1, late]))) == ("not_enough_florins", 2, None, 0)
    # draw: before the dice; 2 yellow tokens + yellow 5 = 3: the pillage in phase 2
    r2 = rnd(
        five_of("yellow"),
        order(2, 1),
        upkeep=[up(0, "i1", at="draw", threats={"yellow": 2})],
        penalties=[pen(0, "yellow")],
    )
    result = replay(make_log(2, [r1, r2]))
    assert seat(result, 0)["florins"] == 0 and seat(result, 0)["threats"] == NO_THREATS
    assert seat(result, 1)["threats"] == wk(yellow=1)
    assert seat(result, 0)["score"] == 5 + 1 + 4  # tokens given by an effect score nothing


def test_laurel_persons_score_at_the_end_as_given() -> None:
    """B6 and "Vantaggi": a `laurel` person acts only at the end, with the points
    `final.laurels` gives (B8: one not listed scores 0; a game in progress has none)."""
    bm = person("bm", 6, icon="laurel", group="bureaucrats", name="Borgomastro")
    lb = person("lb", 0, icon="laurel", group="bureaucrats")
    r1 = quiet_round(
        2,
        0,
        {
            0: [florins("red"), house("red"), hire("blue", 0, bm)],  # 5 + 3 - 6 = 2 florins
            1: [house("red"), hire("red", 0, lb)],
        },
    )
    rounds = [r1, quiet_round(2, 1)]
    done = make_log(2, rounds, final=final(laurel(0, "bm", 4)))
    result = replay(done)
    assert result["complete"] is True
    # Ada: 5 + 2 (price 6) + 1 (house) + 4 (laurel) = 12; Bea: 5 + 0 + 1 + 0 (lb not listed)
    # persons: 1 each, a tie: no tile
    assert bd(result, 0) == {"track": 5, "persons": 2, "houses": 1, "laurels": 4}
    assert bd(result, 1) == {"track": 5, "houses": 1}
    assert seat(result, 0)["laurels"] == [{"person": "bm", "points": 4}]
    in_progress = replay(make_log(2, rounds))
    assert in_progress["complete"] is False
    assert scores(in_progress) == [8, 6]  # provisional: no laurels
    # result(finish=) overrides the log's final
    state = ENGINE.start(done)
    for entry in rounds:
        state = ENGINE.apply_entry(state, entry)
    assert scores(ENGINE.result(state)) == [12, 6]
    other = ENGINE.result(state, finish={"final": final(laurel(0, "bm", 1), laurel(1, "lb", 7))})
    assert scores(other) == [9, 13]
    # a laurel person in play acts only at the end
    bad = make_log(2, [r1, quiet_round(2, 1, {0: [[eff("bm", points=2), workers("red")]]})])
    assert where(rejected(bad)) == ("effect_not_allowed", 2, 2, 0)


def test_threat_tokens_returned_by_an_effect_score_a_point_each() -> None:
    """B6 and action III's note: every token returned (also by a person) scores 1 point; B8:
    a negative `threats` entry, not counted in `points`."""
    t3 = [eff("bk", threats={"red": -1}, points=2), workers("red")]
    r1 = rnd("34565", order(2, 0, {0: [*with_banker(), t3]}))
    result = replay(make_log(2, [r1]))
    ada = seat(result, 0)
    assert ada["threats"] == wk(purple=1, yellow=1)  # red 5, purple 6, yellow 5; red returned
    assert ada["breakdown"]["track"] == 5 + 2 + 1  # 8


# --- B5: majorities after every round -------------------------------------------------------------


def test_majorities_after_every_round() -> None:
    """Phase 4 and B5: a player alone in the lead flips the tile for good; ties flip nothing;
    a lead needs step 1, a person, a tile; several players can flip the same tile."""
    spec = "13343"  # blue 1: prestige costs 1
    r1 = rnd(spec, order(3, 0, {0: [canal("red", "left")]}), prestige=[0, 1])
    r2 = rnd(spec, order(3, 1, {1: [canal("red", "left"), canal("red", "right")]}), prestige=[1])
    log = make_log(3, [r1, r2])
    state = ENGINE.start(log)
    state = ENGINE.apply_entry(state, r1)
    after1 = ENGINE.result(state)
    # round 1: steps 1, 1, 0 (a tie: no one); no person (no lead at 0); tiles 1, 0, 0: Ada
    assert after1["majorities"] == {"prestige": [], "persons": [], "canals": [0]}
    assert [seat(after1, s)["majorities"] for s in range(3)] == [["canals"], [], []]
    state = ENGINE.apply_entry(state, r2)
    result = ENGINE.result(state)
    # round 2: steps 1, 2, 0: Bea; tiles 1, 2, 0: Bea; Ada keeps her canals tile
    assert result["majorities"] == {"prestige": [1], "persons": [], "canals": [0, 1]}
    assert [seat(result, s)["majorities"] for s in range(3)] == [
        ["canals"],
        ["prestige", "canals"],
        [],
    ]
    # Ada: 5 + 4 + 1 (step 1) = 10; Bea: 5 + 8 + 2 (step 2) = 15; Cy 5
    assert scores(result) == [10, 15, 5]
    assert result == ENGINE.replay(log)


def test_round_record_of_the_worked_example() -> None:
    """docs/bruges-engine.md, "The result": per round its first player, the prestige cost and,
    per seat (lists indexed by seat), the net changes; the tiles flipped as [seat, tile] in the
    order of phase 4 (prestige, persons, canals)."""
    result = replay(worked_example())
    assert result["rounds"] == [
        {
            "round": 1,
            "first_player": 0,
            "prestige_cost": 3,  # blue 2 + red 1
            # Ada: points 0; florins +2 (blue die) - 6 + 6 = 2; workers +2 red - 1 (house) = 1
            # Bea: points +1 (token); florins -3 + 6 - 1 = 2; workers +2 purple
            "points": [0, 1],
            "florins": [2, 2],
            "workers": [1, 2],
            "prestige": [0, 1],
            "houses": [1, 0],
            "persons": [1, 0],
            "tiles": [0, 1],
            "statues": [],
            "penalties": [],
            # B5: Bea leads prestige (step 1), Ada persons (one), Bea canals (one tile).
            "flipped": [[1, "prestige"], [0, "persons"], [1, "canals"]],
        }
    ]


def test_no_majority_at_zero() -> None:
    """B5: a lead needs at least step 1, one person, one tile: nobody leads with nothing."""
    result = replay(make_log(2, [quiet_round(2, 0), quiet_round(2, 1)]))
    assert result["majorities"] == {"prestige": [], "persons": [], "canals": []}


# --- End and B7: final scoring --------------------------------------------------------------------


def test_final_scoring_by_category_the_rulebooks_example() -> None:
    """ "Fine del gioco e punteggio", its example: persons 3 + 1 + 2 + 0 + 2 = 8, 6 houses, the
    Borgomastro's laurel 2 x 2 = 4, two majority tiles 8, a 3rd canal space 3, step 6 = 7:
    36 points besides the score track."""
    steps: list[dict[str, Any]] = [
        eff("bk", florins=25, prestige=6, workers={"red": 5}, plays=8),
        *[house("red")] * 5,
        hire("purple", 1, person("pr", 9, name="Principe", group="nobles")),
        hire("yellow", 2, person("co", 3, name="Consigliere", group="bureaucrats")),
        hire("brown", 3, person("bm", 6, name="Borgomastro", group="bureaucrats", icon="laurel")),
        hire("red", 4, person("p5", 6, group="artists")),
    ]
    r1 = quiet_round(
        2,
        0,
        {
            0: [*with_banker(), steps, pas(0)],
            # Bea: 5 + 4 + 4 (brown and purple dice) - 1 - 2 = 10
            1: [florins("brown"), florins("purple"), canal("red", "left"), canal("red", "left")],
        },
    )
    r2 = quiet_round(
        2,
        1,
        {
            0: [canal("blue", "left"), canal("blue", "left"), canal("blue", "left")],
            1: [canal("red", "left"), canal("red", "left")],  # 10 - 3 - 4 = 3
        },
    )
    result = replay(make_log(2, [r1, r2], final=final(laurel(0, "bm", 4))))
    ada, bea = seat(result, 0), seat(result, 1)
    assert ada["breakdown"] == {
        "track": 5,
        "persons": 8,
        "houses": 6,
        "laurels": 4,
        "majorities": 8,  # prestige and persons; Bea led the canals in both rounds (2, 4 > 3)
        "canals": 3,
        "statues": 0,
        "prestige": 7,  # step 6 = 7 (the rulebook's example)
    }
    assert ada["score"] == 36 + 5
    assert ada["florins"] == 5 + 25 - 9 - 3 - 6 - 6 - 1 - 2 - 3  # 0
    # Bea: 5 + 4 (canals tile) + 3 (3rd space) = 12
    assert bea["breakdown"]["majorities"] == 4 and bea["score"] == 12
    assert bea["florins"] == 3
    assert result["winners"] == [0]
    assert ada["cards_played"] == 1 + 1 + 9 + 3 + 1  # round 1: 11 cards and a pass


def test_florins_break_a_tie_then_it_is_shared() -> None:
    """B7: most points wins; a tie goes to the most florins; a tie there is shared
    (competition ranking 1, 1, 3)."""
    r1 = quiet_round(3, 0, {0: [florins("blue")]})  # Ada 5 + 3 = 8 florins
    result = replay(make_log(3, [r1]))
    assert scores(result) == [5, 5, 5]
    assert ranks(result) == [1, 2, 2]
    assert tiebreaks(result) == ["florins", "shared", "shared"]
    r1 = quiet_round(3, 0, {0: [florins("blue")], 1: [florins("red")]})  # 8, 8, 5
    result = replay(make_log(3, [r1]))
    assert ranks(result) == [1, 1, 3]
    assert tiebreaks(result) == ["shared", "shared", "florins"]
    assert result["winners"] == [0, 1]


def test_most_points_win_whatever_the_florins() -> None:
    """B7: the florins only break a tie of points."""
    r1 = quiet_round(2, 0, {0: [florins("blue")] * 4, 1: [house("red")]})
    result = replay(make_log(2, [r1]))
    # Ada 5 points, 5 + 12 florins; Bea 5 + 1 (house) = 6 points, 5 florins
    assert scores(result) == [5, 6] and ranks(result) == [2, 1]
    assert tiebreaks(result) == [None, None]


# --- B8: the details ------------------------------------------------------------------------------


def test_b8_a_turn_plays_one_card_plus_the_extra_plays_effects_anywhere() -> None:
    """B8: exactly one card plus the extra plays granted so far; effects may come before,
    between or after the cards."""
    t3 = [
        eff("bk", florins=1),
        eff("bk", plays=1),
        workers("blue"),
        eff("bk", florins=1),
        workers("blue"),
        eff("bk", points=1),
    ]
    result = replay(make_log(2, [quiet_round(2, 0, {0: [*with_banker(), t3]})]))
    ada = seat(result, 0)
    assert ada["workers"]["blue"] == 5 and ada["florins"] == 7
    assert ada["cards_played"] == 5  # 1 + 1 + 2 + 1
    too_many = [workers("blue"), workers("blue")]
    log = make_log(2, [quiet_round(2, 0, {0: [too_many]})])
    assert where(rejected(log)) == ("wrong_play_count", 1, 1, 0)
    unused = [eff("bk", plays=1), workers("blue")]
    log = make_log(2, [quiet_round(2, 0, {0: [*with_banker(), unused]})])
    assert where(rejected(log)) == ("wrong_play_count", 1, 5, 0)


def test_b8_a_gain_applies_all_its_parts_at_once() -> None:
    """B8: a gain applies all its parts at once, then no count may be below zero: 5 - 6 points
    and 1 point for a returned token is 0, not -1 on the way."""
    t3 = [eff("bk", points=-6, threats={"red": -1}), workers("red")]
    r1 = rnd(five_of("red"), order(2, 0, {0: [*with_banker(), t3]}))
    result = replay(make_log(2, [r1]))
    assert seat(result, 0)["breakdown"]["track"] == 0  # 5 - 6 + 1
    t3 = [eff("bk", points=-7, threats={"red": -1}), workers("red")]
    r1 = rnd(five_of("red"), order(2, 0, {0: [*with_banker(), t3]}))
    assert where(rejected(make_log(2, [r1]))) == ("below_zero", 1, 5, 0)


def test_b8_unknown_keys_in_a_gain_are_refused() -> None:
    """B8: unknown keys in a gain are refused."""
    t3 = [eff("bk", cards=1), workers("red")]
    log = make_log(2, [quiet_round(2, 0, {0: [*with_banker(), t3]})])
    assert where(rejected(log)) == ("bad_gain", 1, 5, 0)


def test_b8_a_gain_reaching_three_tokens_is_followed_by_its_penalty() -> None:
    """B8: a gain that brings a seat's tokens of a colour to 3 is followed at once by that
    penalty as a step (in `upkeep`, as the next entry with the same `at`)."""
    t3 = [eff("bk", threats={"purple": 3}), pen_step(0, "purple"), workers("red")]
    result = replay(make_log(2, [quiet_round(2, 0, {0: [*with_banker(), t3]})]))
    ada = seat(result, 0)
    assert ada["threats"] == NO_THREATS and ada["penalties"]["purple"] == 1
    assert ada["breakdown"]["track"] == 2  # 5 - 3; the tokens given scored nothing
    missing = [eff("bk", threats={"purple": 3}), workers("red")]
    log = make_log(2, [quiet_round(2, 0, {0: [*with_banker(), missing]})])
    assert where(rejected(log)) == ("missing_penalty", 1, 5, 0)
    r1 = quiet_round(2, 0, {0: with_banker()})
    r2 = quiet_round(
        2,
        1,
        upkeep=[
            up(0, "bk", at="prestige", threats={"yellow": 3}),
            {"penalty": pen(0, "yellow"), "at": "prestige"},
        ],
    )
    result = replay(make_log(2, [r1, r2]))
    assert seat(result, 0)["florins"] == 0 and seat(result, 0)["penalties"]["yellow"] == 1


def test_b8_a_worker_person_pays_before_its_gain() -> None:
    """B8: a `worker` person pays its worker before its gain: with no yellow worker, a gain of
    one does not pay for it."""
    w = person("w1", 0, icon="worker", worker="yellow")
    given = {0: [house("yellow"), [hire("blue", 0, w), eff("w1", workers={"yellow": 1})]]}
    log = make_log(2, [quiet_round(2, 0, given)])
    assert where(rejected(log)) == ("not_enough_workers", 1, 3, 0)


def test_b8_penalties_listed_once_each_and_only_when_triggered() -> None:
    """B8: each triggered (seat, colour) is listed exactly once, with a choice only where one
    is needed."""
    base = three_rounds(2, five_of("yellow"), [{}, {}, {}])
    assert where(rejected(base)) == ("missing_penalty", 3, None, 0)
    base["rounds"][2]["penalties"] = [pen(0, "yellow"), pen(1, "yellow"), pen(0, "yellow")]
    assert where(rejected(base)) == ("unexpected_penalty", 3, None, 0)
    base["rounds"][2]["penalties"] = [pen(0, "yellow", house=0), pen(1, "yellow")]
    assert where(rejected(base)) == ("bad_penalty_choice", 3, None, 0)


def test_b8_final_laurels_each_once_with_points_at_least_zero() -> None:
    """B8: `final.laurels` lists each laurel person at most once with points >= 0."""
    bm = person("bm", 0, icon="laurel", group="bureaucrats")
    rounds = [quiet_round(2, 0, {0: [house("red"), hire("blue", 0, bm)]}), quiet_round(2, 1)]
    twice = make_log(2, rounds, final=final(laurel(0, "bm", 2), laurel(0, "bm", 2)))
    assert where(rejected(twice)) == ("bad_laurels", None, None, 0)
    negative = make_log(2, rounds, final=final(laurel(0, "bm", -1)))
    assert where(rejected(negative)) == ("bad_laurels", None, None, 0)
    zero = replay(make_log(2, rounds, final=final(laurel(0, "bm", 0))))
    assert seat(zero, 0)["breakdown"]["laurels"] == 0
    assert scores(zero) == [5 + 1 + 4, 5]  # 0 laurel points; house; persons tile


def test_b8_unknown_keys_are_ignored_and_missing_lists_are_empty() -> None:
    """B8: keys the format does not define are ignored (outside `gain`); missing
    `penalties`, `prestige`, `upkeep` mean empty lists."""
    log = worked_example()
    plain = replay(log)
    noisy = copy.deepcopy(log)
    noisy.update(played_on="2024-05-01", location="Brugge", notes="n", extra=1)
    noisy["rounds"][0]["comment"] = "x"
    noisy["rounds"][0]["turns"][0]["why"] = "y"
    noisy["rounds"][0]["turns"][0]["steps"][0]["note"] = "z"
    noisy["rounds"][0]["turns"][6]["steps"][0]["person"]["text"] = "6 florins"
    noisy["rounds"][0]["turns"][6]["steps"][1]["why"] = "arrow"
    assert replay(noisy)["players"] == plain["players"]
    pens = penalties_log()
    for entry in pens["rounds"][2]["penalties"]:
        entry["note"] = "ignored"
    assert replay(pens)["players"] == replay(penalties_log())["players"]
    r = quiet_round(2, 0)
    explicit = make_log(2, [{**r, "penalties": [], "prestige": [], "upkeep": []}])
    assert replay(make_log(2, [r]))["players"] == replay(explicit)["players"]
    assert "penalties" not in r and "upkeep" not in r


def test_b8_dice_entry_order_in_a_round() -> None:
    """Rules "A round": the dice give tokens before prestige, and prestige is paid before the
    turns (a florins action this round cannot pay for it)."""
    spec = "11111"  # cost 5 (every die shows 1)
    log = make_log(2, [rnd(spec, order(2, 0, {0: [florins("red")]}), prestige=[0])])
    result = replay(log)
    assert seat(result, 0)["florins"] == 5 - 5 + 1  # 1
    assert dice(spec)["red"] == 1  # the red florins action took 1
