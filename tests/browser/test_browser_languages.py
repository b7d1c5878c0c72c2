"""The phone pages in Italian and Brazilian Portuguese, in a real headless Chromium: whole
Complots, Bruges and Pot de Vin games played in Italian (the browser's Accept-Language; their
first turns or rounds by taps, the others through the services), the rulebooks' words on screen
and no English word of the pages left; a Portuguese home page and game page; the footer's
language switcher without JavaScript, remembered for the signed-in user on another browser, and
the settings page's choice.

Elements are found by id, name or CSS (never by an English label), so every flow runs in any
language. Screenshots go to artifacts/, and with POTDEVIN_DOCS_SCREENSHOTS=1 also to
docs/screenshots/<name>.png (390 px wide, full page)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from games.records import services
from games.records.models import Game, Round, UserSettings
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from tests.accounts import first_club, make_user
from tests.browser.pages import fits_phone, shoot, sign_in, whole_page
from tests.browser.test_browser_bruges import enter_bruges_round
from tests.browser.test_browser_complots import enter_turn
from tests.builders import complots_game
from tests.paths import ROOT

DOCS_SCREENSHOTS = ROOT / "docs" / "screenshots"

# English words of the pages' interface that an Italian or Portuguese page never shows (whole
# words, any case). Pot de Vin's Italian rulebook says "round" itself: not checked there.
ENGLISH = (
    "Save",
    "Turn",
    "Turns",
    "Players",
    "Player",
    "Finish the game",
    "New game",
    "Next",
    "Settings",
    "Sign out",
    "Undo",
    "Review",
    "Seat",
    "Score",
    "Rank",
    "Total",
    "wins",
    "Winner",
    "Change",
    "the",
    "and",
    "of",
    "with",
    "Language",
)
ENGLISH_NOT_POT_DE_VIN = ("Round", "Rounds")
COMPLOTS_ENGLISH = (
    "Duke",
    "Duchess",
    "Assassin",
    "Countess",
    "Captain",
    "Ambassador",
    "Inquisitor",
    "Income",
    "Foreign aid",
    "Coup",
    "Exchange",
    "Challenge",
    "Block",
    "coins",
    "coin",
    "Action",
    "Target",
    "out",
)
BRUGES_ENGLISH = (
    "Persons",
    "Houses",
    "Canals",
    "Prestige",
    "Majority tiles",
    "Laurels",
    "Threats",
    "Workers",
    "florins",
    "dice",
    "points",
)
POT_DE_VIN_ENGLISH = ("Trump", "Pass", "gems", "gem", "cards", "Jokers", "Bribe")


# What a page says besides its visible text: its title and the names screen readers read.
SAID = """() => [document.title].concat(
    Array.from(document.querySelectorAll("[aria-label], [title], [placeholder], [alt]"))
        .flatMap((e) => ["aria-label", "title", "placeholder", "alt"]
            .map((a) => e.getAttribute(a)).filter(Boolean))
).join("\\n")"""


def english_words(page: Any, words: tuple[str, ...]) -> list[str]:
    """The words of ``words`` (whole words, any case) the page shows: its visible text, its
    title and its elements' labels for screen readers."""
    text = page.inner_text("body") + "\n" + page.evaluate(SAID)
    return [w for w in words if re.search(rf"(?<![\w'’]){re.escape(w)}(?![\w'’])", text, re.I)]


def in_language(page: Any, language: str, words: tuple[str, ...]) -> str:
    """Checks the page is in ``language`` and shows none of ``words``; returns its text."""
    assert page.get_attribute("html", "lang") == language, page.url
    found = english_words(page, words)
    assert found == [], (page.url, found, page.inner_text("main")[:3000])
    return page.inner_text("body")


def in_italian(page: Any, *extra: tuple[str, ...], pot_de_vin: bool = False) -> str:
    """Checks the page is in Italian: none of the English words of the lists shows."""
    words = ENGLISH + (() if pot_de_vin else ENGLISH_NOT_POT_DE_VIN)
    for more in extra:
        words += more
    return in_language(page, "it", words)


