"""What is served from the engine's results: statistics and ratings (stats.py), batch jobs
(jobs.py)."""

from scoring.models.jobs import Job, JobInput, JobItem, JobKeys
from scoring.models.stats import (
    HeadToHead,
    PlayerGame,
    PlayerStats,
    Rating,
    RatingHistory,
    RatingsPending,
)

__all__ = [
    "HeadToHead",
    "Job",
    "JobInput",
    "JobItem",
    "JobKeys",
    "PlayerGame",
    "PlayerStats",
    "Rating",
    "RatingHistory",
    "RatingsPending",
]
