"""A game at the entry limit (``games.records.models.MAX_ENTRIES``), on a fresh SQLite database of
its own: server time of every read of it, and of the writes that replay it, each p50 of 30.

The game is the longest the rules allow to be real: Complots, whose rules do not bound the
number of turns, two players stealing each other's coins with their captains turn after turn.
Every read must stay under 100 ms (the stored result is read, never replayed); the writes
replay the whole log once and are shown for reference.
"""

from __future__ import annotations

import json
from typing import Any

from bench._common import fresh_sqlite, p50_ms, setup_django, timed, token_client

# Project imports inside functions: a benchmark sets Django up on a database of its own first
# (``setup_django``), and models can be imported only after that (Django's app loading).

REQUESTS = 30
READ_TARGET_MS = 100.0


def longest_log(turns: int) -> dict[str, Any]:
    return {
        "format": "complots-log/1",
        "players": ["Ada", "Bea"],
        "first_player": 0,
        "turns": [{"actor": k % 2, "action": "captain", "target": 1 - k % 2} for k in range(turns)],
    }


def main() -> int:
    setup_django(fresh_sqlite("bench-longest"), POTDEVIN_THROTTLE_WRITES="1000000/min")
    from games.records.models import MAX_ENTRIES

    _, client = token_client("bench")
    log = longest_log(MAX_ENTRIES)
    response = client.post("/api/games/import/", json.dumps(log), content_type="application/json")
    if response.status_code != 201:
        raise RuntimeError(f"import failed: {response.status_code} {response.content[:300]!r}")
    game = response.json()["games"][0]["id"]
    last = log["turns"][-1]

    reads = {
        "GET /api/games/{id}/": f"/api/games/{game}/",
        "GET /api/games/{id}/turns/": f"/api/games/{game}/turns/",
        f"GET /api/games/{{id}}/turns/{MAX_ENTRIES}/": f"/api/games/{game}/turns/{MAX_ENTRIES}/",
        "GET /api/games/{id}/log/": f"/api/games/{game}/log/",
    }
    timings: dict[str, list[float]] = {name: [] for name in reads}
    for _ in range(REQUESTS):
        for name, path in reads.items():
            timings[name].append(timed(lambda p=path: client.get(p), 200))

    undo: list[float] = []
    append: list[float] = []
    correct: list[float] = []
    turns = f"/api/games/{game}/turns/"
    for _ in range(REQUESTS):
        undo.append(timed(lambda: client.delete(f"{turns}last/"), 200))
        body = json.dumps({"number": MAX_ENTRIES, **last})
        append.append(
            timed(lambda b=body: client.post(turns, b, content_type="application/json"), 201)
        )
        first = json.dumps(log["turns"][0])
        correct.append(
            timed(lambda b=first: client.put(f"{turns}1/", b, content_type="application/json"), 200)
        )

    print(f"A Complots game of {MAX_ENTRIES} turns (the entry limit), SQLite; p50 of {REQUESTS}")
    worst = 0.0
    for name, values in timings.items():
        worst = max(worst, p50_ms(values))
        verdict = "met" if p50_ms(values) < READ_TARGET_MS else "MISSED"
        print(f"  {name:<40} {p50_ms(values):7.2f} ms  target < 100 ms {verdict}")
    for name, values in (
        ("DELETE /api/games/{id}/turns/last/", undo),
        ("POST /api/games/{id}/turns/", append),
        ("PUT /api/games/{id}/turns/1/", correct),
    ):
        print(f"  {name:<40} {p50_ms(values):7.2f} ms  (replays the whole game)")
    return 0 if worst < READ_TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
