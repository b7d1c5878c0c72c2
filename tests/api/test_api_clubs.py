"""Clubs over the API: making one, its settings, its members and their roles, its invitations
(and taking them: joining, or signing up), linking a member to a player, deleting a club.

Expected values are written out by hand (slugs, roles, who may do what: /tmp/spec/clubs.md and
games/access.py's rules), and checked against the stored rows, not against the API's own
answers fed back."""

from __future__ import annotations

import datetime
import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.records import clubs, services
from games.records.models import Club, Game, GameEvent, Invitation, Membership, Player, Round, Seat
from scoring.models import HeadToHead, PlayerGame, PlayerStats, Rating, RatingHistory
from tests.accounts import PASSWORD, first_club, make_user
from tests.scoring.stats_builders import tableau

pytestmark = pytest.mark.django_db

User = get_user_model()
OWNER, ADMIN, RECORDER, MEMBER = "owner", "admin", "recorder", "member"


# --- helpers ----------------------------------------------------------------------------------


def client_for(user: Any) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def send(client: APIClient, method: str, url: str, body: Any) -> Any:
    """``body`` as JSON text, non-ASCII escaped: a lone surrogate travels as ``\\ud800``."""
    return client.generic(method, url, json.dumps(body), content_type="application/json")


def assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body["code"], str) and body["code"], body
    assert isinstance(body["message"], str) and body["message"], body
    if code is not None:
        assert body["code"] == code, body
    return body


def role_of(club: Club, username: str) -> str | None:
    return (
        Membership.objects.filter(club=club, user__username=username)
        .values_list("role", flat=True)
        .first()
    )


def roles_in(club: Club) -> dict[str, str]:
    return dict(Membership.objects.filter(club=club).values_list("user__username", "role"))


@pytest.fixture
def team() -> SimpleNamespace:
    """A club with one account of each role (Olga owns it, Adam is an admin, Rita a recorder,
    Max a member), an outsider in no club, and API clients signed in as each."""
    first_club()  # before this club: after a transactional test's flush it is made again
    olga = make_user("olga", role=None)
    club = clubs.club_create(name="Les Joueurs du Jeudi", owner=olga)
    adam = make_user("adam", club=club, role=ADMIN)
    rita = make_user("rita", club=club, role=RECORDER)
    max_ = make_user("max", club=club, role=MEMBER)
    otto = make_user("otto", role=None)
    return SimpleNamespace(
        club=club,
        slug=club.slug,
        olga=olga,
        adam=adam,
        rita=rita,
        max=max_,
        otto=otto,
        owner=client_for(olga),
        admin=client_for(adam),
        recorder=client_for(rita),
        member=client_for(max_),
        outsider=client_for(otto),
        anon=APIClient(),
    )


