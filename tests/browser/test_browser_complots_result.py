"""Complots by its result on a phone, in a real headless Chromium at 390 px: the recorder types
the players, picks who went out 1st, 2nd... (one select per place), opens the counts if any were
kept, and sees the finished game ranked as rules K4/K5 rank a logged game (the last one standing
1st, the one eliminated last 2nd, ...). With 8 players of the longest names the page and the
game page fit a phone in each language of the pages; without JavaScript the page works the same.
Screenshots in artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from games.records.models import Game
from tests.accounts import make_user
from tests.browser.pages import LANGUAGES, shoot, sign_in, use_language
from tests.browser.test_browser_layout import long_names, reads_on_a_phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> str:
    """Each test runs once per language of the pages."""
    use_language(browser, live_server.url, request.param)
    return str(request.param)


def fill_result(page: Any, names: list[str], out: list[int]) -> None:
    """The players in seat order, then the seat at each place of the elimination order."""
    for seat, name in enumerate(names):
        page.fill(f"#id_player_{seat}", name)
    for place, seat in enumerate(out, start=1):
        page.select_option(f"#id_out_{place}", str(seat))


def ranking(page: Any) -> list[tuple[int, int]]:
    """(seat, rank) of each row of the game page's ranking, top to bottom."""
    rows = page.locator("#ranking li")
    return [
        (int(rows.nth(i).get_attribute("data-seat")), int(rows.nth(i).get_attribute("data-rank")))
        for i in range(rows.count())
    ]


def test_an_eight_player_result_is_recorded_on_a_phone(
    live_server: Any, browser: Any, language: str
) -> None:
    make_user("alice")
    names = long_names(8)
    # Out in this order: seats 5, 0, 7, 2, 6, 1, 3; seat 4 is the last one standing.
    out = [5, 0, 7, 2, 6, 1, 3]
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/scorepad/complots/")
    fill_result(page, names, out)
    # The script puts the typed names into the seat choices; the page works without it too.
    chosen = page.locator("#id_out_1 option:checked").inner_text()
    assert chosen.endswith(names[5]) and chosen.startswith(("Seat 5", "Posto 5", "Lugar 5"))
    reads_on_a_phone(page, f"complots-result-entry-8-{language}")
    page.click("#counts-entry summary")
    assert page.locator("#id_c4_claims_made").is_visible()
    page.fill("#id_c4_claims_made", "6")
    page.fill("#id_c4_players_eliminated", "3")
    # Done typing (the box left, as a tap elsewhere leaves it): a full-page screenshot taken
    # while a box has the focus makes headless Chromium move the page under the next tap.
    page.evaluate("document.activeElement.blur()")
    reads_on_a_phone(page, f"complots-result-entry-8-counts-{language}")
    with page.expect_navigation():
        page.click("#scorepad button[type=submit]")
    # K4: the winner 1st, then the one eliminated last, ..., the first out 8th.
    assert ranking(page) == [(4, 1), (3, 2), (1, 3), (6, 4), (2, 5), (7, 6), (0, 7), (5, 8)]
    assert page.locator("#seats-table").count() == 0  # no coins or cards to show
    kept = page.locator('#counts-table td[data-seat="4"][data-key="claims_made"]')
    assert kept.inner_text() == "6"
    reads_on_a_phone(page, f"complots-result-game-8-{language}")
    game = Game.objects.get(game_type="complots")
    assert (game.mode, game.status, game.result["winners"]) == ("scorepad", "finished", [4])


def test_a_result_is_recorded_without_javascript(live_server: Any, chromium: Any) -> None:
    make_user("alice")
    context = chromium("en-US", java_script_enabled=False)
    page = context.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/scorepad/complots/")
    # A mistake first: Bea (seat 1) picked twice. The page says so beside the second place.
    fill_result(page, ["Ada", "Bea", "Cy"], [1, 1])
    # Without a script the places offer the seats, counted from 1: Bea sits at seat 2.
    assert page.locator("#id_out_1 option:checked").inner_text() == "Seat 2"
    with page.expect_navigation():
        page.click("#scorepad button[type=submit]")
    assert "Bea is chosen twice." in page.locator("#out-order").inner_text()
    assert not Game.objects.exists()
    # Corrected: Bea out first, then Cy; Ada won.
    page.select_option("#id_out_2", "2")
    with page.expect_navigation():
        page.click("#scorepad button[type=submit]")
    assert ranking(page) == [(0, 1), (2, 2), (1, 3)]
    texts = page.locator("#ranking").inner_text()
    assert "last one standing" in texts and "1st out" in texts and "2nd out" in texts
    shoot(page, "complots-result-game-no-script")
    context.close()
