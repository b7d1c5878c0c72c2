"""Game records: people, deck versions, games with their seats and rounds.

Only services (games/services.py) write these; the stored result is what the engine computed
from the rounds, never typed by a client.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone

GAME_TYPES = [("pot-de-vin", "Pot de Vin")]


def name_key(name: str) -> str:
    """How player names are told apart: case and Unicode forms folded ("Úna", "úna" and "ÚNA"
    are one player), the same on every database (SQLite's LOWER() folds ASCII only)."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()


class Player(models.Model):
    """A person who plays, across games; may be linked to a user account."""

    name = models.CharField(max_length=80)
    # Logs name players; two people called "ada" and "Ada" would be one in a log. Folding can
    # lengthen a name ("ß" is "ss"): room for that.
    name_key = models.CharField(max_length=240, unique=True, editable=False)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Deck(models.Model):
    """A deck version: which guild symbols each guild card carries (rules D1). Its cards never
    change once created: a correction is a new version, and games can be re-scored with it."""

    key = models.SlugField(max_length=64, unique=True)
    game_type = models.CharField(max_length=32, choices=GAME_TYPES, default="pot-de-vin")
    description = models.TextField(blank=True)
    verified = models.BooleanField(
        default=False, help_text="Checked against the printed cards by a person."
    )
    cards = models.JSONField(help_text='Card to guild symbols, e.g. {"A4": ["nobles"], ...}.')
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key


class Game(models.Model):
    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", "In progress"
        FINISHED = "finished", "Finished"

    class Mode(models.TextChoices):
        ROUNDS = "rounds", "Round by round"
        SCOREPAD = "scorepad", "Final tableaux only"

    game_type = models.CharField(max_length=32, choices=GAME_TYPES, default="pot-de-vin")
    deck = models.ForeignKey(Deck, on_delete=models.PROTECT, related_name="games")
    played_on = models.DateField(default=timezone.localdate)
    location = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games"
    )
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.ROUNDS)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    player_count = models.PositiveSmallIntegerField()
    first_player = models.PositiveSmallIntegerField(null=True, blank=True)
    teams = models.JSONField(null=True, blank=True)
    # The deal and the trump pile, when the table recorded them (rules D4).
    hands = models.JSONField(null=True, blank=True)
    trump_pile = models.JSONField(null=True, blank=True)
    jokers = models.JSONField(null=True, blank=True, help_text="Explicit Joker placement (D5).")
    tableaux = models.JSONField(null=True, blank=True, help_text="Scorepad mode only.")
    result = models.JSONField(null=True, blank=True)
    engine_version = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        indexes = [
            models.Index(fields=["played_on", "id"]),
            models.Index(fields=["status"]),
            models.Index(fields=["game_type", "player_count"]),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_type_display()} #{self.pk} ({self.played_on})"


class Seat(models.Model):
    """A player's place at one game, clockwise from 0, with the stored score and rank."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_per_game"),
            models.UniqueConstraint(fields=["game", "player"], name="player_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seat} {self.player_id}"


class Round(models.Model):
    """One round as logged: the revealed trump and the actions in turn order."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    trump = models.CharField(max_length=3)
    plays = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            # The last guard against two clients appending the same round at once.
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} round {self.number}"

    def as_log(self) -> dict[str, object]:
        return {"trump": self.trump, "plays": self.plays}
