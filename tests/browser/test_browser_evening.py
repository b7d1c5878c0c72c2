"""A whole club evening on phones, in a real headless Chromium at 390x844, in each language of
the pages (the ``django_language`` cookie; the words checked come from Django's catalogue):

1. A fresh server: its first club "Club" is named by its owner from Home's prompt.
2. The owner makes a recorder's invitation: the whole link, "Copy link" (said in a live region,
   the clipboard holds it) and its QR code.
3. A new person opens the link on their phone, makes an account and lands on the club's Home.
4. The recorder records the four kinds of play: (a) Pot de Vin round by round, (b) Complots
   turn by turn, (c) Bruges from its final score sheet, (d) Catan by final scores.
5. Back after a round's save, "Save" pressed again: the same Save (its form's key) is answered
   as it was the first time (the game as it is now, "saved" once more), the round stored once,
   and the next round entered from there.
6. The language switched mid-entry: the picks kept, the page in the other language; and back.
7. "Undo round N" asks first (nothing undone yet); its Yes undoes exactly round N.
8. A mistaken game deleted (asks first): gone from Home and the database, its history kept.
9. A share link with Copy link and a QR code, opened by a guest with no account: the game
   read-only, and no link on it leads to a sign-in.
10. The owner starts a second club: the header gets a club switch and stays compact; back to
    the first club.
11. Statistics with another game: Catan's leaderboard on Home and on the results page beside
    Bruges', and a Catan section on a player's page.
12. The club's BG Stats export downloaded and imported back: the dry run finds every play
    already here; the import discarded (it asks first): nothing changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.utils.translation import gettext, override

from games.plugins.complots.turns import entry_saved as turn_saved
from games.plugins.potdevin.rounds import entry_saved as round_saved
from games.records import services
from games.records.models import (
    BoardGame,
    Club,
    Game,
    GameEvent,
    Membership,
    Player,
    Round,
)
from games.web import present
from scoring.engine import get_engine
from scoring.engine.complots.simulate import simulate as complots_simulate
from scoring.engine.potdevin.simulate import simulate as potdevin_simulate
from scoring.models import Job
from tests.accounts import PASSWORD, first_club, make_user
from tests.browser.pages import LANGUAGES, fits_phone, shoot, sign_in, use_language
from tests.browser.test_browser_bruges_sheet import SCORES
from tests.browser.test_browser_complots import enter_turn
from tests.browser.test_browser_keep import fill_seat, pick, switch_club, switch_language

NAMES = ["Nina", "Ada", "Bea"]  # the recorder first, then two friends of the club
FOURTH = "Cid"
CLUB_NAME = "Tavola Rotonda"
SECOND_CLUB = "Circolo del Giovedì"
POT_DE_VIN_SEED = 21
COMPLOTS_SEED = 31
OTHER_LANGUAGE = {"en": "it", "it": "pt-br", "pt-br": "en"}  # switched to mid-entry (step 6)
CATAN_SCORES = [10, 8, 7, 5]  # Nina wins


def words(language: str, text: str, **params: Any) -> str:
    """``text`` from Django's catalogue in ``language``, its placeholders filled."""
    with override(language):
        said = gettext(text)
    return said % params if params else said


def entry_words(language: str, game_type: str, key: str, **params: Any) -> str:
    """One of the game pages' sentences about entries (``present.ENTRY_TEXTS``) in
    ``language``."""
    with override(language):
        return present.entry_text(game_type, key, **params)


def message(page: Any) -> str:
    return str(page.inner_text(".messages"))


def said_in_page(page: Any, locator: Any, text: str) -> None:
    """A live region of the page says ``text`` of the scripts' catalogue, in the page's
    language (``gettext`` of django.views.i18n.JavaScriptCatalog)."""
    assert locator.get_attribute("aria-live") == "polite"
    locator.filter(has_text=".").wait_for()
    assert locator.inner_text() == page.evaluate("t => gettext(t)", text)


