from django.urls import re_path

from scoring.api.stats import (
    LeaderboardView,
    PlayerHeadToHeadView,
    PlayerRatingsView,
    PlayerStatsView,
)

PLAYER = r"^players/(?P<id>[0-9]+)"

urlpatterns = [
    re_path(rf"{PLAYER}/stats/$", PlayerStatsView.as_view(), name="player-stats"),
    re_path(rf"{PLAYER}/head-to-head/$", PlayerHeadToHeadView.as_view(), name="player-h2h"),
    re_path(rf"{PLAYER}/ratings/$", PlayerRatingsView.as_view(), name="player-ratings"),
    re_path(r"^leaderboard/$", LeaderboardView.as_view(), name="leaderboard"),
]
