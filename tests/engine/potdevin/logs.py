"""Hand-written `potdevin-log/1` documents for the Pot de Vin engine tests.

Only formatting helpers and fixed scenario data live here: every expected score, winner and
count is worked out by hand in the test that uses a scenario, never computed from this module.

Standard deck (rules D1), worked out by hand, used by the comments in the tests:

    value:  4         5         6         7         8         9         10 (x2)   11 (x2)   12 (x2)
    A   nobles    artists   traders   workmen   knights   assassins nobles    knights   traders
    P   artists   traders   workmen   knights   assassins nobles    artists   assassins workmen
    E   traders   workmen   knights   assassins nobles    artists   traders   nobles    knights
    U   workmen   knights   assassins nobles    artists   traders   workmen   artists   assassins

    values 4..9: guild (value - 4 + char) mod 6; values 10..12: guild ((value - 10) * 4 + char)
    mod 6, two symbols; A=0 P=1 E=2 U=3; 1 = Joker, 2 = +2, 3 = -2, 13 = Pot de Vin.
"""

from __future__ import annotations

from typing import Any

Log = dict[str, Any]
Round = dict[str, Any]

FORMAT = "potdevin-log/1"


def plays(spec: str) -> list[dict[str, Any]]:
    """`"0:A7 1:- 2:A9"` -> plays in the given order; `-` is a pass."""
    out: list[dict[str, Any]] = []
    for item in spec.split():
        seat, action = item.split(":")
        if action == "-":
            out.append({"seat": int(seat), "pass": True})
        else:
            out.append({"seat": int(seat), "card": action})
    return out


def rnd(trump: str, spec: str) -> Round:
    """One round: the revealed trump card and the plays in turn order."""
    return {"trump": trump, "plays": plays(spec)}


def make_log(
    players: int = 3,
    rounds: list[Round] | tuple[Round, ...] = (),
    *,
    first_player: int = 0,
    teams: list[list[int]] | None = None,
    hands: dict[str, list[str]] | None = None,
    trump_pile: list[str] | None = None,
    jokers: dict[str, list[str]] | None = None,
    deck: str = "standard",
) -> Log:
    return {
        "format": FORMAT,
        "players": [f"P{seat}" for seat in range(players)],
        "teams": teams,
        "first_player": first_player,
        "deck": deck,
        "hands": hands,
        "trump_pile": trump_pile,
        "rounds": list(rounds),
        "jokers": jokers,
    }


def seat(result: dict[str, Any], number: int) -> dict[str, Any]:
    """The result entry of one seat."""
    (entry,) = [p for p in result["players"] if p["seat"] == number]
    return entry


def team(result: dict[str, Any], index: int) -> dict[str, Any]:
    (entry,) = [t for t in result["teams"] if t["team"] == index]
    return entry


# --- A recorded 3-player deal (36 cards); the 16 cards left over form the trump pile. ---------
# seat 0 holds no E and no U; seat 1 holds no U; seat 2 holds no A and no P.
DEAL_3P: dict[str, list[str]] = {
    "0": ["A4", "A5", "A6", "A7", "A8", "A9", "P4", "P5", "P6", "P7", "P8", "P9"],
    "1": ["A10", "A11", "A12", "A13", "E4", "E5", "E6", "E7", "E8", "E9", "P10", "P11"],
    "2": ["U4", "U5", "U6", "U7", "U8", "U9", "U10", "U11", "U12", "U13", "E10", "E11"],
}
LEFT_OVER_3P = ["A1", "A2", "A3", "P1", "P2", "P3", "P12", "P13",
                "E1", "E2", "E3", "E12", "E13", "U1", "U2", "U3"]  # fmt: skip


# --- Long scenarios built with simple loops (expected results are in the tests). -------------


