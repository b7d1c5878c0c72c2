"""The web scorepad in a real headless Chromium (Debian's `chromium`, installed by `make
browser`), driven by Playwright against pytest-django's live server.

A simulated 3-player Pot de Vin game is entered round by round through the pages, finished, and
the scorepad on the finish page is checked against the engine's replay of the same log; a
simulated Complots game is entered turn by turn (the loss rows left for the page to fill in with
the seats the rules require), finished, and its ranking and K4 counts checked the same way.
Screenshots of the main pages at phone (390x844) and desktop (1280x800) widths go to
artifacts/.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from games import services
from games.models import Game, Round
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate
from scoring.models import Job, JobItem
from tests.accounts import PASSWORD, make_user

CHROMIUM = os.environ.get("POTDEVIN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SEED = 21  # the simulated game entered through the pages


@pytest.fixture
def browser(
    skip_or_fail: Callable[[str], None], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> Iterator[Any]:
    """A Chromium context with a fresh profile, at phone size. Fails in CI when Chromium or
    Playwright is missing (POTDEVIN_REQUIRE_SERVICES=1), skips elsewhere."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("Playwright is not installed (pip install -e '.[dev]')")
    if not Path(CHROMIUM).exists():
        skip_or_fail(f"Chromium not found at {CHROMIUM} (make browser installs it)")
    # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
    # still plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport=PHONE,
        )
        context.set_default_timeout(15_000)
        try:
            yield context
        finally:
            context.close()
            # The ORM calls made while Playwright's loop ran have connections of their own
            # (Django keeps connections per async context): close them, or the test database
            # cannot be dropped.
            connections.close_all()


def sign_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")


def fits_phone(page: Any) -> None:
    """No horizontal scrolling at 390 px."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} is {width} px wide"


def shoot(page: Any, name: str, *, desktop: bool = True) -> None:
    """Screenshots of the current page at phone width (checked to fit) and desktop width."""
    page.set_viewport_size(PHONE)
    fits_phone(page)
    page.screenshot(path=str(ARTIFACTS / f"{name}-390.png"), full_page=True)
    if desktop:
        page.set_viewport_size(DESKTOP)
        page.screenshot(path=str(ARTIFACTS / f"{name}-1280.png"), full_page=True)
        page.set_viewport_size(PHONE)


def enter_round(page: Any, log_round: dict[str, Any], number: int) -> None:
    """Tap the trump card, then each seat's action in turn order, then save the round."""
    page.click(f'label[for="trump-{log_round["trump"]}"]')
    for i, play in enumerate(log_round["plays"]):
        page.wait_for_selector(f"#slot-{i}.current")  # the seat to act is highlighted
        choice = "pass" if play.get("pass") else play["card"]
        page.click(f'label[for="play{i}-{choice}"]')
    with page.expect_navigation():
        page.click("#save-round")
    assert f"Round {number} saved" in page.inner_text(".messages")


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
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
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
        owner=user,
        players=services.players_resolve(["Ada", "Bea", "Cy"], created_by=user),
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
    assert error.inner_text() == "A9 was already played"
    assert page.is_checked("#trump-U4") and page.is_checked("#play0-P5")  # input kept
    assert Round.objects.filter(game=game).count() == 1
    shoot(page, "round-error")

    with page.expect_navigation():
        page.click("#undo-round")
    assert "The last round was undone." in page.inner_text(".messages")
    assert Round.objects.filter(game=game).count() == 0
    assert page.inner_text("#slot-0 .slot-name") == "Bea"  # seat 1 starts again


