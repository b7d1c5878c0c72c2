"""One test (at least) per error code of the Bruges engine (``docs/bruges-engine.md``).

Each test checks the exact ``.code``, ``.round``, ``.turn`` and ``.seat``: ``None`` for the log
header and for ``final``; ``round`` is the 1-based round, ``turn`` the 1-based turn within the
round's ``turns`` (``None`` outside the turns: dice, penalties, prestige, upkeep). Every log here
breaks one rule only, at the place named. 2-player games (Ada, Bea; ``first_player`` 0) unless
a test says otherwise; the dice are ``QUIET`` (no token, no prestige).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from scoring.engine.bruges import ENGINE
from scoring.engine.bruges.editions import edition_from_dict
from scoring.engine.errors import LogError
from tests.engine.bruges.logs import (
    QUIET,
    canal,
    card,
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
    person,
    quiet_round,
    rnd,
    threat,
    turn,
    up,
    workers,
)
from tests.paths import ROOT

DOC = ROOT / "docs" / "bruges-engine.md"

CODES = {
    "malformed",
    "unsupported_format",
    "bad_player_count",
    "bad_first_player",
    "bad_teams",
    "unknown_edition",
    "bad_edition",
    "bad_dice",
    "bad_seat",
    "bad_color",
    "unexpected_penalty",
    "missing_penalty",
    "bad_penalty_choice",
    "prestige_not_allowed",
    "prestige_out_of_order",
    "prestige_at_top",
    "not_enough_florins",
    "not_enough_workers",
    "out_of_turn",
    "missing_turn",
    "extra_turn",
    "early_pass",
    "wrong_play_count",
    "bad_card",
    "unknown_action",
    "no_threat_token",
    "bad_section",
    "canal_full",
    "wrong_space_color",
    "no_empty_house",
    "bad_person",
    "unknown_person",
    "person_gone",
    "effect_not_allowed",
    "bad_gain",
    "below_zero",
    "bad_laurels",
}


def rejected(log: Any, **kw: Any) -> LogError:
    with pytest.raises(LogError) as info:
        ENGINE.replay(log, **kw)
    return info.value


def assert_error(
    log: Any, code: str, round_: int | None, turn_: int | None, seat: int | None, **kw: Any
) -> None:
    err = rejected(log, **kw)
    assert (err.code, err.round, err.turn, err.seat) == (code, round_, turn_, seat), repr(err)


def assert_header_error(log: Any, code: str, **kw: Any) -> None:
    """A header error: raised by ``replay`` and by ``start``, with no round, turn or seat."""
    assert_error(log, code, None, None, None, **kw)
    with pytest.raises(LogError) as info:
        ENGINE.start(log, **kw)
    assert (info.value.code, info.value.round, info.value.turn, info.value.seat) == (
        code,
        None,
        None,
        None,
    )


def one_round(given: dict[int, list[Any]] | None = None, **kw: Any) -> dict[str, Any]:
    """A 2-player log of one quiet round."""
    return make_log(2, [quiet_round(2, 0, given, **kw)])


def with_banker(pid: str = "bk") -> list[Any]:
    """A seat's first two turns: a red house, then an ``infinity`` person ``pid`` in it."""
    return [house("red"), hire("blue", 0, person(pid, 0, icon="infinity"))]


def tokens_log(color: str, n_rounds: int = 3, **last: Any) -> dict[str, Any]:
    """``n_rounds`` rounds where only ``color`` shows 5: its third token comes in round 3."""
    rounds = []
    for k in range(n_rounds):
        kw = last if k == n_rounds - 1 else {}
        rounds.append(rnd(five_of(color), order(2, k % 2), **kw))
    return make_log(2, rounds)


