"""API latency and import throughput, on a fresh SQLite database of its own.

p50 latency of appending a Pot de Vin round, of appending a Complots turn, of appending a
Bruges round (4 players: 16 turns) and of reading a game, each as a ratio to a trivial DRF
endpoint measured in the same run: GET /api/me/, which passes the same authentication,
permission and throttle classes as every API call and then does nothing (GET /api/health/,
which skips authentication, is shown for reference). Also games imported per second for 1,000
simulated logs posted to /api/games/import/. Requests go through the whole Django stack in
process (no network), the same way for every endpoint measured.
"""

from __future__ import annotations

import json
import time
from typing import Any

from bench._common import fresh_sqlite, p50_ms, setup_django, timed, token_client

# Project imports inside functions: a benchmark sets Django up on a database of its own first
# (``setup_django``), and models can be imported only after that (Django's app loading).

REQUESTS = 600
IMPORT_GAMES = 1000
RATIO_TARGET = 5.0
IMPORT_TARGET = 500.0


def main() -> int:
    setup_django(fresh_sqlite("bench-api"), POTDEVIN_THROTTLE_WRITES="1000000/min")
    from scoring.engine.bruges.simulate import simulate as simulate_bruges
    from scoring.engine.complots.simulate import simulate as simulate_complots
    from scoring.engine.potdevin.simulate import simulate

    _, client = token_client("bench")

    def post(path: str, body: Any) -> Any:
        return client.post(path, json.dumps(body), content_type="application/json")

    # Warm-up: first requests import code and fill caches.
    for _ in range(50):
        client.get("/api/health/")

    # Each measured request is followed by one of the baseline and one of the health check, so
    # all three see the same machine: the ratios do not drift with the load of the moment.
    health: list[float] = []
    me: list[float] = []

    def with_baselines(call: Any, expect: int) -> float:
        elapsed = timed(call, expect)
        me.append(timed(lambda: client.get("/api/me/"), 200))
        health.append(timed(lambda: client.get("/api/health/"), 200))
        return elapsed

    appends: list[float] = []
    game_ids: list[int] = []
    seed = 0
    while len(appends) < REQUESTS:
        log = simulate(4, seed=seed)
        seed += 1
        game = post(
            "/api/games/",
            {
                "players": log["players"],
                "first_player": log["first_player"],
                "hands": log["hands"],
                "trump_pile": log["trump_pile"],
            },
        ).json()
        game_ids.append(game["id"])
        for number, rnd in enumerate(log["rounds"], start=1):
            body = {"number": number, **rnd}
            path = f"/api/games/{game['id']}/rounds/"
            appends.append(with_baselines(lambda p=path, b=body: post(p, b), 201))

    turns: list[float] = []
    seed = 0
    while len(turns) < REQUESTS:
        log = simulate_complots(4, seed=seed, variant=("ambassador", "inquisitor")[seed % 2])
        seed += 1
        game = post(
            "/api/games/",
            {
                "game_type": "complots",
                "players": log["players"],
                "first_player": log["first_player"],
                "variant": log["variant"],
            },
        ).json()
        for number, turn in enumerate(log["turns"], start=1):
            body = {"number": number, **turn}
            path = f"/api/games/{game['id']}/turns/"
            turns.append(with_baselines(lambda p=path, b=body: post(p, b), 201))

    bruges_rounds: list[float] = []
    seed = 0
    while len(bruges_rounds) < REQUESTS:
        log = simulate_bruges(4, seed=seed)
        seed += 1
        game = post(
            "/api/games/",
            {"game_type": "bruges", "players": log["players"], "first_player": log["first_player"]},
        ).json()
        for number, rnd in enumerate(log["rounds"], start=1):
            body = {"number": number, **rnd}
            path = f"/api/games/{game['id']}/rounds/"
            bruges_rounds.append(with_baselines(lambda p=path, b=body: post(p, b), 201))

    read_paths = [f"/api/games/{game_ids[k % len(game_ids)]}/" for k in range(REQUESTS)]
    reads = [with_baselines(lambda p=path: client.get(p), 200) for path in read_paths]

    logs = [simulate(3 + k % 4, seed=10_000 + k, teams=k % 8 == 1) for k in range(IMPORT_GAMES)]
    body = json.dumps(logs)
    start = time.perf_counter()
    response = client.post("/api/games/import/", body, content_type="application/json")
    import_seconds = time.perf_counter() - start
    if response.status_code != 201 or len(response.json()["games"]) != IMPORT_GAMES:
        raise RuntimeError(f"import failed: {response.status_code} {response.content[:300]!r}")
    import_rate = IMPORT_GAMES / import_seconds

    base = p50_ms(me)
    print(
        f"API on SQLite, {REQUESTS} requests each, interleaved; p50 in ms (ratio to GET /api/me/)"
    )
    print(f"  {'GET /api/health/ (no auth)':<36} {p50_ms(health):7.3f} ms")
    print(f"  {'GET /api/me/ (baseline)':<36} {base:7.3f} ms")
    worst = 0.0
    for name, timings in (
        ("POST /api/games/{id}/rounds/", appends),
        ("POST /api/games/{id}/turns/", turns),
        ("POST /api/games/{id}/rounds/ Bruges", bruges_rounds),
        ("GET /api/games/{id}/", reads),
    ):
        ratio = p50_ms(timings) / base
        worst = max(worst, ratio)
        verdict = "met" if ratio <= RATIO_TARGET else "MISSED"
        print(f"  {name:<36} {p50_ms(timings):7.3f} ms  {ratio:5.2f}x  target <= 5x {verdict}")
    verdict = "met" if import_rate >= IMPORT_TARGET else "MISSED"
    print(
        f"  import of {IMPORT_GAMES} logs in one request: {import_seconds:.2f} s = "
        f"{import_rate:,.0f} games/s  target >= {IMPORT_TARGET:,.0f}/s {verdict}"
    )
    return 0