def screenshot(page: Any, name: str) -> None:
    """A phone screenshot into artifacts/ and, with POTDEVIN_DOCS_SCREENSHOTS=1, into
    docs/screenshots/ (390 px wide, the full page)."""
    shoot(page, name, desktop=False)
    if os.environ.get("POTDEVIN_DOCS_SCREENSHOTS") == "1":
        DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        whole_page(page, DOCS_SCREENSHOTS / f"{name}.png")


def new_game(page: Any, base: str, game_type: str, log: dict[str, Any]) -> None:
    """From the home page: the menu's new game, the game, its players and first player."""
    page.click('header.site a[href="/games/new/"]')
    page.click(f'#game-choices a[href="/games/new/{game_type}/"]')
    for seat, name in enumerate(log["players"]):
        page.fill(f"#id_player_{seat}", name)
    page.select_option("#id_first_player", str(log["first_player"]))


def start(page: Any) -> None:
    with page.expect_navigation():
        page.click('#new-game button[type="submit"]')


# --- Complots ------------------------------------------------------------------------------------
COMPLOTS_CHARACTERS = {
    "duchess": "Duchessa",
    "assassin": "Assassino",
    "countess": "Contessa",
    "captain": "Capitano",
    "ambassador": "Ambasciatore",
    "inquisitor": "Inquisitore",
}


def read_complots_step(page: Any, step: str, number: int, turn: dict[str, Any]) -> None:
    """A step of the turn entry in Italian: the rulebook's character names on the choices and
    the cards turned up."""
    text = in_italian(page, COMPLOTS_ENGLISH)
    if step == "action":
        assert f"Turno {number}:" in page.inner_text("#turn-entry h2")
        assert page.inner_text("#f-action legend") == "Azione"
        for code, word in COMPLOTS_CHARACTERS.items():
            if page.locator(f'label[for="action-{code}"]').count():
                assert word in page.inner_text(f'label[for="action-{code}"]'), text
    elif step == "details":
        block = turn.get("block")
        if block:
            word = COMPLOTS_CHARACTERS[block["as"]]
            assert word in page.inner_text(f'label[for="block_as-{block["as"]}"]')
        for i, loss in enumerate(turn.get("losses") or []):
            chosen = page.locator(f"#id_loss_{i}_card option:checked").inner_text()
            assert chosen == COMPLOTS_CHARACTERS[loss["card"]], chosen
    else:
        assert page.inner_text("#h-review") == f"Turno {number}: controllalo prima di salvare"


COMPLOTS_TAPPED = 4  # turns entered by taps; the others through the services


@pytest.mark.django_db(transaction=True)
def test_a_whole_complots_game_in_italian(live_server: Any, chromium: Any) -> None:
    make_user("alice")
    log = complots_simulate(4, seed=31, variant="ambassador")
    expected = get_engine("complots").replay(log)
    base = live_server.url
    page = chromium("it-IT").new_page()
    sign_in(page, base, "alice")
    in_italian(page)
    assert page.inner_text('header.site a[href="/games/new/"]') == "Nuova partita"

    new_game(page, base, "complots", log)
    page.check("#id_variant_0")  # the ambassador
    text = in_italian(page, COMPLOTS_ENGLISH)
    assert "Ambasciatore" in text and "Inquisitore" in text
    assert page.inner_text('#new-game button[type="submit"]') == "Inizia la partita"
    start(page)
    game = Game.objects.get()
    assert (game.game_type, game.variant) == ("complots", "ambassador")

    # Every step's page is read on the first turns (both with a block) and their reviews; the
    # whole game by taps is test_browser_complots' (the words are the same on every turn).
    shots: list[str] = []

    def read_and_photograph(page: Any, step: str, number: int, turn: dict[str, Any]) -> None:
        read_complots_step(page, step, number, turn)
        if step == "details" and not shots:  # the first turn with details photographed
            screenshot(page, "it-complots-turn")
            shots.append(step)

    assert all(turn.get("block") for turn in log["turns"][:2])
    for number, turn in enumerate(log["turns"][:COMPLOTS_TAPPED], start=1):
        enter_turn(page, turn, number, read=read_and_photograph)
        assert f"Turno {number} salvato" in page.inner_text(".messages"), page.inner_text("main")
    for number, turn in enumerate(log["turns"], start=1):
        if number > COMPLOTS_TAPPED:
            services.round_append(game=game, round_data=turn, number=number)
    page.reload()
    assert Round.objects.filter(game=game).count() == len(log["turns"])

    winner = log["players"][expected["winners"][0]]
    assert page.inner_text("#h-over") == f"{winner} vince: resta un solo giocatore"
    assert page.inner_text('#game-finish button[type="submit"]') == "Termina la partita"
    in_italian(page, COMPLOTS_ENGLISH)
    with page.expect_navigation():
        page.click('#game-finish button[type="submit"]')
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result == expected
    in_italian(page, COMPLOTS_ENGLISH)
    ranked = page.locator("#ranking li")
    assert ranked.count() == len(expected["players"])
    fits_phone(page)


