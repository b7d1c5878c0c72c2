"""At the table without a network (static/js/offline.js, the service worker of games/web/pwa.py
and the project's pages on the phone, static/js/app-worker.js), in headless Chromium at phone
size, for each game: a game page opened before opens again offline under a banner saying so;
entries are made offline exactly as online (the same steps, Review and Save, checked by the
same engine), each building on the one before; they are kept on the phone through a reload and
a new tab, listed as "saved on this phone, not sent yet", and sent once each when the network
is back; the game then equals the engine's replay of its log.

The games are simulated (their seeds below); ``POTDEVIN_OFFLINE_GAMES=10`` plays ten of each
instead of one (with the network cut at a different entry in each)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from games.records import services
from games.records.models import Edition, Game, GameEvent, IdempotencyKey, Round
from scoring.engine import engine_for_log
from scoring.engine.bruges.simulate import simulate as bruges_simulate
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from tests.accounts import first_club, make_user
from tests.browser.pages import sign_in
from tests.browser.test_browser import confirm as potdevin_confirm
from tests.browser.test_browser_bruges import enter_bruges_round
from tests.browser.test_browser_complots import enter_turn

PENDING = "Saved on this phone, not sent yet"
# The phone's own copy of the pages starts once per page (Pyodide, Django, the game): seconds.
FIRST_ANSWER_MS = 90_000
GAMES_EACH = int(os.environ.get("POTDEVIN_OFFLINE_GAMES", "1"))


class OfflinePage:
    """A page whose forms, offline, are answered on the phone: the answer replaces the
    document (no navigation), so waiting for one waits for the new document instead."""

    def __init__(self, page: Any) -> None:
        self._page = page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)

    @contextmanager
    def expect_navigation(self, **options: Any) -> Iterator[None]:
        self._page.evaluate("document.body.dataset.answered = 'before'")
        yield
        self._page.wait_for_function(
            "document.body && document.body.dataset.answered !== 'before'"
            " && document.readyState === 'complete'",
            timeout=FIRST_ANSWER_MS,
        )
        self._page.wait_for_timeout(50)  # the page's deferred scripts


def enter_potdevin(page: Any, log: dict[str, Any], number: int) -> None:
    log_round = log["rounds"][number - 1]
    page.click(f'label[for="trump-{log_round["trump"]}"]')
    for i, play in enumerate(log_round["plays"]):
        page.wait_for_selector(f"#slot-{i}.current")
        choice = "pass" if play.get("pass") else play["card"]
        page.click(f'label[for="play{i}-{choice}"]')
    with page.expect_navigation():
        page.click("#save-round")
    potdevin_confirm(page, number)


def enter_complots(page: Any, log: dict[str, Any], number: int) -> None:
    enter_turn(page, log["turns"][number - 1], number)


def enter_bruges(page: Any, log: dict[str, Any], number: int) -> None:
    enter_bruges_round(page, log["rounds"][number - 1], number)


def potdevin_game(user: Any, seed: int) -> tuple[Game, dict[str, Any]]:
    log = potdevin_simulate(3 + seed % 3, seed=seed, record_deal=False)
    game = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=user),
        game_type="pot-de-vin",
        edition=Edition.objects.get(game_type="pot-de-vin", key="standard"),
        first_player=log["first_player"],
    )
    return game, log


def complots_game(user: Any, seed: int) -> tuple[Game, dict[str, Any]]:
    variant = ("ambassador", "inquisitor")[seed % 2]
    log = complots_simulate(3 + seed % 3, seed=seed, variant=variant)
    game = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=user),
        game_type="complots",
        first_player=log["first_player"],
        variant=variant,
    )
    return game, log


def bruges_game(user: Any, seed: int) -> tuple[Game, dict[str, Any]]:
    services.editions_ensure_builtin()
    log = bruges_simulate(3, seed=seed)
    game = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=user),
        game_type="bruges",
        edition=Edition.objects.get(game_type="bruges", key="standard"),
        first_player=log["first_player"],
    )
    return game, log


Game_ = Callable[[Any, int], tuple[Game, dict[str, Any]]]
Enter = Callable[[Any, dict[str, Any], int], None]
GAMES: list[tuple[str, Game_, Enter, str, str]] = [
    ("pot-de-vin", potdevin_game, enter_potdevin, "rounds", "Round"),
    ("complots", complots_game, enter_complots, "turns", "Turn"),
    ("bruges", bruges_game, enter_bruges, "rounds", "Round"),
]
FIRST_SEED = {"pot-de-vin": 101, "complots": 101, "bruges": 62}
# The Bruges rounds the page helper of test_browser_bruges can tap through (the others hold
# effects it does not enter): the first two of its seed.
CLICKABLE = {"bruges": 2}
SEEDS = {name: [FIRST_SEED[name] + i for i in range(GAMES_EACH)] for name, *_ in GAMES}
CASES = [(spec, seed) for spec in GAMES for seed in SEEDS[spec[0]]]


def stored(game: Game) -> list[Any]:
    return list(Round.objects.filter(game=game).order_by("number").values_list("data", flat=True))


@pytest.mark.parametrize(("spec", "seed"), CASES, ids=[f"{s[0]}-{seed}" for s, seed in CASES])
@pytest.mark.django_db(transaction=True)
def test_entries_made_offline_are_kept_on_the_phone_and_sent_once(
    live_server: Any, chromium: Any, spec: tuple[str, Game_, Enter, str, str], seed: int
) -> None:
    name, make, enter, entries_key, word = spec
    user = make_user("alice")
    game, log = make(user, seed)
    total = min(len(log[entries_key]), CLICKABLE.get(name, 99))
    # The network is cut after an entry made online, for three entries in a row (fewer when
    # the game is shorter); the seed says where.
    online = random.Random(seed).randint(1, max(1, min(3, total - 3)))
    offline = max(1, min(3, total - online))
    context = chromium("en-GB", service_workers="allow")
    page = context.new_page()
    base = live_server.url
    sign_in(page, base, "alice")
    url = f"{base}/games/{game.pk}/"
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now through the worker, which keeps the game's page and its copy
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    for number in range(1, online + 1):
        enter(page, log, number)
    page.wait_for_timeout(1500)  # the game's copy and the app's pages, cached

    context.set_offline(True)
    page.reload()  # opens offline, as last seen
    page.wait_for_selector("#offline-banner:not([hidden])")
    assert "Offline since" in page.inner_text("#offline-banner")
    phone = OfflinePage(page)
    for number in range(online + 1, online + offline + 1):
        enter(phone, log, number)
        assert f"{word} {number} saved" in page.inner_text(".messages"), page.inner_text("main")
        assert page.inner_text("#h-pending") == PENDING
    waiting = "1 entry waits" if offline == 1 else f"{offline} entries wait"
    assert f"{waiting} to be sent." in page.inner_text("#offline-banner")
    assert page.locator("#pending li").count() == offline
    assert len(stored(game)) == online
    # Kept on the phone: a reload, then a new tab, both offline, the game as the phone has it.
    after = f"{word} {online + offline}"
    page.reload()
    page.wait_for_selector("#pending li")
    page.close()
    page = context.new_page()
    page.goto(url)
    page.wait_for_function(
        "text => document.querySelector('#history, main').innerText.includes(text)",
        arg=after,
        timeout=FIRST_ANSWER_MS,
    )
    assert page.locator("#pending li").count() == offline

    # The network is back: each sent once, in order; the page shows the game as stored.
    with page.expect_navigation(timeout=60_000):
        context.set_offline(False)
    page.wait_for_selector("#pending", state="detached")
    done = online + offline
    assert len(stored(game)) == done
    assert IdempotencyKey.objects.filter(user=user, status=302).count() >= offline
    played = {**log, entries_key: log[entries_key][:done], "final": None}
    game.refresh_from_db()
    expected = engine_for_log(played).replay(played)
    assert game.result == expected
    context.close()


@pytest.mark.django_db(transaction=True)
def test_two_phones_enter_the_same_round_and_the_later_one_decides(
    live_server: Any, chromium: Any
) -> None:
    """A phone offline saves round 1 (then round 2) while another phone saves the same number
    online: back online, the first phone's entry is not stored; the page says so in the
    server's words and offers both ways: keep the other (drop this one), or keep this one
    instead (the other's entry undone, this one stored)."""
    alice = make_user("alice")
    make_user("bob")
    game, log = potdevin_game(alice, 101)
    phone = chromium("en-GB", service_workers="allow")
    page = phone.new_page()
    base = live_server.url
    url = f"{base}/games/{game.pk}/"
    sign_in(page, base, "alice")
    page.goto(url)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_timeout(1500)
    other = chromium("en-GB").new_page()
    sign_in(other, base, "bob")
    other.goto(url)

    for number in (1, 2):
        phone.set_offline(True)
        page.reload()
        enter_potdevin(OfflinePage(page), log, number)
        assert page.locator("#pending li").count() == 1
        other.goto(url)
        enter_potdevin(other, log, number)  # bob's phone saves the same number first
        phone.set_offline(False)
        page.wait_for_selector("#pending p.error")
        said = f"Round {number} was already saved from another page or phone"
        assert said in page.inner_text("#pending")
        assert f"Round {number} saved" in page.inner_text("#pending")  # this phone's, in words
        events = GameEvent.objects.filter(game_id=game.pk, action="added", number=number)
        assert [e.username for e in events] == ["bob"]
        if number == 1:
            with page.expect_navigation(timeout=30_000):
                page.get_by_role("button", name="Keep the other: drop this one").click()
            page.wait_for_selector("#pending", state="detached")
            page.wait_for_timeout(1500)  # the game's copy, kept again
            assert len(stored(game)) == 1
        else:
            with page.expect_navigation(timeout=30_000):
                page.get_by_role("button", name="Keep this one instead").click()
            page.wait_for_selector("#pending", state="detached")
            added = GameEvent.objects.filter(game_id=game.pk, action="added", number=2)
            assert [e.username for e in added.order_by("id")] == ["bob", "alice"]
            undone = GameEvent.objects.filter(game_id=game.pk, action="undone", number=2)
            assert [e.username for e in undone] == ["alice"]
            assert len(stored(game)) == 2
    played = {**log, "rounds": log["rounds"][:2], "final": None}
    game.refresh_from_db()
    assert game.result == engine_for_log(played).replay(played)
