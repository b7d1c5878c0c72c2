"""The Celery task behind ratings: catch up with the changes to finished games.

Queued by ``scoring.stats`` once a change commits; the change itself is written down with it
(``RatingsPending``, with its game type and club), so the first task to run takes the changes
pending so far (up to ``PENDING_PER_TASK``, queueing another for the rest, so a change over
many clubs is shared by the workers) in one recompute per game type, and the tasks queued
behind it find nothing left. A recompute rewrites the history from a date on, so a redelivery
leaves the same ratings.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from scoring import stats


@shared_task(
    name="scoring.ratings_catch_up",
    acks_late=True,
    reject_on_worker_lost=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    # A recompute from the first game replays every game: allow more than the default limits.
    soft_time_limit=1800,
    time_limit=1900,
)
def ratings_catch_up_task() -> int:
    """Returns the number of games rated, of every game type (0 when an earlier task took every
    change)."""
    return stats.ratings_catch_up()
