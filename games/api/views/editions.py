"""Editions (``/api/editions/{game_type}/{key}/``): versions of a game's printed data."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.permissions import StaffWrites
from games.api.plugins import api_for
from games.api.serializers import (
    KEY_SCHEMA,
    EditionSerializer,
    EditionUpdateSerializer,
    errors,
    games_with_editions,
)
from games.api.views.base import GAME_TYPE_FILTER, body_game_type, game_type_choices, valid
from games.records import services
from games.records.game_types import plugin_for
from games.records.models import Edition


class EditionFilter(django_filters.FilterSet):
    game_type = django_filters.ChoiceFilter(choices=game_type_choices)

    class Meta:
        model = Edition
        fields = ["game_type"]


def _edition_path() -> list[OpenApiParameter]:
    """An edition's place: its game (one with editions; another has none: 404) and key."""
    named = games_with_editions()
    return [
        OpenApiParameter(
            "game_type",
            {"type": "string", "pattern": f"^({'|'.join(named)})$"},
            OpenApiParameter.PATH,
            description="The game (one with editions).",
        ),
        OpenApiParameter("key", KEY_SCHEMA, OpenApiParameter.PATH, description="Its key."),
    ]


def _edition_examples() -> list[OpenApiExample]:
    """A new version of each game's default edition, with that edition's data."""
    examples = []
    for game_type in games_with_editions():
        info = plugin_for(game_type).engine.info
        default = info.default_edition
        assert default is not None, game_type
        examples.append(
            OpenApiExample(
                f"{info.label}: a new version of {default}",
                value={
                    "game_type": game_type,
                    "key": f"{default}-2",
                    "description": f"{default}, corrected",
                    "data": info.builtin_editions[default]["data"],
                },
                request_only=True,
            )
        )
    return examples


@extend_schema_view(
    list=extend_schema(
        parameters=[GAME_TYPE_FILTER],
        responses={200: EditionSerializer(many=True), **errors(400, 401, 404)},
    ),
    retrieve=extend_schema(
        parameters=_edition_path(), responses={200: EditionSerializer, **errors(401, 404)}
    ),
    create=extend_schema(
        examples=_edition_examples(),
        responses={201: EditionSerializer, **errors(400, 401, 409, 413, 429)},
    ),
    partial_update=extend_schema(
        parameters=_edition_path(),
        request=EditionUpdateSerializer,
        responses={200: EditionSerializer, **errors(400, 401, 403, 404, 413, 429)},
    ),
)
class EditionViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Editions: versions of a game's printed data that can be wrong (Pot de Vin: its decks),
    at /api/editions/{game_type}/{key}/. An edition's data never changes: a correction is a new
    version, and stored games can be re-scored with it. Staff mark an edition verified."""

    serializer_class = EditionSerializer
    filterset_class = EditionFilter
    http_method_names = ["get", "post", "patch"]

    def get_queryset(self) -> QuerySet[Edition]:
        return Edition.objects.all()

    def get_object(self) -> Edition:
        edition = get_object_or_404(
            self.get_queryset(), game_type=self.kwargs["game_type"], key=self.kwargs["key"]
        )
        self.check_object_permissions(self.request, edition)
        return edition

    def get_permissions(self) -> list[Any]:
        if self.action == "partial_update":
            return [*super().get_permissions(), StaffWrites()]
        return super().get_permissions()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Edition]]:
        return EditionUpdateSerializer if self.action == "partial_update" else EditionSerializer

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        api_for(body_game_type(request))  # an unknown game: unknown_game_type
        data = valid(EditionSerializer, request)
        edition = services.edition_create(
            game_type=data["game_type"],
            key=data["key"],
            data=data["data"],
            description=data.get("description", ""),
            verified=False,  # only staff mark an edition verified, after checking it
            created_by=request.user,
        )
        return Response(EditionSerializer(edition).data, status=status.HTTP_201_CREATED)

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        super().update(request, *args, **kwargs)
        return Response(EditionSerializer(self.get_object()).data)
