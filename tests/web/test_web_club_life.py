"""A club's life on the pages, without holes: a club started from the settings page whatever
clubs one is in (a name refused at the field, never cut), the fresh server's club named by its
first owner from Home, every member listed (owners first) with the role in words, the
destructive club actions asking first, the invitation and share links shown whole with Copy,
Share and a QR code drawn by the server, and a role checked when an invitation or a share link
is used, not when it was made."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
import segno
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.records import clubs, services
from games.records.models import Club, GameShare, Invitation, Membership, Player
from games.web.qr import qr_svg
from tests.accounts import PASSWORD, first_club, make_user, signed_in
from tests.builders import complots_game

pytestmark = pytest.mark.django_db

User = get_user_model()


def page(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def club() -> Club:
    """The fresh server's club, as the migrations made it: "Club", slug "club"."""
    made = first_club()
    assert (made.name, made.slug) == ("Club", "club")
    return made


@pytest.fixture
def owner(club: Club) -> Any:
    return make_user("olga", club=club, role="owner")


@pytest.fixture
def owner_web(owner: Any) -> Client:
    return signed_in(owner)


def field_of(html: str, field_id: str) -> str:
    """The ``<div class="field">`` that holds the input ``field_id``."""
    before, after = html.split(f'id="{field_id}"', 1)
    return before[before.rindex('<div class="field') :] + after.split("<button", 1)[0]


# --- 1. Starting a club, whatever clubs one is in --------------------------------------------


def test_a_member_of_a_club_starts_another_from_the_settings_page(club: Club, owner: Any) -> None:
    alice = make_user("alice", club=club, role="member")
    web = signed_in(alice)
    html = page(web.get(reverse("web:account")))
    section = html.split('id="club-new"')[1]
    assert "Start a club" in section
    assert f'action="{reverse("web:club-new")}"' in section
    assert '<label for="club-name">The club&#x27;s name</label>' in section
    assert "1 to 80 characters." in section
    assert "maxlength" not in section.split("</form>")[0]  # a long name is refused, never cut
    # The members page leads there too.
    members = page(web.get(reverse("web:club-members", args=[club.slug])))
    assert f'href="{reverse("web:club-new")}"' in members and "Start another club" in members

    response = web.post(reverse("web:club-new"), {"name": "Circolo Pisa"})
    started = Club.objects.get(name="Circolo Pisa")
    assert response.status_code == 302
    assert response["Location"] == reverse("web:club-invitations", args=[started.slug])
    assert Membership.objects.get(club=started, user=alice).role == "owner"
    assert Membership.objects.get(club=club, user=alice).role == "member"  # still in the first
    assert "<h1>Circolo Pisa</h1>" in page(web.get(reverse("web:home")))


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("x" * 81, "a name has at most 80 characters, not 81"),
        ("Circolo " + "P" * 100, "a name has at most 80 characters, not 108"),
        ("", "Give the club a name."),
        ("   ", "a name cannot be blank"),
    ],
)
def test_a_long_or_empty_name_is_refused_at_the_field_with_the_limit_said(
    club: Club, owner_web: Client, name: str, said: str
) -> None:
    clubs_before = Club.objects.count()
    response = owner_web.post(reverse("web:club-new"), {"name": name})
    assert response.status_code == 400
    html = page(response)
    field = field_of(html, "club-name")
    assert "has-error" in field and said in field and "1 to 80 characters." in field
    assert Club.objects.count() == clubs_before  # nothing started, nothing cut
    if name.strip():
        assert f'value="{name}"' in field  # the name as typed, to shorten by hand


def test_a_name_at_the_limit_starts_the_club(club: Club, owner_web: Client) -> None:
    name = "Ü" * 80
    assert owner_web.post(reverse("web:club-new"), {"name": name}).status_code == 302
    assert Club.objects.filter(name=name).count() == 1


def test_the_new_club_page_without_a_form_posted(owner_web: Client, owner: Any) -> None:
    html = page(owner_web.get(reverse("web:club-new")))
    assert 'id="club-new-form"' in html and "<h1>Start a club</h1>" in html
    assert Client().get(reverse("web:club-new")).status_code == 302  # sign in first


# --- 2. The first owner names the fresh server's club ----------------------------------------


