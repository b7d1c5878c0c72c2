"""A simulated Bruges game entered through the round entry's steps in a real headless Chromium,
finished with its laurel points, and scored like the engine; a refused turn and the edition
pages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.records import services
from games.records.models import Game, Round
from scoring.engine import get_engine
from tests.accounts import first_club, make_user
from tests.browser.pages import LANGUAGES, fits_phone, shoot, sign_in, use_language

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


def hired_with(group: list[dict[str, Any]]) -> str | None:
    """The id of the person a card of this group of steps hires, if one does."""
    for step in group:
        if step.get("action") == "person":
            given = step["person"]
            return given if isinstance(given, str) else given.get("id")
    return None


def enter_bruges_round(
    page: Any,
    log_round: dict[str, Any],
    number: int,
    *,
    shots: bool = False,
    read: Callable[[Any], None] = lambda page: None,
) -> None:
    """Enter one round as at the table: the effects at the draw when the page opens on them (an
    automatic person in play), tap the dice, the penalty choices and who climbs (and any
    automatic effect after the dice), then each turn: the card, the action, the person hired,
    an effect from the person who caused it; then the review's Save. Elements are found by id,
    so it runs in any language; ``read`` is called with each step's page before it is sent."""
    draw = [u for u in log_round.get("upkeep") or [] if u.get("at") == "draw"]
    if page.locator("#f-draw").count():
        for entry in draw:
            if "effect" in entry:
                page.select_option("#id_u_person", f"{entry['seat']}:{entry['effect']}")
                fill_gain(page, entry.get("gain") or {})
                submit(page, "#upkeep-add")
            elif page.locator("#f-upkeep-penalty").count():
                tap(page, "t_choice", penalty_value(entry["penalty"]))
                submit(page, "#upkeep-penalty-next")
        submit(page, "#draw-next")
    else:
        assert not draw, "an effect at the draw without the draw step"
    for color, value in log_round["dice"].items():
        tap(page, f"dice_{color}", value)
    if shots:
        shoot(page, "bruges-dice")
    read(page)
    submit(page, "#dice-next")
    for entry in log_round.get("penalties") or []:
        field = f"pen_{entry['seat']}_{entry['color']}"
        if page.locator(f'input[type="radio"][name="{field}"]').count():  # asked: a choice
            tap(page, field, penalty_value(entry))
    for seat in log_round.get("prestige") or []:
        page.check(f"#id_climb_{seat}")
    for entry in log_round.get("upkeep") or []:
        if "effect" not in entry or entry.get("at") == "draw":
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
    read(page)
    submit(page, "#phase2-next")
    for turn in log_round["turns"]:
        assert page.get_attribute("#turn-head", "data-seat") == str(turn["seat"])
        assert page.get_attribute("#seats-table tr.current", "data-seat") == str(turn["seat"])
        read(page)
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
                        read(page)
                else:
                    if not page.is_visible("#id_e_person"):
                        page.click("#f-effect summary")
                    who = (
                        step["effect"] if "seat" not in step else f"{step['seat']}:{step['effect']}"
                    )
                    if "seat" not in step and step["effect"] == hired_with(group):
                        who = "new"  # the person hired with this card is offered as such
                    page.select_option("#id_e_person", who)
                    fill_gain(page, step.get("gain") or {})
            if shots and number == 1 and any(s.get("action") == "person" for s in group):
                shoot(page, "bruges-turn-person")
                shots = False
            submit(page, "#save-turn" if last else "#turn-more")
    # The review: the whole round in words; nothing is stored before "Save".
    assert page.is_visible("#entry-review"), page.inner_text("main")[:3000]
    assert Round.objects.filter(number=number).count() == 0
    read(page)
    with page.expect_navigation():
        page.click("#review-save")


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
        page.get_by_label(f"Seat {seat + 1}", exact=True).fill(name)
    page.select_option("#id_first_player", str(log["first_player"]))
    shoot(page, "bruges-new-game")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the game").click()
    game = Game.objects.get()
    assert game.game_type == "bruges" and game.owner == owner

    for number, log_round in enumerate(log["rounds"][:BRUGES_CLICKED], start=1):
        enter_bruges_round(page, log_round, number, shots=number == 1)
        assert f"Round {number} saved" in page.inner_text(".messages"), page.inner_text("main")
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
        club=first_club(),
        owner=staff,
        players=services.players_resolve(club=first_club(), refs=["Ada", "Bea"], created_by=staff),
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
    assert error.inner_text() == "Ada has no red threat token (round 1, turn 1)."
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
    assert cut_selects(page, "#f-person select") == []  # at 390 px: "Arrow (once, on hire)"
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
        club=first_club(),
        owner=staff,
        players=services.players_resolve(club=first_club(), refs=["Ada", "Bea"], created_by=staff),
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
    assert "Ada discards Alchimista (0 florins, →, scholars; in house 2, blue)." in (
        page.inner_text("#pen-0-brown")
    )
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