# --- Bruges --------------------------------------------------------------------------------------
# test_web_browser_bruges.py's simulated game (seed 62): its first round entered by taps in
# Italian, the others stored through the services, the laurels typed, and the score sheet read.
BRUGES_SEED = 62
BRUGES_CLICKED = 1
# The score sheet's rows, in the Italian rulebook's words.
BRUGES_SHEET = {
    "track": "Tracciato segnapunti",
    "persons": "Personaggi (prezzo ÷ 3)",
    "houses": "Case (1 ciascuna)",
    "laurels": "Vantaggi (dai personaggi)",
    "majorities": "Tessere Maggioranza (4 ciascuna)",
    "canals": "Canali: terzo spazio (3 ciascuno)",
    "statues": "Statue",
    "prestige": "Prestigio Sociale",
}


def read_bruges_step(page: Any) -> None:
    """Each step of the round entry reads in Italian; a player's turn is a "mossa" (the
    rulebook's "turno" is the round)."""
    in_italian(page, BRUGES_ENGLISH)
    if page.locator("#turn-head").count():
        assert re.match(r"Mossa \d+ di ", page.inner_text("#turn-head")), page.inner_text(
            "#turn-head"
        )
    if page.locator("#entry-review").count():
        assert re.match(r"Turno \d+: controllalo prima di salvarlo$", page.inner_text("#h-review"))


@pytest.mark.django_db(transaction=True)
def test_a_whole_bruges_game_in_italian(live_server: Any, chromium: Any) -> None:
    from scoring.engine.bruges.simulate import simulate as bruges_simulate

    services.editions_ensure_builtin()
    make_user("alice")
    log = bruges_simulate(3, seed=BRUGES_SEED)
    expected = get_engine("bruges").replay(log)
    base = live_server.url
    page = chromium("it-IT").new_page()
    sign_in(page, base, "alice")
    new_game(page, base, "bruges", log)
    in_italian(page, BRUGES_ENGLISH)
    start(page)
    game = Game.objects.get()
    assert game.game_type == "bruges"

    for number, log_round in enumerate(log["rounds"][:BRUGES_CLICKED], start=1):
        enter_bruges_round(page, log_round, number, read=read_bruges_step)
        assert f"Turno {number} salvato" in page.inner_text(".messages"), page.inner_text("main")
    for number, log_round in enumerate(log["rounds"], start=1):
        if number > BRUGES_CLICKED:
            services.round_append(game=game, round_data=log_round, number=number)
    page.reload()
    last = len(log["rounds"])
    assert page.inner_text("#h-finish") == f"Il turno {last} era l'ultimo?"
    for item in log["final"]["laurels"]:
        page.fill(f"#id_laurel_{item['seat']}_{item['person']}", str(item["points"]))
    in_italian(page, BRUGES_ENGLISH)
    with page.expect_navigation():
        page.click("#finish-game")
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.result == expected

    in_italian(page, BRUGES_ENGLISH)
    labels = {
        key: page.inner_text(f'#score-sheet tr:has(td[data-key="{key}"]) th')
        for key in expected["players"][0]["breakdown"]
    }
    assert labels == BRUGES_SHEET, labels
    for p in expected["players"]:
        for key, points in p["breakdown"].items():
            cell = f'#score-sheet td[data-seat="{p["seat"]}"][data-key="{key}"] .pts'
            assert int(page.inner_text(cell)) == points, (p["name"], key)
    screenshot(page, "it-bruges-score-sheet")


