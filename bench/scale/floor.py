"""The database's own share of storing a game: what PostgreSQL alone spends to store loaded
games again, with no Python work at all."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from bench.scale.config import FLOOR_GAMES
from games.records.models import Game, GameEvent, Round, Seat
from scoring.models import JobItem, PlayerGame, RatingHistory


@dataclass(frozen=True)
class Floor:
    """The database's own share of storing a game: server CPU seconds a game, all its rows and
    the record's alone (game, seats, entries, commit), and the most games a second that leaves
    on the machine's cores."""

    games: int
    per_game: float
    record_per_game: float
    cores: int

    @property
    def rate(self) -> float:
        return self.cores / self.per_game

    def __str__(self) -> str:
        return (
            f"{self.per_game * 1000:.2f} ms of server CPU a game (the record alone "
            f"{self.record_per_game * 1000:.2f}): <= {self.rate:,.0f} games/s on {self.cores} "
            "cores"
        )


def database_floor(database_url: str, games: int = FLOOR_GAMES) -> Floor:
    """What PostgreSQL alone spends to store ``games`` of the loaded games again, with no
    Python work at all: their rows as the import job leaves them (the game, its seats, entries
    and history, its statistics and ratings rows, its job item) copied out in COPY's binary
    form, then copied in under new ids and committed (the foreign keys are checked then). The
    server process's CPU time (/proc), the least of three runs on freshly vacuumed tables; the
    rows are deleted after each. No import code can store games faster than ``Floor.rate`` on
    this machine: the load's target is a share of it, measured in the same run."""
    shift = 10**9  # past every id here; the item's key (an int column) too
    models = (Game, Seat, Round, GameEvent, PlayerGame, RatingHistory, JobItem)
    tick = os.sysconf("SC_CLK_TCK")
    with psycopg.connect(database_url) as conn:
        first, last = conn.execute(
            f"SELECT MIN(id), MIN(id) + %s FROM {Game._meta.db_table}", [games]
        ).fetchone()
        copied = []
        for model in models:
            columns = [f.column for f in model._meta.concrete_fields]
            shifted = {"id", "game_id", "key"} & set(columns)
            values = ", ".join(f"{c} + {shift}" if c in shifted else c for c in columns)
            key = "id" if model is Game else "game_id"
            where = f"{key} >= {first} AND {key} < {last}"
            data = bytearray()
            with conn.cursor().copy(
                f"COPY (SELECT {values} FROM {model._meta.db_table} WHERE {where}) "
                "TO STDOUT (FORMAT binary)"
            ) as copy:
                for block in copy:
                    data += block
            copied.append((model._meta.db_table, key, ", ".join(columns), bytes(data)))
        pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        conn.commit()

        def server_cpu() -> float:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick  # utime + stime

        runs = []  # each run: server CPU seconds per table, then for the commit
        for _ in range(3):
            vacuum(conn, [table for table, *_ in copied])  # the best case: no dead rows
            spent: dict[str, float] = {}
            for table, _, columns, data in copied:
                before = server_cpu()
                with conn.cursor().copy(
                    f"COPY {table} ({columns}) FROM STDIN (FORMAT binary)"
                ) as copy:
                    copy.write(data)
                spent[table] = server_cpu() - before
            before = server_cpu()
            conn.commit()
            spent["commit"] = server_cpu() - before
            runs.append(spent)
            for table, key, _, _ in reversed(copied):
                conn.execute(f"DELETE FROM {table} WHERE {key} >= {shift}")
            conn.commit()
    best = min(runs, key=lambda spent: sum(spent.values()))
    per_game = sum(best.values()) / games
    # The record itself: the game, its seats and its entries, with the commit's key checks.
    record = {Game._meta.db_table, Seat._meta.db_table, Round._meta.db_table, "commit"}
    record_per_game = sum(v for k, v in best.items() if k in record) / games
    cores = os.cpu_count() or 1
    shown = ", ".join(f"{table} {seconds * 1000 / games:.2f}" for table, seconds in best.items())
    print(
        f"  the database alone stores {games:,} of the games again: {per_game * 1000:.2f} ms of "
        f"server CPU a game ({shown}; runs {', '.join(f'{sum(r.values()):.2f}' for r in runs)} s)",
        flush=True,
    )
    return Floor(games, per_game, record_per_game, cores)


def vacuum(conn: Any, tables: Sequence[str]) -> None:
    conn.autocommit = True  # VACUUM runs outside a transaction
    try:
        conn.execute(f"VACUUM ANALYZE {', '.join(tables)}")
    finally:
        conn.autocommit = False
