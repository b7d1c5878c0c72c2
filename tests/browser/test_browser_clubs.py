"""Clubs in a real headless Chromium (tests/browser/pages.py), at phone size: an admin makes a
recorder's invitation and reads its link off the page; a new person opens it on their phone,
makes an account, lands on the club's home and records a Pot de Vin round through the pages;
a user of another club sees none of it. The club pages (invitations, members, the invitation
link's sign-up, settings, results, no club yet) read on a phone in each language of the pages,
with long names."""

from __future__ import annotations

from typing import Any

import pytest

from games.records import clubs, services
from games.records.models import Club, Game, Invitation, Membership, Player, Round
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import PASSWORD, first_club, make_user
from tests.browser.pages import LANGUAGES, PHONE, fits_phone, sign_in, use_language
from tests.browser.test_browser import enter_round
from tests.browser.test_browser_layout import long_names, reads_on_a_phone

NEWCOMER = "nina"


def open_invitations(club: Club) -> int:
    return Invitation.objects.open().filter(club=club).count()


# The names the newcomer types: hers first, then two friends of the club.
NAMES = ["Nina", "Ada", "Bea"]


@pytest.mark.django_db(transaction=True)
def test_an_invited_recorder_signs_up_on_a_phone_and_records_a_round_no_other_club_sees_it(
    live_server: Any, chromium: Any
) -> None:
    services.editions_ensure_builtin()
    club = first_club()
    make_user("olga", club=club, role="admin")
    bravo = Club.objects.create(name="Bravo", slug="bravo")
    zed = make_user("zed", club=bravo, role="owner")
    theirs = services.game_create(
        club=bravo,
        owner=zed,
        players=services.players_resolve(
            club=bravo, refs=["Xavier", "Yves", "Zoe"], created_by=zed
        ),
        game_type="pot-de-vin",
        first_player=0,
    )
    base = live_server.url

    # The admin makes a recorder's invitation and reads its link.
    admin = chromium(locale="en-US").new_page()
    sign_in(admin, base, "olga")
    admin.goto(f"{base}/clubs/{club.slug}/members/")
    with admin.expect_navigation():
        admin.click(f'a[href="/clubs/{club.slug}/invitations/"]')
    admin.select_option("#id_role", "recorder")
    with admin.expect_navigation():
        admin.click('#invitation-new button[type="submit"]')
    assert "it works once" in admin.inner_text(".messages")
    links = admin.locator("#invitations textarea.share-url")
    assert links.count() == 1
    link = links.input_value()
    assert link.startswith(f"{base}/invite/")
    fits_phone(admin)
    # The link's own buttons (static/js/links.js): Copy says so in its live region; Share only
    # where the browser shares (not this one); the QR code drawn by the server, titled.
    item = admin.locator("#invitations li").first
    item.get_by_role("button", name="Copy link").click()
    said = item.locator("[data-said]")
    said.filter(has_text=".").wait_for()
    assert said.inner_text() in ("Copied.", "The link is selected: copy it with your phone's menu.")
    shares = admin.evaluate("typeof navigator.share === 'function'")
    assert item.get_by_role("button", name="Share…").is_visible() == shares
    assert item.get_by_role("img", name="QR code of the invitation link").count() == 1

    # A new person on their phone opens the link and makes an account.
    phone = chromium(locale="en-US", viewport=PHONE)
    page = phone.new_page()
    page.goto(link)
    assert page.inner_text("h1") == f"Join {club.name}"
    assert "Recorder" in page.inner_text("#invitation")
    fits_phone(page)
    page.fill("#id_username", NEWCOMER)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    with page.expect_navigation():
        page.click('#sign-up button[type="submit"]')
    assert page.url == f"{base}/"
    assert page.inner_text("main h1") == club.name
    assert f"Welcome to {club.name}." in page.inner_text(".messages")
    assert Membership.objects.get(club=club, user__username=NEWCOMER).role == "recorder"
    # The admin's link is used now: it opens nothing any more.
    assert admin.goto(link).status == 404

    # She starts a Pot de Vin game from the club's home and records its first round.
    log = simulate(3, seed=21, record_deal=False, names=NAMES)
    with page.expect_navigation():
        page.click("main a.button.primary")  # New game
    page.get_by_role("link", name="Pot de Vin").click()
    for seat, name in enumerate(log["players"]):
        page.fill(f"#id_player_{seat}", name)
    page.select_option("#id_first_player", str(log["first_player"]))
    with page.expect_navigation():
        page.click('#new-game button[type="submit"]')
    game = Game.objects.get(club=club)
    assert page.url == f"{base}/games/{game.pk}/"
    assert game.owner.username == NEWCOMER
    enter_round(page, log["rounds"][0], 1)
    assert Round.objects.filter(game=game).count() == 1
    fits_phone(page)
    page.goto(f"{base}/")
    assert page.locator(f'main a[href="/games/{game.pk}/"]').count() == 1
    page.goto(f"{base}/players/")
    assert "Nina" in page.inner_text("main")
    phone.close()

    # A user of another club sees none of it.
    other = chromium(locale="en-US").new_page()
    sign_in(other, base, "zed")
    assert other.inner_text("main h1") == bravo.name
    assert other.locator(f'a[href="/games/{game.pk}/"]').count() == 0
    assert other.locator(f'a[href="/games/{theirs.pk}/"]').count() == 1
    assert other.goto(f"{base}/games/{game.pk}/").status == 404
    other.goto(f"{base}/players/")
    listed = other.inner_text("main")
    assert "Xavier" in listed
    for name in NAMES:
        assert name not in listed, name
    nina = Player.objects.get(club=club, name="Nina")
    assert other.goto(f"{base}/players/{nina.pk}/").status == 404
    assert other.goto(f"{base}/clubs/{club.slug}/members/").status == 404
    assert other.goto(link).status == 404


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.django_db(transaction=True)
def test_the_club_pages_read_on_a_phone(live_server: Any, chromium: Any, language: str) -> None:
    services.editions_ensure_builtin()
    name = long_names(1)[0]
    club = first_club()
    club.name = name
    club.save(update_fields=["name"])
    admin = make_user("olga", club=club, role="owner")
    # Usernames as long as people make them (Django allows 150 characters, without spaces).
    for username, role in (
        ("anne-sophie.delatour-dauvergne", "admin"),
        ("bartholomew_montmorency_1987", "recorder"),
        ("constantine@example.org", "member"),
    ):
        make_user(username, club=club, role=role)
    bravo = clubs.club_create(name=long_names(2)[1], owner=admin)  # the switcher shows
    lone = make_user("lone", role=None)
    assert bravo and lone
    clubs.invitation_create(club=club, role="recorder", by=admin)
    clubs.invitation_create(club=club, role="admin", by=admin, days=30)
    link = clubs.invitation_create(club=club, role="member", by=admin).get_absolute_url()
    base = live_server.url

    context = chromium(locale="en-US")
    use_language(context, base, language)
    page = context.new_page()
    sign_in(page, base, "olga")
    page.goto(f"{base}/clubs/{club.slug}/members/")
    # A role to change for each member but the admin, a player to link for everyone.
    assert page.locator("#members select[name=role]").count() == 3
    assert page.locator("#members select[name=player]").count() == 4
    reads_on_a_phone(page, f"club-members-{language}")
    # Every member listed, the owner first; removing one asks first (the Yes: #confirm-yes).
    assert page.locator("#members li").first.get_attribute("id") == "member-olga"
    with page.expect_navigation():
        page.locator("#member-constantineexampleorg form.destructive button").click()
    reads_on_a_phone(page, f"club-member-remove-confirm-{language}")
    assert Membership.objects.filter(club=club, user__username="constantine@example.org").exists()
    with page.expect_navigation():
        page.click("#confirm-yes")
    assert page.locator("#member-constantineexampleorg").count() == 0
    assert not Membership.objects.filter(
        club=club, user__username="constantine@example.org"
    ).exists()
    page.goto(f"{base}/clubs/{club.slug}/invitations/")
    assert page.locator("#invitations textarea.share-url").count() == 3
    assert page.locator("#invitations svg.qr").count() == 3
    reads_on_a_phone(page, f"club-invitations-{language}")
    # Revoking one (the first made, listed last) asks first: the question page, then its Yes.
    with page.expect_navigation():
        page.locator("#invitations form.destructive button").last.click()
    reads_on_a_phone(page, f"club-invitation-revoke-confirm-{language}")
    with page.expect_navigation():
        page.click("#confirm-yes")
    assert page.locator("#invitations textarea.share-url").count() == 2
    assert open_invitations(club) == 2
    page.goto(f"{base}/clubs/{club.slug}/settings/")
    page.check("#id_public_results")
    with page.expect_navigation():
        page.click('#club-settings button[type="submit"]')
    assert page.locator("#results-url").count() == 1
    reads_on_a_phone(page, f"club-settings-{language}")

    newcomer = chromium(locale="en-US")
    use_language(newcomer, base, language)
    invited = newcomer.new_page()
    invited.goto(f"{base}{link}")
    reads_on_a_phone(invited, f"invitation-sign-up-{language}")
    invited.fill("#id_username", "x" * 150)
    invited.fill("#id_password1", "short")
    invited.fill("#id_password2", "other")
    with invited.expect_navigation():
        invited.click('#sign-up button[type="submit"]')
    assert invited.locator(".error").count() >= 1
    reads_on_a_phone(invited, f"invitation-sign-up-errors-{language}")
    invited.goto(f"{base}/clubs/{club.slug}/results/")  # public now: anyone reads them
    reads_on_a_phone(invited, f"club-results-{language}")

    joining = chromium(locale="en-US")
    use_language(joining, base, language)
    joiner = joining.new_page()
    sign_in(joiner, base, "lone")
    assert joiner.locator("#no-club").count() == 1
    reads_on_a_phone(joiner, f"no-club-{language}")
    joiner.goto(f"{base}{link}")
    assert joiner.locator("#join").count() == 1
    reads_on_a_phone(joiner, f"invitation-join-{language}")
