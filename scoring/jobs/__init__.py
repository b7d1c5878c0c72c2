"""Batch jobs: re-score stored games (after a rules or edition correction), import many logs.

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

from scoring.jobs.batches import batch_failed, import_batch, rescore_batch
from scoring.jobs.selectors import job_progress, rescore_games
from scoring.jobs.services import (
    AFTER_JOB,
    CannotResume,
    QueueUnavailable,
    batch_size,
    chunks,
    import_confirm,
    import_discard,
    import_plays_start,
    import_start,
    job_resume,
    jobs_resume_stalled,
    rescore_start,
)

__all__ = [
    "AFTER_JOB",
    "CannotResume",
    "QueueUnavailable",
    "batch_failed",
    "batch_size",
    "chunks",
    "import_batch",
    "import_confirm",
    "import_discard",
    "import_plays_start",
    "import_start",
    "job_progress",
    "job_resume",
    "jobs_resume_stalled",
    "rescore_batch",
    "rescore_games",
    "rescore_start",
]