@pytest.mark.django_db(transaction=True)
def test_other_pages_fit_a_phone_and_the_job_page_shows_live_progress(
    live_server: Any, browser: Any
) -> None:
    staff = make_user("carol", is_staff=True)
    services.game_import(
        owner=staff,
        documents=[
            *(simulate(3, seed=s, record_deal=False) for s in range(1, 6)),
            complots_simulate(3, seed=36, variant="inquisitor"),  # Ada, Bea and Cy again
        ],
    )
    services.game_create(
        owner=staff,
        players=services.players_resolve(["Ada", "Bea", "Cy", "Dev"], created_by=staff),
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

    job = Job.objects.create(kind=Job.Kind.RESCORE, total=4, created_by=staff)
    JobItem.objects.bulk_create(JobItem(job=job, key=k, ok=True) for k in range(2))
    page.goto(f"{base}/jobs/rescore/{job.pk}/")
    assert page.get_attribute("#job-progress", "value") == "2"
    shoot(page, "rescore-job")
    # The page polls the API: the bar follows the job to its end without a reload.
    assert page.inner_text("#job-progressed") == "none yet"
    JobItem.objects.bulk_create(JobItem(job=job, key=k, ok=True) for k in range(2, 4))
    last_batch = dt.datetime(2026, 3, 1, 21, 7, 5, tzinfo=dt.UTC)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.DONE, progressed_at=last_batch)
    page.wait_for_function("document.getElementById('job-status').textContent === 'done'")
    assert page.get_attribute("#job-progress", "value") == "4"
    assert page.inner_text("#job-count") == "4 of 4"
    assert page.inner_text("#job-progressed") == "21:07:05 UTC"


# Simulated Complots games entered through the pages: 4 players with a challenged block and two
# players out in one turn; 5 inquisitor players with inquiries and another double elimination.
COMPLOTS_GAMES = [(4, 31, "ambassador"), (5, 4, "inquisitor")]


def pick(page: Any, field: str, value: Any) -> None:
    """Tap a choice of the turn entry (a radio button and its label)."""
    page.click(f'label[for="{field}-{value}"]')


def enter_turn(
    page: Any, turn: dict[str, Any], number: int, *, shots: bool = False, ask: bool = False
) -> None:
    """Enter one turn as at the table: the action and target, then (if the action has more)
    the challenge, the block and its challenge. The script fills the loss rows with the seats
    the rules require as the answers come (which must be the log's seats, in order); only the
    cards are chosen. With ``ask``, the turn is saved with no card first: the page comes back
    asking for the card of each of those seats."""
    page.wait_for_selector("#seats-table tr.current")  # the seat to act is highlighted
    assert page.get_attribute("#seats-table tr.current", "data-seat") == str(turn["actor"])
    pick(page, "action", turn["action"])
    if turn.get("target") is not None:
        pick(page, "target", turn["target"])
    if shots:
        shoot(page, "complots-turn-action")
    with page.expect_navigation():
        page.click("#turn-next")
    if page.locator("#save-turn").count():
        challenge = turn.get("challenge")
        if challenge:
            pick(page, "challenge_by", challenge["by"])
            pick(page, "challenge_truthful", "yes" if challenge["truthful"] else "no")
        block = turn.get("block")
        if block:
            pick(page, "block_by", block["by"])
            pick(page, "block_as", block["as"])
            inner = block.get("challenge")
            if inner:
                pick(page, "block_challenge_by", inner["by"])
                pick(page, "block_challenge_truthful", "yes" if inner["truthful"] else "no")
        if turn.get("forced_swap"):
            page.check("#id_forced_swap")
        losses = turn.get("losses") or []
        seats = [str(loss["seat"]) for loss in losses]
        filled = [page.input_value(f"#id_loss_{i}_seat") for i in range(3)]
        assert filled == seats + [""] * (3 - len(seats)), (number, filled)
        if shots:
            shoot(page, "complots-turn-details")
        if losses and ask:
            with page.expect_navigation():
                page.click("#save-turn")
            for i, seat in enumerate(seats):  # the page asks which card each seat turned up
                assert page.input_value(f"#id_loss_{i}_seat") == seat, (number, i)
                assert page.locator(f"#loss_{i}_card-error").is_visible()
            if shots:
                shoot(page, "complots-turn-losses")
        for i, loss in enumerate(losses):
            page.select_option(f"#id_loss_{i}_card", loss["card"])
        with page.expect_navigation():
            page.click("#save-turn")
    assert f"Turn {number} saved" in page.inner_text(".messages"), page.inner_text("main")[:2000]


