"""A role counts when an action happens, not when it was planned, over the API too: an
invitation whose maker is no longer an admin or owner of the club (demoted, removed, account
deleted) opens nothing (404, like a revoked one) and is not listed as open; a share link whose
maker may no longer change the club's games shows nothing and is not listed. Staff makers may
act on every club, so their links keep working."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.records import clubs, services
from games.records.models import Invitation, Membership
from tests.accounts import PASSWORD, client_for, make_user

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture
def team() -> SimpleNamespace:
    """Olga owns a club; Adam is its admin, Rita its recorder; Lone is in no club."""
    olga = make_user("olga", role=None)
    club = clubs.club_create(name="Circolo Pisa", owner=olga)
    return SimpleNamespace(
        club=club,
        olga=olga,
        adam=make_user("adam", club=club, role="admin"),
        rita=make_user("rita", club=club, role="recorder"),
        lone=make_user("lone", role=None),
    )


def change_of(t: SimpleNamespace, user: Any, change: str, lower: str) -> None:
    if change == "demoted":
        Membership.objects.filter(club=t.club, user=user).update(role=lower)
    elif change == "removed":
        clubs.member_remove(club=t.club, user_id=user.pk, by=t.olga)
    else:
        user.delete()


@pytest.mark.parametrize("change", ["demoted", "removed", "deleted"])
def test_an_invitation_of_a_former_admin_opens_nothing(team: SimpleNamespace, change: str) -> None:
    adam = client_for(team.adam)
    made = adam.post(
        f"/api/clubs/{team.club.slug}/invitations/", {"role": "recorder"}, format="json"
    )
    assert made.status_code == 201, made.content
    token = made.json()["token"]
    url = f"/api/invitations/{token}/"
    assert APIClient().get(url).status_code == 200
    change_of(team, team.adam, change, "recorder")

    anonymous = APIClient()
    assert anonymous.get(url).status_code == 404
    signing_up = anonymous.post(url, {"username": "nina", "password": PASSWORD}, format="json")
    assert signing_up.status_code == 404 and signing_up.json()["code"] == "not_found"
    assert not User.objects.filter(username="nina").exists()
    joining = client_for(team.lone).post(url, {}, format="json")
    assert joining.status_code == 404
    assert not Membership.objects.filter(user=team.lone).exists()
    # Not listed as open, not revocable, not counted against the club's limit.
    owner = client_for(team.olga)
    listed = owner.get(f"/api/clubs/{team.club.slug}/invitations/").json()
    assert listed["results"] == [] and listed["count"] == 0
    invitation = Invitation.objects.get(token=token)
    assert invitation.used_at is None and invitation.revoked_at is None  # the row is as it was
    revoke = owner.delete(f"/api/clubs/{team.club.slug}/invitations/{invitation.pk}/")
    assert revoke.status_code == 404
    assert not Invitation.objects.open().filter(club=team.club).exists()


def test_an_invitation_of_an_admin_still_admin_or_staff_opens(team: SimpleNamespace) -> None:
    made = clubs.invitation_create(club=team.club, role="member", by=team.adam)
    stan = make_user("stan", is_staff=True, role=None)
    by_staff = clubs.invitation_create(club=team.club, role="member", by=stan)
    listed = client_for(team.olga).get(f"/api/clubs/{team.club.slug}/invitations/").json()
    assert {i["id"] for i in listed["results"]} == {made.pk, by_staff.pk}
    joined = client_for(team.lone).post(f"/api/invitations/{by_staff.token}/", {}, format="json")
    assert joined.status_code == 200, joined.content
    assert Membership.objects.get(club=team.club, user=team.lone).role == "member"
    signed_up = APIClient().post(
        f"/api/invitations/{made.token}/", {"username": "nina", "password": PASSWORD}, format="json"
    )
    assert signed_up.status_code == 201, signed_up.content
    assert Membership.objects.get(club=team.club, user__username="nina").role == "member"


@pytest.mark.parametrize("change", ["demoted", "removed", "deleted"])
def test_a_share_link_of_a_former_recorder_shows_nothing(
    team: SimpleNamespace, change: str
) -> None:
    game = services.game_create(
        club=team.club,
        owner=team.olga,  # a deleted account owns no game: the link is Rita's only
        players=services.players_resolve(
            club=team.club, refs=["Ada", "Bea", "Cy"], created_by=team.olga
        ),
        game_type="complots",
        first_player=0,
    )
    rita = client_for(team.rita)
    made = rita.post(f"/api/games/{game.pk}/shares/")
    assert made.status_code == 201, made.content
    token = made.json()["token"]
    theirs = client_for(team.olga).post(f"/api/games/{game.pk}/shares/").json()["token"]
    assert APIClient().get(f"/shared/{token}/").status_code == 200
    change_of(team, team.rita, change, "member")

    assert APIClient().get(f"/shared/{token}/").status_code == 404
    owner = client_for(team.olga)
    assert [s["token"] for s in owner.get(f"/api/games/{game.pk}/shares/").json()] == [theirs]
    assert owner.delete(f"/api/games/{game.pk}/shares/{token}/").status_code == 404
    assert APIClient().get(f"/shared/{theirs}/").status_code == 200
