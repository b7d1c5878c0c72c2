"""Batch jobs over the API: a club's admins re-score its games (staff: every club's); its
recorders import many logs into it, or a file of plays from another app (BG Stats,
BoardGameGeek), with a dry run first if they like. A job is seen by its club's admins and by
whoever started it while they are in the club; another club's jobs are as if they did not
exist."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api import imports as file_api
from games.api.common import errors, id_parameter
from games.api.serializers import (
    CLUB_QUERY,
    MAX_IMPORT_DOCUMENTS,
    import_request_schema,
    log_documents,
)
from games.exchange import imports
from games.exchange.formats.detect import read_play_file
from games.exchange.formats.plays import FormatError
from games.records import access
from games.records.errors import Forbidden
from games.records.game_types import game_types
from games.records.models import Edition
from scoring import jobs
from scoring.engine import get_engine
from scoring.jobs import selectors as job_selectors
from scoring.models import Job

# A background import takes more than a direct one, which must answer within one request.
MAX_JOB_DOCUMENTS = 20 * MAX_IMPORT_DOCUMENTS
JOB_ID = id_parameter("The job's id.")


def _game_with_decks() -> str:
    return next(t for t in game_types() if get_engine(t).info.edition_log_key == "deck")


class RescoreRequestSerializer(serializers.Serializer):
    club = serializers.SlugField(
        required=False,
        max_length=50,
        help_text="The club whose games to re-score (its admins and owners). Left out: your "
        "only club where you are an admin; for staff, every club's games.",
    )
    game_type = serializers.ChoiceField(choices=(), required=False)
    edition = serializers.SlugField(
        required=False, help_text="Only games that use this edition of `game_type`."
    )
    new_edition = serializers.SlugField(
        required=False,
        help_text="Re-score with this edition of `game_type`; the games use it from then on.",
    )
    deck = serializers.SlugField(
        required=False, help_text="Pot de Vin: only games that use this deck version."
    )
    new_deck = serializers.SlugField(
        required=False,
        help_text="Pot de Vin: re-score with this deck version; the games use it from then on.",
    )
    date_from = serializers.DateField(required=False)
    date_to = serializers.DateField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["game_type"].choices = game_types()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        # `deck`/`new_deck` name the editions of the game whose logs call them decks (Pot de
        # Vin), kept for its clients.
        game_type = attrs.get("game_type")
        if attrs.get("deck") or attrs.get("new_deck"):
            decks = _game_with_decks()
            if game_type not in (None, decks):
                raise ValidationError(
                    {"deck": [_("decks are %(game)s editions") % {"game": decks}]}
                )
            game_type = decks
        out: dict[str, Any] = {"game_type": game_type}
        for name, alias in (("edition", "deck"), ("new_edition", "new_deck")):
            key = attrs.get(name) or attrs.get(alias)
            if not key:
                continue
            if game_type is None:
                raise ValidationError(
                    {"game_type": [_("`%(field)s` needs the game type") % {"field": name}]}
                )
            found = Edition.objects.filter(game_type=game_type, key=key).first()
            if found is None:
                field = alias if attrs.get(alias) else name
                raise ValidationError(
                    {field: [_("Object with key=%(key)s does not exist.") % {"key": key}]}
                )
            out[name] = found
        out.update({k: attrs[k] for k in ("date_from", "date_to", "club") if k in attrs})
        return out


class JobFailureSerializer(serializers.Serializer):
    key = serializers.IntegerField(
        help_text="Game id (re-score), document index (import), or play number (a file's import)."
    )
    game = serializers.IntegerField(allow_null=True)
    code = serializers.CharField(help_text="The engine's error code.")
    message = serializers.CharField()
    round = serializers.IntegerField(allow_null=True, required=False)
    seat = serializers.IntegerField(allow_null=True, required=False)
    turn = serializers.IntegerField(
        required=False, help_text="Games logged turn by turn (Complots): the turn."
    )
    play = serializers.CharField(
        required=False, help_text="A file's import: the app's id of the play skipped."
    )


class WinnersChangedSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    winners_before = serializers.ListField(child=serializers.IntegerField())
    winners_after = serializers.ListField(child=serializers.IntegerField())


class JobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Job.Kind.choices)
    status = serializers.ChoiceField(choices=Job.Status.choices)
    params = serializers.DictField(
        help_text="The filter and deck a re-score was started with; a file's import: the file "
        "read (`format`, `filename`)."
    )
    total = serializers.IntegerField()
    done = serializers.IntegerField(help_text="Games or documents handled so far.")
    failed = serializers.IntegerField(help_text="How many of those failed.")
    failures = JobFailureSerializer(
        many=True, help_text="The failures, by key: the first 1,000 (`failed` counts them all)."
    )
    winners_changed = WinnersChangedSerializer(
        many=True, help_text="Re-score: the games whose winners changed, by id: the first 1,000."
    )
    games = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="Import: the games made."
    )
    error = serializers.CharField(allow_blank=True, help_text="Why a failed job could not run.")
    report = file_api.ImportSummarySerializer(
        allow_null=True,
        help_text="A file's import: what it did so far (a planned one: what it would do), "
        "every play skipped and why; null for other jobs.",
    )
    created_at = serializers.DateTimeField()
    progressed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When a batch last finished. A running job whose batches stopped coming has "
        "lost one (its worker was killed): resume it.",
    )
    finished_at = serializers.DateTimeField(allow_null=True)


def _progress(job: Job, code: int = status.HTTP_200_OK) -> Response:
    return Response(JobSerializer(jobs.job_progress(job)).data, status=code)


class _JobViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    kind: str
    serializer_class = JobSerializer
    owner_field = "created_by_id"

    def get_queryset(self) -> QuerySet[Job]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Job.objects.filter(kind=self.kind)
        return job_selectors.visible_jobs(self.request.user, self.kind)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        page = self.paginate_queryset(self.get_queryset())
        body = [jobs.job_progress(j) for j in page or []]
        return self.get_paginated_response(JobSerializer(body, many=True).data)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return _progress(self.get_object())

    @action(detail=True, methods=["post"])
    def resume(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Send the batches of what the job has not done yet again, for a job that stopped
        moving: its worker was killed on a broker that does not deliver again (the embedded
        folder queue), or the broker refused its batches. Safe while batches still run: each
        skips what is done. 409 `job_finished` for a job that is done."""
        job = self.get_object()
        if not access.owner_or_admin(self.request.user, job):
            raise Forbidden(
                "forbidden", _("only who started the job, or the club's admins, resume it")
            )
        jobs.job_resume(job.pk)
        job.refresh_from_db()
        return _progress(job, status.HTTP_202_ACCEPTED)


