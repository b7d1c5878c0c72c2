"""Writes of statistics and skill ratings, kept materialized so that reads are lookups.

Code that changes a game's finished result calls ``game_results_changed`` inside its own
transaction (finish, reopen, scorepad entry, import, re-score, date change, delete). That
rewrites the game's ``PlayerGame`` rows from ``game.result``, refreshes the aggregates of the
players whose rows changed (GROUP BY in the database, one ordered pass for streaks), and, once
the transaction commits, recomputes ratings from the earliest date that changed: in a Celery
task that takes every change pending so far (``RatingsPending``) in one recompute, or in
process when ``settings.POTDEVIN_RATINGS_SYNC`` is on.
"""

from __future__ import annotations

import datetime
import itertools
import json
import logging
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Max, Min, Model, OuterRef, Q, Subquery, Sum
from openskill.models import PlackettLuce

from games.models import Game, Player, Seat
from scoring.engine.potdevin.cards import GUILDS
from scoring.models import (
    HeadToHead,
    Job,
    PlayerGame,
    PlayerStats,
    Rating,
    RatingHistory,
    RatingsPending,
)
from scoring.models.stats import (
    BUCKET_ALL,
    BUCKET_INDIVIDUAL,
    BUCKET_TEAM,
    bucket_for_player_count,
    guild_bit,
)

logger = logging.getLogger(__name__)

CHUNK = 500  # ids per IN (...) list: well under SQLite's limit on query parameters
BATCH = 2000  # rows per bulk insert
POT_DE_VIN_CARDS = 4  # one per character; holding all four is a sweep
# Transaction-scoped PostgreSQL advisory locks (SQLite has one writer at a time anyway): one
# statistics refresh at a time, so each reads the rows the one before it committed, and one
# ratings recompute at a time.
STATS_LOCK_KEY = 0x706F7473  # "pots"
RATINGS_LOCK_KEY = 0x706F7464  # "potd"

# The fields a game's result decides; two rows equal on these need no rewrite.
FACT_FIELDS = (
    "player_id",
    "game_id",
    "played_on",
    "seat",
    "player_count",
    "team",
    "team_play",
    "score",
    "rank",
    "win_share",
    "rounds_won",
    "gems_paid",
    "gems_won",
    "pot_de_vin_sweep",
    "negative_guilds",
    "revokes",
)
# The fields ratings read: a change elsewhere (a score, gems) leaves ratings as they are.
RATING_FIELDS = ("player_id", "game_id", "played_on", "team", "rank")
HISTORY_FIELDS = ("player_id", "game_id", "played_on", "mu", "sigma", "ordinal")


