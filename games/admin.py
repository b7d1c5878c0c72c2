from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.models import Edition, Game, Player, Round, Seat


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["key", "game_type", "verified", "created_at"]
    list_filter = ["game_type"]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        # A version's data never changes (stored games were scored with it): correct an
        # edition by creating a new version.
        return ["game_type", "key", "data", "created_by"] if obj is not None else []


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["seat", "player", "team", "score", "rank"]
    can_delete = False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    readonly_fields = ["number", "data"]
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    """Read-mostly: rounds and results change only through the services, which run the engine."""

    list_display = ["id", "game_type", "played_on", "status", "mode", "player_count", "owner"]
    list_filter = ["status", "mode", "game_type", "player_count"]
    date_hierarchy = "played_on"
    inlines = [SeatInline, RoundInline]
    readonly_fields = [
        "game_type", "edition", "variant", "owner", "mode", "status", "player_count",
        "first_player", "teams", "setup", "finish", "sheet", "result", "engine_version",
        "finished_at",
    ]  # fmt: skip
