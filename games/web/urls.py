from django.contrib.auth import views as auth_views
from django.urls import path

from games.web import views

app_name = "web"

urlpatterns = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/scorepad/", views.scorepad_new, name="scorepad-new"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/<int:pk>/rounds/", views.round_append, name="round-append"),
    path("games/<int:pk>/rounds/undo/", views.round_undo, name="round-undo"),
    path("games/<int:pk>/finish/", views.game_finish, name="game-finish"),
    path("games/<int:pk>/reopen/", views.game_reopen, name="game-reopen"),
    path("players/", views.player_list, name="players"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("decks/", views.deck_list, name="decks"),
    path("decks/new/", views.deck_new, name="deck-new"),
    path("decks/<slug:key>/", views.deck_detail, name="deck"),
    path("jobs/rescore/", views.rescore, name="rescore"),
    path("jobs/rescore/<int:pk>/", views.job_detail, name="job"),
    path("jobs/rescore/<int:pk>/resume/", views.job_resume, name="job-resume"),
]
