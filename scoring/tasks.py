"""Celery tasks: thin wrappers that take ids and call a job service (scoring/jobs.py).

Every task is acknowledged late and rejected when its worker is lost, so a batch whose worker
dies is delivered again; the services make that second delivery harmless. An engine error is
recorded on the job, never retried; a database hiccup is retried.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from scoring import jobs

BATCH_TASK_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
}


@shared_task(name="scoring.rescore_batch", **BATCH_TASK_OPTIONS)
def rescore_batch(job_id: int, game_ids: list[int]) -> int:
    return jobs.rescore_batch(job_id=job_id, game_ids=game_ids)


@shared_task(name="scoring.import_batch", **BATCH_TASK_OPTIONS)
def import_batch(job_id: int, keys: list[int]) -> int:
    return jobs.import_batch(job_id=job_id, keys=keys)
