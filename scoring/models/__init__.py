"""What is served from the engine's results: statistics and ratings (stats.py), batch jobs
(jobs.py)."""
