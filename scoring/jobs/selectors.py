"""Reads of batch jobs: the games a re-score takes, a job's progress, the jobs a page lists."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import QuerySet

from games.models import Edition, Game
from scoring.models import Job, JobItem


def rescore_games(
    *,
    game_type: str | None = None,
    edition: Edition | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> QuerySet[Game]:
    games = Game.objects.all()
    if game_type:
        games = games.filter(game_type=game_type)
    if edition is not None:
        games = games.filter(edition=edition)
    if date_from:
        games = games.filter(played_on__gte=date_from)
    if date_to:
        games = games.filter(played_on__lte=date_to)
    return games


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


def rescore_jobs(user: Any, *, limit: int = 20) -> QuerySet[Job]:
    """Re-score jobs a user may see: staff see every one."""
    visible = Job.objects.filter(kind=Job.Kind.RESCORE)
    if not user.is_staff:
        visible = visible.filter(created_by=user)
    return visible[:limit]


def last_job_of(user: Any) -> Job | None:
    return Job.objects.filter(created_by=user).order_by("-id").first()


def rescore_job(pk: int) -> Job | None:
    return Job.objects.filter(pk=pk, kind=Job.Kind.RESCORE).first()
