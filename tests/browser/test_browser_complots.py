"""Simulated Complots games entered turn by turn in a real headless Chromium (the loss rows left
for the page to fill in with the seats the rules require), finished, and their ranking and K4
counts checked against the engine's replay of the same log; a refused turn shown beside its
field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.records.models import Game, Round
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as complots_simulate
from tests.accounts import make_user
from tests.browser.pages import fits_phone, shoot, sign_in
from tests.builders import complots_game

# Simulated Complots games entered through the pages: 4 players with a challenged block and two
# players out in one turn; 5 inquisitor players with inquiries and another double elimination.
# The ambassador variant is played whole in Italian (test_browser_languages, the same seed).
COMPLOTS_GAMES = [(5, 4, "inquisitor")]


# Called with each step's page of a turn entry before it is sent: (page, step, turn number, the
# log's turn), step one of "action", "details", "review".
Read = Callable[[Any, str, int, dict[str, Any]], None]


def pick(page: Any, field: str, value: Any) -> None:
    """Tap a choice of the turn entry (a radio button and its label)."""
    page.click(f'label[for="{field}-{value}"]')


def read_in_english(page: Any, step: str, number: int, turn: dict[str, Any]) -> None:
    if step == "review":
        assert page.inner_text("#h-review") == f"Turn {number}: check it before saving"


def confirm(page: Any, number: int, read: Read = read_in_english) -> None:
    """The review before saving: the turn in words, "Save" focused; saved with one tap."""
    page.wait_for_selector("#entry-review")
    page.wait_for_function("document.activeElement.id === 'review-save'", timeout=3000)
    read(page, "review", number, {})
    with page.expect_navigation():
        page.click("#review-save")


def enter_turn(
    page: Any,
    turn: dict[str, Any],
    number: int,
    *,
    shots: bool = False,
    ask: bool = False,
    read: Read = read_in_english,
) -> None:
    """Enter one turn as at the table: the action and target, then (if the action has more)
    the challenge, the block and its challenge, then the review's Save. The script fills the
    loss rows with the seats the rules require as the answers come (which must be the log's
    seats, in order); only the cards are chosen. With ``ask``, the turn is saved with no card
    first: the page comes back asking for the card of each of those seats. Elements are found
    by id, so it runs in any language; ``read`` reads each step's page before it is sent."""
    page.wait_for_selector("#seats-table tr.current")  # the seat to act is highlighted
    assert page.get_attribute("#seats-table tr.current", "data-seat") == str(turn["actor"])
    read(page, "action", number, turn)
    pick(page, "action", turn["action"])
    if turn.get("target") is not None:
        pick(page, "target", turn["target"])
    if shots:
        shoot(page, "complots-turn-action")
    with page.expect_navigation():
        page.click("#turn-next")
    if not page.locator("#save-turn").count():
        confirm(page, number, read)  # an action with nothing more to ask: straight to the review
        return
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
    read(page, "details", number, turn)
    with page.expect_navigation():
        page.click("#save-turn")
    confirm(page, number, read)


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
        page.get_by_label(f"Seat {seat + 1}", exact=True).fill(name)
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
        assert f"Turn {number} saved" in page.inner_text(".messages"), page.inner_text("main")
        fits_phone(page)
    assert Round.objects.filter(game=game).count() == len(log["turns"])

    # The last turn undone, then entered again.
    with page.expect_navigation():
        page.click("#undo-round")
    # It asks first, naming the turn; nothing is undone before its "Yes".
    assert page.inner_text("#h-confirm") == f"Undo turn {len(log['turns'])}?"
    with page.expect_navigation():
        page.click("#confirm-yes")
    assert "The last turn was undone." in page.inner_text(".messages")
    assert Round.objects.filter(game=game).count() == len(log["turns"]) - 1
    enter_turn(page, log["turns"][-1], len(log["turns"]))
    assert f"Turn {len(log['turns'])} saved" in page.inner_text(".messages")

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
    game = complots_game(make_user("alice"))
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
    assert error.inner_text() == "Ada was caught bluffing the duchess: it cannot turn one up."
    assert page.is_checked("#challenge_by-1") and page.is_checked("#challenge_truthful-no")
    assert Round.objects.filter(game=game).count() == 0
    shoot(page, "complots-turn-error")
    page.select_option("#id_loss_0_card", "captain")
    with page.expect_navigation():
        page.click("#save-turn")
    confirm(page, 1)
    assert "Turn 1 saved" in page.inner_text(".messages")
    assert Round.objects.filter(game=game).count() == 1
