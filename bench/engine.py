"""Engine replay throughput: full-game replays per second on one core, median of 5 runs."""

from __future__ import annotations

import os
import statistics
import time

from scoring.engine import get_engine
from scoring.engine.potdevin import play
from scoring.engine.potdevin.simulate import simulate

GAMES = 1000
RUNS = 5
TARGET = 20_000  # full-game replays per second on one core
VARIANTS = [(3, False), (4, False), (4, True), (5, False), (6, False), (6, True)]


def pin_to_one_core() -> str:
    try:
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    except (AttributeError, OSError):
        return "not pinned (no sched_setaffinity here)"


def engine_build() -> str:
    compiled = not play.__file__.endswith(".py")
    return "compiled with mypyc" if compiled else "pure Python"


def replay_rates(variants: list[list[dict[str, object]]]) -> list[float]:
    """Games per second per variant, median of RUNS runs. The runs are interleaved (run 1 of
    every variant, then run 2, ...) so that a slow spell of a shared host is spread over the
    variants instead of landing on one."""
    engine = get_engine("pot-de-vin")
    replay = engine.replay
    rates: list[list[float]] = [[] for _ in variants]
    for _ in range(RUNS):
        for logs, runs in zip(variants, rates, strict=True):
            start = time.perf_counter()
            for log in logs:
                replay(log)
            runs.append(len(logs) / (time.perf_counter() - start))
    return [statistics.median(runs) for runs in rates]


def main() -> int:
    print(f"engine replay, {GAMES} simulated games per variant, median of {RUNS} runs")
    print(f"{pin_to_one_core()}; engine {engine_build()}; target >= {TARGET:,} games/s")
    print(f"{'players':>7} {'teams':>5} {'rounds/game':>11} {'games/s':>9}  target")
    logs = [
        [simulate(players, seed=seed, teams=teams) for seed in range(GAMES)]
        for players, teams in VARIANTS
    ]
    rates = replay_rates(logs)
    for (players, teams), variant, rate in zip(VARIANTS, logs, rates, strict=True):
        rounds = sum(len(log["rounds"]) for log in variant) / len(variant)
        verdict = "met" if rate >= TARGET else "MISSED"
        print(
            f"{players:>7} {'yes' if teams else 'no':>5} {rounds:>11.1f} {rate:>9,.0f}  {verdict}"
        )
    worst = min(rates)
    print(f"slowest variant: {worst:,.0f} games/s ({'met' if worst >= TARGET else 'MISSED'})")
    return 0
