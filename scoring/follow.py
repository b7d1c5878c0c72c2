"""What follows a change of the records, declared in one place: the listeners of
``games.records.events`` and of finished jobs, and the Celery tasks the services send by name.
``ScoringConfig.ready`` connects them once the apps are loaded.

- A finished game's result changes (finish, reopen, re-date, delete, import, scorepad entry):
  its statistics, head-to-head counts and ratings follow (``scoring.stats.game_results_changed``).
- A re-score job is done: the statistics of the games it changed follow, shared among the
  workers when many (``scoring.stats.job_games_changed``).
"""

from __future__ import annotations

from games.records import events
from scoring import jobs, stats

# Imported for their registration with Celery: the services send these tasks by name.
from scoring.jobs import tasks as job_tasks  # noqa: F401
from scoring.stats import tasks as stats_tasks  # noqa: F401


def connect() -> None:
    events.on_results_changed(stats.game_results_changed)
    jobs.AFTER_JOB.append(stats.job_games_changed)
