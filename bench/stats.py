"""Statistics and leaderboard latency at 10,000 and 100,000 stored games (PostgreSQL).

p50 of GET /api/players/{id}/stats/ and GET /api/leaderboard/, each as a ratio to the trivial
authenticated endpoint GET /api/me/ measured in the same run (target <= 20x), and how much each
grows from 10k to 100k games (target <= 1.5x). Statistics are materialized: they are rebuilt
once after the games are stored, as a deployment would.
"""

from __future__ import annotations

import os

from bench._common import fresh_postgres, p50_ms, setup_django, store_games, timed, token_client

SIZES = [int(s) for s in os.environ.get("POTDEVIN_BENCH_STATS_SIZES", "10000,100000").split(",")]
REQUESTS = 400
RATIO_TARGET = 20.0
GROWTH_TARGET = 1.5


def main() -> int:
    try:
        database_url = fresh_postgres("potdevin_bench_stats")
    except Exception as exc:  # noqa: BLE001 - any reason PostgreSQL is not there
        print(f"skipped: needs the local PostgreSQL ({exc})")
        return 0
    setup_django(database_url)
    import time

    from games.models import Player
    from scoring import stats

    user, client = token_client("bench")
    for _ in range(50):
        client.get("/api/me/")
    stored = 0
    seen: dict[int, dict[str, float]] = {}
    for size in SIZES:
        start = time.perf_counter()
        store_games(user, size - stored, first_seed=stored)
        stored = size
        stored_in = time.perf_counter() - start
        start = time.perf_counter()
        stats.stats_rebuild()
        rebuilt_in = time.perf_counter() - start
        players = list(Player.objects.values_list("id", flat=True))
        me = [timed(lambda: client.get("/api/me/")) for _ in range(REQUESTS)]
        paths = [f"/api/players/{players[k % len(players)]}/stats/" for k in range(REQUESTS)]
        player_stats = [timed(lambda p=p: client.get(p)) for p in paths]
        board = [timed(lambda: client.get("/api/leaderboard/")) for _ in range(REQUESTS)]
        base = p50_ms(me)
        seen[size] = {"stats": p50_ms(player_stats), "board": p50_ms(board), "base": base}
        print(
            f"{size:,} games (stored in {stored_in:.0f} s, statistics and ratings rebuilt in "
            f"{rebuilt_in:.0f} s), {len(players)} players, p50 of {REQUESTS} requests:"
        )
        print(f"  {'GET /api/me/ (baseline)':<36} {base:7.3f} ms")
        for key, name in (
            ("stats", "GET /api/players/{id}/stats/"),
            ("board", "GET /api/leaderboard/"),
        ):
            ratio = seen[size][key] / base
            verdict = "met" if ratio <= RATIO_TARGET else "MISSED"
            print(f"  {name:<36} {seen[size][key]:7.3f} ms  {ratio:5.2f}x  target <= 20x {verdict}")
    if len(SIZES) >= 2:
        small, large = SIZES[0], SIZES[-1]
        for key, name in (("stats", "player stats"), ("board", "leaderboard")):
            growth = seen[large][key] / seen[small][key]
            verdict = "met" if growth <= GROWTH_TARGET else "MISSED"
            print(
                f"  {name}, {small:,} to {large:,} games: {growth:.2f}x  target <= 1.5x {verdict}"
            )
    return 0
