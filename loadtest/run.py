"""The load test itself: servers up, clients for a fixed time, a fault, then the checks."""

from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from loadtest.services import Postgres, Redis, Site

FAULTS = ("kill-worker", "restart-db", "restart-broker")
RESCORE_GAMES = 400
# The server's secret, which this process shares to make a signed-in session (loadtest/watch.py).
SECRET_KEY = "loadtest-" + "x" * 50
# The 503s the API owes its clients while its database restarts: from the restart until it
# answers again, plus a margin for the requests already on their way.
DB_RESTART_MARGIN = 3.0


@dataclass
class Calls:
    """Every request's route, status and time, from every client thread."""

    started: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[tuple[str, int | None]] = field(default_factory=Counter)
    server_errors: list[tuple[float, str, int, str]] = field(default_factory=list)

    def record(self, route: str, status: int | None, seconds: float, code: str) -> None:
        with self.lock:
            self.latencies[route].append(seconds)
            self.statuses[(route, status)] += 1
            if status is not None and status >= 500:
                self.server_errors.append((time.monotonic(), route, status, code))


class Client:
    """One HTTP/1.1 connection, kept alive, remade after a connection error."""

    def __init__(self, base: str, token: str, calls: Calls) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
        self.calls = calls
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def call(self, method: str, path: str, route: str, body: Any = None) -> tuple[int | None, Any]:
        data = None if body is None else json.dumps(body)
        start = time.monotonic()
        try:
            self.conn.request(method, path, body=data, headers=self.headers)
            response = self.conn.getresponse()
            raw = response.read()
            status: int | None = response.status
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
            self.calls.record(route, None, time.monotonic() - start, "connection_lost")
            return None, None
        payload = json.loads(raw) if raw else None
        code = payload.get("code", "") if isinstance(payload, dict) else ""
        self.calls.record(route, status, time.monotonic() - start, code)
        return status, payload


def _entries_stored(client: Client, game_id: int) -> int | None:
    status, body = client.call("GET", f"/api/games/{game_id}/rounds/", "GET rounds")
    return len(body) if status == 200 and isinstance(body, list) else None


def _entries_stored_surely(client: Client, game_id: int) -> int | None:
    """As ``_entries_stored``, asking again through a lost answer or a 503 (a minute at most)."""
    deadline = time.monotonic() + 60
    while True:
        stored = _entries_stored(client, game_id)
        if stored is not None or time.monotonic() > deadline:
            return stored
        time.sleep(0.2)


def append_entry(client: Client, game_id: int, number: int, entry: dict[str, Any]) -> None:
    """Append entry ``number``, retrying through a lost connection or a 503 (the database
    restarting): a retry after a lost answer finds the entry stored (409) and checks it."""
    while True:
        status, body = client.call(
            "POST", f"/api/games/{game_id}/rounds/", "POST rounds", {"number": number, **entry}
        )
        if status == 201:
            return
        if status is None or status == 503 or (status == 409 and body["code"] == "round_conflict"):
            stored = _entries_stored(client, game_id)
            if stored is not None and stored >= number:
                return
            time.sleep(0.2)
            continue
        raise AssertionError(f"append {number} to game {game_id}: {status} {body}")


def _create(client: Client, body: dict[str, Any]) -> int:
    while True:
        status, answer = client.call("POST", "/api/games/", "POST games", body)
        if status == 201:
            return int(answer["id"])
        if status is None or status == 503:
            time.sleep(0.2)  # a lost answer may have made a game: an extra game is harmless
            continue
        raise AssertionError(f"create: {status} {answer}")


def _finish(client: Client, game_id: int) -> None:
    while True:
        status, body = client.call("POST", f"/api/games/{game_id}/finish/", "POST finish", {})
        if status == 200 or (status == 409 and body["code"] == "game_finished"):
            return
        if status is None or status == 503:
            time.sleep(0.2)
            continue
        raise AssertionError(f"finish {game_id}: {status} {body}")


