"""Engine replay throughput: full-game replays per second on one core, median of 5 runs, for
every game (targets: Pot de Vin every variant >= 20,000; Complots 6 players >= 30,000; Bruges 4
players >= 12,000).

The target applies to logs as the service replays them: decoded from their JSON, as a stored
game's entries are read from the database (a re-score job) and an imported file is read. The
simulator's own objects are timed too, for comparison: the simulator allocates much else
between a log's dicts, so they lie scattered in memory and a replay waits on the memory more.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scoring.engine import get_engine
from scoring.engine.potdevin import play

GAMES = 1000
RUNS = 5


@dataclass(frozen=True)
class Variant:
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    target: int | None = None  # games/s this variant must reach, if it has a target

    def label(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items()) or "-"
        return f"{self.game:<10} {self.players:>7} {opts:<20}"


VARIANTS = [
    Variant("pot-de-vin", 3, target=20_000),
    Variant("pot-de-vin", 4, target=20_000),
    Variant("pot-de-vin", 4, {"teams": True}, target=20_000),
    Variant("pot-de-vin", 5, target=20_000),
    Variant("pot-de-vin", 6, target=20_000),
    Variant("pot-de-vin", 6, {"teams": True}, target=20_000),
    Variant("complots", 3, {"variant": "ambassador"}),
    Variant("complots", 6, {"variant": "ambassador"}, target=30_000),
    Variant("complots", 6, {"variant": "inquisitor"}, target=30_000),
    Variant("complots", 8, {"variant": "inquisitor"}),
    Variant("bruges", 2),
    Variant("bruges", 3),
    Variant("bruges", 4, target=12_000),
]


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


def as_stored(log: dict[str, Any]) -> dict[str, Any]:
    """The log as the service holds it after reading it: encoded to JSON and decoded."""
    decoded: dict[str, Any] = json.loads(json.dumps(log))
    return decoded


def replay_rates(workloads: list[tuple[Callable[..., Any], list[dict[str, Any]]]]) -> list[float]:
    """Games per second per workload, median of RUNS runs. The runs are interleaved (run 1 of
    every workload, then run 2, ...) so that a slow spell of a shared host is spread over the
    workloads instead of landing on one."""
    rates: list[list[float]] = [[] for _ in workloads]
    for _ in range(RUNS):
        for (replay, logs), runs in zip(workloads, rates, strict=True):
            start = time.perf_counter()
            for log in logs:
                replay(log)
            runs.append(len(logs) / (time.perf_counter() - start))
    return [statistics.median(runs) for runs in rates]


def main() -> int:
    print(f"engine replay, {GAMES} simulated games per variant, median of {RUNS} runs")
    print(f"{pin_to_one_core()}; engine {engine_build()}")
    print("games/s: logs decoded from JSON, as stored (the target); the simulator's objects")
    head = f"{'game':<10} {'players':>7} {'options':<20} {'entries/game':>12}"
    print(f"{head} {'games/s':>9} {'simulator':>9}  target")
    workloads = []
    for v in VARIANTS:
        engine = get_engine(v.game)
        simulate = engine.info.simulate
        assert simulate is not None
        simulated = [simulate(v.players, seed=seed, **v.options) for seed in range(GAMES)]
        stored = [as_stored(log) for log in simulated]
        workloads += [(engine.replay, stored), (engine.replay, simulated)]
    rates = replay_rates(workloads)
    missed = 0
    for i, v in enumerate(VARIANTS):
        logs = workloads[2 * i][1]
        rate, simulator_rate = rates[2 * i], rates[2 * i + 1]
        key = get_engine(v.game).info.entries_key
        entries = sum(len(log[key]) for log in logs) / len(logs)
        if v.target is None:
            verdict = "(no target)"
        else:
            met = rate >= v.target
            missed += not met
            verdict = f">= {v.target:,}: {'met' if met else 'MISSED'}"
        print(f"{v.label()} {entries:>12.1f} {rate:>9,.0f} {simulator_rate:>9,.0f}  {verdict}")
    print(f"targets missed: {missed}")
    return 0
