"""Re-score throughput with real Celery workers, against the in-process replay loop.

On a PostgreSQL database of its own (``potdevin_bench``) and the local Redis: GAMES simulated
games are stored, then
- the in-process replay loop: one process loads every game's log from the database, batch by
  batch as the job does, and replays it with the engine (no writes);
- end to end: a re-score job with a corrected deck (an edition) is started and timed until its
  last batch is stored, with two worker processes (one per core) doing the batches.
Target: end to end at least 50% of the in-process loop's games per second.
"""

from __future__ import annotations

import os
import signal
import time

from bench._common import fresh_postgres, setup_django, start_workers, store_games

# Project imports inside functions: a benchmark sets Django up on a database of its own first
# (``setup_django``), and models can be imported only after that (Django's app loading).

REDIS_URL = "redis://127.0.0.1:6379/14"
GAMES = int(os.environ.get("POTDEVIN_BENCH_GAMES", "10000"))
TARGET = 0.5


def main() -> int:
    try:
        database_url = fresh_postgres("potdevin_bench_jobs")
        import redis

        redis.Redis.from_url(REDIS_URL).flushdb()
    except Exception as exc:  # noqa: BLE001 - any reason the services are not there
        print(f"skipped: needs the local PostgreSQL and Redis ({exc})")
        return 0
    setup_django(database_url, CELERY_BROKER_URL=REDIS_URL)
    from django.contrib.auth import get_user_model

    from games.records import adapters
    from games.records.models import Edition, Game
    from scoring import jobs, stats
    from scoring.engine.potdevin.decks import standard_layout
    from scoring.models import Job

    owner = get_user_model().objects.create_user("bench", is_staff=True)
    start = time.perf_counter()
    store_games(owner, GAMES)
    # The loads queued ratings catch-ups for the workers: do that follow-up once here instead,
    # so the timed job is all the workers have to do.
    redis.Redis.from_url(REDIS_URL).flushdb()
    stats.ratings_catch_up()
    print(f"{GAMES} games stored and rated in {time.perf_counter() - start:.1f} s (PostgreSQL)")
    ids = list(Game.objects.order_by("id").values_list("id", flat=True))

    # In-process replay loop: the job's reads and replays, batch by batch, without writes.
    start = time.perf_counter()
    for batch in jobs.chunks(ids, jobs.batch_size()):
        games = (
            Game.objects.filter(pk__in=batch)
            .select_related("edition")
            .defer("result", "edition__data")
        )
        stored = adapters.stored_games(batch)
        for game in games:
            names = [name for _, _, name in stored[game.pk].seats]
            adapters.replay(game, names, stored[game.pk].rounds)
    loop_rate = GAMES / (time.perf_counter() - start)

    layout = standard_layout()
    layout["A10"], layout["P10"] = layout["P10"], layout["A10"]
    corrected = Edition.objects.create(game_type="pot-de-vin", key="corrected", data=layout)
    workers = start_workers(
        {"DATABASE_URL": database_url, "CELERY_BROKER_URL": REDIS_URL},
        2,
        name="bench",
        log="bench-workers.log",
    )
    try:
        time.sleep(3)  # let the workers connect
        start = time.perf_counter()
        job = jobs.rescore_start(created_by=owner, new_edition=corrected)
        while Job.objects.get(pk=job.pk).status == Job.Status.RUNNING:
            time.sleep(0.05)
        job_seconds = time.perf_counter() - start
        _wait_until_idle()  # the follow-up: statistics, then the ratings task
        follow_up = time.perf_counter() - start - job_seconds
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait(timeout=30)
    progress = jobs.job_progress(Job.objects.get(pk=job.pk))
    assert progress["done"] == GAMES and not progress["failures"], progress["failures"][:3]

    job_rate = GAMES / job_seconds
    ratio = job_rate / loop_rate
    print(f"re-score of {GAMES} games, batches of {jobs.batch_size()}")
    print(f"  in-process replay loop (reads + engine): {loop_rate:8,.0f} games/s")
    print(f"  end to end, 2 worker processes:          {job_rate:8,.0f} games/s")
    verdict = "met" if ratio >= TARGET else "MISSED"
    print(f"  ratio {ratio:.2f}  target >= {TARGET:.2f} {verdict}")
    print(f"  then statistics and ratings follow in {follow_up:.1f} s (not in the ratio)")
    return 0


def _wait_until_idle() -> None:
    """Until the workers have nothing running and nothing queued, twice in a row."""
    import redis

    from potdevin_site.celery import app

    queue = redis.Redis.from_url(REDIS_URL)
    quiet = 0
    while quiet < 2:
        active = app.control.inspect(timeout=0.5).active() or {}
        busy = any(active.values()) or queue.llen("celery") > 0
        quiet = 0 if busy else quiet + 1
        time.sleep(0.2)
