"""Shapes of a file import over the API (``POST /api/imports/file/``): reading the upload, as a
multipart form's ``file`` or as the raw body, within the size limit before the body is read
whole; the answer of a dry run (``games.exchange.imports.plan_summary`` and ``plan_details``); a
file a reader refuses as a 4xx with the reader's code."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter
from rest_framework import exceptions, serializers, status
from rest_framework.parsers import BaseParser, MultiPartParser
from rest_framework.request import Request

from games.exchange.formats.plays import FormatError
from games.exchange.imports import BY_BGG, BY_NAME, BY_REF, CREATE, NEW, SKIP, UNCHANGED, UPDATE

UPLOAD_FIELD = "file"


def max_upload_bytes() -> int:
    """The largest file an import takes: the largest body of any request (a zipped BG Stats
    export of a club's ten years is a few hundred KB; unzipped, the reader has its own
    limit)."""
    return int(settings.POTDEVIN_MAX_BODY_BYTES)


class FileRefused(exceptions.APIException):
    """A file no reader takes (400) or one past a size limit (413), with the reader's code."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "unknown_format"

    def __init__(self, code: str, message: str, *, too_large: bool = False) -> None:
        super().__init__(detail=message, code=code)
        if too_large:
            self.status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE


def refused(exc: FormatError) -> FileRefused:
    return FileRefused(exc.code, exc.message, too_large=exc.code == "too_large")


def _too_large() -> FileRefused:
    return FileRefused(
        "too_large",
        _("The file is over %(limit)s bytes.") % {"limit": max_upload_bytes()},
        too_large=True,
    )


def _check_declared(parser_context: Mapping[str, Any] | None) -> None:
    """Refuse a body whose declared length is past the limit before reading any of it."""
    request = (parser_context or {}).get("request")
    declared = request.META.get("CONTENT_LENGTH") if request is not None else None
    if declared and str(declared).isdigit() and int(declared) > max_upload_bytes():
        raise _too_large()


