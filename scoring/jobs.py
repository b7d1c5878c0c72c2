"""Batch jobs: re-score stored games (after a rules or deck correction), import many logs.

A job is split into batches of ``BATCH_SIZE`` games or documents, one Celery task each. A batch
writes its results and its ``JobItem`` rows in one transaction, skipping keys that already have
an item, so a batch delivered twice (its worker died before acknowledging it) changes nothing
the second time. The batch that completes the job marks it done with a conditional update, so
the follow-up work (statistics, ratings) runs once.

A broker can lose batches (the embedded folder queue drops a message once a worker takes it,
so a worker killed there takes its batch with it): ``job_resume`` sends the keys not done yet
again. It is safe at any time, even while batches are still running, since a batch first
locks what it works on and then skips what is done.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Sequence
from typing import Any

import orjson
import psycopg
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Model, QuerySet
from django.db.models.fields.json import KeyTransform
from django.utils import timezone
from psycopg.types.json import Jsonb

from games import services as game_services
from games.models import Deck, Game, Seat
from scoring import adapters
from scoring.engine import LogError
from scoring.models import Job, JobInput, JobItem, JobKeys


def batch_size() -> int:
    # At least 100 games a task: fewer makes the broker's overhead count.
    return max(100, int(getattr(settings, "POTDEVIN_JOB_BATCH_SIZE", 200)))


def _chunks(keys: Sequence[int], size: int) -> list[list[int]]:
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
    from scoring import tasks

    task = tasks.rescore_batch if job.kind == Job.Kind.RESCORE else tasks.import_batch
    batches = _chunks(keys, batch_size())

    def send() -> None:
        try:
            for batch in batches:
                task.delay(job.pk, batch)
        except Exception as exc:  # whatever the transport raises, the job cannot run
            Job.objects.filter(pk=job.pk).update(
                status=Job.Status.FAILED, error=f"the job queue is unavailable: {exc}"
            )
            raise QueueUnavailable(str(exc)) from exc

    transaction.on_commit(send)


def rescore_games(
    *,
    game_type: str | None = None,
    deck: Deck | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> QuerySet[Game]:
    games = Game.objects.all()
    if game_type:
        games = games.filter(game_type=game_type)
    if deck is not None:
        games = games.filter(deck=deck)
    if date_from:
        games = games.filter(played_on__gte=date_from)
    if date_to:
        games = games.filter(played_on__lte=date_to)
    return games


def rescore_start(
    *,
    created_by: AbstractBaseUser,
    game_type: str | None = None,
    deck: Deck | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
    new_deck: Deck | None = None,
) -> Job:
    """Start re-scoring every game matching the filter, with ``new_deck`` if given (the games
    then use that deck version from now on)."""
    params = {
        "game_type": game_type,
        "deck": deck.key if deck else None,
        "date_from": date_from.isoformat() if date_from else None,
        "date_to": date_to.isoformat() if date_to else None,
        "new_deck": new_deck.key if new_deck else None,
    }
    with transaction.atomic():
        ids = list(
            rescore_games(game_type=game_type, deck=deck, date_from=date_from, date_to=date_to)
            .order_by("id")
            .values_list("id", flat=True)
        )
        job = Job.objects.create(
            kind=Job.Kind.RESCORE, params=params, total=len(ids), created_by=created_by
        )
        JobKeys.objects.create(job=job, keys=ids)
        if not ids:
            _finish(job)
        _enqueue(job, ids)
    return job


def rescore_batch(*, job_id: int, game_ids: Sequence[int]) -> int:
    """Re-score these games of the job; returns how many were newly done.

    Locks the games (``select_for_update``, in id order) while it reads their rounds and
    stores results, so a round appended meanwhile is never overwritten by a stale result. The
    items done are read once the locks are held: a copy of this batch running at the same time
    (delivered again, or resumed) waits, then finds its games done."""
    job = Job.objects.get(pk=job_id)
    new_deck = job.params.get("new_deck")
    deck = Deck.objects.get(key=new_deck) if new_deck else None
    with transaction.atomic():
        locked = list(
            Game.objects.select_for_update(of=("self",))
            .filter(pk__in=game_ids)
            .select_related("deck")
            .defer("result", "deck__cards")  # large JSON the batch does not read
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
            item, seats = _rescore_one(job, game, stored[game.pk], deck)
            items.append(item)
            if item.ok:
                changed.append(game)
                seats_changed.extend(seats)
        # Games deleted since the job started count as done: there is nothing left to score.
        found = {g.pk for g in games}
        items.extend(
            JobItem(job=job, key=k, ok=False, error=_gone(k)) for k in todo if k not in found
        )
        _store_results(changed)
        _store_seat_scores(seats_changed)
        JobItem.objects.bulk_create(items)
        _complete_if_done(job)
    return len(items)


def _store_results(games: Sequence[Game]) -> None:
    """UPDATE each re-scored game's result, engine version, deck and time by primary key.

    These results (several KB of JSON each) are most of a batch's writes, so on PostgreSQL
    they go through a server-binding cursor (the JSON is sent as a parameter, not quoted into
    the SQL text) with orjson doing the encoding; psycopg pipelines the statements."""
    if not games:
        return
    sql = _update_sql(Game, ["result", "engine_version", "deck", "updated_at"])
    if connection.vendor == "postgresql":
        rows = [
            (Jsonb(g.result, dumps=_json_bytes), g.engine_version, g.deck_id, g.updated_at, g.pk)
            for g in games
        ]
        with _server_binding_cursor() as cursor:
            cursor.executemany(sql, rows)
        return
    field = Game._meta.get_field("result")
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                (
                    field.get_db_prep_save(g.result, connection),
                    g.engine_version,
                    g.deck_id,
                    connection.ops.adapt_datetimefield_value(g.updated_at),
                    g.pk,
                )
                for g in games
            ],
        )


def _store_seat_scores(seats: Sequence[Seat]) -> None:
    """UPDATE each seat's score and rank: on PostgreSQL one statement over arrays, since every
    statement costs a round trip and a batch has hundreds of seats."""
    if not seats:
        return
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            table = connection.ops.quote_name(Seat._meta.db_table)
            cursor.execute(
                f"UPDATE {table} SET score = v.score, rank = v.rank"
                " FROM unnest(%s::integer[], %s::integer[], %s::bigint[]) AS v(score, rank, id)"
                f" WHERE {table}.id = v.id",
                [[s.score for s in seats], [s.rank for s in seats], [s.pk for s in seats]],
            )
        else:
            cursor.executemany(
                _update_sql(Seat, ["score", "rank"]), [(s.score, s.rank, s.pk) for s in seats]
            )


def _update_sql(model: type[Model], field_names: Sequence[str]) -> str:
    """``UPDATE table SET f1 = %s, ... WHERE pk = %s`` for these fields of ``model``."""
    meta = model._meta
    quote = connection.ops.quote_name
    columns = [quote(meta.get_field(name).column) for name in field_names]  # type: ignore[union-attr]
    assignments = ", ".join(f"{c} = %s" for c in columns)
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(meta.pk.column)} = %s"


def _json_bytes(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _server_binding_cursor() -> psycopg.Cursor[Any]:
    """A cursor on Django's own connection (so inside its transaction) that sends parameters
    separately from the SQL; Django's cursors quote them into the statement text."""
    connection.ensure_connection()
    return psycopg.Cursor(connection.connection)


