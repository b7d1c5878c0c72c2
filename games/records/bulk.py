"""Fast inserts of many rows, the one COPY writer of the project (and updates of many rows by
key, ``update_rows``).

``bulk_create`` on PostgreSQL adapts every value through its field, builds one array
parameter per column (psycopg quotes every element of it) and asks for the ids back: an
import's thousands of games, seats and rounds spent most of their time there. Here the ids
come from the table's sequence in one query and the rows go through ``COPY ... FROM STDIN``,
the values of the common types as they are (the field's own adaptation only for others), and
JSON encoded by orjson. On other databases ``bulk_create`` is used: SQLite returns the ids
and writes fast enough.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Sequence
from operator import attrgetter
from typing import Any

import orjson
from django.db import DEFAULT_DB_ALIAS, connection, router
from django.db.backends.utils import CursorWrapper
from django.db.models import DateField, DateTimeField, Field, Model
from django.db.models.fields import AutoFieldMixin

BATCH = 2000  # rows per INSERT statement where COPY is not there (SQLite)


# Values json.dumps writes otherwise than orjson (a str enum's value, an OrderedDict) or
# refuses (a date) are left to json.dumps: orjson raises for them.
_STRICT = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME
_STRICT |= orjson.OPT_PASSTHROUGH_DATACLASS


def json_bytes(value: Any) -> bytes:
    """``value`` as JSON, as Django's ``JSONField`` would send it to be stored, fast.

    orjson writes the same JSON values as ``json.dumps`` for values of JSON's own types, but
    for NaN and the infinities, which it writes as null, and for keys that are not strings
    and integers past 64 bits, which it refuses. These take ``json.dumps``, so that the
    database stores or refuses them as it does Django's own writes (PostgreSQL refuses NaN).
    Text no database takes, a lone surrogate or NUL, is refused by PostgreSQL either way.
    (UUIDs and plain enums, which ``json.dumps`` refuses, orjson writes as their values.)"""
    try:
        data = orjson.dumps(value, option=_STRICT)
    except orjson.JSONEncodeError:
        return json.dumps(value).encode()
    # A NaN or an infinity became null: only then can what is read back differ.
    if b"null" in data and orjson.loads(data) != value:
        return json.dumps(value).encode()
    return data


def _json(value: Any) -> str:
    # As text, which psycopg writes without a call into Python per value (a Jsonb would take
    # one); the column's type reads it.
    return json_bytes(value).decode()


def _copy(
    cursor: CursorWrapper, model: type[Model], columns: Sequence[str], rows: Iterable[Any]
) -> None:
    """Write ``rows`` (sequences of values psycopg adapts, JSON wrapped by ``_json``) into
    these columns of ``model``'s table with COPY (PostgreSQL only)."""
    quote = connection.ops.quote_name
    names = ", ".join(quote(c) for c in columns)
    sql = f"COPY {quote(model._meta.db_table)} ({names}) FROM STDIN"
    # psycopg's cursor, not Django's: its errors become Django's (IntegrityError...) here.
    with connection.wrap_database_errors, cursor.cursor.copy(sql) as copy:
        write = copy.write_row
        for row in rows:
            write(row)


