"""Property tests of the Complots engine on simulated games.

The simulator (``scoring.engine.complots.simulate``) plays random legal games with real hidden
hands; the naive ``reference`` module (no import from ``scoring``) replays them from the rules
file. Checked on 2 to 8 players, both variants, complete and unfinished games: replay never
raises, the coins are conserved (K1), no character is face up in more copies than exist,
ranks are valid (K4), turn-by-turn play equals replay, everything is deterministic, and every
result field the reference computes agrees with the engine.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.complots import ENGINE
from scoring.engine.complots.simulate import simulate
from tests.engine.complots import reference

VARIANTS = ("ambassador", "inquisitor")
PLAYER_COUNTS = range(2, 9)
SEEDS_PER_SETUP = 30  # x 7 player counts x 2 variants = 420 games, half of them unfinished

# Sized so the whole file runs in a few seconds.
SOME = settings(max_examples=300, deadline=None)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A simulated legal game log: 2..8 players, either variant, complete or cut short."""
    n = draw(st.integers(2, 8))
    variant = draw(st.sampled_from(VARIANTS))
    seed = draw(st.integers(0, 2**32 - 1))
    complete = draw(st.booleans())
    return simulate(n, seed=seed, variant=variant, complete=complete)


def copies(n: int) -> int:
    return 4 if n >= 7 else 3  # Setup: 3 copies for 2-6 players (K5: 2 too), 4 for 7-8


def check_invariants(result: dict[str, Any], n: int, turns: int) -> None:
    players = result["players"]
    assert [p["seat"] for p in players] == list(range(n))
    assert result["turns_played"] == turns == len(result["turns"])
    # K1: the coins on the table and in the Treasury are always worth 54; never below zero
    assert sum(p["coins"] for p in players) + result["treasury"] == 54
    assert result["treasury"] >= 0 and all(p["coins"] >= 0 for p in players)
    # no character face up in more copies than the game has; never more than 2 per player
    shown = Counter(card for p in players for card in p["face_up"])
    assert all(count <= copies(n) for count in shown.values()), shown
    for p in players:
        assert p["influences"] == 2 - len(p["face_up"]) >= 0
        assert p["alive"] == (p["influences"] > 0)
        if p["alive"]:
            assert p["eliminated_on_turn"] is None
        else:
            assert p["coins"] == 0  # K5: the coins went back at once
            assert 1 <= p["eliminated_on_turn"] <= turns
    check_ranking(result)


def check_ranking(result: dict[str, Any]) -> None:
    players = result["players"]
    ranks = [p["rank"] for p in players]
    live = [p for p in players if p["alive"]]
    dead = [p for p in players if not p["alive"]]
    assert result["complete"] == (len(live) == 1)
    # a valid competition ranking: each rank is 1 + the players strictly ahead
    for r in ranks:
        assert r == 1 + sum(1 for other in ranks if other < r), ranks
    if result["complete"]:
        assert sorted(ranks) == list(range(1, len(players) + 1))  # a permutation
        assert result["winners"] == [live[0]["seat"]] and live[0]["rank"] == 1
    else:
        assert result["winners"] == []  # K5
    # K4: the live first, by influences then coins; then the eliminated, last out best
    for a in live:
        for b in live:
            if (a["influences"], a["coins"]) > (b["influences"], b["coins"]):
                assert a["rank"] < b["rank"]
            if (a["influences"], a["coins"]) == (b["influences"], b["coins"]):
                assert a["rank"] == b["rank"]
        for b in dead:
            assert a["rank"] < b["rank"]
    for a in dead:
        for b in dead:
            if a["eliminated_on_turn"] > b["eliminated_on_turn"]:
                assert a["rank"] < b["rank"]
            if a is not b:
                assert a["rank"] != b["rank"]  # K5: no tie among the eliminated


