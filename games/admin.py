from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Deck, Game, Player, Round, Seat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["key", "game_type", "verified", "created_at"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # A version's cards never change (stored games were scored with them): correct a
        # deck by creating a new version.
        return ["key", "cards", "created_by"] if obj is not None else []


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["seat", "player", "team", "score", "rank"]
    can_delete = False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    readonly_fields = ["number", "trump", "plays"]
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read-mostly: rounds and results change only through the services, which run the engine."""

    list_display = ["id", "game_type", "played_on", "status", "mode", "player_count", "owner"]
    list_filter = ["status", "mode", "game_type", "player_count"]
    date_hierarchy = "played_on"
    inlines = [SeatInline, RoundInline]
    readonly_fields = [
        "game_type", "deck", "owner", "mode", "status", "player_count", "first_player", "teams",
        "hands", "trump_pile", "jokers", "tableaux", "result", "engine_version", "finished_at",
    ]  # fmt: skip
