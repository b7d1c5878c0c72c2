"""The batches of a job, one Celery task each: re-score games, import documents or plays."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.exchange import imports
from games.exchange.formats.plays import PlayFile
from games.records import adapters, events
from games.records import services as game_services
from games.records.errors import RecordError
from games.records.models import Edition, Game, result_digest
from scoring.engine import LogError
from scoring.jobs import services
from scoring.jobs.writes import (
    GameWrite,
    Item,
    SeatWrite,
    same_result,
    store_items,
    store_results,
    store_seat_scores,
)
from scoring.models import Job, JobInput, JobItem


def rescore_batch(*, job_id: int, game_ids: Sequence[int]) -> int:
    """Re-score these games of the job; returns how many were newly done.

    Locks the games (in id order) while it reads their entries and stores results, so an entry
    appended meanwhile is never overwritten by a stale result. The items done are read once
    the locks are held: a copy of this batch running at the same time (delivered again, or
    resumed) waits, then finds its games done. Games are read as plain rows
    (``adapters.game_records``), their stored results by digest and winners only; only a game
    whose result (or edition) changed is written, and the items go in with one COPY on
    PostgreSQL."""
    job = Job.objects.get(pk=job_id)
    new_key = job.params.get("new_edition") or job.params.get("new_deck")
    new_edition = (
        Edition.objects.defer("data").get(game_type=job.params["game_type"], key=new_key)
        if new_key
        else None
    )
    with transaction.atomic():
        records = adapters.game_records(game_ids, lock=True)
        done = set(JobItem.objects.filter(job=job, key__in=game_ids).values_list("key", flat=True))
        found = {r.id for r in records}
        now = timezone.now()
        items: list[Item] = []
        results: list[GameWrite] = []
        seats: list[SeatWrite] = []
        for record in records:
            if record.id in done:
                continue
            item = _rescore_one(job, record, new_edition, now, results, seats)
            items.append(item)
        # Games deleted since the job started count as done: there is nothing left to score.
        items.extend(
            Item(job.pk, k, None, False, error=_gone(k))
            for k in dict.fromkeys(game_ids)
            if k not in found and k not in done
        )
        store_results(results)
        store_seat_scores(seats)
        store_items(items)
        services.complete_if_done(job, items)
    return len(items)


def _rescore_one(
    job: Job,
    record: adapters.GameRecord,
    new_edition: Edition | None,
    now: datetime.datetime,
    results: list[GameWrite],
    seats: list[SeatWrite],
) -> Item:
    """Score one game again; what must be written is added to ``results`` and ``seats``."""
    before = record.winners
    edition_changed = new_edition is not None and new_edition.pk != record.edition_id
    if new_edition is not None:
        record.edition, record.edition_id = new_edition, new_edition.pk
    names = [seat[2] for seat in record.seats]
    try:
        # By the game's mode: a result-mode play is scored by its final scores, whatever its
        # edition (a new one is still recorded on it, like on every game of the job).
        result = adapters.rescore(record, names, record.rounds)  # type: ignore[arg-type]
    except LogError as exc:
        # A job's failures are stored in the worker's language (English), not translated.
        return Item(job.pk, record.id, record.id, False, error=exc.as_dict())
    final = record.status == Game.Status.FINISHED
    seat_values = [
        (pk, *adapters.seat_result(result, seat, final=final), (score, rank))
        for pk, seat, _, score, rank in record.seats
    ]
    digest = result_digest(result)
    if record.result_digest is not None:
        same = digest == record.result_digest
    else:  # stored around the ORM, without its digest: the stored result itself is compared
        same = same_result(result, record.result)
    if (
        same
        and result["engine_version"] == record.engine_version
        and all(stored == (score, rank) for _, score, rank, stored in seat_values)
    ):
        outcome = JobItem.UNCHANGED
    else:
        # A stale record (as after an engine correction) is rewritten whole: its result, its
        # engine version and its seats' scores and ranks.
        outcome = JobItem.CHANGED if before == result["winners"] else JobItem.WINNERS_CHANGED
        seats.extend(SeatWrite(pk, score, rank) for pk, score, rank, _ in seat_values)
    if outcome != JobItem.UNCHANGED or edition_changed:
        version = result["engine_version"]
        results.append(GameWrite(record.id, result, digest, version, record.edition_id, now))
    return Item(job.pk, record.id, record.id, True, outcome, None, before, result["winners"])


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
        inputs = _locked_inputs(job, keys)
        done = set(JobItem.objects.filter(job=job, key__in=keys).values_list("key", flat=True))
        planned = []
        planned_keys = []
        items: list[Item] = []
        for key, document in inputs:
            if key in done:
                continue
            try:
                # Checked by the gate when the job started (``import_start``): pruned here.
                plan = game_services.import_plan(
                    club=club, owner=owner, document=document, editions=editions, checked=True
                )
            except (LogError, RecordError) as exc:
                # Stored with the job, in the worker's language (English): not translated.
                items.append(Item(job.pk, key, None, False, error=exc.as_dict()))
                continue
            planned.append(plan)
            planned_keys.append(key)
        games = game_services.import_store(club=club, owner=owner, planned=planned)
        items.extend(
            Item(job.pk, key, game.pk, True, winners_after=(game.result or {}).get("winners", []))
            for key, game in zip(planned_keys, games, strict=True)
        )
        store_items(items)
        JobInput.objects.filter(job=job, key__in=[i.key for i in items]).delete()
        services.complete_if_done(job, items)
    return len(items)


def _import_plays_batch(job: Job, keys: Sequence[int]) -> int:
    """Import these plays of the job (``games.exchange.imports``), each alone: a play the records
    refuse is rolled back to before it and reported with its reason; the others are stored. Locks
    the plays first, like ``import_batch``, so a copy of the batch finds them done."""
    with transaction.atomic():
        inputs = _locked_inputs(job, keys)
        done = set(JobItem.objects.filter(job=job, key__in=keys).values_list("key", flat=True))
        items: list[Item] = []
        plays, play_keys = [], []
        for key, document in inputs:
            if key in done:
                continue
            try:
                plays.append(imports.play_from_json(document))
            except (KeyError, TypeError, ValueError) as exc:
                # Stored with the job, in the worker's language (English): not translated.
                error = {"code": "malformed", "message": f"the stored play is unreadable: {exc}"}
                items.append(_play_item(job, key, "", imports.SKIP, None, error))
                continue
            play_keys.append(key)
        plan = imports.plays_plan(
            club=job.club, play_file=PlayFile(app=job.params["app"], plays=plays), keys=play_keys
        )
        # Statistics follow the batch's games once, not once per play.
        with events.results_held():
            items.extend(_plays_stored(job, plan))
        store_items(items)
        JobInput.objects.filter(job=job, key__in=[i.key for i in items]).delete()
        services.complete_if_done(job, items)
    return len(items)


def _locked_inputs(job: Job, keys: Sequence[int]) -> list[tuple[int, Any]]:
    """The job's documents of these keys still waiting, by key, locked until the batch ends
    (a copy of the batch waits for them)."""
    found = (
        JobInput.objects.select_for_update()
        .filter(job=job, key__in=keys)
        .order_by("key")
        .values_list("key", "document")
    )
    return list(found)


def _plays_stored(job: Job, plan: imports.ImportPlan) -> list[Item]:
    """Store each planned play alone: a play refused is rolled back to before it, and its item
    says why."""
    items: list[Item] = []
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
) -> Item:
    outcome = imports.OUTCOMES[action]
    if error is not None:
        error = {"play": imports.safe_text(external_id), **error}
    return Item(
        job.pk,
        key,
        game.pk if game is not None else None,
        error is None,
        outcome,
        error,
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
        items = [Item(job.pk, k, None, False, error=body) for k in keys if k not in done]
        store_items(items)
        services.complete_if_done(job, items)
