"""A hosted service's load: GAMES games of the three game types in clubs of 1,000 games, on
PostgreSQL and Redis with real worker processes (``make bench-scale``; not in ``make bench``).

GAMES is POTDEVIN_BENCH_SCALE_GAMES (default 1,000,000): 40% Pot de Vin, 30% Complots and 30%
Bruges, in clubs of 1,000 games and 30 players, dated over three years. Each club's games are
copied from a pool of simulated logs (decoded from their JSON, as stored logs are) with the
club's names and dates. Measured, with two worker processes (``--pool solo``, so that the
process read for its memory is the one that works):

- the load: one import job per club (``scoring.jobs.import_start``), from the first job
  started to the last one done; target >= 5,000 games/s. The time until the statistics and
  ratings have followed is printed beside it;
- latency: p50 of a player's statistics, head-to-head and a club's leaderboard, for the same
  players of the first clubs, once the first 10,000 games are loaded and again at GAMES;
  target: at most 1.5 times the first;
- re-score: a tenth of the games get a stale result (another seat wins, as an engine correction
  would find), their statistics and ratings made to follow it; then a re-score of every game
  (``scoring.jobs.rescore_start``), timed until the job is done and the statistics and ratings
  have followed; target >= 3,300 games/s. Then every game must have one item and no failure,
  the stale games exactly must have changed winners, and a sample of them must equal a fresh
  replay (results, seats and statistics);
- the database's own share: 1,000 of the loaded games' rows (record, statistics, ratings,
  job item) copied out and stored again, no Python at all, timed as the server's CPU; with
  the machine's cores, the most games a second any import code could reach here;
- memory: each worker's resident size every second during the load and the re-score; flat
  when its last value is within 10% of its value after the first minute;
- one worker process against two: the re-score of the games of the first months (a date
  filter, about a tenth of them), first with one, then with two.

Runs on its own PostgreSQL database (``potdevin_bench_scale``) and Redis database 13. A
million games take about half an hour at the targets, hours below them: try it with
POTDEVIN_BENCH_SCALE_GAMES=20000 (a few minutes).
POTDEVIN_JOB_BATCH_SIZE sets the games or documents per task (here 1,000 by default).
"""

from __future__ import annotations

import datetime
import json
import os
import random
import signal
import socket
import subprocess
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bench._common import (
    ROOT,
    fresh_postgres,
    p50_ms,
    settle,
    setup_django,
    start_workers,
    timed,
    token_client,
)

REDIS_URL = "redis://127.0.0.1:6379/13"
DATABASE = "potdevin_bench_scale"
GAMES = int(os.environ.get("POTDEVIN_BENCH_SCALE_GAMES", "1000000"))
BATCH_SIZE = os.environ.get("POTDEVIN_JOB_BATCH_SIZE", "1000")
POOL = int(os.environ.get("POTDEVIN_BENCH_SCALE_POOL", "1000"))  # simulated logs per game type
GAMES_PER_CLUB = 1000
PLAYERS_PER_CLUB = 30
SHARES = (("pot-de-vin", 4), ("complots", 3), ("bruges", 3))  # in tenths of a club's games
FIRST_DAY = datetime.date(2022, 1, 1)
DAYS = 3 * 365
CHECKPOINT = 10_000  # the first latency is measured with this many games stored
STALE_EVERY = 10  # one game in ten gets a stale result before the re-score
SAMPLE_CLUBS = 10
SAMPLE_PLAYERS = 3  # per sampled club
ROUNDS = 5  # of reads of every sampled player at every game type
REPLAYED = 100  # stale games replayed afresh after the re-score
FLOOR_GAMES = 1000  # games the database stores again, for its own cost alone
WORKERS = 2
LOAD_TARGET = 5000.0
RESCORE_TARGET = 3300.0
GROWTH_TARGET = 1.5
FLAT_TOLERANCE = 0.10
# A wait that lasts longer than this has met a stuck job or a dead worker.
DEADLINE = max(1800.0, GAMES / 100)


