"""Reads of statistics and ratings, per game type, shaped for the API: lookups of materialized
rows (a few queries, none of them over a player's games)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db.models import Q, QuerySet

from games.records.game_types import plugins
from games.records.models import BoardGame, Club, Player, Seat
from scoring.models import HeadToHead, PlayerStats, Rating, RatingHistory
from scoring.models.stats import (
    BUCKET_ALL,
    BUCKET_INDIVIDUAL,
    BUCKET_TEAM,
    bucket_for_player_count,
)
from scoring.stats.games import (
    DEFAULT_GAME_TYPE,
    DIGITS,
    board_game_of,
    game_stats,
    known_game_types,
    ratio,
    stats_key,
)

HEAD_TO_HEAD_IN_STATS = 50  # the opponents met most; the full list is paginated apart

STATS_FIELDS = (
    "game_type",
    "bucket",
    "games",
    "detailed_games",
    "wins",
    "scored_games",
    "score_sum",
    "best_score",
    "worst_score",
    "rank_sum",
    "counters",
    "current_streak",
    "longest_streak",
)
NO_GAMES: dict[str, Any] = {
    **dict.fromkeys(STATS_FIELDS, 0),
    "best_score": None,
    "worst_score": None,
    "counters": {},
}
# Reads go through values(): plain rows, no model instances, on the paths the API serves most.


def bucket_stats(
    row: dict[str, Any] | None, *, game_type: str = DEFAULT_GAME_TYPE
) -> dict[str, Any]:
    """One bucket of a player's statistics of ``game_type`` (a ``PlayerStats`` row as values),
    in the API's words: the figures of every game, then the game's own; zeros for no games."""
    row = row or NO_GAMES
    games, wins = row["games"], row["wins"]
    figures = {
        "games": games,
        "wins": round(wins, DIGITS),
        "win_rate": ratio(wins, games),
        "average_score": ratio(row["score_sum"], row["scored_games"]),
        "best_score": row["best_score"],
        "worst_score": row["worst_score"],
        "average_rank": ratio(row["rank_sum"], games),
    }
    # The game's own figures are over the games that know them: not the plays known by their
    # final scores only, whose counters are null (rules O6).
    detailed = {**figures, "games": row["detailed_games"], "all_games": games}
    own = game_stats(game_type).bucket(row["counters"], detailed)
    return {**figures, **own}


def head_to_head(
    *, player: Player, game_type: str = DEFAULT_GAME_TYPE
) -> QuerySet[HeadToHead, dict[str, Any]]:
    """The player's opponents at ``game_type``, the most met first."""
    return (
        HeadToHead.objects.filter(player=player, game_type=game_type)
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


def _game_types(overall: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The game types with finished games among ``overall`` (the ``all`` rows by game type),
    in the registry's order."""
    known = known_game_types()
    order = {g: i for i, g in enumerate(known)}
    named = {g: board_game_of(g) for g in overall}
    names = dict(
        BoardGame.objects.filter(pk__in=[b for b in named.values() if b is not None])
        .values_list("pk", "name")
        .order_by()
    )

    def place(g: str) -> tuple[Any, ...]:
        board_game = named[g]
        if board_game is None:
            return (order.get(g, len(order)), "", g)
        # A named game after its game type's place, by name.
        return (order.get(g.rpartition("-")[0], len(order)), names.get(board_game, ""), g)

    return [
        {
            "game_type": g,
            "label": names[named[g]] if named[g] is not None else game_stats(g).label,
            "games": overall[g]["games"],
        }
        for g in sorted(overall, key=place)
        if (g in order or named[g] in names) and overall[g]["games"]
    ]


def player_stats(*, player: Player, game_type: str = DEFAULT_GAME_TYPE) -> dict[str, Any]:
    """Everything the stats page shows of one player at ``game_type``, and the game types they
    have finished games of: three queries, whatever their games."""
    stats = game_stats(game_type)
    rows: dict[str, dict[str, Any]] = {}
    overall_by_type: dict[str, dict[str, Any]] = {}
    for r in PlayerStats.objects.filter(
        Q(game_type=game_type) | Q(bucket=BUCKET_ALL), player=player
    ).values(*STATS_FIELDS):
        if r["bucket"] == BUCKET_ALL:
            overall_by_type[r["game_type"]] = r
        if r["game_type"] == game_type:
            rows[r["bucket"]] = r
    overall = rows.get(BUCKET_ALL) or NO_GAMES
    rating = (
        Rating.objects.filter(player=player, game_type=game_type)
        .values("mu", "sigma", "ordinal", "games")
        .first()
    )
    opponents = head_to_head(player=player, game_type=game_type)[:HEAD_TO_HEAD_IN_STATS]
    return {
        "player": {"id": player.pk, "name": player.name},
        **bucket_stats(overall, game_type=game_type),
        "current_streak": overall["current_streak"],
        "longest_streak": overall["longest_streak"],
        "by_player_count": {
            str(n): bucket_stats(rows.get(bucket_for_player_count(n)), game_type=game_type)
            for n in stats.player_counts
        },
        "individual": bucket_stats(rows.get(BUCKET_INDIVIDUAL), game_type=game_type),
        "team": bucket_stats(rows.get(BUCKET_TEAM), game_type=game_type),
        "head_to_head": head_to_head_entries(opponents),
        "rating": rating,
        "game_types": _game_types(overall_by_type),
    }


def leaderboard(
    *, club: Club, game_type: str = DEFAULT_GAME_TYPE, min_games: int = 0
) -> QuerySet[Rating, dict[str, Any]]:
    """The club's players rated at ``game_type``, the best ordinal (mu - 3 sigma) first; rows
    for ``leaderboard_entries``. A rating is within one club: a club's games seat only its own
    players, so each series only ever meets the club's players."""
    ratings = Rating.objects.filter(game_type=game_type, player__club=club).order_by(
        "-ordinal", "player_id"
    )
    if min_games > 0:
        ratings = ratings.filter(games__gte=min_games)
    return ratings.values(
        "player_id", "player__name", "game_type", "mu", "sigma", "ordinal", "games"
    )


def leaderboard_entries(ratings: Sequence[dict[str, Any]], *, start: int) -> list[dict[str, Any]]:
    """One page of ``leaderboard``; ``start`` is the position of its first entry (1-based)."""
    wanted = Q()
    for game_type in {r["game_type"] for r in ratings}:
        ids = [r["player_id"] for r in ratings if r["game_type"] == game_type]
        wanted |= Q(game_type=game_type, player_id__in=ids)
    overall = (
        {
            (pid, game_type): (games, wins)
            for pid, game_type, games, wins in PlayerStats.objects.filter(
                wanted, bucket=BUCKET_ALL
            ).values_list("player_id", "game_type", "games", "wins")
        }
        if ratings
        else {}
    )
    entries = []
    for position, rating in enumerate(ratings, start=start):
        games, wins = overall.get((rating["player_id"], rating["game_type"]), (0, 0.0))
        entries.append(
            {
                "position": position,
                "player": {"id": rating["player_id"], "name": rating["player__name"]},
                "mu": rating["mu"],
                "sigma": rating["sigma"],
                "ordinal": rating["ordinal"],
                "games": rating["games"],
                "wins": round(wins, DIGITS),
                "win_rate": ratio(wins, games),
            }
        )
    return entries


def rating_history(
    *, player: Player, game_type: str = DEFAULT_GAME_TYPE
) -> QuerySet[RatingHistory]:
    """The player's rating at ``game_type`` after each game, in the order ratings were
    computed."""
    return RatingHistory.objects.filter(player=player, game_type=game_type).order_by(
        "played_on", "game_id"
    )


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


def rating_history_pages(*, player: Player, game_type: str = DEFAULT_GAME_TYPE) -> Counted:
    """``rating_history`` to paginate: its length is the rated games of the current rating
    (the recompute that wrote the history wrote both), not a COUNT over the player's games."""
    games = (
        Rating.objects.filter(player=player, game_type=game_type)
        .values_list("games", flat=True)
        .first()
    )
    return Counted(rating_history(player=player, game_type=game_type), games or 0)


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


def player_stats_keys(player: Player) -> list[tuple[str, str, BoardGame | None]]:
    """The player's statistics series: (key, game type, named game or None) of every game type
    they have a seat in, in the order of the plugins, a game without an engine here once per
    named game they played, by name (``scoring.stats.games.stats_key``)."""
    played = set(
        Seat.objects.filter(player=player)
        .values_list("game__game_type", "game__board_game_id")
        .distinct()
        .order_by()
    )
    named = BoardGame.objects.in_bulk([b for _, b in played if b is not None])
    order = {t: i for i, t in enumerate(plugins())}
    rows = [
        (stats_key(t, b), t, named.get(b) if b is not None else None)
        for t, b in played
        if t in order
    ]
    rows.sort(key=lambda r: (order[r[1]], r[2].name if r[2] else "", r[0]))
    return rows