# --- Same-name persons, an effect paying for the card after it, the review -----------------------
MAESTRO_DEAR = {"id": "p1", "name": "Maestro", "price": 3, "group": "artists", "icon": "infinity"}
MAESTRO_FREE = {
    "id": "p2", "name": "Maestro", "price": 0, "group": "clergy", "icon": "worker",
    "worker": "blue",
}  # fmt: skip
QUIET = {"blue": 3, "brown": 4, "red": 3, "purple": 4, "yellow": 3}


def two_maestros_log() -> dict[str, Any]:
    """Round 1: Ada hires two persons named Maestro (3 and 0 florins). Round 2 (Bea first): Ada
    spends her last florins on two canal tiles, then her ∞ Maestro gives 2 florins before the
    card that builds the next space (2 florins)."""
    workers = {"card": "yellow", "action": "workers"}
    round1 = {
        "dice": QUIET,
        "turns": [
            {"seat": 0, "steps": [{"card": "red", "action": "house"}]},
            {"seat": 1, "steps": [workers]},
            {"seat": 0, "steps": [{"card": "blue", "action": "house"}]},
            {"seat": 1, "steps": [workers]},
            {"seat": 0, "steps": [{"card": "red", "action": "person", "house": 0,
                                   "person": MAESTRO_DEAR}]},
            {"seat": 1, "steps": [workers]},
            {"seat": 0, "steps": [{"card": "purple", "action": "person", "house": 1,
                                   "person": MAESTRO_FREE}]},
            {"seat": 1, "steps": [workers]},
        ],
    }  # fmt: skip
    round2 = {
        "dice": QUIET,
        "turns": [
            {"seat": 1, "steps": [workers]},
            {"seat": 0, "steps": [{"card": "blue", "action": "canal", "section": "left"}]},
            {"seat": 1, "steps": [workers]},
            {"seat": 0, "steps": [{"card": "blue", "action": "canal", "section": "right"}]},
            {"seat": 1, "steps": [workers]},
            {"seat": 0, "steps": [{"effect": "p1", "gain": {"florins": 2}},
                                  {"card": "red", "action": "canal", "section": "left"}]},
            {"seat": 1, "steps": [workers]},
            {"seat": 0, "steps": [{"card": "brown", "action": "workers"}]},
        ],
    }  # fmt: skip
    return {
        "format": "bruges-log/1",
        "players": ["Ada", "Bea"],
        "first_player": 0,
        "edition": "standard",
        "rounds": [round1, round2],
    }