# --- Pot de Vin ----------------------------------------------------------------------------------
POT_DE_VIN_SEED = 21  # test_web_browser.py's game


def enter_potdevin_round(page: Any, log_round: dict[str, Any], number: int, *, check: bool) -> None:
    page.click(f'label[for="trump-{log_round["trump"]}"]')
    for i, play in enumerate(log_round["plays"]):
        page.wait_for_selector(f"#slot-{i}.current")
        choice = "pass" if play.get("pass") else play["card"]
        page.click(f'label[for="play{i}-{choice}"]')
        if check and i == 0:
            assert page.inner_text("#round-entry h2") == f"Round {number}"
            assert page.inner_text("#slot-trump .slot-name") == "Carta del Reggente rivelata"
            in_italian(page, POT_DE_VIN_ENGLISH, pot_de_vin=True)
            screenshot(page, "it-potdevin-round")
    with page.expect_navigation():
        page.click("#save-round")
    page.wait_for_selector("#entry-review")
    assert page.inner_text("#h-review") == f"Round {number}: controllalo prima di salvarlo"
    page.wait_for_function("document.activeElement.id === 'review-save'", timeout=3000)
    if check:
        text = in_italian(page, POT_DE_VIN_ENGLISH, pot_de_vin=True)
        assert "è il Reggente" in page.inner_text("#entry-review"), text  # the trump
    with page.expect_navigation():
        page.click("#review-save")
    saved = page.inner_text(".messages")
    assert saved.startswith(f"Round {number} salvato: lo vince "), saved


@pytest.mark.django_db(transaction=True)
def test_a_whole_pot_de_vin_game_in_italian(live_server: Any, chromium: Any) -> None:
    make_user("alice")
    log = potdevin_simulate(3, seed=POT_DE_VIN_SEED, record_deal=False)
    expected = get_engine("pot-de-vin").replay(log)
    base = live_server.url
    page = chromium("it-IT").new_page()
    sign_in(page, base, "alice")
    new_game(page, base, "pot-de-vin", log)
    in_italian(page, POT_DE_VIN_ENGLISH, pot_de_vin=True)
    start(page)
    game = Game.objects.get()
    assert game.game_type == "pot-de-vin"

    # Rounds 1 to 3 by taps (1 and 3 read), the others through the services: the whole game
    # by taps is test_browser's.
    for number, log_round in enumerate(log["rounds"], start=1):
        if number <= 3:
            enter_potdevin_round(page, log_round, number, check=number in (1, 3))
        else:
            services.round_append(game=game, round_data=log_round, number=number)
    page.reload()
    assert page.inner_text("#h-over") == "Tutti i round sono stati giocati"
    in_italian(page, POT_DE_VIN_ENGLISH, pot_de_vin=True)
    with page.expect_navigation():
        page.click('#game-finish button[type="submit"]')
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    in_italian(page, POT_DE_VIN_ENGLISH, pot_de_vin=True)
    for unit in expected["players"]:
        total = page.inner_text(f'td[data-unit="{unit["seat"]}"][data-key="total"]')
        assert int(total) == unit["score"], unit["name"]


# --- Brazilian Portuguese ------------------------------------------------------------------------
PORTUGUESE_ENGLISH = ENGLISH + ENGLISH_NOT_POT_DE_VIN + POT_DE_VIN_ENGLISH


