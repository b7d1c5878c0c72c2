"""Database helpers of the statistics: advisory locks, chunks of ids, fast bulk inserts."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

from games.records import bulk

CHUNK = 500  # ids per IN (...) list: well under SQLite's limit on query parameters
BATCH = 2000  # rows per bulk insert
# Transaction-scoped PostgreSQL advisory locks (SQLite has one writer at a time anyway), taken
# per club (``clubs_lock``): one statistics refresh of a club at a time, so each reads the rows
# the one before it committed, and one ratings recompute of a club at a time.
STATS_LOCK_KEY = 0x706F7473  # "pots"
RATINGS_LOCK_KEY = 0x706F7464  # "potd"


def lock(key: int) -> None:
    """Wait for the advisory lock ``key`` until the transaction ends (PostgreSQL only)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def clubs_lock(key: int, clubs: Iterable[int] | None) -> None:
    """Wait for the advisory locks of ``key`` over ``clubs`` until the transaction ends
    (PostgreSQL only): a lock per club, in club order, under ``key`` held shared; ``None``
    (every club) holds ``key`` alone, exclusive. Work on different clubs runs side by side,
    work on every club waits for all of it (and it for that)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        if clubs is None:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
            return
        cursor.execute("SELECT pg_advisory_xact_lock_shared(%s)", [key])
        for club in sorted(set(clubs)):
            # The two-key form: (key, club) never meets the one-key form above.
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [key, club])


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for at in range(0, len(items), size):
        yield items[at : at + size]


def marks(count: int) -> str:
    """``%s, %s, ...``: the parameters of an IN (...) list."""
    return ", ".join(["%s"] * count)


def as_date(value: Any) -> datetime.date:
    """A date read by raw SQL (SQLite gives the ISO text)."""
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


def insert(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert many rows: with COPY on PostgreSQL, one prepared statement on SQLite
    (``games.records.bulk.insert_rows``). Far faster than ``bulk_create`` for the thousands of rows
    of an import or a ratings recompute. JSON columns take plain Python values."""
    bulk.insert_rows(model, fields, rows)


def delete(model: type[Model], pks: Sequence[int]) -> None:
    """Delete these rows of ``model`` by primary key, an IN (...) list of CHUNK at a time."""
    for chunk in chunks(pks):
        model._default_manager.filter(pk__in=chunk).delete()


def vacuum(*models: type[Model]) -> None:
    """After a bulk rewrite on PostgreSQL: reclaim the dead rows and refresh the planner's
    statistics, so that reads do not step over the old versions until autovacuum comes. Only
    outside a transaction (VACUUM cannot run inside one)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM (ANALYZE) {tables}")
