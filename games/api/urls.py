from django.urls import include, path, re_path
from rest_framework.routers import DefaultRouter

from games.api.clubs import ClubViewSet, InvitationView
from games.api.exports import BGStatsExportView
from games.api.plugins import apis
from games.api.views.accounts import MeView, TokenView
from games.api.views.editions import EditionViewSet
from games.api.views.game_types import GameTypesView
from games.api.views.games import GameViewSet
from games.api.views.players import PlayerViewSet

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("games", GameViewSet, basename="game")
# A game's own resources (Pot de Vin: its deck versions at /api/decks/).
for _plugin, _api in apis().values():
    for prefix, viewset, basename in _api.routes:
        router.register(prefix, viewset, basename=basename)

editions = EditionViewSet.as_view({"get": "list", "post": "create"})
edition = EditionViewSet.as_view({"get": "retrieve", "patch": "partial_update"})

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("me/", MeView.as_view(), name="me"),
    path("game-types/", GameTypesView.as_view(), name="game-types"),
    # A token is 32 URL-safe characters; anything else is no invitation.
    re_path(
        r"^invitations/(?P<token>[A-Za-z0-9_-]{32})/$", InvitationView.as_view(), name="invitation"
    ),
    re_path(
        r"^clubs/(?P<slug>[-a-zA-Z0-9_]{1,50})/export/bgstats/$",
        BGStatsExportView.as_view(),
        name="club-export-bgstats",
    ),
    path("editions/", editions, name="edition-list"),
    path("editions/<slug:game_type>/<slug:key>/", edition, name="edition-detail"),
    path("", include(router.urls)),
]
