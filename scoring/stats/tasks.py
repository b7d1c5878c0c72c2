"""The Celery tasks behind statistics: ratings catching up with the changes to finished games,
and the statistics of a large re-score shared among the workers.

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

from games.records.memory import collector_paused
from scoring import stats
from scoring.stats.ratings import CATCH_UP_TASK
from scoring.stats.refresh import FOLLOW_UP_TASK

_FOLLOW_UP_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "max_retries": 5,
    # A recompute from the first game replays every game: allow more than the default limits.
    "soft_time_limit": 1800,
    "time_limit": 1900,
}


@shared_task(name=CATCH_UP_TASK, **_FOLLOW_UP_OPTIONS)
def ratings_catch_up_task() -> int:
    """Returns the number of games rated, of every game type (0 when an earlier task took every
    change)."""
    return stats.ratings_catch_up()


@shared_task(name=FOLLOW_UP_TASK, **_FOLLOW_UP_OPTIONS)
def stats_follow_up_task(game_ids: list[int]) -> int:
    """Statistics of a part of a large re-score's changed games (``scoring.stats.
    job_games_changed``), whole clubs of it; the ratings follow as after any change. Running
    it again leaves the same statistics. Returns the number of games."""
    with collector_paused():
        stats.game_results_changed(game_ids=game_ids)
    return len(game_ids)