@pytest.mark.django_db(transaction=True)
def test_same_name_persons_an_effect_before_its_card_and_the_review(
    live_server: Any, browser: Any
) -> None:
    services.editions_ensure_builtin()
    owner = make_user("dora")
    log = two_maestros_log()
    game = services.game_create(
        club=first_club(),
        owner=owner,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=owner),
        game_type="bruges",
        first_player=0,
    )
    services.round_append(game=game, round_data=log["rounds"][0], number=1)
    base = live_server.url
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, base, "dora")
    page.goto(f"{base}/games/{game.pk}/")
    # Ada's ∞ Maestro is in play: the round opens on the effects at the draw. One is added,
    # listed, and taken back (none in this round's log), then the dice.
    assert page.inner_text("#draw-next") == "No effect at the draw: roll the dice"
    assert page.locator("#id_u_person option").count() == 2  # "—" and the ∞ Maestro only
    florins = '#seats-table tr[data-seat="0"] td[data-key="florins"]'
    assert page.inner_text(florins) == "2"
    page.select_option("#id_u_person", "0:p1")
    page.fill("#id_g_florins", "1")
    submit(page, "#upkeep-add")
    assert page.inner_text("#draw-list") == "Ada's Maestro (3 florins, ∞, artists): +1 florin"
    assert page.inner_text("#draw-next") == "Roll the dice"
    assert page.inner_text(florins) == "3"  # the running table counts it
    fits_phone(page)
    shoot(page, "bruges-draw")
    submit(page, "#undo-step")
    assert page.is_visible("#draw-none") and page.inner_text(florins) == "2"
    submit(page, "#draw-next")
    for color, value in QUIET.items():
        tap(page, f"dice_{color}", value)
    submit(page, "#dice-next")
    submit(page, "#phase2-next")
    for step in [s for t in log["rounds"][1]["turns"][:5] for s in t["steps"]]:
        tap(page, "card", step["card"])
        tap(page, "action", step["action"] + (f":{step['section']}" if "section" in step else ""))
        submit(page, "#save-turn")
    # Ada has no florin left: the canal's next space (2 florins) is not offered, and the page
    # says how to enter the effect that pays for it.
    assert "Turn 6 of 8: Ada" in page.inner_text("#turn-head")
    assert page.locator("#action-canal-left").count() == 0
    assert "Enter the effect alone first" in page.inner_text("#effect-first-help")
    page.click("#f-effect summary")
    # The two persons named Maestro, told apart.
    labels = page.locator("#id_e_person option").all_inner_texts()
    maestros = [text for text in labels if text.startswith("Maestro")]
    assert maestros == [
        "Maestro (3 florins, ∞, artists; in house 1, red)",
        "Maestro (0 florins, worker: blue, clergy; in house 2, blue)",
    ], labels
    page.select_option("#id_e_person", "p1")
    fill_gain(page, {"florins": 2})
    submit(page, "#turn-more")
    # The effect entered: the canal space it pays for is offered.
    assert "1 more card" in page.inner_text("#entry-notice")
    tap(page, "card", "red")
    tap(page, "action", "canal:left")
    submit(page, "#save-turn")
    for step in [s for t in log["rounds"][1]["turns"][6:] for s in t["steps"]]:
        tap(page, "card", step["card"])
        tap(page, "action", step["action"])
        submit(page, "#save-turn")
    # The review: every turn in words, the scores after it; nothing stored.
    review = page.inner_text("#entry-review")
    assert "Turn 6, Ada: Maestro (3 florins, ∞, artists): +2 florins; red card: canal, left." in (
        review
    ), review
    assert Round.objects.filter(game=game).count() == 1
    page.wait_for_function("document.activeElement.id === 'review-save'")  # one tap saves
    shoot(page, "bruges-review")
    # Change: the last turn comes back with what was entered, nothing lost.
    with page.expect_navigation():
        page.click("#review-change")
    assert "Turn 8 of 8: Ada" in page.inner_text("#turn-head")
    assert "brown card: 2 brown workers" in page.inner_text("#open-steps")
    assert "Maestro" in (page.text_content("#entered-turns") or "")
    assert Round.objects.filter(game=game).count() == 1
    submit(page, "#save-turn")
    with page.expect_navigation():
        page.click("#review-save")
    assert "Round 2 saved" in page.inner_text(".messages")
    game.refresh_from_db()
    assert game.result == get_engine("bruges").replay(log)


