"""Each player against each opponent, per game type (``HeadToHead``): one self-join of the
players' ``PlayerGame`` rows."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection
from django.db.models import Q

from scoring.models import HeadToHead, PlayerGame
from scoring.stats.db import chunks, insert, marks


def _head_to_head_sql(count: int) -> str:
    table = connection.ops.quote_name(PlayerGame._meta.db_table)
    q = connection.ops.quote_name
    rank, team, game, player = q("rank"), q("team"), q("game_id"), q("player_id")
    kind = q("game_type")
    return (
        f"SELECT a.{player}, b.{player}, a.{kind}, COUNT(*), "
        f"SUM(CASE WHEN a.{rank} < b.{rank} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN a.{rank} > b.{rank} THEN 1 ELSE 0 END), "
        f"SUM(CASE WHEN a.{rank} = b.{rank} THEN 1 ELSE 0 END) "
        f"FROM {table} a JOIN {table} b ON b.{game} = a.{game} AND b.{player} <> a.{player} "
        f"WHERE a.{player} IN ({marks(count)}) "
        f"AND (a.{team} IS NULL OR b.{team} IS NULL OR a.{team} <> b.{team}) "
        f"GROUP BY a.{player}, b.{player}, a.{kind}"
    )


def head_to_head_refresh(*, player_ids: Iterable[int]) -> None:
    """Recompute the ``HeadToHead`` rows of these players, both ways round (the opponent's row
    against them too), of every game type."""
    ids = sorted(set(player_ids))
    pairs: dict[tuple[int, int, str], tuple[int, int, int, int]] = {}
    with connection.cursor() as cursor:
        for chunk in chunks(ids):
            cursor.execute(_head_to_head_sql(len(chunk)), list(chunk))
            for player, opponent, game_type, games, wins, losses, ties in cursor.fetchall():
                pairs[(player, opponent, game_type)] = (games, wins, losses, ties)
                pairs[(opponent, player, game_type)] = (games, losses, wins, ties)
    for chunk in chunks(ids):
        HeadToHead.objects.filter(Q(player_id__in=chunk) | Q(opponent_id__in=chunk)).delete()
    # Rows, not objects: every pair of a club's players, per game type.
    insert(
        HeadToHead,
        ("player", "opponent", "game_type", "games", "wins", "losses", "ties"),
        (
            (p, o, game_type, g, int(w), int(lo), int(t))
            for (p, o, game_type), (g, w, lo, t) in pairs.items()
        ),
    )
