"""Starting, resuming and ending batch jobs (writes); the batches themselves are in
``scoring.jobs.batches``."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games.exchange import imports
from games.exchange.formats.plays import PlayFile
from games.records import services as game_services
from games.records.errors import RecordError
from games.records.memory import collector_paused
from games.records.models import Club, Edition
from scoring.jobs.selectors import rescore_games
from scoring.jobs.writes import Item
from scoring.models import Job, JobInput, JobItem, JobKeys
from scoring.stats.db import insert

# The batches' tasks, sent by name (``scoring.jobs.tasks`` runs this module, which cannot import
# it back).
RESCORE_TASK = "scoring.rescore_batch"
IMPORT_TASK = "scoring.import_batch"


INPUT_FIELDS = ("job", "key", "document")  # a job's documents, written by COPY (PostgreSQL)


def batch_size() -> int:
    # At least 100 games a task: fewer makes the broker's overhead count.
    return max(100, int(getattr(settings, "POTDEVIN_JOB_BATCH_SIZE", 200)))


def chunks(keys: Sequence[int], size: int) -> list[list[int]]:
    return [list(keys[i : i + size]) for i in range(0, len(keys), size)]


class QueueUnavailable(Exception):
    """The broker refused the job's batches; the job is marked failed."""


class CannotResume(Exception):
    """A job whose batches cannot be sent again: it is done, or (a re-score started before
    jobs kept their keys) it does not know its games."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _enqueue(job: Job, keys: Sequence[int]) -> None:
    """Send the batches once the job row is committed (a worker must be able to read it).
    Raises ``QueueUnavailable`` when the broker cannot be reached."""
    task = current_app.tasks[RESCORE_TASK if job.kind == Job.Kind.RESCORE else IMPORT_TASK]
    batches = chunks(keys, batch_size())

    def send() -> None:
        try:
            for batch in batches:
                task.delay(job.pk, batch)
        except Exception as exc:  # whatever the transport raises, the job cannot run
            # Stored with the job, for whoever reads it later: in English, not translated.
            Job.objects.filter(pk=job.pk).update(
                status=Job.Status.FAILED, error=f"the job queue is unavailable: {exc}"
            )
            raise QueueUnavailable(str(exc)) from exc

    transaction.on_commit(send)


def rescore_start(
    *,
    created_by: AbstractBaseUser,
    club: Club | None = None,
    game_type: str | None = None,
    edition: Edition | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    new_edition: Edition | None = None,
) -> Job:
    """Start re-scoring every game of ``club`` (None: of every club) matching the filter, with
    ``new_edition`` if given (the games then use that edition from now on). An edition belongs
    to one game, so a filter by edition, or a new edition, keeps to the games of its type."""
    if new_edition is not None or edition is not None:
        game_type = (new_edition or edition).game_type  # type: ignore[union-attr]
    params = {
        "game_type": game_type,
        "edition": edition.key if edition else None,
        "date_from": date_from.isoformat() if date_from else None,
        "date_to": date_to.isoformat() if date_to else None,
        "new_edition": new_edition.key if new_edition else None,
    }
    with transaction.atomic():
        ids = list(
            rescore_games(
                club=club,
                game_type=game_type,
                edition=edition,
                date_from=date_from,
                date_to=date_to,
            )
            .order_by("id")
            .values_list("id", flat=True)
        )
        job = Job.objects.create(
            kind=Job.Kind.RESCORE,
            club=club,
            params=params,
            total=len(ids),
            created_by=created_by,
        )
        JobKeys.objects.create(job=job, keys=ids)
        if not ids:
            _finish(job)
        _enqueue(job, ids)
    return job


def import_start(
    *,
    club: Club,
    created_by: AbstractBaseUser,
    documents: Sequence[Any],
    plan: dict[str, Any] | None = None,
    confirmed: bool = True,
) -> Job:
    """Import many log documents into ``club`` in the background. Unlike a direct import,
    each document stands alone: an impossible one is reported (with its index) and the others
    are stored. Each goes through the gate of stored JSON before it is stored
    (``log_document_check``): one it refuses refuses the whole request (``RecordError`` with
    its index), nothing stored. ``plan``, what the import would do
    (``games.exchange.imports.logs_plan``), is kept with the job; ``confirmed=False`` leaves it
    planned until ``import_confirm``, an earlier planned job of the same person in the club
    dropped.

    Only that check runs here, in the caller's process: the documents are stored as they came
    and everything else (the keys a format does not define dropped, the engine's replay) is the
    batches', on the workers, from the first batch on."""
    # The documents stay alive until stored: the collector would find no garbage.
    with collector_paused():
        for index, doc in enumerate(documents):
            try:
                game_services.log_document_check(doc)
            except RecordError as exc:
                exc.index = index
                raise
        params = {"plan": plan} if plan is not None else {}
        return _import_job(club, created_by, params, documents, confirmed)


def _import_job(
    club: Club,
    created_by: AbstractBaseUser,
    params: dict[str, Any],
    inputs: Sequence[Any],
    confirmed: bool,
) -> Job:
    """An import job of ``club`` with these documents or plays (JSON) as its inputs: its
    batches sent once it commits, or left planned (``confirmed=False``), an earlier planned
    job of the same person in the club dropped."""
    with transaction.atomic():
        if not confirmed:
            _drop_planned(club, created_by)
        job = Job.objects.create(
            kind=Job.Kind.IMPORT,
            club=club,
            total=len(inputs),
            created_by=created_by,
            params=params,
            status=Job.Status.RUNNING if confirmed else Job.Status.PLANNED,
        )
        document = JobInput._meta.get_field("document").get_prep_value
        insert(JobInput, INPUT_FIELDS, ((job.pk, i, document(doc)) for i, doc in enumerate(inputs)))
        if confirmed:
            _start_batches(job)
    return job


def _drop_planned(club: Club, created_by: AbstractBaseUser) -> None:
    Job.objects.filter(
        kind=Job.Kind.IMPORT, club=club, created_by=created_by, status=Job.Status.PLANNED
    ).delete()


def import_plays_start(
    *,
    club: Club,
    created_by: AbstractBaseUser,
    play_file: PlayFile,
    format: str,
    filename: str = "",
    confirmed: bool = True,
) -> Job:
    """Import the plays of another app's file into ``club`` in the background
    (``games.exchange.imports``): each play stands alone, a play the records refuse is reported with
    its reason and the others are stored. The plan made now (what would be created, matched,
    updated, left unchanged or skipped) is kept with the job (``params["plan"]``), the plays in
    its inputs. ``confirmed=False`` leaves the job planned: nothing runs until
    ``import_confirm``. An earlier planned job of the same person in the club is dropped."""
    checked = imports.play_file_prepared(play_file)
    plan = imports.plays_plan(club=club, play_file=checked, format=format)
    params = {
        "input": imports.PLAYS_INPUT,
        "app": checked.app,
        "format": format,
        "filename": imports.safe_text(filename)[:200],
        "plan": imports.plan_summary(plan),
        "reader_skipped": [
            {"play": s.external_id, "code": s.code, "message": s.message} for s in checked.skipped
        ],
        "details": imports.plan_details(plan),
    }
    plays = [imports.play_to_json(play) for play in checked.plays]
    return _import_job(club, created_by, params, plays, confirmed)


def _start_batches(job: Job) -> None:
    if job.total == 0:
        _finish(job)
    else:
        _enqueue(job, list(range(job.total)))


def _planned(job_id: int) -> Job:
    """The planned job ``job_id``, locked (in the caller's transaction), or ``CannotResume``
    ``job_not_planned`` for one already started."""
    job = Job.objects.select_for_update().get(pk=job_id)
    if job.status != Job.Status.PLANNED:
        raise CannotResume("job_not_planned", _("job %(id)s was already started") % {"id": job.pk})
    return job


def import_confirm(job_id: int) -> Job:
    """Run a planned import (``import_plays_start(confirmed=False)``). Raises
    ``CannotResume`` (``job_not_planned``) for a job already started."""
    with transaction.atomic():
        job = _planned(job_id)
        job.status = Job.Status.RUNNING
        job.save(update_fields=["status"])
        _start_batches(job)
    return job


def import_discard(job_id: int) -> None:
    """Drop a planned import and the plays it kept, nothing having been stored from it. Raises
    ``CannotResume`` (``job_not_planned``) for a job already started: its games are the club's
    now, each deleted from its own page if need be."""
    with transaction.atomic():
        _planned(job_id).delete()


def job_resume(job_id: int) -> int:
    """Send the batches of the job's keys that have no item yet again, and mark the job
    running (a job that failed because the broker refused its batches too). Returns how many
    keys were sent. Raises ``CannotResume`` for a job that is done (or does not know its keys),
    ``QueueUnavailable`` when the broker cannot be reached."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status == Job.Status.DONE:
            raise CannotResume(
                "job_finished",
                _("job %(id)s is done: there is nothing to resume") % {"id": job.pk},
            )
        if job.status == Job.Status.PLANNED:
            raise CannotResume(
                "job_not_confirmed",
                _("job %(id)s waits to be confirmed: confirm it to run it") % {"id": job.pk},
            )
        keys: Sequence[int] | None = range(job.total)
        if job.kind == Job.Kind.RESCORE:
            keys = JobKeys.objects.filter(job=job).values_list("keys", flat=True).first()
            if keys is None:
                raise CannotResume(
                    "job_keys_missing",
                    _("job %(id)s does not know its games: start it again") % {"id": job.pk},
                )
        done = set(JobItem.objects.filter(job=job).values_list("key", flat=True))
        remaining = [k for k in keys if k not in done]
        job.status, job.error = Job.Status.RUNNING, ""
        job.save(update_fields=["status", "error"])
        if remaining:
            _enqueue(job, remaining)
        else:  # every batch got through; only marking the job done was missed
            complete_if_done(job)
    return len(remaining)


def complete_if_done(job: Job, items: Sequence[Item] = ()) -> None:
    """Add the batch's new ``items`` to the job's counters, and mark the job done when every
    key has its item.

    Batches pass here one at a time: the update of the counters locks the job row until the
    batch commits, so the last one to get the lock reads every other's items in ``done``.
    (Unlocked, two last batches finishing together would each count before the other
    committed, and neither would end the job.) The conditional update makes exactly one batch
    win. No batch counts the items: a job of a million games is polled and ended alike."""
    failed = sum(1 for item in items if not item.ok)
    Job.objects.filter(pk=job.pk).update(
        progressed_at=timezone.now(), done=F("done") + len(items), failed=F("failed") + failed
    )
    if Job.objects.filter(pk=job.pk, done__lt=F("total")).exists():
        return
    if Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(
        status=Job.Status.DONE, finished_at=timezone.now()
    ):
        transaction.on_commit(lambda: _after_job(job.pk))


def jobs_resume_stalled(*, stalled_after: datetime.timedelta) -> list[int]:
    """Resume every running job with no batch finished for ``stalled_after`` (counted from its
    start when none has finished yet): a broker lost one of its batches. Run periodically by
    the workers (``scoring.resume_stalled_jobs``); resuming a job that was only slow sends
    batches that then find their keys done. Returns the ids of the jobs resumed."""
    since = timezone.now() - stalled_after
    stalled = Job.objects.filter(status=Job.Status.RUNNING).filter(
        Q(progressed_at__lt=since) | Q(progressed_at__isnull=True, created_at__lt=since)
    )
    resumed = []
    for job_id in stalled.values_list("id", flat=True):
        try:
            job_resume(job_id)
        except CannotResume:
            continue  # done meanwhile, or a job too old to know its keys
        resumed.append(job_id)
    return resumed


def _finish(job: Job) -> None:
    job.status = Job.Status.DONE
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "finished_at"])


AFTER_JOB: list[Callable[[Job, list[int]], None]] = []


def _after_job(job_id: int) -> None:
    """What follows a finished job: the hooks registered in AFTER_JOB (``scoring.follow``)
    get the games whose results it wrote (a re-score: those it found changed)."""
    job = Job.objects.get(pk=job_id)
    items = JobItem.objects.filter(job=job, ok=True)
    if job.kind == Job.Kind.RESCORE:
        items = items.filter(outcome__in=JobItem.RESCORE_WRITTEN)
    game_ids = list(items.values_list("game_id", flat=True).distinct())
    for hook in AFTER_JOB:
        hook(job, [g for g in game_ids if g is not None])
