"""Statistics and ratings over the API, per game type (``?game_type=``, default pot-de-vin): a
player's statistics, head-to-head and rating history, and the leaderboard. Reads of
materialized rows (scoring.stats.selectors); no write here.

A player's statistics have the figures every game has, then the game's own (its plugin's
statistics module: ``scoring.stats.games``); the schema documents one body per game type."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.common import (
    MAX_ID,
    PlayerRefSerializer,
    errors,
    game_type_parameter,
    game_type_query,
    id_parameter,
)
from games.records import access
from games.records.models import Player
from scoring.models import HeadToHead, Rating, RatingHistory
from scoring.stats import selectors
from scoring.stats.games import game_stats, known_game_types

PLAYER_ID = id_parameter("Player id.")


class BucketStatsSerializer(serializers.Serializer):
    """A player's statistics over a set of games: the figures every game has. In team play
    score and rank are the team's."""

    games = serializers.IntegerField(
        help_text="Finished games. A play known by its final scores only (`mode` `result`) "
        "counts in these figures, which every game has, and in none of the game's own that "
        "follow: those are over the games known in detail (entry by entry, or by their sheet)."
    )
    wins = serializers.FloatField(
        help_text="A first place shared by k players or teams is 1/k; a cooperative game won "
        "is 1 for each player, lost 0."
    )
    win_rate = serializers.FloatField(allow_null=True, help_text="wins / games; null: no game.")
    average_score = serializers.FloatField(
        allow_null=True, help_text="Null: no game, or a game without scores (ranks only)."
    )
    best_score = serializers.IntegerField(allow_null=True)
    worst_score = serializers.IntegerField(allow_null=True)
    average_rank = serializers.FloatField(allow_null=True, help_text="1 is first.")


class HeadToHeadSerializer(serializers.Serializer):
    opponent = PlayerRefSerializer()
    games = serializers.IntegerField(help_text="Games both played, not as teammates.")
    wins = serializers.IntegerField(help_text="Games the player ranked above the opponent.")
    losses = serializers.IntegerField()
    ties = serializers.IntegerField(help_text="Same rank (a shared place).")


class RatingSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the leaderboard's order.")
    games = serializers.IntegerField(help_text="Rated games.")


class GameTypeGamesSerializer(serializers.Serializer):
    game_type = serializers.CharField(
        help_text="A game type, or a club's named game as `other-<id>` (/api/board-games/)."
    )
    label = serializers.CharField()  # type: ignore[assignment] # a field, not Field.label
    games = serializers.IntegerField(help_text="The player's finished games of this type.")


def _camel(game_type: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", game_type) if part)


@cache
def bucket_serializer(game_type: str) -> type[serializers.Serializer]:
    """The statistics of one bucket of ``game_type``: the generic figures, then the game's."""
    return type(
        f"{_camel(game_type)}BucketStatsSerializer",
        (BucketStatsSerializer,),
        {
            **game_stats(game_type).api_fields(),
            "__module__": __name__,
            "__doc__": f"A player's {game_stats(game_type).label} statistics over a set of games.",
        },
    )


@cache
def player_stats_serializer(game_type: str) -> type[serializers.Serializer]:
    """The body of ``GET /api/players/{id}/stats/?game_type=<game_type>``."""
    stats = game_stats(game_type)
    bucket = bucket_serializer(game_type)
    by_count = type(
        f"{_camel(game_type)}PlayerCountStatsSerializer",
        (serializers.Serializer,),
        {
            **{str(n): bucket() for n in stats.player_counts},
            "__module__": __name__,
            "__doc__": "Statistics by number of players at the table.",
        },
    )
    return type(
        f"{_camel(game_type)}PlayerStatsSerializer",
        (bucket,),
        {
            "player": PlayerRefSerializer(),
            "current_streak": serializers.IntegerField(
                help_text="Games won in a row up to the last one (a shared first place counts)."
            ),
            "longest_streak": serializers.IntegerField(),
            "by_player_count": by_count(),
            "individual": bucket(help_text="Games without teams."),
            "team": bucket(help_text="Team games."),
            "head_to_head": HeadToHeadSerializer(
                many=True,
                help_text=f"The {selectors.HEAD_TO_HEAD_IN_STATS} opponents met most; every "
                "opponent: /api/players/{id}/head-to-head/.",
            ),
            "rating": RatingSerializer(
                allow_null=True, help_text="Null until the player is rated."
            ),
            "game_types": GameTypeGamesSerializer(
                many=True,
                help_text="Every game type the player has finished games of (any ?game_type=).",
            ),
            "__module__": __name__,
            "__doc__": f"All finished {stats.label} games of the player, then the same by player "
            "count and by individual or team play; head-to-head, winning streaks and the "
            f"current {stats.label} skill rating.",
        },
    )


def _player_stats_schema() -> PolymorphicProxySerializer:
    return PolymorphicProxySerializer(
        component_name="PlayerStats",
        serializers=[player_stats_serializer(g)() for g in known_game_types()],
        resource_type_field_name=None,
    )


class LeaderboardEntrySerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="1 is the best ordinal.")
    player = PlayerRefSerializer()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma.")
    games = serializers.IntegerField()
    wins = serializers.FloatField()
    win_rate = serializers.FloatField(allow_null=True)


