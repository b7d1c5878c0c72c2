"""Reads of batch jobs: the games a re-score takes, a job's progress, the jobs a page lists."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count, Q, QuerySet

from games.exchange.imports import PLAYS_INPUT
from games.records import access
from games.records.models import Club, Edition, Game
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


# The most failures and changed winners a poll lists: a job over a million games is polled
# every second or so, and its counts come from the job's own counters.
LISTED = 1000


def job_progress(job: Job) -> dict[str, Any]:
    """Progress, failures, (re-score) the games whose winners changed, and (an import of another
    app's plays) the import's report. Reads the job's counters and at most ``LISTED`` items of
    each list (by index): a poll costs the same at any size."""
    items = JobItem.objects.filter(job=job)
    failures = [
        {"key": key, "game": game, **(error or {})}
        for key, game, error in items.filter(ok=False)
        .order_by("key")
        .values_list("key", "game_id", "error")[:LISTED]
    ]
    changed = [
        {"game": game, "winners_before": before, "winners_after": after}
        for game, before, after in items.filter(outcome=JobItem.WINNERS_CHANGED, game__isnull=False)
        .order_by("key")
        .values_list("game_id", "winners_before", "winners_after")[:LISTED]
    ]
    return {
        "id": job.pk,
        "kind": job.kind,
        "status": job.status,
        "params": _params_shown(job),
        "total": job.total,
        "done": job.done,
        "failed": job.failed,
        "failures": failures,
        "winners_changed": changed,
        "games": list(items.filter(ok=True).values_list("game_id", flat=True))
        if job.kind == Job.Kind.IMPORT
        else None,
        "error": job.error,
        "report": plays_report(job, failures) if job.params.get("input") == PLAYS_INPUT else None,
        "created_at": job.created_at,
        "progressed_at": job.progressed_at,
        "finished_at": job.finished_at,
    }


# What an import of plays keeps in its params for its report and its page, shown through the
# report instead: a large file's plan is long, and a job is polled.
_PLAN_KEYS = ("plan", "details", "reader_skipped")


def _params_shown(job: Job) -> dict[str, Any]:
    return {k: v for k, v in (job.params or {}).items() if k not in _PLAN_KEYS}


def plays_report(job: Job, failures: list[dict[str, Any]]) -> dict[str, Any]:
    """What an import of another app's plays did so far, in the shape of a direct import's
    summary (``games.exchange.imports.plan_summary``): games created, updated and left unchanged
    counted from the plays done; players, named games and locations created or matched as planned
    when the job started; every play skipped (by the reader, or refused at the import) and why; the
    problems the plan met."""
    plan = job.params.get("plan") or {}
    if job.status == Job.Status.PLANNED:
        return {**plan, "format": job.params.get("format", "")}
    outcomes = dict(
        JobItem.objects.filter(job=job)
        .values_list("outcome")
        .annotate(count=Count("id"))
        .values_list("outcome", "count")
    )
    refused = [
        {"play": f.get("play"), "code": f.get("code", ""), "message": f.get("message", "")}
        for f in failures
    ]
    before = job.params.get("reader_skipped", [])  # by the reader: never in the job's plays
    return {
        "format": job.params.get("format", ""),
        "plays": plan.get("plays", job.total),
        "created": {**plan.get("created", {}), "games": outcomes.get("created", 0)},
        "matched": plan.get("matched", {}),
        "updated": outcomes.get("updated", 0),
        "unchanged": outcomes.get("unchanged", 0),
        "game_types": plan.get("game_types", {}),
        "skipped": [*before, *refused],
        "problems": plan.get("problems", []),
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
