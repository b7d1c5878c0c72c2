"""The scale bench, step by step: the workers started, the load in two parts with the reads
timed after each, the database's floor, the re-score of stale results, then one worker against
two. Imported once Django is set up (it reads the models)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import redis
from django.contrib.auth import get_user_model

from bench._common import p50_ms, settle, start_workers, timed, token_client
from bench.scale.config import (
    CHECKPOINT,
    DEADLINE,
    FIRST_DAY,
    GAMES,
    GAMES_PER_CLUB,
    GROWTH_TARGET,
    LOAD_SHARE,
    POOL,
    REDIS_URL,
    RESCORE_TARGET,
    ROUNDS,
    SAMPLE_CLUBS,
    SHARES,
    WORKERS,
)
from bench.scale.floor import Floor, database_floor
from bench.scale.load import club_documents, clubs_create, log_pool, reader_join, sample_players
from bench.scale.report import MemorySampler, Row, cpu_seconds, memory_row
from bench.scale.rescore import exactly_once, plant_stale, subset_end
from games.records.models import Game
from potdevin_site.celery import app
from scoring import jobs
from scoring.models import Job, JobItem, RatingsPending


@dataclass
class Bench:
    database_url: str
    env: dict[str, str]
    rows: list[Row] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    sampler: MemorySampler | None = None

    def run(self) -> None:
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
        # The floor is measured on the games just loaded, and the load is judged against it.
        self.load_rows(*loaded, database_floor(self.database_url))
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

        stale = plant_stale()
        self.wait_until_idle()
        print(f"  {len(stale):,} games given a stale result, statistics following it", flush=True)
        with self.sampler.phase("re-score"):
            job_id, job_seconds, total_seconds, workers_cpu = self.rescore(owner)
        self.rows.append(
            Row(
                "re-score, statistics and ratings included",
                f"{GAMES / total_seconds:,.0f} games/s ({total_seconds:.1f} s; "
                f"job alone {job_seconds:.1f} s)",
                f">= {RESCORE_TARGET:,.0f} games/s",
                GAMES / total_seconds >= RESCORE_TARGET,
            )
        )
        self.rows.append(
            Row(
                "  CPU a game, workers, re-score",
                f"{workers_cpu * 1000 / GAMES:.2f} ms (statistics and ratings included)",
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
        assert self.sampler is not None
        self.rows.append(memory_row(self.sampler))
        self.scale_out(owner)

    def start_workers(self, count: int) -> None:
        """``count`` worker processes, each working in its own process (``--pool solo``);
        returns once each answers a ping."""
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
        ratings settled, then the CPU seconds of the ``import_start`` calls and of the workers
        until the statistics and ratings settled (the machine may run other work: CPU time is
        what compares between runs)."""
        start = time.perf_counter()
        workers_cpu = sum(cpu_seconds(w.pid) for w in self.workers)
        submitting_cpu = 0.0
        started = []
        for first in range(at, to, GAMES_PER_CLUB):
            index = first // GAMES_PER_CLUB
            documents = club_documents(pool, index, min(GAMES_PER_CLUB, to - first))
            cpu = time.process_time()
            job = jobs.import_start(club=clubs[index], created_by=owner, documents=documents)
            submitting_cpu += time.process_time() - cpu
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
        workers_cpu = sum(cpu_seconds(w.pid) for w in self.workers) - workers_cpu
        print(
            f"  games {at:,} to {to:,} imported in {jobs_seconds:.1f} s "
            f"({(to - at) / jobs_seconds:,.0f} games/s; its {len(started)} jobs started in "
            f"{submitted:.1f} s, {submitting_cpu:.1f} s of CPU), settled in {settled:.1f} s; "
            f"workers' CPU {workers_cpu:.1f} s",
            flush=True,
        )
        return submitted, jobs_seconds, settled, submitting_cpu, workers_cpu

    def load_rows(
        self,
        submitted: float,
        jobs_seconds: float,
        settled: float,
        submitting_cpu: float,
        workers_cpu: float,
        floor: Floor,
    ) -> None:
        stored = Game.objects.count()
        refused = JobItem.objects.filter(job__kind=Job.Kind.IMPORT, ok=False).count()
        rate = GAMES / jobs_seconds
        target = float(LOAD_SHARE) * floor.rate
        print(
            f"  import: {rate:,.0f} games/s; floor {floor.rate:,.0f} games/s; target >= "
            f"{target:,.0f} ({LOAD_SHARE} of floor)",
            flush=True,
        )
        self.rows.append(
            Row(
                "import jobs, first started to last done",
                f"{rate:,.0f} games/s ({jobs_seconds:.1f} s); floor {floor.rate:,.0f} games/s",
                f">= {target:,.0f} games/s ({LOAD_SHARE} of floor)",
                rate >= target,
            )
        )
        self.rows.append(
            Row(
                "  of which import_start calls (this process)",
                f"{submitted:.1f} s ({submitting_cpu:.1f} s of CPU)",
            )
        )
        self.rows.append(
            Row(
                "  CPU a game, import_start (this process) and workers",
                f"{submitting_cpu * 1000 / GAMES:.2f} ms and {workers_cpu * 1000 / GAMES:.2f} ms "
                "(statistics and ratings included)",
            )
        )
        self.rows.append(
            Row(f"  the floor: the database alone, {floor.games:,} games written again", str(floor))
        )
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

    def rescore(self, owner: Any, **filters: Any) -> tuple[int, float, float, float]:
        """A re-score job; returns its id, the seconds until it is done, and until the
        statistics and ratings have followed, and the workers' CPU seconds until then."""
        start = time.perf_counter()
        workers_cpu = sum(cpu_seconds(w.pid) for w in self.workers)
        job = jobs.rescore_start(created_by=owner, **filters)
        self.wait_for_jobs([job.pk])
        job_seconds = time.perf_counter() - start
        self.wait_until_idle()
        total = time.perf_counter() - start
        workers_cpu = sum(cpu_seconds(w.pid) for w in self.workers) - workers_cpu
        print(
            f"  re-score of {job.total:,} games with {len(self.workers)} worker(s): job done in "
            f"{job_seconds:.1f} s, followed in {total:.1f} s ({job.total / total:,.0f} games/s); "
            f"workers' CPU {workers_cpu:.1f} s",
            flush=True,
        )
        return job.pk, job_seconds, total, workers_cpu

    def scale_out(self, owner: Any) -> None:
        """The same re-score of the first months' games with one worker process, then two."""
        size = min(GAMES, max(GAMES // 10, 8 * jobs.batch_size()))
        date_to = subset_end(size)
        rates = {}
        for count in (1, 2):
            self.start_workers(count)
            job_id, _, seconds, _ = self.rescore(owner, date_from=FIRST_DAY, date_to=date_to)
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

    def wait_for_jobs(self, job_ids: Iterable[int]) -> None:
        """Until every job is done; polls the running ones' status only."""
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