@extend_schema_view(
    list=extend_schema(responses={200: JobSerializer(many=True), **errors(400, 401, 403, 404)}),
    retrieve=extend_schema(
        parameters=[JOB_ID], responses={200: JobSerializer, **errors(401, 403, 404)}
    ),
    create=extend_schema(
        request=RescoreRequestSerializer,
        responses={202: JobSerializer, **errors(400, 401, 403, 413, 429, 503)},
    ),
    resume=extend_schema(
        parameters=[JOB_ID],
        request=None,
        responses={202: JobSerializer, **errors(401, 403, 404, 409, 429, 503)},
    ),
)
class RescoreViewSet(mixins.CreateModelMixin, _JobViewSet):
    """Re-score a club's stored games (its admins and owners; staff: every club's at once):
    all, or those matching a filter, optionally with another edition (Pot de Vin: deck
    version). The job runs on the workers in batches; poll it
    for progress, failures (game and engine error code) and the games whose winners changed."""

    kind = Job.Kind.RESCORE
    permission_classes = [IsAuthenticated]

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        form = RescoreRequestSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        options = dict(form.validated_data)
        slug = options.pop("club", None)
        if slug is None and request.user.is_staff:
            club = None  # every club's games
        else:
            club = access.club_for_new(request.user, slug, access.Can.ADMIN)
        job = jobs.rescore_start(created_by=request.user, club=club, **options)
        return _progress(job, status.HTTP_202_ACCEPTED)