def test_the_first_owner_names_the_club_from_home_and_the_prompt_goes(
    club: Club, owner_web: Client
) -> None:
    assert clubs.unnamed(club)
    html = page(owner_web.get(reverse("web:home")))
    prompt = html.split('id="club-naming"')[1].split("</section>")[0]
    assert "Name your club" in prompt and "Name the club" in prompt
    assert f'action="{reverse("web:club-name", args=[club.slug])}"' in prompt
    assert '<label for="club-name">The club&#x27;s name</label>' in prompt

    response = owner_web.post(reverse("web:club-name", args=[club.slug]), {"name": "Circolo Pisa"})
    assert response.status_code == 302 and response["Location"] == reverse("web:home")
    club.refresh_from_db()
    assert (club.name, club.slug) == ("Circolo Pisa", "club")  # the slug never changes
    assert not clubs.unnamed(club)
    home = page(owner_web.get(reverse("web:home")))
    assert "<h1>Circolo Pisa</h1>" in home and "The club is called Circolo Pisa now." in home
    assert 'id="club-naming"' not in home and "Name your club" not in home


def test_only_owners_see_the_naming_prompt_and_name_the_club(club: Club, owner: Any) -> None:
    for username, role in (("adam", "admin"), ("rita", "recorder"), ("max", "member")):
        web = signed_in(make_user(username, club=club, role=role))
        html = page(web.get(reverse("web:home")))
        assert 'id="club-naming"' not in html and "Name your club" not in html, role
        refused = web.post(reverse("web:club-name", args=[club.slug]), {"name": "Mine"})
        assert refused.status_code == 403, role
    club.refresh_from_db()
    assert club.name == "Club"
    # Staff act as owners everywhere: the first account of a fresh server is one.
    staff = signed_in(make_user("stan", is_staff=True, role=None))
    assert 'id="club-naming"' in page(staff.get(reverse("web:home")))
    # An outsider: not found.
    bravo = Club.objects.create(name="Bravo", slug="bravo")
    zed = signed_in(make_user("zed", club=bravo, role="owner"))
    assert 'id="club-naming"' not in page(zed.get(reverse("web:home")))
    assert zed.post(reverse("web:club-name", args=[club.slug]), {"name": "X"}).status_code == 404


def test_a_club_named_by_its_owner_or_started_later_is_not_prompted(owner: Any) -> None:
    first = first_club()
    clubs.club_update(club=first, name="Tarot")
    started = clubs.club_create(name="Club", owner=owner)  # the slug "club" is taken: club-2
    assert started.slug != "club" and not clubs.unnamed(started) and not clubs.unnamed(first)
    web = signed_in(owner)
    for chosen in (first, started):
        web.post(reverse("web:club-switch"), {"club": chosen.slug})
        assert 'id="club-naming"' not in page(web.get(reverse("web:home")))


def test_a_refused_name_for_the_club_is_said_at_the_field(club: Club, owner_web: Client) -> None:
    response = owner_web.post(reverse("web:club-name", args=[club.slug]), {"name": "y" * 81})
    assert response.status_code == 400
    field = field_of(page(response), "club-name")
    assert "a name has at most 80 characters, not 81" in field
    assert f'value="{"y" * 81}"' in field
    club.refresh_from_db()
    assert club.name == "Club"


# --- 3. Every member, owners first, each with the role in words -------------------------------


def test_the_members_page_lists_every_member_owners_first(club: Club, owner: Any) -> None:
    for username, role in (
        ("zoe", "owner"),
        ("Bea", "member"),
        ("adam", "admin"),
        ("rita", "recorder"),
        ("ann", "member"),
        ("carl", "admin"),
    ):
        make_user(username, club=club, role=role)
    expected = [
        ("olga", "owner", "Owner"),
        ("zoe", "owner", "Owner"),
        ("adam", "admin", "Admin"),
        ("carl", "admin", "Admin"),
        ("rita", "recorder", "Recorder"),
        ("ann", "member", "Member"),
        ("Bea", "member", "Member"),
    ]
    for viewer in ("olga", "ann"):  # an owner (the forms) and a member (the words only)
        html = page(
            signed_in(User.objects.get(username=viewer)).get(
                reverse("web:club-members", args=[club.slug])
            )
        )
        listed = re.findall(r'<li id="member-([^"]+)" data-role="([a-z]+)">', html)
        assert listed == [(u.lower(), r) for u, r, _ in expected], viewer
        for username, _, words in expected:
            row = html.split(f'id="member-{username.lower()}"')[1].split("</li>")[0]
            assert f'<span class="role">{words}</span>' in row, (viewer, username)
            assert f"<strong>{username}</strong>" in row


