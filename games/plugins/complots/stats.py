"""Complots' own statistics: the K4 counts of each seat (rules K4, K5), as totals over a
player's games and as rates, besides the figures every game has (games, wins, rank, streaks,
head-to-head, rating; Complots has no score, so the score figures are null).

Found by generic code through ``games.records.game_types.plugin_for("complots").part("stats")``
(``scoring.stats.games`` documents the protocol). The counts themselves are the engine's
``info.stats`` (numbers at each seat's entry of the result, summed in SQL), so this module only
shapes them. Exports:

- ``K4_COUNTS``: the counts shown, with the names rules K5 gives them.
- ``bucket(totals, figures)``: the Complots fields of one bucket of the statistics API: each
  K4 count's total; ``challenge_success`` = challenges_won / challenges_made;
  ``bluffs_caught_per_claim`` = bluffs_caught / claims_made (null when the divisor is 0);
  ``survival`` = the average rank (1: the last player standing every time). A count no game
  kept (every game known by its final sheet only) is null, never 0.
- ``api_fields()``: their serializer fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

K4_COUNTS: tuple[tuple[str, str], ...] = (
    ("coins_gained", "Coins received: income, foreign aid, duchess, captain."),
    ("coins_lost_to_captains", "Coins a captain took from the player."),
    ("claims_made", "Action claims (duchess, assassin, captain, exchange, inquire)."),
    ("bluffs_caught", "Own claims or blocks challenged and false."),
    ("challenges_made", "Challenges of another player's claim or block."),
    ("challenges_won", "Challenges of a claim or block that was false."),
    ("blocks_made", "Blocks declared."),
    ("blocks_standing", "Blocks not shown false: the action was cancelled."),
    ("influences_taken", "Influences the player's coups and assassinations removed."),
    ("players_eliminated", "Players eliminated by the player's coup, assassination or won "
     "challenge."),
)  # fmt: skip
DIGITS = 4


def _ratio(part: int | None, whole: int | None) -> float | None:
    return round(part / whole, DIGITS) if part is not None and whole else None


def bucket(totals: Mapping[str, int], figures: Mapping[str, Any]) -> dict[str, Any]:
    """The Complots fields of one bucket of a player's statistics. ``figures["games"]`` counts
    the games whose K4 counts were kept: with none of the bucket's games (``all_games``) kept
    (games known by their final sheet only), a count is unknown, null, never 0."""
    counted = bool(figures["games"]) or not figures.get("all_games")
    out: dict[str, Any] = {
        name: (totals.get(name) or 0) if counted else None for name, _ in K4_COUNTS
    }
    out["challenge_success"] = _ratio(out["challenges_won"], out["challenges_made"])
    out["bluffs_caught_per_claim"] = _ratio(out["bluffs_caught"], out["claims_made"])
    out["survival"] = figures["average_rank"]
    return out


def api_fields() -> dict[str, serializers.Field]:
    """The serializer fields of ``bucket``."""
    fields: dict[str, serializers.Field] = {
        name: serializers.IntegerField(
            allow_null=True,
            help_text=f"Total: {text} Null when no game of these kept its counts (games known "
            "by their final sheet only).",
        )
        for name, text in K4_COUNTS
    }
    fields["challenge_success"] = serializers.FloatField(
        allow_null=True, help_text="challenges_won / challenges_made; null: no challenge."
    )
    fields["bluffs_caught_per_claim"] = serializers.FloatField(
        allow_null=True, help_text="bluffs_caught / claims_made; null: no claim."
    )
    fields["survival"] = serializers.FloatField(
        allow_null=True,
        help_text="Average rank: 1 is the last player standing; the one eliminated first of n "
        "players ranks n.",
    )
    return fields