def in_portuguese(page: Any) -> str:
    return in_language(page, "pt-br", PORTUGUESE_ENGLISH)


@pytest.mark.django_db(transaction=True)
def test_the_home_page_and_a_pot_de_vin_game_in_brazilian_portuguese(
    live_server: Any, chromium: Any
) -> None:
    user = make_user("bruna")
    log = potdevin_simulate(3, seed=POT_DE_VIN_SEED, record_deal=False)
    game = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=user),
        game_type="pot-de-vin",
        first_player=log["first_player"],
    )
    for log_round in log["rounds"][:2]:
        services.round_append(game=game, round_data=log_round)
    base = live_server.url
    page = chromium("pt-BR").new_page()
    sign_in(page, base, "bruna")
    text = in_portuguese(page)
    assert page.inner_text('header.site a[href="/games/new/"]') == "Nova partida"
    assert page.inner_text("#h-progress") == "Partidas em andamento"
    assert "Jogadores" in text and "Configurações" in text and "Idioma" in text
    assert page.get_attribute('form.languages button[value="pt-br"]', "aria-current") == "true"
    screenshot(page, "pt-br-home")

    page.goto(f"{base}/games/{game.pk}/")
    text = in_portuguese(page)
    assert page.inner_text("#round-entry h2") == "Rodada 3"
    assert page.inner_text("#slot-trump .slot-name") == "Carta Trunfo revelada"
    assert page.inner_text("#save-round") == "Revisar a rodada 3"
    assert "3 jogadores" in text and "em andamento" in text
    fits_phone(page)


# --- The switcher, without JavaScript; the choice kept for the user ------------------------------
@pytest.mark.django_db(transaction=True)
def test_the_language_switcher_works_without_javascript_and_is_remembered(
    live_server: Any, chromium: Any
) -> None:
    user = make_user("carla")
    game = complots_game(user)
    base = live_server.url
    no_script = chromium("en-US", java_script_enabled=False)
    page = no_script.new_page()
    sign_in(page, base, "carla")
    page.goto(f"{base}/games/{game.pk}/")
    assert page.get_attribute("html", "lang") == "en"  # the browser asks for English
    assert page.get_attribute('form.languages button[value="en"]', "aria-current") == "true"

    assert page.inner_text('form.languages button[value="it"]') == "Italiano"
    with page.expect_navigation():
        page.click('form.languages button[value="it"]')
    assert page.url == f"{base}/games/{game.pk}/"  # back on the same page, in Italian
    text = in_italian(page, COMPLOTS_ENGLISH)
    assert page.get_attribute('form.languages button[value="it"]', "aria-current") == "true"
    assert "Turno 1: tocca a Ada" in page.inner_text("#turn-entry h2")
    assert "Inquisitore" in text and "Duchessa" in text
    assert UserSettings.objects.get(user=user).language == "it"
    with page.expect_navigation():
        page.click('form.signout button[type="submit"]')
    assert "/accounts/login/" in page.url
    no_script.close()

    # Another browser asking for English, no cookie: English until carla signs in, then Italian.
    english = chromium("en-US", java_script_enabled=False)
    page = english.new_page()
    page.goto(f"{base}/accounts/login/")
    assert page.get_attribute("html", "lang") == "en"
    sign_in(page, base, "carla")
    in_italian(page)
    page.goto(f"{base}/games/{game.pk}/")
    in_italian(page, COMPLOTS_ENGLISH)

    # The settings page: Portuguese chosen there, then the browser's language again.
    page.goto(f"{base}/account/")
    in_italian(page)
    page.select_option("#id_language", "pt-br")
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    in_portuguese(page)
    assert "Configurações salvas." in page.inner_text(".messages")
    page.select_option("#id_language", "")
    with page.expect_navigation():
        page.click('main form button[type="submit"]')
    assert page.get_attribute("html", "lang") == "en"
    assert UserSettings.objects.get(user=user).language == ""