def test_the_doc_lists_exactly_these_codes() -> None:
    """Every code of the doc's table has its test below, and no other code is tested."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Error codes", 1)[1]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.MULTILINE))
    assert documented == CODES


def test_a_valid_log_replays() -> None:
    # the base the errors below break
    ENGINE.replay(one_round({0: [house("red"), florins("blue")], 1: [canal("red", "left")]}))


# --- Header ---------------------------------------------------------------------------------------


def test_malformed_log_not_an_object() -> None:
    assert_error(["bruges-log/1"], "malformed", None, None, None)


@pytest.mark.parametrize(
    "players",
    [None, "Ada, Bea", ["Ada", ""], ["Ada", 2]],
    ids=["null", "string", "empty-name", "int-name"],
)
def test_malformed_players(players: Any) -> None:
    log = make_log(2, [])
    log["players"] = players
    assert_header_error(log, "malformed")


def test_malformed_round_shape() -> None:
    # the doc's example: round 1 "turns": "none"
    log = one_round()
    log["rounds"][0]["turns"] = "none"
    assert_error(log, "malformed", 1, None, None)


def test_malformed_pass_with_steps() -> None:
    log = one_round()
    log["rounds"][0]["turns"][0] = {"seat": 0, "pass": True, "steps": [workers("red")]}
    assert_error(log, "malformed", 1, 1, 0)


def test_malformed_step_neither_card_effect_nor_penalty() -> None:
    log = one_round()
    log["rounds"][0]["turns"][2] = turn(0, {"nothing": 1})
    assert_error(log, "malformed", 1, 3, 0)


def test_malformed_upkeep_at() -> None:
    # the entry's shape is refused before its seat is read
    log = one_round(upkeep=[up(0, "bk", at="lunch", florins=1)])
    assert_error(log, "malformed", 1, None, None)


def test_malformed_laurel_points() -> None:
    log = make_log(
        2, laurel_rounds(), final={"laurels": [{"seat": 0, "person": "l", "points": "2"}]}
    )
    assert_error(log, "malformed", None, None, 0)


@pytest.mark.parametrize("fmt", ["bruges-log/2", "complots-log/1", None, 1])
def test_unsupported_format(fmt: Any) -> None:
    log = make_log(2, [])
    log["format"] = fmt
    assert_header_error(log, "unsupported_format")


@pytest.mark.parametrize("n", [1, 5])
def test_bad_player_count(n: int) -> None:
    # "per 2-4 giocatori"
    log = make_log(2, [])
    log["players"] = [f"P{k}" for k in range(n)]
    assert_header_error(log, "bad_player_count")


@pytest.mark.parametrize("first", [2, -1])
def test_bad_first_player(first: int) -> None:
    assert_header_error(make_log(2, [], first=first), "bad_first_player")


def test_bad_teams() -> None:
    log = make_log(2, [])
    log["teams"] = [[0], [1]]
    assert_header_error(log, "bad_teams")


def test_unknown_edition() -> None:
    assert_header_error(make_log(2, [], edition="deluxe"), "unknown_edition")


def test_bad_edition() -> None:

    space = {"cost": 1, "color": None}
    bad = {
        "id": "x",
        "prestige_points": [0, 1],
        "canal": {"left": [space] * 5, "right": [space] * 5},
    }
    with pytest.raises(LogError) as info:
        edition_from_dict(bad)
    assert info.value.code == "bad_edition"
    assert_header_error(make_log(2, []), "bad_edition", edition=bad)


@pytest.mark.parametrize(
    "change",
    [
        {"prestige_points": list(range(13))[:-1] + [-1]},
        {"canal": {"left": [{"cost": 1, "color": "green"}] * 5, "right": [{"cost": 1}] * 5}},
        {"canal": {"left": [{"cost": 1, "color": None}] * 4, "right": []}},
        {"id": ""},
    ],
    ids=["negative-points", "bad-colour", "four-spaces", "empty-id"],
)
def test_bad_edition_fields(change: dict[str, Any]) -> None:

    space = {"cost": 1, "color": None}
    data: dict[str, Any] = {
        "id": "x",
        "prestige_points": list(range(13)),
        "canal": {"left": [space] * 5, "right": [space] * 5},
    }
    edition_from_dict(data)  # the base is fine
    data.update(change)
    with pytest.raises(LogError) as info:
        edition_from_dict(data)
    assert info.value.code == "bad_edition"


# --- Dice, penalties, prestige --------------------------------------------------------------------


@pytest.mark.parametrize(
    "dice",
    [{"blue": 7}, {"blue": 0}, {"blue": "3"}, None],
    ids=["seven", "zero", "string", "missing"],
)
def test_bad_dice(dice: Any) -> None:
    log = one_round()
    if dice is None:
        del log["rounds"][0]["dice"]["purple"]
    else:
        log["rounds"][0]["dice"].update(dice)
    assert_error(log, "bad_dice", 1, None, None)


def test_bad_seat_in_prestige() -> None:
    # `.seat` is the integer given, which is no seat of the game
    log = make_log(2, [rnd("13343", order(2, 0), prestige=[2])])
    assert_error(log, "bad_seat", 1, None, 2)


def test_bad_seat_in_a_penalty() -> None:
    log = tokens_log("yellow", penalties=[pen(0, "yellow"), pen(1, "yellow"), pen(3, "yellow")])
    assert_error(log, "bad_seat", 3, None, 3)


def test_bad_color() -> None:
    log = one_round(penalties=[pen(0, "green")])
    assert_error(log, "bad_color", 1, None, 0)


def test_unexpected_penalty() -> None:
    # the doc's example: dice brown 5 once, a brown penalty for Ada
    log = make_log(2, [rnd(five_of("brown"), order(2, 0), penalties=[pen(0, "brown")])])
    assert_error(log, "unexpected_penalty", 1, None, 0)


def test_missing_penalty() -> None:
    # the doc's example: three rounds of red 6, no penalty in round 3: the lowest seat first
    rounds = [rnd("34643", order(2, k % 2)) for k in range(3)]
    assert_error(make_log(2, rounds), "missing_penalty", 3, None, 0)
    rounds[2]["penalties"] = [pen(0, "red")]
    assert_error(make_log(2, rounds), "missing_penalty", 3, None, 1)


def test_bad_penalty_choice() -> None:
    # the doc's example: a yellow penalty with a house
    log = tokens_log("yellow", penalties=[pen(0, "yellow", house=0), pen(1, "yellow")])
    assert_error(log, "bad_penalty_choice", 3, None, 0)


def test_bad_penalty_choice_red_without_a_choice() -> None:
    log = tokens_log("red", penalties=[pen(0, "red"), pen(1, "red")])
    log["rounds"][0] = rnd(five_of("red"), order(2, 0, {0: [house("red")]}))
    assert_error(log, "bad_penalty_choice", 3, None, 0)


def test_bad_penalty_choice_brown_person_not_this_seats() -> None:
    given = {
        0: [house("red"), hire("red", 0, person("x", 0))],
        1: [house("red"), hire("red", 0, person("z", 0))],
    }
    log = tokens_log("brown", penalties=[pen(0, "brown", person="z"), pen(1, "brown", person="z")])
    log["rounds"][0] = rnd(five_of("brown"), order(2, 0, given))
    assert_error(log, "bad_penalty_choice", 3, None, 0)


def test_prestige_not_allowed() -> None:
    # the doc's example: dice 34343, "prestige": [0]
    log = make_log(2, [rnd(QUIET, order(2, 0), prestige=[0])])
    assert_error(log, "prestige_not_allowed", 1, None, 0)


def test_prestige_out_of_order() -> None:
    # the doc's example: round 2 (first player Bea): [0, 1] -> seat 1
    r1 = quiet_round(2, 0)
    r2 = rnd("13343", order(2, 1), prestige=[0, 1])
    assert_error(make_log(2, [r1, r2]), "prestige_out_of_order", 2, None, 1)


def test_prestige_at_top() -> None:
    r1 = quiet_round(2, 0, {0: [*with_banker(), [eff("bk", prestige=12), workers("red")]]})
    r2 = rnd("13343", order(2, 1), prestige=[1, 0])
    assert_error(make_log(2, [r1, r2]), "prestige_at_top", 2, None, 0)


def test_not_enough_florins_for_prestige() -> None:
    # the doc's example: dice 21222: cost 2 + 1 + 2 + 2 + 2 = 9 with 5 florins
    log = make_log(2, [rnd("21222", order(2, 0), prestige=[0])])
    assert_error(log, "not_enough_florins", 1, None, 0)


def test_not_enough_florins_for_a_canal_space() -> None:
    given = {1: [canal("red", "left"), canal("red", "left"), canal("red", "left")]}
    assert_error(one_round(given), "not_enough_florins", 1, 6, 1)  # 1 + 2 + 3 = 6 > 5


def test_not_enough_florins_for_a_person() -> None:
    given = {0: [house("red"), hire("blue", 0, person("p", 6))]}
    assert_error(one_round(given), "not_enough_florins", 1, 3, 0)


# --- Turns -------------------------------------------------------------------------------------


def test_not_enough_workers_for_a_house() -> None:
    # the doc's example: a house with a blue card after a blue flood
    log = tokens_log("blue", penalties=[pen(0, "blue"), pen(1, "blue")])
    log["rounds"][2]["turns"][0] = turn(0, house("blue"))
    assert_error(log, "not_enough_workers", 3, 1, 0)


def test_not_enough_workers_for_a_worker_person() -> None:
    w = person("w", 0, icon="worker", worker="purple")
    given = {0: [house("purple"), [hire("red", 0, w), eff("w", florins=1)]]}
    assert_error(one_round(given), "not_enough_workers", 1, 3, 0)


def test_out_of_turn() -> None:
    # the doc's example: round 1, turn 1 {"seat": 1, ...}
    log = one_round()
    log["rounds"][0]["turns"][0] = turn(1, workers("red"))
    assert_error(log, "out_of_turn", 1, 1, 1)


def test_missing_turn() -> None:
    # the doc's example: 7 turns in a 2-player round -> turn 8, seat 1
    log = one_round()
    log["rounds"][0]["turns"].pop()
    assert_error(log, "missing_turn", 1, 8, 1)


def test_extra_turn() -> None:
    log = one_round()
    log["rounds"][0]["turns"].append(turn(0, workers("red")))
    assert_error(log, "extra_turn", 1, 9, 0)


def test_early_pass() -> None:
    # the doc's example: turn 1 {"seat": 0, "pass": true}
    assert_error(one_round({0: [pas(0)]}), "early_pass", 1, 1, 0)


def test_early_pass_after_four_cards() -> None:
    # 4 cards played (the 3rd turn had an extra play) are not 5
    given = {1: [*with_banker(), [eff("bk", plays=1), workers("red"), workers("red")], pas(1)]}
    assert_error(one_round(given), "early_pass", 1, 8, 1)


def test_wrong_play_count_a_card_too_many() -> None:
    # the doc's example: two cards with no plays
    assert_error(one_round({0: [[workers("red"), workers("red")]]}), "wrong_play_count", 1, 1, 0)


def test_wrong_play_count_no_card() -> None:
    given = {0: [*with_banker(), [eff("bk", florins=1)]]}
    assert_error(one_round(given), "wrong_play_count", 1, 5, 0)


def test_bad_card() -> None:
    assert_error(one_round({0: [card("green", "workers")]}), "bad_card", 1, 1, 0)


def test_unknown_action() -> None:
    assert_error(one_round({0: [card("red", "steal")]}), "unknown_action", 1, 1, 0)


def test_no_threat_token() -> None:
    assert_error(one_round({1: [threat("red")]}), "no_threat_token", 1, 2, 1)


def test_bad_section() -> None:
    assert_error(one_round({0: [canal("red", "middle")]}), "bad_section", 1, 1, 0)


def test_canal_full() -> None:
    steps = [eff("bk", florins=21, plays=5)] + [canal("red", "left")] * 6
    assert_error(one_round({0: [*with_banker(), steps]}), "canal_full", 1, 5, 0)


def test_wrong_space_color() -> None:
    space = [{"cost": 1, "color": "blue"}] * 5
    edition = {"id": "blue", "prestige_points": [0] * 13, "canal": {"left": space, "right": space}}
    log = one_round({0: [canal("blue", "left"), canal("red", "right")]})
    assert_error(log, "wrong_space_color", 1, 3, 0, edition=edition)


def test_no_empty_house() -> None:
    # the doc's example: a hire with no house built
    assert_error(one_round({0: [hire("red", 0, person("p", 0))]}), "no_empty_house", 1, 1, 0)


def test_no_empty_house_occupied() -> None:
    given = {0: [house("red"), hire("red", 0, person("p", 0)), hire("red", 0, person("q", 0))]}
    assert_error(one_round(given), "no_empty_house", 1, 5, 0)


@pytest.mark.parametrize(
    "bad",
    [
        {"price": 4},
        {"price": 15},
        {"group": "pets"},
        {"icon": "star"},
        {"icon": "worker"},  # no worker colour
        {"id": ""},
    ],
    ids=["price-4", "price-15", "group", "icon", "worker-without-colour", "empty-id"],
)
def test_bad_person(bad: dict[str, Any]) -> None:
    # the doc's example: "price": 4 (B4: a multiple of 3 from 0 to 12)
    p = {**person("p", 3), **bad}
    assert_error(one_round({0: [house("red"), hire("red", 0, p)]}), "bad_person", 1, 3, 0)


def test_bad_person_object_for_an_id_already_met() -> None:
    given = {
        0: [
            house("red"),
            house("blue"),
            hire("red", 0, person("p", 0)),
            hire("red", 1, person("p", 0)),
        ]
    }
    assert_error(one_round(given), "bad_person", 1, 7, 0)


def test_unknown_person_rehire() -> None:
    assert_error(one_round({0: [house("red"), hire("red", 0, "p9")]}), "unknown_person", 1, 3, 0)


def test_unknown_person_effect() -> None:
    # the doc's example: {"effect": "p9", "gain": {}}
    log = one_round({0: [[eff("p9"), workers("red")]]})
    assert_error(log, "unknown_person", 1, 1, 0)


def test_person_gone_after_plague() -> None:
    # the doc's example: re-hiring "p3" after plague took it
    log = tokens_log("brown", penalties=[pen(0, "brown", person="p3"), pen(1, "brown")])
    log["rounds"][0] = rnd(
        five_of("brown"), order(2, 0, {0: [house("red"), hire("red", 0, person("p3", 0))]})
    )
    log["rounds"][2]["turns"][0] = turn(0, hire("blue", 0, "p3"))
    assert_error(log, "person_gone", 3, 1, 0)


def test_person_gone_in_another_seats_hand() -> None:
    log = tokens_log("red", penalties=[pen(0, "red", house=0), pen(1, "red")])
    log["rounds"][0] = rnd(
        five_of("red"), order(2, 0, {0: [house("red"), hire("red", 0, person("p3", 0))]})
    )
    log["rounds"][2]["turns"][1] = turn(1, house("red"))
    log["rounds"][2]["turns"][3] = turn(1, hire("blue", 0, "p3"))
    assert_error(log, "person_gone", 3, 4, 1)


def test_person_gone_effect_of_a_person_in_the_hand() -> None:
    log = tokens_log("red", penalties=[pen(0, "red", house=0), pen(1, "red")])
    log["rounds"][0] = rnd(
        five_of("red"),
        order(2, 0, {0: [house("red"), hire("red", 0, person("p3", 0, icon="infinity"))]}),
    )
    log["rounds"][2]["turns"][0] = turn(0, eff("p3", florins=1), workers("red"))
    assert_error(log, "person_gone", 3, 1, 0)


def test_effect_not_allowed_arrow_two_steps_after_its_hire() -> None:
    # the doc's example: the hire, a card, then the arrow's effect
    last = [eff("bk", plays=1), hire("red", 1, person("a", 0)), workers("red"), eff("a")]
    given = {0: [*with_banker(), house("blue"), last]}
    assert_error(one_round(given), "effect_not_allowed", 1, 7, 0)


def test_effect_not_allowed_laurel_during_play() -> None:
    laurel_person = person("l", 0, icon="laurel")
    given = {0: [house("red"), hire("red", 0, laurel_person), [eff("l"), workers("red")]]}
    assert_error(one_round(given), "effect_not_allowed", 1, 5, 0)


def test_effect_not_allowed_worker_twice_in_a_round() -> None:
    w = person("w", 0, icon="worker", worker="red")
    again = [eff("w"), workers("red")]
    given = {0: [house("blue"), hire("red", 0, w), again, again]}
    assert_error(one_round(given), "effect_not_allowed", 1, 7, 0)


def test_effect_not_allowed_another_seats_person_not_infinity() -> None:
    w = person("w", 0, icon="worker", worker="red")
    # Bea's third turn (turn 6), after Ada hired w in turn 3
    given = {
        0: [house("blue"), hire("red", 0, w)],
        1: [workers("red"), workers("red"), [workers("red"), eff("w", seat=0)]],
    }
    assert_error(one_round(given), "effect_not_allowed", 1, 6, 0)


def test_effect_not_allowed_another_seats_person_without_seat() -> None:
    given = {0: with_banker("b0"), 1: [workers("red"), workers("red"), [workers("red"), eff("b0")]]}
    assert_error(one_round(given), "effect_not_allowed", 1, 6, 1)


def test_effect_not_allowed_non_infinity_in_upkeep() -> None:
    w = person("w", 0, icon="worker", worker="red")
    r1 = quiet_round(2, 0, {0: [house("red"), hire("red", 0, w)]})
    r2 = quiet_round(2, 1, upkeep=[up(0, "w", florins=1)])
    assert_error(make_log(2, [r1, r2]), "effect_not_allowed", 2, None, 0)


@pytest.mark.parametrize(
    "gain",
    [{"cards": 1}, {"florins": "1"}, {"workers": 2}, {"threats": {"green": 1}}, {"plays": -1}],
    ids=["unknown-key", "string", "workers-not-object", "bad-colour", "negative-plays"],
)
def test_bad_gain(gain: dict[str, Any]) -> None:
    # the doc's example: {"gain": {"cards": 1}}
    steps = [{"effect": "bk", "gain": gain}, workers("red")]
    assert_error(one_round({0: [*with_banker(), steps]}), "bad_gain", 1, 5, 0)


def test_bad_gain_plays_in_upkeep() -> None:
    r1 = quiet_round(2, 0, {0: with_banker()})
    r2 = quiet_round(2, 1, upkeep=[up(0, "bk", plays=1)])
    assert_error(make_log(2, [r1, r2]), "bad_gain", 2, None, 0)


def test_below_zero() -> None:
    # the doc's example: {"gain": {"florins": -9}} with 5 florins
    steps = [eff("bk", florins=-9), workers("red")]
    assert_error(one_round({0: [*with_banker(), steps]}), "below_zero", 1, 5, 0)


@pytest.mark.parametrize("key", ["points", "prestige"])
def test_below_zero_points_or_step(key: str) -> None:
    steps = [eff("bk", **{key: -6}), workers("red")]
    assert_error(one_round({0: [*with_banker(), steps]}), "below_zero", 1, 5, 0)


def test_below_zero_threats_not_held() -> None:
    steps = [eff("bk", threats={"red": -1}), workers("red")]
    assert_error(one_round({0: [*with_banker(), steps]}), "below_zero", 1, 5, 0)


# --- final ----------------------------------------------------------------------------------------


def laurel_rounds(spec: str = QUIET, n_rounds: int = 2) -> list[dict[str, Any]]:
    """Ada has the laurel person "l" in play, Bea the arrow person "a"."""
    given = {
        0: [house("red"), hire("red", 0, person("l", 0, icon="laurel")), house("blue")],
        1: [house("red"), hire("red", 0, person("a", 0))],
    }
    return [rnd(spec, order(2, k % 2, given if k == 0 else None)) for k in range(n_rounds)]


@pytest.mark.parametrize(
    "entry",
    [
        laurel(1, "a", 2),  # the doc's example: a laurel for an arrow person
        laurel(1, "l", 2),  # not that seat's
        laurel(0, "zz", 2),  # unknown id
    ],
    ids=["arrow", "other-seat", "unknown"],
)
def test_bad_laurels(entry: dict[str, Any]) -> None:
    log = make_log(2, laurel_rounds(), final=final(entry))
    assert_error(log, "bad_laurels", None, None, entry["seat"])


def test_bad_laurels_twice_or_negative() -> None:
    twice = make_log(2, laurel_rounds(), final=final(laurel(0, "l", 1), laurel(0, "l", 1)))
    assert_error(twice, "bad_laurels", None, None, 0)
    negative = make_log(2, laurel_rounds(), final=final(laurel(0, "l", -2)))
    assert_error(negative, "bad_laurels", None, None, 0)


def test_bad_laurels_not_in_play() -> None:
    # plague took "l" in round 3
    rounds = laurel_rounds(five_of("brown"), 3)
    rounds[2]["penalties"] = [pen(0, "brown", person="l"), pen(1, "brown", person="a")]
    log = make_log(2, rounds, final=final(laurel(0, "l", 1)))
    ENGINE.replay({**log, "final": None})  # valid without the laurel
    assert_error(log, "bad_laurels", None, None, 0)


def test_bad_laurels_from_result_finish() -> None:
    """`result(finish=)` checks `final` against the state too."""
    log = make_log(2, laurel_rounds())
    state = ENGINE.start(log)
    for entry in log["rounds"]:
        state = ENGINE.apply_entry(state, entry)
    with pytest.raises(LogError) as info:
        ENGINE.result(state, finish={"final": final(laurel(1, "a", 1))})
    assert (info.value.code, info.value.round, info.value.turn, info.value.seat) == (
        "bad_laurels",
        None,
        None,
        1,
    )


# --- Nothing half-applied -------------------------------------------------------------------------


def test_apply_entry_refusal_leaves_the_state_unchanged() -> None:
    good = quiet_round(2, 0, {0: [house("red")]})
    bad = copy.deepcopy(quiet_round(2, 1))
    bad["turns"][7] = turn(0, card("green", "workers"))
    log = make_log(2, [good])
    state = ENGINE.start(log)
    state = ENGINE.apply_entry(state, good)
    before = ENGINE.result(state)
    with pytest.raises(LogError) as info:
        ENGINE.apply_entry(state, bad)
    assert (info.value.code, info.value.round, info.value.turn, info.value.seat) == (
        "bad_card",
        2,
        8,
        0,
    )
    assert ENGINE.result(state) == before
