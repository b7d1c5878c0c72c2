"""A simulated Bruges game entered through the round entry's steps in a real headless Chromium,
finished with its laurel points, and scored like the engine; a refused turn and the edition
pages."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game, Round
from scoring.engine import get_engine
from tests.accounts import make_user
from tests.web.browser import fits_phone, shoot, sign_in

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
