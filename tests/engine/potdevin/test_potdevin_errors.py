"""One test (at least) per error code of the Pot de Vin engine contract.

Each test checks the exact `.code`, `.round` (1-based, None for the header) and `.seat`.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import LogError, get_engine
from scoring.engine.potdevin import STANDARD_DECK, deck_from_dict
from tests.engine.potdevin import logs as L

ENGINE = get_engine("pot-de-vin")
make_log, rnd = L.make_log, L.rnd


def raises(log: dict[str, Any], code: str, round_: int | None, seat_: int | None) -> LogError:
    with pytest.raises(LogError) as info:
        ENGINE.replay(log)
    assert (info.value.code, info.value.round, info.value.seat) == (code, round_, seat_)
    return info.value


def with_rounds(log: dict[str, Any], rounds: list[dict[str, Any]]) -> dict[str, Any]:
    return {**log, "rounds": rounds}


# A legal first round: lead A, no U: A9 -> seat 1
R1 = rnd("U5", "0:A7 1:A9 2:A4")


def test_malformed_document() -> None:
    log = make_log(3, [R1])
    del log["players"]
    raises(log, "malformed", None, None)


def test_malformed_round() -> None:
    raises(make_log(3, [{"trump": "U5"}]), "malformed", 1, None)


def test_unsupported_format() -> None:
    log = make_log(3, [R1])
    log["format"] = "potdevin-log/2"
    raises(log, "unsupported_format", None, None)


@pytest.mark.parametrize("players", [2, 7])
def test_bad_player_count(players: int) -> None:
    raises(make_log(players), "bad_player_count", None, None)


@pytest.mark.parametrize("first", [3, -1])
def test_bad_first_player(first: int) -> None:
    raises(make_log(3, [R1], first_player=first), "bad_first_player", None, None)


def test_unknown_deck() -> None:
    raises(make_log(3, [R1], deck="no-such-deck"), "unknown_deck", None, None)


@pytest.mark.parametrize(
    ("players", "teams", "seat_"),
    [
        (3, [[0], [1], [2]], None),  # no teams with 3 players
        (5, [[0, 2], [1, 3], [4]], None),  # nor with 5
        (4, [[0, 2], [1]], None),  # seat 3 missing
        (4, [[0, 2], [2, 1]], None),  # seat 2 twice
        (4, [[0, 2], [1, 4]], None),  # no seat 4
        (4, [[0, 2, 1, 3]], None),  # one team of four
        (6, [[0, 2, 4], [1, 3, 5]], None),  # 6 players: three teams of two
        # teammates side by side: the engine names the later seat of the pair
        (4, [[0, 1], [2, 3]], 1),
        (6, [[0, 5], [1, 3], [2, 4]], 5),  # seats 5 and 0 are neighbours
    ],
)
def test_bad_teams(players: int, teams: list[list[int]], seat_: int | None) -> None:
    """rules "Team play": 4 players 2 teams, 6 players 3 teams, teammates apart."""
    raises(make_log(players, [], teams=teams), "bad_teams", None, seat_)


def test_bad_hands_missing_seat() -> None:
    hands = {k: v for k, v in L.DEAL_3P.items() if k != "2"}
    raises(make_log(3, [], hands=hands), "bad_hands", None, 2)


def test_bad_hands_wrong_size() -> None:
    hands = {**L.DEAL_3P, "2": L.DEAL_3P["2"][:11]}  # 3 players: 12 cards each
    raises(make_log(3, [], hands=hands), "bad_hands", None, 2)


def test_bad_hands_unknown_seat() -> None:
    hands = {**L.DEAL_3P, "3": ["A1"]}
    raises(make_log(3, [], hands=hands), "bad_hands", None, None)  # "3" is no seat


def test_bad_hands_six_players_before_discard() -> None:
    """rules "6-player game": hands are recorded after the discard, 8 cards each."""
    cards = [f"{c}{v}" for c in "APEU" for v in range(1, 14)]
    hands = {str(s): cards[8 * s : 8 * s + 8] for s in range(6)}
    hands["5"] = hands["5"] + ["U13"]  # 9 cards
    raises(make_log(6, [], hands=hands), "bad_hands", None, 5)


@pytest.mark.parametrize(("players", "size"), [(3, 15), (4, 13), (5, 11), (6, 5)])
def test_bad_trump_pile(players: int, size: int) -> None:
    """rules "Setup": piles of 16 / 12 / 12 cards, 4 with 6 players."""
    cards = [f"{c}{v}" for c in "APEU" for v in range(1, 14)]
    raises(make_log(players, [], trump_pile=cards[:size]), "bad_trump_pile", None, None)


def test_unknown_card_played() -> None:
    raises(make_log(3, [rnd("U5", "0:A14 1:A9 2:A4")]), "unknown_card", 1, 0)


def test_unknown_card_as_trump() -> None:
    raises(make_log(3, [rnd("X5", "0:A7 1:A9 2:A4")]), "unknown_card", 1, None)


def test_duplicate_card_played_twice() -> None:
    # round 2: seat 1 starts and plays A7 again
    raises(make_log(3, [R1, rnd("U6", "1:A7 2:A5 0:A6")]), "duplicate_card", 2, 1)


def test_duplicate_card_played_then_revealed() -> None:
    # A7 was played in round 1 and is revealed as trump in round 2
    raises(make_log(3, [R1, rnd("A7", "1:P4 2:P5 0:P6")]), "duplicate_card", 2, None)


def test_duplicate_card_dealt_twice() -> None:
    hands = {**L.DEAL_3P, "2": [*L.DEAL_3P["2"][:11], "A4"]}  # A4 is also in seat 0's hand
    raises(make_log(3, [], hands=hands), "duplicate_card", None, 2)


def test_unknown_seat() -> None:
    raises(make_log(3, [rnd("U5", "0:A7 3:A9 2:A4")]), "unknown_seat", 1, 3)


@pytest.mark.parametrize(
    ("rounds", "round_", "seat_"),
    [
        ([rnd("U5", "1:A9 2:A4 0:A7")], 1, 1),  # first_player is 0
        ([rnd("U5", "0:A7 2:A4 1:A9")], 1, 2),  # counter-clockwise
        ([rnd("U5", "0:A7 1:A9")], 1, 2),  # seat 2 should act and is missing
        ([rnd("U5", "0:A7 1:A9 2:A4 0:A8")], 1, 0),  # seat 0 twice
        ([R1, rnd("U6", "0:A8 1:A10 2:A5")], 2, 0),  # seat 1 won round 1 and starts round 2
    ],
)
def test_out_of_turn(rounds: list[dict[str, Any]], round_: int, seat_: int) -> None:
    raises(make_log(3, rounds), "out_of_turn", round_, seat_)


def test_starter_passed() -> None:
    raises(make_log(3, [R1, rnd("U6", "1:- 2:A5 0:A6")]), "starter_passed", 2, 1)


def test_pass_without_gems() -> None:
    """rules "Setup": 2 gems each with 4 players; a third pass is impossible."""
    rounds = [
        rnd("U4", "0:A10 1:- 2:A4 3:A5"),  # A10 -> seat 0
        rnd("U5", "0:A11 1:- 2:A6 3:A7"),  # A11 -> seat 0
        rnd("U6", "0:A12 1:- 2:A8 3:A9"),
    ]
    raises(make_log(4, rounds), "pass_without_gems", 3, 1)


def test_not_in_hand_recorded_deal() -> None:
    # U4 is in seat 2's hand
    raises(make_log(3, [rnd("E12", "0:U4 1:A10 2:U5")], hands=L.DEAL_3P), "not_in_hand", 1, 0)


def test_not_in_hand_after_whole_hand_played() -> None:
    """rules D4/D2: seat 2 has played its 12 cards; a 13th card is impossible."""
    log = L.skipped_player_3p()
    log["rounds"][12] = rnd("U13", "0:A9 1:P9 2:E13")
    raises(log, "not_in_hand", 13, 2)


def test_card_in_recorded_trump_pile() -> None:
    pile = [f"U{v}" for v in range(1, 14)] + ["A1", "A2", "A3"]
    # A3 lies in the pile (revealed in round 16)
    log = make_log(3, [rnd("U1", "0:A3 1:A9 2:A4")], trump_pile=pile)
    raises(log, "card_in_trump_pile", 1, 0)


def test_card_revealed_as_trump_then_played() -> None:
    # U5 was the trump of round 1; seat 1 plays it in round 2
    raises(make_log(3, [R1, rnd("U6", "1:U5 2:A5 0:A6")]), "card_in_trump_pile", 2, 1)


def test_trump_reused() -> None:
    raises(make_log(3, [R1, rnd("U5", "1:P4 2:P5 0:P6")]), "trump_reused", 2, None)


def test_trump_reused_within_a_six_player_cycle() -> None:
    log = L.full_game_6p()
    rounds = log["rounds"][:2]
    rounds[1] = {**rounds[1], "trump": "A13"}  # already revealed in round 1
    raises(with_rounds(log, rounds), "trump_reused", 2, None)
    rounds = log["rounds"][:6]
    rounds[5] = {**rounds[5], "trump": "P13"}  # already revealed in round 5 (cycle 2)
    raises(with_rounds(log, rounds), "trump_reused", 6, None)


def test_wrong_trump_recorded_pile() -> None:
    pile = [f"U{v}" for v in range(1, 14)] + ["A1", "A2", "A3"]
    raises(make_log(3, [rnd("U2", "0:A7 1:A9 2:A4")], trump_pile=pile), "wrong_trump", 1, None)


def test_wrong_trump_recorded_deal_and_pile() -> None:
    """Round 4 reveals E1 while the recorded pile says E13 (its 4th card)."""
    pile = ["E12", "P13", "A1", "E13"] + [
        c for c in L.LEFT_OVER_3P if c not in ("E12", "P13", "A1", "E13")
    ]
    rounds = [
        rnd("E12", "0:A4 1:A10 2:U4"),  # A10 -> seat 1
        rnd("P13", "1:E4 2:E10 0:-"),  # E10 -> seat 2
        rnd("A1", "2:U5 0:A5 1:A11"),  # trump A11 -> seat 1
        rnd("E1", "1:A12 2:U6 0:A6"),
    ]
    raises(make_log(3, rounds, hands=L.DEAL_3P, trump_pile=pile), "wrong_trump", 4, None)


def test_wrong_trump_recorded_deal() -> None:
    # A4 is in seat 0's hand
    raises(make_log(3, [rnd("A4", "0:A5 1:A10 2:U4")], hands=L.DEAL_3P), "wrong_trump", 1, None)


def test_wrong_trump_six_players_new_cycle() -> None:
    """rules "6-player game": rounds 5-12 reveal the same 4 cards."""
    log = L.full_game_6p()
    rounds = log["rounds"][:5]
    rounds[4] = {**rounds[4], "trump": "U2"}  # not among A13 P13 E13 U13
    raises(with_rounds(log, rounds), "wrong_trump", 5, None)


def test_revoke() -> None:
    """rules D4: seat 1 holds A10..A13 and plays E4 on lead A."""
    raises(make_log(3, [rnd("E12", "0:A4 1:E4 2:U4")], hands=L.DEAL_3P), "revoke", 1, 1)


def test_too_many_rounds() -> None:
    """rules D3: nobody holds a card after round 12."""
    log = L.early_end_3p()
    log["rounds"].append(rnd("U13", "0:A13 1:P13 2:E13"))
    raises(log, "too_many_rounds", 13, None)


def test_bad_joker_placement() -> None:
    """rules D5: seat 0 holds one Joker and has one column (nobles): it must be placed."""
    # trump U1: no U played, A4 alone -> seat 0 takes A4 and the Joker U1
    log = make_log(3, [rnd("U1", "0:A4 1:- 2:-")], jokers={"0": ["artists"]})
    raises(log, "bad_joker_placement", None, 0)
    raises({**log, "jokers": {"0": []}}, "bad_joker_placement", None, 0)


def _cards(**changes: list[str] | None) -> dict[str, list[str]]:
    cards = dict(STANDARD_DECK.as_dict()["cards"])
    for name, guilds in changes.items():
        if guilds is None:
            del cards[name]
        else:
            cards[name] = guilds
    return cards


@pytest.mark.parametrize(
    "cards",
    [
        _cards(A4=None),  # a guild card without symbols
        _cards(A4=["nobles", "nobles", "nobles"]),  # three symbols
        _cards(A4=[]),  # no symbol
        _cards(A4=["pirates"]),  # not a guild
        _cards(A1=["nobles"]),  # a Joker carries no guild symbol
        _cards(A14=["nobles"]),  # not a card
    ],
)
def test_bad_deck(cards: dict[str, list[str]]) -> None:
    """rules D1: a deck is 36 guild cards of 1 or 2 known guild symbols."""
    with pytest.raises(LogError) as info:
        deck_from_dict({"id": "broken", "cards": cards})
    assert (info.value.code, info.value.round, info.value.seat) == ("bad_deck", None, None)