# --- The engine agrees with the reference ---------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_engine_agrees_with_reference(n: int, variant: str) -> None:
    # K1-K5 all at once: every field the reference computes, on a few hundred games
    for seed in range(SEEDS_PER_SETUP):
        log = simulate(n, seed=seed, variant=variant, complete=seed % 2 == 0)
        result = ENGINE.replay(log)
        assert reference.picked(result) == reference.replay(log), (n, variant, seed)
        check_invariants(result, n, len(log["turns"]))
        if seed % 2 == 0:
            assert result["complete"] is True  # complete=True plays to the end


@SOME
@given(games())
def test_turn_by_turn_equals_replay(log: dict[str, Any]) -> None:
    # start / apply_entry / result give replay's result, and agree with the reference after
    # every turn (a log may stop at any turn: a game in progress)
    original = copy.deepcopy(log)
    n = len(log["players"])
    state = ENGINE.start(log)
    table = reference.Table(log)
    check_invariants(ENGINE.result(state), n, 0)
    assert reference.picked(ENGINE.result(state)) == table.result()
    for number, turn in enumerate(log["turns"], start=1):
        before = ENGINE.result(state)
        new_state = ENGINE.apply_entry(state, turn)
        assert ENGINE.result(state) == before  # the input state is unchanged
        state = new_state
        table.play(number, turn)
        result = ENGINE.result(state)
        check_invariants(result, n, number)
        assert reference.picked(result) == table.result(), number
    assert ENGINE.result(state) == ENGINE.replay(log)
    assert ENGINE.result(state, finish={"ignored": True}) == ENGINE.replay(log)  # no finish
    assert log == original  # the log is not modified


@SOME
@given(games())
def test_replay_never_raises_and_is_deterministic(log: dict[str, Any]) -> None:
    first = ENGINE.replay(log)
    assert ENGINE.replay(copy.deepcopy(log)) == first
    check_invariants(first, len(log["players"]), len(log["turns"]))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_simulator_is_deterministic(n: int, variant: str) -> None:
    for seed in (0, 1, 2**31):
        for complete in (True, False):
            a = simulate(n, seed=seed, variant=variant, complete=complete)
            b = simulate(n, seed=seed, variant=variant, complete=complete)
            assert a == b
            assert a["format"] == "complots-log/1" and len(a["players"]) == n
            assert a.get("variant", "ambassador") == variant


def test_simulator_exercises_every_rule() -> None:
    # the simulator must exercise: bluffs, challenges of claims and of blocks (true and false),
    # blocks, exchanges, inquiries, coups, assassinations, forced coups, eliminations including
    # double losses
    seen: Counter[str] = Counter()
    for n in PLAYER_COUNTS:
        for variant in VARIANTS:
            for seed in range(SEEDS_PER_SETUP):
                log = simulate(n, seed=seed, variant=variant, complete=True)
                table = reference.Table(log)
                for number, turn in enumerate(log["turns"], start=1):
                    if table.coins[turn["actor"]] >= 10:
                        seen["forced coup"] += 1
                    seen[turn["action"]] += 1
                    if "challenge" in turn:
                        seen[f"claim challenge {turn['challenge']['truthful']}"] += 1
                    block = turn.get("block")
                    if block is not None:
                        seen[f"block {turn['action']}"] += 1
                        if "challenge" in block:
                            seen[f"block challenge {block['challenge']['truthful']}"] += 1
                    seats = [loss["seat"] for loss in turn.get("losses", [])]
                    if len(seats) != len(set(seats)):
                        seen["double loss"] += 1
                    table.play(number, turn)
                    if len(table.turns[-1]["eliminated"]) > 1:
                        seen["two eliminated in one turn"] += 1
                seen["eliminations"] += sum(1 for p in table.result()["players"] if not p["alive"])
    wanted = [
        "income",
        "foreign_aid",
        "coup",
        "duchess",
        "assassin",
        "captain",
        "exchange",
        "inquire",
        "forced coup",
        "claim challenge True",
        "claim challenge False",
        "block foreign_aid",
        "block assassin",
        "block captain",
        "block challenge True",
        "block challenge False",
        "double loss",
        "two eliminated in one turn",
        "eliminations",
    ]
    assert [w for w in wanted if seen[w] == 0] == [], seen
