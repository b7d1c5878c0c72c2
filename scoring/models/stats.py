"""Player statistics and skill ratings, kept materialized.

``PlayerGame`` holds the facts of one seat of one finished game, taken from the engine's result;
``PlayerStats`` and ``HeadToHead`` are aggregates of those rows, rewritten for the players a
change touches (``scoring.stats``). Reads are lookups of these rows, never scans of games.

A deleted game leaves its ``PlayerGame`` and ``RatingHistory`` rows with ``game`` null rather
than cascading: the next refresh finds them, so it knows whose statistics and which ratings
the deletion changed, and removes them.
"""

from __future__ import annotations

from django.db import models

from games.models import Game, Player
from scoring.engine.potdevin.cards import GUILDS

BUCKET_ALL = "all"
BUCKET_INDIVIDUAL = "individual"
BUCKET_TEAM = "team"
PLAYER_COUNTS = (3, 4, 5, 6)


def bucket_for_player_count(count: int) -> str:
    return f"players-{count}"


BUCKETS = (
    BUCKET_ALL,
    *(bucket_for_player_count(n) for n in PLAYER_COUNTS),
    BUCKET_INDIVIDUAL,
    BUCKET_TEAM,
)


def guild_bit(guild: str) -> int:
    """The bit of ``PlayerGame.negative_guilds`` for a guild column."""
    return 1 << GUILDS.index(guild)


class PlayerGame(models.Model):
    """One seat of one finished game, as statistics and ratings read it."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(
        Game, null=True, on_delete=models.SET_NULL, related_name="player_games"
    )
    played_on = models.DateField()
    seat = models.PositiveSmallIntegerField()
    player_count = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField(null=True, help_text="Team index; null alone.")
    team_play = models.BooleanField()
    score = models.IntegerField(help_text="The player's score, or the team's in team play.")
    rank = models.PositiveSmallIntegerField(help_text="1 is first; shared places share a rank.")
    win_share = models.FloatField(
        help_text="1/k when the player's unit (player or team) is one of k units ranked 1, else 0."
    )
    rounds_won = models.PositiveSmallIntegerField(null=True, help_text="Null in scorepad mode.")
    gems_paid = models.PositiveSmallIntegerField(null=True, help_text="Null in scorepad mode.")
    gems_won = models.PositiveSmallIntegerField()
    pot_de_vin_sweep = models.BooleanField(
        help_text="The player's own tableau holds all four Pot de Vin cards."
    )
    negative_guilds = models.PositiveSmallIntegerField(
        help_text="Bit mask (guild_bit) of the guild columns counted for this player that scored "
        "below zero; in team play only the columns of this player that counted (rules D8)."
    )
    revokes = models.PositiveSmallIntegerField(help_text="Revokes found after the fact (D4).")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="player_game_unique"),
        ]
        indexes = [
            models.Index(fields=["player", "played_on", "game"], name="player_game_by_date"),
            models.Index(fields=["played_on", "game"], name="player_game_date"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.game_id}"


class PlayerStats(models.Model):
    """Aggregates of a player's ``PlayerGame`` rows, per bucket: all games, by player count, and
    individual or team play. Streaks are kept on the ``all`` row only."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    bucket = models.CharField(max_length=16, choices=[(b, b) for b in BUCKETS])
    games = models.PositiveIntegerField(default=0)
    wins = models.FloatField(default=0, help_text="Sum of win shares: a shared first is split.")
    score_sum = models.BigIntegerField(default=0)
    best_score = models.IntegerField(null=True)
    worst_score = models.IntegerField(null=True)
    rank_sum = models.PositiveIntegerField(default=0)
    logged_games = models.PositiveIntegerField(
        default=0, help_text="Games logged round by round (rounds won and gems paid known)."
    )
    rounds_won = models.PositiveIntegerField(default=0)
    gems_paid = models.PositiveIntegerField(default=0)
    gems_won = models.PositiveIntegerField(default=0)
    sweeps = models.PositiveIntegerField(default=0)
    negative_columns = models.JSONField(default=dict, help_text="Guild to count of games.")
    revokes = models.PositiveIntegerField(default=0)
    current_streak = models.PositiveIntegerField(default=0)
    longest_streak = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "player stats"
        constraints = [
            models.UniqueConstraint(fields=["player", "bucket"], name="player_stats_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.bucket}"


class HeadToHead(models.Model):
    """A player against one opponent (teammates are not opponents), over the games both played.
    A win is a better (smaller) rank than the opponent's."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    losses = models.PositiveIntegerField()
    ties = models.PositiveIntegerField()

    class Meta:
        verbose_name_plural = "head to head"
        constraints = [
            models.UniqueConstraint(fields=["player", "opponent"], name="head_to_head_unique"),
        ]
        indexes = [models.Index(fields=["player", "-games"], name="head_to_head_by_games")]

    def __str__(self) -> str:
        return f"{self.player_id} v {self.opponent_id}"


class Rating(models.Model):
    """A player's current skill rating (openskill Plackett-Luce); ordinal = mu - 3 sigma."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    games = models.PositiveIntegerField()
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["-ordinal", "player"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.ordinal:.2f}"


class RatingHistory(models.Model):
    """A player's rating after one game, in the order ratings are computed: (played_on, game)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.ForeignKey(Game, null=True, on_delete=models.SET_NULL, related_name="+")
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
            models.Index(fields=["player", "played_on", "game"], name="rating_history_by_date"),
            models.Index(fields=["played_on", "game"], name="rating_history_date"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} after {self.game_id}"


class RatingsPending(models.Model):
    """A change that ratings have not followed yet: recompute from ``since`` (null: from the
    first game). Written with the change, taken by the next catch-up task: a burst of changes
    (an import's batches) makes one recompute, and a change whose task could not be queued is
    taken by the next one."""

    since = models.DateField(null=True)

    class Meta:
        verbose_name_plural = "ratings pending"

    def __str__(self) -> str:
        return f"ratings from {self.since or 'the first game'}"