def _lock(key: int) -> None:
    """Wait for the advisory lock ``key`` until the transaction ends (PostgreSQL only)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _chunks(items: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for at in range(0, len(items), size):
        yield items[at : at + size]


# --- Facts of one game ---------------------------------------------------------------------

# Per player of a result (potdevin-result/1), the values statistics read, in this order.
RESULT_PATHS: tuple[tuple[str, ...], ...] = (
    ("seat",),
    ("team",),
    ("score",),
    ("rank",),
    ("rounds_won",),
    ("gems_paid",),
    ("gems_won",),
    ("tableau", "pot_de_vin"),
    *(("breakdown", "guilds", g, key) for g in GUILDS for key in ("seat", "points")),
)
Fact = tuple[Any, ...]  # the values of FACT_FIELDS, in order


def game_facts(
    *,
    game_id: int,
    played_on: datetime.date,
    players: Sequence[Sequence[Any]],
    revokes: Counter[int],
    player_ids: dict[int, int],
) -> list[Fact]:
    """The ``PlayerGame`` values (FACT_FIELDS) of one finished game: ``players`` holds, per
    seat, the values of RESULT_PATHS read from its result; ``revokes`` counts revokes by seat;
    ``player_ids`` maps seat to player.

    The scoring unit is the player, or the team in team play: a unit among k units ranked 1
    gets a win share of 1/k for each of its members."""
    team_play = any(p[1] is not None for p in players)
    unit_rank = {(p[1] if team_play else p[0]): p[3] for p in players}
    winners = sum(1 for r in unit_rank.values() if r == 1)
    facts = []
    for p in players:
        seat, team, score, rank, rounds_won, gems_paid, gems_won, pot_de_vin = p[:8]
        negative = 0
        for g, guild in enumerate(GUILDS):
            column_seat, points = p[8 + 2 * g], p[9 + 2 * g]
            # Team play (D8): a column's points belong to the teammate whose column counted.
            if column_seat == seat and points is not None and points < 0:
                negative |= guild_bit(guild)
        facts.append(
            (
                player_ids[seat],
                game_id,
                played_on,
                seat,
                len(players),
                team if team_play else None,
                team_play,
                score,
                rank,
                1.0 / winners if rank == 1 else 0.0,
                rounds_won,
                gems_paid,
                gems_won or 0,
                (pot_de_vin or 0) >= POT_DE_VIN_CARDS,
                negative,
                revokes.get(seat, 0),
            )
        )
    return facts


def _in(count: int) -> str:
    return ", ".join(["%s"] * count)


def _result_values(game_ids: Sequence[int]) -> list[tuple[int, datetime.date, list[Any]]]:
    """(game id, played_on, values of RESULT_PATHS) per player of the finished games, read in
    the database: the rest of the result (the rounds, most of the breakdown) never reaches
    Python."""
    table = connection.ops.quote_name(Game._meta.db_table)
    where = f"g.id IN ({_in(len(game_ids))}) AND g.status = %s AND g.result IS NOT NULL"
    params = [*game_ids, Game.Status.FINISHED]
    rows: list[tuple[int, datetime.date, list[Any]]] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            columns = ", ".join(f"(p #>> '{{{','.join(path)}}}')::int" for path in RESULT_PATHS)
            cursor.execute(
                f"SELECT g.id, g.played_on, {columns} FROM {table} g "
                f"CROSS JOIN LATERAL jsonb_array_elements(g.result -> 'players') p WHERE {where}",
                params,
            )
            rows = [(r[0], r[1], list(r[2:])) for r in cursor.fetchall()]
        else:  # SQLite: one json_extract with every path parses each player once
            paths = ", ".join(f"'$.{'.'.join(path)}'" for path in RESULT_PATHS)
            cursor.execute(
                f"SELECT g.id, g.played_on, json_extract(p.value, {paths}) FROM {table} g, "
                f"json_each(g.result, '$.players') p WHERE {where}",
                params,
            )
            rows = [(r[0], _date(r[1]), json.loads(r[2])) for r in cursor.fetchall()]
    return rows


def _revokes(game_ids: Sequence[int]) -> dict[int, Counter[int]]:
    """Revokes found after the fact (D4), per game and seat."""
    table = connection.ops.quote_name(Game._meta.db_table)
    marks = _in(len(game_ids))
    if connection.vendor == "postgresql":
        sql = (
            f"SELECT g.id, (v ->> 'seat')::int FROM {table} g CROSS JOIN LATERAL "
            f"jsonb_array_elements(g.result -> 'violations') v "
            f"WHERE g.id IN ({marks}) AND v ->> 'code' = 'revoke'"
        )
    else:
        sql = (
            f"SELECT g.id, json_extract(v.value, '$.seat') FROM {table} g, "
            f"json_each(g.result, '$.violations') v "
            f"WHERE g.id IN ({marks}) AND json_extract(v.value, '$.code') = 'revoke'"
        )
    found: dict[int, Counter[int]] = defaultdict(Counter)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(game_ids))
        for game_id, seat in cursor.fetchall():
            found[game_id][seat] += 1
    return found


def _date(value: Any) -> datetime.date:
    return datetime.date.fromisoformat(value) if isinstance(value, str) else value


def _facts_of_games(game_ids: Sequence[int]) -> list[Fact]:
    """The ``PlayerGame`` values the finished games among ``game_ids`` should have."""
    facts: list[Fact] = []
    for chunk in _chunks(game_ids):
        values = _result_values(chunk)
        if not values:
            continue
        found = sorted({game_id for game_id, _, _ in values})
        seats: dict[int, dict[int, int]] = defaultdict(dict)
        for game_id, seat, player_id in Seat.objects.filter(game_id__in=found).values_list(
            "game_id", "seat", "player_id"
        ):
            seats[game_id][seat] = player_id
        revokes = _revokes(found)
        for game_id, group in itertools.groupby(values, key=lambda v: v[0]):
            rows = list(group)
            facts.extend(
                game_facts(
                    game_id=game_id,
                    played_on=rows[0][1],
                    players=[r[2] for r in rows],
                    revokes=revokes.get(game_id, Counter()),
                    player_ids=seats[game_id],
                )
            )
    return facts


def _insert(model: type[Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Insert many rows: with COPY on PostgreSQL, one prepared statement on SQLite. Far faster
    than ``bulk_create`` for the thousands of rows of an import or a ratings recompute."""
    meta = model._meta
    columns = [meta.get_field(f) for f in fields]
    table = connection.ops.quote_name(meta.db_table)
    names = ", ".join(connection.ops.quote_name(c.column) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        sql = f"INSERT INTO {table} ({names}) VALUES ({_in(len(columns))})"
        dates = [i for i, c in enumerate(columns) if c.get_internal_type() == "DateField"]
        adapt = connection.ops.adapt_datefield_value
        batch: list[list[Any]] = []
        for row in rows:
            values = list(row)
            for i in dates:
                values[i] = adapt(values[i])
            batch.append(values)
            if len(batch) >= BATCH:
                cursor.executemany(sql, batch)
                batch = []
        if batch:
            cursor.executemany(sql, batch)


# --- The hook ------------------------------------------------------------------------------


def game_results_changed(*, game_ids: Iterable[int]) -> None:
    """Bring statistics up to date with these games: finished, reopened, re-scored, imported,
    re-dated or deleted (a deleted game's rows are found by their null game). Call it inside
    the transaction that changed the games, after the change; ratings follow after commit.

    Each affected player is refreshed once per call, so a batch should be one call. Refreshes
    queue on a lock (PostgreSQL) until the transaction ends: keep it short after the call."""
    ids = sorted(set(game_ids))
    with transaction.atomic():
        # The last lock the caller's transaction takes (it holds the games'), so no cycle.
        _lock(STATS_LOCK_KEY)
        # Rows to remove: those of deleted games, and those that differ from the result now.
        removed: list[tuple[int, Fact]] = [
            (r[0], r[1:])
            for r in PlayerGame.objects.filter(game__isnull=True).values_list("id", *FACT_FIELDS)
        ]
        stored: dict[tuple[int, int], tuple[int, Fact]] = {}
        for chunk in _chunks(ids):
            for r in PlayerGame.objects.filter(game_id__in=chunk).values_list("id", *FACT_FIELDS):
                stored[(r[2], r[1])] = (r[0], r[1:])  # by (game, player)
        added: list[Fact] = []
        for fact in _facts_of_games(ids):
            kept = stored.pop((fact[1], fact[0]), None)
            if kept is not None and kept[1] == fact:
                continue
            if kept is not None:
                removed.append(kept)
            added.append(fact)
        removed.extend(stored.values())  # games no longer finished
        if not removed and not added:
            return
        for chunk in _chunks([pk for pk, _ in removed]):
            PlayerGame.objects.filter(pk__in=chunk).delete()
        _insert(PlayerGame, FACT_FIELDS, added)

        changed = [fact for _, fact in removed] + added
        player = FACT_FIELDS.index("player_id")
        players = {fact[player] for fact in changed}
        player_stats_refresh(player_ids=players)
        head_to_head_refresh(player_ids=players)

        keys = [FACT_FIELDS.index(f) for f in RATING_FIELDS]
        before = Counter(tuple(fact[k] for k in keys) for _, fact in removed)
        after = Counter(tuple(fact[k] for k in keys) for fact in added)
        moved = list((before - after) + (after - before))
        if moved:
            played_on = RATING_FIELDS.index("played_on")
            ratings_schedule(since=min(key[played_on] for key in moved))


def job_games_changed(job: Job, game_ids: list[int]) -> None:
    """Registered in ``scoring.jobs.AFTER_JOB``: a finished re-score job rewrote the results of
    these games. (The batches of an import job call ``game_results_changed`` themselves.)"""
    if job.kind != Job.Kind.RESCORE:
        return
    with transaction.atomic():  # one commit: one ratings recompute, from the earliest date
        for chunk in _chunks(sorted(game_ids), 5000):
            game_results_changed(game_ids=chunk)


# --- Aggregates ----------------------------------------------------------------------------


def _aggregates() -> dict[str, Any]:
    sums: dict[str, Any] = {
        "games": Count("id"),
        "wins": Sum("win_share"),
        "score_sum": Sum("score"),
        "best_score": Max("score"),
        "worst_score": Min("score"),
        "rank_sum": Sum("rank"),
        "logged_games": Count("rounds_won"),
        "rounds_won": Sum("rounds_won"),
        "gems_paid": Sum("gems_paid"),
        "gems_won": Sum("gems_won"),
        "sweeps": Count("id", filter=Q(pot_de_vin_sweep=True)),
        "revokes": Sum("revokes"),
    }
    for guild in GUILDS:
        sums[f"negative_{guild}"] = Sum(F("negative_guilds").bitand(guild_bit(guild)))
    return sums


def _merge(into: dict[str, Any], group: dict[str, Any]) -> None:
    for key in ("games", "logged_games", "sweeps"):
        into[key] += group[key]
    for key in ("wins", "score_sum", "rank_sum", "rounds_won", "gems_paid", "gems_won", "revokes"):
        into[key] += group[key] or 0
    for key, pick in (("best_score", max), ("worst_score", min)):
        value = group[key]
        into[key] = value if into[key] is None else pick(into[key], value)
    for guild in GUILDS:
        into["negative_columns"][guild] += (group[f"negative_{guild}"] or 0) // guild_bit(guild)


def _empty() -> dict[str, Any]:
    return {
        "games": 0,
        "wins": 0.0,
        "score_sum": 0,
        "best_score": None,
        "worst_score": None,
        "rank_sum": 0,
        "logged_games": 0,
        "rounds_won": 0,
        "gems_paid": 0,
        "gems_won": 0,
        "sweeps": 0,
        "negative_columns": dict.fromkeys(GUILDS, 0),
        "revokes": 0,
    }


def _streaks(player_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
    """(current, longest) winning streak per player: runs of games with a win share, in date
    order (played_on, game id), found in one ordered pass of the database over the players'
    rows. A run is the wins that follow the same number of games without a win."""
    q = connection.ops.quote_name
    table = q(PlayerGame._meta.db_table)
    player, share = q("player_id"), q("win_share")
    order = f"PARTITION BY {player} ORDER BY {q('played_on')}, {q('game_id')}"
    sql = (
        f"SELECT {player}, MAX(run), MAX(CASE WHEN last = total THEN run ELSE 0 END) FROM ("
        f"SELECT {player}, COUNT(*) AS run, MAX(pos) AS last, MAX(total) AS total FROM ("
        f"SELECT {player}, {share}, ROW_NUMBER() OVER ({order}) AS pos, "
        f"COUNT(*) OVER (PARTITION BY {player}) AS total, "
        f"SUM(CASE WHEN {share} > 0 THEN 0 ELSE 1 END) OVER ({order} ROWS UNBOUNDED PRECEDING) "
        f"AS misses FROM {table} WHERE {player} IN ({_in(len(player_ids))})"
        f") ordered WHERE {share} > 0 GROUP BY {player}, misses"
        f") runs GROUP BY {player}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(player_ids))
        return {pid: (current, longest) for pid, longest, current in cursor.fetchall()}


def player_stats_refresh(*, player_ids: Iterable[int]) -> None:
    """Recompute every ``PlayerStats`` row of these players from their ``PlayerGame`` rows."""
    ids = sorted(set(player_ids))
    for chunk in _chunks(ids, 200):
        buckets: dict[tuple[int, str], dict[str, Any]] = {}
        groups = (
            PlayerGame.objects.filter(player_id__in=chunk)
            .values("player_id", "player_count", "team_play")
            .annotate(**_aggregates())
            .order_by()
        )
        for group in groups:
            pid = group["player_id"]
            for bucket in (
                BUCKET_ALL,
                bucket_for_player_count(group["player_count"]),
                BUCKET_TEAM if group["team_play"] else BUCKET_INDIVIDUAL,
            ):
                _merge(buckets.setdefault((pid, bucket), _empty()), group)
        streaks = _streaks(chunk)
        PlayerStats.objects.filter(player_id__in=chunk).delete()
        made = []
        for (pid, bucket), values in buckets.items():
            current, longest = streaks.get(pid, (0, 0)) if bucket == BUCKET_ALL else (0, 0)
            made.append(
                PlayerStats(
                    player_id=pid,
                    bucket=bucket,
                    current_streak=current,
                    longest_streak=longest,
                    **values,
                )
            )
        PlayerStats.objects.bulk_create(made, batch_size=BATCH)


def _head_to_head_sql(count: int) -> str:
    table = connection.ops.quote_name(PlayerGame._meta.db_table)
    q = connection.ops.quote_name
    rank, team, game, player = q("rank"), q("team"), q("game_id"), q("player_id")
    return (
        f"SELECT a.{player}, b.{player}, COUNT(*), "
        f"SUM(CASE WHEN a.{rank} < b.{rank} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN a.{rank} > b.{rank} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN a.{rank} = b.{rank} THEN 1 ELSE 0 END) "
        f"FROM {table} a JOIN {table} b ON b.{game} = a.{game} AND b.{player} <> a.{player} "
        f"WHERE a.{player} IN ({_in(count)}) "
        f"AND (a.{team} IS NULL OR b.{team} IS NULL OR a.{team} <> b.{team}) "
        f"GROUP BY a.{player}, b.{player}"
    )


def head_to_head_refresh(*, player_ids: Iterable[int]) -> None:
    """Recompute the ``HeadToHead`` rows of these players, both ways round (the opponent's row
    against them too)."""
    ids = sorted(set(player_ids))
    pairs: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    with connection.cursor() as cursor:
        for chunk in _chunks(ids):
            cursor.execute(_head_to_head_sql(len(chunk)), list(chunk))
            for player, opponent, games, wins, losses, ties in cursor.fetchall():
                pairs[(player, opponent)] = (games, wins, losses, ties)
                pairs[(opponent, player)] = (games, losses, wins, ties)
    for chunk in _chunks(ids):
        HeadToHead.objects.filter(Q(player_id__in=chunk) | Q(opponent_id__in=chunk)).delete()
    HeadToHead.objects.bulk_create(
        (
            HeadToHead(
                player_id=p, opponent_id=o, games=g, wins=int(w), losses=int(lo), ties=int(t)
            )
            for (p, o), (g, w, lo, t) in pairs.items()
        ),
        batch_size=BATCH,
    )


def stats_rebuild(*, ratings: bool = True) -> int:
    """Rebuild every statistic from the finished games (after a deploy, for benchmarks).
    Returns the number of ``PlayerGame`` rows. Ratings are recomputed at once, in process."""
    with transaction.atomic():
        _lock(STATS_LOCK_KEY)
        PlayerGame.objects.all().delete()
        game_ids = list(
            Game.objects.filter(status=Game.Status.FINISHED)
            .order_by("id")
            .values_list("id", flat=True)
        )
        made = 0
        for chunk in _chunks(game_ids, 5000):
            rows = _facts_of_games(chunk)
            _insert(PlayerGame, FACT_FIELDS, rows)
            made += len(rows)
        PlayerStats.objects.all().delete()
        HeadToHead.objects.all().delete()
        players = list(Player.objects.values_list("id", flat=True))
        player_stats_refresh(player_ids=players)
        head_to_head_refresh(player_ids=players)
    if ratings:
        with transaction.atomic():
            _lock(RATINGS_LOCK_KEY)
            _take_pending()  # a recompute from the first game covers them all
            ratings_recompute(since=None)
    _vacuum(PlayerGame, PlayerStats, HeadToHead, Rating, RatingHistory)
    return made


def _vacuum(*models: type[Model]) -> None:
    """After a bulk rewrite on PostgreSQL: reclaim the dead rows and refresh the planner's
    statistics, so that reads do not step over the old versions until autovacuum comes. Only
    outside a transaction (VACUUM cannot run inside one)."""
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return
    tables = ", ".join(connection.ops.quote_name(m._meta.db_table) for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"VACUUM (ANALYZE) {tables}")


# --- Ratings -------------------------------------------------------------------------------

_pending = threading.local()


def ratings_schedule(*, since: datetime.date | None) -> None:
    """Recompute ratings from ``since`` (None: all) once the current transaction commits. Calls
    in one transaction make one recompute, from the earliest date. Without
    ``POTDEVIN_RATINGS_SYNC`` the change is written down (``RatingsPending``) with the
    transaction, and a catch-up task is queued once it commits."""
    if not settings.POTDEVIN_RATINGS_SYNC:
        RatingsPending.objects.create(since=since)
    wanted = since or datetime.date.min
    pending = getattr(_pending, "since", None)
    _pending.since = wanted if pending is None else min(pending, wanted)
    transaction.on_commit(_ratings_after_commit)


def _ratings_after_commit() -> None:
    pending: datetime.date | None = getattr(_pending, "since", None)
    if pending is None:
        return  # an earlier callback of the same commit took it
    _pending.since = None
    if settings.POTDEVIN_RATINGS_SYNC:
        ratings_recompute(since=None if pending == datetime.date.min else pending)
        return
    from scoring.stats_tasks import ratings_catch_up_task

    try:
        ratings_catch_up_task.delay()
    except Exception:  # the change is written down: the next catch-up takes it
        logger.exception("could not queue the ratings catch-up")


def ratings_catch_up() -> int:
    """Recompute ratings once for every change pending so far, from the earliest of their
    dates; returns the number of games rated (0: nothing was pending, an earlier catch-up took
    it). One at a time (PostgreSQL: advisory lock; SQLite: one writer), so a catch-up queued
    behind another finds the changes that one took gone."""
    with transaction.atomic():
        _lock(RATINGS_LOCK_KEY)
        dates = _take_pending()
        if not dates:
            return 0
        since = None if None in dates else min(d for d in dates if d is not None)
        return ratings_recompute(since=since)


def _take_pending() -> list[datetime.date | None]:
    """Remove the pending changes (inside the caller's transaction); their dates."""
    rows = list(RatingsPending.objects.values_list("id", "since"))
    for chunk in _chunks([pk for pk, _ in rows]):
        RatingsPending.objects.filter(pk__in=chunk).delete()
    return [since for _, since in rows]


def _rating_model() -> PlackettLuce:
    return PlackettLuce()


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


Rated = dict[int, tuple[Any, int]]  # player: (openskill rating, rated games)


def _start_ratings(model: PlackettLuce, player_ids: Sequence[int]) -> Rated:
    """Each player's rating and rated games after their last remaining ``RatingHistory`` row."""
    start: Rated = {}
    for chunk in _chunks(player_ids):
        counts = dict(
            RatingHistory.objects.filter(player_id__in=chunk)
            .values("player_id")
            .annotate(n=Count("id"))
            .order_by()
            .values_list("player_id", "n")
        )
        last = (
            RatingHistory.objects.filter(player_id=OuterRef("pk"))
            .order_by("-played_on", "-game_id")
            .values("id")[:1]
        )
        last_ids = [
            pk
            for pk in Player.objects.filter(pk__in=chunk)
            .annotate(last=Subquery(last))
            .values_list("last", flat=True)
            if pk is not None
        ]
        for pid, mu, sigma in RatingHistory.objects.filter(pk__in=last_ids).values_list(
            "player_id", "mu", "sigma"
        ):
            start[pid] = (model.rating(mu=mu, sigma=sigma), counts[pid])
    return start


def _games_since(since: datetime.date | None) -> Iterator[tuple[int, datetime.date, list[Any]]]:
    """(game id, date, [(player, team, rank), ...] in seat order), in rating order."""
    rows = PlayerGame.objects.filter(game__isnull=False)
    if since is not None:
        rows = rows.filter(played_on__gte=since)
    current: tuple[int, datetime.date] | None = None
    seats: list[Any] = []
    for game_id, played_on, player_id, team, rank in (
        rows.order_by("played_on", "game_id", "seat")
        .values_list("game_id", "played_on", "player_id", "team", "rank")
        .iterator(chunk_size=5000)
    ):
        if current is not None and current[0] != game_id:
            yield current[0], current[1], seats
            seats = []
        current = (game_id, played_on)
        seats.append((player_id, team, rank))
    if current is not None:
        yield current[0], current[1], seats


def _rate_games(
    model: PlackettLuce, state: Rated, since: datetime.date | None
) -> Iterator[list[tuple[Any, ...]]]:
    """Rate the games from ``since`` in order, updating ``state``; yields each game's
    ``RatingHistory`` rows (HISTORY_FIELDS). A unit is a player, or a team: the engine's
    ranks, ties included, are openskill's."""
    for game_id, played_on, seats in _games_since(since):
        units: dict[Any, list[int]] = {}
        unit_rank: dict[Any, int] = {}
        for player_id, team, rank in seats:
            key = ("team", team) if team is not None else ("player", player_id)
            units.setdefault(key, []).append(player_id)
            unit_rank[key] = rank
        for members in units.values():
            for p in members:
                if p not in state:  # a first game: a rating object of its own (rate() tells
                    state[p] = (model.rating(), 0)  # the players apart by their ids)
        teams = [[state[p][0] for p in members] for members in units.values()]
        result = model.rate(teams, ranks=[unit_rank[k] for k in units])
        rows = []
        for members, rated in zip(units.values(), result, strict=True):
            for player_id, r in zip(members, rated, strict=True):
                state[player_id] = (r, state[player_id][1] + 1)
                rows.append((player_id, game_id, played_on, r.mu, r.sigma, _ordinal(r.mu, r.sigma)))
        yield rows


def ratings_recompute(*, since: datetime.date | None = None) -> int:
    """Recompute ratings game by game in (played_on, game id) order from ``since`` (None: from
    the first game): history before ``since`` is kept and each player starts from their rating
    after it; then the current ``Rating`` rows follow. Returns the number of games rated.

    Runs in one transaction; on PostgreSQL under an advisory lock, so recomputes queue."""
    model = _rating_model()
    with transaction.atomic():
        _lock(RATINGS_LOCK_KEY)
        gone = RatingHistory.objects.filter(game__isnull=True)
        if since is not None:
            gone = RatingHistory.objects.filter(Q(played_on__gte=since) | Q(game__isnull=True))
        affected = set(gone.values_list("player_id", flat=True).distinct())
        if since is None:
            affected |= set(Rating.objects.values_list("player_id", flat=True))
            RatingHistory.objects.all().delete()
        else:
            gone.delete()
        rows = PlayerGame.objects.filter(game__isnull=False)
        if since is not None:
            rows = rows.filter(played_on__gte=since)
        affected |= set(rows.values_list("player_id", flat=True).distinct())
        state = _start_ratings(model, sorted(affected)) if since is not None else {}

        rated = 0
        batch: list[tuple[Any, ...]] = []
        for rows in _rate_games(model, state, since):
            rated += 1
            batch.extend(rows)
            if len(batch) >= BATCH:  # PlayerGame is read in chunks meanwhile: another table
                _insert(RatingHistory, HISTORY_FIELDS, batch)
                batch = []
        _insert(RatingHistory, HISTORY_FIELDS, batch)

        unrated = [p for p in affected if p not in state]
        for chunk in _chunks(unrated):
            Rating.objects.filter(player_id__in=chunk).delete()
        Rating.objects.bulk_create(
            [
                Rating(
                    player_id=pid,
                    mu=r.mu,
                    sigma=r.sigma,
                    ordinal=_ordinal(r.mu, r.sigma),
                    games=games,
                )
                for pid, (r, games) in state.items()
                if pid in affected
            ],
            batch_size=BATCH,
            update_conflicts=True,
            unique_fields=["player"],
            update_fields=["mu", "sigma", "ordinal", "games", "updated"],
        )
    return rated