# --- 4. Destructive club actions ask first -----------------------------------------------------


def test_removing_a_member_asks_first_naming_who_and_what_goes(
    club: Club, owner_web: Client
) -> None:
    club.name = "Circolo Pisa"
    club.save()
    anna = make_user("anna", club=club, role="recorder")
    player = Player.objects.create(club=club, name="Anna", user=anna)
    url = reverse("web:club-member-remove", args=[club.slug, "anna"])
    asked = owner_web.post(url)
    assert asked.status_code == 200
    html = page(asked)
    assert "Remove anna from Circolo Pisa?" in html
    assert "They lose access to its games; their player stays in the roster." in html
    assert 'id="confirm-yes"' in html and ">Remove anna</button>" in html
    assert f'href="{reverse("web:club-members", args=[club.slug])}" id="confirm-no"' in html
    assert Membership.objects.filter(club=club, user=anna).exists()
    done = owner_web.post(url, {"confirmed": "yes"})
    assert done.status_code == 302
    assert not Membership.objects.filter(club=club, user=anna).exists()
    player.refresh_from_db()
    assert player.user is None  # the player stays in the roster


def test_leaving_asks_first(club: Club, owner: Any) -> None:
    max_ = make_user("max", club=club, role="member")
    web = signed_in(max_)
    url = reverse("web:club-member-remove", args=[club.slug, "max"])
    html = page(web.get(reverse("web:club-members", args=[club.slug])))
    # The leave button sits apart, after the list.
    assert html.index('id="leave-club"') > html.index("</ul>", html.index('id="members"'))
    asked = web.post(url)
    assert asked.status_code == 200
    assert "Leave Club?" in page(asked) and ">Leave the club</button>" in page(asked)
    assert Membership.objects.filter(club=club, user=max_).exists()
    assert web.post(url, {"confirmed": "yes"}).status_code == 302
    assert not Membership.objects.filter(club=club, user=max_).exists()


def test_revoking_an_invitation_asks_first(club: Club, owner: Any, owner_web: Client) -> None:
    made = clubs.invitation_create(club=club, role="recorder", by=owner)
    url = reverse("web:club-invitation-revoke", args=[club.slug, made.pk])
    asked = owner_web.post(url)
    assert asked.status_code == 200
    assert "Revoke this invitation to Club?" in page(asked)
    assert "Its link (Recorder) then opens nothing" in page(asked)
    assert Invitation.objects.open().filter(pk=made.pk).exists()
    assert owner_web.post(url, {"confirmed": "yes"}).status_code == 302
    assert not Invitation.objects.open().filter(pk=made.pk).exists()


def test_stopping_a_share_link_asks_first(club: Club, owner: Any) -> None:
    alice = make_user("alice", club=club, role="recorder")
    game = complots_game(alice)
    share = services.share_create(game=game, by=alice)
    web = signed_in(alice)
    url = reverse("web:share-revoke", args=[game.pk, share.token])
    asked = web.post(url)
    assert asked.status_code == 200 and "Stop this share link?" in page(asked)
    assert "whoever has it can no longer follow this game" in page(asked)
    assert Client().get(f"/shared/{share.token}/").status_code == 200
    assert web.post(url, {"confirmed": "yes"}).status_code == 302
    assert Client().get(f"/shared/{share.token}/").status_code == 404


# --- 5. Links shown whole, Copy, Share and a QR code ----------------------------------------