@pytest.mark.parametrize(("players", "seed", "variant"), COMPLOTS_GAMES)
@pytest.mark.django_db(transaction=True)
def test_a_whole_complots_game_entered_through_the_pages_ranks_like_the_engine(
    live_server: Any, browser: Any, players: int, seed: int, variant: str
) -> None:
    make_user("alice")
    log = complots_simulate(players, seed=seed, variant=variant)
    expected = get_engine("complots").replay(log)
    base = live_server.url
    page = browser.new_page()
    sign_in(page, base, "alice")

    page.get_by_role("link", name="New game").first.click()
    page.get_by_role("link", name="Complots").click()
    for seat, name in enumerate(log["players"]):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.select_option("#id_first_player", str(log["first_player"]))
    page.check(f"#id_variant_{['ambassador', 'inquisitor'].index(variant)}")
    shots = variant == "ambassador"  # screenshots of one of the games
    if shots:
        shoot(page, "complots-new-game")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    game = Game.objects.get()
    assert (game.game_type, game.variant) == ("complots", variant)

    challenged = [n for n, t in enumerate(log["turns"], start=1) if t.get("challenge")]
    first = challenged[0] if challenged else 0
    for number, turn in enumerate(log["turns"], start=1):
        enter_turn(page, turn, number, shots=shots and number == first, ask=number == first)
        fits_phone(page)
    assert Round.objects.filter(game=game).count() == len(log["turns"])

    # The last turn undone, then entered again.
    with page.expect_navigation():
        page.click("#undo-round")
    assert "The last turn was undone." in page.inner_text(".messages")
    assert Round.objects.filter(game=game).count() == len(log["turns"]) - 1
    enter_turn(page, log["turns"][-1], len(log["turns"]))

    winner = log["players"][expected["winners"][0]]
    assert page.get_by_role("heading", name=f"{winner} wins: one player is left").is_visible()
    if shots:
        shoot(page, "complots-game-over")
    with page.expect_navigation():
        page.get_by_role("button", name="Finish the game").click()
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result == expected

    wording = get_engine("complots").info.tiebreak_wording
    ranked = page.locator("#ranking li")
    by_rank = sorted(expected["players"], key=lambda p: (p["rank"], p["seat"]))
    assert ranked.count() == len(by_rank)
    for i, p in enumerate(by_rank):
        item = ranked.nth(i)
        assert item.get_attribute("data-seat") == str(p["seat"])
        assert item.get_attribute("data-rank") == str(p["rank"])
        if p["tiebreak"]:
            assert wording[p["tiebreak"]] in item.inner_text()
        for stat in get_engine("complots").info.stats:
            cell = page.inner_text(
                f'#counts-table td[data-seat="{p["seat"]}"][data-key="{stat.name}"]'
            )
            assert int(cell) == p[stat.name], (p["name"], stat.name)
    if shots:
        shoot(page, "complots-finish")


