"""Writing a re-score batch's results: by primary key, through a server-binding cursor on
PostgreSQL (the bulk of a job's time is these writes)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson
import psycopg
from django.db import connection
from django.db.models import Model
from psycopg.types.json import Jsonb

from games.models import Game, Seat


def store_results(games: Sequence[Game]) -> None:
    """UPDATE each re-scored game's result, engine version, edition and time by primary key.

    These results (several KB of JSON each) are most of a batch's writes, so on PostgreSQL
    they go through a server-binding cursor (the JSON is sent as a parameter, not quoted into
    the SQL text) with orjson doing the encoding; psycopg pipelines the statements."""
    if not games:
        return
    sql = _update_sql(Game, ["result", "engine_version", "edition", "updated_at"])
    if connection.vendor == "postgresql":
        rows = [
            (Jsonb(g.result, dumps=_json_bytes), g.engine_version, g.edition_id, g.updated_at, g.pk)
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
                    g.engine_version,
                    g.edition_id,
                    connection.ops.adapt_datetimefield_value(g.updated_at),
                    g.pk,
                )
                for g in games
            ],
        )


def store_seat_scores(seats: Sequence[Seat]) -> None:
    """UPDATE each seat's score and rank: on PostgreSQL one statement over arrays, since every
    statement costs a round trip and a batch has hundreds of seats."""
    if not seats:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            table = connection.ops.quote_name(Seat._meta.db_table)
            cursor.execute(
                f"UPDATE {table} SET score = v.score, rank = v.rank"
                " FROM unnest(%s::integer[], %s::integer[], %s::bigint[]) AS v(score, rank, id)"
                f" WHERE {table}.id = v.id",
                [[s.score for s in seats], [s.rank for s in seats], [s.pk for s in seats]],
            )
        else:
            cursor.executemany(
                _update_sql(Seat, ["score", "rank"]), [(s.score, s.rank, s.pk) for s in seats]
            )


def _update_sql(model: type[Model], field_names: Sequence[str]) -> str:
    """``UPDATE table SET f1 = %s, ... WHERE pk = %s`` for these fields of ``model``."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [quote(meta.get_field(name).column) for name in field_names]  # type: ignore[union-attr]
    assignments = ", ".join(f"{c} = %s" for c in columns)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"


def _json_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _server_binding_cursor() -> psycopg.Cursor[Any]:
    """A cursor on Django's own connection (so inside its transaction) that sends parameters
    separately from the SQL; Django's cursors quote them into the statement text."""
    connection.ensure_connection()
    return psycopg.Cursor(connection.connection)