# Four players with names as long as the service takes them (80 characters).
LONG_NAMES = [
    ("Maximiliana Wilhelmina Augusta von Hohenzollern-Sigmaringen und Rosenheim " + "x" * 80)[
        :80
    ].strip(),
    "Bartholomew Fitzgerald Montgomery-Worthington the Third of Little Snoring, Esqr.",
    "Anastasia Konstantinovna Vasilyeva-Rimskaya-Korsakova of Nizhniy Novgorod Oblast",
    "Jean-Baptiste Emmanuel Zorg de la Tour d'Auvergne et de Saint-Germain-des-Prés 4",
]


def split_words(page: Any, selector: str) -> list[str]:
    """The words under ``selector`` whose rendered text runs over more than one line (a word
    cut mid-word), found with a Range over each word of each text node."""
    return list(
        page.evaluate(
            """(selector) => {
                const cut = [];
                for (const root of document.querySelectorAll(selector)) {
                    const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
                    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
                        const text = node.textContent;
                        const re = /[^\\s\\u002d\\u2010]+/g;  // a line may end after a hyphen
                        let m;
                        while ((m = re.exec(text))) {
                            const range = document.createRange();
                            range.setStart(node, m.index);
                            range.setEnd(node, m.index + m[0].length);
                            const lines = new Set(
                                Array.from(range.getClientRects())
                                    .filter((r) => r.width > 0)
                                    .map((r) => Math.round(r.top))
                            );
                            if (lines.size > 1) cut.push(m[0]);
                        }
                    }
                }
                return cut;
            }""",
            selector,
        )
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.django_db(transaction=True)
def test_the_score_sheet_of_four_long_names_reads_at_phone_width(
    live_server: Any, browser: Any, language: str
) -> None:
    from scoring.engine.bruges.simulate import simulate as bruges_simulate

    services.editions_ensure_builtin()
    assert [len(name) for name in LONG_NAMES] == [80] * 4
    owner = make_user("erin")
    log = bruges_simulate(4, seed=3, names=LONG_NAMES)
    game = services.game_create(
        club=first_club(),
        owner=owner,
        players=services.players_resolve(club=first_club(), refs=LONG_NAMES, created_by=owner),
        game_type="bruges",
        first_player=log["first_player"],
    )
    for number, log_round in enumerate(log["rounds"], start=1):
        services.round_append(game=game, round_data=log_round, number=number)
    base = live_server.url
    use_language(browser, base, language)
    page = browser.new_page()
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, base, "erin")
    page.goto(f"{base}/games/{game.pk}/")
    for item in log["final"]["laurels"]:
        page.fill(f"#id_laurel_{item['seat']}_{item['person']}", str(item["points"]))
    fits_phone(page)
    assert split_words(page, "main") == []
    assert wide_boxes(page) == []
    with page.expect_navigation():
        page.click("#finish-game")
    assert page.locator("#score-sheet").count()
    fits_phone(page)
    shoot(page, f"bruges-score-sheet-long-names-{language}", desktop=False)
    assert split_words(page, "main") == []
    # The sheet's own width fits too (no scrolling inside its box).
    assert wide_boxes(page) == []


def wide_boxes(page: Any) -> list[str]:
    """The tables of the page wider than their box (scrolled sideways inside it)."""
    return list(
        page.evaluate(
            "Array.from(document.querySelectorAll('main table'))"
            ".filter((t) => t.scrollWidth > t.parentElement.clientWidth + 1)"
            ".map((t) => t.id + ' ' + t.scrollWidth + '>' + t.parentElement.clientWidth)"
        )
    )


def cut_selects(page: Any, selector: str) -> list[str]:
    """The options of the lists under ``selector`` whose text is wider than the list shows it
    (measured in the list's own font, its padding and arrow left out)."""
    return list(
        page.evaluate(
            """(selector) => {
                const ctx = document.createElement("canvas").getContext("2d");
                const cut = [];
                for (const select of document.querySelectorAll(selector)) {
                    const style = getComputedStyle(select);
                    ctx.font = style.font;
                    const room = select.clientWidth - parseFloat(style.paddingLeft)
                        - parseFloat(style.paddingRight) - 16;
                    for (const option of select.options) {
                        if (ctx.measureText(option.text).width > room) cut.push(option.text);
                    }
                }
                return cut;
            }""",
            selector,
        )
    )
