"""Pot de Vin's own statistics: rounds won, gems paid and won, Pot de Vin sweeps, negative guild
columns and revokes, besides the figures every game has (games, wins, score, rank, streaks,
head-to-head, rating).

Found by generic code through ``games.records.game_types.plugin_for("pot-de-vin").part("stats")``
(``scoring.stats.games`` documents the protocol). Exports:

- ``PATHS``: values read from each seat's entry of the result besides the engine's
  ``info.stats`` (``rounds_won``, ``cards_won``, ``gems_paid``, ``gems_won``): the Pot de Vin
  cards in the seat's own tableau, and each guild column's seat and points in the breakdown.
- ``TALLIES``: ``revokes``, the seat's revokes found after the fact (rules D4) among the
  result's violations.
- ``COUNTERS`` and ``counters(values)``: a seat's counters: ``logged_games`` (1 when the game
  was logged round by round: rounds won and gems paid known), ``gems_won`` (0 when unknown),
  ``pot_de_vin_sweeps`` (1 when the seat's own tableau holds all four Pot de Vin cards),
  ``negative_<guild>`` (1 when that guild's column counted for the seat scored below zero; in
  team play only the columns of this seat that counted, rules D8), ``revokes``.
- ``bucket(totals, figures)``: the Pot de Vin fields of one bucket of the statistics API
  (``logged_games``, ``rounds_won``, ``gems_paid``, ``gems_won``, ``pot_de_vin_sweeps``,
  ``negative_columns`` by guild, ``revokes``) and ``api_fields()``: their serializer fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from scoring.engine.potdevin.cards import GUILDS

POT_DE_VIN_CARDS = 4  # one per character; holding all four is a sweep

PATHS: dict[str, tuple[str, ...]] = {
    "pot_de_vin_cards": ("tableau", "pot_de_vin"),
    **{f"{g}_column_seat": ("breakdown", "guilds", g, "seat") for g in GUILDS},
    **{f"{g}_column_points": ("breakdown", "guilds", g, "points") for g in GUILDS},
}
TALLIES: dict[str, dict[str, Any]] = {
    "revokes": {"list": ("violations",), "match": {"code": "revoke"}, "seat": "seat"},
}
COUNTERS: tuple[str, ...] = (
    "logged_games",
    "gems_won",
    "pot_de_vin_sweeps",
    *(f"negative_{g}" for g in GUILDS),
    "revokes",
)


def counters(values: Mapping[str, Any]) -> dict[str, int]:
    """A seat's Pot de Vin counters from the values read from its result entry."""
    seat = values["seat"]
    out = {
        "logged_games": int(values.get("rounds_won") is not None),
        "gems_won": values.get("gems_won") or 0,
        "pot_de_vin_sweeps": int((values.get("pot_de_vin_cards") or 0) >= POT_DE_VIN_CARDS),
        "revokes": values.get("revokes") or 0,
    }
    for g in GUILDS:
        points = values.get(f"{g}_column_points")
        # Team play (D8): a column's points belong to the teammate whose column counted.
        own = values.get(f"{g}_column_seat") == seat
        out[f"negative_{g}"] = int(own and points is not None and points < 0)
    return out


def bucket(totals: Mapping[str, int], figures: Mapping[str, Any]) -> dict[str, Any]:
    """The Pot de Vin fields of one bucket of a player's statistics."""
    return {
        "logged_games": totals.get("logged_games", 0),
        "rounds_won": totals.get("rounds_won", 0),
        "gems_paid": totals.get("gems_paid", 0),
        "gems_won": totals.get("gems_won", 0),
        "pot_de_vin_sweeps": totals.get("pot_de_vin_sweeps", 0),
        "negative_columns": {g: totals.get(f"negative_{g}", 0) for g in GUILDS},
        "revokes": totals.get("revokes", 0),
    }


class NegativeColumnsSerializer(serializers.Serializer):
    """Per guild, in how many games the column counted for the player scored below zero."""

    def get_fields(self) -> dict[str, serializers.Field]:
        return {g: serializers.IntegerField(min_value=0) for g in GUILDS}


def api_fields() -> dict[str, serializers.Field]:
    """The serializer fields of ``bucket``."""
    return {
        "logged_games": serializers.IntegerField(
            help_text="Games logged round by round: the ones rounds_won and gems_paid count "
            "(scorepad games record neither)."
        ),
        "rounds_won": serializers.IntegerField(help_text="Total, over the logged games."),
        "gems_paid": serializers.IntegerField(help_text="Total, over the logged games."),
        "gems_won": serializers.IntegerField(help_text="Total."),
        "pot_de_vin_sweeps": serializers.IntegerField(
            help_text="Games where the player's own tableau held all four Pot de Vin cards."
        ),
        "negative_columns": NegativeColumnsSerializer(
            help_text="Per guild, games where the player's counted column scored below zero "
            "(in team play, only the columns of this player that counted for the team)."
        ),
        "revokes": serializers.IntegerField(help_text="Revokes found after the fact (rules D4)."),
    }
