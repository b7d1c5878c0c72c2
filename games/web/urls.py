from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from games.plugins import plugins
from games.web import account, shares, views

app_name = "web"

urlpatterns = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    path("language/", account.set_language, name="language"),
    path("account/", account.account, name="account"),
    path("account/password/", account.password_change, name="password-change"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/new/<slug:game_type>/", views.game_new, name="game-new-of"),
    path("games/scorepad/", views.scorepad_new, name="scorepad-new"),
    path("games/scorepad/<slug:game_type>/", views.scorepad_new, name="scorepad-new-of"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    path("games/<int:pk>/rounds/", views.round_append, name="round-append"),
    path("games/<int:pk>/rounds/undo/", views.round_undo, name="round-undo"),
    path("games/<int:pk>/finish/", views.game_finish, name="game-finish"),
    path("games/<int:pk>/reopen/", views.game_reopen, name="game-reopen"),
    path("games/<int:pk>/shares/", shares.share_create, name="share-create"),
    path("games/<int:pk>/shares/<str:token>/stop/", shares.share_revoke, name="share-revoke"),
    # A token is 32 URL-safe characters; anything else is no share link.
    re_path(r"^shared/(?P<token>[A-Za-z0-9_-]{32})/$", shares.shared, name="shared"),
    path("players/", views.player_list, name="players"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("jobs/rescore/", views.rescore, name="rescore"),
    path("jobs/rescore/<int:pk>/", views.job_detail, name="job"),
    path("jobs/rescore/<int:pk>/resume/", views.job_resume, name="job-resume"),
]

# Pages of a game's own (Pot de Vin's decks, Bruges editions), from its plugin's web part.
for _plugin in plugins().values():
    urlpatterns += getattr(_plugin.part("web"), "urlpatterns", [])
