"""Writing a re-score batch: the games whose results changed, by primary key, and every game's
item. On PostgreSQL results go through a server-binding cursor and the items through COPY (the
bulk of a job's database time is these writes)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any, NamedTuple

import orjson
import psycopg
from django.db import connection
from django.db.models import Model

from games.records.bulk import update_rows
from games.records.models import Game, Seat
from scoring.models import JobItem
from scoring.stats.db import insert


class GameWrite(NamedTuple):
    id: int
    result: dict[str, Any]
    result_digest: str | None  # ``games.records.models.result_digest(result)``
    engine_version: str
    edition_id: int | None
    updated_at: datetime.datetime


class SeatWrite(NamedTuple):
    id: int
    score: int | None
    rank: int | None


def store_results(games: Sequence[GameWrite]) -> None:
    """UPDATE each re-scored game's result and its digest, engine version, edition and time by
    primary key.

    These results (several KB of JSON each) are most of a batch's writes, so on PostgreSQL
    they go through a server-binding cursor (the JSON is sent as a parameter, not quoted into
    the SQL text) with orjson doing the encoding; psycopg pipelines the statements."""
    if not games:
        return
    sql = _update_sql(Game, ["result", "result_digest", "engine_version", "edition", "updated_at"])
    if connection.vendor == "postgresql":
        sql = sql.replace(" = %s,", " = %s::jsonb,", 1)  # the result, sent as JSON text
        rows = [
            (
                _json_text(g.result),
                g.result_digest,
                g.engine_version,
                g.edition_id,
                g.updated_at,
                g.id,
            )
            for g in games
        ]
        with _server_binding_cursor() as cursor:
            cursor.executemany(sql, rows)
        return
    field = Game._meta.get_field("result")
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                (
                    field.get_db_prep_save(g.result, connection),
                    g.result_digest,
                    g.engine_version,
                    g.edition_id,
                    connection.ops.adapt_datetimefield_value(g.updated_at),
                    g.id,
                )
                for g in games
            ],
        )


def store_seat_scores(seats: Sequence[SeatWrite]) -> None:
    """UPDATE each seat's score and rank (``games.records.bulk.update_rows``: on PostgreSQL one
    statement over arrays, since a batch has hundreds of seats)."""
    update_rows(Seat, ("score", "rank"), seats)


def same_result(result: Any, stored: Any) -> bool:
    """Whether a result computed again is the one stored, whatever order the database gave the
    keys in: for a game stored without a digest of its result (the others compare digests).
    Compared as Python values first (three times cheaper than encoding both); when those
    differ, in one canonical JSON form, where a result's integer keys are the stored one's
    strings. (Python takes 1, 1.0 and True as equal: a change of a value's JSON type alone
    comes with a new engine version, which is compared beside.)"""
    if result == stored:
        return True
    canonical = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    return orjson.dumps(result, option=canonical) == orjson.dumps(stored, option=canonical)


class Item(NamedTuple):
    """A ``JobItem`` row as a batch writes it: a tuple, since a batch makes a thousand of them
    and a model instance costs more than the row's whole write."""

    job_id: int
    key: int
    game_id: int | None
    ok: bool
    outcome: str = ""
    error: dict[str, Any] | None = None
    winners_before: Any = None
    winners_after: Any = None


ITEM_FIELDS = ("job", "key", "game", "ok", "outcome", "error", "winners_before", "winners_after")


def store_items(items: Sequence[Item]) -> None:
    """Insert a batch's items (COPY on PostgreSQL): one per game, a million for a job over
    every game."""
    insert(JobItem, ITEM_FIELDS, items)


def _update_sql(model: type[Model], field_names: Sequence[str]) -> str:
    """``UPDATE table SET f1 = %s, ... WHERE pk = %s`` for these fields of ``model``."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [quote(meta.get_field(name).column) for name in field_names]  # type: ignore[union-attr]
    assignments = ", ".join(f"{c} = %s" for c in columns)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"


def _json_text(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _server_binding_cursor() -> psycopg.Cursor[Any]:
    """A cursor on Django's own connection (so inside its transaction) that sends parameters
    separately from the SQL; Django's cursors quote them into the statement text."""
    connection.ensure_connection()
    return psycopg.Cursor(connection.connection)
