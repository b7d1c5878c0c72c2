"""Clubs on the pages, through Django's test client: the members page and roles, invitations
made, revoked and taken (a new account, or a signed-in user of another club with one button),
the club switcher, leaving, the club's settings and public results, the page of a user in no
club, and the home, players, new-game and game pages scoped to the current club (another club's
game, players and names never show)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.records import clubs, services
from games.records.models import Club, Edition, Game, Invitation, Membership, Player
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import PASSWORD, first_club, make_user, signed_in

pytestmark = pytest.mark.django_db

User = get_user_model()


def page(response: Any) -> str:
    return response.content.decode()


@pytest.fixture
def club_a(db: None) -> Club:
    return first_club()


@pytest.fixture
def club_b(db: None) -> Club:
    return Club.objects.create(name="Bravo Club", slug="bravo")


@pytest.fixture
def admin(club_a: Club) -> Any:
    return make_user("olga", club=club_a, role="admin")


@pytest.fixture
def admin_web(admin: Any) -> Client:
    return signed_in(admin)


@pytest.fixture
def outsider(club_b: Club) -> Any:
    """A recorder of club B, in no way a member of club A."""
    return make_user("zed", club=club_b, role="recorder")


@pytest.fixture
def outsider_web(outsider: Any) -> Client:
    return signed_in(outsider)


def new_game(club: Club, owner: Any, names: list[str], game_type: str = "pot-de-vin") -> Game:
    return services.game_create(
        club=club,
        owner=owner,
        players=services.players_resolve(club=club, refs=names, created_by=owner),
        game_type=game_type,
        first_player=0,
    )


def finished_game(club: Club, owner: Any, seed: int, names: list[str] | None = None) -> Game:
    log = simulate(3, seed=seed, record_deal=False, **({"names": names} if names else {}))
    (game,) = services.game_import(club=club, owner=owner, documents=[log])
    assert game.status == Game.Status.FINISHED
    return game


def invitation(club: Club, by: Any, role: str = "member", **changes: Any) -> Invitation:
    made = clubs.invitation_create(club=club, role=role, by=by)
    if changes:
        Invitation.objects.filter(pk=made.pk).update(**changes)
        made.refresh_from_db()
    return made


def game_links(html: str) -> set[int]:
    return {int(pk) for pk in re.findall(r'href="/games/(\d+)/"', html)}


# --- Members -------------------------------------------------------------------------------------


def test_the_members_page_lists_members_and_roles_with_role_selects_for_admins_only(
    club_a: Club, admin_web: Client, user: Any, other_user: Any
) -> None:
    url = reverse("web:club-members", args=[club_a.slug])
    html = page(admin_web.get(url))
    for username in ("olga", "alice", "bob"):
        assert f'id="member-{username}"' in html
    # The admin changes the others' roles (not their own), and removes them.
    assert html.count('<select name="role"') == 2
    assert f'action="{reverse("web:club-member-role", args=[club_a.slug, "alice"])}"' in html
    assert f'action="{reverse("web:club-member-remove", args=[club_a.slug, "bob"])}"' in html
    assert f'href="{reverse("web:club-invitations", args=[club_a.slug])}"' in html
    assert f'href="{reverse("web:club-settings", args=[club_a.slug])}"' in html
    olga_row = html.split('id="member-olga"')[1].split("</li>")[0]
    assert "Admin" in olga_row
    # Leaving is apart from the list, at the end of the page (it asks first).
    leave = html.split('id="leave-club"')[1]
    assert 'id="leave"' in leave
    assert f'action="{reverse("web:club-member-remove", args=[club_a.slug, "olga"])}"' in leave

    member = page(signed_in(other_user).get(url))
    for username in ("olga", "alice", "bob"):
        assert f'id="member-{username}"' in member
    assert "<select" not in member.split('id="members"')[1]
    alice_row = member.split('id="member-alice"')[1].split("</li>")[0]
    olga_row = member.split('id="member-olga"')[1].split("</li>")[0]
    bob_row = member.split('id="member-bob"')[1].split("</li>")[0]
    assert "Recorder" in alice_row and "Admin" in olga_row and "Member" in bob_row
    assert "Remove" not in member and 'id="leave"' not in bob_row
    leave = member.split('id="leave-club"')[1]
    assert f'action="{reverse("web:club-member-remove", args=[club_a.slug, "bob"])}"' in leave
    assert reverse("web:club-invitations", args=[club_a.slug]) not in member


def test_an_admin_changes_a_role_and_a_recorder_may_not(
    club_a: Club, admin_web: Client, web: Client, user: Any, other_user: Any
) -> None:
    url = reverse("web:club-member-role", args=[club_a.slug, "bob"])
    response = admin_web.post(url, {"role": "recorder"})
    assert response.status_code == 302
    assert response["Location"] == reverse("web:club-members", args=[club_a.slug])
    assert Membership.objects.get(club=club_a, user=other_user).role == "recorder"
    assert "bob&#x27;s role changed." in page(admin_web.get(response["Location"]))

    assert web.post(url, {"role": "admin"}).status_code == 403  # alice records, no more
    assert Membership.objects.get(club=club_a, user=other_user).role == "recorder"
    remove = reverse("web:club-member-remove", args=[club_a.slug, "bob"])
    assert web.post(remove).status_code == 403
    assert web.post(remove, {"confirmed": "yes"}).status_code == 403
    assert Membership.objects.filter(club=club_a, user=other_user).exists()


def test_an_admin_may_not_make_an_owner_nor_change_an_owners_role(
    club_a: Club, admin_web: Client, other_user: Any
) -> None:
    make_user("oscar", club=club_a, role="owner")
    admin_web.post(reverse("web:club-member-role", args=[club_a.slug, "bob"]), {"role": "owner"})
    assert Membership.objects.get(club=club_a, user=other_user).role == "member"
    response = admin_web.post(
        reverse("web:club-member-role", args=[club_a.slug, "oscar"]),
        {"role": "member"},
        follow=True,
    )
    assert "only the club&#x27;s owners may do this" in page(response)
    assert Membership.objects.get(club=club_a, user__username="oscar").role == "owner"


def test_an_admin_removes_a_member(club_a: Club, admin_web: Client, other_user: Any) -> None:
    url = reverse("web:club-member-remove", args=[club_a.slug, "bob"])
    asked = admin_web.post(url)  # asks first: nothing removed yet
    assert asked.status_code == 200 and 'id="confirm-yes"' in page(asked)
    assert Membership.objects.filter(club=club_a, user=other_user).exists()
    response = admin_web.post(url, {"confirmed": "yes"}, follow=True)
    assert "bob is no longer a member." in page(response)
    assert not Membership.objects.filter(club=club_a, user=other_user).exists()


def test_an_admin_links_a_member_to_the_clubs_player(
    club_a: Club, club_b: Club, admin_web: Client, web: Client, other_user: Any, outsider: Any
) -> None:
    ada = Player.objects.create(club=club_a, name="Ada")
    theirs = Player.objects.create(club=club_b, name="Zoltan")
    url = reverse("web:club-member-player", args=[club_a.slug, "bob"])
    response = admin_web.post(url, {"player": str(ada.pk)}, follow=True)
    assert "bob&#x27;s player saved." in page(response)
    ada.refresh_from_db()
    assert ada.user == other_user
    bob_row = page(response).split('id="member-bob"')[1].split("</li>")[0]
    assert "Ada" in bob_row
    # Another club's player is no player of this club; a recorder may not link.
    response = admin_web.post(url, {"player": str(theirs.pk)}, follow=True)
    assert "there is no player" in page(response)
    theirs.refresh_from_db()
    assert theirs.user is None
    assert admin_web.post(url, {"player": "x"}).status_code == 404
    assert web.post(url, {"player": ""}).status_code == 403
    assert signed_in(outsider).post(url, {"player": ""}).status_code == 404
    ada.refresh_from_db()
    assert ada.user == other_user
    # An empty choice unlinks.
    admin_web.post(url, {"player": ""})
    ada.refresh_from_db()
    assert ada.user is None


def _club_pages(club: Club, admin: Any) -> list[tuple[str, str, dict[str, str]]]:
    made = invitation(club, admin)
    return [
        ("get", reverse("web:club-members", args=[club.slug]), {}),
        ("post", reverse("web:club-member-role", args=[club.slug, "bob"]), {"role": "admin"}),
        ("post", reverse("web:club-member-player", args=[club.slug, "bob"]), {"player": ""}),
        ("post", reverse("web:club-member-remove", args=[club.slug, "bob"]), {}),
        ("post", reverse("web:club-member-remove", args=[club.slug, "zed"]), {}),
        ("get", reverse("web:club-invitations", args=[club.slug]), {}),
        ("post", reverse("web:club-invitations", args=[club.slug]), {"role": "admin", "days": "3"}),
        ("post", reverse("web:club-invitation-revoke", args=[club.slug, made.pk]), {}),
        # The answers to the questions these ask first.
        ("post", reverse("web:club-member-remove", args=[club.slug, "bob"]), {"confirmed": "yes"}),
        (
            "post",
            reverse("web:club-invitation-revoke", args=[club.slug, made.pk]),
            {"confirmed": "yes"},
        ),
        ("get", reverse("web:club-name", args=[club.slug]), {}),
        ("post", reverse("web:club-name", args=[club.slug]), {"name": "Mine now"}),
        ("get", reverse("web:club-settings", args=[club.slug]), {}),
        ("post", reverse("web:club-settings", args=[club.slug]), {"name": "Mine now"}),
        ("get", reverse("web:club-results", args=[club.slug]), {}),
        ("post", reverse("web:club-switch"), {"club": club.slug}),
    ]


def test_an_outsider_gets_404_on_every_page_of_another_club(
    club_a: Club, admin: Any, other_user: Any, outsider_web: Client
) -> None:
    pages = _club_pages(club_a, admin)
    before = (
        list(Membership.objects.order_by("id").values_list("club_id", "user_id", "role")),
        list(Invitation.objects.open().values_list("id", flat=True)),
        Club.objects.get(pk=club_a.pk).name,
    )
    for method, url, data in pages:
        response = getattr(outsider_web, method)(url, data)
        assert response.status_code == 404, (method, url, response.status_code)
    after = (
        list(Membership.objects.order_by("id").values_list("club_id", "user_id", "role")),
        list(Invitation.objects.open().values_list("id", flat=True)),
        Club.objects.get(pk=club_a.pk).name,
    )
    assert after == before
    # A club that does not exist answers the same.
    assert outsider_web.get(reverse("web:club-members", args=["nowhere"])).status_code == 404


def test_the_club_pages_need_a_signed_in_user_but_public_results(
    client: Client, club_a: Club, admin: Any
) -> None:
    for method, url, data in _club_pages(club_a, admin):
        response = getattr(client, method)(url, data)
        if url == reverse("web:club-results", args=[club_a.slug]):
            assert response.status_code == 404  # not public
        else:
            assert response.status_code == 302, url
            assert response["Location"].startswith(reverse("web:login"))


# --- Invitations ---------------------------------------------------------------------------------


def test_an_admin_makes_an_invitation_and_revokes_it(club_a: Club, admin_web: Client) -> None:
    url = reverse("web:club-invitations", args=[club_a.slug])
    html = page(admin_web.get(url))
    assert "No open invitation." in html and 'id="invitation-new"' in html
    response = admin_web.post(url, {"role": "recorder", "days": "3"})
    assert response.status_code == 302
    made = Invitation.objects.get()
    assert made.role == "recorder" and made.club == club_a
    assert response["Location"] == f"{url}#i{made.pk}"
    assert made.expires_at - timezone.now() > dt.timedelta(days=2, hours=23)
    html = page(admin_web.get(url))
    link = f"http://testserver{reverse('web:invitation', args=[made.token])}"
    assert f"data-link-text>{link}</textarea>" in html
    assert "Invitation made: send the link to one person; it works once." in html
    assert "Recorder" in html.split(f'id="i{made.pk}"')[1]

    # Too many days, or no such role: the form says so, nothing made.
    refused = admin_web.post(url, {"role": "owner", "days": "99"})
    assert refused.status_code == 400
    assert Invitation.objects.count() == 1

    revoke = reverse("web:club-invitation-revoke", args=[club_a.slug, made.pk])
    asked = admin_web.post(revoke)  # asks first: still open
    assert asked.status_code == 200 and 'id="confirm-yes"' in page(asked)
    assert Invitation.objects.open().filter(pk=made.pk).exists()
    response = admin_web.post(revoke, {"confirmed": "yes"}, follow=True)
    assert "Invitation revoked: its link opens nothing now." in page(response)
    assert link not in page(response) and "No open invitation." in page(response)
    made.refresh_from_db()
    assert made.revoked_at is not None
    assert admin_web.post(revoke).status_code == 404  # revoked already
    assert admin_web.post(revoke, {"confirmed": "yes"}).status_code == 404
    assert Client().get(made.get_absolute_url()).status_code == 404


def test_a_recorder_may_not_see_or_make_invitations(club_a: Club, web: Client) -> None:
    url = reverse("web:club-invitations", args=[club_a.slug])
    assert web.get(url).status_code == 403
    assert web.post(url, {"role": "member", "days": "3"}).status_code == 403
    assert web.get(reverse("web:club-settings", args=[club_a.slug])).status_code == 403
    assert not Invitation.objects.exists()


def test_an_invitation_link_works_once(club_a: Club, admin: Any) -> None:
    made = invitation(club_a, admin, role="recorder")
    url = made.get_absolute_url()
    first = Client()
    response = first.post(url, {"username": "nina", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302
    second = Client()
    assert second.get(url).status_code == 404
    data = {"username": "otto", "password1": PASSWORD, "password2": PASSWORD}
    assert second.post(url, data).status_code == 404
    assert not User.objects.filter(username="otto").exists()


def test_the_sign_up_refuses_a_weak_password_and_creates_nothing(
    client: Client, club_a: Club, admin: Any
) -> None:
    made = invitation(club_a, admin, role="recorder")
    url = made.get_absolute_url()
    html = page(client.get(url))
    assert f"Join {club_a.name}" in html and 'id="sign-up"' in html
    assert "You are invited as: Recorder." in html
    users = User.objects.count()
    response = client.post(url, {"username": "nina", "password1": "12345", "password2": "12345"})
    assert response.status_code == 400
    html = page(response)
    assert "This password is too short." in html
    assert "This password is entirely numeric." in html or "too common" in html
    response = client.post(
        url, {"username": "nina", "password1": PASSWORD, "password2": PASSWORD + "x"}
    )
    assert response.status_code == 400
    assert User.objects.count() == users
    assert not User.objects.filter(username="nina").exists()
    made.refresh_from_db()
    assert made.used_at is None
    assert "_auth_user_id" not in client.session


def test_the_sign_up_refuses_a_taken_username(client: Client, club_a: Club, admin: Any) -> None:
    made = invitation(club_a, admin)
    response = client.post(
        made.get_absolute_url(), {"username": "OLGA", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 400
    assert Invitation.objects.open().filter(pk=made.pk).exists()


def test_signing_up_logs_in_and_joins_the_club_with_the_invitations_role(
    client: Client, club_a: Club, club_b: Club, admin: Any, standard_deck: Edition
) -> None:
    outsider = make_user("zed", club=club_b, role="owner")
    new_game(club_b, outsider, ["Xavier", "Yves", "Zoltan"])
    ours = new_game(club_a, admin, ["Ada", "Bea", "Cy"])
    made = invitation(club_a, admin, role="recorder")
    response = client.post(
        made.get_absolute_url(),
        {"username": "nina", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response["Location"] == reverse("web:home")
    nina = User.objects.get(username="nina")
    assert nina.check_password(PASSWORD)
    assert list(Membership.objects.filter(user=nina).values_list("club_id", "role")) == [
        (club_a.pk, "recorder")
    ]
    made.refresh_from_db()
    assert made.used_by == nina and made.used_at is not None
    assert int(client.session["_auth_user_id"]) == nina.pk
    html = page(client.get(response["Location"]))
    assert f"<h1>{club_a.name}</h1>" in html
    assert f"Welcome to {club_a.name}." in html
    assert game_links(html) == {ours.pk}
    assert f'href="{reverse("web:game-new")}"' in html  # a recorder records


@pytest.mark.parametrize("state", ["used", "expired", "revoked", "unknown"])
def test_an_invitation_link_that_opens_nothing_is_not_found(
    club_a: Club, admin: Any, outsider_web: Client, state: str
) -> None:
    now = timezone.now()
    changes = {
        "used": {"used_at": now, "used_by": admin},
        "expired": {"expires_at": now - dt.timedelta(seconds=1)},
        "revoked": {"revoked_at": now},
        "unknown": {},
    }[state]
    made = invitation(club_a, admin, **changes)
    url = made.get_absolute_url() if state != "unknown" else f"/invite/{'x' * 32}/"
    anonymous = Client()
    assert anonymous.get(url).status_code == 404
    data = {"username": "nina", "password1": PASSWORD, "password2": PASSWORD}
    assert anonymous.post(url, data).status_code == 404
    assert outsider_web.get(url).status_code == 404
    assert outsider_web.post(url).status_code == 404
    assert not User.objects.filter(username="nina").exists()
    assert not Membership.objects.filter(club=club_a, user__username="zed").exists()


def test_a_user_of_another_club_joins_with_one_button_and_switches_clubs(
    club_a: Club, club_b: Club, admin: Any, outsider: Any, standard_deck: Edition
) -> None:
    theirs = new_game(club_b, outsider, ["Xavier", "Yves", "Zoltan"])
    ours = new_game(club_a, admin, ["Ada", "Bea", "Cy"])
    zed = signed_in(outsider)
    home = page(zed.get(reverse("web:home")))
    assert game_links(home) == {theirs.pk}
    assert 'id="club-switch"' not in home  # one club: nothing to switch

    made = invitation(club_a, admin, role="member")
    html = page(zed.get(made.get_absolute_url()))
    assert 'id="join"' in html and "Join as zed" in html and 'id="sign-up"' not in html
    response = zed.post(made.get_absolute_url())
    assert response.status_code == 302 and response["Location"] == reverse("web:home")
    assert Membership.objects.get(club=club_a, user=outsider).role == "member"
    assert Membership.objects.get(club=club_b, user=outsider).role == "recorder"
    # Joined: the club just joined is the current one.
    home = page(zed.get(reverse("web:home")))
    assert f"<h1>{club_a.name}</h1>" in home and game_links(home) == {ours.pk}
    assert f'href="{reverse("web:game-new")}"' not in home.split("</header>")[1]  # a member
    assert 'id="club-switch"' in home
    assert f'<option value="{club_b.slug}">{club_b.name}</option>' in home
    assert f'<option value="{club_a.slug}" selected>{club_a.name}</option>' in home

    response = zed.post(reverse("web:club-switch"), {"club": club_b.slug})
    assert response.status_code == 302 and response["Location"] == reverse("web:home")
    home = page(zed.get(reverse("web:home")))
    assert f"<h1>{club_b.name}</h1>" in home and game_links(home) == {theirs.pk}
    assert f'<option value="{club_b.slug}" selected>' in home

    zed.post(reverse("web:club-switch"), {"club": club_a.slug})
    home = page(zed.get(reverse("web:home")))
    assert f"<h1>{club_a.name}</h1>" in home and game_links(home) == {ours.pk}
    # A club they are not in cannot be switched to.
    Club.objects.create(name="Charlie", slug="charlie")
    assert zed.post(reverse("web:club-switch"), {"club": "charlie"}).status_code == 404
    assert zed.get(reverse("web:club-switch")).status_code == 405

    # Taken: the link is used, and a second look opens nothing.
    assert zed.get(made.get_absolute_url()).status_code == 404


def test_a_member_already_in_the_club_keeps_the_invitation_open(
    club_a: Club, admin: Any, web: Client
) -> None:
    made = invitation(club_a, admin, role="admin")
    response = web.post(made.get_absolute_url(), follow=True)
    assert response.status_code == 200
    assert "you are already a member of this club" in page(response)
    assert Membership.objects.get(club=club_a, user__username="alice").role == "recorder"
    assert Invitation.objects.open().filter(pk=made.pk).exists()


def test_leaving_a_club(
    club_a: Club, club_b: Club, outsider: Any, admin: Any, standard_deck: Edition
) -> None:
    Membership.objects.create(club=club_a, user=outsider, role="member")
    theirs = new_game(club_b, outsider, ["Xavier", "Yves", "Zoltan"])
    zed = signed_in(outsider)
    zed.post(reverse("web:club-switch"), {"club": club_a.slug})
    response = zed.post(
        reverse("web:club-member-remove", args=[club_a.slug, "zed"]),
        {"confirmed": "yes"},
        follow=True,
    )
    html = page(response)
    assert f"You left {club_a.name}." in html
    assert f"<h1>{club_b.name}</h1>" in html and game_links(html) == {theirs.pk}
    assert not Membership.objects.filter(club=club_a, user=outsider).exists()
    assert zed.get(reverse("web:club-members", args=[club_a.slug])).status_code == 404

    # The last owner stays (hand the club over first).
    clubs.member_role_set(club=club_a, user_id=admin.pk, role="owner", by=make_staff())
    olga = signed_in(admin)
    response = olga.post(
        reverse("web:club-member-remove", args=[club_a.slug, "olga"]),
        {"confirmed": "yes"},
        follow=True,
    )
    assert "the club&#x27;s last owner stays owner" in page(response)
    assert Membership.objects.filter(club=club_a, user=admin, role="owner").exists()


def make_staff() -> Any:
    return make_user("stan", is_staff=True, role=None)


# --- Settings and public results ----------------------------------------------------------------


def test_an_admin_changes_the_clubs_settings(club_a: Club, admin_web: Client) -> None:
    url = reverse("web:club-settings", args=[club_a.slug])
    html = page(admin_web.get(url))
    assert 'id="club-settings"' in html and f'value="{club_a.name}"' in html
    response = admin_web.post(url, {"name": "Les Joueurs", "public_results": "on"}, follow=True)
    assert "Club settings saved." in page(response)
    club_a.refresh_from_db()
    assert club_a.name == "Les Joueurs" and club_a.public_results
    assert reverse("web:club-results", args=[club_a.slug]) in page(response)
    response = admin_web.post(url, {"name": "Les Joueurs"})
    club_a.refresh_from_db()
    assert response.status_code == 302 and not club_a.public_results
    refused = admin_web.post(url, {"name": "   "})
    assert refused.status_code == 400
    club_a.refresh_from_db()
    assert club_a.name == "Les Joueurs"


def test_public_results_show_finished_games_and_leaderboards_without_player_links(
    client: Client,
    club_a: Club,
    admin: Any,
    outsider_web: Client,
    standard_deck: Edition,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):  # ratings follow the commit
        finished = finished_game(club_a, admin, seed=4)
    running = new_game(club_a, admin, ["Dee", "Eve", "Fay"])
    url = reverse("web:club-results", args=[club_a.slug])
    assert client.get(url).status_code == 404  # not public (yet)
    assert outsider_web.get(url).status_code == 404
    assert client.get(reverse("web:game", args=[finished.pk])).status_code == 302

    clubs.club_update(club=club_a, public_results=True)
    response = client.get(url)
    assert response.status_code == 200
    html = page(response)
    assert f"Results of {club_a.name}" in html
    assert game_links(html) == {finished.pk} and running.pk != finished.pk
    assert 'id="board-pot-de-vin"' in html
    board = html.split('id="board-pot-de-vin"')[1].split("</table>")[0]
    assert "Ada" in board and "/players/" not in board
    assert "/players/" not in html
    # The finished game opens for anyone; the running one does not.
    assert client.get(reverse("web:game", args=[finished.pk])).status_code == 200
    assert client.get(reverse("web:game", args=[running.pk])).status_code == 302
    # A signed-in user of another club reads them too, with no link to a player they cannot see.
    html = page(outsider_web.get(url))
    assert game_links(html) == {finished.pk}
    board = html.split('id="board-pot-de-vin"')[1].split("</table>")[0]
    assert "Ada" in board and "/players/" not in board
    assert outsider_web.get(reverse("web:game", args=[finished.pk])).status_code == 200


def test_the_results_page_of_a_member_links_the_players(
    club_a: Club,
    admin: Any,
    admin_web: Client,
    standard_deck: Edition,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        finished_game(club_a, admin, seed=4)
    html = page(admin_web.get(reverse("web:club-results", args=[club_a.slug])))
    ada = Player.objects.get(club=club_a, name="Ada")
    assert f'href="{reverse("web:player", args=[ada.pk])}"' in html


# --- No club, starting one -----------------------------------------------------------------------


def test_a_user_in_no_club_sees_the_no_club_page_and_starts_a_club(
    db: None, standard_deck: Edition
) -> None:
    lone = make_user("lone", role=None)
    client = signed_in(lone)
    for name in ("home", "players", "rescore"):
        html = page(client.get(reverse(f"web:{name}")))
        assert "No club yet" in html and 'id="no-club"' in html, name
        assert f'action="{reverse("web:club-new")}"' in html
    assert client.get(reverse("web:game-new-of", args=["pot-de-vin"])).status_code == 403

    response = client.post(reverse("web:club-new"), {"name": "Les Tarots du Jeudi"})
    club = Club.objects.get(name="Les Tarots du Jeudi")
    assert response.status_code == 302
    assert response["Location"] == reverse("web:club-invitations", args=[club.slug])
    assert Membership.objects.get(club=club, user=lone).role == "owner"
    html = page(client.get(response["Location"]))
    assert "Les Tarots du Jeudi started: invite its members." in html
    home = page(client.get(reverse("web:home")))
    assert "<h1>Les Tarots du Jeudi</h1>" in home
    assert f'href="{reverse("web:game-new")}"' in home.split("</header>")[1]
    assert client.get(reverse("web:game-new-of", args=["pot-de-vin"])).status_code == 200


def test_a_club_without_a_name_is_not_started(db: None) -> None:
    lone = make_user("lone", role=None)
    client = signed_in(lone)
    response = client.post(reverse("web:club-new"), {"name": "  "})
    # Refused at the field, with the limit said.
    assert response.status_code == 400 and 'id="club-new"' in page(response)
    assert "a name cannot be blank" in page(response) and "1 to 80 characters." in page(response)
    assert not Membership.objects.filter(user=lone).exists()


# --- The pages of the current club ---------------------------------------------------------------


def test_a_member_sees_no_new_game_button_and_may_not_start_one(
    other_web: Client, standard_deck: Edition
) -> None:
    html = page(other_web.get(reverse("web:home")))
    content = html.split('id="main"')[1]
    assert f'href="{reverse("web:game-new")}"' not in content
    assert f'href="{reverse("web:scorepad-new")}"' not in content
    for name, args in (
        ("web:game-new-of", ["pot-de-vin"]),
        ("web:game-new-of", ["complots"]),
        ("web:scorepad-new-of", ["pot-de-vin"]),
    ):
        assert other_web.get(reverse(name, args=args)).status_code == 403
    data = {"game_type": "pot-de-vin", "player_0": "A", "player_1": "B", "player_2": "C"}
    assert other_web.post(reverse("web:game-new-of", args=["pot-de-vin"]), data).status_code == 403
    assert not Game.objects.exists()


def test_a_member_may_not_open_the_new_game_choice(other_web: Client) -> None:
    assert other_web.get(reverse("web:game-new")).status_code == 403
    assert other_web.get(reverse("web:scorepad-new")).status_code == 403


def test_a_members_menu_has_no_new_game_link(other_web: Client) -> None:
    html = page(other_web.get(reverse("web:home")))
    assert f'href="{reverse("web:game-new")}"' not in html
    assert f'href="{reverse("web:scorepad-new")}"' not in html


def test_another_clubs_game_is_not_found_signed_in_and_asks_to_sign_in_anonymous(
    client: Client, web: Client, club_b: Club, outsider: Any, standard_deck: Edition
) -> None:
    theirs = new_game(club_b, outsider, ["Xavier", "Yves", "Zoltan"])
    done = finished_game(club_b, outsider, seed=5)
    for game in (theirs, done):
        url = reverse("web:game", args=[game.pk])
        assert web.get(url).status_code == 404
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('web:login')}?next={url}"
        assert web.post(reverse("web:round-undo", args=[game.pk])).status_code == 404
        assert web.post(reverse("web:share-create", args=[game.pk])).status_code == 404
    missing = reverse("web:game", args=[done.pk + 1000])
    assert web.get(missing).status_code == 404
    assert client.get(missing).status_code == 302
    assert signed_in(outsider).get(reverse("web:game", args=[theirs.pk])).status_code == 200


def test_the_players_page_and_the_name_suggestions_are_the_current_clubs(
    web: Client, user: Any, club_a: Club, club_b: Club, outsider: Any, standard_deck: Edition
) -> None:
    new_game(club_a, user, ["Ada", "Bea", "Cy"])
    new_game(club_b, outsider, ["Ada", "Yves", "Zoltan"])
    ada_a = Player.objects.get(club=club_a, name="Ada")
    ada_b = Player.objects.get(club=club_b, name="Ada")

    listing = page(web.get(reverse("web:players")))
    assert f'href="{reverse("web:player", args=[ada_a.pk])}"' in listing
    assert f'href="{reverse("web:player", args=[ada_b.pk])}"' not in listing
    assert "Zoltan" not in listing and "Yves" not in listing and "Bea" in listing
    searched = page(web.get(reverse("web:players"), {"q": "a"}))
    assert listing.count(">Ada</a>") == 1 and searched.count(">Ada</a>") == 1
    assert "Zoltan" not in page(web.get(reverse("web:players"), {"q": "zolt"}))
    assert web.get(reverse("web:player", args=[ada_b.pk])).status_code == 404

    form = page(web.get(reverse("web:game-new-of", args=["pot-de-vin"])))
    known = form.split('<datalist id="known-players">')[1].split("</datalist>")[0]
    assert re.findall(r'<option value="([^"]*)">', known) == ["Ada", "Bea", "Cy"]
    assert "Zoltan" not in form
    scorepad = page(web.get(reverse("web:scorepad-new-of", args=["pot-de-vin"])))
    assert "Zoltan" not in scorepad

    zed = page(signed_in(outsider).get(reverse("web:players")))
    assert "Zoltan" in zed and "Bea" not in zed
    assert f'href="{reverse("web:player", args=[ada_b.pk])}"' in zed


def test_a_game_started_on_the_page_goes_to_the_current_club_and_its_roster(
    club_a: Club, club_b: Club, outsider: Any, standard_deck: Edition
) -> None:
    new_game(club_b, outsider, ["Ada", "Yves", "Zoltan"])
    Membership.objects.create(club=club_a, user=outsider, role="recorder")
    zed = signed_in(outsider)
    zed.post(reverse("web:club-switch"), {"club": club_a.slug})
    data = {
        "game_type": "pot-de-vin",
        "player_0": "Ada",
        "player_1": "Bea",
        "player_2": "Cy",
        "first_player": "0",
        "teams": "",
        "deck": "standard",
    }
    response = zed.post(reverse("web:game-new-of", args=["pot-de-vin"]), data)
    assert response.status_code == 302, page(response)
    game = Game.objects.get(club=club_a)
    assert {s.player.club_id for s in game.seats.all()} == {club_a.pk}
    assert Player.objects.filter(name="Ada").count() == 2


def test_the_sign_up_says_a_password_is_too_short_in_italian(
    client: Client, club_a: Club, admin: Any
) -> None:
    made = invitation(club_a, admin)
    data = {"username": "nina", "password1": "x9$k", "password2": "x9$k"}
    response = client.post(made.get_absolute_url(), data, HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 400 and '<html lang="it">' in page(response)
    assert "This password is too short" not in page(response)


def test_the_invitation_page_limits_attempts_from_one_address(
    client: Client, club_a: Club, admin: Any, settings: Any
) -> None:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "invitations": "3/min",
        },
    }
    made = invitation(club_a, admin)
    weak = {"username": "nina", "password1": "123", "password2": "123"}
    for _ in range(3):
        assert client.post(made.get_absolute_url(), weak).status_code == 400
    data = {"username": "nina", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(made.get_absolute_url(), data)
    assert response.status_code == 429
    assert "Too many attempts from here; wait a minute." in page(response)
    assert not User.objects.filter(username="nina").exists()
    # Looking at links counts too, as on the API: a guesser of tokens is slowed down alike.
    assert client.get(made.get_absolute_url()).status_code == 429
