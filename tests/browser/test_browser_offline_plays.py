"""New plays at the table without a network, in headless Chromium at phone size with the service
worker on (the whole flow in English; the phone's own words in Italian and Portuguese): the quick
score sheets of the three games and a play of another game, opened once online, open again
offline; each is checked on the phone by the project's own pages (an impossible sheet is refused
beside its seat with the server's words), kept on the phone under a key of its own, through the
browser closed and started again; the play of another game is saved with the phone online and
the server stopped, and kept alike; a new deployment's service worker replaces the old one while
they wait; they are sent once when the server takes them, then scored as the server scores it.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.records import board_games, services
from games.records.models import Game, IdempotencyKey, Player
from games.web import pwa
from scoring.engine.potdevin.sheet import COUNT_FIELDS
from tests.accounts import first_club, make_user
from tests.browser.pages import sign_in
from tests.browser.test_browser_bruges_sheet import RANKS, SCORES
from tests.browser.test_browser_complots_result import fill_result
from tests.browser.test_browser_keep import fill_seat
from tests.browser.test_browser_offline import (
    FIRST_ANSWER_MS,
    LANGUAGES,
    WORDS,
    OfflinePage,
    kept_for_offline,
    open_through_the_worker,
)

NAMES = ["Ada", "Bea", "Cy", "Dev"]
NEW_VERSION = "0123456789abcdef"  # the service worker of a new deployment
POT_DE_VIN_GEMS = (1, 3, 0)
# The Bruges sheet's refusal of B3 by language (the catalogues, read by hand).
STATUE_REFUSED = {
    "en-GB": "Bea: statues: the statue of 6 cannot be taken",
    "it-IT": "Bea: statue: la statua da 6 non si può prendere",
    "pt-BR": "Bea: estátuas: a estátua de 6 não pode ser obtida",
}


def fill_sheet(page: Any) -> None:
    for seat, name in enumerate(NAMES):
        fill_seat(page, seat, name)


def kept(page: Any, count: int) -> None:
    page.wait_for_function(
        f"document.querySelectorAll('#pending li').length === {count}", timeout=FIRST_ANSWER_MS
    )


def bruges_sheet_refused_then_kept(page: Any, language: str) -> None:
    """On the Bruges sheet, offline: an impossible sheet (B3: the statue of 6 while the 7 is
    on the pile) is refused on the phone beside its seat, in the words the server uses
    (test_browser_bruges_sheet); put right, it is kept on the phone, and a blank sheet comes
    for the next play."""
    words = WORDS[language]
    page.fill("#id_player_0", NAMES[0])
    page.fill("#id_player_1", NAMES[1])
    page.check("#id_s1_statues_1")
    with OfflinePage(page).expect_navigation():
        page.click('#scorepad button[type="submit"]')
    error = page.locator("#sheet-1 .seat-error")
    assert error.count() == 1
    assert error.inner_text().startswith(STATUE_REFUSED[language])
    assert not page.locator("#pending li").count()

    page.uncheck("#id_s1_statues_1")
    fill_sheet(page)
    page.click('#scorepad button[type="submit"]')
    page.wait_for_function(
        "document.querySelector('#id_player_0').value === ''", timeout=FIRST_ANSWER_MS
    )
    kept(page, 1)
    assert page.inner_text("#h-pending") == words["pending"]
    assert page.inner_text("#offline-announce").startswith(words["pending"])


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en-GB"])
@pytest.mark.django_db(transaction=True)
def test_a_score_sheet_made_offline_is_refused_and_kept_in_the_pages_language(
    live_server: Any, phone_profile: Any, language: str
) -> None:
    """The whole flow is the next test's, in English; here the phone's own words in the other
    languages: the refusal beside its seat and the note that it is kept."""
    services.editions_ensure_builtin()
    make_user("alice")
    context = phone_profile(language)
    page = context.new_page()
    sign_in(page, live_server.url, "alice")
    open_through_the_worker(page, f"{live_server.url}/games/scorepad/bruges/")
    kept_for_offline(page, "/plays/offline.json")
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#offline-banner:not([hidden])")
    bruges_sheet_refused_then_kept(page, language)
    assert not Game.objects.exists()
    context.close()


@pytest.mark.django_db(transaction=True)
def test_a_score_sheet_and_another_games_play_made_offline_are_checked_kept_and_sent_once(
    stoppable_server: Any, phone_profile: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    language = "en-GB"
    words = WORDS[language]
    services.editions_ensure_builtin()
    user = make_user("alice")
    carcassonne = board_games.board_game_create(club=first_club(), name="Carcassonne", by=user)
    server = stoppable_server
    context = phone_profile(language)
    page = context.new_page()
    base = server.url
    sign_in(page, base, "alice")
    sheet_url, play_url = f"{base}/games/scorepad/bruges/", f"{base}/plays/new/"
    sheets = {kind: f"{base}/games/scorepad/{kind}/" for kind in ("pot-de-vin", "complots")}
    open_through_the_worker(page, play_url)
    for url in (*sheets.values(), sheet_url):  # opened once online: kept by the service worker
        page.goto(url)
        kept_for_offline(page, "/plays/offline.json")  # what the phone's pages read

    context.set_offline(True)
    page.reload()  # the sheet, as last seen
    page.wait_for_selector("#offline-banner:not([hidden])")
    bruges_sheet_refused_then_kept(page, language)

    # The other quick sheets: Pot de Vin's final tableaux, Complots' order of elimination.
    page.goto(sheets["pot-de-vin"])
    for seat, (name, gems) in enumerate(zip(NAMES[:3], POT_DE_VIN_GEMS, strict=True)):
        page.fill(f"#id_player_{seat}", name)
        page.fill(f"#id_t{seat}_gems", str(gems))
    page.click('#scorepad button[type="submit"]')
    kept(page, 1)
    page.goto(sheets["complots"])
    fill_result(page, NAMES[:3], [1, 2])  # Bea out first, then Cy: Ada won
    page.click("#scorepad button[type=submit]")
    kept(page, 1)

    # Kept on the phone through the browser closed and started again, still offline.
    context.close()
    context = phone_profile(language, offline=True)
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(sheets["complots"])
    kept(page, 1)
    assert words["waiting"][1].format(n=3) in page.inner_text("#offline-banner")

    # The Wi-Fi is back but the server is stopped: the play's Save gets no answer, and the
    # page, still there as typed, checks it and keeps it as offline.
    server.stop()
    context.set_offline(False)
    page.goto(play_url)  # the page as last seen
    page.select_option("#id_board_game", str(carcassonne.pk))
    for seat, (name, score) in enumerate([("Ada", "12"), ("Bea", "30")]):
        page.fill(f"#id_player_{seat}", name)
        page.fill(f"#id_score_{seat}", score)
    page.click("#play-save")
    kept(page, 1)
    four_wait = words["waiting"][1].format(n=4)
    assert four_wait in page.inner_text("#offline-banner")
    assert not Game.objects.exists()

    # A new version of the site is deployed while the server cannot take them yet (a proxy's
    # 502): its service worker replaces the old one, and the plays are still on the phone.
    def not_yet(route: Any) -> None:
        if route.request.method == "POST":
            route.fulfill(status=502, body="Bad Gateway")
        else:
            route.continue_()

    old_caches = page.evaluate("caches.keys()")
    urls, _ = pwa._static_files()
    monkeypatch.setattr(pwa, "_static_files", lambda: (urls, NEW_VERSION))
    server.start()
    context.route("**/*", not_yet)
    page.reload()
    page.wait_for_function(
        f"caches.keys().then(k => k.includes('static-{NEW_VERSION}'))", polling=200
    )
    page.wait_for_function(
        "caches.keys().then(k => k.filter(n => n.startsWith('static-')).length === 1)",
        polling=200,
    )
    assert [k for k in old_caches if k.startswith("static-")] != [f"static-{NEW_VERSION}"]
    kept(page, 1)  # this page's play, and each sheet's on its own page
    assert four_wait in page.inner_text("#offline-banner")
    assert not Game.objects.exists()

    # The server takes them: each play sent once, and scored by the server.
    context.unroute("**/*", not_yet)
    page.click("#send-now")
    page.wait_for_selector("#pending", state="detached", timeout=60_000)
    page.goto(sheet_url)
    page.wait_for_selector("#offline-banner", state="hidden")
    assert Game.objects.count() == 4
    plot = Game.objects.get(game_type="complots")
    assert [s.rank for s in plot.seats.order_by("seat")] == [1, 3, 2]  # K4
    # Pot de Vin's sheet as the server scores the same tableaux sent straight to it.
    sent = Game.objects.get(game_type="pot-de-vin")
    straight = services.scorepad_game_create(
        club=first_club(),
        owner=user,
        players=list(Player.objects.filter(name__in=NAMES[:3]).order_by("name")),
        game_type="pot-de-vin",
        edition=sent.edition,
        sheet=[{**dict.fromkeys(COUNT_FIELDS, 0), "gems": gems} for gems in POT_DE_VIN_GEMS],
    )
    assert sent.result["players"] == straight.result["players"]
    assert [s.player.name for s in sent.seats.order_by("seat")] == NAMES[:3]
    bruges = Game.objects.get(game_type="bruges")
    seats = [(s.score, s.rank) for s in bruges.seats.order_by("seat")]
    assert seats == list(zip(SCORES, RANKS, strict=True))
    play = Game.objects.get(board_game=carcassonne)
    assert [(s.score, s.rank) for s in play.seats.order_by("seat")] == [(12, 2), (30, 1)]
    assert IdempotencyKey.objects.filter(user=user, status=302).count() == 4
    context.close()
