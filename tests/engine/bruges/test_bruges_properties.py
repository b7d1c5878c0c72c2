"""Property tests of the Bruges engine on simulated games.

The simulator (``scoring.engine.bruges.simulate``) plays random legal games: dice, penalties
with their choices, prestige, persons of every icon and their effects, fires, plague, statues,
laurels. The naive ``reference`` module (no import from ``scoring``) replays them from the rules
file. Checked on 2, 3 and 4 players ("per 2-4 giocatori"), complete and in progress: replay
never raises, no count goes below zero, each statue is taken at most once and at most two per
player (B3), every score is the sum of its breakdown, the ranks are a valid competition ranking
by points then florins (B7), round-by-round play equals replay, everything is deterministic, and
every field the reference computes agrees with the engine.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.bruges import ENGINE
from scoring.engine.bruges.simulate import simulate
from tests.engine.bruges import reference

PLAYER_COUNTS = (2, 3, 4)
SEEDS_PER_COUNT = 100  # x 3 player counts = 300 games, every other one in progress
COLORS = reference.COLORS
STATUES = reference.STATUES

# Sized so the whole file runs in a few seconds.
SOME = settings(max_examples=150, deadline=None)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    """A simulated legal game log: 2..4 players, complete or cut short."""
    n = draw(st.sampled_from(PLAYER_COUNTS))
    seed = draw(st.integers(0, 2**32 - 1))
    complete = draw(st.booleans())
    return simulate(n, seed=seed, complete=complete)


def check_invariants(result: dict[str, Any], n: int, rounds: int) -> None:
    players = result["players"]
    assert [p["seat"] for p in players] == list(range(n))
    assert result["rounds_played"] == rounds == len(result["rounds"])
    for p in players:
        # no count below zero
        assert p["florins"] >= 0 and p["breakdown"]["track"] >= 0
        assert all(p["workers"][c] >= 0 for c in COLORS)
        assert all(0 <= p["threats"][c] <= 2 for c in COLORS)  # 3 tokens trigger the penalty
        assert 0 <= p["step"] <= 12
        assert all(0 <= p["canals"][s] <= 5 for s in reference.SECTIONS)
        assert 0 <= p["persons"] <= p["houses"] == len(p["tableau"])
        assert p["persons"] == sum(1 for h in p["tableau"] if h["person"] is not None)
        assert all(v >= 0 for v in p["breakdown"].values())
        # the score is the sum of its breakdown, with exactly the 8 categories
        assert tuple(p["breakdown"]) == reference.CATEGORIES
        assert p["score"] == sum(p["breakdown"].values())
        assert p["breakdown"]["statues"] == sum(p["statues"])
        assert p["breakdown"]["majorities"] == 4 * len(p["majorities"])
        assert p["breakdown"]["houses"] == p["houses"]
        assert (
            p["breakdown"]["prestige"] == reference.STANDARD_EDITION["prestige_points"][p["step"]]
        )
        assert p["breakdown"]["canals"] == 3 * sum(1 for k in p["canals"].values() if k >= 3)
        assert len(p["majorities"]) == len(set(p["majorities"])) <= 3
        if not result["complete"]:
            assert p["breakdown"]["laurels"] == 0  # provisional: no laurels
        # B3: at most two statues per player, at most one per section
        assert len(p["statues"]) <= 2
    # B3: each statue taken at most once, from the top of the pile
    taken = [t["value"] for t in result["statues"]["taken"]]
    assert taken == list(STATUES[: len(taken)])
    assert result["statues"]["pile"] == list(STATUES[len(taken) :])
    assert sorted(v for p in players for v in p["statues"]) == sorted(taken)
    per_section = Counter((t["seat"], t["section"]) for t in result["statues"]["taken"])
    assert all(k == 1 for k in per_section.values())
    check_ranking(result)


def check_ranking(result: dict[str, Any]) -> None:
    """B7: a valid competition ranking by points, then florins; a full tie is shared."""
    players = result["players"]
    ranks = [p["rank"] for p in players]
    for r in ranks:
        assert r == 1 + sum(1 for other in ranks if other < r), ranks
    key = {p["seat"]: (p["score"], p["florins"]) for p in players}
    for a in players:
        for b in players:
            if key[a["seat"]] > key[b["seat"]]:
                assert a["rank"] < b["rank"]
            if key[a["seat"]] == key[b["seat"]]:
                assert a["rank"] == b["rank"]
        same = [b for b in players if b is not a and b["score"] == a["score"]]
        if any(key[b["seat"]] == key[a["seat"]] for b in same):
            assert a["tiebreak"] == "shared"
        elif same:
            assert a["tiebreak"] == "florins"
        else:
            assert a["tiebreak"] is None
    assert result["winners"] == [p["seat"] for p in players if p["rank"] == 1]


# --- The engine agrees with the reference ---------------------------------------------------------


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_engine_agrees_with_reference(n: int) -> None:
    # B1-B8 all at once: every field the reference computes, on a couple of hundred games
    for seed in range(SEEDS_PER_COUNT):
        complete = seed % 2 == 0
        log = simulate(n, seed=seed, complete=complete)
        result = ENGINE.replay(log)
        assert reference.picked(result) == reference.replay(log), (n, seed)
        check_invariants(result, n, len(log["rounds"]))
        assert result["complete"] is complete  # complete=True plays to the end, with `final`


@SOME
@given(games())
def test_round_by_round_equals_replay(log: dict[str, Any]) -> None:
    # start / apply_entry / result give replay's result, and agree with the reference after
    # every round (a log may stop after any round: a game in progress)
    original = copy.deepcopy(log)
    n = len(log["players"])
    in_progress = {**log, "final": None}
    state = ENGINE.start(in_progress)
    check_invariants(ENGINE.result(state), n, 0)
    for k, entry in enumerate(log["rounds"], start=1):
        before = ENGINE.result(state)
        new_state = ENGINE.apply_entry(state, entry)
        assert ENGINE.result(state) == before  # the input state is unchanged
        state = new_state
        result = ENGINE.result(state)
        check_invariants(result, n, k)
        assert reference.picked(result) == reference.replay(log, rounds=k), k
    finish = {"final": log.get("final")}
    assert ENGINE.result(state, finish=finish) == ENGINE.replay(log)
    state = ENGINE.start(log)
    for entry in log["rounds"]:
        state = ENGINE.apply_entry(state, entry)
    assert ENGINE.result(state) == ENGINE.replay(log)
    assert log == original  # the log is not modified


@SOME
@given(games())
def test_replay_never_raises_and_is_deterministic(log: dict[str, Any]) -> None:
    first = ENGINE.replay(log)
    assert ENGINE.replay(copy.deepcopy(log)) == first
    check_invariants(first, len(log["players"]), len(log["rounds"]))


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_simulator_is_deterministic(n: int) -> None:
    for seed in (0, 1, 2**31):
        for complete in (True, False):
            a = simulate(n, seed=seed, complete=complete)
            b = simulate(n, seed=seed, complete=complete)
            assert a == b
            assert a["format"] == "bruges-log/1" and len(a["players"]) == n
            assert ("final" in a and a["final"] is not None) is complete


def test_simulator_exercises_every_rule() -> None:
    # every penalty with its choices, passes, every icon, re-hires, effects of another seat,
    # upkeep at every moment, penalties triggered by gains, statues, laurels, florins tie-breaks
    seen: Counter[str] = Counter()
    for n in PLAYER_COUNTS:
        for seed in range(SEEDS_PER_COUNT):
            log = simulate(n, seed=seed, complete=True)
            for entry in log["rounds"]:
                for penalty in entry.get("penalties") or []:
                    seen[f"penalty {penalty['color']}"] += 1
                    seen.update(f"choice {k}" for k in penalty if k not in ("seat", "color"))
                for item in entry.get("upkeep") or []:
                    seen[f"upkeep {item.get('at') or 'dice'}"] += 1
                    seen["upkeep penalty"] += "penalty" in item
                for t in entry["turns"]:
                    if t.get("pass"):
                        seen["pass"] += 1
                        continue
                    for step in t["steps"]:
                        if "penalty" in step:
                            seen["penalty step"] += 1
                        elif "effect" in step:
                            seen["other seat's effect"] += "seat" in step
                            seen.update(f"gain {k}" for k in step["gain"])
                        else:
                            seen[step["action"]] += 1
                            hired = step.get("person")
                            if isinstance(hired, dict):
                                seen[f"icon {hired['icon']}"] += 1
                            elif isinstance(hired, str):
                                seen["re-hire"] += 1
            result = reference.replay(log)
            seen["statue"] += len(result["statues"]["taken"])
            for p in result["players"]:
                seen["laurel"] += len(p["laurels"])
                seen[f"tiebreak {p['tiebreak']}"] += 1
    wanted = [
        *(f"penalty {c}" for c in COLORS),
        "choice house",
        "choice section",
        "choice person",
        "pass",
        *("workers", "florins", "threat", "canal", "house", "person"),
        *(f"icon {i}" for i in ("arrow", "worker", "infinity", "laurel")),
        "re-hire",
        "other seat's effect",
        *(f"gain {k}" for k in ("florins", "points", "prestige", "workers", "threats", "plays")),
        "upkeep draw",
        "upkeep dice",
        "upkeep prestige",
        "upkeep penalty",
        "penalty step",
        "statue",
        "laurel",
        "tiebreak florins",
    ]
    assert [w for w in wanted if seen[w] == 0] == [], seen