def main() -> int:
    try:
        database_url = fresh_postgres(DATABASE)
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
    except Exception as exc:  # noqa: BLE001 - any reason the services are not there
        print(f"skipped: needs the local PostgreSQL and Redis ({exc})")
        return 0
    env = {
        "CELERY_BROKER_URL": REDIS_URL,
        "POTDEVIN_JOB_BATCH_SIZE": BATCH_SIZE,
        "POTDEVIN_RATINGS_SYNC": "0",  # ratings follow in the workers, as deployed
    }
    setup_django(database_url, **env)
    (ROOT / "var" / "bench-scale-workers.log").unlink(missing_ok=True)
    bench = Bench(database_url, env)
    stopped = False
    try:
        bench.run()
    except Exception:  # noqa: BLE001 - what was measured before is still worth the table
        traceback.print_exc()
        stopped = True
    finally:
        bench.stop()
    met = bench.summary()
    return 1 if stopped or not met else 0


@dataclass
class Row:
    figure: str
    value: str
    target: str = ""
    met: bool | None = None  # None: measured, no target


@dataclass
class Bench:
    database_url: str
    env: dict[str, str]
    rows: list[Row] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    sampler: MemorySampler | None = None

    def run(self) -> None:
        from django.contrib.auth import get_user_model

        from scoring import jobs

        print(
            f"{GAMES:,} games in clubs of {GAMES_PER_CLUB:,}, batches of {jobs.batch_size()} "
            f"(POTDEVIN_JOB_BATCH_SIZE), {WORKERS} worker processes",
            flush=True,
        )
        start = time.perf_counter()
        pool = log_pool(POOL)
        print(
            f"  {POOL:,} logs simulated per game type in {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        owner = get_user_model().objects.create_user("bench-owner", is_staff=True)
        clubs = clubs_create(owner, -(-GAMES // GAMES_PER_CLUB))
        reader, client = token_client("bench-reader")
        reader_join(reader, clubs[:SAMPLE_CLUBS])

        self.start_workers(WORKERS)
        self.sampler = MemorySampler({f"scale{k}": w.pid for k, w in enumerate(self.workers)})
        self.sampler.start()

        # The load, in two parts: up to the checkpoint, where latency is first measured.
        first = min(CHECKPOINT, GAMES)
        with self.sampler.phase("load"):
            loaded = self.load(pool, clubs, owner, 0, first)
        sample = sample_players(clubs[:SAMPLE_CLUBS])
        before = self.latency(client, sample, first)
        if first < GAMES:
            with self.sampler.phase("load"):
                more = self.load(pool, clubs, owner, first, GAMES)
            loaded = tuple(a + b for a, b in zip(loaded, more, strict=True))
            after = self.latency(client, sample, GAMES)
        else:
            after = before
        self.load_rows(*loaded)
        for key in before:
            growth = after[key] / before[key]
            figure = f"p50 {key}, {first:,} -> {GAMES:,} games"
            value = f"{before[key]:.1f} -> {after[key]:.1f} ms ({growth:.2f}x)"
            if key == "baseline":
                # It reads nothing that grows: its growth is the machine's (another process).
                self.rows.append(Row(f"  {figure} (GET /api/me/)", value))
            else:
                self.rows.append(
                    Row(figure, value, f"<= {GROWTH_TARGET}x", growth <= GROWTH_TARGET)
                )

        self.rows.append(database_floor(self.database_url))
        stale = plant_stale()
        self.wait_until_idle()
        print(f"  {len(stale):,} games given a stale result, statistics following it", flush=True)
        with self.sampler.phase("re-score"):
            job_id, job_seconds, total_seconds = self.rescore(owner)
        self.rows.append(
            Row(
                "re-score, statistics and ratings included",
                f"{GAMES / total_seconds:,.0f} games/s ({total_seconds:.1f} s; "
                f"job alone {job_seconds:.1f} s)",
                f">= {RESCORE_TARGET:,.0f} games/s",
                GAMES / total_seconds >= RESCORE_TARGET,
            )
        )
        problems = exactly_once(job_id, stale)
        for problem in problems:
            print(f"  exactly once: {problem}")
        self.rows.append(
            Row(
                "re-score: every game once, stale ones fixed",
                "yes" if not problems else f"{len(problems)} problem(s)",
                "all",
                not problems,
            )
        )
        self.stop()
        self.memory_rows()
        self.scale_out(owner)

    def start_workers(self, count: int) -> None:
        """``count`` worker processes, each working in its own process (``--pool solo``);
        returns once each answers a ping."""
        from potdevin_site.celery import app

        env = {**self.env, "DATABASE_URL": self.database_url, "DEBUG": "0"}
        self.workers = start_workers(
            env, count, name="scale", log="bench-scale-workers.log", solo=True
        )
        names = {f"scale{k}@{socket.gethostname()}" for k in range(count)}
        deadline = time.monotonic() + 60
        while True:
            self.check_workers()
            answered = {name for reply in app.control.ping(timeout=0.5) for name in reply}
            if names <= answered:
                return
            if time.monotonic() > deadline:
                raise RuntimeError(f"workers {sorted(names - answered)} did not start")

    def stop(self) -> None:
        if self.sampler is not None:
            self.sampler.stop.set()
        for worker in self.workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
        for worker in self.workers:
            try:
                worker.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
        self.workers = []

    def check_workers(self) -> None:
        dead = [w.pid for w in self.workers if w.poll() is not None]
        if dead:
            raise RuntimeError(f"worker process(es) {dead} died (var/bench-scale-workers.log)")

    def load(
        self, pool: dict[str, list[dict[str, Any]]], clubs: list[Any], owner: Any, at: int, to: int
    ) -> tuple[float, ...]:
        """Import games ``at`` to ``to``, one job per club; returns the seconds from the first
        job started to the last one started, to the last one done, and to the statistics and
        ratings settled."""
        from scoring import jobs
        from scoring.models import JobItem

        start = time.perf_counter()
        started = []
        for first in range(at, to, GAMES_PER_CLUB):
            index = first // GAMES_PER_CLUB
            documents = club_documents(pool, index, min(GAMES_PER_CLUB, to - first))
            job = jobs.import_start(club=clubs[index], created_by=owner, documents=documents)
            started.append(job.pk)
        submitted = time.perf_counter() - start
        self.wait_for_jobs(started)
        jobs_seconds = time.perf_counter() - start
        # Every document is a simulated legal game: one refused is a fault, the rest void.
        refused = JobItem.objects.filter(job_id__in=started, ok=False)
        first_error = refused.values_list("error", flat=True).first()
        if first_error is not None:
            raise RuntimeError(f"{refused.count()} documents refused, first: {first_error}")
        self.wait_until_idle()
        settled = time.perf_counter() - start
        print(
            f"  games {at:,} to {to:,} imported in {jobs_seconds:.1f} s "
            f"({(to - at) / jobs_seconds:,.0f} games/s; its {len(started)} jobs started in "
            f"{submitted:.1f} s), settled in {settled:.1f} s",
            flush=True,
        )
        return submitted, jobs_seconds, settled

    def load_rows(self, submitted: float, jobs_seconds: float, settled: float) -> None:
        from games.records.models import Game
        from scoring.models import Job, JobItem

        stored = Game.objects.count()
        refused = JobItem.objects.filter(job__kind=Job.Kind.IMPORT, ok=False).count()
        rate = GAMES / jobs_seconds
        self.rows.append(
            Row(
                "import jobs, first started to last done",
                f"{rate:,.0f} games/s ({jobs_seconds:.1f} s)",
                f">= {LOAD_TARGET:,.0f} games/s",
                rate >= LOAD_TARGET,
            )
        )
        self.rows.append(Row("  of which import_start calls (this process)", f"{submitted:.1f} s"))
        self.rows.append(
            Row(
                "everything loaded, statistics and ratings settled",
                f"{settled:.1f} s ({settled / 60:.1f} min)",
            )
        )
        self.rows.append(
            Row(
                "games stored, documents refused",
                f"{stored:,} of {GAMES:,}, {refused} refused",
                "all, none",
                stored == GAMES and not refused,
            )
        )

    def latency(self, client: Any, sample: list[tuple[int, str]], games: int) -> dict[str, float]:
        """p50 of each read, every sampled player at every game type, once the database has
        been analyzed (autovacuum would have, on a service that has run a while). The least of
        ROUNDS rounds' p50: a burst of another process on the machine does not count. GET
        /api/me/ is shown beside them as the baseline of a request that reads nothing."""
        settle()
        types = [game_type for game_type, _ in SHARES]
        reads: dict[str, Callable[[int, str, str], Any]] = {
            "player stats": lambda p, _, t: client.get(
                f"/api/players/{p}/stats/", {"game_type": t}
            ),
            "head-to-head": lambda p, _, t: client.get(
                f"/api/players/{p}/head-to-head/", {"game_type": t}
            ),
            "leaderboard": lambda _, c, t: client.get(
                "/api/leaderboard/", {"club": c, "game_type": t}
            ),
            "baseline": lambda p, c, t: client.get("/api/me/"),
        }
        calls = [(player, club, t) for player, club in sample for t in types]
        for read in reads.values():  # warm-up: code imported, caches filled
            for player, club, game_type in calls[:30]:
                timed(lambda f=read, p=player, c=club, t=game_type: f(p, c, t))
        rounds: dict[str, list[float]] = {name: [] for name in reads}
        for _ in range(ROUNDS):
            for name, read in reads.items():
                times = [
                    timed(lambda f=read, p=player, c=club, t=game_type: f(p, c, t))
                    for player, club, game_type in calls
                ]
                rounds[name].append(p50_ms(times))
        found = {name: min(p50s) for name, p50s in rounds.items()}
        shown = ", ".join(f"{name} {ms:.1f} ms" for name, ms in found.items())
        print(f"  p50 at {games:,} games ({len(sample)} players): {shown}", flush=True)
        return found

    def rescore(self, owner: Any, **filters: Any) -> tuple[int, float, float]:
        """A re-score job; returns its id, the seconds until it is done, and until the
        statistics and ratings have followed."""
        from scoring import jobs

        start = time.perf_counter()
        job = jobs.rescore_start(created_by=owner, **filters)
        self.wait_for_jobs([job.pk])
        job_seconds = time.perf_counter() - start
        self.wait_until_idle()
        total = time.perf_counter() - start
        print(
            f"  re-score of {job.total:,} games with {len(self.workers)} worker(s): job done in "
            f"{job_seconds:.1f} s, followed in {total:.1f} s ({job.total / total:,.0f} games/s)",
            flush=True,
        )
        return job.pk, job_seconds, total

    def scale_out(self, owner: Any) -> None:
        """The same re-score of the first months' games with one worker process, then two."""
        from scoring import jobs
        from scoring.models import Job

        size = min(GAMES, max(GAMES // 10, 8 * jobs.batch_size()))
        date_to = subset_end(size)
        rates = {}
        for count in (1, 2):
            self.start_workers(count)
            job_id, _, seconds = self.rescore(owner, date_from=FIRST_DAY, date_to=date_to)
            self.stop()
            rates[count] = Job.objects.get(pk=job_id).total / seconds
        for count, rate in rates.items():
            self.rows.append(
                Row(
                    f"re-score to {date_to}, {count} worker process(es)",
                    f"{rate:,.0f} games/s",
                )
            )
        self.rows.append(Row("  two workers against one", f"{rates[2] / rates[1]:.2f}x"))

    def memory_rows(self) -> None:
        assert self.sampler is not None
        print("  worker memory (MB: first, after a minute, peak, last; VmHWM at the end):")
        all_flat = True
        for phase in self.sampler.phases:
            for name in self.sampler.samples:
                report = self.sampler.report(name, phase)
                if report is None:
                    continue
                first, minute, peak, last, hwm = report
                flat = abs(last - minute) <= FLAT_TOLERANCE * minute
                all_flat = all_flat and flat
                print(
                    f"    {name} {phase:<9} {first:7.0f} {minute:7.0f} {peak:7.0f} {last:7.0f}"
                    f"  {hwm:7.0f}  {'flat' if flat else 'GROWS'}"
                )
        self.rows.append(
            Row(
                "worker memory, last vs after a minute",
                "flat" if all_flat else "grows",
                f"within {FLAT_TOLERANCE:.0%}",
                all_flat,
            )
        )

    def wait_for_jobs(self, job_ids: Iterable[int]) -> None:
        """Until every job is done; polls the running ones' status only."""
        from scoring.models import Job

        running = set(job_ids)
        deadline = time.monotonic() + DEADLINE
        while running:
            ended = dict(
                Job.objects.filter(pk__in=running)
                .exclude(status=Job.Status.RUNNING)
                .values_list("pk", "status")
            )
            failed = {pk for pk, status in ended.items() if status != Job.Status.DONE}
            if failed:
                raise RuntimeError(f"job(s) {sorted(failed)} failed")
            running -= set(ended)
            self.check_workers()
            if time.monotonic() > deadline:
                raise RuntimeError(f"{len(running)} job(s) still running after {DEADLINE:.0f} s")
            time.sleep(0.1)

    def wait_until_idle(self) -> None:
        """Until nothing is queued or unacknowledged (every task is acknowledged late, so a
        running one counts) and no ratings change is pending, twice in a row."""
        import redis

        from scoring.models import RatingsPending

        queue = redis.Redis.from_url(REDIS_URL)
        deadline = time.monotonic() + DEADLINE
        quiet = 0
        while quiet < 2:
            busy = (
                queue.llen("celery") > 0
                or queue.hlen("unacked") > 0
                or RatingsPending.objects.exists()
            )
            quiet = 0 if busy else quiet + 1
            self.check_workers()
            if time.monotonic() > deadline:
                raise RuntimeError(f"the workers were still busy after {DEADLINE:.0f} s")
            time.sleep(0.2)

    def summary(self) -> bool:
        """The table of every figure; whether every target was met."""
        if not self.rows:
            return False
        width = max(len(row.figure) for row in self.rows)
        values = max(len(row.value) for row in self.rows)
        print(f"summary, {GAMES:,} games:")
        for row in self.rows:
            verdict = "" if row.met is None else ("met" if row.met else "MISSED")
            print(f"  {row.figure:<{width}}  {row.value:<{values}}  {row.target:<18} {verdict}")
        return all(row.met is not False for row in self.rows)


class MemorySampler(threading.Thread):
    """Each worker's VmRSS and VmHWM (/proc/<pid>/status) every second."""

    def __init__(self, pids: dict[str, int]) -> None:
        super().__init__(daemon=True)
        self.pids = pids
        self.samples: dict[str, list[tuple[float, int, int]]] = {name: [] for name in pids}
        # Each phase's spans of time: the load's two parts leave out the reads between them.
        self.phases: dict[str, list[tuple[float, float]]] = {}
        self.stop = threading.Event()

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        finally:
            self.phases.setdefault(name, []).append((start, time.monotonic()))

    def run(self) -> None:
        while not self.stop.is_set():
            now = time.monotonic()
            for name, pid in self.pids.items():
                status = read_status(pid)
                if status:
                    self.samples[name].append((now, status["VmRSS"], status["VmHWM"]))
            self.stop.wait(1.0)

    def report(self, name: str, phase: str) -> tuple[float, float, float, float, float] | None:
        """MB: first, after the first minute (or half the phase, when shorter), peak, last,
        and the process's peak so far at the end."""
        spans = self.phases[phase]
        inside = [s for s in self.samples[name] if any(a <= s[0] <= b for a, b in spans)]
        if not inside:
            return None
        minute = min(60.0, (inside[-1][0] - inside[0][0]) / 2)
        after = next(s for s in inside if s[0] >= inside[0][0] + minute)
        mb = 1024.0
        return (
            inside[0][1] / mb,
            after[1] / mb,
            max(s[1] for s in inside) / mb,
            inside[-1][1] / mb,
            inside[-1][2] / mb,
        )


def read_status(pid: int) -> dict[str, int]:
    """The process's memory lines of /proc/<pid>/status, in kB; empty once it has ended."""
    try:
        with open(f"/proc/{pid}/status") as status:
            lines = status.read().splitlines()
    except OSError:
        return {}
    found = {}
    for line in lines:
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            found[key] = int(value.split()[0])
    return found if len(found) == 2 else {}


def log_pool(size: int) -> dict[str, list[dict[str, Any]]]:
    """``size`` simulated logs per game type, of every player count, each decoded from its JSON
    as a stored log is."""
    from scoring.engine.bruges.simulate import simulate as bruges
    from scoring.engine.complots.simulate import simulate as complots
    from scoring.engine.potdevin.simulate import simulate as potdevin

    simulators: dict[str, Callable[[int], dict[str, Any]]] = {
        "pot-de-vin": lambda k: potdevin(3 + k % 4, seed=k, teams=k % 8 == 1),
        "complots": lambda k: complots(2 + k % 7, seed=k),
        "bruges": lambda k: bruges(2 + k % 3, seed=k),
    }
    return {
        game_type: [json.loads(json.dumps(simulate(k))) for k in range(size)]
        for game_type, simulate in simulators.items()
    }


def club_documents(
    pool: dict[str, list[dict[str, Any]]], club: int, count: int
) -> list[dict[str, Any]]:
    """``count`` logs of club number ``club``: the pool's, with the club's players and dates.
    The same for the same club."""
    rng = random.Random(club)
    names = [f"Player {k:02d}" for k in range(PLAYERS_PER_CLUB)]
    kinds = [game_type for game_type, share in SHARES for _ in range(share)]
    documents = []
    for n in range(count):
        template = rng.choice(pool[kinds[n % len(kinds)]])
        played_on = FIRST_DAY + datetime.timedelta(days=rng.randrange(DAYS))
        documents.append(
            {
                **template,
                "players": rng.sample(names, len(template["players"])),
                "played_on": played_on.isoformat(),
            }
        )
    return documents


def clubs_create(owner: Any, count: int) -> list[Any]:
    from games.records.models import Club, Membership

    clubs = Club.objects.bulk_create(
        Club(name=f"Club {k:05d}", slug=f"scale-{k:05d}") for k in range(count)
    )
    Membership.objects.bulk_create(
        Membership(club=club, user=owner, role=Membership.Role.OWNER) for club in clubs
    )
    return clubs


def reader_join(reader: Any, clubs: Sequence[Any]) -> None:
    from games.records.models import Membership

    Membership.objects.bulk_create(
        Membership(club=club, user=reader, role=Membership.Role.MEMBER) for club in clubs
    )


def sample_players(clubs: Sequence[Any]) -> list[tuple[int, str]]:
    """The players whose reads are timed (id, club slug): the first SAMPLE_PLAYERS of each of
    ``clubs`` (the logs made them). The same players at every size: their clubs are full by
    the checkpoint, so only what the other clubs add around them grows."""
    from games.records.models import Player

    sample: list[tuple[int, str]] = []
    for club in clubs:
        ids = Player.objects.filter(club=club).order_by("pk").values_list("pk", flat=True)
        sample.extend((pk, club.slug) for pk in ids[:SAMPLE_PLAYERS])
    return sample


def database_floor(database_url: str, games: int = FLOOR_GAMES) -> Row:
    """What PostgreSQL alone spends to store ``games`` of the loaded games again, with no
    Python work at all: their rows as the import job leaves them (the game, its seats, entries
    and history, its statistics and ratings rows, its job item) copied out in COPY's binary
    form, then copied in under new ids and committed (the foreign keys are checked then). The
    server process's CPU time (/proc), the least of three runs on freshly vacuumed tables; the
    rows are deleted after each. The import target leaves (cores / target) of CPU per game for
    everything: this much of it is the database's before any code runs."""
    import psycopg

    from games.records.models import Game, GameEvent, Round, Seat
    from scoring.models import JobItem, PlayerGame, RatingHistory

    shift = 10**9  # past every id here; the item's key (an int column) too
    models = (Game, Seat, Round, GameEvent, PlayerGame, RatingHistory, JobItem)
    tick = os.sysconf("SC_CLK_TCK")
    with psycopg.connect(database_url) as conn:
        first, last = conn.execute(
            f"SELECT MIN(id), MIN(id) + %s FROM {Game._meta.db_table}", [games]
        ).fetchone()
        copied = []
        for model in models:
            columns = [f.column for f in model._meta.concrete_fields]
            shifted = {"id", "game_id", "key"} & set(columns)
            values = ", ".join(f"{c} + {shift}" if c in shifted else c for c in columns)
            key = "id" if model is Game else "game_id"
            where = f"{key} >= {first} AND {key} < {last}"
            data = bytearray()
            with conn.cursor().copy(
                f"COPY (SELECT {values} FROM {model._meta.db_table} WHERE {where}) "
                "TO STDOUT (FORMAT binary)"
            ) as copy:
                for block in copy:
                    data += block
            copied.append((model._meta.db_table, key, ", ".join(columns), bytes(data)))
        pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        conn.commit()

        def server_cpu() -> float:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick  # utime + stime

        runs = []  # each run: server CPU seconds per table, then for the commit
        for _ in range(3):
            vacuum(conn, [table for table, *_ in copied])  # the best case: no dead rows
            spent: dict[str, float] = {}
            for table, _, columns, data in copied:
                before = server_cpu()
                with conn.cursor().copy(
                    f"COPY {table} ({columns}) FROM STDIN (FORMAT binary)"
                ) as copy:
                    copy.write(data)
                spent[table] = server_cpu() - before
            before = server_cpu()
            conn.commit()
            spent["commit"] = server_cpu() - before
            runs.append(spent)
            for table, key, _, _ in reversed(copied):
                conn.execute(f"DELETE FROM {table} WHERE {key} >= {shift}")
            conn.commit()
    best = min(runs, key=lambda spent: sum(spent.values()))
    per_game = sum(best.values()) / games
    # The record itself: the game, its seats and its entries, with the commit's key checks.
    record = {Game._meta.db_table, Seat._meta.db_table, Round._meta.db_table, "commit"}
    record_per_game = sum(v for k, v in best.items() if k in record) / games
    cores = os.cpu_count() or 1
    shown = ", ".join(f"{table} {seconds * 1000 / games:.2f}" for table, seconds in best.items())
    print(
        f"  the database alone stores {games:,} of the games again: {per_game * 1000:.2f} ms of "
        f"server CPU a game ({shown}; runs {', '.join(f'{sum(r.values()):.2f}' for r in runs)} s)",
        flush=True,
    )
    return Row(
        f"database alone, {games:,} stored games written again",
        f"{per_game * 1000:.2f} ms CPU a game (the record alone {record_per_game * 1000:.2f}): "
        f"<= {cores / per_game:,.0f} games/s on {cores} cores",
    )


def vacuum(conn: Any, tables: Sequence[str]) -> None:
    conn.autocommit = True  # VACUUM runs outside a transaction
    try:
        conn.execute(f"VACUUM ANALYZE {', '.join(tables)}")
    finally:
        conn.autocommit = False


def plant_stale() -> list[int]:
    """Give one finished game in STALE_EVERY a stale result, as an older engine might have
    stored it: the winning unit (seat, or team) and the last one swap ranks and scores in the
    result and the seats. The statistics and ratings follow the stale result, so a re-score
    must rewrite them. Returns the games changed."""
    from django.db import connection, transaction

    from games.records.models import Game, Seat
    from scoring import jobs, stats

    ids = list(
        Game.objects.filter(status=Game.Status.FINISHED)
        .order_by("pk")
        .values_list("pk", flat=True)[::STALE_EVERY]
    )
    game_table, seat_table = Game._meta.db_table, Seat._meta.db_table
    planted = []
    for chunk in jobs.chunks(ids, 2000):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                f"SELECT id, result -> 'players' FROM {game_table} WHERE id = ANY(%s)", [chunk]
            )
            games, players_json, winners_json = [], [], []
            seat_rows: list[list[Any]] = [[], [], [], []]  # game, seat, rank, score
            for game_id, players in cursor.fetchall():
                swapped = stale(json.loads(players) if isinstance(players, str) else players)
                if swapped is None:
                    continue
                games.append(game_id)
                players_json.append(json.dumps(swapped))
                winners = sorted(p["seat"] for p in swapped if p["rank"] == 1)
                winners_json.append(json.dumps(winners))
                for p in swapped:
                    for column, value in zip(
                        seat_rows, (game_id, p["seat"], p["rank"], p["score"]), strict=True
                    ):
                        column.append(value)
            if not games:
                continue
            cursor.execute(
                f"UPDATE {game_table} AS g SET result = jsonb_set(jsonb_set(g.result, "
                "'{players}', v.players), '{winners}', v.winners) FROM (SELECT "
                "unnest(%s::bigint[]) AS id, unnest(%s::text[])::jsonb AS players, "
                "unnest(%s::text[])::jsonb AS winners) AS v WHERE g.id = v.id",
                [games, players_json, winners_json],
            )
            cursor.execute(
                f"UPDATE {seat_table} AS s SET rank = v.rank, score = v.score FROM (SELECT "
                "unnest(%s::bigint[]) AS game_id, unnest(%s::int[]) AS seat, "
                "unnest(%s::int[]) AS rank, unnest(%s::int[]) AS score) AS v "
                "WHERE s.game_id = v.game_id AND s.seat = v.seat",
                seat_rows,
            )
            stats.game_results_changed(game_ids=games)
        planted.extend(games)
    return planted


def stale(players: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The result's players with the first-ranked unit and the last one swapped; None when
    every unit shares one rank."""
    team_play = any(p["team"] is not None for p in players)

    def unit(p: dict[str, Any]) -> int:
        return int(p["team"] if team_play else p["seat"])

    rank = {unit(p): p["rank"] for p in players}
    score = {unit(p): p["score"] for p in players}
    best = min(rank, key=lambda u: (rank[u], u))
    worst = max(rank, key=lambda u: (rank[u], u))
    if rank[best] == rank[worst]:
        return None
    other = {best: worst, worst: best}
    return [
        {**p, "rank": rank[other[unit(p)]], "score": score[other[unit(p)]]}
        if unit(p) in other
        else p
        for p in players
    ]


def exactly_once(job_id: int, stale_ids: list[int]) -> list[str]:
    """What is wrong with the re-score job: items against games, failures, the games whose
    winners changed against the stale ones, and a sample of the stale games against a fresh
    replay (result, seats, statistics)."""
    from django.db.models import Count, F

    from games.records import adapters
    from games.records.models import Game, Seat
    from scoring.jobs import job_progress
    from scoring.models import Job, JobItem, PlayerGame

    job = Job.objects.get(pk=job_id)
    items = JobItem.objects.filter(job=job)
    games = Game.objects.count()
    problems = []
    counted = items.aggregate(items=Count("id"), keys=Count("key", distinct=True))
    if not counted["items"] == counted["keys"] == games == job.total:
        problems.append(f"{counted} items and keys for {games} games (job total {job.total})")
    missing = Game.objects.exclude(pk__in=items.values("key")).count()
    if missing:
        problems.append(f"{missing} games without an item")
    failed = items.filter(ok=False)
    if failed.exists():
        first = failed.values_list("error", flat=True).first()
        problems.append(f"{failed.count()} games failed, first: {first}")
    progress = job_progress(job)  # what a client polling the job is told
    if progress["done"] != games or progress["failures"]:
        problems.append(f"progress says {progress['done']} done, failures {progress['failures']}")
    changed = set(
        items.filter(ok=True)
        .exclude(winners_before=None)
        .exclude(winners_before=F("winners_after"))
        .values_list("game_id", flat=True)
    )
    if changed != set(stale_ids):
        problems.append(
            f"{len(changed)} games changed winners, {len(stale_ids)} stale, "
            f"{len(changed ^ set(stale_ids))} differ"
        )
    sample = sorted(random.Random(0).sample(stale_ids, min(REPLAYED, len(stale_ids))))
    stored = adapters.stored_games(sample)
    seats: dict[int, dict[int, tuple[Any, Any]]] = {g: {} for g in sample}
    for game_id, seat, score, rank in Seat.objects.filter(game_id__in=sample).values_list(
        "game_id", "seat", "score", "rank"
    ):
        seats[game_id][seat] = (score, rank)
    facts: dict[int, dict[int, tuple[Any, Any]]] = {g: {} for g in sample}
    for game_id, seat, score, rank in PlayerGame.objects.filter(game_id__in=sample).values_list(
        "game_id", "seat", "score", "rank"
    ):
        facts[game_id][seat] = (score, rank)
    wrong = 0
    for game in Game.objects.filter(pk__in=sample).select_related("edition"):
        names = [name for _, _, name in stored[game.pk].seats]
        fresh = json.loads(json.dumps(adapters.rescore(game, names, stored[game.pk].rounds)))
        expected = {p["seat"]: (p["score"], p["rank"]) for p in fresh["players"]}
        if fresh != game.result or seats[game.pk] != expected or facts[game.pk] != expected:
            wrong += 1
    if wrong:
        problems.append(f"{wrong} of {len(sample)} stale games differ from a fresh replay")
    return problems


def subset_end(size: int) -> datetime.date:
    """The date up to which about ``size`` games were played (from the first day)."""
    from games.records.models import Game

    dates = Game.objects.order_by("played_on").values_list("played_on", flat=True)
    return dates[size - 1]
