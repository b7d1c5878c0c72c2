"""The web scorepad in a real headless Chromium (tests/browser/pages.py), driven by Playwright
against pytest-django's live server: a simulated 3-player Pot de Vin game entered round by round
through the pages, finished, and the scorepad on the finish page checked against the engine's
replay of the same log; an illegal card and undo; the other pages at phone width and the job
page's live progress. Complots and Bruges: test_web_browser_complots.py and
test_web_browser_bruges.py."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from games.records import services
from games.records.models import Game, Round
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate
from scoring.models import Job, JobItem
from tests.accounts import first_club, make_user
from tests.browser.pages import fits_phone, shoot, sign_in

SEED = 21  # the simulated game entered through the pages


def enter_round(page: Any, log_round: dict[str, Any], number: int) -> None:
    """Tap the trump card, then each seat's action in turn order, then save the round."""
    page.click(f'label[for="trump-{log_round["trump"]}"]')
    for i, play in enumerate(log_round["plays"]):
        page.wait_for_selector(f"#slot-{i}.current")  # the seat to act is highlighted
        choice = "pass" if play.get("pass") else play["card"]
        page.click(f'label[for="play{i}-{choice}"]')
    with page.expect_navigation():
        page.click("#save-round")
    confirm(page, number)
    assert f"Round {number} saved" in page.inner_text(".messages")


def confirm(page: Any, number: int) -> None:
    """The review before saving: the round in words, "Save" focused; saved with one tap."""
    page.wait_for_selector("#entry-review")
    assert page.inner_text("#h-review") == f"Round {number}: check it before saving"
    page.wait_for_function("document.activeElement.id === 'review-save'", timeout=3000)
    with page.expect_navigation():
        page.click("#review-save")


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_entered_through_the_pages_scores_like_the_engine(
    live_server: Any, browser: Any
) -> None:
    make_user("alice")
    log = simulate(3, seed=SEED, record_deal=False)
    expected = get_engine("pot-de-vin").replay(log)
    base = live_server.url
    page = browser.new_page()

    page.goto(f"{base}/")
    assert "/accounts/login/" in page.url  # every page needs a signed-in user
    shoot(page, "login")
    sign_in(page, base, "alice")

    page.get_by_role("link", name="New game").first.click()
    shoot(page, "game-choice")
    page.get_by_role("link", name="Pot de Vin").click()
    for seat, name in enumerate(log["players"]):
        page.get_by_label(f"Seat {seat + 1}", exact=True).fill(name)
    page.select_option("#id_first_player", str(log["first_player"]))
    assert (
        page.locator("#id_first_player option:checked")
        .inner_text()
        .endswith(log["players"][log["first_player"]])
    )
    shoot(page, "new-game")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    game = Game.objects.get()
    assert game.first_player == log["first_player"]

    for number, log_round in enumerate(log["rounds"], start=1):
        if number == 3:
            # Mid-entry: the trump and the first action chosen, the next seat highlighted.
            page.click(f'label[for="trump-{log_round["trump"]}"]')
            first = log_round["plays"][0]["card"]
            page.click(f'label[for="play0-{first}"]')
            shoot(page, "round-entry")
            # A reload keeps what was picked (static/js/keep.js); emptied, the round starts anew.
            page.reload()
            assert page.locator(f"#trump-{log_round['trump']}").is_checked()
            page.evaluate("sessionStorage.clear()")
            page.reload()
        enter_round(page, log_round, number)
        fits_phone(page)
    assert Round.objects.filter(game=game).count() == len(log["rounds"])

    assert page.get_by_role("heading", name="All rounds are played").is_visible()
    shoot(page, "game-over")
    with page.expect_navigation():
        page.get_by_role("button", name="Finish and score the game").click()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED

    for unit in expected["players"]:
        i = unit["seat"]
        total = page.inner_text(f'td[data-unit="{i}"][data-key="total"]')
        rank = page.inner_text(f'td[data-unit="{i}"][data-key="rank"]')
        assert (int(total), int(rank)) == (unit["score"], unit["rank"]), unit["name"]
        breakdown = unit["breakdown"]
        guilds = page.inner_text(f'td[data-unit="{i}"][data-key="guild_points"]')
        assert int(guilds) == breakdown["guild_points"]
        pot = page.inner_text(f'td[data-unit="{i}"][data-key="pot_de_vin"] .pts')
        assert int(pot) == breakdown["pot_de_vin"]["points"]
        gems = page.inner_text(f'td[data-unit="{i}"][data-key="gems"] .pts')
        assert int(gems) == breakdown["gems"]["points"]
        listed = page.locator(f"#unit-{i}")
        assert listed.get_attribute("data-score") == str(unit["score"])
        if unit["tiebreak"] in ("cards", "gems", "shared"):
            assert "Tied on" in listed.inner_text()
    shoot(page, "finish")


