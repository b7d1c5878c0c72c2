"""What is being entered survives a language switch, a club switch, a reload and Back
(static/js/keep.js), in a real headless Chromium at phone size: a new game's names across two
club switches, a Pot de Vin round's picks across a language switch (and never on another
game's round), the round's review sent again in another language; a half-filled Bruges score
sheet across a switch to Portuguese, its refusal showing what the server was sent (no draft
over it), then what was fixed on it kept across a switch back to English, and the game saved."""

from __future__ import annotations

from typing import Any

import pytest

from games.records import services
from games.records.models import Club, Game, Membership, Round
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from tests.accounts import first_club, make_user
from tests.browser.pages import sign_in
from tests.browser.test_browser_bruges_sheet import SCORES, SHEET, STATUE_BOX

BACK = "What you were entering is back."


def switch_language(page: Any, language: str) -> None:
    with page.expect_navigation():
        page.click(f'form.languages button[value="{language}"]')
    assert page.get_attribute("html", "lang") == language


def switch_club(page: Any, base: str, slug: str) -> None:
    page.select_option("#club-switch", slug)
    with page.expect_navigation():
        page.click('form.club-switch button[type="submit"]')
    assert page.url == f"{base}/"


def is_back(page: Any) -> None:
    """The page says the entry is back, in its language (a polite live region)."""
    assert page.get_attribute("#keep-note", "role") == "status"
    page.wait_for_function(
        "text => document.getElementById('keep-note').textContent === gettext(text)", arg=BACK
    )


def pick(page: Any, slot: int, choice: str) -> None:
    page.wait_for_selector(f"#slot-{slot}.current")
    page.click(f'label[for="play{slot}-{choice}"]')


@pytest.mark.django_db(transaction=True)
def test_a_new_game_and_a_round_survive_club_and_language_switches(
    live_server: Any, chromium: Any
) -> None:
    user = make_user("alice")
    bravo = Club.objects.create(name="Bravo", slug="bravo")
    Membership.objects.create(club=bravo, user=user, role=Membership.Role.RECORDER)
    log = potdevin_simulate(3, seed=21, record_deal=False)
    # Another game of the club, its round 1 open too.
    other = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(
            club=first_club(), refs=["Xavier", "Yves", "Zoe"], created_by=user
        ),
        game_type="pot-de-vin",
        first_player=0,
    )
    base = live_server.url
    page = chromium("en-US").new_page()
    sign_in(page, base, "alice")
    home = page.input_value("#club-switch")
    away = "bravo" if home != "bravo" else first_club().slug

    # The new game's names, typed, then the club switched: not on the other club's form, back
    # on this club's.
    new_game = f"{base}/games/new/pot-de-vin/"
    page.goto(new_game)
    for seat, name in enumerate(log["players"]):
        page.fill(f"#id_player_{seat}", name)
    page.select_option("#id_first_player", str(log["first_player"]))
    switch_club(page, base, away)
    page.goto(new_game)
    assert page.input_value("#id_player_0") == ""
    assert page.locator("#keep-note").count() == 0
    switch_club(page, base, home)
    page.goto(new_game)
    assert [page.input_value(f"#id_player_{s}") for s in range(3)] == log["players"]
    assert page.input_value("#id_first_player") == str(log["first_player"])
    first = log["players"][log["first_player"]]
    assert page.locator("#id_first_player option:checked").inner_text().endswith(first)
    is_back(page)
    with page.expect_navigation():
        page.click('#new-game button[type="submit"]')
    game = Game.objects.exclude(pk=other.pk).get()

    # The round's picks: not on the other game's round 1, back on this one's.
    log_round = log["rounds"][0]
    plays = ["pass" if p.get("pass") else p["card"] for p in log_round["plays"]]
    page.click(f'label[for="trump-{log_round["trump"]}"]')
    pick(page, 0, plays[0])
    pick(page, 1, plays[1])
    page.goto(f"{base}/games/{other.pk}/")
    assert page.locator("#round-entry input:checked").count() == 0
    assert page.locator("#keep-note").count() == 0
    page.goto(f"{base}/games/{game.pk}/")
    is_back(page)

    # Switched to Italian: the picks still there, the page in Italian, the next seat to act.
    switch_language(page, "it")
    is_back(page)
    assert page.is_checked(f"#trump-{log_round['trump']}")
    for slot in (0, 1):
        assert page.is_checked(f"#play{slot}-{plays[slot]}")
        shown = page.inner_text(f"#slot-{slot} .slot-choice")
        assert shown == ("passa" if plays[slot] == "pass" else plays[slot]), shown
    assert page.inner_text("#round-entry h2") == "Round 1"
    assert page.inner_text("#save-round") == "Rivedi il round 1"
    pick(page, 2, plays[2])
    with page.expect_navigation():
        page.click("#save-round")
    assert page.inner_text("#h-review") == "Round 1: controllalo prima di salvarlo"

    # The review (the server's answer to the form) in English: the round sent again.
    switch_language(page, "en")
    assert page.inner_text("#h-review") == "Round 1: check it before saving"
    assert page.url == f"{base}/games/{game.pk}/rounds/"
    with page.expect_navigation():
        page.click("#review-save")
    assert "Round 1 saved" in page.inner_text(".messages")
    assert Round.objects.filter(game=game).count() == 1
    assert page.locator("#h-rounds").count() == 1
    assert page.locator("ol.rounds li").count() == 1
    # Saved: round 2's form empty, nothing said.
    assert page.locator("#round-entry input:checked").count() == 0
    assert page.locator("#keep-note").count() == 0


