"""A hosted service's load: GAMES games of the three game types in clubs of 1,000 games, on
PostgreSQL and Redis with real worker processes (``make bench-scale``; not in ``make bench``).

GAMES is POTDEVIN_BENCH_SCALE_GAMES (default 1,000,000): 40% Pot de Vin, 30% Complots and 30%
Bruges, in clubs of 1,000 games and 30 players, dated over three years. Each club's games are
copied from a pool of simulated logs (decoded from their JSON, as stored logs are) with the
club's names and dates. Measured, with two worker processes (``--pool solo``, so that the
process read for its memory is the one that works):

- the load: one import job per club (``scoring.jobs.import_start``, which only checks the
  documents against the gate of stored JSON and stores them: the workers' batches clean, replay
  and store them), from the first job started to the last one done; target >= 2/3 of the
  database's floor below, measured in the same run and printed beside it. The time
  ``import_start`` took in this process, and the time until the statistics and ratings have
  followed, are printed beside it;
- latency: p50 of a player's statistics, head-to-head and a club's leaderboard, for the same
  players of the first clubs, once the first 10,000 games are loaded and again at GAMES;
  target: at most 1.5 times the first;
- re-score: a tenth of the games get a stale result (another seat wins, as an engine correction
  would find), stored as the code of that engine would have stored it, with the digest of the
  stale result itself (the re-score compares digests, ``Game.result_digest``), their
  statistics and ratings made to follow it; then a re-score of every game
  (``scoring.jobs.rescore_start``), timed until the job is done and the statistics and ratings
  have followed; target >= 3,300 games/s. Then every game must have one item and no failure,
  the stale games exactly must have changed winners, and a sample of them must equal a fresh
  replay (results, seats and statistics);
- the database's own share (the floor), right after the load: 1,000 of the loaded games' rows
  (record, statistics, ratings, job item) copied out and stored again, no Python at all, timed
  as the server's CPU; with the machine's cores, the most games a second any import code could
  reach here. The load's target is 2/3 of it (``config.LOAD_SHARE``), so that it holds on any
  machine: a fixed rate would be met or missed by the machine, not the code;
- memory: each worker's resident size every second during the load and the re-score; flat
  when its last value is within 10% of its value after the first minute;
- one worker process against two: the re-score of the games of the first months (a date
  filter, about a tenth of them), first with one, then with two.

The summary is a table of every figure with a target: its measured value, its target, met or
MISSED; what is measured beside them (no target) is listed after it, among which the CPU time a
game of ``import_start`` in this process and of the workers, during the load and the re-score:
the machine may run other work, and CPU time is what compares between runs.

Runs on its own PostgreSQL database (``potdevin_bench_scale``) and Redis database 13. A
million games take about half an hour at the targets, hours below them: try it with
POTDEVIN_BENCH_SCALE_GAMES=20000 (a few minutes).
POTDEVIN_JOB_BATCH_SIZE sets the games or documents per task (here 1,000 by default).

The modules: ``config`` (the sizes and targets), ``run`` (the bench, step by step), ``load``
(the clubs and their logs), ``rescore`` (the stale results and the checks after the re-score),
``floor`` (the database's own share) and ``report`` (the rows, the memory samples, the table).
"""

from __future__ import annotations

import traceback

import redis

from bench._common import ROOT, fresh_postgres, setup_django
from bench.scale.config import BATCH_SIZE, DATABASE, REDIS_URL
from bench.scale.report import summary


def main() -> int:
    try:
        database_url = fresh_postgres(DATABASE)
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
    # Only now: the bench's modules read Django's models, which exist once Django is set up.
    from bench.scale.run import Bench

    bench = Bench(database_url, env)
    stopped = False
    try:
        bench.run()
    except Exception:  # noqa: BLE001 - what was measured before is still worth the table
        traceback.print_exc()
        stopped = True
    finally:
        bench.stop()
    met = summary(bench.rows)
    return 1 if stopped or not met else 0
