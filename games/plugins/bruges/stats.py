"""Bruges' own statistics, besides the figures every game has (games, wins, score, rank, streaks,
head-to-head, rating): the average points of each scoring category, statues taken, majority
tiles flipped, penalties suffered by colour and persons hired by group.

Found by generic code through ``games.records.game_types.plugin_for("bruges").part("stats")``
(``scoring.stats.games`` documents the protocol). The counts themselves are the engine's
``info.stats`` (numbers at each seat's entry of the result, summed in SQL: ``points_<category>``
from the score breakdown, ``statues_taken``, ``majorities_flipped``, ``penalties_<colour>``,
``hired_<group>``), so this module only shapes them. Exports:

- ``bucket(totals, figures)``: the Bruges fields of one bucket of the statistics API:
  ``average_points`` (per category of the final scoring, its points per game: together they
  add up to the average score), ``statues_taken`` and ``majorities_flipped`` (totals, and per
  game), ``penalties`` (per colour, penalties suffered) and ``hired`` (per group, persons
  hired; a person hired again after a fire counts again). Averages are null with no game.
  A game recorded by its final score sheet counts in the points, statues and majority tiles;
  its penalties and persons hired are not known (null in its result), so they count nothing.
- ``api_fields()``: their serializer fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from scoring.engine.bruges.rules import CATEGORIES, COLORS, GROUPS

DIGITS = 4


def ratio(part: int, whole: int) -> float | None:
    return round(part / whole, DIGITS) if whole else None


CATEGORY_WORDS: dict[str, str] = {
    "track": "the score track (start, threat tokens returned, gains, penalties)",
    "persons": "persons in play, price / 3 each",
    "houses": "1 per house",
    "laurels": "laurel persons, as given when the game was finished",
    "majorities": "4 per majority tile flipped",
    "canals": "3 per canal section whose 3rd space holds a tile",
    "statues": "the statues' values",
    "prestige": "the prestige step reached, as the edition scores it",
}


def bucket(totals: Mapping[str, int], figures: Mapping[str, Any]) -> dict[str, Any]:
    """The Bruges fields of one bucket of a player's statistics."""
    games = figures["games"]
    statues = totals.get("statues_taken", 0)
    flipped = totals.get("majorities_flipped", 0)
    return {
        "average_points": {c: ratio(totals.get(f"points_{c}", 0), games) for c in CATEGORIES},
        "statues_taken": statues,
        "statues_per_game": ratio(statues, games),
        "majorities_flipped": flipped,
        "majorities_per_game": ratio(flipped, games),
        "penalties": {c: totals.get(f"penalties_{c}", 0) for c in COLORS},
        "hired": {g: totals.get(f"hired_{g}", 0) for g in GROUPS},
    }


class AveragePointsSerializer(serializers.Serializer):
    """Per category of the final scoring, the player's points per game (null: no game)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {
            c: serializers.FloatField(
                allow_null=True, help_text=f"Points from {CATEGORY_WORDS[c]}."
            )
            for c in CATEGORIES
        }


class PenaltiesByColorSerializer(serializers.Serializer):
    """Per colour, the penalties the player suffered (three threat tokens of that colour)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {c: serializers.IntegerField(min_value=0) for c in COLORS}


class HiredByGroupSerializer(serializers.Serializer):
    """Per group, the persons the player hired (again after a fire: counted again)."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {g: serializers.IntegerField(min_value=0) for g in GROUPS}


def api_fields() -> dict[str, serializers.Field]:
    """The serializer fields of ``bucket``."""
    return {
        "average_points": AveragePointsSerializer(
            help_text="Per scoring category, points per game; they add up to average_score."
        ),
        "statues_taken": serializers.IntegerField(help_text="Total."),
        "statues_per_game": serializers.FloatField(allow_null=True),
        "majorities_flipped": serializers.IntegerField(
            help_text="Majority tiles (prestige, persons, canals) flipped: total."
        ),
        "majorities_per_game": serializers.FloatField(allow_null=True),
        "penalties": PenaltiesByColorSerializer(
            help_text="Penalties suffered, per colour (in the games logged round by round: a "
            "score sheet does not say)."
        ),
        "hired": HiredByGroupSerializer(
            help_text="Persons hired, per group (in the games logged round by round)."
        ),
    }