def full_game_3p() -> Log:
    """A whole 3-player game: 16 rounds, every card used.

    Seat 0 leads A2..A13 in rounds 1-12 and wins them (U trumps, nobody plays U); seat 1 passes
    in rounds 1-4 then discards P1..P8; seat 2 passes in rounds 1-3 then discards E1..E9.
    Seat 0 is out of cards after round 12, so seat 1 starts round 13 (D2) and wins 13-16.
    """
    rounds: list[Round] = []
    for r in range(1, 13):
        one = "-" if r <= 4 else f"P{r - 4}"
        two = "-" if r <= 3 else f"E{r - 3}"
        rounds.append(rnd(f"U{r}", f"0:A{r + 1} 1:{one} 2:{two}"))
    rounds += [
        rnd("A1", "1:P9 2:E10"),
        rnd("P13", "1:P10 2:E11"),
        rnd("E13", "1:P11 2:-"),
        rnd("U13", "1:P12 2:E12"),
    ]
    return make_log(3, rounds, first_player=0)


def early_end_3p() -> Log:
    """Everybody plays every round: all hands are empty after round 12 of 16 (D3)."""
    rounds = [rnd(f"U{r}", f"0:A{r} 1:P{r} 2:E{r}") for r in range(1, 13)]
    return make_log(3, rounds, first_player=0)


def skipped_player_3p() -> Log:
    """Seat 2 starts and wins rounds 1-12 with E1..E12 and runs out of cards (D2).

    Seats 0 and 1 pass in rounds 1-4 and play A1..A8 / P1..P8 in rounds 5-12, so they still
    hold 4 cards each. Round 13 is started by seat 0 (seat 2, the winner, holds no card).
    """
    rounds: list[Round] = []
    for r in range(1, 13):
        zero = "-" if r <= 4 else f"A{r - 4}"
        one = "-" if r <= 4 else f"P{r - 4}"
        rounds.append(rnd(f"U{r}", f"2:E{r} 0:{zero} 1:{one}"))
    rounds.append(rnd("U13", "0:A9 1:P9"))
    return make_log(3, rounds, first_player=2)


def full_game_6p(teams: list[list[int]] | None = None) -> Log:
    """A whole 6-player game, 12 rounds, every card used; the trumps are the four 13s.

    Rounds 1-4: seat 0 plays A12, P12, E12, U12, everybody else passes (their 4 gems).
    Rounds 5-7: seat 0 leads A11, P11, E11 and wins; round 8 it leads U1 and seat 1 wins with
    U11. Seat 0 is then out of cards and skipped (D2); seat 1 leads and wins rounds 9-12.
    Every round is played in one character, so nobody ever fails to follow.
    """
    lows = {1: 10, 2: 9, 3: 8, 4: 7, 5: 6}  # seat -> card value in rounds 5-8
    tails = {1: 5, 2: 4, 3: 3, 4: 2, 5: 1}  # seat -> card value in rounds 9-12 (U: +1)
    trumps = ["A13", "P13", "E13", "U13",  # cycle 1
              "P13", "A13", "U13", "E13",  # cycle 2: the same 4 cards
              "U13", "E13", "P13", "A13"]  # cycle 3  # fmt: skip
    rounds: list[Round] = []
    for r, char in enumerate("APEU", start=1):
        rounds.append(rnd(trumps[r - 1], f"0:{char}12 1:- 2:- 3:- 4:- 5:-"))
    for r, (char, lead) in enumerate(zip("APEU", ["11", "11", "11", "1"], strict=True), start=5):
        others = " ".join(f"{s}:{char}{lows[s] + (1 if char == 'U' else 0)}" for s in range(1, 6))
        rounds.append(rnd(trumps[r - 1], f"0:{char}{lead} {others}"))
    for r, char in enumerate("APEU", start=9):
        bump = 1 if char == "U" else 0
        cards = " ".join(f"{s}:{char}{tails[s] + bump}" for s in range(1, 6))
        rounds.append(rnd(trumps[r - 1], cards))
    return make_log(6, rounds, first_player=0, teams=teams)