def _simulated(rng: random.Random, tag: str) -> tuple[dict[str, Any], str]:
    from scoring.engine import get_engine

    game_type = rng.choice(["pot-de-vin", "complots"])
    info = get_engine(game_type).info
    assert info.simulate is not None
    players = rng.choice(info.player_counts)
    names = [f"{tag}-{i}" for i in range(players)]
    return info.simulate(players, seed=rng.randrange(2**31), names=names), game_type


def create_from(client: Client, log: dict[str, Any], game_type: str) -> int:
    body: dict[str, Any] = {
        "game_type": game_type,
        "players": log["players"],
        "first_player": log["first_player"],
    }
    for key in ("variant", "teams", "hands", "trump_pile"):
        if log.get(key) is not None:
            body[key] = log[key]
    return _create(client, body)


def _entries(log: dict[str, Any]) -> list[dict[str, Any]]:
    return list(log.get("rounds") or log.get("turns") or [])


def writer(client: Client, deadline: float, seed: int, games: list[int]) -> None:
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        log, game_type = _simulated(rng, f"w{seed}")
        game_id = create_from(client, log, game_type)
        games.append(game_id)
        for number, entry in enumerate(_entries(log), start=1):
            if time.monotonic() >= deadline:
                return
            append_entry(client, game_id, number, entry)
        _finish(client, game_id)


def _recorded(target: Callable[..., None], errors: list[str]) -> Callable[..., None]:
    """``target``, its failure noted in ``errors`` (a client that stops is a failed check)."""

    def run(*args: Any) -> None:
        try:
            target(*args)
        except Exception as exc:
            errors.append(f"{target.__name__}: {type(exc).__name__}: {exc}"[:300])

    return run


@dataclass
class Race:
    game: int
    number: int
    created: list[int | None] = field(default_factory=list)
    stored_after: int | None = None


