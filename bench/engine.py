"""Engine replay throughput: full-game replays per second on one core, median of 5 runs, for
every game (targets: Pot de Vin every variant >= 20,000; Complots 6 players >= 30,000; Bruges 4
players >= 12,000)."""

from __future__ import annotations

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
    head = f"{'game':<10} {'players':>7} {'options':<20} {'entries/game':>12} {'games/s':>9}"
    print(f"{head}  target")
    workloads = []
    for v in VARIANTS:
        engine = get_engine(v.game)
        simulate = engine.info.simulate
        assert simulate is not None
        logs = [simulate(v.players, seed=seed, **v.options) for seed in range(GAMES)]
        workloads.append((engine.replay, logs))
    rates = replay_rates(workloads)
    missed = 0
    for v, (_, logs), rate in zip(VARIANTS, workloads, rates, strict=True):
        key = get_engine(v.game).info.entries_key
        entries = sum(len(log[key]) for log in logs) / len(logs)
        if v.target is None:
            verdict = "(no target)"
        else:
            met = rate >= v.target
            missed += not met
            verdict = f">= {v.target:,}: {'met' if met else 'MISSED'}"
        print(f"{v.label()} {entries:>12.1f} {rate:>9,.0f}  {verdict}")
    print(f"targets missed: {missed}")
    return 0