def link_box(page: Any, box: Any, qr_title: str, language: str) -> str:
    """A link shown whole with its Copy link button (pressed: said, and in the clipboard) and
    its QR code; returns the link."""
    link = str(box.locator("textarea.share-url").input_value())
    assert box.locator("textarea.share-url").is_visible()
    box.get_by_role("button", name=words(language, "Copy link")).click()
    said_in_page(page, box.locator("[data-said]"), "Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == link
    qr = box.get_by_role("img", name=words(language, qr_title))
    assert qr.count() == 1
    assert qr.evaluate("e => e.tagName.toLowerCase()") == "svg"
    assert qr.locator("title").count() == 1
    return link


def review_and_save(page: Any, number: int, language: str) -> None:
    """The Pot de Vin round sent to its review (the round in words, "Save" focused), saved."""
    with page.expect_navigation():
        page.click("#save-round")
    page.wait_for_selector("#entry-review")
    expected = words(language, "Round %(number)s: check it before saving", number=number)
    assert page.inner_text("#h-review") == expected
    page.wait_for_function("document.activeElement.id === 'review-save'", timeout=3000)
    with page.expect_navigation():
        page.click("#review-save")


def plays_of(log_round: dict[str, Any]) -> list[str]:
    return ["pass" if p.get("pass") else p["card"] for p in log_round["plays"]]


def enter_round(page: Any, log_round: dict[str, Any], number: int, language: str) -> None:
    """tests.browser.test_browser.enter_round in any language: the trump, each seat's action in
    turn order (the seat to act highlighted), the review, Save."""
    page.click(f'label[for="trump-{log_round["trump"]}"]')
    for slot, choice in enumerate(plays_of(log_round)):
        pick(page, slot, choice)
    review_and_save(page, number, language)


def round_numbers(game: Game) -> list[int]:
    return list(Round.objects.filter(game=game).order_by("number").values_list("number", flat=True))


def stored_result(game: Game) -> dict[str, Any]:
    game.refresh_from_db()
    return dict(game.result or {})


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.django_db(transaction=True)
def test_a_club_evening_on_phones(
    live_server: Any, chromium: Any, language: str, tmp_path: Path
) -> None:
    services.editions_ensure_builtin()
    club = first_club()
    assert (club.name, club.slug) == ("Club", "club")
    make_user("olga", club=club, role=Membership.Role.OWNER)
    base = live_server.url
    clipboard = ["clipboard-read", "clipboard-write"]

    # --- 1. The owner names the fresh server's club from Home's prompt -------------------------
    owner_context = chromium(locale="en-US")
    owner_context.grant_permissions(clipboard, origin=base)
    use_language(owner_context, base, language)
    owner = owner_context.new_page()
    sign_in(owner, base, "olga")
    assert owner.get_attribute("html", "lang") == language
    prompt = owner.locator("#club-naming")
    assert prompt.is_visible()
    assert owner.inner_text("#h-naming") == words(language, "Name your club")
    assert owner.get_attribute("#club-naming-form", "action") == f"/clubs/{club.slug}/name/"
    owner.fill("#club-name", CLUB_NAME)
    with owner.expect_navigation():
        owner.click('#club-naming-form button[type="submit"]')
    assert owner.url == f"{base}/"
    assert message(owner) == words(language, "The club is called %(club)s now.", club=CLUB_NAME)
    assert owner.locator("#club-naming").count() == 0
    assert owner.inner_text("main h1") == CLUB_NAME
    club.refresh_from_db()
    assert (club.name, club.slug) == (CLUB_NAME, "club")

    # --- 2. A recorder's invitation: the link whole, Copy link, its QR code --------------------
    owner.goto(f"{base}/clubs/{club.slug}/members/")
    with owner.expect_navigation():
        owner.click(f'main a[href="/clubs/{club.slug}/invitations/"]')
    owner.select_option("#id_role", "recorder")
    with owner.expect_navigation():
        owner.click('#invitation-new button[type="submit"]')
    assert message(owner) == words(
        language, "Invitation made: send the link to one person; it works once."
    )
    boxes = owner.locator("#invitations li")
    assert boxes.count() == 1
    link = link_box(owner, boxes.first, "QR code of the invitation link", language)
    assert link.startswith(f"{base}/invite/")
    fits_phone(owner)

    # --- 3. The new person signs up from the link and lands on the club's Home -----------------
    recorder_context = chromium(locale="en-US")
    recorder_context.grant_permissions(clipboard, origin=base)
    use_language(recorder_context, base, language)
    page = recorder_context.new_page()
    page.goto(link)
    assert page.inner_text("h1") == words(language, "Join %(club)s", club=CLUB_NAME)
    page.fill("#id_username", "nina")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    with page.expect_navigation():
        page.click('#sign-up button[type="submit"]')
    assert page.url == f"{base}/"
    assert page.inner_text("main h1") == CLUB_NAME
    assert message(page) == words(language, "Welcome to %(club)s.", club=CLUB_NAME)
    membership = Membership.objects.get(club=club, user__username="nina")
    assert membership.role == Membership.Role.RECORDER
    nina = membership.user

    # --- 4a. Pot de Vin, started from New game, round 1 entered -------------------------------
    log = potdevin_simulate(3, seed=POT_DE_VIN_SEED, record_deal=False, names=NAMES)
    with page.expect_navigation():
        page.click("main a.button.primary")  # New game
    with page.expect_navigation():
        page.click('#game-choices a[href="/games/new/pot-de-vin/"]')
    for seat, name in enumerate(log["players"]):
        page.fill(f"#id_player_{seat}", name)
    page.select_option("#id_first_player", str(log["first_player"]))
    with page.expect_navigation():
        page.click('#new-game button[type="submit"]')
    potdevin = Game.objects.get(club=club, game_type="pot-de-vin")
    assert page.url == f"{base}/games/{potdevin.pk}/"
    assert (potdevin.owner_id, potdevin.first_player) == (nina.pk, log["first_player"])
    enter_round(page, log["rounds"][0], 1, language)
    with override(language):
        saved = round_saved(stored_result(potdevin), 1, NAMES)
    assert message(page) == saved
    assert round_numbers(potdevin) == [1]

    # --- 5. Back to round 1's review, Save again: answered as the first time, round 2 next -----
    saved = message(page)
    page.go_back()
    page.wait_for_selector("#entry-review")
    with page.expect_navigation():
        page.click("#review-save")
    assert page.url.split("#")[0] == f"{base}/games/{potdevin.pk}/"
    assert page.locator(".messages li.msg.warning").count() == 0  # never a refusal
    assert message(page) == saved
    assert round_numbers(potdevin) == [1]
    assert page.locator("#round-entry input:checked").count() == 0  # round 2's form, fresh
    enter_round(page, log["rounds"][1], 2, language)
    assert round_numbers(potdevin) == [1, 2]
    assert stored_result(potdevin) == get_engine("pot-de-vin").replay(
        {**log, "rounds": log["rounds"][:2]}
    )

    # --- 6. Another language mid-entry: round 3's picks kept; then back -----------------------
    third = log["rounds"][2]
    plays = plays_of(third)
    page.click(f'label[for="trump-{third["trump"]}"]')
    pick(page, 0, plays[0])
    pick(page, 1, plays[1])
    other = OTHER_LANGUAGE[language]
    for shown in (other, language):
        switch_language(page, shown)  # html[lang] checked there
        assert page.is_checked(f"#trump-{third['trump']}")
        assert page.is_checked(f"#play0-{plays[0]}") and page.is_checked(f"#play1-{plays[1]}")
        undo_words = entry_words(shown, "pot-de-vin", "undo", number=2)
        assert page.inner_text("#undo-round") == undo_words
    assert round_numbers(potdevin) == [1, 2]
    for slot in range(2, len(plays)):
        pick(page, slot, plays[slot])
    review_and_save(page, 3, language)
    assert round_numbers(potdevin) == [1, 2, 3]

    # --- 7. Undo round 3: the question first, nothing undone until its Yes --------------------
    with page.expect_navigation():
        page.click("#undo-round")
    assert page.locator("#confirm").is_visible()
    question = entry_words(language, "pot-de-vin", "undo_question", number=3)
    assert page.inner_text("#confirm h1") == question
    assert round_numbers(potdevin) == [1, 2, 3]
    with page.expect_navigation():
        page.click("#confirm-yes")
    assert message(page) == entry_words(language, "pot-de-vin", "undone")
    assert round_numbers(potdevin) == [1, 2]
    assert stored_result(potdevin) == get_engine("pot-de-vin").replay(
        {**log, "rounds": log["rounds"][:2]}
    )

    # --- 4b. Complots, turn by turn: two turns ------------------------------------------------
    turns = complots_simulate(3, seed=COMPLOTS_SEED, variant="ambassador", names=NAMES)
    page.goto(f"{base}/games/new/complots/")
    for seat, name in enumerate(turns["players"]):
        page.fill(f"#id_player_{seat}", name)
    page.select_option("#id_first_player", str(turns["first_player"]))
    page.check("#id_variant_0")  # ambassador
    with page.expect_navigation():
        page.click('#new-game button[type="submit"]')
    complots = Game.objects.get(club=club, game_type="complots")

    def read_review(page: Any, step: str, number: int, turn: dict[str, Any]) -> None:
        if step == "review":
            title = words(language, "Turn %(number)s: check it before saving", number=number)
            assert page.inner_text("#h-review") == title

    for number, turn in enumerate(turns["turns"][:2], start=1):
        enter_turn(page, turn, number, read=read_review)
        with override(language):
            assert message(page) == turn_saved(stored_result(complots), number, NAMES)
    assert round_numbers(complots) == [1, 2]
    assert stored_result(complots) == get_engine("complots").replay(
        {**turns, "turns": turns["turns"][:2]}
    )

    # --- 4c. Bruges from its final score sheet ------------------------------------------------
    page.goto(f"{base}/games/scorepad/bruges/")
    for seat, name in enumerate([*NAMES, FOURTH]):
        fill_seat(page, seat, name)
    with page.expect_navigation():
        page.click('#scorepad button[type="submit"]')
    bruges = Game.objects.get(club=club, game_type="bruges")
    assert page.url.split("#")[0] == f"{base}/games/{bruges.pk}/"
    assert bruges.status == Game.Status.FINISHED
    assert [s.score for s in bruges.seats.order_by("seat")] == SCORES
    assert [int(page.get_attribute(f"#player-{s}", "data-score")) for s in range(4)] == SCORES

    # --- 4d. Catan by its final scores ---------------------------------------------------------
    page.goto(f"{base}/plays/new/")
    page.fill("#id_new_name", "Catan")
    for seat, (name, score) in enumerate(zip([*NAMES, FOURTH], CATAN_SCORES, strict=True)):
        page.fill(f"#id_player_{seat}", name)
        page.fill(f"#id_score_{seat}", str(score))
    with page.expect_navigation():
        page.click("#play-save")
    catan = BoardGame.objects.get(club=club)
    assert catan.name == "Catan"
    play = Game.objects.get(club=club, board_game=catan)
    assert page.url.split("#")[0] == f"{base}/games/{play.pk}/"
    assert (play.mode, play.status) == (Game.Mode.RESULT, Game.Status.FINISHED)
    assert [(s.score, s.rank) for s in play.seats.order_by("seat")] == [
        (10, 1),
        (8, 2),
        (7, 3),
        (5, 4),
    ]
    assert page.get_attribute("#ranking li:first-child", "data-seat") == "0"
    assert page.locator("h1").inner_text().startswith("Catan")

    # --- 8. A mistaken game deleted: asks first, gone, its history kept -----------------------
    mistake = services.game_create(
        club=club,
        owner=nina,
        players=services.players_resolve(club=club, refs=NAMES, created_by=nina),
        game_type="pot-de-vin",
        first_player=0,
    )
    in_progress = 'section[aria-labelledby="h-progress"]'
    page.goto(f"{base}/")
    assert page.locator(f'{in_progress} a[href="/games/{mistake.pk}/"]').count() == 1
    page.goto(f"{base}/games/{mistake.pk}/")
    with page.expect_navigation():
        page.click("#game-delete")
    title = words(language, "Delete game #%(number)s?", number=mistake.pk)
    assert page.inner_text("#confirm h1") == title
    assert Game.objects.filter(pk=mistake.pk).exists()
    with page.expect_navigation():
        page.click("#confirm-yes")
    assert page.url == f"{base}/"
    assert message(page) == words(language, "Game #%(number)s was deleted.", number=mistake.pk)
    assert page.locator(f'{in_progress} a[href="/games/{mistake.pk}/"]').count() == 0
    assert page.locator(f'{in_progress} a[href="/games/{potdevin.pk}/"]').count() == 1
    assert not Game.objects.filter(pk=mistake.pk).exists()
    assert GameEvent.objects.filter(game_id=mistake.pk, action="deleted").count() == 1

    # --- 9. A share link of the Pot de Vin game, opened by a guest ----------------------------
    page.goto(f"{base}/games/{potdevin.pk}/")
    with page.expect_navigation():
        page.click("#share-new")
    boxes = page.locator("#shares li[data-link]")
    assert boxes.count() == 1
    shared = link_box(page, boxes.first, "QR code of the share link", language)
    assert shared.startswith(f"{base}/shared/")
    guest_context = chromium(locale="en-US")
    use_language(guest_context, base, language)
    guest = guest_context.new_page()
    guest.goto(shared)
    assert guest.url == shared
    assert guest.get_attribute("html", "lang") == language
    assert guest.locator("#shared-note").is_visible()
    title = words(
        language, "%(game_label)s · game #%(number)s", game_label="Pot de Vin", number=potdevin.pk
    )
    assert guest.inner_text("main h1") == title
    assert guest.locator("a#deck-name").count() == 0  # the deck's page is the members'
    shown = guest.inner_text("main")
    assert all(name in shown for name in NAMES), shown
    assert guest.locator("#save-round, #undo-round, #share-new, #game-delete").count() == 0
    # No link of a shared page sends the guest to sign in (its own anchors aside): this one, and
    # those of the finished Bruges and Catan games (links made with the service).
    hrefs = set(guest.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"))
    for finished_game in (bruges, play):
        made = services.share_create(game=finished_game, by=nina)
        guest.goto(f"{base}{made.get_absolute_url()}")
        assert guest.locator("#shared-note").is_visible()
        hrefs |= set(guest.eval_on_selector_all("a[href]", "links => links.map(a => a.href)"))
    followed = {h.split("#")[0] for h in hrefs if h.startswith(base)} - {guest.url}
    signing_in = []
    for href in sorted(followed):
        answer = guest_context.request.get(href, max_redirects=0)
        location = answer.headers.get("location") or ""
        if "/accounts/login/" in location or answer.status in (401, 403):
            signing_in.append(href.removeprefix(base))
    assert signing_in == [], signing_in
    guest_context.close()

    # --- 10. The owner starts a second club: a club switch, a compact header; and back ----------
    owner.goto(f"{base}/account/")
    owner.fill("#club-name", SECOND_CLUB)
    with owner.expect_navigation():
        owner.click('#club-new-form button[type="submit"]')
    second = Club.objects.get(name=SECOND_CLUB)
    assert owner.url == f"{base}/clubs/{second.slug}/invitations/"
    assert Membership.objects.get(club=second, user__username="olga").role == "owner"
    assert owner.locator("#club-switch").is_visible()
    assert owner.input_value("#club-switch") == second.slug
    header = owner.locator("header.site").bounding_box()
    assert header is not None and header["height"] <= 160, header
    fits_phone(owner)
    switch_club(owner, base, club.slug)
    assert owner.inner_text("main h1") == CLUB_NAME
    assert owner.input_value("#club-switch") == club.slug

    # --- 11. Leaderboards with Catan's, a player's Catan section ------------------------------
    board = f"table#board-other-{catan.pk}"
    assert owner.locator("table#board-bruges").count() == 1
    assert owner.locator(board).count() == 1
    assert owner.locator(f"{board} caption").inner_text().startswith("Catan")
    assert owner.locator(f"{board} tbody tr").count() == 4
    shoot(owner, f"evening-home-{language}", desktop=False)
    owner.goto(f"{base}/clubs/{club.slug}/results/")
    assert owner.locator("table#board-bruges").count() == 1
    assert owner.locator(board).count() == 1
    ada = Player.objects.get(club=club, name="Ada")
    owner.goto(f"{base}/players/{ada.pk}/")
    section = owner.locator(f"#game-other-{catan.pk}")
    assert section.count() == 1
    heading = words(language, "Statistics: %(game)s", game="Catan")
    assert section.locator("h2").inner_text() == heading
    assert owner.locator("#game-bruges").count() == 1

    # --- 12. BG Stats out and in: already here, discarded, nothing changed ---------------------
    owner.goto(f"{base}/")
    with owner.expect_download() as download:
        owner.click("#export-bgstats")
    exported = tmp_path / "BGStatsExport.json"
    download.value.save_as(exported)
    document = json.loads(exported.read_text())
    finished = Game.objects.filter(club=club, status=Game.Status.FINISHED).count()
    assert finished == 2  # Bruges and Catan: the games in progress are not plays yet
    assert len(document["plays"]) == finished
    counts = (Game.objects.count(), Player.objects.count(), BoardGame.objects.count())
    owner.goto(f"{base}/imports/")
    owner.set_input_files("#id_file", str(exported))
    with owner.expect_navigation():
        owner.click('#import-upload button[type="submit"]')
    job = Job.objects.get(kind=Job.Kind.IMPORT)
    assert owner.url == f"{base}/imports/{job.pk}/"
    assert owner.locator("#import-dry-run").is_visible()
    # What the dry run plans for the plays (asserted at the end, once the plan is discarded).
    planned = {
        key: owner.inner_text(f"#count-{key}")
        for key in (
            "created",
            "updated",
            "unchanged",
            "skipped",
            "new-players",
            "new-games",
            "matched-players",
            "matched-games",
        )
    }
    with owner.expect_navigation():
        owner.click("#import-discard button")
    assert owner.locator("#confirm").is_visible()
    assert Job.objects.filter(pk=job.pk).exists()
    with owner.expect_navigation():
        owner.click("#confirm-yes")
    assert owner.url == f"{base}/imports/"
    assert message(owner) == words(language, "Import discarded: nothing of it was stored.")
    assert not Job.objects.filter(pk=job.pk).exists()
    assert (Game.objects.count(), Player.objects.count(), BoardGame.objects.count()) == counts
    # Every play of the file is one of the club's games already: nothing to create.
    assert planned == {
        "created": "0",
        "updated": "0",
        "unchanged": str(finished),
        "skipped": "0",
        "new-players": "0",
        "new-games": "0",
        # A play already here is not read again: no player or game of it is matched.
        "matched-players": "0",
        "matched-games": "0",
    }, planned
