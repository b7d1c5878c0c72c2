"""Another game on a phone, in a real headless Chromium at 390 px, in each language of the
pages: a recorder adds a named game (with its BoardGameGeek id and how it is won) on the club's
other games page, records a play of it (four players with the longest names, scores with a tie
for first that a winner tick breaks, who started, how long it lasted), and sees the ranks
worked out by hand (rules O3). Every page fits a phone without side scrolling or cut words.
Screenshots in artifacts/."""

from __future__ import annotations

from typing import Any

import pytest

from games.records.models import BoardGame, Game
from tests.accounts import make_user
from tests.browser.pages import LANGUAGES, sign_in, use_language
from tests.browser.test_browser_layout import long_names, reads_on_a_phone

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> str:
    """Each test runs once per language of the pages."""
    use_language(browser, live_server.url, request.param)
    return str(request.param)


def ranking(page: Any) -> list[tuple[int, int]]:
    """(seat, rank) of each row of the play's ranking, top to bottom."""
    rows = page.locator("#ranking li")
    return [
        (int(rows.nth(i).get_attribute("data-seat")), int(rows.nth(i).get_attribute("data-rank")))
        for i in range(rows.count())
    ]


def test_a_named_game_and_a_play_of_it_on_a_phone(
    live_server: Any, browser: Any, language: str
) -> None:
    make_user("alice")
    names = long_names(4)
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    # The named games page, from the menu.
    page.goto(f"{live_server.url}/board-games/")
    page.fill("#id_name", "Carcassonne: Hunters and Gatherers")
    page.fill("#id_bgg_id", "4390")
    page.check("#id_win_0")  # the highest score wins
    page.evaluate("document.activeElement.blur()")
    reads_on_a_phone(page, f"other-games-new-{language}")
    with page.expect_navigation():
        page.click("#board-game-new button[type=submit]")
    board_game = BoardGame.objects.get()
    assert (board_game.bgg_id, board_game.win) == (4390, "highest")
    reads_on_a_phone(page, f"other-game-{language}")
    # Record a play of it.
    with page.expect_navigation():
        page.click("#record-play")
    assert page.locator("#id_board_game").input_value() == str(board_game.pk)
    # Scores 31, 45, 45, 12: seats 1 and 2 tie for first; seat 2 is ticked, so seat 2 is
    # first, seat 1 second, seat 0 third and seat 3 fourth (O3).
    for seat, (name, score) in enumerate(zip(names, ["31", "45", "45", "12"], strict=True)):
        page.fill(f"#id_player_{seat}", name)
        page.fill(f"#id_score_{seat}", score)
    page.check("#id_winner_2")
    page.select_option("#id_first_player", "3")
    page.fill("#id_duration", "50")
    page.evaluate("document.activeElement.blur()")
    reads_on_a_phone(page, f"other-play-new-{language}")
    with page.expect_navigation():
        page.click("#play-save")
    assert ranking(page) == [(2, 1), (1, 2), (0, 3), (3, 4)]
    assert page.locator("#player-2 .badge.win").count() == 1
    assert page.locator("#play-duration").inner_text() == "50 min"
    assert page.locator("h1").inner_text().startswith("Carcassonne: Hunters and Gatherers")
    reads_on_a_phone(page, f"other-play-{language}")
    game = Game.objects.get()
    assert (game.mode, game.board_game_id, game.first_player) == ("result", board_game.pk, 3)
    # The named game's page lists the play.
    page.goto(f"{live_server.url}/board-games/{board_game.pk}/")
    assert page.locator(f'a[href="/games/{game.pk}/"]').count() == 1
    reads_on_a_phone(page, f"other-game-plays-{language}")


def test_a_refusal_comes_back_next_to_its_player(
    live_server: Any, browser: Any, language: str
) -> None:
    make_user("alice")
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/plays/new/")
    page.fill("#id_new_name", "Azul")
    page.fill("#id_player_0", "Ada")
    page.fill("#id_player_1", "Bea")
    page.fill("#id_score_0", "30")
    page.fill("#id_rank_0", "2")
    page.fill("#id_score_1", "20")
    with page.expect_navigation():
        page.click("#play-save")
    error = page.locator("#seat-0 .error")
    assert error.count() == 1 and "Ada" in error.inner_text()
    assert not Game.objects.exists() and not BoardGame.objects.exists()
    page.evaluate("document.activeElement.blur()")
    reads_on_a_phone(page, f"other-play-refused-{language}")
