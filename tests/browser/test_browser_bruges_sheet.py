"""Bruges by its final score sheet in a real headless Chromium at phone width (390 px), in each
language of the pages: four players with the longest names the service takes fill the sheet
(number boxes with a numeric keyboard, the persons by price, the statues ticked), the page reads
on a phone (no side scrolling, no word cut), and the finished game shows the totals, ranks and
winner worked out by hand from the rules."""

from __future__ import annotations

from typing import Any

import pytest

from games.records import services
from games.records.models import Game
from tests.accounts import make_user
from tests.browser.pages import LANGUAGES, sign_in, use_language
from tests.browser.test_browser_layout import long_names, reads_on_a_phone

# By hand (rules "End and scoring", B1 standard board, B3, B4, B7):
# seat 0, the rulebook's "Esempio di punteggio finale": persons 9, 3, 6, 0, 6 florins ->
#   3 + 1 + 2 + 0 + 2 = 8, 6 houses, 4 laurel points, 2 majority tiles 8, a canal's 3rd
#   space 3, step 6 = 7: 36, 3 florins;
# seat 1: track 21, a 12-florin person 4, 2 houses, the statue of 7, step 3 = 3: 37, 5 florins;
# seat 2: track 26, two 6-florin persons 4, 3 houses, the statue of 6, step 1 = 1: 40, 2 florins;
# seat 3: track 28, 4 houses, 1 majority tile 4, a canal's 3rd space 3, step 1 = 1: 40, 6
#   florins.
# Seats 2 and 3 tie on 40: seat 3 has more florins (B7). Ranks 4, 3, 2, 1; seat 3 wins.
SHEET: list[dict[str, Any]] = [
    {
        "track": 0,
        "p0": 1,
        "p3": 1,
        "p6": 2,
        "p9": 1,
        "houses": 6,
        "laurels": 4,
        "majorities": 2,
        "canals": 1,
        "step": 6,
        "florins": 3,
    },
    {"track": 21, "p12": 1, "houses": 2, "statues": [7], "step": 3, "florins": 5},
    {"track": 26, "p6": 2, "houses": 3, "statues": [6], "step": 1, "florins": 2},
    {"track": 28, "houses": 4, "majorities": 1, "canals": 1, "step": 1, "florins": 6},
]
SCORES = [36, 37, 40, 40]
RANKS = [4, 3, 2, 1]
STATUE_BOX = {7: 0, 6: 1, 5: 2, 4: 3, 3: 4, 2: 5}  # the boxes in pile order, top first


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> str:
    use_language(browser, live_server.url, request.param)
    return str(request.param)


@pytest.mark.django_db(transaction=True)
def test_a_score_sheet_filled_on_a_phone_scores_the_game(
    live_server: Any, browser: Any, language: str
) -> None:
    services.editions_ensure_builtin()
    make_user("alice")
    names = long_names(4)
    page = browser.new_page()
    base = live_server.url
    sign_in(page, base, "alice")
    page.goto(f"{base}/games/scorepad/bruges/")
    assert page.locator("#bruges-sheet").is_visible()
    reads_on_a_phone(page, f"bruges-sheet-empty-{language}")
    # A player's statues in one row of six boxes, the persons' five prices in one row.
    for selector in (".bsheet-statues .actions > *", ".bsheet-prices > *"):
        tops = page.evaluate(
            "s => [...document.querySelectorAll('#sheet-0 ' + s)]"
            ".map(e => Math.round(e.getBoundingClientRect().top))",
            selector,
        )
        assert len(tops) in (5, 6) and len(set(tops)) == 1, (selector, tops)
    for seat, name in enumerate(names):
        page.fill(f"#id_player_{seat}", name)
        for key, value in SHEET[seat].items():
            if key == "statues":
                for statue in value:
                    page.check(f"#id_s{seat}_statues_{STATUE_BOX[statue]}")
            else:
                box = page.locator(f"#id_s{seat}_{key}")
                assert box.get_attribute("inputmode") == "numeric"
                box.fill(str(value))
    assert page.locator("#sheet-3").is_visible()  # the fourth seat, once named
    reads_on_a_phone(page, f"bruges-sheet-filled-long-names-{language}")
    with page.expect_navigation():
        page.click('#scorepad button[type="submit"]')
    game = Game.objects.get()
    assert page.url.rstrip("/").endswith(f"/games/{game.pk}")
    ranking = page.locator("#ranking li")
    assert ranking.count() == 4
    assert [int(page.get_attribute(f"#player-{s}", "data-score")) for s in range(4)] == SCORES
    assert [int(page.get_attribute(f"#player-{s}", "data-rank")) for s in range(4)] == RANKS
    assert page.get_attribute("#ranking li:first-child", "data-seat") == "3"
    assert page.locator("#player-3 .badge.win").count() == 1
    assert page.locator(".badge.win").count() == 1
    assert page.get_attribute("#player-2", "data-tiebreak") == "florins"
    totals = [
        page.inner_text(f'#score-sheet td[data-seat="{s}"][data-key="total"]') for s in range(4)
    ]
    assert [int(t) for t in totals] == SCORES
    reads_on_a_phone(page, f"bruges-sheet-game-long-names-{language}")
    assert [(s.score, s.rank) for s in game.seats.order_by("seat")] == list(
        zip(SCORES, RANKS, strict=True)
    )


@pytest.mark.django_db(transaction=True)
def test_a_refused_sheet_reads_on_a_phone(live_server: Any, browser: Any) -> None:
    services.editions_ensure_builtin()
    make_user("alice")
    names = long_names(2)
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/scorepad/bruges/")
    for seat, name in enumerate(names):
        page.fill(f"#id_player_{seat}", name)
    page.check("#id_s1_statues_1")  # the statue of 6 while the 7 is on the pile (B3)
    with page.expect_navigation():
        page.click('#scorepad button[type="submit"]')
    error = page.locator("#sheet-1 .seat-error")
    assert error.count() == 1
    assert error.inner_text().startswith(f"{names[1]}: statues: the statue of 6 cannot be taken")
    reads_on_a_phone(page, "bruges-sheet-refused-long-names-en")
    assert not Game.objects.exists()
