"""psycopg's one name the project imports outside Django's PostgreSQL backend
(``scoring.jobs.writes``: ``psycopg.Cursor``, used on PostgreSQL only), for Pyodide, where
there is no libpq. The browser's database is SQLite: anything that reaches it is a bug."""

from __future__ import annotations

from typing import Any


class Cursor:
    """No PostgreSQL here."""

    def __class_getitem__(cls, item: Any) -> type[Cursor]:
        return cls

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("no PostgreSQL in the browser")
