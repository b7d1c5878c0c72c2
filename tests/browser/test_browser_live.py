"""Every phone at the table in step (static/js/live.js), in a real headless Chromium at phone
size: one phone enters Pot de Vin rounds through the pages while another phone (a recorder, a
round half picked on it) and a signed-out phone on the share link watch the game. Each new
round shows on both within 3 seconds without a reload; the watcher's half-picked form stays as
it is, with a notice offering the form as it is now, which brings round 3's form. A Complots
turn entered elsewhere shows too. A hidden page asks nothing, and asks again once seen."""

from __future__ import annotations

from typing import Any

import pytest

from games.records import services
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import first_club, make_user
from tests.browser.pages import sign_in
from tests.browser.test_browser import enter_round
from tests.builders import complots_game

WITHIN = 3000  # ms: every phone shows a change this soon
# Hidden, as a phone's browser makes a page in another tab or behind a locked screen.
HIDE = """() => {
  Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def rounds_shown(page: Any, count: int) -> None:
    """The page lists ``count`` rounds within 3 s, and was not loaded again meanwhile."""
    page.wait_for_function(
        f"document.querySelectorAll('ol.rounds li').length === {count}", timeout=WITHIN
    )
    assert page.evaluate("window.stayed") is True


def stay(page: Any) -> None:
    """A mark on the page's window: gone if the page is ever loaded again."""
    page.evaluate("window.stayed = true")


@pytest.mark.django_db(transaction=True)
def test_every_phone_follows_the_game_without_reloading(live_server: Any, chromium: Any) -> None:
    alice = make_user("alice")
    make_user("bob")  # a recorder too: his page has the round's form
    log = simulate(3, seed=21, record_deal=False)
    game = services.game_create(
        club=first_club(),
        owner=alice,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=alice),
        game_type="pot-de-vin",
        first_player=log["first_player"],
    )
    share = services.share_create(game=game, by=alice)
    base = live_server.url
    url = f"{base}/games/{game.pk}/"
    enters = chromium("en-US").new_page()
    sign_in(enters, base, "alice")
    enters.goto(url)
    watches = chromium("en-US").new_page()
    sign_in(watches, base, "bob")
    watches.goto(url)
    table = chromium("en-US").new_page()  # signed out, by the share link
    table.goto(f"{base}/shared/{share.token}/")

    # Bob has picked round 1's trump when Alice saves round 1.
    trump = log["rounds"][0]["trump"]
    watches.click(f'label[for="trump-{trump}"]')
    for page in (watches, table):
        stay(page)
    enter_round(enters, log["rounds"][0], 1)
    rounds_shown(watches, 1)
    rounds_shown(table, 1)
    assert watches.is_checked(f"#trump-{trump}")  # his form as he left it
    assert watches.input_value('#round-entry input[name="number"]') == "1"
    assert watches.is_visible("#live-stale")
    watches.wait_for_function(
        "document.getElementById('live-news').textContent.startsWith("
        "'Round 1 was saved from another page or phone.')",
        timeout=WITHIN,
    )
    assert watches.is_visible("#undo-round") and "Undo round 1" in watches.inner_text("#undo-round")

    enter_round(enters, log["rounds"][1], 2)
    rounds_shown(watches, 2)
    rounds_shown(table, 2)
    assert watches.is_checked(f"#trump-{trump}")
    assert "Undo round 2" in watches.inner_text("#undo-round")

    # The share link's page hidden: it asks nothing; seen again, it asks at once.
    asked: list[str] = []
    table.on("request", lambda request: asked.append(request.url))
    table.evaluate(HIDE)
    table.wait_for_timeout(4000)
    assert asked == []
    table.evaluate(SHOW)
    table.wait_for_timeout(500)
    assert asked and all(a.endswith(f"/shared/{share.token}/live/") for a in asked)

    # The notice brings the form as it is now: round 3's, nothing picked.
    with watches.expect_navigation():
        watches.click("#live-refresh")
    assert watches.input_value('#round-entry input[name="number"]') == "3"
    assert watches.locator("#round-entry input:checked").count() == 0
    assert not watches.is_visible("#live-stale")

    # A Complots turn entered elsewhere (the API, another phone) shows on Bob's page too.
    plot = complots_game(alice)
    watches.goto(f"{base}/games/{plot.pk}/")
    stay(watches)
    services.round_append(game=plot, round_data={"actor": 0, "action": "income"}, number=1)
    watches.wait_for_function("document.querySelectorAll('#turns li').length === 1", timeout=WITHIN)
    assert watches.evaluate("window.stayed") is True
