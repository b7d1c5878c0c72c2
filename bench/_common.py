"""What the benchmarks share: a database of their own, Django set up on it, stored games,
and timing helpers. (Modules starting with _ are not benchmarks: `python -m bench` skips them.)"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# Project imports inside functions: a benchmark sets Django up on a database of its own first
# (``setup_django``), and models can be imported only after that (Django's app loading).

ROOT = Path(__file__).resolve().parents[1]
PG_SERVER = "postgresql://postgres@127.0.0.1:5432"


def start_workers(
    env: dict[str, str], count: int, *, name: str, log: str, solo: bool = False
) -> list[Any]:
    """``count`` Celery worker processes of one process each, named ``{name}{k}@host``, in
    sessions of their own (stop one with ``os.killpg``), writing to ``var/{log}``. ``solo``:
    the worker process does the work itself (``--pool solo``), so its memory is the work's."""
    import subprocess
    import sys

    out = open(ROOT / "var" / log, "a")  # noqa: SIM115 - the workers keep writing to it
    pool = "--pool solo " if solo else ""
    options = f"worker -l warning {pool}--concurrency 1 --without-gossip --without-mingle"
    command = [sys.executable, "-m", "celery", "-A", "potdevin_site", *options.split()]
    return [
        subprocess.Popen(
            [*command, "--without-heartbeat", "-n", f"{name}{k}@%h"],
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        for k in range(count)
    ]


def fresh_postgres(name: str) -> str:
    """An empty PostgreSQL database ``name`` on the local server; its URL."""
    import psycopg

    with psycopg.connect(f"{PG_SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def fresh_sqlite(name: str) -> str:
    path = ROOT / "var" / f"{name}.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return f"sqlite:///{path}"


def setup_django(database_url: str, **env: str) -> None:
    """Django on ``database_url``, migrated, with DEBUG off (it keeps every query in memory)."""
    os.environ.update(DATABASE_URL=database_url, DEBUG="0", **env)
    # No worker serves a bench that names no broker: what it queues (ratings recomputes after
    # its loads) stays in its own memory instead of the developer's folder queue.
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-not-for-production")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "potdevin_site.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def store_games(owner: Any, count: int, *, first_seed: int = 0) -> None:
    """``count`` simulated Pot de Vin games of every player count, stored as an import stores
    them (the statistics follow each chunk), in chunks of 1,000."""
    from django.db import transaction

    from games.records import services
    from scoring.engine.potdevin.simulate import simulate

    editions = services.EditionCache()
    club = bench_club()
    for at in range(first_seed, first_seed + count, 1000):
        seeds = range(at, min(first_seed + count, at + 1000))
        logs = [simulate(3 + k % 4, seed=k, teams=k % 8 == 1, names=_names(k)) for k in seeds]
        planned = [
            services.import_plan(club=club, owner=owner, document=d, editions=editions)
            for d in logs
        ]
        with transaction.atomic():
            services.import_store(club=club, owner=owner, planned=planned)
    settle()


def bench_club() -> Any:
    """The club the measured games are in: the one the migrations make."""
    from games.records.models import Club

    return Club.objects.order_by("id").first()


def settle() -> None:
    """After a bulk load, what autovacuum would soon do anyway: VACUUM ANALYZE, so the planner
    has statistics and the measured runs do not pay for the load (PostgreSQL's own advice for
    freshly populated tables)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


PEOPLE = [f"Player {k:02d}" for k in range(40)]  # a club of 40


def _names(seed: int) -> list[str]:
    import random

    return random.Random(seed).sample(PEOPLE, 3 + seed % 4)


def p50_ms(timings: list[float]) -> float:
    return statistics.median(timings) * 1000


def timed(call: Callable[[], Any], expect: int = 200) -> float:
    start = time.perf_counter()
    response = call()
    elapsed = time.perf_counter() - start
    if response.status_code != expect:
        raise RuntimeError(f"{response.status_code}: {response.content[:300]!r}")
    return elapsed


def token_client(username: str, *, staff: bool = False) -> tuple[Any, Any]:
    """A user and a Django test client that sends its API token."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from rest_framework.authtoken.models import Token

    from games.records.models import Membership

    user = get_user_model().objects.create_user(username, is_staff=staff)
    Membership.objects.create(club=bench_club(), user=user, role=Membership.Role.RECORDER)
    token = Token.objects.create(user=user)
    return user, Client(HTTP_AUTHORIZATION=f"Token {token.key}")