@extend_schema_view(
    list=extend_schema(responses={200: JobSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(parameters=[JOB_ID], responses={200: JobSerializer, **errors(401, 404)}),
    create=extend_schema(
        parameters=[CLUB_QUERY],
        request={"application/json": import_request_schema(MAX_JOB_DOCUMENTS)},
        responses={202: JobSerializer, **errors(400, 401, 403, 413, 415, 429, 503)},
    ),
    resume=extend_schema(
        parameters=[JOB_ID],
        request=None,
        responses={202: JobSerializer, **errors(401, 403, 404, 409, 429, 503)},
    ),
)
class ImportJobViewSet(mixins.CreateModelMixin, _JobViewSet):
    """Import many game logs (any game, by `format`) in the background. Each document stands alone:
    an impossible one is listed in `failures` (its index and the engine's error), the others
    become games."""

    kind = Job.Kind.IMPORT
    permission_classes: list[type[BasePermission]] = [IsAuthenticated]

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = access.club_for_new(request.user, request.query_params.get("club"))
        documents = log_documents(request.data, MAX_JOB_DOCUMENTS)
        if not all(isinstance(doc, dict) for doc in documents):
            raise ValidationError({"documents": [_("each document is a JSON object")]})
        job = jobs.import_start(club=club, created_by=request.user, documents=documents)
        return _progress(job, status.HTTP_202_ACCEPTED)

    @extend_schema(
        operation_id="imports_file",
        parameters=[CLUB_QUERY, file_api.DRY_RUN_QUERY],
        request=file_api.FILE_REQUEST,
        responses={
            200: file_api.ImportPlanSerializer,
            202: JobSerializer,
            **errors(400, 401, 403, 413, 415, 429, 503),
        },
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="file",
        parser_classes=[file_api.UploadParser, file_api.RawFileParser],
    )
    def file(self, request: Request) -> Response:
        """Import a file of plays, its format found from its content: BG Stats' export
        (`BGStatsExport.json`, zipped or not) or one play it shared (`.bgsplay`),
        BoardGameGeek's XML plays document, or our own game logs. Send it as the body, or as
        the field `file` of a multipart form. Plays are matched to the club's games (ours by
        BoardGameGeek id, others as named games), players and locations (by the app's ids,
        then by name); a play imported before is left as it is, or updated if it was edited
        in the app. With `dry_run`, the answer is what would be created, matched, updated or
        skipped (200), and nothing is written; otherwise the import runs as a job (202) whose
        `report` lists every play skipped and why. A file refused is 400 (413 past a size
        limit) with the reader's code, nothing stored."""
        club = access.club_for_new(request.user, request.query_params.get("club"))
        data, filename = file_api.uploaded_file(request)
        try:
            read = read_play_file(data, filename=filename)
        except FormatError as exc:
            raise file_api.refused(exc) from None
        if isinstance(read, list):  # our own game logs
            if len(read) > MAX_JOB_DOCUMENTS:
                raise ValidationError(
                    {
                        "documents": [
                            _("send 1 to %(most)s log documents") % {"most": MAX_JOB_DOCUMENTS}
                        ]
                    }
                )
            if file_api.dry_run(request):
                summary = imports.logs_plan(club=club, owner=request.user, documents=read)
                details = {"plays": [], "players": [], "board_games": [], "locations": []}
                return Response({**summary, "details": details})
            job = jobs.import_start(club=club, created_by=request.user, documents=read)
            return _progress(job, status.HTTP_202_ACCEPTED)
        if file_api.dry_run(request):
            plan = imports.plays_plan(club=club, play_file=read)
            return Response({**plan.summary(), "details": imports.plan_details(plan)})
        job = jobs.import_plays_start(
            club=club,
            created_by=request.user,
            play_file=read,
            format=read.kind or read.app,
            filename=filename or "",
        )
        return _progress(job, status.HTTP_202_ACCEPTED)