def _gone(game_id: int) -> dict[str, Any]:
    return {"code": "game_deleted", "message": f"game {game_id} was deleted", "round": None}


def _rescore_one(
    job: Job, game: Game, stored: adapters.StoredGame, deck: Deck | None
) -> tuple[JobItem, list[Seat]]:
    if deck is not None:
        game.deck = deck
    names = [name for _, _, name in stored.seats]
    try:
        if game.mode == Game.Mode.SCOREPAD:
            result = adapters.score_sheet(game, names, game.tableaux or [], game.jokers)
        else:
            result = adapters.replay(game, names, stored.rounds)
    except LogError as exc:
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


def import_start(*, created_by: AbstractBaseUser, documents: Sequence[Any]) -> Job:
    """Import many log documents in the background. Unlike a direct import, each document
    stands alone: an impossible one is reported (with its index) and the others are stored."""
    with transaction.atomic():
        job = Job.objects.create(kind=Job.Kind.IMPORT, total=len(documents), created_by=created_by)
        JobInput.objects.bulk_create(
            JobInput(job=job, key=i, document=doc) for i, doc in enumerate(documents)
        )
        _enqueue(job, list(range(len(documents))))
    return job


def import_batch(*, job_id: int, keys: Sequence[int]) -> int:
    """Import these documents of the job; returns how many were newly done.

    Locks the documents first: a copy of this batch running at the same time waits, then finds
    them read and dropped, so no document becomes two games."""
    job = Job.objects.select_related("created_by").get(pk=job_id)
    owner = job.created_by
    decks = game_services.decks_by_key()
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
                plan = game_services.import_plan(owner=owner, document=entry.document, decks=decks)
            except LogError as exc:
                items.append(JobItem(job=job, key=entry.key, ok=False, error=exc.as_dict()))
                continue
            planned.append(plan)
            planned_keys.append(entry.key)
        games = game_services.import_store(owner=owner, planned=planned)
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
        _complete_if_done(job)
    return len(items)


