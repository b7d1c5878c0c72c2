"""Statistics and ratings over the API: a player's statistics, head-to-head and rating history,
and the leaderboard. Reads of materialized rows (scoring.selectors); no write here."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.serializers import PlayerRefSerializer
from games.api.views import errors
from games.models import Player
from scoring import selectors
from scoring.engine.potdevin.cards import GUILDS
from scoring.models import HeadToHead, Rating, RatingHistory
from scoring.models.stats import PLAYER_COUNTS

PLAYER_ID = OpenApiParameter("id", int, OpenApiParameter.PATH, description="Player id.")


class NegativeColumnsSerializer(serializers.Serializer):
    """Per guild, in how many games the column counted for the player scored below zero."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {g: serializers.IntegerField(min_value=0) for g in GUILDS}


class BucketStatsSerializer(serializers.Serializer):
    """A player's statistics over a set of games. In team play score and rank are the team's."""

    games = serializers.IntegerField()
    wins = serializers.FloatField(help_text="A first place shared by k players or teams is 1/k.")
    win_rate = serializers.FloatField(allow_null=True, help_text="wins / games; null: no game.")
    average_score = serializers.FloatField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)
    worst_score = serializers.IntegerField(allow_null=True)
    average_rank = serializers.FloatField(allow_null=True, help_text="1 is first.")
    logged_games = serializers.IntegerField(
        help_text="Games logged round by round: the ones rounds_won and gems_paid count "
        "(scorepad games record neither)."
    )
    rounds_won = serializers.IntegerField(help_text="Total, over the logged games.")
    gems_paid = serializers.IntegerField(help_text="Total, over the logged games.")
    gems_won = serializers.IntegerField(help_text="Total.")
    pot_de_vin_sweeps = serializers.IntegerField(
        help_text="Games where the player's own tableau held all four Pot de Vin cards."
    )
    negative_columns = NegativeColumnsSerializer(
        help_text="Per guild, games where the player's counted column scored below zero (in "
        "team play, only the columns of this player that counted for the team)."
    )
    revokes = serializers.IntegerField(help_text="Revokes found after the fact (rules D4).")


class PlayerCountStatsSerializer(serializers.Serializer):
    """Statistics by number of players at the table."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {str(n): BucketStatsSerializer() for n in PLAYER_COUNTS}


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


class PlayerStatsSerializer(BucketStatsSerializer):
    """All finished games of the player, then the same by player count and by individual or
    team play; head-to-head, winning streaks and the current skill rating."""

    player = PlayerRefSerializer()
    current_streak = serializers.IntegerField(
        help_text="Games won in a row up to the last one (a shared first place counts)."
    )
    longest_streak = serializers.IntegerField()
    by_player_count = PlayerCountStatsSerializer()
    individual = BucketStatsSerializer(help_text="Games without teams.")
    team = BucketStatsSerializer(help_text="Team games.")
    head_to_head = HeadToHeadSerializer(
        many=True,
        help_text=f"The {selectors.HEAD_TO_HEAD_IN_STATS} opponents met most; every opponent: "
        "/api/players/{id}/head-to-head/.",
    )
    rating = RatingSerializer(allow_null=True, help_text="Null until the player is rated.")


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


MAX_ID = 2**63 - 1  # a larger id cannot be stored, and the database refuses to look it up


def _player(kwargs: dict[str, Any]) -> Player:
    pk = int(kwargs["id"])
    if pk > MAX_ID:
        raise NotFound()
    return get_object_or_404(Player.objects.only("id", "name"), pk=pk)


class PlayerStatsView(APIView):
    """A player's statistics over their finished games, kept up to date as games are finished,
    corrected, re-scored or deleted."""

    @extend_schema(
        operation_id="player_stats",
        parameters=[PLAYER_ID],
        responses={200: PlayerStatsSerializer, **errors(401, 404)},
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        return Response(selectors.player_stats(player=_player(kwargs)))


class PlayerHeadToHeadView(generics.GenericAPIView):
    """The player against every opponent met (teammates are not opponents), the most met
    first."""

    serializer_class = HeadToHeadSerializer
    queryset = HeadToHead.objects.none()  # for the schema: get() reads through the selector

    @extend_schema(
        operation_id="player_head_to_head",
        parameters=[PLAYER_ID],
        responses={200: HeadToHeadSerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        page = self.paginate_queryset(selectors.head_to_head(player=_player(kwargs)))
        return self.get_paginated_response(selectors.head_to_head_entries(page))


class PlayerRatingsView(generics.GenericAPIView):
    """The player's skill rating after each rated game, oldest first."""

    serializer_class = RatingHistoryEntrySerializer
    queryset = RatingHistory.objects.none()  # for the schema: get() reads through the selector

    @extend_schema(
        operation_id="player_ratings",
        parameters=[PLAYER_ID],
        responses={200: RatingHistoryEntrySerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request, **kwargs: Any) -> Response:
        page = self.paginate_queryset(selectors.rating_history_pages(player=_player(kwargs)))
        return self.get_paginated_response(selectors.rating_history_entries(page))


class LeaderboardView(generics.GenericAPIView):
    """Players by skill rating (openskill Plackett-Luce over free-for-all and team games, ties
    included, in date order), the best ordinal (mu - 3 sigma) first."""

    serializer_class = LeaderboardEntrySerializer
    queryset = Rating.objects.none()  # for the schema: get() reads through the selector

    @extend_schema(
        operation_id="leaderboard",
        parameters=[LeaderboardQuerySerializer],
        responses={200: LeaderboardEntrySerializer(many=True), **errors(400, 401, 404)},
    )
    def get(self, request: Request) -> Response:
        query = LeaderboardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        ratings = selectors.leaderboard(min_games=query.validated_data["min_games"])
        page = self.paginate_queryset(ratings)
        assert page is not None and self.paginator is not None
        start = self.paginator.page.start_index()  # type: ignore[attr-defined]
        return self.get_paginated_response(selectors.leaderboard_entries(page, start=start))
