"""The batches of a job, one Celery task each: re-score games, import documents or plays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models.fields.json import KeyTransform
from django.utils import timezone

from games import adapters, events, imports
from games import services as game_services
from games.errors import RecordError
from games.formats.plays import PlayFile
from games.models import Edition, Game, Seat
from scoring.engine import LogError
from scoring.jobs import services
from scoring.jobs.writes import store_results, store_seat_scores
from scoring.models import Job, JobInput, JobItem


def rescore_batch(*, job_id: int, game_ids: Sequence[int]) -> int:
    """Re-score these games of the job; returns how many were newly done.

    Locks the games (``select_for_update``, in id order) while it reads their rounds and
    stores results, so a round appended meanwhile is never overwritten by a stale result. The
    items done are read once the locks are held: a copy of this batch running at the same time
    (delivered again, or resumed) waits, then finds its games done."""
    job = Job.objects.get(pk=job_id)
    new_key = job.params.get("new_edition") or job.params.get("new_deck")
    new_edition = (
        Edition.objects.get(game_type=job.params["game_type"], key=new_key) if new_key else None
    )
    with transaction.atomic():
        locked = list(
            Game.objects.select_for_update(of=("self",))
            .filter(pk__in=game_ids)
            .select_related("edition")
            .defer("result", "edition__data")  # large JSON the batch does not read
            .annotate(winners_before=KeyTransform("winners", "result"))
            .order_by("id")
        )
        done = set(JobItem.objects.filter(job=job, key__in=game_ids).values_list("key", flat=True))
        todo = [k for k in game_ids if k not in done]
        games = [g for g in locked if g.pk not in done]
        stored = adapters.stored_games([g.pk for g in games])
        items = []
        changed: list[Game] = []
        seats_changed: list[Seat] = []
        for game in games:
            item, seats = _rescore_one(job, game, stored[game.pk], new_edition)
            items.append(item)
            if item.ok:
                changed.append(game)
                seats_changed.extend(seats)
        # Games deleted since the job started count as done: there is nothing left to score.
        found = {g.pk for g in games}
        items.extend(
            JobItem(job=job, key=k, ok=False, error=_gone(k)) for k in todo if k not in found
        )
        store_results(changed)
        store_seat_scores(seats_changed)
        JobItem.objects.bulk_create(items)
        services.complete_if_done(job)
    return len(items)


def _rescore_one(
    job: Job, game: Game, stored: adapters.StoredGame, new_edition: Edition | None
) -> tuple[JobItem, list[Seat]]:
    if new_edition is not None:
        game.edition = new_edition
    names = [name for _, _, name in stored.seats]
    try:
        # By the game's mode: a result-mode play is scored by its final scores, whatever its
        # edition (a new one is still recorded on it, like on every game of the job).
        result = adapters.rescore(game, names, stored.rounds)
    except LogError as exc:
        # A job's failures are stored in the worker's language (English), not translated.
        return JobItem(job=job, key=game.pk, game=game, ok=False, error=exc.as_dict()), []
    seats = [Seat(pk=pk, seat=seat) for pk, seat, _ in stored.seats]
    adapters.store_result(game, seats, result, final=game.status == Game.Status.FINISHED)
    game.updated_at = timezone.now()
    item = JobItem(
        job=job,
        key=game.pk,
        game=game,
        ok=True,
        winners_before=game.winners_before,  # type: ignore[attr-defined]
        winners_after=result["winners"],
    )
    return item, seats


def _gone(game_id: int) -> dict[str, Any]:
    # Stored with the job, in the worker's language (English): not translated.
    return {"code": "game_deleted", "message": f"game {game_id} was deleted", "round": None}


def import_batch(*, job_id: int, keys: Sequence[int]) -> int:
    """Import these documents of the job; returns how many were newly done.

    Locks the documents first: a copy of this batch running at the same time waits, then finds
    them read and dropped, so no document becomes two games."""
    job = Job.objects.select_related("created_by", "club").get(pk=job_id)
    if job.params.get("input") == imports.PLAYS_INPUT:
        return _import_plays_batch(job, keys)
    owner, club = job.created_by, job.club
    editions = game_services.EditionCache()
    with transaction.atomic():
        inputs = list(
            JobInput.objects.select_for_update().filter(job=job, key__in=keys).order_by("key")
        )
        done = set(JobItem.objects.filter(job=job, key__in=keys).values_list("key", flat=True))
        planned = []
        planned_keys = []
        items = []
        for entry in (e for e in inputs if e.key not in done):
            try:
                plan = game_services.import_plan(
                    club=club, owner=owner, document=entry.document, editions=editions
                )
            except (LogError, RecordError) as exc:
                # Stored with the job, in the worker's language (English): not translated.
                items.append(JobItem(job=job, key=entry.key, ok=False, error=exc.as_dict()))
                continue
            planned.append(plan)
            planned_keys.append(entry.key)
        games = game_services.import_store(club=club, owner=owner, planned=planned)
        items.extend(
            JobItem(
                job=job,
                key=key,
                game=game,
                ok=True,
                winners_after=(game.result or {}).get("winners", []),
            )
            for key, game in zip(planned_keys, games, strict=True)
        )
        JobItem.objects.bulk_create(items)
        JobInput.objects.filter(job=job, key__in=[i.key for i in items]).delete()
        services.complete_if_done(job)
    return len(items)


def _import_plays_batch(job: Job, keys: Sequence[int]) -> int:
    """Import these plays of the job (``games.imports``), each alone: a play the records refuse
    is rolled back to before it and reported with its reason; the others are stored. Locks the
    plays first, like ``import_batch``, so a copy of the batch finds them done."""
    with transaction.atomic():
        inputs = list(
            JobInput.objects.select_for_update().filter(job=job, key__in=keys).order_by("key")
        )
        done = set(JobItem.objects.filter(job=job, key__in=keys).values_list("key", flat=True))
        items: list[JobItem] = []
        plays, play_keys = [], []
        for entry in (e for e in inputs if e.key not in done):
            try:
                plays.append(imports.play_from_json(entry.document))
            except (KeyError, TypeError, ValueError) as exc:
                # Stored with the job, in the worker's language (English): not translated.
                error = {"code": "malformed", "message": f"the stored play is unreadable: {exc}"}
                items.append(_play_item(job, entry.key, "", imports.SKIP, None, error))
                continue
            play_keys.append(entry.key)
        plan = imports.plays_plan(
            club=job.club, play_file=PlayFile(app=job.params["app"], plays=plays), keys=play_keys
        )
        # Statistics follow the batch's games once, not once per play.
        with events.results_held():
            items.extend(_plays_stored(job, plan))
        JobItem.objects.bulk_create(items)
        JobInput.objects.filter(job=job, key__in=[i.key for i in items]).delete()
        services.complete_if_done(job)
    return len(items)


def _plays_stored(job: Job, plan: imports.ImportPlan) -> list[JobItem]:
    """Store each planned play alone: a play refused is rolled back to before it, and its item
    says why."""
    items: list[JobItem] = []
    for planned in plan.plays:
        external_id = planned.play.external_id
        if planned.action == imports.SKIP:
            error = {"code": planned.code, "message": planned.message}
            items.append(_play_item(job, planned.key, external_id, imports.SKIP, None, error))
            continue
        try:
            with transaction.atomic():  # a refused play leaves nothing behind
                action, game = imports.play_store(
                    planned, club=job.club, app=plan.app, owner=job.created_by
                )
        except (LogError, RecordError) as exc:
            # Stored with the job, in the worker's language (English): not translated.
            error = {k: v for k, v in exc.as_dict().items() if k in ("code", "message", "seat")}
            items.append(_play_item(job, planned.key, external_id, imports.SKIP, None, error))
            continue
        items.append(_play_item(job, planned.key, external_id, action, game, None))
    return items


def _play_item(
    job: Job,
    key: int,
    external_id: str,
    action: str,
    game: Game | None,
    error: dict[str, Any] | None,
) -> JobItem:
    outcome = imports.OUTCOMES[action]
    if error is not None:
        error = {"play": imports.safe_text(external_id), **error}
    return JobItem(
        job=job,
        key=key,
        game=game,
        ok=error is None,
        outcome=outcome,
        error=error,
        winners_after=(game.result or {}).get("winners", []) if game is not None else None,
    )


def batch_failed(*, job_id: int, keys: Sequence[int], error: BaseException) -> None:
    """Record an unexpected error (a bug, not a bad log) on every key of a batch not done yet,
    so the job still completes and says what went wrong."""
    job = Job.objects.get(pk=job_id)
    # Stored with the job, in the worker's language (English): not translated.
    body = {"code": "internal_error", "message": f"{type(error).__name__}: {error}"[:500]}
    with transaction.atomic():
        done = set(JobItem.objects.filter(job=job, key__in=keys).values_list("key", flat=True))
        JobItem.objects.bulk_create(
            JobItem(job=job, key=k, ok=False, error=body) for k in keys if k not in done
        )
        services.complete_if_done(job)
