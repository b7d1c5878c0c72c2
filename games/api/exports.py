"""A club's plays in another app's format, over the API: BG Stats' export file."""

from __future__ import annotations

from collections.abc import Iterable

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.negotiation import BaseContentNegotiation
from rest_framework.parsers import BaseParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView

from games.api.clubs import SLUG
from games.api.serializers import errors
from games.exchange import exports
from games.records import access


class NoNegotiation(BaseContentNegotiation):
    """JSON whatever the request asks (``?format=``, ``Accept``): the file is the app's JSON,
    and its errors are the API's."""

    def select_parser(self, request: Request, parsers: Iterable[BaseParser]) -> BaseParser | None:
        return next(iter(parsers), None)

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderer = next(iter(renderers))
        return renderer, renderer.media_type


class ExportRateThrottle(UserRateThrottle):
    """Exports per user: each is the club's whole record, read and written in one go."""

    scope = "exports"

    def get_rate(self) -> str:
        return exports.EXPORT_RATE


class BGStatsExportView(APIView):
    """The club's finished games as BG Stats' export file (`BGStatsExport.json`), for the app's
    import from a file: its games (ours by their BoardGameGeek id, the club's other games by
    name and id), players, locations, and plays with each player's score, rank, winner flag,
    start player and team, the duration and the comments. The ids are the same on every export
    (and the app's own for what came from it), so that importing a newer file into the app
    matches what it already holds. Any member of the club; query parameters are ignored."""

    permission_classes = [IsAuthenticated]
    throttle_classes = [ExportRateThrottle]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = NoNegotiation

    @extend_schema(
        operation_id="club_export_bgstats",
        parameters=[SLUG],
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="BG Stats' export document, as the attachment `BGStatsExport.json`.",
            ),
            **errors(401, 404, 429),
        },
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        club = access.club_or_404(request.user, slug)
        response = HttpResponse(
            exports.bgstats_file(club=club, user=request.user), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="{exports.EXPORT_FILENAME}"'
        return response