def fill_seat(page: Any, seat: int, name: str) -> None:
    page.fill(f"#id_player_{seat}", name)
    for key, value in SHEET[seat].items():
        if key == "statues":
            for statue in value:
                page.check(f"#id_s{seat}_statues_{STATUE_BOX[statue]}")
        else:
            page.fill(f"#id_s{seat}_{key}", str(value))


@pytest.mark.django_db(transaction=True)
def test_a_bruges_score_sheet_survives_language_switches_and_a_refusal(
    live_server: Any, chromium: Any
) -> None:
    services.editions_ensure_builtin()
    make_user("alice")
    names = ["Ada", "Bea", "Cid", "Dan"]
    base = live_server.url
    page = chromium("en-US").new_page()
    sign_in(page, base, "alice")
    page.goto(f"{base}/games/scorepad/bruges/")
    fill_seat(page, 0, names[0])
    fill_seat(page, 1, names[1])

    # Half filled, switched to Portuguese: every box as it was typed.
    switch_language(page, "pt-br")
    is_back(page)
    for seat in (0, 1):
        assert page.input_value(f"#id_player_{seat}") == names[seat]
        for key, value in SHEET[seat].items():
            if key != "statues":
                assert page.input_value(f"#id_s{seat}_{key}") == str(value), (seat, key)
    assert page.is_checked(f"#id_s1_statues_{STATUE_BOX[7]}")
    assert not page.is_checked(f"#id_s0_statues_{STATUE_BOX[7]}")
    fill_seat(page, 2, names[2])
    fill_seat(page, 3, names[3])

    # Refused (more majority tiles than there are): the page shows what the server was sent,
    # not the draft (the laurels changed without a keystroke after the draft was kept).
    page.fill("#id_s3_majorities", "9")
    page.evaluate("document.getElementById('id_s0_laurels').value = '5'")
    with page.expect_navigation():
        page.click('#scorepad button[type="submit"]')
    assert not Game.objects.exists()
    assert page.locator("#sheet-3 .has-error, #sheet-3 .seat-error, #sheet-3 .error").count()
    assert page.input_value("#id_s0_laurels") == "5"
    assert page.input_value("#id_s3_majorities") == "9"
    assert page.locator("#keep-note").count() == 0

    # Fixed on the refusal's page, then switched to English: the refusal sent again, what was
    # fixed on it back.
    page.fill("#id_s3_majorities", str(SHEET[3]["majorities"]))
    page.fill("#id_s0_laurels", str(SHEET[0]["laurels"]))
    switch_language(page, "en")
    is_back(page)
    assert page.url == f"{base}/games/scorepad/bruges/"
    assert page.input_value("#id_s3_majorities") == str(SHEET[3]["majorities"])
    assert page.input_value("#id_s0_laurels") == str(SHEET[0]["laurels"])
    with page.expect_navigation():
        page.click('#scorepad button[type="submit"]')
    game = Game.objects.get()
    assert page.url.rstrip("/").endswith(f"/games/{game.pk}")
    assert [s.score for s in game.seats.order_by("seat")] == SCORES