def batch_failed(*, job_id: int, keys: Sequence[int], error: BaseException) -> None:
    """Record an unexpected error (a bug, not a bad log) on every key of a batch not done yet,
    so the job still completes and says what went wrong."""
    job = Job.objects.get(pk=job_id)
    body = {"code": "internal_error", "message": f"{type(error).__name__}: {error}"[:500]}
    with transaction.atomic():
        done = set(JobItem.objects.filter(job=job, key__in=keys).values_list("key", flat=True))
        JobItem.objects.bulk_create(
            JobItem(job=job, key=k, ok=False, error=body) for k in keys if k not in done
        )
        _complete_if_done(job)


def _complete_if_done(job: Job) -> None:
    """Note the batch's progress, and mark the job done when every key has its item.

    Batches pass here one at a time: the update of ``progressed_at`` locks the job row until
    the batch commits, so the last one to get the lock counts every other's items. (Unlocked,
    two last batches finishing together would each count before the other committed, and
    neither would end the job.) The conditional update makes exactly one batch win."""
    Job.objects.filter(pk=job.pk).update(progressed_at=timezone.now())
    if JobItem.objects.filter(job=job).count() < job.total:
        return
    if Job.objects.filter(pk=job.pk, status=Job.Status.RUNNING).update(
        status=Job.Status.DONE, finished_at=timezone.now()
    ):
        transaction.on_commit(lambda: _after_job(job.pk))


def job_resume(job_id: int) -> int:
    """Send the batches of the job's keys that have no item yet again, and mark the job
    running (a job that failed because the broker refused its batches too). Returns how many
    keys were sent. Raises ``CannotResume`` for a job that is done (or does not know its keys),
    ``QueueUnavailable`` when the broker cannot be reached."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status == Job.Status.DONE:
            raise CannotResume("job_finished", f"job {job.pk} is done: there is nothing to resume")
        keys: Sequence[int] | None = range(job.total)
        if job.kind == Job.Kind.RESCORE:
            keys = JobKeys.objects.filter(job=job).values_list("keys", flat=True).first()
            if keys is None:
                raise CannotResume(
                    "job_keys_missing", f"job {job.pk} does not know its games: start it again"
                )
        done = set(JobItem.objects.filter(job=job).values_list("key", flat=True))
        remaining = [k for k in keys if k not in done]
        job.status, job.error = Job.Status.RUNNING, ""
        job.save(update_fields=["status", "error"])
        if remaining:
            _enqueue(job, remaining)
        else:  # every batch got through; only marking the job done was missed
            _complete_if_done(job)
    return len(remaining)


def _finish(job: Job) -> None:
    job.status = Job.Status.DONE
    job.finished_at = timezone.now()
    job.save(update_fields=["status", "finished_at"])


AFTER_JOB: list[Callable[[Job, list[int]], None]] = []


def _after_job(job_id: int) -> None:
    """What follows a finished job: the hooks registered in AFTER_JOB (statistics, ratings)
    get the games whose results it wrote."""
    job = Job.objects.get(pk=job_id)
    game_ids = list(
        JobItem.objects.filter(job=job, ok=True).values_list("game_id", flat=True).distinct()
    )
    for hook in AFTER_JOB:
        hook(job, [g for g in game_ids if g is not None])


def job_progress(job: Job) -> dict[str, Any]:
    """Progress, failures and (re-score) the games whose winners changed."""
    items = JobItem.objects.filter(job=job)
    failures = [
        {"key": key, "game": game, **(error or {})}
        for key, game, error in items.filter(ok=False).values_list("key", "game_id", "error")
    ]
    changed = [
        {"game": game, "winners_before": before, "winners_after": after}
        for game, before, after in items.filter(ok=True, game__isnull=False)
        .exclude(winners_before=None)
        .values_list("game_id", "winners_before", "winners_after")
        if before != after
    ]
    return {
        "id": job.pk,
        "kind": job.kind,
        "status": job.status,
        "params": job.params,
        "total": job.total,
        "done": items.count(),
        "failures": failures,
        "winners_changed": changed,
        "games": list(items.filter(ok=True).values_list("game_id", flat=True))
        if job.kind == Job.Kind.IMPORT
        else None,
        "error": job.error,
        "created_at": job.created_at,
        "progressed_at": job.progressed_at,
        "finished_at": job.finished_at,
    }
