"""``make loadtest`` (``python -m loadtest [--seconds S] [--fault F ...]``): a bounded load test
of the production server on PostgreSQL and Redis, on this machine only.

Everything runs on servers of the test's own (loadtest/services.py): a PostgreSQL cluster, a
Redis, gunicorn and a Celery worker. For a fixed time, concurrent clients append entries to
their own games (Pot de Vin rounds and Complots turns), groups of clients race to append the
same entry of a shared game, and others read games, statistics and the leaderboard. A fault
may strike in the middle: a web worker killed with SIGKILL mid-request (`kill-worker`), the
database restarted (`restart-db`), or the broker restarted while a re-score job runs
(`restart-broker`). Then the checks: no 5xx (but the 503s the API owes clients while its
database restarts), every race stored exactly one entry, every game's stored result equals a
fresh replay of its exported log, and a re-score job finished with every game scored once.
Prints requests per second and p50/p99 per route; exits 1 if a check failed.

``--watch`` runs instead a table of phones following its games (loadtest/watch.py): 40 phones
asking 4 games' pages again every 1.5 s (304 while unchanged) while one phone per game enters a
round every few seconds, against the same entries alone, and reports the watchers' extra load.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from loadtest.run import FAULTS, run
from loadtest.watch import WATCHERS, run_watch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loadtest", description=__doc__)
    parser.add_argument("--seconds", type=float, default=60, help="how long the load lasts")
    parser.add_argument("--writers", type=int, default=6, help="clients writing own games")
    parser.add_argument("--race-groups", type=int, default=2, help="groups racing on a game")
    parser.add_argument("--racers", type=int, default=3, help="clients per race group")
    parser.add_argument("--readers", type=int, default=4, help="clients reading")
    parser.add_argument("--web-workers", type=int, default=5, help="gunicorn workers")
    parser.add_argument(
        "--fault", choices=FAULTS, action="append", default=[], help="a fault mid-load"
    )
    parser.add_argument(
        "--watch", action="store_true", help="phones following games instead (watch.py)"
    )
    parser.add_argument(
        "--watchers", type=int, default=WATCHERS, help="--watch: phones watching the games"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="potdevin-loadtest-") as logs:
        if args.watch:
            report = run_watch(
                seconds=args.seconds,
                watchers=args.watchers,
                web_workers=args.web_workers,
                log_dir=Path(logs),
            )
            print(report.text())
            return 0 if report.ok else 1
        report = run(
            seconds=args.seconds,
            writers=args.writers,
            race_groups=args.race_groups,
            racers=args.racers,
            readers=args.readers,
            web_workers=args.web_workers,
            faults=args.fault,
            log_dir=Path(logs),
        )
    print(report.text())
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