@pytest.mark.django_db(transaction=True)
def test_an_illegal_card_shows_the_engine_error_and_undo_works(
    live_server: Any, browser: Any
) -> None:
    user = make_user("alice")
    game = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(
            club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=user
        ),
        game_type="pot-de-vin",
        first_player=1,
    )
    first_round = {
        "trump": "E5",
        "plays": [{"seat": 1, "card": "A7"}, {"seat": 2, "pass": True}, {"seat": 0, "card": "A9"}],
    }
    services.round_append(game=game, round_data=first_round)
    base = live_server.url
    page = browser.new_page()
    sign_in(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")

    # Keyboard: arrows move along the trump cards, Enter moves on to the seat to act.
    page.focus("#trump-U1")
    page.keyboard.press("ArrowRight")
    assert page.is_checked("#trump-U2")
    page.keyboard.press("Enter")
    page.wait_for_selector("#slot-0.current")
    assert page.evaluate("document.activeElement.name") == "play_0"

    # A9 was played in round 1: the picker has it disabled. A page that did not know (opened
    # before another phone saved that round) would send it; the engine refuses it.
    page.click("#slot-trump .slot-toggle")  # "Change": the trump's picker opens again
    page.click('label[for="trump-U4"]')
    page.click('label[for="play0-P5"]')
    assert page.is_disabled("#play1-A9")
    page.evaluate(
        "(() => { const i = document.getElementById('play1-A9');"
        " i.removeAttribute('data-blocked'); i.disabled = false; })()"
    )
    page.click('label[for="play1-A9"]')
    page.click('label[for="play2-P8"]')
    with page.expect_navigation():
        page.click("#save-round")
    error = page.locator("#slot-1 .error")
    assert error.inner_text() == "Bea: A9 was already played."  # the player first, by name
    assert page.is_checked("#trump-U4") and page.is_checked("#play0-P5")  # input kept
    assert Round.objects.filter(game=game).count() == 1
    shoot(page, "round-error")

    with page.expect_navigation():
        page.click("#undo-round")
    # It asks first, naming the round; nothing is undone before its "Yes".
    assert page.inner_text("#h-confirm") == "Undo round 1?"
    assert Round.objects.filter(game=game).count() == 1
    with page.expect_navigation():
        page.click("#confirm-yes")
    assert "The last round was undone." in page.inner_text(".messages")
    assert Round.objects.filter(game=game).count() == 0
    assert page.inner_text("#slot-0 .slot-name") == "Bea"  # seat 1 starts again


@pytest.mark.django_db(transaction=True)
def test_other_pages_fit_a_phone_and_the_job_page_shows_live_progress(
    live_server: Any, browser: Any
) -> None:
    staff = make_user("carol", is_staff=True)
    services.game_import(
        club=first_club(),
        owner=staff,
        documents=[
            *(simulate(3, seed=s, record_deal=False) for s in range(1, 6)),
            complots_simulate(3, seed=36, variant="inquisitor"),  # Ada, Bea and Cy again
        ],
    )
    services.game_create(
        club=first_club(),
        owner=staff,
        players=services.players_resolve(
            club=first_club(), refs=["Ada", "Bea", "Cy", "Dev"], created_by=staff
        ),
        game_type="pot-de-vin",
        first_player=0,
        teams=[[0, 2], [1, 3]],
    )
    base = live_server.url
    page = browser.new_page()
    sign_in(page, base, "carol")
    shoot(page, "home")
    page.goto(f"{base}/games/scorepad/")
    shoot(page, "scorepad-entry")
    finished = Game.objects.filter(status=Game.Status.FINISHED, game_type="pot-de-vin").first()
    assert finished is not None
    page.goto(f"{base}/players/{finished.seats.get(seat=0).player_id}/")
    # Pot de Vin's rating and score charts; Complots' rating chart (it has no score).
    assert page.locator("#game-pot-de-vin svg.chart").count() == 2
    assert page.locator("#game-complots svg.chart").count() == 1
    shoot(page, "player")
    page.goto(f"{base}/decks/")
    shoot(page, "decks")
    page.goto(f"{base}/decks/new/?from=standard")
    shoot(page, "deck-new")

    # Two items, counted on the job as the batch that wrote them counts them.
    job = Job.objects.create(kind=Job.Kind.RESCORE, total=4, done=2, created_by=staff)
    JobItem.objects.bulk_create(JobItem(job=job, key=k, ok=True) for k in range(2))
    page.goto(f"{base}/jobs/rescore/{job.pk}/")
    assert page.get_attribute("#job-progress", "value") == "2"
    shoot(page, "rescore-job")
    # The page polls the API: the bar follows the job to its end without a reload.
    assert page.inner_text("#job-progressed") == "none yet"
    JobItem.objects.bulk_create(JobItem(job=job, key=k, ok=True) for k in range(2, 4))
    last_batch = dt.datetime(2026, 3, 1, 21, 7, 5, tzinfo=dt.UTC)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE, done=4, progressed_at=last_batch)
    page.wait_for_function("document.getElementById('job-status').textContent === 'done'")
    assert page.get_attribute("#job-progress", "value") == "4"
    assert page.inner_text("#job-count") == "4 of 4"
    assert page.inner_text("#job-progressed") == "21:07:05 UTC"
