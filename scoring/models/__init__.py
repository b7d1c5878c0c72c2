"""What is served from the engine's results: statistics and ratings (stats.py), batch jobs
(jobs.py)."""

from scoring.models.jobs import Job, JobInput, JobItem

__all__ = ["Job", "JobInput", "JobItem"]
