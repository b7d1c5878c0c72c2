"""Celery tasks: thin wrappers that take ids and call a job service (scoring/jobs/).

Every task is acknowledged late and rejected when its worker is lost, so a batch whose worker
dies is delivered again; the services make that second delivery harmless. An engine error is
recorded on the job, never retried; a database hiccup is retried.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError

from games.records import idempotency
from games.records.memory import collector_paused
from scoring import jobs
from scoring.jobs.services import IMPORT_TASK, RESCORE_TASK

BATCH_TASK_OPTIONS: dict[str, Any] = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(name=RESCORE_TASK, bind=True, **BATCH_TASK_OPTIONS)
def rescore_batch(self: Task, job_id: int, game_ids: list[int]) -> int:
    with _recorded(self, job_id, game_ids):
        return jobs.rescore_batch(job_id=job_id, game_ids=game_ids)


@shared_task(name=IMPORT_TASK, bind=True, **BATCH_TASK_OPTIONS)
def import_batch(self: Task, job_id: int, keys: list[int]) -> int:
    with _recorded(self, job_id, keys):
        return jobs.import_batch(job_id=job_id, keys=keys)


@shared_task(name="scoring.resume_stalled_jobs")
def resume_stalled_jobs() -> list[int]:
    """Run by the workers' beat (settings.CELERY_BEAT_SCHEDULE): jobs that lost a batch to
    their broker are resumed without anyone pressing resume."""
    stalled_after = datetime.timedelta(seconds=settings.POTDEVIN_JOB_STALL_SECONDS)
    return jobs.jobs_resume_stalled(stalled_after=stalled_after)


@shared_task(name="scoring.forget_expired_idempotency_keys")
def forget_expired_idempotency_keys() -> int:
    """Run by the workers' beat: idempotency keys past their keeping time are deleted (a key
    past it is treated as new even before)."""
    return idempotency.forget_expired()


@contextmanager
def _recorded(task: Task, job_id: int, keys: list[int]) -> Iterator[None]:
    """An unexpected error fails the batch's keys on the job (after the retries a database
    error gets), then propagates to the worker's log."""
    try:
        with collector_paused():
            yield
    except OperationalError as exc:
        if task.request.retries < BATCH_TASK_OPTIONS["max_retries"]:
            raise  # autoretry
        jobs.batch_failed(job_id=job_id, keys=keys, error=exc)
        raise
    except Exception as exc:
        jobs.batch_failed(job_id=job_id, keys=keys, error=exc)
        raise
