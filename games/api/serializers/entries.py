"""How a game is played through the API: one entry (a round, a turn) as a client sends it, the
entries as shown, and the end-of-game choices."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from games.api.serializers.fields import MAX_ENTRY_NUMBER
from games.records.models import Game


def entries_of(game: Game) -> list[dict[str, Any]]:
    """The game's entries as shown: each one as its engine reads it, with its ``number``
    (from the prefetched rounds of ``selectors.game_detail_queryset``)."""
    return [{"number": r.number, **r.data} for r in game.rounds.all()]


class EntryInputSerializer(serializers.Serializer):
    """The base of one entry as a client sends it (append, correct)."""

    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ENTRY_NUMBER,
        help_text="Append: the number this entry should get. When the game has moved on "
        "(another client appended first) the request gets 409 `round_conflict`.",
    )

    def entry_data(self) -> dict[str, Any]:
        """The entry exactly as the engine reads it (and as it is stored)."""
        raise NotImplementedError


class FinishSerializer(serializers.Serializer):
    """The base of a game's end-of-game choices (``POST /api/games/{id}/finish/``)."""

    def finish_data(self) -> dict[str, Any] | None:
        """The choices for ``services.game_finish`` (None: the engine's own)."""
        return None
