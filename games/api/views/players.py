"""The players of your clubs (``/api/players/``)."""

from __future__ import annotations

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets

from games.api.permissions import ClubWrites
from games.api.serializers import PlayerSerializer, errors, id_parameter
from games.records import access, services
from games.records.models import Player

PLAYER_ID = id_parameter("The player's id.")


class PlayerFilter(django_filters.FilterSet):
    club = django_filters.CharFilter(field_name="club__slug", label="Club slug", max_length=50)

    class Meta:
        model = Player
        fields = {"name": ["exact", "icontains"]}


@extend_schema_view(
    list=extend_schema(responses={200: PlayerSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(
        parameters=[PLAYER_ID], responses={200: PlayerSerializer, **errors(401, 404)}
    ),
    create=extend_schema(responses={201: PlayerSerializer, **errors(400, 401, 403, 409, 413, 429)}),
    partial_update=extend_schema(
        parameters=[PLAYER_ID],
        responses={200: PlayerSerializer, **errors(400, 401, 403, 404, 409, 413, 429)},
    ),
    destroy=extend_schema(
        parameters=[PLAYER_ID], responses={204: None, **errors(401, 403, 404, 409, 429)}
    ),
)
class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """The people who play in your clubs: each club's roster (`club`: its slug). A club's
    recorders add players and rename them; the one who added a player, or an admin, deletes
    one; a player with games cannot be deleted."""

    serializer_class = PlayerSerializer
    permission_classes = [*viewsets.GenericViewSet.permission_classes, ClubWrites]
    owner_field = "created_by_id"
    http_method_names = ["get", "post", "patch", "delete"]
    filterset_class = PlayerFilter

    def get_queryset(self) -> QuerySet[Player]:
        return access.players(self.request.user).select_related("club")

    def perform_create(self, serializer: serializers.BaseSerializer[Player]) -> None:
        club = access.club_for_new(self.request.user, serializer.validated_data.get("club"))
        serializer.instance = services.player_create(
            club=club, name=serializer.validated_data["name"], created_by=self.request.user
        )

    def perform_update(self, serializer: serializers.BaseSerializer[Player]) -> None:
        player = serializer.instance
        assert player is not None
        name = serializer.validated_data.get("name", player.name)
        services.player_update(player=player, name=name, by=self.request.user)
