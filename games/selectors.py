"""Reads of game records, shaped for the API and pages (prefetching what they show)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet

from games.models import Deck, Game, Player, Round, Seat

DEFAULT_DECK_KEY = "standard"


def _seats() -> Prefetch[Seat]:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))


def game_list() -> QuerySet[Game]:
    # Winners come from the seats' ranks, so the large JSON columns are not read.
    return (
        Game.objects.select_related("deck", "owner")
        .defer("result", "hands", "trump_pile", "tableaux", "jokers", "deck__cards")
        .prefetch_related(_seats())
        .order_by("-played_on", "-id")
    )


def game_detail_queryset() -> QuerySet[Game]:
    return (
        Game.objects.select_related("deck", "owner")
        .defer("deck__cards")
        .prefetch_related(_seats(), Prefetch("rounds", queryset=Round.objects.order_by("number")))
    )


def game_for_write() -> QuerySet[Game]:
    """Enough of a game to check who may change it."""
    return Game.objects.only("id", "owner_id")


def player_id_of(user: Any) -> int | None:
    return Player.objects.filter(user=user).values_list("id", flat=True).first()


def deck_default() -> Deck:
    return Deck.objects.get(key=DEFAULT_DECK_KEY)
