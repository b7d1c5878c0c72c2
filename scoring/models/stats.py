"""Player statistics and skill ratings, kept materialized, per game type (a game without an
engine here, game type "other", has one series per named game: ``scoring.stats.games``).

``PlayerGame`` holds the facts of one seat of one finished game, taken from the engine's result:
what every game has (score, rank, teams) in columns, and the counters the game contributes (its
engine's ``info.stats`` and its plugin's statistics module) in ``counters``. ``PlayerStats`` and
``HeadToHead`` are aggregates of those rows, per game type, rewritten for the players a change
touches (``scoring.stats``). Ratings are per game type too: one independent series each. Reads
are lookups of these rows, never scans of games.

A deleted game leaves its ``PlayerGame`` and ``RatingHistory`` rows with ``game`` null rather
than cascading: the next refresh finds them (they keep their game type), so it knows whose
statistics and which ratings the deletion changed, and removes them.
"""

from __future__ import annotations

from django.db import models

from games.records.models import Game, Player

BUCKET_ALL = "all"
BUCKET_INDIVIDUAL = "individual"
BUCKET_TEAM = "team"


def bucket_for_player_count(count: int) -> str:
    return f"players-{count}"


class PlayerGame(models.Model):
    """One seat of one finished game, as statistics and ratings read it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(
        Game, null=True, on_delete=models.SET_NULL, related_name="player_games"
    )
    game_type = models.CharField(max_length=32)
    played_on = models.DateField()
    seat = models.PositiveSmallIntegerField()
    player_count = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, help_text="Team index; null alone.")
    team_play = models.BooleanField()
    score = models.IntegerField(
        null=True,
        help_text="The player's score, or the team's in team play; null in a game without "
        "scores (ranks only).",
    )
    rank = models.PositiveSmallIntegerField(help_text="1 is first; shared places share a rank.")
    win_share = models.FloatField(
        help_text="1/k when the player's unit (player or team) is one of k units ranked 1, else 0."
    )
    counters = models.JSONField(
        default=dict,
        help_text="The game's own counters for this seat, by name (integers; null: not known): "
        "its engine's info.stats and its plugin's statistics module.",
    )
    detailed = models.BooleanField(
        default=True,
        help_text="Whether the game's own counters are known: false for a play known by its "
        "final scores only (Game.Mode.RESULT), whose counters are all null.",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="player_game_unique"),
        ]
        indexes = [
            models.Index(
                fields=["player", "game_type", "played_on", "game"], name="player_game_by_date"
            ),
            models.Index(fields=["game_type", "played_on", "game"], name="player_game_date"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}"


class PlayerStats(models.Model):
    """Aggregates of a player's ``PlayerGame`` rows of one game type, per bucket: all games, by
    player count, and individual or team play. Streaks are kept on the ``all`` row only."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game_type = models.CharField(max_length=32)
    bucket = models.CharField(max_length=16)
    games = models.PositiveIntegerField(default=0)
    detailed_games = models.PositiveIntegerField(
        default=0,
        help_text="Games whose own counters are known (not known by final scores only): what "
        "the game's own figures are over.",
    )
    wins = models.FloatField(default=0, help_text="Sum of win shares: a shared first is split.")
    scored_games = models.PositiveIntegerField(default=0, help_text="Games with a score.")
    score_sum = models.BigIntegerField(default=0)
    best_score = models.IntegerField(null=True)
    worst_score = models.IntegerField(null=True)
    rank_sum = models.PositiveIntegerField(default=0)
    counters = models.JSONField(default=dict, help_text="Counter name to its sum over the games.")
    current_streak = models.PositiveIntegerField(default=0)
    longest_streak = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "player stats"
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game_type", "bucket"], name="player_stats_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game_type} {self.bucket}"


class HeadToHead(models.Model):
    """A player against one opponent (teammates are not opponents), over the games of one type
    both played. A win is a better (smaller) rank than the opponent's."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game_type = models.CharField(max_length=32)
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    ties = models.PositiveIntegerField()

    class Meta:
        verbose_name_plural = "head to head"
        constraints = [
            models.UniqueConstraint(
                fields=["player", "opponent", "game_type"], name="head_to_head_unique"
            ),
        ]
        indexes = [
            models.Index(fields=["player", "game_type", "-games"], name="head_to_head_by_games")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} v {self.opponent_id} ({self.game_type})"


class Rating(models.Model):
    """A player's current skill rating at one game type (openskill Plackett-Luce);
    ordinal = mu - 3 sigma."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game_type = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game_type"], name="rating_unique"),
        ]
        indexes = [
            models.Index(fields=["game_type", "-ordinal", "player"], name="rating_leaderboard")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.game_type}: {self.ordinal:.2f}"


class RatingHistory(models.Model):
    """A player's rating after one game, in the order ratings are computed: (played_on, game),
    within the game's type."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.ForeignKey(Game, null=True, on_delete=models.SET_NULL, related_name="+")
    game_type = models.CharField(max_length=32)
    played_on = models.DateField()
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()

    class Meta:
        verbose_name_plural = "rating history"
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_history_unique"),
        ]
        indexes = [
            models.Index(
                fields=["player", "game_type", "played_on", "game"], name="rating_history_by_date"
            ),
            models.Index(fields=["game_type", "played_on", "game"], name="rating_history_date"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.game_id}"


class RatingsPending(models.Model):
    """A change that the ratings of a game type have not followed yet: recompute from ``since``
    (null: from the first game). Written with the change, taken by the next catch-up task: a
    burst of changes (an import's batches) makes one recompute per game type, and a change whose
    task could not be queued is taken by the next one."""

    game_type = models.CharField(max_length=32)
    since = models.DateField(null=True)
    # The club whose ratings changed (null: every club's). Players of different clubs never
    # meet, so each club's ratings of a game type are a series of their own.
    club = models.ForeignKey(
        "games.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        verbose_name_plural = "ratings pending"

    def __str__(self) -> str:
        return f"{self.game_type} ratings from {self.since or 'the first game'}"
