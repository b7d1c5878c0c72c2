from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from games.records.models import Club, Edition, Game, Invitation, Membership, Player, Round, Seat


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "public_results", "created_at"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["club", "role", "created_by", "created_at", "expires_at", "used_by"]
    list_filter = ["club", "role"]
    # The token is the link's secret, shown to the club's admins on the club's pages, where
    # invitations are made; here they are looked at and revoked.
    exclude = ["token"]
    readonly_fields = ["club", "role", "created_by", "expires_at", "used_at", "used_by"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "created_at"]
    list_filter = ["club"]
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

    list_display = [
        "id", "club", "game_type", "played_on", "status", "mode", "player_count", "owner",
    ]  # fmt: skip
    list_filter = ["club", "status", "mode", "game_type", "player_count"]
    date_hierarchy = "played_on"
    inlines = [SeatInline, RoundInline]
    readonly_fields = [
        "club", "game_type", "edition", "variant", "owner", "mode", "status", "player_count",
        "first_player", "teams", "setup", "finish", "sheet", "result", "engine_version",
        "finished_at",
    ]  # fmt: skip