def insert_rows(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert many rows of plain values into these fields of ``model`` (no objects, no ids
    back): with COPY on PostgreSQL, one prepared statement on other databases. JSON columns
    take plain Python values."""
    meta = model._meta
    columns: list[Field[Any, Any]] = [meta.get_field(f) for f in fields]  # type: ignore[misc]
    documents = [i for i, c in enumerate(columns) if c.get_internal_type() == "JSONField"]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            if documents:
                rows = (_with_json(row, documents) for row in rows)
            _copy(cursor, model, [c.column for c in columns], rows)
            return
        quote = connection.ops.quote_name
        names = ", ".join(quote(c.column) for c in columns)
        marks = ", ".join(["%s"] * len(columns))
        sql = f"INSERT INTO {quote(meta.db_table)} ({names}) VALUES ({marks})"
        adapted = _adapter(columns)
        batch: list[list[Any]] = []
        for row in rows:
            batch.append(adapted(row))
            if len(batch) >= BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


def update_rows(model: type[Model], fields: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Set these fields (of plain types, not JSON) of many rows of ``model``, each row given as
    its primary key then the fields' values: on PostgreSQL one ``UPDATE ... FROM unnest(...)``
    per ``BATCH`` rows (a statement per row costs a round trip each), an ``executemany``
    elsewhere. A key no row has is passed over."""
    if not rows:
        return
    meta = model._meta
    quote = connection.ops.quote_name
    columns: list[Field[Any, Any]] = [meta.get_field(f) for f in fields]  # type: ignore[misc]
    pk = meta.pk
    assert pk is not None
    table, key = quote(meta.db_table), quote(pk.column)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            kinds = [pk.db_type(connection), *(c.db_type(connection) for c in columns)]
            arrays = ", ".join(f"%s::{kind}[]" for kind in kinds)
            names = ", ".join(f"v{i}" for i in range(len(kinds)))
            sets = ", ".join(f"{quote(c.column)} = v.v{i}" for i, c in enumerate(columns, 1))
            sql = (
                f"UPDATE {table} SET {sets} FROM unnest({arrays}) AS v({names}) "
                f"WHERE {table}.{key} = v.v0"
            )
            for at in range(0, len(rows), BATCH):
                cursor.execute(sql, [list(c) for c in zip(*rows[at : at + BATCH], strict=True)])
            return
        sets = ", ".join(f"{quote(c.column)} = %s" for c in columns)
        adapted = _adapter(columns)
        values = [[*adapted(row[1:]), row[0]] for row in rows]
        cursor.executemany(f"UPDATE {table} SET {sets} WHERE {key} = %s", values)


def _adapter(columns: Sequence[Field[Any, Any]]) -> Callable[[Sequence[Any]], list[Any]]:
    """A row's values for these columns as Django writes them where there is no COPY: dates and
    times adapted (SQLite: times as UTC text without an offset, which compares with Django's),
    JSON encoded by ``json.dumps`` (None as SQL NULL)."""
    kinds = [c.get_internal_type() for c in columns]
    dates = [i for i, kind in enumerate(kinds) if kind == "DateField"]
    times = [i for i, kind in enumerate(kinds) if kind == "DateTimeField"]
    documents = [i for i, kind in enumerate(kinds) if kind == "JSONField"]
    adapt = connection.ops.adapt_datefield_value
    adapt_time = connection.ops.adapt_datetimefield_value

    def adapted(row: Sequence[Any]) -> list[Any]:
        values = list(row)
        for i in dates:
            values[i] = adapt(values[i])
        for i in times:
            values[i] = adapt_time(values[i])
        for i in documents:
            values[i] = _json_or_null(values[i], json.dumps)
        return values

    return adapted


def _with_json(row: Sequence[Any], documents: Sequence[int]) -> list[Any]:
    values = list(row)
    for i in documents:
        values[i] = _json_or_null(values[i], _json)
    return values


def _json_or_null(value: Any, encode: Callable[[Any], str]) -> str | None:
    # None is SQL NULL, as Django stores it in a JSON column, not the JSON null.
    return None if value is None else encode(value)


def bulk_insert(objs: Sequence[Model]) -> None:
    """Store new objects of one model as ``Model.objects.bulk_create(objs)`` does, and set
    each one's primary key, on every database (with COPY on PostgreSQL's default one).
    Raises ``TypeError`` for objects of several models, and what ``bulk_create`` raises for
    an object it refuses (``ValueError`` for an unsaved related object) or the database
    refuses (as Django's errors: ``IntegrityError``, ``DataError``)."""
    if not objs:
        return
    model = type(objs[0])
    if any(type(obj) is not model for obj in objs):
        raise TypeError("bulk_insert stores objects of one model at a time")
    fast = connection.vendor == "postgresql" and router.db_for_write(model) == DEFAULT_DB_ALIAS
    writer = _writer(model) if fast else None
    if writer is None:
        model._default_manager.bulk_create(objs)
        return
    writer.write(objs)


class _Unwritable(Exception):
    """A value COPY cannot write (an expression, a database default): ``bulk_create`` it."""


# How a column's value is turned into what COPY writes: the value of a common type as it is,
# else the field's own adaptation. Each kind is the Python type a field's value has when
# Django would pass it to the driver unchanged.
_PLAIN: dict[str, type] = {
    "AutoField": int,
    "BigAutoField": int,
    "SmallAutoField": int,
    "IntegerField": int,
    "BigIntegerField": int,
    "SmallIntegerField": int,
    "PositiveIntegerField": int,
    "PositiveBigIntegerField": int,
    "PositiveSmallIntegerField": int,
    "CharField": str,
    "TextField": str,
    "SlugField": str,
    "EmailField": str,
    "URLField": str,
    "BooleanField": bool,
    "FloatField": float,
    "DateField": datetime.date,
}


# The sequence found once (inside nextval it would be looked up for every row), then one id
# for each row: other sessions may take ids from the sequence meanwhile.
_NEXT_IDS = """
    WITH seq AS MATERIALIZED (SELECT pg_get_serial_sequence(%s, %s)::regclass AS id)
    SELECT nextval(seq.id) FROM seq, generate_series(1, %s)"""


class _Writer:
    """What COPY needs of one model's rows, worked out once per model."""

    def __init__(self, model: type[Model]) -> None:
        meta = model._meta
        self.model = model
        self.pk: Field[Any, Any] = meta.pk  # type: ignore[assignment]
        fields = [f for f in meta.concrete_fields if not f.generated]
        self.fields: list[Field[Any, Any]] = fields  # type: ignore[assignment]
        self.read = attrgetter(*(f.attname for f in fields))
        # Dates set at saving (auto_now, auto_now_add): one moment for all the objects of a
        # call, as the database's own now() is one per transaction.
        self.stamps = [(i, f) for i, f in enumerate(fields) if _stamped(f)]
        # Other fields whose value is made at saving; the rest are read as they are.
        self.pre_save = [
            (i, f)
            for i, f in enumerate(fields)
            if type(f).pre_save not in (Field.pre_save, *_STOCK_DATES)
        ]
        self.columns = [(i, *_column(f)) for i, f in enumerate(fields)]
        self.relations = [
            (f.name, f.attname, f.target_field.attname, f.target_field is f.related_model._meta.pk)  # type: ignore[union-attr]
            for f in fields
            if f.is_relation
        ]
        self.private_relations = any(f.is_relation for f in meta.private_fields)

    def write(self, objs: Sequence[Model]) -> None:
        for obj in objs:
            self._prepare_related(obj)
        pk = self.pk.attname
        stamps = [(i, f.attname, f.pre_save(objs[0], True)) for i, f in self.stamps]
        try:
            rows = [self._row(obj, stamps) for obj in objs]
        except _Unwritable:
            self.model._default_manager.bulk_create(objs)
            return
        new = [i for i, obj in enumerate(objs) if getattr(obj, pk) is None]
        table = connection.ops.quote_name(self.model._meta.db_table)
        with connection.cursor() as cursor:
            if new:
                cursor.execute(_NEXT_IDS, [table, self.pk.column, len(new)])
                for i, (value,) in zip(new, cursor.fetchall(), strict=True):
                    setattr(objs[i], pk, value)
                    rows[i][0] = value
            try:
                _copy(cursor, self.model, [f.column for f in self.fields], rows)
            except Exception:
                for i in new:  # not stored: as unsaved as bulk_create leaves them
                    setattr(objs[i], pk, None)
                raise
        alias = connection.alias
        for obj in objs:
            obj._state.adding = False
            obj._state.db = alias

    def _prepare_related(self, obj: Model) -> None:
        """``bulk_create``'s check of related objects, left to Django's own code unless it
        would provably do nothing: each cached related object saved, with the id the foreign
        key holds."""
        cache = obj._state.fields_cache
        if self.private_relations:
            obj._prepare_related_fields_for_save(operation_name="bulk_create")
            return
        if not cache:
            return
        values = obj.__dict__
        for name, attname, target, to_pk in self.relations:
            related = cache.get(name)
            if related is None:
                continue
            value = values.get(attname)
            if (
                value is None
                or getattr(related, target) != value
                or (not to_pk and related.pk is None)
            ):
                obj._prepare_related_fields_for_save(operation_name="bulk_create")
                return

    def _row(self, obj: Model, stamps: list[tuple[int, str, Any]]) -> list[Any]:
        values = self.read(obj)
        row = list(values) if type(values) is tuple else [values]
        for i, attname, value in stamps:
            setattr(obj, attname, value)
            row[i] = value
        for i, field in self.pre_save:
            row[i] = field.pre_save(obj, True)
        for i, plain, adapt in self.columns:
            value = row[i]
            if plain is None or (value is not None and type(value) is not plain):
                row[i] = adapt(value)
        # The primary key is the first column of the row: its value, or the id it is given.
        return row


_STOCK_DATES = (DateField.pre_save, DateTimeField.pre_save)


def _stamped(field: Field[Any, Any]) -> bool:
    """A date stamped at saving by Django's own ``pre_save`` (the same for every object)."""
    stock = type(field).pre_save in _STOCK_DATES
    return stock and bool(field.auto_now or field.auto_now_add)  # type: ignore[attr-defined]


class _Checked:
    """No value is of this type: a column of this kind has each value but None adapted."""


def _column(field: Field[Any, Any]) -> tuple[type | None, Callable[[Any], Any]]:
    """How to turn the field's value into what COPY writes: a value of the plain type (or
    None) as it is, else through the adapter (with None too when there is no plain type)."""
    kind = field.get_internal_type()
    generic = _generic(field)
    if field.is_relation:
        kind = field.target_field.get_internal_type()  # type: ignore[attr-defined]
        return (int, generic) if _PLAIN.get(kind) is int else (None, generic)
    if kind == "JSONField" and field.encoder is None:  # type: ignore[attr-defined]

        def document(value: Any) -> Any:
            kind = type(value)
            return _json(value) if kind is dict or kind is list else generic(value)

        return _Checked, document
    if kind == "DateTimeField":

        def moment(value: Any) -> Any:
            if type(value) is datetime.datetime and value.tzinfo is not None:
                return value
            return generic(value)  # naive: made aware (with a warning) as Django does

        return _Checked, moment
    if _PLAIN.get(kind) is str:

        def text(value: Any) -> Any:
            return value if isinstance(value, str) else generic(value)  # a str enum as it is

        return str, text
    if kind in _PLAIN:
        return _PLAIN[kind], generic
    return None, generic


def _generic(field: Field[Any, Any]) -> Callable[[Any], Any]:
    """The field's own adaptation (what ``bulk_create`` does to every value)."""

    def adapt(value: Any) -> Any:
        if hasattr(value, "resolve_expression"):
            raise _Unwritable
        prepared = field.get_db_prep_save(value, connection)
        if hasattr(prepared, "resolve_expression") or hasattr(prepared, "as_sql"):
            raise _Unwritable
        return prepared

    return adapt


_WRITERS: dict[type[Model], _Writer | None] = {}


def _writer(model: type[Model]) -> _Writer | None:
    """The model's writer, or None for a model COPY does not fit: a primary key the database
    does not number, database defaults, several tables."""
    if model not in _WRITERS:
        meta = model._meta
        fits = (
            isinstance(meta.pk, AutoFieldMixin)
            and meta.pk is meta.concrete_fields[0]
            and not meta.pk.has_default()
            and not any(f.has_db_default() for f in meta.concrete_fields)
            and all(p._meta.concrete_model is meta.concrete_model for p in meta.all_parents)
        )
        _WRITERS[model] = _Writer(model) if fits else None
    return _WRITERS[model]
