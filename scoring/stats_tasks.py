"""The Celery task behind ratings: recompute from a date after a game's result changed.

Queued by ``scoring.stats`` once the change commits. It is idempotent (it rewrites the history
from the date on), so a redelivery or two overlapping recomputes leave the same ratings.
"""

from __future__ import annotations

import datetime

from celery import shared_task
from django.db import OperationalError

from scoring import stats


@shared_task(
    name="scoring.ratings_recompute",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    # A recompute from the first game replays every game: allow more than the default limits.
    soft_time_limit=1800,
    time_limit=1900,
)
def ratings_recompute_task(since: str | None = None) -> int:
    """``since`` is an ISO date (``2026-11-22``), or None to recompute from the first game."""
    return stats.ratings_recompute(since=datetime.date.fromisoformat(since) if since else None)
