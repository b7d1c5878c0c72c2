"""Reads of statistics and ratings, shaped for the API: lookups of materialized rows (a few
queries, none of them over a player's games)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db.models import QuerySet

from games.models import Player
from scoring.engine.potdevin.cards import GUILDS
from scoring.models import HeadToHead, PlayerStats, Rating, RatingHistory
from scoring.models.stats import (
    BUCKET_ALL,
    BUCKET_INDIVIDUAL,
    BUCKET_TEAM,
    PLAYER_COUNTS,
    bucket_for_player_count,
)

HEAD_TO_HEAD_IN_STATS = 50  # the opponents met most; the full list is paginated apart
DIGITS = 4


def _ratio(part: float, whole: int) -> float | None:
    return round(part / whole, DIGITS) if whole else None


STATS_FIELDS = (
    "bucket",
    "games",
    "wins",
    "score_sum",
    "best_score",
    "worst_score",
    "rank_sum",
    "logged_games",
    "rounds_won",
    "gems_paid",
    "gems_won",
    "sweeps",
    "negative_columns",
    "revokes",
    "current_streak",
    "longest_streak",
)
NO_GAMES: dict[str, Any] = {
    **dict.fromkeys(STATS_FIELDS, 0),
    "best_score": None,
    "worst_score": None,
    "negative_columns": {},
}
# Reads go through values(): plain rows, no model instances, on the paths the API serves most.


def bucket_stats(row: dict[str, Any] | None) -> dict[str, Any]:
    """One bucket of a player's statistics (a ``PlayerStats`` row as values), in the API's
    words; zeros for no games."""
    row = row or NO_GAMES
    games, wins, negative = row["games"], row["wins"], row["negative_columns"]
    return {
        "games": games,
        "wins": round(wins, DIGITS),
        "win_rate": _ratio(wins, games),
        "average_score": _ratio(row["score_sum"], games),
        "best_score": row["best_score"],
        "worst_score": row["worst_score"],
        "average_rank": _ratio(row["rank_sum"], games),
        "logged_games": row["logged_games"],
        "rounds_won": row["rounds_won"],
        "gems_paid": row["gems_paid"],
        "gems_won": row["gems_won"],
        "pot_de_vin_sweeps": row["sweeps"],
        "negative_columns": {g: negative.get(g, 0) for g in GUILDS},
        "revokes": row["revokes"],
    }


def head_to_head(*, player: Player) -> QuerySet[HeadToHead, dict[str, Any]]:
    """The player's opponents, the most met first."""
    return (
        HeadToHead.objects.filter(player=player)
        .order_by("-games", "opponent__name", "opponent_id")
        .values("opponent_id", "opponent__name", "games", "wins", "losses", "ties")
    )


def head_to_head_entries(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "opponent": {"id": h["opponent_id"], "name": h["opponent__name"]},
            "games": h["games"],
            "wins": h["wins"],
            "losses": h["losses"],
            "ties": h["ties"],
        }
        for h in rows
    ]


def player_stats(*, player: Player) -> dict[str, Any]:
    """Everything the stats page shows of one player: three queries, whatever their games."""
    rows = {r["bucket"]: r for r in PlayerStats.objects.filter(player=player).values(*STATS_FIELDS)}
    overall = rows.get(BUCKET_ALL) or NO_GAMES
    rating = Rating.objects.filter(player=player).values("mu", "sigma", "ordinal", "games").first()
    return {
        "player": {"id": player.pk, "name": player.name},
        **bucket_stats(overall),
        "current_streak": overall["current_streak"],
        "longest_streak": overall["longest_streak"],
        "by_player_count": {
            str(n): bucket_stats(rows.get(bucket_for_player_count(n))) for n in PLAYER_COUNTS
        },
        "individual": bucket_stats(rows.get(BUCKET_INDIVIDUAL)),
        "team": bucket_stats(rows.get(BUCKET_TEAM)),
        "head_to_head": head_to_head_entries(head_to_head(player=player)[:HEAD_TO_HEAD_IN_STATS]),
        "rating": rating,
    }


def leaderboard(*, min_games: int = 0) -> QuerySet[Rating, dict[str, Any]]:
    """Rated players, the best ordinal (mu - 3 sigma) first; rows for ``leaderboard_entries``."""
    ratings = Rating.objects.order_by("-ordinal", "player_id")
    if min_games > 0:
        ratings = ratings.filter(games__gte=min_games)
    return ratings.values("player_id", "player__name", "mu", "sigma", "ordinal", "games")


def leaderboard_entries(ratings: Sequence[dict[str, Any]], *, start: int) -> list[dict[str, Any]]:
    """One page of ``leaderboard``; ``start`` is the position of its first entry (1-based)."""
    overall = {
        pid: (games, wins)
        for pid, games, wins in PlayerStats.objects.filter(
            bucket=BUCKET_ALL, player_id__in=[r["player_id"] for r in ratings]
        ).values_list("player_id", "games", "wins")
    }
    entries = []
    for position, rating in enumerate(ratings, start=start):
        games, wins = overall.get(rating["player_id"], (0, 0.0))
        entries.append(
            {
                "position": position,
                "player": {"id": rating["player_id"], "name": rating["player__name"]},
                "mu": rating["mu"],
                "sigma": rating["sigma"],
                "ordinal": rating["ordinal"],
                "games": rating["games"],
                "wins": round(wins, DIGITS),
                "win_rate": _ratio(wins, games),
            }
        )
    return entries


def rating_history(*, player: Player) -> QuerySet[RatingHistory]:
    """The player's rating after each game, in the order ratings were computed."""
    return RatingHistory.objects.filter(player=player).order_by("played_on", "game_id")


class Counted:
    """A queryset to paginate whose length is known already, so that no COUNT runs over it."""

    def __init__(self, queryset: QuerySet[Any], count: int) -> None:
        self.queryset = queryset
        self.length = count

    def count(self) -> int:
        return self.length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, key: Any) -> Any:
        return self.queryset[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.queryset)


def rating_history_pages(*, player: Player) -> Counted:
    """``rating_history`` to paginate: its length is the rated games of the current rating
    (the recompute that wrote the history wrote both), not a COUNT over the player's games."""
    games = Rating.objects.filter(player=player).values_list("games", flat=True).first()
    return Counted(rating_history(player=player), games or 0)


def rating_history_entries(rows: Any) -> list[dict[str, Any]]:
    return [
        {
            "game": h.game_id,
            "played_on": h.played_on.isoformat(),
            "mu": h.mu,
            "sigma": h.sigma,
            "ordinal": h.ordinal,
        }
        for h in rows
    ]
