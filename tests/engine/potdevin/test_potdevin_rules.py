"""Scenario tests for the Pot de Vin rules: one or more per rule and per decision (D1-D9).

Every expected number is worked out by hand from the tables in the rules file; the comment
next to it shows the arithmetic. The standard deck (D1) is tabulated in `logs.py`.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import LogError, get_engine
from scoring.engine.potdevin import BUILTIN_DECKS, STANDARD_DECK, Deck, deck_from_dict
from scoring.engine.potdevin.cards import GUILDS
from tests.engine.potdevin import logs as L

ENGINE = get_engine("pot-de-vin")
make_log, rnd, seat = L.make_log, L.rnd, L.seat


def replay(log: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    return ENGINE.replay(log, **kwargs)


def raises(log: dict[str, Any], code: str, round_: int | None, seat_: int | None) -> None:
    with pytest.raises(LogError) as info:
        replay(log)
    assert (info.value.code, info.value.round, info.value.seat) == (code, round_, seat_)


# --- A round: who wins (rules "A round" 4: the rulebook's three cases in one) ----------------


@pytest.mark.parametrize(
    ("trump", "spec", "winner", "card"),
    [
        # rulebook case 1: only lead-character cards: the highest one wins
        ("E5", "0:A7 1:A9 2:A4", 1, "A9"),
        # rulebook case 2: other characters, no trump: highest lead card (P12 is off-lead)
        ("E5", "0:A7 1:P12 2:A4", 0, "A7"),
        # rulebook case 3: a trump card beats higher lead cards
        ("E5", "0:A7 1:E4 2:A9", 1, "E4"),
        # two trump cards: the higher trump wins
        ("E5", "0:A7 1:E4 2:E6", 2, "E6"),
        # the lead is itself the trump character
        ("E5", "0:E4 1:E9 2:A12", 1, "E9"),
        # values, not kinds: Pot de Vin (13) is the highest card, the Joker (1) the lowest
        ("U5", "0:A1 1:A13 2:A12", 1, "A13"),
        # a trump Joker (value 1) still beats every non-trump card
        ("U5", "0:A12 1:A13 2:U1", 2, "U1"),
    ],
)
def test_round_winner(trump: str, spec: str, winner: int, card: str) -> None:
    """rules "A round" 4: highest trump if any trump was played, else highest lead card."""
    result = replay(make_log(3, [rnd(trump, spec)]))
    (r1,) = result["rounds"]
    assert r1["round"] == 1
    assert r1["trump"] == trump
    assert r1["starter"] == 0
    assert r1["lead"] == spec.split()[0].split(":")[1][0]
    assert r1["winner"] == winner
    assert r1["winning_card"] == card
    assert seat(result, winner)["rounds_won"] == 1


def test_winner_takes_played_cards_trump_card_and_gems() -> None:
    """rules "A round" 5 and 3: a pass costs one gem; the winner takes cards, gems and trump."""
    # lead A, no E played: A9 beats A7 -> seat 2; seat 1 paid a gem
    result = replay(make_log(3, [rnd("E5", "0:A7 1:- 2:A9")]))
    (r1,) = result["rounds"]
    assert r1["winner"] == 2
    assert sorted(r1["cards"]) == ["A7", "A9", "E5"]  # played cards + the trump card (3-5p)
    assert r1["gems"] == 1
    two = seat(result, 2)
    assert two["cards_won"] == 3
    assert two["gems_won"] == 1
    assert two["cards_in_hand"] == 11  # 12 dealt (3p) - 1 played
    assert two["gems_in_hand"] == 4  # won gems are kept apart from the gems in hand
    assert two["tableau"] == {
        "nobles": 0, "artists": 0, "traders": 0, "workmen": 2, "knights": 0, "assassins": 1,
        "jokers": 0, "bonus": 0, "malus": 0, "pot_de_vin": 0,
    }  # fmt: skip
    # A7 workmen + E5 workmen = 2 -> 3, A9 assassins 1 -> 1, 1 gem -> +1 => 5
    assert two["score"] == 5
    one = seat(result, 1)
    assert (one["gems_in_hand"], one["gems_paid"], one["cards_in_hand"]) == (3, 1, 12)
    assert seat(result, 0)["cards_won"] == 0


@pytest.mark.parametrize(
    ("players", "spec", "winner", "cards", "gems", "score"),
    [
        # 4p: lead A, no U: A7 highest -> seat 3 takes A4 A5 A6 A7 and the trump U4
        # nobles 1, artists 1, traders 1, workmen 2 (A7 + U4) -> 1 + 1 + 1 + 3 = 6
        (4, "0:A4 1:A5 2:A6 3:A7", 3, ["A4", "A5", "A6", "A7", "U4"], 0, 6),
        # 5p: lead A, no U, seat 2 passes: A6 highest -> seat 3; E7 off-lead is taken too
        # nobles, artists, traders, assassins (E7), workmen (U4): 5 singles = 5, + 1 gem => 6
        (5, "0:A4 1:A5 2:- 3:A6 4:E7", 3, ["A4", "A5", "A6", "E7", "U4"], 1, 6),
    ],
)
def test_winner_takes_trump_card_with_4_and_5_players(
    players: int, spec: str, winner: int, cards: list[str], gems: int, score: int
) -> None:
    """rules "A round" 5: in 3 to 5 player games the winner takes the revealed trump card."""
    result = replay(make_log(players, [rnd("U4", spec)]))
    (r1,) = result["rounds"]
    assert r1["winner"] == winner
    assert sorted(r1["cards"]) == cards
    assert r1["gems"] == gems
    assert seat(result, winner)["cards_won"] == len(cards)
    assert seat(result, winner)["score"] == score
    assert result["rounds_total"] == 12  # 4 and 5 players: a trump pile of 12


def test_winner_starts_next_round() -> None:
    """rules "A round" 6: the winner of a round starts the next one."""
    r1 = rnd("E5", "0:A7 1:A9 2:A4")  # A9 -> seat 1
    r2 = rnd("U5", "1:P4 2:P5 0:P6")  # seat 1 starts; lead P, no U: P6 -> seat 0
    result = replay(make_log(3, [r1, r2]))
    assert [r["starter"] for r in result["rounds"]] == [0, 1]
    assert [r["winner"] for r in result["rounds"]] == [1, 0]
    # the player to the left of the first player may not start round 2
    raises(make_log(3, [r1, rnd("U5", "0:P6 1:P4 2:P5")]), "out_of_turn", 2, 0)


def test_starter_must_play() -> None:
    """rules "A round" 2: the starting player must play a card, never passes."""
    raises(make_log(3, [rnd("E5", "0:- 1:A4 2:A5")]), "starter_passed", 1, 0)


def test_pass_allowed_when_the_player_could_follow() -> None:
    """rules "A round" 3: passing (one gem) is allowed even with a lead card in hand."""
    # seat 1 holds A10..A13 and passes on lead A; seat 2 holds no A and plays U4
    # trump E12: no E played -> A4 (the only A) wins -> seat 0 takes A4 U4 E12 and 1 gem
    log = make_log(3, [rnd("E12", "0:A4 1:- 2:U4")], hands=L.DEAL_3P)
    result = replay(log)
    assert result["violations"] == []
    assert result["rounds"][0]["winner"] == 0
    assert seat(result, 1)["gems_in_hand"] == 3
    assert seat(result, 0)["gems_won"] == 1
    # A4 nobles 1, U4 workmen 1, E12 knights x2 = 2 -> 1 + 1 + 3 = 5, + 1 gem => 6
    assert seat(result, 0)["score"] == 6


# The leftover 16 cards in one reveal order: E12, P13, A1 first (used by the rounds below).
PILE_3P = ["E12", "P13", "A1"] + [c for c in L.LEFT_OVER_3P if c not in ("E12", "P13", "A1")]


@pytest.mark.parametrize("pile", [None, PILE_3P])
def test_follow_rule_with_recorded_deal(pile: list[str] | None) -> None:
    """rules "A round" 3: follow the lead if you can; without the lead character, any card.

    Also with the trump pile recorded (log format: `trump_pile` in reveal order)."""
    rounds = [
        # seat 1 holds A and follows; seat 2 holds no A: any card. No E: A10 -> seat 1
        rnd("E12", "0:A4 1:A10 2:U4"),
        # seat 2 holds E10 E11 and must follow; seat 0 holds no E and passes. No P: E10 -> 2
        rnd("P13", "1:E4 2:E10 0:-"),
        # seats 0 and 1 hold no U: both play trump character A; highest trump A11 -> seat 1
        rnd("A1", "2:U5 0:A5 1:A11"),
    ]
    result = replay(make_log(3, rounds, hands=L.DEAL_3P, trump_pile=pile))
    assert result["violations"] == []
    assert (result["rounds_played"], result["rounds_total"]) == (3, 16)
    assert [r["winner"] for r in result["rounds"]] == [1, 2, 1]
    # seat 1: A4 + A10 nobles 3 -> 6; U4 workmen 1 -> 1; E12 2 + U5 1 + A11 2 knights 5 -> -3;
    # A5 artists 1 -> 1; base 5; the Joker A1 goes to a 1-column (1 -> 2: +2) => 7
    assert seat(result, 1)["score"] == 7
    # seat 2: E4 + E10 traders 3 -> 6, P13 Pot de Vin 1 -> -1, 1 gem -> +1 => 6
    assert seat(result, 2)["score"] == 6
    assert seat(result, 0)["score"] == 0
    assert [seat(result, s)["rank"] for s in range(3)] == [3, 1, 2]
    assert result["winners"] == [1]


# --- D2: players without cards ----------------------------------------------------------------


def test_player_without_cards_is_skipped_and_loses_gems_in_hand() -> None:
    """rules D2: skipped when out of cards, gems in hand removed, next holder of a card starts."""
    result = replay(L.skipped_player_3p())
    assert result["complete"] is False
    assert result["rounds_played"] == 13
    # seat 2 won round 12 with its last card: seat 0, next clockwise with a card, starts 13
    assert result["rounds"][12]["starter"] == 0
    assert result["rounds"][12]["winner"] == 0  # lead A, trump U13 not played: A9 beats P9
    two = seat(result, 2)
    assert two["cards_in_hand"] == 0
    assert two["gems_in_hand"] == 0
    assert two["gems_removed"] == 4  # never paid: all 4 removed (D2)
    assert two["gems_paid"] == 0
    assert two["cards_won"] == 40  # E1..E12 + A1..A8 + P1..P8 + U1..U12 = 12 + 8 + 8 + 12
    assert two["gems_won"] == 8  # seats 0 and 1 passed in rounds 1-4
    # Jokers E1 A1 P1 U1 (4), +2 x4 = +8, -2 x4 = -8; symbols: nobles 5 (E8 E11x2 A4 U7),
    # artists 6, traders 6, workmen 6, knights 6, assassins 5 (E7 P8 U6 U12x2).
    # 4 Jokers on the four 6-columns: 4 x 10 = 40, nobles -3, assassins -3 -> 34;
    # 34 + 8 - 8 + 8 gems => 42
    assert two["score"] == 42
    zero = seat(result, 0)
    assert (zero["cards_in_hand"], zero["gems_in_hand"], zero["gems_paid"]) == (3, 0, 4)
    # A9 assassins 1, P9 nobles 1, U13 Pot de Vin -1 => 1
    assert zero["score"] == 1
    assert seat(result, 1)["cards_in_hand"] == 3
    assert [seat(result, s)["rank"] for s in range(3)] == [2, 3, 1]


# --- D3: end of the game ----------------------------------------------------------------------


def test_game_ends_after_last_trump() -> None:
    """rules D3: the game ends after the round that used the last trump card (3p: 16)."""
    result = replay(L.full_game_3p())
    assert result["complete"] is True
    assert (result["rounds_played"], result["rounds_total"]) == (16, 16)
    assert [seat(result, s)["cards_in_hand"] for s in range(3)] == [0, 0, 0]
    # D2: seat 0 played its 12th card in round 12 and won it: seat 1 starts round 13
    assert [r["starter"] for r in result["rounds"][12:]] == [1, 1, 1, 1]
    assert [r["winner"] for r in result["rounds"]] == [0] * 12 + [1] * 4
    zero, one = seat(result, 0), seat(result, 1)
    assert zero["cards_won"] == 41  # A2..A13 12 + P1..P8 8 + E1..E9 9 + U1..U12 12
    assert zero["gems_won"] == 7  # 2 + 2 + 2 (rounds 1-3) + 1 (round 4)
    assert zero["gems_removed"] == 4
    # seat 0: Jokers P1 E1 U1; +2 A2 P2 E2 U2 = +8; -2 A3 P3 E3 U3 = -8; Pot de Vin A13 = -1.
    # nobles 5 (A4 A10x2 E8 U7) -> -3; artists, traders, workmen, knights, assassins 6 each.
    # 3 Jokers on three 6-columns (7 -> 10): -3 + 3 x 10 + 2 x -6 = 15; 15 + 8 - 8 - 1 + 7 = 21
    assert zero["score"] == 21
    assert one["cards_won"] == 11  # P9..P12, E10 E11 E12, trumps A1 P13 E13 U13
    assert one["gems_won"] == 1  # seat 2 passed in round 15
    # seat 1: nobles P9 + E11x2 = 3 -> 6; artists P10, assassins P11, workmen P12, traders E10,
    # knights E12: five 2-columns -> 15; Joker A1 on a 2-column (+3) -> 24; 3 PdV -6; 1 gem
    # => 24 - 6 + 1 = 19
    assert one["score"] == 19
    assert seat(result, 2)["score"] == 0
    assert [seat(result, s)["rank"] for s in range(3)] == [1, 2, 3]
    assert result["winners"] == [0]
    assert result["violations"] == []


def test_partial_log_is_not_complete() -> None:
    """rules D3 / log format: a partial log is scored as if it ended now, complete is false."""
    log = L.full_game_3p()
    log["rounds"] = log["rounds"][:15]
    result = replay(log)
    assert result["complete"] is False
    assert (result["rounds_played"], result["rounds_total"]) == (15, 16)
    # seat 1 misses round 16 (P12, E12, U13): P9 nobles 1 + E11 2 = 3 -> 6; artists, assassins,
    # traders 2 each -> 9; Joker on a 2-column +3 -> 18; PdV P13 E13 = 2 -> -3; 1 gem => 16
    assert seat(result, 1)["score"] == 16


def test_game_ends_when_nobody_holds_a_card() -> None:
    """rules D3 (and D6): everybody out of cards after round 12 of 16: the game is over."""
    result = replay(L.early_end_3p())
    assert result["complete"] is True
    assert result["rounds_played"] == 12
    zero = seat(result, 0)
    assert zero["cards_won"] == 48  # 12 rounds x (3 played + trump)
    # all 36 guild cards: 8 symbols of each guild (D1)
    assert zero["tableau"] == {
        "nobles": 8, "artists": 8, "traders": 8, "workmen": 8, "knights": 8, "assassins": 8,
        "jokers": 4, "bonus": 4, "malus": 4, "pot_de_vin": 0,
    }  # fmt: skip
    # 4 Jokers forced onto four 8-columns: 9 symbols score 15 (D6); 6 x 15 = 90; +8 - 8 => 90
    assert zero["score"] == 90
    assert zero["breakdown"]["guild_points"] == 90
    # a 13th round is impossible: no card left (D3)
    log = L.early_end_3p()
    log["rounds"].append(rnd("U13", "0:A13 1:P13 2:E13"))
    raises(log, "too_many_rounds", 13, None)


def test_round_after_last_trump_is_rejected() -> None:
    """rules D3: more rounds than the setup allows are rejected."""
    log = L.full_game_3p()
    log["rounds"].append(rnd("U1", "1:P1 2:E1"))
    raises(log, "too_many_rounds", 17, None)


# --- D4: revokes --------------------------------------------------------------------------------


def test_revoke_with_recorded_deal_is_rejected() -> None:
    """rules D4: with the deal recorded a revoke makes the log impossible (code revoke)."""
    # seat 1 holds A10..A13 but plays E4 on lead A
    raises(make_log(3, [rnd("E12", "0:A4 1:E4 2:U4")], hands=L.DEAL_3P), "revoke", 1, 1)


def test_revoke_without_deal_is_reported_as_violation() -> None:
    """rules D4: without the deal, a later lead-character card proves an earlier revoke."""
    rounds = [
        rnd("U5", "0:A7 1:P4 2:A9"),  # seat 1 plays P4 on lead A; no U: A9 -> seat 2
        rnd("U10", "2:E4 0:E5 1:A4"),  # seat 1 plays A4: it held an A in round 1. E5 -> 0
    ]
    result = replay(make_log(3, rounds))
    assert result["violations"] == [
        {"code": "revoke", "round": 1, "seat": 1, "card": "P4", "lead": "A",
         "proof": {"round": 2, "card": "A4"}},
    ]  # fmt: skip
    # the result is otherwise normal
    # seat 2: A7 workmen, P4 artists, A9 assassins, U5 knights: 4 singles => 4
    assert seat(result, 2)["score"] == 4
    # seat 0: E4 traders 1, E5 workmen + U10 workmen x2 = 3 -> 6, A4 nobles 1 => 8
    assert seat(result, 0)["score"] == 8
    assert [seat(result, s)["rank"] for s in range(3)] == [1, 3, 2]


def test_revoke_proved_by_a_later_lead() -> None:
    """rules D4: the proof may be a card the revoker later leads."""
    rounds = [
        rnd("U5", "0:A7 1:P4 2:A9"),  # seat 1 off-lead on A; A9 -> seat 2
        rnd("U6", "2:E4 0:E5 1:E6"),  # E6 -> seat 1
        rnd("U7", "1:A4 2:- 0:-"),  # seat 1 leads A4
    ]
    result = replay(make_log(3, rounds))
    assert result["violations"] == [
        {"code": "revoke", "round": 1, "seat": 1, "card": "P4", "lead": "A",
         "proof": {"round": 3, "card": "A4"}},
    ]  # fmt: skip


def test_pass_is_never_a_revoke() -> None:
    """rules "A round" 3 and D4: passing on lead A and playing an A later is legal."""
    rounds = [
        rnd("U5", "0:A7 1:- 2:A9"),  # seat 1 passes; A9 -> seat 2
        rnd("U6", "2:P4 0:P5 1:A4"),  # seat 1 plays A4 off-lead P (no P played later)
    ]
    result = replay(make_log(3, rounds))
    assert result["violations"] == []


# --- D1: the deck -------------------------------------------------------------------------------

# Worked out by hand from the D1 rule (see logs.py): card -> {guild: symbols}
STANDARD_SYMBOLS: dict[str, dict[str, int]] = {
    "A4": {"nobles": 1}, "A5": {"artists": 1}, "A6": {"traders": 1}, "A7": {"workmen": 1},
    "A8": {"knights": 1}, "A9": {"assassins": 1}, "A10": {"nobles": 2}, "A11": {"knights": 2},
    "A12": {"traders": 2},
    "P4": {"artists": 1}, "P5": {"traders": 1}, "P6": {"workmen": 1}, "P7": {"knights": 1},
    "P8": {"assassins": 1}, "P9": {"nobles": 1}, "P10": {"artists": 2},
    "P11": {"assassins": 2}, "P12": {"workmen": 2},
    "E4": {"traders": 1}, "E5": {"workmen": 1}, "E6": {"knights": 1}, "E7": {"assassins": 1},
    "E8": {"nobles": 1}, "E9": {"artists": 1}, "E10": {"traders": 2}, "E11": {"nobles": 2},
    "E12": {"knights": 2},
    "U4": {"workmen": 1}, "U5": {"knights": 1}, "U6": {"assassins": 1}, "U7": {"nobles": 1},
    "U8": {"artists": 1}, "U9": {"traders": 1}, "U10": {"workmen": 2}, "U11": {"artists": 2},
    "U12": {"assassins": 2},
}  # fmt: skip


@pytest.mark.parametrize("card", sorted(STANDARD_SYMBOLS))
def test_standard_deck_symbols(card: str) -> None:
    """rules D1: the default layout, card by card (won as the trump card, with a +2 card)."""
    lead = "E2" if card.startswith("A") else "A2"
    result = replay(make_log(3, [rnd(card, f"0:{lead} 1:- 2:-")]))
    tableau = seat(result, 0)["tableau"]
    expected = {g: STANDARD_SYMBOLS[card].get(g, 0) for g in GUILDS}
    assert {g: tableau[g] for g in GUILDS} == expected
    assert tableau["bonus"] == 1


def hand_deck(deck_id: str, **changes: list[str]) -> Deck:
    """A deck from the hand table above, with some cards changed (`A10=["nobles", "artists"]`)."""
    cards = {
        card: [g for g, n in sym.items() for _ in range(n)]
        for card, sym in STANDARD_SYMBOLS.items()
    }
    cards.update(changes)
    return deck_from_dict({"id": deck_id, "verified": False, "cards": cards})


def test_standard_deck_has_eight_symbols_per_guild() -> None:
    """rules D1: the standard layout gives every guild exactly 8 symbols (hand table)."""
    totals = dict.fromkeys(GUILDS, 0)
    for symbols in STANDARD_SYMBOLS.values():
        for guild, count in symbols.items():
            totals[guild] += count
    assert totals == dict.fromkeys(GUILDS, 8)
    assert STANDARD_DECK.guild_totals == (8, 8, 8, 8, 8, 8)
    # the engine's standard deck is exactly the hand table
    assert STANDARD_DECK.symbols == hand_deck("hand").symbols


def test_standard_deck_is_marked_unverified() -> None:
    """rules D1: the default deck says clearly it is not verified against the printed cards."""
    assert STANDARD_DECK.id == "standard"
    assert STANDARD_DECK.verified is False
    assert "not verified" in STANDARD_DECK.description.lower()
    assert STANDARD_DECK.as_dict()["verified"] is False
    assert BUILTIN_DECKS["standard"] is STANDARD_DECK
    assert replay(make_log(3, [rnd("E5", "0:A7 1:A9 2:A4")]))["deck"] == "standard"


def test_card_with_two_different_guilds() -> None:
    """rules D1: a deck may give a card two different guilds: one symbol in each column."""
    deck = hand_deck("two-guilds-v1", A10=["nobles", "artists"])
    log = make_log(3, [rnd("U2", "0:A10 1:- 2:-")])  # seat 0 takes A10, U2 (+2) and 2 gems
    result = replay(log, deck=deck)
    assert result["deck"] == "two-guilds-v1"
    zero = seat(result, 0)
    assert (zero["tableau"]["nobles"], zero["tableau"]["artists"]) == (1, 1)
    # nobles 1 -> 1, artists 1 -> 1, +2, 2 gems => 6
    assert zero["score"] == 6
    # the same log with the standard deck: A10 nobles x2 -> 3, +2, 2 gems => 7
    assert seat(replay(log), 0)["score"] == 7


def test_rescore_with_another_deck_version() -> None:
    """rules D1 and D6: a corrected deck re-scores a stored log; 10 symbols score 15."""
    deck = hand_deck(
        "nobles-heavy-v2", A4=["nobles", "nobles"], P9=["nobles", "nobles"],
        E8=["nobles", "nobles"], U7=["nobles", "nobles"],
    )  # fmt: skip
    rounds = [
        rnd("E8", "0:A10 1:A4 2:U7"),  # no E played: A10 beats A4 -> seat 0
        rnd("P9", "0:A2 1:- 2:-"),  # seat 0 alone: A2 (+2), P9, 2 gems
    ]
    log = make_log(3, rounds)
    # standard deck: A10 2 + A4 + U7 + E8 + P9 = 6 nobles -> -6; +2; 2 gems => -2
    assert seat(replay(log), 0)["score"] == -2
    # new deck: A10 2 + A4 2 + U7 2 + E8 2 + P9 2 = 10 nobles -> 15 (D6); +2; 2 gems => 19
    zero = seat(replay(log, deck=deck), 0)
    assert zero["tableau"]["nobles"] == 10
    assert zero["breakdown"]["guilds"]["nobles"]["points"] == 15
    assert zero["score"] == 19


# --- D9 and the 6-player game ---------------------------------------------------------------------


def test_six_players_without_teams() -> None:
    """rules D9 and "6-player game": individual scoring, trump not taken, 3 trump cycles."""
    result = replay(L.full_game_6p())
    assert result["teams"] is None
    assert result["complete"] is True
    assert (result["rounds_played"], result["rounds_total"]) == (12, 12)
    # the same 4 cards in each cycle of 4 rounds
    trumps = [r["trump"] for r in result["rounds"]]
    assert sorted(trumps[0:4]) == sorted(trumps[4:8]) == sorted(trumps[8:12])
    # the winner never takes the trump card
    assert result["rounds"][0]["cards"] == ["A12"]
    assert result["rounds"][0]["gems"] == 5
    assert all(r["trump"] not in r["cards"] for r in result["rounds"])
    assert sum(seat(result, s)["cards_won"] for s in range(6)) == 48  # 52 - 4 trump cards
    assert [r["winner"] for r in result["rounds"]] == [0] * 7 + [1] * 5
    # D2: seat 0 played its 8th card in round 8 and is skipped; seat 1 starts round 9
    assert result["rounds"][8]["starter"] == 1
    zero = seat(result, 0)
    assert (zero["cards_won"], zero["gems_won"], zero["gems_removed"]) == (22, 20, 4)
    # seat 0: traders A12x2 A6 E10x2 = 5 -> -3; workmen P12x2 A7 P6 = 4 -> -1;
    # knights E12x2 A11x2 A8 P7 E6 = 7 -> 10; assassins U12x2 A9 P11x2 P8 E7 = 7 -> 10;
    # nobles A10x2 P9 E11x2 E8 = 6 -> -6; artists P10x2 E9 = 3 -> 6; sum 16, + 20 gems => 36
    assert zero["score"] == 36
    one = seat(result, 1)
    assert one["cards_won"] == 26  # 6 in round 8 + 5 in each of rounds 9-12
    # seat 1: artists U11x2 U8 A5 P4 = 5, workmen U10x2 E5 U4 = 4, traders U9 P5 E4 = 3,
    # nobles U7 A4 = 2, assassins U6 = 1, knights U5 = 1: -3 -1 +6 +3 +1 +1 = 7.
    # 4 Jokers, 6 columns, forced: nobles 2->3 +3, assassins 1->2 +2, knights 1->2 +2, and the
    # least bad: workmen 4->5 (-1 -> -3) -2 => 7 + 5 = 12; +2 x4 = +8, -2 x4 = -8 => 12
    assert one["score"] == 12
    assert sorted(one["breakdown"]["jokers"]["placed"]) == [
        "assassins", "knights", "nobles", "workmen"]  # fmt: skip
    assert [seat(result, s)["rank"] for s in range(6)] == [1, 2, 3, 3, 3, 3]
    assert [seat(result, s)["tiebreak"] for s in range(6)] == [
        None, None, "shared", "shared", "shared", "shared"]  # fmt: skip
    assert result["winners"] == [0]
    assert result["violations"] == []


def test_six_players_with_teams() -> None:
    """rules D9 and D8: the same game scored in three teams of two."""
    result = replay(L.full_game_6p(teams=[[0, 3], [1, 4], [2, 5]]))
    # team 0: seat 0's 36, seat 3 won nothing; team 1: seat 1's 12; team 2: nothing
    scores = {t["team"]: (t["seats"], t["score"], t["rank"]) for t in result["teams"]}
    assert scores == {0: ([0, 3], 36, 1), 1: ([1, 4], 12, 2), 2: ([2, 5], 0, 3)}
    assert L.team(result, 0)["cards_won"] == 22
    assert L.team(result, 0)["gems_won"] == 20
    three = seat(result, 3)
    assert (three["team"], three["score"], three["rank"]) == (0, 36, 1)
    assert result["winners"] == [0, 3]


def test_six_players_trump_cycle_restarts_at_round_5() -> None:
    """rules "6-player game": round 5 reveals again one of the 4 cards of rounds 1-4."""
    log = L.full_game_6p()
    log["rounds"] = log["rounds"][:5]  # round 5 reveals P13, already revealed in round 2
    result = replay(log)
    assert result["complete"] is False
    assert result["rounds"][4]["trump"] == "P13"
    # lead A, no P played: A11 wins; the six A cards, not the trump
    assert sorted(result["rounds"][4]["cards"]) == ["A10", "A11", "A6", "A7", "A8", "A9"]


def test_six_players_round_13_is_rejected() -> None:
    """rules "6-player game": the game ends after round 12."""
    log = L.full_game_6p()
    log["rounds"].append(rnd("A13", "1:A1"))
    raises(log, "too_many_rounds", 13, None)


# --- Team seating -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "teams"),
    [(4, [[0, 2], [1, 3]]), (6, [[0, 3], [1, 4], [2, 5]]), (6, [[0, 2], [1, 4], [3, 5]])],
)
def test_teammates_apart_are_accepted(players: int, teams: list[list[int]]) -> None:
    """rules "Team play": teammates must not sit next to each other."""
    result = replay(make_log(players, [], teams=teams))
    assert [t["seats"] for t in result["teams"]] == teams


@pytest.mark.parametrize(
    ("players", "teams", "seat_"),
    [
        (4, [[0, 1], [2, 3]], 1),
        (6, [[0, 1], [2, 4], [3, 5]], 1),
        (6, [[0, 5], [1, 3], [2, 4]], 5),
    ],
)
def test_teammates_side_by_side_are_rejected(
    players: int, teams: list[list[int]], seat_: int | None
) -> None:
    """rules "Team play": side by side (6p: seats 5 and 0 are neighbours too) -> bad_teams.

    The engine names the later seat of the offending pair."""
    raises(make_log(players, [], teams=teams), "bad_teams", None, seat_)


# --- Round by round (engine API) --------------------------------------------------------------

TWO_ROUNDS = [
    rnd("E5", "0:A7 1:- 2:A9"),  # A9 -> seat 2
    rnd("U5", "2:P4 0:P5 1:P6"),  # P6 -> seat 1
]


def test_start_ignores_rounds() -> None:
    state = ENGINE.start(make_log(3, TWO_ROUNDS))
    result = ENGINE.result(state)
    assert result["rounds_played"] == 0
    assert result["rounds"] == []


def test_apply_round_returns_a_new_state_and_keeps_the_old_one() -> None:
    log = make_log(3, TWO_ROUNDS)
    s0 = ENGINE.start(log)
    before = ENGINE.result(s0)
    s1 = ENGINE.apply_round(s0, log["rounds"][0])
    again = ENGINE.apply_round(s0, log["rounds"][0])  # same round on the same old state
    assert s1 is not s0
    assert ENGINE.result(s0) == before
    assert ENGINE.result(s1) == ENGINE.result(again)
    assert ENGINE.result(s1)["rounds_played"] == 1
    s2 = ENGINE.apply_round(s1, log["rounds"][1])
    assert ENGINE.result(s2) == replay(log)
    assert ENGINE.result(s1)["rounds_played"] == 1


@pytest.mark.parametrize(
    ("bad", "code", "seat_"),
    [
        (rnd("U5", "0:P5 2:P4 1:P6"), "out_of_turn", 0),  # seat 2 won round 1 and must start
        (rnd("U5", "2:P4 0:P5 1:P5"), "duplicate_card", 1),  # fails after two good plays
    ],
)
def test_impossible_round_leaves_state_usable(bad: dict[str, Any], code: str, seat_: int) -> None:
    log = make_log(3, TWO_ROUNDS)
    s1 = ENGINE.apply_round(ENGINE.start(log), log["rounds"][0])
    before = ENGINE.result(s1)
    with pytest.raises(LogError) as info:
        ENGINE.apply_round(s1, bad)
    assert (info.value.code, info.value.round, info.value.seat) == (code, 2, seat_)
    assert ENGINE.result(s1) == before
    s2 = ENGINE.apply_round(s1, log["rounds"][1])
    assert ENGINE.result(s2) == replay(log)


def test_log_error_as_dict() -> None:
    with pytest.raises(LogError) as info:
        replay(make_log(3, [rnd("E5", "0:- 1:A4 2:A5")]))
    as_dict = info.value.as_dict()
    assert set(as_dict) == {"code", "message", "round", "seat"}
    assert (as_dict["code"], as_dict["round"], as_dict["seat"]) == ("starter_passed", 1, 0)
    assert isinstance(as_dict["message"], str) and as_dict["message"]
