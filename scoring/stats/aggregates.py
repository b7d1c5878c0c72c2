"""A player's statistics per game type and bucket (``PlayerStats``): GROUP BY in the database
over their ``PlayerGame`` rows, and one ordered pass for the winning streaks."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Count, IntegerField, Max, Min, Q, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from scoring.models import PlayerGame, PlayerStats
from scoring.models.stats import (
    BUCKET_ALL,
    BUCKET_INDIVIDUAL,
    BUCKET_TEAM,
    bucket_for_player_count,
)
from scoring.stats.db import chunks, insert, marks
from scoring.stats.games import game_stats, is_known


def _aggregates(counters: Sequence[str]) -> dict[str, Any]:
    sums: dict[str, Any] = {
        "games": Count("id"),
        "detailed_games": Count("id", filter=Q(detailed=True)),
        "wins": Sum("win_share"),
        "scored_games": Count("score"),
        "score_sum": Sum("score"),
        "best_score": Max("score"),
        "worst_score": Min("score"),
        "rank_sum": Sum("rank"),
    }
    for i, name in enumerate(counters):
        sums[f"counter_{i}"] = Sum(Cast(KeyTextTransform(name, "counters"), IntegerField()))
    return sums


def _merge(into: dict[str, Any], group: dict[str, Any], counters: Sequence[str]) -> None:
    for key in ("games", "detailed_games", "scored_games"):
        into[key] += group[key]
    for key in ("wins", "score_sum", "rank_sum"):
        into[key] += group[key] or 0
    for key, pick in (("best_score", max), ("worst_score", min)):
        value = group[key]
        if value is not None:
            into[key] = value if into[key] is None else pick(into[key], value)
    for i, name in enumerate(counters):
        into["counters"][name] = into["counters"].get(name, 0) + (group[f"counter_{i}"] or 0)


def _empty(counters: Sequence[str]) -> dict[str, Any]:
    return {
        "games": 0,
        "detailed_games": 0,
        "wins": 0.0,
        "scored_games": 0,
        "score_sum": 0,
        "best_score": None,
        "worst_score": None,
        "rank_sum": 0,
        "counters": dict.fromkeys(counters, 0),
    }


def _streaks(player_ids: Sequence[int]) -> dict[tuple[int, str], tuple[int, int]]:
    """(current, longest) winning streak per player and game type: runs of games with a win
    share, in date order (played_on, game id), found in one ordered pass of the database over
    the players' rows. A run is the wins that follow the same number of games without a win."""
    q = connection.ops.quote_name
    table = q(PlayerGame._meta.db_table)
    player, kind, share = q("player_id"), q("game_type"), q("win_share")
    unit = f"{player}, {kind}"
    order = f"PARTITION BY {unit} ORDER BY {q('played_on')}, {q('game_id')}"
    sql = (
        f"SELECT {unit}, MAX(run), MAX(CASE WHEN last = total THEN run ELSE 0 END) FROM ("
        f"SELECT {unit}, COUNT(*) AS run, MAX(pos) AS last, MAX(total) AS total FROM ("
        f"SELECT {unit}, {share}, ROW_NUMBER() OVER ({order}) AS pos, "
        f"COUNT(*) OVER (PARTITION BY {unit}) AS total, "
        f"SUM(CASE WHEN {share} > 0 THEN 0 ELSE 1 END) OVER ({order} ROWS UNBOUNDED PRECEDING) "
        f"AS misses FROM {table} WHERE {player} IN ({marks(len(player_ids))})"
        f") ordered WHERE {share} > 0 GROUP BY {unit}, misses"
        f") runs GROUP BY {unit}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, list(player_ids))
        return {
            (pid, game_type): (current, longest)
            for pid, game_type, longest, current in cursor.fetchall()
        }


def _counter_names(game_type: str) -> tuple[str, ...]:
    # Rows of a game no engine reads any more keep their generic figures.
    return game_stats(game_type).counter_names if is_known(game_type) else ()


def player_stats_refresh(*, player_ids: Iterable[int]) -> None:
    """Recompute every ``PlayerStats`` row of these players, of every game type, from their
    ``PlayerGame`` rows."""
    ids = sorted(set(player_ids))
    for chunk in chunks(ids, 200):
        buckets: dict[tuple[int, str, str], dict[str, Any]] = {}
        rows = PlayerGame.objects.filter(player_id__in=chunk)
        game_types = sorted(set(rows.values_list("game_type", flat=True).distinct().order_by()))
        for game_type in game_types:
            counters = _counter_names(game_type)
            groups = (
                rows.filter(game_type=game_type)
                .values("player_id", "player_count", "team_play")
                .annotate(**_aggregates(counters))
                .order_by()
            )
            for group in groups:
                pid = group["player_id"]
                for bucket in (
                    BUCKET_ALL,
                    bucket_for_player_count(group["player_count"]),
                    BUCKET_TEAM if group["team_play"] else BUCKET_INDIVIDUAL,
                ):
                    key = (pid, game_type, bucket)
                    _merge(buckets.setdefault(key, _empty(counters)), group, counters)
        streaks = _streaks(chunk) if buckets else {}
        PlayerStats.objects.filter(player_id__in=chunk).delete()
        now = timezone.now()
        # Rows, not objects: a refresh after a large change writes tens of thousands.
        insert(
            PlayerStats,
            STATS_FIELDS,
            (
                (
                    pid,
                    game_type,
                    bucket,
                    *(values[name] for name in _VALUES),
                    *(streaks.get((pid, game_type), (0, 0)) if bucket == BUCKET_ALL else (0, 0)),
                    now,
                )
                for (pid, game_type, bucket), values in buckets.items()
            ),
        )


_VALUES = tuple(_empty(()))  # the aggregates' names, in the order of ``_empty``
STATS_FIELDS = (
    "player",
    "game_type",
    "bucket",
    *_VALUES,
    "current_streak",
    "longest_streak",
    "updated",
)
