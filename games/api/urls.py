from django.urls import include, path
from rest_framework.routers import DefaultRouter

from games.api.views import DeckViewSet, GameViewSet, PlayerViewSet, TokenView

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("players", PlayerViewSet, basename="player")
router.register("decks", DeckViewSet, basename="deck")
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("", include(router.urls)),
]