def race_group(
    clients: list[Client],
    deadline: float,
    seed: int,
    races: list[Race],
    games: list[int],
    errors: list[str],
) -> None:
    """Every client of the group sends the same entry at the same moment, entry after entry:
    one must be stored, the others answered 409."""
    rng = random.Random(seed)
    barrier = threading.Barrier(len(clients), timeout=180)
    state: dict[str, Any] = {}

    def racer(index: int, client: Client) -> None:
        while True:
            if index == 0:
                if time.monotonic() >= deadline:
                    state["log"] = None
                else:
                    log, game_type = _simulated(rng, f"r{seed}")
                    state["log"] = log
                    state["game"] = create_from(client, log, game_type)
                    games.append(state["game"])
            barrier.wait()
            if state["log"] is None:
                return
            for number, entry in enumerate(_entries(state["log"]), start=1):
                if index == 0:
                    state["race"] = Race(state["game"], number)
                barrier.wait()
                status, _ = client.call(
                    "POST",
                    f"/api/games/{state['game']}/rounds/",
                    "POST rounds (race)",
                    {"number": number, **entry},
                )
                state["race"].created.append(status)
                barrier.wait()
                if index == 0:
                    race = state["race"]
                    if 201 not in race.created:  # every answer lost, or the database restarting
                        while (_entries_stored_surely(client, race.game) or 0) < number:
                            append_entry(client, race.game, number, entry)
                    race.stored_after = _entries_stored_surely(client, race.game)
                    races.append(race)
                    state["stop"] = time.monotonic() >= deadline
                barrier.wait()
                if state["stop"]:
                    break

    threads = [
        threading.Thread(target=_recorded(racer, errors), args=(i, c), daemon=True)
        for i, c in enumerate(clients)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def reader(
    client: Client, deadline: float, seed: int, games: list[int], players: list[int]
) -> None:
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        choice = rng.random()
        game_type = rng.choice(["pot-de-vin", "complots"])
        if choice < 0.5 and games:
            client.call("GET", f"/api/games/{rng.choice(games)}/", "GET game")
        elif choice < 0.75 and players:
            client.call(
                "GET",
                f"/api/players/{rng.choice(players)}/stats/?game_type={game_type}",
                "GET player stats",
            )
        else:
            client.call("GET", f"/api/leaderboard/?game_type={game_type}", "GET leaderboard")


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def text(self) -> str:
        verdict = ["checks: all passed"] if self.ok else ["CHECKS FAILED:", *self.failures]
        return "\n".join([*self.lines, *verdict])


def setup_django(database_url: str, broker_url: str) -> tuple[str, str]:
    """Migrate the throwaway database; a staff user's token for the clients."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="potdevin_site.settings",
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker_url,
        SECRET_KEY=SECRET_KEY,
    )
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("loadtest", is_staff=True)
    return Token.objects.create(user=user).key, user.get_username()


def site_env(pg: Postgres, redis: Redis) -> dict[str, str]:
    """The production server's settings on the test's own database and broker."""
    return {
        "DATABASE_URL": pg.url,
        "CELERY_BROKER_URL": redis.url,
        "CELERY_VISIBILITY_TIMEOUT": "10",
        "POTDEVIN_JOB_STALL_SECONDS": "6",
        "DEBUG": "0",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "POTDEVIN_THROTTLE_WRITES": "1000000/min",
        "POTDEVIN_PURE_ENGINE": os.environ.get("POTDEVIN_PURE_ENGINE", ""),
    }


def _seed_for_rescore(client: Client) -> None:
    from scoring.engine.potdevin.simulate import simulate

    logs = [simulate(3 + k % 4, seed=900_000 + k) for k in range(RESCORE_GAMES)]
    status, body = client.call("POST", "/api/games/import/", "POST import", logs)
    assert status == 201, (status, body)


def run(
    *,
    seconds: float,
    writers: int,
    race_groups: int,
    racers: int,
    readers: int,
    web_workers: int,
    faults: list[str],
    log_dir: Path,
) -> Report:
    report = Report()
    pg = Postgres()
    redis = Redis()
    site = None
    try:
        token, _ = setup_django(pg.url, redis.url)
        site = Site(site_env(pg, redis), web_workers=web_workers, log_dir=log_dir)
        calls = Calls()
        admin = Client(site.base, token, calls)
        if "restart-broker" in faults:
            _seed_for_rescore(admin)
        games: list[int] = []
        races: list[Race] = []
        deadline = time.monotonic() + seconds
        errors: list[str] = []
        threads = [
            threading.Thread(
                target=_recorded(writer, errors),
                args=(Client(site.base, token, calls), deadline, s, games),
            )
            for s in range(writers)
        ]
        threads += [
            threading.Thread(
                target=race_group,
                args=(
                    [Client(site.base, token, calls) for _ in range(racers)],
                    deadline,
                    1000 + g,
                    races,
                    games,
                    errors,
                ),
            )
            for g in range(race_groups)
        ]
        players = list(range(1, 40))
        threads += [
            threading.Thread(
                target=_recorded(reader, errors),
                args=(Client(site.base, token, calls), deadline, 2000 + r, games, players),
            )
            for r in range(readers)
        ]
        windows: list[tuple[float, float]] = []
        job: dict[str, Any] = {}
        fault_thread = threading.Thread(
            target=_recorded(_strike, errors),
            args=(faults, seconds, site, pg, redis, admin, windows, job),
        )
        start = time.monotonic()
        for t in [*threads, fault_thread]:
            t.daemon = True
            t.start()
        for t in [*threads, fault_thread]:
            t.join(timeout=seconds + 300)
        elapsed = time.monotonic() - start
        report.failures.extend(errors)
        _check(report, calls, races, games, windows, job, admin, faults, elapsed, seconds)
    finally:
        if site is not None:
            site.stop()
        redis.stop()
        pg.stop()
    return report


def _strike(
    faults: list[str],
    seconds: float,
    site: Site,
    pg: Postgres,
    redis: Redis,
    admin: Client,
    windows: list[tuple[float, float]],
    job: dict[str, Any],
) -> None:
    actions: dict[str, Callable[[], None]] = {}

    def kill_worker() -> None:
        job["killed"] = site.kill_a_web_worker()

    def restart_db() -> None:
        begin = time.monotonic()
        pg.restart()
        windows.append((begin, time.monotonic() + DB_RESTART_MARGIN))

    def restart_broker() -> None:
        status, body = admin.call("POST", "/api/rescore/", "POST rescore", {})
        assert status == 202, (status, body)
        job["id"] = body["id"]
        time.sleep(1.0)  # batches queued and being taken
        redis.restart()

    actions.update(
        {"kill-worker": kill_worker, "restart-db": restart_db, "restart-broker": restart_broker}
    )
    for fault in faults:  # spread over the load
        time.sleep(seconds / (len(faults) + 1))
        actions[fault]()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _check(
    report: Report,
    calls: Calls,
    races: list[Race],
    games: list[int],
    windows: list[tuple[float, float]],
    job: dict[str, Any],
    admin: Client,
    faults: list[str],
    elapsed: float,
    seconds: float,
) -> None:
    from scoring.engine import engine_for_log

    total = sum(len(v) for v in calls.latencies.values())
    report.lines.append(
        f"{total} requests in {elapsed:.1f} s: {total / elapsed:.0f} requests/s"
        f" (faults: {', '.join(faults) or 'none'})"
    )
    report.lines.append(f"{'route':<22} {'count':>7} {'p50 ms':>8} {'p99 ms':>8}")
    for route in sorted(calls.latencies):
        values = calls.latencies[route]
        report.lines.append(
            f"{route:<22} {len(values):>7} {1000 * statistics.median(values):>8.1f}"
            f" {1000 * percentile(values, 0.99):>8.1f}"
        )
    statuses = Counter()
    for (_, status), n in calls.statuses.items():
        statuses[status] += n
    report.lines.append(
        "statuses: "
        + ", ".join(
            f"{s}: {n}"
            for s, n in sorted(statuses.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
        )
    )

    allowed = [
        e
        for e in calls.server_errors
        if e[2] == 503 and e[3] == "unavailable" and any(a <= e[0] <= b for a, b in windows)
    ]
    others = [e for e in calls.server_errors if e not in allowed]
    if allowed:
        report.lines.append(f"{len(allowed)} answers 503 unavailable while the database restarted")
    if others:
        report.failures.append(f"{len(others)} 5xx answers: {others[:5]}")

    bad_races = [r for r in races if r.stored_after != r.number or r.created.count(201) > 1]
    for r in bad_races[:3]:
        report.lines.append(
            f"  race on game {r.game} entry {r.number}: answers {r.created}, "
            f"{r.stored_after} entries stored after"
        )
    report.lines.append(
        f"{len(races)} races, each of {len(races[0].created) if races else 0} clients at once"
    )
    if not races:
        report.failures.append("no race was run")
    if bad_races:
        report.failures.append(f"{len(bad_races)} races stored no entry or more than one")

    mismatched = []
    for game_id in sorted(set(games)):
        status, log = admin.call("GET", f"/api/games/{game_id}/log/", "GET log (check)")
        status2, detail = admin.call("GET", f"/api/games/{game_id}/", "GET game (check)")
        if status != 200 or status2 != 200:
            mismatched.append((game_id, status, status2))
            continue
        if engine_for_log(log).replay(log) != detail["result"]:
            mismatched.append((game_id, "result differs from a fresh replay"))
    report.lines.append(f"{len(set(games))} games replayed afresh and compared")
    if mismatched:
        report.failures.append(f"{len(mismatched)} games differ: {mismatched[:5]}")

    if "restart-broker" in faults:
        body: dict[str, Any] = {}
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            _, body = admin.call("GET", f"/api/rescore/{job['id']}/", "GET rescore")
            if body and body["status"] == "done":
                break
            time.sleep(1)
        failed = len(body.get("failures", []))
        report.lines.append(
            f"re-score job across the broker restart: {body.get('status')}, "
            f"{body.get('done')}/{body.get('total')} games, {failed} failures"
        )
        if body.get("status") != "done" or body.get("done") != body.get("total"):
            report.failures.append(f"the re-score job did not finish: {body}")
        elif body.get("failures"):
            report.failures.append(f"the re-score job failed games: {body['failures'][:3]}")
    if "kill-worker" in faults:
        report.lines.append(f"web worker {job.get('killed')} killed with SIGKILL mid-load")
