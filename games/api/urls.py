from django.urls import include, path
from rest_framework.routers import DefaultRouter

from games.api.views import DeckViewSet, GameViewSet, MeView, PlayerViewSet, TokenView

router = DefaultRouter(trailing_slash=True)
router.include_root_view = False
router.register("players", PlayerViewSet, basename="player")
router.register("decks", DeckViewSet, basename="deck")
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("me/", MeView.as_view(), name="me"),
    path("", include(router.urls)),
]
