"""The review before saving, in a real headless Chromium with the pages' scripts: a Complots turn
and a Pot de Vin round are shown in words with "Save" focused; "Change" brings the entry back
with everything kept; nothing is stored before "Save", and what is stored replays like the
engine's log."""

from __future__ import annotations

from typing import Any

import pytest

from games.records import services
from games.records.models import Game, Round
from scoring.engine import get_engine
from tests.accounts import first_club, make_user
from tests.browser.pages import fits_phone, shoot, sign_in

NAMES = ["Ada", "Bea", "Cy"]


def _game(game_type: str, **kw: Any) -> Game:
    user = make_user("alice")
    return services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=NAMES, created_by=user),
        game_type=game_type,
        **kw,
    )


def _lines(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("#review-lines li").all_inner_texts()]


@pytest.mark.django_db(transaction=True)
def test_a_complots_turn_is_reviewed_changed_and_saved(live_server: Any, browser: Any) -> None:
    game = _game("complots", first_player=0, variant="ambassador")
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # Ada claims the duchess; Bea challenges and loses: she turns up a captain.
    page.click('label[for="action-duchess"]')
    with page.expect_navigation():
        page.click("#turn-next")
    page.click('label[for="challenge_by-1"]')
    page.click('label[for="challenge_truthful-yes"]')
    assert page.input_value("#id_loss_0_seat") == "1"  # filled in by the script
    page.select_option("#id_loss_0_card", "captain")
    with page.expect_navigation():
        page.click("#save-turn")

    page.wait_for_function("document.activeElement.id === 'review-save'")
    assert _lines(page) == [
        "Ada: Duchess. Bea turned up Captain.",
        "Bea challenged: the claim was true.",
    ]
    assert page.inner_text("#review-after") == (
        "After it: Ada 5 coins, 2 influences; Bea 2 coins, 1 influence."
    )
    assert not Round.objects.filter(game=game).exists()  # nothing stored before "Save"
    shoot(page, "complots-turn-review")

    with page.expect_navigation():
        page.click("#review-change")
    assert page.is_checked("#challenge_by-1") and page.is_checked("#challenge_truthful-yes")
    assert page.input_value("#id_loss_0_card") == "captain"
    assert not Round.objects.filter(game=game).exists()
    # A slip corrected: it was Cy who challenged, and turned up a countess.
    page.click('label[for="challenge_by-2"]')
    # Rows sent back with their cards are left as they were: the person corrects them.
    assert page.input_value("#id_loss_0_seat") == "1"
    page.select_option("#id_loss_0_seat", "2")
    page.select_option("#id_loss_0_card", "countess")
    with page.expect_navigation():
        page.click("#save-turn")
    assert _lines(page)[0] == "Ada: Duchess. Cy turned up Countess."
    with page.expect_navigation():
        page.click("#review-save")
    assert "Turn 1 saved" in page.inner_text(".messages")
    fits_phone(page)

    turn = {
        "actor": 0,
        "action": "duchess",
        "challenge": {"by": 2, "truthful": True},
        "losses": [{"seat": 2, "card": "countess"}],
    }
    assert [r.data for r in Round.objects.filter(game=game)] == [turn]
    log = {
        "format": "complots-log/1",
        "players": NAMES,
        "variant": "ambassador",
        "first_player": 0,
        "turns": [turn],
    }
    game.refresh_from_db()
    assert game.result == get_engine("complots").replay(log)


@pytest.mark.django_db(transaction=True)
def test_a_pot_de_vin_round_is_reviewed_changed_and_saved(live_server: Any, browser: Any) -> None:
    services.editions_ensure_builtin()
    game = _game("pot-de-vin", first_player=1)
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click('label[for="trump-E5"]')
    page.click('label[for="play0-A7"]')
    page.click('label[for="play1-pass"]')
    page.click('label[for="play2-A10"]')  # a slip: Ada played the A9
    page.keyboard.press("Enter")  # Enter on the last card sends the round: to its review
    page.wait_for_selector("#entry-review")
    page.wait_for_function("document.activeElement.id === 'review-save'")
    assert _lines(page) == [
        "Trump revealed: E5 (Enzo is trump).",
        "Bea leads A7.",
        "Cy passes and pays a gem.",
        "Ada plays A10.",
    ]
    assert not Round.objects.filter(game=game).exists()
    shoot(page, "round-review")

    with page.expect_navigation():
        page.click("#review-change")
    assert page.is_checked("#trump-E5") and page.is_checked("#play0-A7")
    assert page.is_checked("#play1-pass") and page.is_checked("#play2-A10")
    page.click("#slot-2 .slot-toggle")
    page.click('label[for="play2-A9"]')
    with page.expect_navigation():
        page.click("#save-round")
    assert _lines(page)[-1] == "Ada plays A9."
    assert page.inner_text("#review-after") == "Ada wins the round with A9: 3 cards and 1 gem."
    with page.expect_navigation():
        page.click("#review-save")
    assert "Round 1 saved: Ada wins it with A9." in page.inner_text(".messages")

    first = {
        "trump": "E5",
        "plays": [{"seat": 1, "card": "A7"}, {"seat": 2, "pass": True}, {"seat": 0, "card": "A9"}],
    }
    assert [r.data for r in Round.objects.filter(game=game)] == [first]
    log = {"format": "potdevin-log/1", "players": NAMES, "first_player": 1, "rounds": [first]}
    game.refresh_from_db()
    assert game.result == get_engine("pot-de-vin").replay(log)