class LeaderboardQuerySerializer(serializers.Serializer):
    club = serializers.SlugField(
        required=False,
        max_length=50,
        help_text="The club's slug: yours, or one with public results. Left out: your only "
        "club (400 `club_required` when you have several, or none).",
    )
    min_games = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=1_000_000,
        default=0,
        help_text="Only players with at least this many rated games.",
    )


class RatingHistoryEntrySerializer(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    played_on = serializers.DateField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


def _player(request: Request, kwargs: dict[str, Any]) -> Player:
    """The player of the URL, if one of the user's clubs has them (404 otherwise, alike)."""
    pk = int(kwargs["id"])
    if pk > MAX_ID:
        raise NotFound()
    return get_object_or_404(access.players(request.user).only("id", "name", "club_id"), pk=pk)


class PlayerStatsView(APIView):
    """A player's statistics over their finished games of one game type, kept up to date as
    games are finished, corrected, re-scored or deleted; and the game types they played."""

    @extend_schema(
        operation_id="player_stats",
        parameters=[PLAYER_ID, game_type_parameter("The game type of the statistics.")],
        responses={200: _player_stats_schema(), **errors(400, 401, 404)},
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        game_type = game_type_query(request)
        return Response(
            selectors.player_stats(player=_player(request, kwargs), game_type=game_type)
        )


class PlayerHeadToHeadView(generics.GenericAPIView):
    """The player against every opponent met at one game type (teammates are not opponents),
    the most met first."""

    serializer_class = HeadToHeadSerializer
    queryset = HeadToHead.objects.none()  # for the schema: get() reads through the selector

    @extend_schema(
        operation_id="player_head_to_head",
        parameters=[PLAYER_ID, game_type_parameter()],
        responses={200: HeadToHeadSerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        game_type = game_type_query(request)
        rows = selectors.head_to_head(player=_player(request, kwargs), game_type=game_type)
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(selectors.head_to_head_entries(page))


class PlayerRatingsView(generics.GenericAPIView):
    """The player's skill rating at one game type after each rated game, oldest first."""

    serializer_class = RatingHistoryEntrySerializer
    queryset = RatingHistory.objects.none()  # for the schema: get() reads through the selector

    @extend_schema(
        operation_id="player_ratings",
        parameters=[PLAYER_ID, game_type_parameter()],
        responses={200: RatingHistoryEntrySerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        game_type = game_type_query(request)
        rows = selectors.rating_history_pages(player=_player(request, kwargs), game_type=game_type)
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(selectors.rating_history_entries(page))


class LeaderboardView(generics.GenericAPIView):
    """A club's players by skill rating at one game type (openskill Plackett-Luce over the
    club's free-for-all and team games, ties included, in date order; each game type rated
    apart), the best ordinal (mu - 3 sigma) first. Anyone reads the leaderboards of a club
    with public results."""

    public_reads = True
    serializer_class = LeaderboardEntrySerializer
    queryset = Rating.objects.none()  # for the schema: get() reads through the selector

    @extend_schema(
        operation_id="leaderboard",
        parameters=[LeaderboardQuerySerializer, game_type_parameter()],
        responses={200: LeaderboardEntrySerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        game_type = game_type_query(request)
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        slug = query.validated_data.get("club")
        if not request.user.is_authenticated and not access.is_public(slug):
            raise NotAuthenticated()  # alike for a private club and none
        club = access.club_to_read(request.user, slug)
        ratings = selectors.leaderboard(
            club=club, game_type=game_type, min_games=query.validated_data["min_games"]
        )
        page = self.paginate_queryset(ratings)
        assert page is not None and self.paginator is not None
        start = self.paginator.page.start_index()  # type: ignore[attr-defined]
        return self.get_paginated_response(selectors.leaderboard_entries(page, start=start))
