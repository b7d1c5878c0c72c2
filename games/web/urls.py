from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from games.records.game_types import plugins
from games.web import account, clubs, engine_files, exports, imports, pwa, shares, views
from games.web.offline_app import urlpatterns as offline_urls

app_name = "web"

urlpatterns = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", views.home, name="home"),
    # The app as phones install it, and its service worker (scope: the whole site).
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("language/", account.set_language, name="language"),
    path("account/", account.account, name="account"),
    path("account/password/", account.password_change, name="password-change"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/new/<slug:game_type>/", views.game_new, name="game-new-of"),
    path("games/scorepad/", views.scorepad_new, name="scorepad-new"),
    path("games/scorepad/<slug:game_type>/", views.scorepad_new, name="scorepad-new-of"),
    path("games/<int:pk>/", views.game_detail, name="game"),
    # The page again for static/js/live.js: 304 while the game has not changed.
    path("games/<int:pk>/live/", views.game_live, name="game-live"),
    path("games/<int:pk>/rounds/", views.round_append, name="round-append"),
    path("games/<int:pk>/rounds/undo/", views.round_undo, name="round-undo"),
    path("games/<int:pk>/finish/", views.game_finish, name="game-finish"),
    path("games/<int:pk>/reopen/", views.game_reopen, name="game-reopen"),
    path("games/<int:pk>/delete/", views.game_delete, name="game-delete"),
    path("games/<int:pk>/shares/", shares.share_create, name="share-create"),
    path("games/<int:pk>/shares/<str:token>/stop/", shares.share_revoke, name="share-revoke"),
    # A token is 32 URL-safe characters; anything else is no share link.
    re_path(r"^shared/(?P<token>[A-Za-z0-9_-]{32})/$", shares.shared, name="shared"),
    re_path(r"^shared/(?P<token>[A-Za-z0-9_-]{32})/live/$", shares.shared_live, name="shared-live"),
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
    # The rules engine for the pages' offline checks (Pyodide and the sources, versioned).
    path("engine/manifest.json", engine_files.manifest, name="engine-manifest"),
    path(
        "engine/pyodide/<str:version>/<str:name>",
        engine_files.pyodide_file,
        name="engine-pyodide",
    ),
    path("engine/files/<str:digest>/<str:name>", engine_files.engine_file, name="engine-file"),
]

# Pages of a game's own (Pot de Vin's decks, Bruges editions), from its plugin's web part.
for _plugin in plugins().values():
    urlpatterns += getattr(_plugin.part("web"), "urlpatterns", [])

# One game's pages run offline in the browser (a spike): its snapshot and the code for Pyodide.
urlpatterns += offline_urls
