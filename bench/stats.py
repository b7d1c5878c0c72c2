"""Statistics and leaderboard latency at 10,000 and 100,000 stored games (PostgreSQL).

p50 of GET /api/players/{id}/stats/ and GET /api/leaderboard/ (Pot de Vin, the default game
type), each as a ratio to the trivial authenticated endpoint GET /api/me/ measured in the same
run (target <= 20x), and how much each grows from 10k to 100k games (target <= 1.5x). A fifth
as many Complots games are stored beside them, so statistics and ratings hold two game types;
the same two reads with ``?game_type=complots`` are measured against the same target.
Statistics are materialized: they are rebuilt once after the games are stored, as a deployment
would.
"""

from __future__ import annotations

import os
from typing import Any

from bench._common import fresh_postgres, p50_ms, setup_django, store_games, timed, token_client

# Project imports inside functions: a benchmark sets Django up on a database of its own first
# (``setup_django``), and models can be imported only after that (Django's app loading).

SIZES = [int(s) for s in os.environ.get("POTDEVIN_BENCH_STATS_SIZES", "10000,100000").split(",")]
REQUESTS = 400
RATIO_TARGET = 20.0
GROWTH_TARGET = 1.5
COMPLOTS_SHARE = 5  # one Complots game for every five Pot de Vin games
COMPLOTS = {"game_type": "complots"}
READS = (
    ("stats", "GET /api/players/{id}/stats/"),
    ("board", "GET /api/leaderboard/"),
    ("complots_stats", "GET /api/players/{id}/stats/?game_type=complots"),
    ("complots_board", "GET /api/leaderboard/?game_type=complots"),
)


def store_complots_games(owner: Any, count: int, *, first_seed: int = 0) -> None:
    """``count`` simulated Complots games of 2 to 8 players, stored as an import stores them.
    The simulator is the registry's (``info.simulate``): no game package is named here."""
    import random

    from django.db import transaction

    from bench._common import PEOPLE, bench_club, settle
    from games.records import services
    from scoring.engine import get_engine

    simulate = get_engine("complots").info.simulate
    assert simulate is not None
    editions = services.EditionCache()
    club = bench_club()
    for at in range(first_seed, first_seed + count, 1000):
        seeds = range(at, min(first_seed + count, at + 1000))
        logs = [
            simulate(2 + k % 7, seed=k, names=random.Random(k).sample(PEOPLE, 2 + k % 7))
            for k in seeds
        ]
        planned = [
            services.import_plan(club=club, owner=owner, document=d, editions=editions)
            for d in logs
        ]
        with transaction.atomic():
            services.import_store(club=club, owner=owner, planned=planned)
    settle()


def main() -> int:
    try:
        database_url = fresh_postgres("potdevin_bench_stats")
    except Exception as exc:  # noqa: BLE001 - any reason PostgreSQL is not there
        print(f"skipped: needs the local PostgreSQL ({exc})")
        return 0
    setup_django(database_url)
    import time

    from games.records.models import Player
    from scoring import stats

    user, client = token_client("bench")
    for _ in range(50):
        client.get("/api/me/")
    stored = 0
    seen: dict[int, dict[str, float]] = {}
    for size in SIZES:
        start = time.perf_counter()
        store_games(user, size - stored, first_seed=stored)
        store_complots_games(
            user, (size - stored) // COMPLOTS_SHARE, first_seed=stored // COMPLOTS_SHARE
        )
        stored = size
        stored_in = time.perf_counter() - start
        start = time.perf_counter()
        stats.stats_rebuild()
        rebuilt_in = time.perf_counter() - start
        players = list(Player.objects.values_list("id", flat=True))
        me = [timed(lambda: client.get("/api/me/")) for _ in range(REQUESTS)]
        paths = [f"/api/players/{players[k % len(players)]}/stats/" for k in range(REQUESTS)]
        runs = {
            "stats": [timed(lambda p=p: client.get(p)) for p in paths],
            "board": [timed(lambda: client.get("/api/leaderboard/")) for _ in range(REQUESTS)],
            "complots_stats": [timed(lambda p=p: client.get(p, COMPLOTS)) for p in paths],
            "complots_board": [
                timed(lambda: client.get("/api/leaderboard/", COMPLOTS)) for _ in range(REQUESTS)
            ],
        }
        base = p50_ms(me)
        seen[size] = {key: p50_ms(times) for key, times in runs.items()}
        seen[size]["base"] = base
        print(
            f"{size:,} Pot de Vin and {size // COMPLOTS_SHARE:,} Complots games (stored in "
            f"{stored_in:.0f} s, statistics and ratings rebuilt in {rebuilt_in:.0f} s), "
            f"{len(players)} players, p50 of {REQUESTS} requests:"
        )
        print(f"  {'GET /api/me/ (baseline)':<50} {base:7.3f} ms")
        for key, name in READS:
            ratio = seen[size][key] / base
            verdict = "met" if ratio <= RATIO_TARGET else "MISSED"
            print(f"  {name:<50} {seen[size][key]:7.3f} ms  {ratio:5.2f}x  target <= 20x {verdict}")
    if len(SIZES) >= 2:
        small, large = SIZES[0], SIZES[-1]
        for key, name in (("stats", "player stats"), ("board", "leaderboard")):
            growth = seen[large][key] / seen[small][key]
            verdict = "met" if growth <= GROWTH_TARGET else "MISSED"
            print(
                f"  {name}, {small:,} to {large:,} games: {growth:.2f}x  target <= 1.5x {verdict}"
            )
    return 0
