from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from games.records.game_types import plugins
from games.web import account, clubs, exports, imports, shares, views

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
    path("games/<int:pk>/delete/", views.game_delete, name="game-delete"),
    path("games/<int:pk>/shares/", shares.share_create, name="share-create"),
    path("games/<int:pk>/shares/<str:token>/stop/", shares.share_revoke, name="share-revoke"),
    # A token is 32 URL-safe characters; anything else is no share link.
    re_path(r"^shared/(?P<token>[A-Za-z0-9_-]{32})/$", shares.shared, name="shared"),
    path("clubs/new/", clubs.club_new, name="club-new"),
    path("clubs/switch/", clubs.switch, name="club-switch"),
    path("clubs/<slug:slug>/results/", clubs.results, name="club-results"),
    path("clubs/<slug:slug>/members/", clubs.members, name="club-members"),
    path(
        "clubs/<slug:slug>/members/<str:username>/role/",
        clubs.member_role,
        name="club-member-role",
    ),
    path(
        "clubs/<slug:slug>/members/<str:username>/player/",
        clubs.member_player,
        name="club-member-player",
    ),
    path(
        "clubs/<slug:slug>/members/<str:username>/remove/",
        clubs.member_remove,
        name="club-member-remove",
    ),
    path("clubs/<slug:slug>/invitations/", clubs.invitations, name="club-invitations"),
    path(
        "clubs/<slug:slug>/invitations/<int:pk>/revoke/",
        clubs.invitation_revoke,
        name="club-invitation-revoke",
    ),
    path("clubs/<slug:slug>/settings/", clubs.club_settings, name="club-settings"),
    path("clubs/<slug:slug>/name/", clubs.club_naming, name="club-name"),
    path("clubs/<slug:slug>/export/bgstats/", exports.bgstats, name="club-export-bgstats"),
    # An invitation token is 32 URL-safe characters; anything else is no invitation.
    re_path(r"^invite/(?P<token>[A-Za-z0-9_-]{32})/$", clubs.invitation, name="invitation"),
    path("players/", views.player_list, name="players"),
    path("players/<int:pk>/", views.player_detail, name="player"),
    path("jobs/rescore/", views.rescore, name="rescore"),
    path("jobs/rescore/<int:pk>/", views.job_detail, name="job"),
    path("jobs/rescore/<int:pk>/resume/", views.job_resume, name="job-resume"),
    path("imports/", imports.imports_page, name="imports"),
    path("imports/<int:pk>/", imports.import_detail, name="import"),
    path("imports/<int:pk>/confirm/", imports.import_confirm, name="import-confirm"),
    path("imports/<int:pk>/discard/", imports.import_discard, name="import-discard"),
]

# Pages of a game's own (Pot de Vin's decks, Bruges editions), from its plugin's web part.
for _plugin in plugins().values():
    urlpatterns += getattr(_plugin.part("web"), "urlpatterns", [])
