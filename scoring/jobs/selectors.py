"""Reads of batch jobs: the games a re-score takes, a job's progress, the jobs a page lists."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Q, QuerySet

from games import access
from games.models import Club, Edition, Game
from scoring.models import Job, JobItem


def rescore_games(
    *,
    club: Club | None = None,
    game_type: str | None = None,
    edition: Edition | None = None,
    date_from: datetime.date | None = None,
    date_to: datetime.date | None = None,
) -> QuerySet[Game]:
    games = Game.objects.all() if club is None else Game.objects.filter(club=club)
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


def visible_jobs(user: Any, kind: str) -> QuerySet[Job]:
    """The jobs of ``kind`` a user sees (the API's and the pages' one rule): those of the clubs
    they are an admin of, and those they started in a club they are still in; staff see every
    one. Another club's jobs are as if they did not exist."""
    jobs = Job.objects.filter(kind=kind)
    if user.is_staff:
        return jobs
    admin_of = access.club_ids(user, access.Can.ADMIN) or []
    member_of = access.club_ids(user) or []
    return jobs.filter(Q(club_id__in=admin_of) | Q(created_by=user, club_id__in=member_of))


def rescore_jobs(user: Any, *, limit: int = 20) -> QuerySet[Job]:
    return visible_jobs(user, Job.Kind.RESCORE)[:limit]


def last_job_of(user: Any) -> Job | None:
    return Job.objects.filter(created_by=user).order_by("-id").first()


def rescore_job(user: Any, pk: int) -> Job | None:
    return visible_jobs(user, Job.Kind.RESCORE).filter(pk=pk).first()
