"""Reads of game records, shaped for the API and pages (prefetching what they show)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from games.models import Deck, Game, Round, Seat

DEFAULT_DECK_KEY = "standard"


def _seats() -> Prefetch[Seat]:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))


def game_list() -> QuerySet[Game]:
    return (
        Game.objects.select_related("deck", "owner")
        .prefetch_related(_seats())
        .order_by("-played_on", "-id")
    )


def game_detail_queryset() -> QuerySet[Game]:
    return Game.objects.select_related("deck", "owner").prefetch_related(
        _seats(), Prefetch("rounds", queryset=Round.objects.order_by("number"))
    )


def deck_default() -> Deck:
    return Deck.objects.get(key=DEFAULT_DECK_KEY)