def invite(t: SimpleNamespace, role: str = MEMBER, days: int = 7) -> dict[str, Any]:
    response = t.admin.post(
        f"/api/clubs/{t.slug}/invitations/", {"role": role, "days": days}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


# --- a club, its settings ---------------------------------------------------------------------


def test_a_new_club_has_its_creator_as_owner_and_a_slug_from_its_name() -> None:
    zoe = make_user("zoe", role=None)
    api = client_for(zoe)
    assert api.get("/api/me/").json()["clubs"] == []

    response = api.post("/api/clubs/", {"name": "Les Amis du Vin"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["slug"] == "les-amis-du-vin"
    assert body["name"] == "Les Amis du Vin"
    assert body["role"] == OWNER
    assert body["public_results"] is False
    club = Club.objects.get(slug="les-amis-du-vin")
    assert club.name == "Les Amis du Vin" and club.public_results is False
    assert roles_in(club) == {"zoe": OWNER}

    # A second club of the same name gets a slug of its own; accents are dropped from slugs.
    second = api.post("/api/clubs/", {"name": "Les Amis du Vin"}, format="json").json()
    assert second["slug"] == "les-amis-du-vin-2"
    third = api.post("/api/clubs/", {"name": "Château Été"}, format="json").json()
    assert third["slug"] == "chateau-ete" and third["name"] == "Château Été"

    # /api/me/ and /api/clubs/ list them with the role, by name.
    assert api.get("/api/me/").json()["clubs"] == [
        {"slug": "chateau-ete", "name": "Château Été", "role": OWNER},
        {"slug": "les-amis-du-vin", "name": "Les Amis du Vin", "role": OWNER},
        {"slug": "les-amis-du-vin-2", "name": "Les Amis du Vin", "role": OWNER},
    ]
    listed = api.get("/api/clubs/").json()
    listed = listed["results"] if isinstance(listed, dict) else listed
    assert sorted((c["slug"], c["role"]) for c in listed) == [
        ("chateau-ete", OWNER),
        ("les-amis-du-vin", OWNER),
        ("les-amis-du-vin-2", OWNER),
    ]
    # Another user sees none of them.
    other = client_for(make_user("yann", role=None))
    assert other.get("/api/clubs/les-amis-du-vin/").status_code == 404
    other_list = other.get("/api/clubs/").json()
    other_list = other_list["results"] if isinstance(other_list, dict) else other_list
    assert other_list == []


def test_a_name_without_latin_letters_gets_a_numbered_slug() -> None:
    api = client_for(make_user("zoe", role=None))
    # Nothing of the name is left in ASCII: the slug falls back on "club", which the first
    # club (made by the migrations) has taken already.
    assert first_club().slug == "club"
    made = api.post("/api/clubs/", {"name": "東京クラブ"}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["slug"] == "club-2" and made.json()["name"] == "東京クラブ"
    assert api.get("/api/clubs/club-2/").json()["name"] == "東京クラブ"
    # A long name: the slug keeps its first 40 characters.
    long_name = "Le Cercle des Joueurs de Pot de Vin et de Complots"
    made = api.post("/api/clubs/", {"name": long_name}, format="json").json()
    assert made["slug"] == "le-cercle-des-joueurs-de-pot-de-vin-et-d"


def test_anonymous_cannot_make_a_club() -> None:
    before = Club.objects.count()
    assert_error(APIClient().post("/api/clubs/", {"name": "Ghosts"}, format="json"), 401)
    assert Club.objects.count() == before


def test_an_admin_changes_the_settings_and_a_recorder_may_not(team: SimpleNamespace) -> None:
    url = f"/api/clubs/{team.slug}/"
    response = team.admin.patch(url, {"name": "Jeudi Soir", "public_results": True}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Jeudi Soir" and response.json()["public_results"] is True
    team.club.refresh_from_db()
    assert (team.club.name, team.club.public_results) == ("Jeudi Soir", True)
    # The slug never changes with the name.
    assert team.club.slug == "les-joueurs-du-jeudi"

    for client in (team.recorder, team.member):
        assert_error(client.patch(url, {"name": "Hijacked"}, format="json"), 403, "forbidden")
        assert_error(client.patch(url, {"public_results": False}, format="json"), 403)
    assert_error(team.outsider.patch(url, {"name": "Hijacked"}, format="json"), 404, "not_found")
    assert_error(team.anon.patch(url, {"name": "Hijacked"}, format="json"), 401)
    team.club.refresh_from_db()
    assert (team.club.name, team.club.public_results) == ("Jeudi Soir", True)


HOSTILE_NAMES = [
    pytest.param("Ada\x00Bea", id="nul"),
    pytest.param("\x00", id="only-nul"),
    pytest.param("\ud800", id="lone-surrogate"),
    pytest.param("Club \ud800", id="surrogate-inside"),
    pytest.param("x" * 10_000, id="10000-chars"),
    pytest.param(None, id="null"),
    pytest.param(2**64 + 1, id="int-past-2**64"),
    pytest.param(-(2**64), id="negative-int-past-2**64"),
    pytest.param("", id="blank"),
    pytest.param("   ", id="spaces"),
    pytest.param(["a"], id="list"),
    pytest.param({"a": 1}, id="object"),
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_name_is_refused_on_create(name: Any) -> None:
    api = client_for(make_user("zoe", role=None))
    before = (Club.objects.count(), Membership.objects.count())
    assert_error(send(api, "POST", "/api/clubs/", {"name": name}), 400)
    assert (Club.objects.count(), Membership.objects.count()) == before


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_hostile_name_is_refused_on_update(team: SimpleNamespace, name: Any) -> None:
    assert_error(send(team.owner, "PATCH", f"/api/clubs/{team.slug}/", {"name": name}), 400)
    team.club.refresh_from_db()
    assert team.club.name == "Les Joueurs du Jeudi"


@pytest.mark.parametrize("value", [None, "maybe", 2**64, [True]])
def test_a_bad_public_results_is_refused(team: SimpleNamespace, value: Any) -> None:
    response = send(team.owner, "PATCH", f"/api/clubs/{team.slug}/", {"public_results": value})
    assert_error(response, 400)
    team.club.refresh_from_db()
    assert team.club.public_results is False


# --- roles ------------------------------------------------------------------------------------


def test_an_admin_changes_a_members_role(team: SimpleNamespace) -> None:
    url = f"/api/clubs/{team.slug}/members/max/"
    response = team.admin.patch(url, {"role": RECORDER}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["username"] == "max" and response.json()["role"] == RECORDER
    assert role_of(team.club, "max") == RECORDER
    # Max, a recorder now, may record: a new player in the club.
    made = team.member.post("/api/players/", {"name": "Newcomer"}, format="json")
    assert made.status_code == 201, made.content
    assert Player.objects.get(name="Newcomer").club_id == team.club.pk


def test_a_recorder_or_member_cannot_change_roles(team: SimpleNamespace) -> None:
    for client in (team.recorder, team.member):
        response = client.patch(
            f"/api/clubs/{team.slug}/members/max/", {"role": ADMIN}, format="json"
        )
        assert_error(response, 403)
    assert role_of(team.club, "max") == MEMBER


def test_an_admin_cannot_make_or_unmake_an_owner_but_an_owner_can(team: SimpleNamespace) -> None:
    base = f"/api/clubs/{team.slug}/members"
    assert_error(team.admin.patch(f"{base}/max/", {"role": OWNER}, format="json"), 403)
    assert_error(team.admin.patch(f"{base}/adam/", {"role": OWNER}, format="json"), 403)
    assert_error(team.admin.patch(f"{base}/olga/", {"role": MEMBER}, format="json"), 403)
    assert roles_in(team.club) == {"olga": OWNER, "adam": ADMIN, "rita": RECORDER, "max": MEMBER}

    response = team.owner.patch(f"{base}/max/", {"role": OWNER}, format="json")
    assert response.status_code == 200, response.content
    assert role_of(team.club, "max") == OWNER
    # With two owners, an owner may step down; an admin still cannot touch an owner.
    assert_error(team.admin.patch(f"{base}/max/", {"role": MEMBER}, format="json"), 403)
    assert team.owner.patch(f"{base}/olga/", {"role": ADMIN}, format="json").status_code == 200
    assert roles_in(team.club) == {"olga": ADMIN, "adam": ADMIN, "rita": RECORDER, "max": OWNER}


@pytest.mark.parametrize("role", ["superuser", "", None, 2**64, "OWNER"])
def test_an_unknown_role_is_refused(team: SimpleNamespace, role: Any) -> None:
    response = send(team.owner, "PATCH", f"/api/clubs/{team.slug}/members/max/", {"role": role})
    assert_error(response, 400)
    assert role_of(team.club, "max") == MEMBER


def test_the_last_owner_stays(team: SimpleNamespace) -> None:
    base = f"/api/clubs/{team.slug}/members"
    for role in (ADMIN, RECORDER, MEMBER):
        response = team.owner.patch(f"{base}/olga/", {"role": role}, format="json")
        assert_error(response, 409, "last_owner")
    # Nor leave, nor be removed by an admin (only owners remove owners).
    assert_error(team.owner.delete(f"{base}/olga/"), 409, "last_owner")
    assert_error(team.admin.delete(f"{base}/olga/"), 403)
    assert role_of(team.club, "olga") == OWNER
    # Once there is another owner, she may go.
    assert team.owner.patch(f"{base}/adam/", {"role": OWNER}, format="json").status_code == 200
    assert team.owner.delete(f"{base}/olga/").status_code == 204
    assert role_of(team.club, "olga") is None
    # Adam is now the last owner.
    assert_error(team.admin.patch(f"{base}/adam/", {"role": ADMIN}, format="json"), 409)
    assert_error(team.admin.delete(f"{base}/adam/"), 409, "last_owner")
    assert roles_in(team.club) == {"adam": OWNER, "rita": RECORDER, "max": MEMBER}


def test_transfer_makes_the_target_owner_and_the_old_owner_admin(team: SimpleNamespace) -> None:
    url = f"/api/clubs/{team.slug}/transfer/"
    # Only an owner hands the club over; only to a member.
    assert_error(team.admin.post(url, {"username": "adam"}, format="json"), 403)
    assert_error(team.owner.post(url, {"username": "otto"}, format="json"), 404)
    assert_error(team.owner.post(url, {"username": "nobody"}, format="json"), 404)
    assert_error(team.outsider.post(url, {"username": "otto"}, format="json"), 404)
    assert roles_in(team.club) == {"olga": OWNER, "adam": ADMIN, "rita": RECORDER, "max": MEMBER}

    response = team.owner.post(url, {"username": "rita"}, format="json")
    assert response.status_code == 204, response.content
    assert roles_in(team.club) == {"olga": ADMIN, "adam": ADMIN, "rita": OWNER, "max": MEMBER}
    # Olga is no owner any more: she cannot delete the club or hand it over again.
    assert_error(team.owner.post(url, {"username": "max"}, format="json"), 403)
    assert_error(team.owner.delete(f"/api/clubs/{team.slug}/"), 403)
    assert Club.objects.filter(pk=team.club.pk).exists()
    # Rita, the owner now, may.
    assert team.recorder.post(url, {"username": "max"}, format="json").status_code == 204
    assert roles_in(team.club) == {"olga": ADMIN, "adam": ADMIN, "rita": ADMIN, "max": OWNER}


def test_a_member_leaves_and_then_sees_nothing_of_the_club(team: SimpleNamespace) -> None:
    players = services.players_resolve(["Ada", "Bea"], club=team.club, created_by=team.olga)
    game = services.game_create(
        club=team.club,
        owner=team.olga,
        players=players,
        game_type="complots",
        first_player=0,
    )
    assert team.member.get(f"/api/games/{game.pk}/").status_code == 200
    assert team.member.get(f"/api/clubs/{team.slug}/members/").status_code == 200

    assert team.member.delete(f"/api/clubs/{team.slug}/members/max/").status_code == 204
    assert role_of(team.club, "max") is None
    assert_error(team.member.get(f"/api/games/{game.pk}/"), 404, "not_found")
    assert team.member.get("/api/games/").json()["results"] == []
    assert team.member.get("/api/players/").json()["results"] == []
    assert_error(team.member.get(f"/api/players/{players[0].pk}/stats/"), 404)
    assert_error(team.member.get(f"/api/clubs/{team.slug}/"), 404, "not_found")
    assert_error(team.member.get(f"/api/clubs/{team.slug}/members/"), 404)
    assert team.member.get("/api/me/").json()["clubs"] == []
    # Leaving twice: no such member (the club is not theirs any more).
    assert_error(team.member.delete(f"/api/clubs/{team.slug}/members/max/"), 404)


def test_an_admin_removes_a_member_but_a_recorder_may_not(team: SimpleNamespace) -> None:
    assert_error(team.recorder.delete(f"/api/clubs/{team.slug}/members/max/"), 403)
    assert role_of(team.club, "max") == MEMBER
    assert team.admin.delete(f"/api/clubs/{team.slug}/members/max/").status_code == 204
    assert role_of(team.club, "max") is None
    assert_error(team.admin.delete(f"/api/clubs/{team.slug}/members/otto/"), 404)


def test_members_list(team: SimpleNamespace) -> None:
    for client in (team.member, team.recorder, team.admin, team.owner):
        response = client.get(f"/api/clubs/{team.slug}/members/")
        assert response.status_code == 200, response.content
        rows = response.json()["results"]
        assert [(r["username"], r["role"], r["player"]) for r in rows] == [
            ("adam", ADMIN, None),
            ("max", MEMBER, None),
            ("olga", OWNER, None),
            ("rita", RECORDER, None),
        ]
    assert_error(team.outsider.get(f"/api/clubs/{team.slug}/members/"), 404)
    assert_error(team.anon.get(f"/api/clubs/{team.slug}/members/"), 401)


# --- invitations ------------------------------------------------------------------------------


def test_an_admin_creates_lists_and_revokes_invitations(team: SimpleNamespace) -> None:
    before = timezone.now()
    made = invite(team, role=RECORDER, days=3)
    after = timezone.now()
    assert made["role"] == RECORDER and made["created_by"] == "adam"
    assert len(made["token"]) == 32
    assert made["url"] == f"http://testserver/invite/{made['token']}/"
    stored = Invitation.objects.get(pk=made["id"])
    assert stored.club_id == team.club.pk and stored.token == made["token"]
    assert stored.role == RECORDER and stored.created_by_id == team.adam.pk
    three_days = datetime.timedelta(days=3)
    assert before + three_days <= stored.expires_at <= after + three_days
    assert stored.used_at is None and stored.revoked_at is None
    # The default is a week.
    week = team.admin.post(f"/api/clubs/{team.slug}/invitations/", {"role": MEMBER}, format="json")
    assert week.status_code == 201
    week_stored = Invitation.objects.get(pk=week.json()["id"])
    assert week_stored.expires_at - week_stored.created_at == pytest.approx(
        datetime.timedelta(days=7), abs=datetime.timedelta(seconds=5)
    )

    listed = team.owner.get(f"/api/clubs/{team.slug}/invitations/")
    assert listed.status_code == 200
    assert sorted(i["id"] for i in listed.json()["results"]) == sorted(
        [made["id"], week.json()["id"]]
    )

    response = team.admin.delete(f"/api/clubs/{team.slug}/invitations/{made['id']}/")
    assert response.status_code == 204
    stored.refresh_from_db()
    assert stored.revoked_at is not None
    listed = team.admin.get(f"/api/clubs/{team.slug}/invitations/").json()["results"]
    assert [i["id"] for i in listed] == [week.json()["id"]]
    # Revoking again, or an invitation that never was: 404.
    assert_error(team.admin.delete(f"/api/clubs/{team.slug}/invitations/{made['id']}/"), 404)
    assert_error(team.admin.delete(f"/api/clubs/{team.slug}/invitations/999999/"), 404)
    assert_error(team.anon.get(f"/api/invitations/{made['token']}/"), 404, "not_found")


def test_recorders_and_members_cannot_manage_invitations(team: SimpleNamespace) -> None:
    made = invite(team)
    url = f"/api/clubs/{team.slug}/invitations/"
    for client in (team.recorder, team.member):
        assert_error(client.get(url), 403)
        assert_error(client.post(url, {"role": MEMBER}, format="json"), 403)
        assert_error(client.delete(f"{url}{made['id']}/"), 403)
    for response in (
        team.outsider.get(url),
        team.outsider.post(url, {"role": MEMBER}, format="json"),
        team.outsider.delete(f"{url}{made['id']}/"),
    ):
        assert_error(response, 404, "not_found")
        assert made["token"] not in response.content.decode()
    assert_error(team.anon.get(url), 401)
    assert Invitation.objects.filter(club=team.club).count() == 1
    assert Invitation.objects.get(pk=made["id"]).revoked_at is None


@pytest.mark.parametrize(
    "body",
    [
        {"role": OWNER},
        {"role": "superuser"},
        {"role": MEMBER, "days": 0},
        {"role": MEMBER, "days": 31},
        {"role": MEMBER, "days": 2**64},
        {"role": MEMBER, "days": "soon"},
        {},
    ],
)
def test_a_bad_invitation_is_refused(team: SimpleNamespace, body: dict[str, Any]) -> None:
    response = send(team.owner, "POST", f"/api/clubs/{team.slug}/invitations/", body)
    assert_error(response, 400)
    assert not Invitation.objects.exists()


def test_a_club_has_at_most_a_hundred_open_invitations(team: SimpleNamespace) -> None:
    for _ in range(100):
        invite(team)
    response = team.admin.post(
        f"/api/clubs/{team.slug}/invitations/", {"role": MEMBER}, format="json"
    )
    assert_error(response, 409, "too_many_invitations")
    assert Invitation.objects.filter(club=team.club).count() == 100
    # Revoking one makes room again.
    first = Invitation.objects.filter(club=team.club).order_by("id").first()
    assert team.admin.delete(f"/api/clubs/{team.slug}/invitations/{first.pk}/").status_code == 204
    invite(team)


def test_anyone_with_the_link_sees_the_club_and_signs_up(team: SimpleNamespace) -> None:
    made = invite(team, role=RECORDER)
    shown = team.anon.get(f"/api/invitations/{made['token']}/")
    assert shown.status_code == 200, shown.content
    body = shown.json()
    assert body["club"] == "Les Joueurs du Jeudi" and body["role"] == RECORDER
    assert "expires_at" in body

    response = team.anon.post(
        f"/api/invitations/{made['token']}/",
        {"username": "newbie", "password": PASSWORD},
        format="json",
    )
    assert response.status_code == 201, response.content
    joined = response.json()
    assert joined["club"] == team.slug and joined["role"] == RECORDER
    assert joined["username"] == "newbie"
    newbie = User.objects.get(username="newbie")
    assert newbie.check_password(PASSWORD)
    assert joined["token"] == Token.objects.get(user=newbie).key
    assert role_of(team.club, "newbie") == RECORDER
    invitation = Invitation.objects.get(pk=made["id"])
    assert invitation.used_at is not None and invitation.used_by_id == newbie.pk

    # The token signs in; the new account is in the club with the role.
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {joined['token']}")
    me = api.get("/api/me/")
    assert me.status_code == 200
    assert me.json()["username"] == "newbie"
    assert me.json()["clubs"] == [
        {"slug": team.slug, "name": "Les Joueurs du Jeudi", "role": RECORDER}
    ]
    # And the password signs in too.
    signed = APIClient().post(
        "/api/auth/token/", {"username": "newbie", "password": PASSWORD}, format="json"
    )
    assert signed.status_code == 200

    # Single use: the same link a second time opens nothing, and makes nobody.
    users = User.objects.count()
    again = team.anon.post(
        f"/api/invitations/{made['token']}/",
        {"username": "second", "password": PASSWORD},
        format="json",
    )
    assert_error(again, 404, "not_found")
    assert_error(team.anon.get(f"/api/invitations/{made['token']}/"), 404)
    assert_error(team.outsider.post(f"/api/invitations/{made['token']}/"), 404)
    assert User.objects.count() == users
    assert role_of(team.club, "otto") is None


def _sign_up(client: APIClient, token: str, username: str = "newbie") -> Any:
    return client.post(
        f"/api/invitations/{token}/", {"username": username, "password": PASSWORD}, format="json"
    )


def test_an_expired_invitation_opens_nothing(team: SimpleNamespace) -> None:
    made = invite(team)
    Invitation.objects.filter(pk=made["id"]).update(
        expires_at=timezone.now() - datetime.timedelta(seconds=1)
    )
    assert_error(team.anon.get(f"/api/invitations/{made['token']}/"), 404, "not_found")
    assert_error(_sign_up(team.anon, made["token"]), 404, "not_found")
    assert_error(team.outsider.post(f"/api/invitations/{made['token']}/"), 404)
    assert not User.objects.filter(username="newbie").exists()
    assert role_of(team.club, "otto") is None
    # Nor is it listed among the open ones.
    assert team.admin.get(f"/api/clubs/{team.slug}/invitations/").json()["results"] == []


def test_a_revoked_or_unknown_invitation_opens_nothing(team: SimpleNamespace) -> None:
    made = invite(team)
    assert team.admin.delete(f"/api/clubs/{team.slug}/invitations/{made['id']}/").status_code == 204
    unknown = "A" * 32
    assert not Invitation.objects.filter(token=unknown).exists()
    for token in (made["token"], unknown):
        assert_error(team.anon.get(f"/api/invitations/{token}/"), 404, "not_found")
        assert_error(_sign_up(team.anon, token), 404, "not_found")
        assert_error(team.outsider.post(f"/api/invitations/{token}/"), 404, "not_found")
    # A token of the wrong shape: no route at all, still a JSON 404.
    for token in ("short", "A" * 33, "A" * 31 + "!"):
        assert team.anon.get(f"/api/invitations/{token}/").status_code == 404
    assert not User.objects.filter(username="newbie").exists()
    assert role_of(team.club, "otto") is None


def test_a_member_of_another_club_joins_and_keeps_their_club(team: SimpleNamespace) -> None:
    # Bob is a recorder of the first club (tests.accounts.make_user's default).
    bob = make_user("bob")
    made = invite(team, role=MEMBER)
    response = client_for(bob).post(f"/api/invitations/{made['token']}/")
    assert response.status_code == 200, response.content
    assert response.json() == {"club": team.slug, "role": MEMBER, "username": "bob"}
    assert role_of(team.club, "bob") == MEMBER
    assert role_of(first_club(), "bob") == RECORDER
    clubs_of_bob = client_for(bob).get("/api/me/").json()["clubs"]
    assert sorted((c["slug"], c["role"]) for c in clubs_of_bob) == sorted(
        [(team.slug, MEMBER), (first_club().slug, RECORDER)]
    )
    assert Invitation.objects.get(pk=made["id"]).used_by_id == bob.pk


def test_an_already_member_is_409_and_the_invitation_stays_open(team: SimpleNamespace) -> None:
    made = invite(team, role=ADMIN)
    response = team.member.post(f"/api/invitations/{made['token']}/")
    assert_error(response, 409, "already_member")
    # Max keeps his role (no promotion through an invitation meant for someone else).
    assert role_of(team.club, "max") == MEMBER
    invitation = Invitation.objects.get(pk=made["id"])
    assert invitation.used_at is None and invitation.used_by_id is None
    assert team.anon.get(f"/api/invitations/{made['token']}/").status_code == 200
    # Someone else can still take it.
    assert team.outsider.post(f"/api/invitations/{made['token']}/").status_code == 200
    assert role_of(team.club, "otto") == ADMIN


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "newbie", "password": "123"}, "password"),
        ({"username": "newbie", "password": "password"}, "password"),
        ({"username": "newbie", "password": "newbie12"}, "password"),
        ({"username": "alice", "password": PASSWORD}, "username"),
        ({"username": "ALICE", "password": PASSWORD}, "username"),
        ({"username": "bad name!", "password": PASSWORD}, "username"),
        ({"username": "", "password": PASSWORD}, "username"),
        ({"username": "x" * 151, "password": PASSWORD}, "username"),
        ({"username": "a\x00b", "password": PASSWORD}, "username"),
        ({"username": "newbie", "password": "\x00" * 12}, "password"),
    ],
)
def test_a_refused_sign_up_makes_nothing(
    team: SimpleNamespace, body: dict[str, Any], field: str
) -> None:
    make_user("alice")
    made = invite(team)
    users = sorted(User.objects.values_list("username", flat=True))
    memberships = Membership.objects.count()
    response = send(team.anon, "POST", f"/api/invitations/{made['token']}/", body)
    refused = assert_error(response, 400)
    # The field is named: in "fields" (the sign-up's own checks), or as the "path" of a text
    # the input gate refuses (a NUL character).
    assert field in refused.get("fields", {}) or refused.get("path") == field, refused
    assert sorted(User.objects.values_list("username", flat=True)) == users
    assert Membership.objects.count() == memberships
    assert not Token.objects.filter(user__username__in=["newbie", "ALICE", ""]).exists()
    invitation = Invitation.objects.get(pk=made["id"])
    assert invitation.used_at is None and invitation.used_by_id is None
    assert team.anon.get(f"/api/invitations/{made['token']}/").status_code == 200
    # The link still works with good fields.
    assert _sign_up(team.anon, made["token"], "newbie2").status_code == 201


@pytest.mark.parametrize(
    "body",
    [{}, {"username": "newbie"}, {"password": PASSWORD}],
)
def test_an_anonymous_taking_without_credentials_is_401(
    team: SimpleNamespace, body: dict[str, Any]
) -> None:
    made = invite(team)
    assert_error(team.anon.post(f"/api/invitations/{made['token']}/", body, format="json"), 401)
    assert Invitation.objects.get(pk=made["id"]).used_at is None


@pytest.mark.parametrize(
    "body",
    [
        {"username": 2**64, "password": PASSWORD},
        {"username": "newbie", "password": 2**64},
        {"username": None, "password": PASSWORD},
        {"username": ["newbie"], "password": PASSWORD},
        {"username": "newbie\ud800", "password": PASSWORD},
        {"username": "newbie", "password": "x\ud800" * 8},
    ],
)
def test_a_hostile_sign_up_is_a_json_400(team: SimpleNamespace, body: dict[str, Any]) -> None:
    made = invite(team)
    users = User.objects.count()
    assert_error(send(team.anon, "POST", f"/api/invitations/{made['token']}/", body), 400)
    assert User.objects.count() == users
    assert Invitation.objects.get(pk=made["id"]).used_at is None


def test_taking_invitations_is_rate_limited(team: SimpleNamespace, throttle_rates: Any) -> None:
    made = invite(team)
    throttle_rates(invitations="3/min")
    for _ in range(3):
        response = send(
            team.anon,
            "POST",
            f"/api/invitations/{made['token']}/",
            {"username": "newbie", "password": "123"},
        )
        assert_error(response, 400)
    # The fourth in the minute is refused, even a good one, and makes nothing.
    response = _sign_up(team.anon, made["token"])
    body = assert_error(response, 429, "throttled")
    assert 0 < body["wait"] <= 60
    assert not User.objects.filter(username="newbie").exists()
    assert Invitation.objects.get(pk=made["id"]).used_at is None
    # Looking at links counts too (one guessing tokens is slowed down alike).
    assert_error(team.anon.get(f"/api/invitations/{'B' * 32}/"), 429, "throttled")


# --- linking a member to a player --------------------------------------------------------------


def test_an_admin_links_a_member_to_a_player(team: SimpleNamespace) -> None:
    ada = services.player_create(club=team.club, name="Ada", created_by=team.olga)
    bea = services.player_create(club=team.club, name="Bea", created_by=team.olga)
    other_club = clubs.club_create(name="Elsewhere", owner=team.otto)
    stranger = services.player_create(club=other_club, name="Stranger", created_by=team.otto)
    url = f"/api/clubs/{team.slug}/members/max/"

    # Another club's player, or one that does not exist: unknown here, alike.
    for pid in (stranger.pk, 10**12):
        response = team.admin.patch(url, {"player": pid}, format="json")
        body = assert_error(response, 400, "unknown_player")
        assert "Stranger" not in body["message"]
    assert not Player.objects.filter(user__isnull=False).exists()
    stranger.refresh_from_db()
    assert stranger.user_id is None

    # Only admins link.
    assert_error(team.recorder.patch(url, {"player": ada.pk}, format="json"), 403)
    assert_error(team.member.patch(url, {"player": ada.pk}, format="json"), 403)

    response = team.admin.patch(url, {"player": ada.pk}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["player"] == ada.pk
    ada.refresh_from_db()
    assert ada.user_id == team.max.pk
    assert team.member.get("/api/me/").json()["player"] == ada.pk
    members = team.member.get(f"/api/clubs/{team.slug}/members/").json()["results"]
    assert {m["username"]: m["player"] for m in members}["max"] == ada.pk

    # Ada is Max's: nobody else may be linked to her.
    assert_error(
        team.admin.patch(
            f"/api/clubs/{team.slug}/members/rita/", {"player": ada.pk}, format="json"
        ),
        409,
        "player_linked",
    )
    # Relinking moves the link; null unlinks.
    assert team.admin.patch(url, {"player": bea.pk}, format="json").json()["player"] == bea.pk
    assert list(Player.objects.filter(user=team.max).values_list("pk", flat=True)) == [bea.pk]
    assert team.member.get("/api/me/").json()["player"] == bea.pk
    assert team.admin.patch(url, {"player": None}, format="json").json()["player"] is None
    assert not Player.objects.filter(user=team.max).exists()
    assert team.member.get("/api/me/").json()["player"] is None


def test_a_refused_member_change_changes_nothing(team: SimpleNamespace) -> None:
    """A PATCH of a role and a player at once is one change: when the player is refused, the
    role stays as it was (no half-done write behind a 400)."""
    other_club = clubs.club_create(name="Elsewhere", owner=team.otto)
    stranger = services.player_create(club=other_club, name="Stranger", created_by=team.otto)
    url = f"/api/clubs/{team.slug}/members/max/"
    response = team.owner.patch(url, {"role": ADMIN, "player": stranger.pk}, format="json")
    assert_error(response, 400, "unknown_player")
    assert role_of(team.club, "max") == MEMBER
    assert not Player.objects.filter(user=team.max).exists()


@pytest.mark.parametrize("player", [2**64, 0, -1, "Ada", True, [1]])
def test_a_hostile_player_link_is_a_json_400(team: SimpleNamespace, player: Any) -> None:
    services.player_create(club=team.club, name="Ada", created_by=team.olga)
    response = send(team.admin, "PATCH", f"/api/clubs/{team.slug}/members/max/", {"player": player})
    assert_error(response, 400)
    assert not Player.objects.filter(user__isnull=False).exists()


def test_leaving_unlinks_the_player_and_keeps_it(team: SimpleNamespace) -> None:
    ada = services.player_create(club=team.club, name="Ada", created_by=team.olga)
    team.admin.patch(f"/api/clubs/{team.slug}/members/max/", {"player": ada.pk}, format="json")
    assert team.member.delete(f"/api/clubs/{team.slug}/members/max/").status_code == 204
    ada.refresh_from_db()
    assert ada.user_id is None and ada.club_id == team.club.pk
    assert team.member.get("/api/me/").json()["player"] is None


# --- deleting a club --------------------------------------------------------------------------


def _rows_of(club: Club) -> dict[str, Any]:
    """Everything of ``club`` that statistics and records hold, as plain values."""
    players = list(Player.objects.filter(club=club).values_list("pk", flat=True))
    games = list(Game.objects.filter(club=club).values_list("pk", flat=True))
    return {
        "players": sorted(Player.objects.filter(club=club).values_list("pk", "name")),
        "games": sorted(Game.objects.filter(club=club).values_list("pk", "status", "result")),
        "seats": sorted(Seat.objects.filter(game__in=games).values_list("pk", "score", "rank")),
        "rounds": Round.objects.filter(game__in=games).count(),
        "player_games": sorted(
            PlayerGame.objects.filter(player__in=players).values_list("game_id", "player_id")
        ),
        "stats": sorted(
            PlayerStats.objects.filter(player__in=players).values_list(
                "player_id", "game_type", "bucket", "games", "wins"
            )
        ),
        "head_to_head": sorted(
            HeadToHead.objects.filter(player__in=players).values_list(
                "player_id", "opponent_id", "game_type", "games"
            )
        ),
        "ratings": sorted(
            Rating.objects.filter(player__in=players).values_list(
                "player_id", "game_type", "mu", "sigma", "games"
            )
        ),
        "history": sorted(
            RatingHistory.objects.filter(player__in=players).values_list(
                "player_id", "game_id", "mu", "sigma"
            )
        ),
        "memberships": sorted(Membership.objects.filter(club=club).values_list("user_id", "role")),
    }


def _club_with_games(club: Club, owner: Any, names: list[str]) -> None:
    """Two finished Pot de Vin games (scorepad) and a finished and an unfinished Complots game,
    with ``names`` (four players) seated."""
    resolve = lambda refs: services.players_resolve(refs, club=club, created_by=owner)  # noqa: E731
    services.scorepad_game_create(
        club=club,
        owner=owner,
        players=resolve(names[:3]),
        game_type="pot-de-vin",
        sheet=[tableau(nobles=3), tableau(artists=2), tableau()],
        played_on=datetime.date(2026, 3, 1),
    )
    services.scorepad_game_create(
        club=club,
        owner=owner,
        players=resolve(names[1:4]),
        game_type="pot-de-vin",
        sheet=[tableau(knights=4), tableau(traders=1), tableau(nobles=2)],
        played_on=datetime.date(2026, 3, 2),
    )
    duel = services.game_create(
        club=club,
        owner=owner,
        players=resolve(names[:2]),
        game_type="complots",
        first_player=0,
        played_on=datetime.date(2026, 3, 3),
    )
    for turn in DUEL:
        services.round_append(game=duel, round_data=turn)
    services.game_finish(game=duel)
    services.game_create(
        club=club, owner=owner, players=resolve(names[1:4]), game_type="complots", first_player=0
    )


# A 2-player Complots game won by seat 0 in two turns (tests/api/conftest.py, COMPLOTS_DUEL).
DUEL = [
    {
        "actor": 0,
        "action": "duchess",
        "challenge": {"by": 1, "truthful": True},
        "losses": [{"seat": 1, "card": "captain"}],
    },
    {
        "actor": 1,
        "action": "duchess",
        "challenge": {"by": 0, "truthful": False},
        "losses": [{"seat": 1, "card": "assassin"}],
    },
]


def test_deleting_a_club_removes_everything_of_it_and_nothing_else(
    team: SimpleNamespace, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    settings.POTDEVIN_RATINGS_SYNC = True
    other = clubs.club_create(name="Other Club", owner=team.otto)
    with django_capture_on_commit_callbacks(execute=True):
        _club_with_games(team.club, team.olga, ["Ada", "Bea", "Cy", "Dee"])
        _club_with_games(other, team.otto, ["Ada", "Bea", "Cy", "Dee"])
    made = invite(team)
    mine, theirs = _rows_of(team.club), _rows_of(other)
    # Both have the records the deletion must take (or keep).
    for rows in (mine, theirs):
        assert len(rows["players"]) == 4 and len(rows["games"]) == 4
        assert rows["stats"] and rows["ratings"] and rows["history"] and rows["head_to_head"]
        assert rows["player_games"] and rows["rounds"]

    # Only an owner deletes a club.
    for client in (team.admin, team.recorder, team.member):
        assert_error(client.delete(f"/api/clubs/{team.slug}/"), 403)
    assert_error(team.outsider.delete(f"/api/clubs/{team.slug}/"), 404)
    assert _rows_of(team.club) == mine

    with django_capture_on_commit_callbacks(execute=True):
        assert team.owner.delete(f"/api/clubs/{team.slug}/").status_code == 204
    assert not Club.objects.filter(pk=team.club.pk).exists()
    assert not Game.objects.filter(pk__in=[g[0] for g in mine["games"]]).exists()
    mine_players = [p[0] for p in mine["players"]]
    assert not Player.objects.filter(pk__in=mine_players).exists()
    assert not Seat.objects.filter(pk__in=[s[0] for s in mine["seats"]]).exists()
    for model in (PlayerStats, Rating, RatingHistory, PlayerGame):
        assert not model.objects.filter(player_id__in=mine_players).exists(), model
    assert not HeadToHead.objects.filter(opponent_id__in=mine_players).exists()
    assert not Membership.objects.filter(club_id=team.club.pk).exists()
    assert not Invitation.objects.filter(pk=made["id"]).exists()
    # Each game's history keeps its deletion, and by whom.
    gone = GameEvent.objects.filter(action=GameEvent.Action.DELETED)
    assert sorted(gone.values_list("game_id", "username")) == sorted(
        (g[0], "olga") for g in mine["games"]
    )
    assert_error(team.anon.get(f"/api/invitations/{made['token']}/"), 404)
    # The other club is as it was, row for row, rating for rating.
    assert _rows_of(other) == theirs
    # Its former members are in no club; their accounts stay.
    assert team.admin.get("/api/me/").json()["clubs"] == []
    assert User.objects.filter(username__in=["olga", "adam", "rita", "max"]).count() == 4
    assert_error(team.owner.get(f"/api/clubs/{team.slug}/"), 404)