@pytest.mark.django_db(transaction=True)
def test_a_refused_complots_turn_shows_the_engine_error_beside_its_field(
    live_server: Any, browser: Any
) -> None:
    user = make_user("alice")
    game = services.game_create(
        owner=user,
        players=services.players_resolve(["Ada", "Bea", "Cy"], created_by=user),
        game_type="complots",
        first_player=0,
        variant="inquisitor",
    )
    base = live_server.url
    page = browser.new_page()
    sign_in(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    # Ada claims the duchess; Bea challenges, it was a bluff; Ada turns up... a duchess.
    pick(page, "action", "duchess")
    with page.expect_navigation():
        page.click("#turn-next")
    pick(page, "challenge_by", 1)
    pick(page, "challenge_truthful", "no")
    page.select_option("#id_loss_0_seat", "0")
    page.select_option("#id_loss_0_card", "duchess")
    with page.expect_navigation():
        page.click("#save-turn")
    error = page.locator("#loss_0_card-error")
    assert "cannot turn one up" in error.inner_text()
    assert page.is_checked("#challenge_by-1") and page.is_checked("#challenge_truthful-no")
    assert Round.objects.filter(game=game).count() == 0
    shoot(page, "complots-turn-error")
    page.select_option("#id_loss_0_card", "captain")
    with page.expect_navigation():
        page.click("#save-turn")
    assert "Turn 1 saved" in page.inner_text(".messages")
    assert Round.objects.filter(game=game).count() == 1


# --- Bruges ------------------------------------------------------------------------------------
# A simulated 3-player Bruges game (seed 62: hires, arrow and worker effects, an infinity
# person's effect in another seat's turn, automatic effects, prestige): rounds 1 and 2 entered
# by tapping through the round entry's steps, the other rounds stored through the services (a
# whole game by taps takes minutes), then finished with the laurel points typed on the page.
BRUGES_SEED = 62
BRUGES_CLICKED = 2


def tap(page: Any, field: str, value: Any) -> None:
    """Tap a choice of the Bruges entry (a radio button and its label)."""
    page.click(f'label[for="{field}-{str(value).replace(":", "-")}"]')


def fill_gain(page: Any, gain: dict[str, Any]) -> None:
    for key in ("florins", "points", "prestige", "plays"):
        if key in gain:
            page.fill(f"#id_g_{key}", str(gain[key]))
    for color, value in (gain.get("workers") or {}).items():
        page.fill(f"#id_g_w_{color}", str(value))
    for color, value in (gain.get("threats") or {}).items():
        page.fill(f"#id_g_t_{color}", str(value))


def penalty_value(entry: dict[str, Any]) -> str:
    for key in ("person", "house", "section"):
        if entry.get(key) is not None:
            return f"{key}:{entry[key]}"
    return ""


def submit(page: Any, selector: str) -> None:
    with page.expect_navigation():
        page.click(selector)
    assert not page.locator("#bruges-entry .error").count(), page.inner_text("#bruges-entry")


def enter_bruges_round(page: Any, log_round: dict[str, Any], number: int, shots: bool) -> None:
    """Enter one round as at the table: tap the dice, the penalty choices and who climbs (and
    any automatic effect), then each turn: the card, the action, the person hired, an effect
    from the person who caused it."""
    for color, value in log_round["dice"].items():
        tap(page, f"dice_{color}", value)
    if shots:
        shoot(page, "bruges-dice")
    submit(page, "#dice-next")
    for entry in log_round.get("penalties") or []:
        field = f"pen_{entry['seat']}_{entry['color']}"
        if page.locator(f'input[type="radio"][name="{field}"]').count():  # asked: a choice
            tap(page, field, penalty_value(entry))
    for seat in log_round.get("prestige") or []:
        page.check(f"#id_climb_{seat}")
    for entry in log_round.get("upkeep") or []:
        if "effect" not in entry:
            continue  # the penalty an effect triggers follows by itself (none needs a choice)
        if not page.is_visible("#id_u_person"):
            page.click("#f-upkeep summary")
        page.select_option("#id_u_person", f"{entry['seat']}:{entry['effect']}")
        tap(page, "u_at", entry.get("at") or "dice")
        fill_gain(page, entry.get("gain") or {})
        submit(page, "#upkeep-add")
        for seat in log_round.get("prestige") or []:
            assert page.is_checked(f"#id_climb_{seat}")  # what was ticked is kept
    if shots:
        shoot(page, "bruges-threats-prestige")
    submit(page, "#phase2-next")
    for turn in log_round["turns"]:
        assert page.get_attribute("#turn-head", "data-seat") == str(turn["seat"])
        assert page.get_attribute("#seats-table tr.current", "data-seat") == str(turn["seat"])
        if turn.get("pass"):
            submit(page, "#pass-turn")
            continue
        # A card and the effect right after it are sent together; the rest one by one.
        groups: list[list[dict[str, Any]]] = []
        for step in turn["steps"]:
            if "effect" in step and groups and "card" in groups[-1][-1]:
                groups[-1].append(step)
            else:
                groups.append([step])
        for g, group in enumerate(groups):
            last = g == len(groups) - 1
            if "penalty" in group[0]:
                if page.locator("#f-turn-penalty").count():
                    tap(page, "t_choice", penalty_value(group[0]["penalty"]))
                    submit(page, "#penalty-next")
                if last:
                    submit(page, "#save-turn")
                continue
            for step in group:
                if "card" in step:
                    tap(page, "card", step["card"])
                    action = step["action"]
                    if action == "canal":
                        action = f"canal:{step['section']}"
                    elif action == "person":
                        action = f"person:{step['house']}"
                    tap(page, "action", action)
                    if step["action"] == "person":
                        given = step["person"]
                        if isinstance(given, str):
                            page.select_option("#id_p_back", given)
                        else:
                            page.fill("#id_p_name", given["name"])
                            page.select_option("#id_p_price", str(given["price"]))
                            page.select_option("#id_p_group", given["group"])
                            page.select_option("#id_p_icon", given["icon"])
                            if given["icon"] == "worker":
                                page.select_option("#id_p_worker", given["worker"])
                else:
                    if not page.is_visible("#id_e_person"):
                        page.click("#f-effect summary")
                    who = (
                        step["effect"] if "seat" not in step else f"{step['seat']}:{step['effect']}"
                    )
                    page.select_option("#id_e_person", who)
                    fill_gain(page, step.get("gain") or {})
            if shots and number == 1 and any(s.get("action") == "person" for s in group):
                shoot(page, "bruges-turn-person")
                shots = False
            submit(page, "#save-turn" if last else "#turn-more")
    assert f"Round {number} saved" in page.inner_text(".messages"), page.inner_text("main")[:3000]


@pytest.mark.django_db(transaction=True)
def test_a_bruges_game_entered_through_the_pages_scores_like_the_engine(
    live_server: Any, browser: Any
) -> None:
    from scoring.engine.bruges.simulate import simulate as bruges_simulate

    services.editions_ensure_builtin()
    owner = make_user("alice")
    log = bruges_simulate(3, seed=BRUGES_SEED)
    engine = get_engine("bruges")
    expected = engine.replay(log)
    base = live_server.url
    page = browser.new_page()
    sign_in(page, base, "alice")

    page.get_by_role("link", name="New game").first.click()
    page.get_by_role("link", name="Bruges", exact=True).click()
    for seat, name in enumerate(log["players"]):
        page.get_by_label(f"Seat {seat}", exact=True).fill(name)
    page.select_option("#id_first_player", str(log["first_player"]))
    shoot(page, "bruges-new-game")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    game = Game.objects.get()
    assert game.game_type == "bruges" and game.owner == owner

    for number, log_round in enumerate(log["rounds"][:BRUGES_CLICKED], start=1):
        enter_bruges_round(page, log_round, number, shots=number == 1)
        fits_phone(page)
        partial = engine.replay({**log, "rounds": log["rounds"][:number], "final": None})
        game.refresh_from_db()
        assert game.result == partial, number
        for p in partial["players"]:
            row = f'#seats-table tr[data-seat="{p["seat"]}"]'
            assert page.inner_text(f'{row} td[data-key="florins"]') == str(p["florins"])
            assert page.inner_text(f'{row} td[data-key="step"]') == str(p["step"])
            for color, count in p["workers"].items():
                assert page.inner_text(f'{row} [data-key="workers-{color}"]') == str(count)
            for color, count in p["threats"].items():
                tokens = page.get_attribute(f'{row} [data-key="threats-{color}"]', "data-count")
                assert tokens == str(count)
    shoot(page, "bruges-after-round")
    for number, log_round in enumerate(log["rounds"], start=1):
        if number > BRUGES_CLICKED:
            services.round_append(game=game, round_data=log_round, number=number)
    page.reload()
    assert page.get_by_role(
        "heading", name=f"Was round {len(log['rounds'])} the last?"
    ).is_visible()
    for item in log["final"]["laurels"]:
        page.fill(f"#id_laurel_{item['seat']}_{item['person']}", str(item["points"]))
    shoot(page, "bruges-finish-laurels")
    with page.expect_navigation():
        page.click("#finish-game")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result == expected

    ranked = page.locator("#ranking li")
    by_rank = sorted(expected["players"], key=lambda p: (p["rank"], p["seat"]))
    assert ranked.count() == len(by_rank)
    for i, p in enumerate(by_rank):
        item = ranked.nth(i)
        assert item.get_attribute("data-seat") == str(p["seat"])
        assert item.get_attribute("data-score") == str(p["score"])
        seat = p["seat"]
        for key, points in p["breakdown"].items():
            cell = page.inner_text(f'#score-sheet td[data-seat="{seat}"][data-key="{key}"] .pts')
            assert int(cell) == points, (p["name"], key)
        total = page.inner_text(f'#score-sheet td[data-seat="{seat}"][data-key="total"]')
        assert int(total) == p["score"]
        if p["tiebreak"]:
            assert "Tied on" in item.inner_text()
    assert "edition not verified" in page.inner_text("#h-score")
    shoot(page, "bruges-finish")


@pytest.mark.django_db(transaction=True)
def test_a_refused_bruges_turn_and_the_edition_pages(live_server: Any, browser: Any) -> None:
    services.editions_ensure_builtin()
    staff = make_user("carol", is_staff=True)
    game = services.game_create(
        owner=staff,
        players=services.players_resolve(["Ada", "Bea"], created_by=staff),
        game_type="bruges",
        first_player=0,
    )
    base = live_server.url
    page = browser.new_page()
    sign_in(page, base, "carol")
    page.goto(f"{base}/games/{game.pk}/")
    for color, value in {"blue": 2, "brown": 5, "red": 1, "purple": 4, "yellow": 6}.items():
        tap(page, f"dice_{color}", value)
    submit(page, "#dice-next")
    page.check("#id_climb_1")
    submit(page, "#phase2-next")
    # The script offers the threat action only with a brown or yellow card; a page that did not
    # know sends a red one, and the engine refuses it beside the action.
    tap(page, "card", "red")
    assert page.is_disabled("#action-threat")
    page.evaluate(
        "(() => { const i = document.getElementById('action-threat');"
        " i.removeAttribute('data-colors'); i.disabled = false; })()"
    )
    tap(page, "action", "threat")
    with page.expect_navigation():
        page.click("#save-turn")
    error = page.locator("#action-error")
    assert "no_threat_token · round 1 · turn 1 · Ada" in error.inner_text()
    assert page.is_checked("#card-red")  # what was typed is kept
    assert Round.objects.filter(game=game).count() == 0
    shoot(page, "bruges-turn-error")
    # A hire: the person's fields show once a person action is chosen (a house first).
    tap(page, "card", "red")
    tap(page, "action", "house")
    submit(page, "#save-turn")
    assert not page.is_visible("#f-person")
    tap(page, "card", "yellow")
    tap(page, "action", "florins")
    submit(page, "#save-turn")
    tap(page, "card", "purple")
    tap(page, "action", "person:0")
    assert page.is_visible("#f-person") and not page.is_visible("#f-person-worker")
    page.select_option("#id_p_icon", "worker")
    assert page.is_visible("#f-person-worker")
    shoot(page, "bruges-turn-hire")
    with page.expect_navigation():
        page.click("#undo-step")
    assert "taken back" in page.inner_text("#entry-notice")
    # A reload loses the form's round; the script offers it back.
    page.goto(f"{base}/games/{game.pk}/")
    assert page.locator("#f-dice").count()
    with page.expect_navigation():
        page.click("#resume-round")
    assert "Turn 2 of 8: Bea" in page.inner_text("#turn-head")  # as the undo left it

    # Penalties: only the choices that are needed are asked.
    from tests.web import test_web_bruges as bruges_pages

    threatened = services.game_create(
        owner=staff,
        players=services.players_resolve(["Ada", "Bea"], created_by=staff),
        game_type="bruges",
        first_player=0,
    )
    for number, log_round in enumerate(bruges_pages.threatened_log()["rounds"], start=1):
        services.round_append(game=threatened, round_data=log_round, number=number)
    page.goto(f"{base}/games/{threatened.pk}/")
    for color, value in bruges_pages.TOKENS.items():
        tap(page, f"dice_{color}", value)
    submit(page, "#dice-next")
    assert page.locator('input[name="pen_0_red"][type="radio"]').count() == 2
    assert page.locator('input[name="pen_0_brown"][type="radio"]').count() == 0
    assert "Ada discards Alchimista." in page.inner_text("#pen-0-brown")
    shoot(page, "bruges-penalties")
    tap(page, "pen_0_red", "house:1")
    submit(page, "#phase2-next")
    assert "blue house" not in page.inner_text("#holdings-0")

    page.goto(f"{base}/bruges/editions/")
    shoot(page, "bruges-editions")
    page.goto(f"{base}/bruges/editions/standard/")
    shoot(page, "bruges-edition")
    page.goto(f"{base}/bruges/editions/new/?from=standard")
    page.select_option("#id_left_2_color", "red")
    page.fill("#id_key", "standard-v2")
    shoot(page, "bruges-edition-new")
    with page.expect_navigation():
        page.get_by_role("button", name="Create the edition version").click()
    assert "Bruges edition standard-v2 created." in page.inner_text(".messages")
    with page.expect_navigation():
        page.click("#mark-verified")
    assert "verified" in page.inner_text("#edition-status")