def dark_modules(svg: str) -> tuple[int, set[tuple[int, int]]]:
    """The size of the SVG's viewBox and the modules its dark path draws (segno draws rows of
    horizontal strokes one module wide, centred on y + 0.5: "M x y" and "m dx dy" move, "h n"
    draws n modules)."""
    root = ET.fromstring(svg)  # well-formed XML
    assert root.tag == "svg"
    x0, y0, width, height = (float(n) for n in root.attrib["viewBox"].split())
    assert (x0, y0) == (0, 0) and width == height
    (path,) = [p for p in root.iter("path") if p.attrib.get("stroke") == "#000"]
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHh])([-\d.\s]+)", path.attrib["d"]):
        values = [float(n) for n in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            for column in range(int(x), int(x + values[0])):
                dark.add((column, int(y - 0.5)))
            x += values[0]
    return int(width), dark


def test_the_qr_code_is_accessible_svg_of_the_links_modules() -> None:
    url = "https://potdevin.example.org/invite/" + "Ab3_-" * 6 + "xy/"
    svg = str(qr_svg(url, "QR code of <the> link"))
    root = ET.fromstring(svg)
    assert root.attrib["role"] == "img"
    assert root.find("title") is not None
    assert root.find("title").text == "QR code of <the> link"  # escaped in the markup
    size, dark = dark_modules(svg)
    # A regular QR code (not Micro QR), version v: 17 + 4v modules and a quiet zone of 4.
    code = segno.make_qr(url)
    assert not code.is_micro
    modules = 17 + 4 * int(code.version)
    assert size == modules + 8
    # The three finder patterns where ISO/IEC 18004 puts them: a dark 7x7 ring, a light ring,
    # a dark 3x3 core; light separators around; a quiet zone of 4 light modules.
    for left, top in ((0, 0), (modules - 7, 0), (0, modules - 7)):
        for dy in range(7):
            for dx in range(7):
                ring = max(abs(dx - 3), abs(dy - 3))
                expected = ring != 2  # rings 3 (outer) and 0..1 (core) dark, ring 2 light
                assert ((4 + left + dx, 4 + top + dy) in dark) == expected, (left, top, dx, dy)
    for i in range(8):
        assert (4 + 7, 4 + i) not in dark and (4 + i, 4 + 7) not in dark  # separator
    assert all(x >= 4 and y >= 4 and x < 4 + modules and y < 4 + modules for x, y in dark)
    # Every module as segno's own matrix has it.
    matrix = {(x + 4, y + 4) for y, row in enumerate(code.matrix) for x, v in enumerate(row) if v}
    assert dark == matrix


def test_an_invitation_link_is_shown_whole_with_copy_share_and_its_qr(
    club: Club, owner: Any, owner_web: Client
) -> None:
    made = clubs.invitation_create(club=club, role="member", by=owner)
    html = page(owner_web.get(reverse("web:club-invitations", args=[club.slug])))
    link = f"http://testserver{made.get_absolute_url()}"
    item = html.split(f'id="i{made.pk}"')[1].split("</li>")[0]
    assert f'<label for="invitation-{made.pk}">' in item
    assert f'<textarea readonly id="invitation-{made.pk}"' in item
    assert f"data-link-text>{link}</textarea>" in item
    assert ">Copy link</button>" in item and ">Share…</button>" in item
    assert 'role="status" aria-live="polite"' in item
    svg = item.split('<div class="qr-code">')[1].split("</div>")[0]
    assert svg == str(qr_svg(link, "QR code of the invitation link"))
    assert "<title>QR code of the invitation link</title>" in svg
    assert '/static/js/links.js"' in html
    # The revoke button comes after the link's own buttons and its QR code.
    assert item.index("Revoke") > item.index("qr-code")


def test_a_share_link_is_shown_whole_with_copy_share_and_its_qr(club: Club, owner: Any) -> None:
    alice = make_user("alice", club=club, role="recorder")
    game = complots_game(alice)
    share = services.share_create(game=game, by=alice)
    html = page(signed_in(alice).get(reverse("web:game", args=[game.pk])))
    section = html.split('id="shares"')[1].split("</section>")[0]
    link = f"http://testserver/shared/{share.token}/"
    assert f"data-link-text>{link}</textarea>" in section
    assert '<label for="share-1">Share link</label>' in section
    assert ">Copy link</button>" in section and ">Share…</button>" in section
    svg = section.split('<div class="qr-code">')[1].split("</div>")[0]
    assert svg == str(qr_svg(link, "QR code of the share link"))
    assert '/static/js/links.js"' in section
    assert section.index("Stop this link") > section.index("qr-code")


# --- 6. A role counts when the link is used, not when it was made -----------------------------


@pytest.mark.parametrize("change", ["demoted", "removed", "deleted", "deactivated"])
def test_an_invitation_of_an_admin_no_longer_admin_opens_nothing(
    club: Club, owner: Any, owner_web: Client, change: str
) -> None:
    adam = make_user("adam", club=club, role="admin")
    made = clubs.invitation_create(club=club, role="recorder", by=adam)
    lone = make_user("lone", role=None)
    assert Client().get(made.get_absolute_url()).status_code == 200
    if change == "demoted":
        Membership.objects.filter(club=club, user=adam).update(role="recorder")
    elif change == "removed":
        clubs.member_remove(club=club, user_id=adam.pk, by=owner)
    elif change == "deleted":
        adam.delete()
    else:
        User.objects.filter(pk=adam.pk).update(is_active=False)
    link = made.get_absolute_url()
    newcomer = Client()
    assert newcomer.get(link).status_code == 404
    signing_up = {"username": "nina", "password1": PASSWORD, "password2": PASSWORD}
    assert newcomer.post(link, signing_up).status_code == 404
    assert not User.objects.filter(username="nina").exists()
    joining = signed_in(lone)
    assert joining.get(link).status_code == 404
    assert joining.post(link).status_code == 404
    assert not Membership.objects.filter(user=lone).exists()
    # Not listed as open, not counted, and revoked no more.
    assert not Invitation.objects.open().filter(pk=made.pk).exists()
    listed = page(owner_web.get(reverse("web:club-invitations", args=[club.slug])))
    assert made.token not in listed and "No open invitation." in listed
    revoke = reverse("web:club-invitation-revoke", args=[club.slug, made.pk])
    assert owner_web.post(revoke).status_code == 404


def test_an_invitation_opens_while_its_maker_may_still_invite(club: Club, owner: Any) -> None:
    adam = make_user("adam", club=club, role="admin")
    made = clubs.invitation_create(club=club, role="member", by=adam)
    # Promoted to owner: still able.
    Membership.objects.filter(club=club, user=adam).update(role="owner")
    assert Client().get(made.get_absolute_url()).status_code == 200
    # A staff member in no club invites anywhere.
    stan = make_user("stan", is_staff=True, role=None)
    by_staff = clubs.invitation_create(club=club, role="member", by=stan)
    joining = signed_in(make_user("lone", role=None))
    assert joining.post(by_staff.get_absolute_url()).status_code == 302
    assert Membership.objects.get(club=club, user__username="lone").role == "member"
    # An admin of another club is no admin of this one.
    bravo = Club.objects.create(name="Bravo", slug="bravo")
    Membership.objects.filter(club=club, user=adam).update(club=bravo, role="admin")
    assert Client().get(made.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("change", ["demoted", "removed", "deleted"])
def test_a_share_link_of_a_recorder_no_longer_recorder_shows_nothing(
    club: Club, owner: Any, change: str
) -> None:
    rita = make_user("rita", club=club, role="recorder")
    game = complots_game(owner)  # the game is the owner's: a deleted account owns no game
    share = services.share_create(game=game, by=rita)
    by_owner = services.share_create(game=game, by=owner)
    shared = f"/shared/{share.token}/"
    assert Client().get(shared).status_code == 200
    if change == "demoted":
        Membership.objects.filter(club=club, user=rita).update(role="member")
    elif change == "removed":
        clubs.member_remove(club=club, user_id=rita.pk, by=owner)
    else:
        rita.delete()
    assert Client().get(shared).status_code == 404
    assert Client().get(f"/shared/{by_owner.token}/").status_code == 200
    html = page(signed_in(owner).get(reverse("web:game", args=[game.pk])))
    assert share.token not in html and by_owner.token in html
    assert list(GameShare.objects.active().filter(game=game)) == [by_owner]


def test_a_share_link_of_staff_keeps_working(club: Club) -> None:
    stan = make_user("stan", is_staff=True, role=None)
    alice = make_user("alice", club=club, role="recorder")
    share = services.share_create(game=complots_game(alice), by=stan)
    assert Client().get(f"/shared/{share.token}/").status_code == 200