class UploadParser(MultiPartParser):
    """A multipart form with the file under ``file``: refused past the limit by its declared
    length, before Django reads it."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        _check_declared(parser_context)
        return super().parse(stream, media_type, parser_context)


class RawFileParser(BaseParser):
    """The body itself is the file, whatever its type (JSON, XML, zip): read up to the limit
    and no further."""

    media_type = "*/*"

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        _check_declared(parser_context)
        if stream is None:  # no body at all
            return b""
        body: bytes = stream.read(max_upload_bytes() + 1)
        if len(body) > max_upload_bytes():
            raise _too_large()
        return body


def uploaded_file(request: Request) -> tuple[bytes, str | None]:
    """The file of an import request and its name (a multipart upload's), within the limit.
    Raises ``FileRefused`` (``no_file``, ``too_large``)."""
    data = request.data
    if isinstance(data, bytes):
        return data, None
    upload = request.FILES.get(UPLOAD_FIELD) if hasattr(request, "FILES") else None
    if upload is None:
        raise FileRefused(
            "no_file",
            _("send the file as the body, or as the field %(field)r of a multipart form")
            % {"field": UPLOAD_FIELD},
        )
    if upload.size is not None and upload.size > max_upload_bytes():
        raise _too_large()
    content = upload.read(max_upload_bytes() + 1)
    if len(content) > max_upload_bytes():
        raise _too_large()
    return content, upload.name


def dry_run(request: Request) -> bool:
    """Whether the request asks for a dry run (``?dry_run=true``, ``1``, ``yes``)."""
    return str(request.query_params.get("dry_run", "")).strip().lower() in ("1", "true", "yes")


DRY_RUN_QUERY = OpenApiParameter(
    "dry_run",
    bool,
    OpenApiParameter.QUERY,
    description="Answer what the import would do (200, the plan), writing nothing.",
)
_BINARY = {"type": "string", "format": "binary"}
FILE_REQUEST = {
    "multipart/form-data": {
        "type": "object",
        "properties": {
            UPLOAD_FIELD: {
                **_BINARY,
                "description": "The file: BG Stats' export (BGStatsExport.json, or zipped), "
                "one play it shared (.bgsplay), BoardGameGeek's XML plays document, or our "
                "own game logs.",
            }
        },
        "required": [UPLOAD_FIELD],
    },
    "application/octet-stream": {
        **_BINARY,
        "description": "The file itself as the body, zipped or not (any type is read: the "
        "format is found from the content).",
    },
    "application/xml": _BINARY,
}


class _CreatedSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    players = serializers.IntegerField()
    board_games = serializers.IntegerField(help_text="Named games (games without an engine).")
    locations = serializers.IntegerField()


class _MatchedSerializer(serializers.Serializer):
    players = serializers.IntegerField()
    board_games = serializers.IntegerField()
    locations = serializers.IntegerField()


class SkippedPlaySerializer(serializers.Serializer):
    play = serializers.CharField(allow_null=True, help_text="The app's id of the play.")
    code = serializers.CharField(help_text="Why, as a stable code (`incomplete`, ...).")
    message = serializers.CharField()


class ProblemSerializer(serializers.Serializer):
    play = serializers.CharField(help_text="The app's id of the play (imported all the same).")
    code = serializers.CharField(help_text="A stable code (`bad_score`, `anonymous_seats`...).")
    message = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True, help_text="The seat in the file's order.")


class ImportSummarySerializer(serializers.Serializer):
    """What an import did, or (a dry run, a planned job) would do."""

    format = serializers.CharField(
        help_text="What the file was: `bgstats-export`, `bgsplay`, `bgg-xml`, or `log` (our "
        "own game logs)."
    )
    plays = serializers.IntegerField(help_text="Plays in the file (documents: game logs).")
    created = _CreatedSerializer()
    matched = _MatchedSerializer(help_text="Records of the club the file's plays were found to be.")
    updated = serializers.IntegerField(help_text="Games of plays edited in the app since.")
    unchanged = serializers.IntegerField(help_text="Plays imported before and not edited since.")
    game_types = serializers.DictField(
        child=serializers.IntegerField(), help_text="Games created or updated, by game type."
    )
    skipped = SkippedPlaySerializer(many=True)
    problems = ProblemSerializer(
        many=True, help_text="What a play imported held that could not be read as it stood."
    )


_MATCHES = (NEW, BY_REF, BY_BGG, BY_NAME)


class PlannedPlaySerializer(serializers.Serializer):
    play = serializers.CharField()
    played_on = serializers.DateField()
    game = serializers.CharField(help_text="The game's name.")
    game_type = serializers.CharField(allow_null=True)
    mode = serializers.CharField(
        allow_null=True,
        help_text="`result` (known by its scores, ranks or winners) or `scorepad` (a sheet its "
        "places make, Complots' elimination order).",
    )
    action = serializers.ChoiceField(choices=[CREATE, UPDATE, UNCHANGED, SKIP])
    game_id = serializers.IntegerField(
        allow_null=True, help_text="The game this play was imported as before."
    )
    players = serializers.ListField(child=serializers.CharField())
    code = serializers.CharField(allow_null=True, help_text="Skipped: why, as a code.")
    message = serializers.CharField(allow_null=True)


class PlannedPlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    match = serializers.ChoiceField(choices=_MATCHES, help_text="`new`, or found by `ref`/`name`.")
    player = serializers.IntegerField(allow_null=True)


class PlannedBoardGameSerializer(serializers.Serializer):
    name = serializers.CharField()
    bgg_id = serializers.IntegerField(allow_null=True)
    match = serializers.ChoiceField(choices=_MATCHES)
    board_game = serializers.IntegerField(allow_null=True)


class PlannedLocationSerializer(serializers.Serializer):
    name = serializers.CharField()
    match = serializers.ChoiceField(choices=_MATCHES)


class PlanDetailsSerializer(serializers.Serializer):
    plays = PlannedPlaySerializer(many=True)
    players = PlannedPlayerSerializer(many=True)
    board_games = PlannedBoardGameSerializer(many=True)
    locations = PlannedLocationSerializer(many=True)


class ImportPlanSerializer(ImportSummarySerializer):
    """A dry run's answer: the summary, and the plan play by play."""

    details = PlanDetailsSerializer()
