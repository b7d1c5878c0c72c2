"""Writes of statistics and skill ratings, per game type, kept materialized so that reads are
lookups.

Code that changes a game's finished result announces it inside its own transaction
(``games.records.events.results_changed``, to which ``scoring.apps`` subscribes
``game_results_changed``): finish, reopen, scorepad entry, import, re-score, date change,
delete. That rewrites the game's ``PlayerGame`` rows from ``game.result``, brings the
aggregates of the players whose rows changed up to date by difference (sums and counts; best,
worst and streaks read again only where a changed game could move them), adds each changed
game's pairs of opponents to the head-to-head counts (taking its old pairs away), and, once the
transaction commits, recomputes the ratings of each game type that changed, in the clubs where
it changed, from its earliest changed date: in Celery tasks that take the changes pending
(``RatingsPending``), or in process when ``settings.POTDEVIN_RATINGS_SYNC`` is on.

What a game contributes besides the generic figures comes from the engine registry and the
game's plugin (``scoring.stats.games``); nothing here names a game.

Modules: ``games`` (per game type: what is read and shown), ``facts`` (results to
``PlayerGame`` rows), ``aggregates`` (``PlayerStats``), ``head_to_head``, ``ratings`` (the
series), ``plackett_luce`` (openskill's update on plain pairs), ``refresh`` (the hook, the
re-score follow-up, the full rebuild), ``db`` (locks, bulk writes).
"""

from scoring.stats.aggregates import player_stats_refresh
from scoring.stats.facts import FACT_FIELDS, RATING_FIELDS, facts_of_games, game_facts
from scoring.stats.games import DEFAULT_GAME_TYPE, GameStats, game_stats, known_game_types
from scoring.stats.head_to_head import head_to_head_refresh
from scoring.stats.ratings import (
    HISTORY_FIELDS,
    ratings_catch_up,
    ratings_recompute,
    ratings_schedule,
)
from scoring.stats.refresh import game_results_changed, job_games_changed, stats_rebuild

__all__ = [
    "DEFAULT_GAME_TYPE",
    "FACT_FIELDS",
    "HISTORY_FIELDS",
    "RATING_FIELDS",
    "GameStats",
    "facts_of_games",
    "game_facts",
    "game_results_changed",
    "game_stats",
    "head_to_head_refresh",
    "job_games_changed",
    "known_game_types",
    "player_stats_refresh",
    "ratings_catch_up",
    "ratings_recompute",
    "ratings_schedule",
    "stats_rebuild",
]
