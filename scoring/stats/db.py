"""Database helpers of the statistics: advisory locks, chunks of ids, fast bulk inserts."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

CHUNK = 500  # ids per IN (...) list: well under SQLite's limit on query parameters
BATCH = 2000  # rows per bulk insert
# Transaction-scoped PostgreSQL advisory locks (SQLite has one writer at a time anyway): one
# statistics refresh at a time, so each reads the rows the one before it committed, and one
# ratings recompute at a time.
STATS_LOCK_KEY = 0x706F7473  # "pots"
RATINGS_LOCK_KEY = 0x706F7464  # "potd"


def lock(key: int) -> None:
    """Wait for the advisory lock ``key`` until the transaction ends (PostgreSQL only)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


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
    """Insert many rows: with COPY on PostgreSQL, one prepared statement on SQLite. Far faster
    than ``bulk_create`` for the thousands of rows of an import or a ratings recompute. JSON
    columns take plain Python values."""
    meta = model._meta
    columns = [meta.get_field(f) for f in fields]
    table = connection.ops.quote_name(meta.db_table)
    names = ", ".join(connection.ops.quote_name(c.column) for c in columns)  # type: ignore[union-attr,arg-type]
    kinds = [c.get_internal_type() for c in columns]
    dates = [i for i, kind in enumerate(kinds) if kind == "DateField"]
    documents = [i for i, kind in enumerate(kinds) if kind == "JSONField"]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    if documents:
                        row = list(row)
                        for i in documents:
                            row[i] = json.dumps(row[i])
                    copy.write_row(row)
            return
        sql = f"INSERT INTO {table} ({names}) VALUES ({marks(len(columns))})"
        adapt = connection.ops.adapt_datefield_value
        batch: list[list[Any]] = []
        for row in rows:
            values = list(row)
            for i in dates:
                values[i] = adapt(values[i])
            for i in documents:
                values[i] = json.dumps(values[i])
            batch.append(values)
            if len(batch) >= BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


def vacuum(*models: type[Model]) -> None:
    """After a bulk rewrite on PostgreSQL: reclaim the dead rows and refresh the planner's
    statistics, so that reads do not step over the old versions until autovacuum comes. Only
    outside a transaction (VACUUM cannot run inside one)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM (ANALYZE) {tables}")
