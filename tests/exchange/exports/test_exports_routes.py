"""The export's routes and links: ``GET /api/clubs/{slug}/export/bgstats/`` and its page, for
the club's members only (404 alike for a club that does not exist and another club's, 401 or the
sign-in page for anonymous visitors), whatever the query says; the link on the home page, the
"Send to BG Stats" link on a finished game's page and the API's ``bgstats_url``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.exchange import exports
from games.records import services
from games.records.models import Game, Membership
from tests.accounts import make_user
from tests.exchange.exports.conftest import simulated

NAMES = ["Ada", "Bea", "Cy"]
ATTACHMENT = 'attachment; filename="BGStatsExport.json"'


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _api(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _page(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _url(slug: str) -> str:
    return f"/api/clubs/{slug}/export/bgstats/"


@pytest.fixture
def played(club: SimpleNamespace) -> SimpleNamespace:
    """A finished and an unfinished game of the club, a finished game of the other club."""
    finished = simulated(club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES)
    unfinished = simulated(
        club.club, club.owner, "bruges", players=3, seed=2, names=NAMES, complete=False
    )
    theirs = simulated(
        club.other, club.outsider, "complots", players=3, seed=1, names=["Zed", "Yan", "Xia"]
    )
    assert (finished.status, unfinished.status) == (Game.Status.FINISHED, Game.Status.IN_PROGRESS)
    return SimpleNamespace(finished=finished, unfinished=unfinished, theirs=theirs)


@pytest.mark.parametrize("who", ["member", "recorder", "owner"])
def test_every_member_exports_the_club_s_finished_games(
    club: SimpleNamespace, played: SimpleNamespace, who: str
) -> None:
    response = _api(getattr(club, who)).get(_url(club.club.slug))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == ATTACHMENT
    document = json.loads(response.content)
    assert len(document["plays"]) == 1
    assert sorted(p["name"] for p in document["players"]) == NAMES
    assert [g["name"] for g in document["games"]] == ["Pot de Vin"]
    assert "Zed" not in response.content.decode()


def test_staff_export_any_club(club: SimpleNamespace, played: SimpleNamespace) -> None:
    staff = make_user("ex-staff", is_staff=True, role=None)
    response = _api(staff).get(_url(club.other.slug))
    assert response.status_code == 200
    assert sorted(p["name"] for p in json.loads(response.content)["players"]) == [
        "Xia",
        "Yan",
        "Zed",
    ]


def test_another_club_is_as_if_it_did_not_exist(
    club: SimpleNamespace, played: SimpleNamespace
) -> None:
    api = _api(club.member)
    theirs = api.get(_url(club.other.slug))
    missing = api.get(_url("no-such-club"))
    assert theirs.status_code == missing.status_code == 404
    assert theirs.json() == missing.json()
    assert theirs.json()["code"] == "not_found"
    assert "Other Club" not in theirs.content.decode()
    assert "Content-Disposition" not in theirs


def test_a_public_club_s_results_are_not_its_export(
    club: SimpleNamespace, played: SimpleNamespace
) -> None:
    """Public results show finished games and leaderboards, never the club's whole record."""
    club.other.public_results = True
    club.other.save()
    assert _api(club.member).get(_url(club.other.slug)).status_code == 404
    assert _api().get(_url(club.other.slug)).status_code == 401


def test_anonymous_visitors_sign_in_first(club: SimpleNamespace, played: SimpleNamespace) -> None:
    mine, missing = _api().get(_url(club.club.slug)), _api().get(_url("no-such-club"))
    assert mine.status_code == missing.status_code == 401
    assert mine.json() == missing.json()
    assert mine.json()["code"] == "not_authenticated"
    page = _page().get(f"/clubs/{club.club.slug}/export/bgstats/")
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]


@pytest.mark.parametrize(
    "query",
    [
        "?club=other-club",
        "?format=xml",
        "?games=all&status=in_progress",
        "?page=-1&limit=100000000000000000000",
        "?club=%00",
    ],
)
def test_the_query_is_ignored(club: SimpleNamespace, played: SimpleNamespace, query: str) -> None:
    response = _api(club.member).get(_url(club.club.slug) + query)
    assert response.status_code == 200
    assert len(json.loads(response.content)["plays"]) == 1


@pytest.mark.parametrize(
    "slug",
    ["..%2F..%2Fadmin", "%00", "a" * 51, "caf%C3%A9", "export%20club", "%F0%9F%8E%B2", "-"],
)
def test_a_slug_that_names_no_club_is_not_found(club: SimpleNamespace, slug: str) -> None:
    response = _api(club.member).get(f"/api/clubs/{slug}/export/bgstats/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    page = _page(club.member).get(f"/clubs/{slug}/export/bgstats/")
    assert page.status_code == 404


def test_only_reads_are_served(club: SimpleNamespace) -> None:
    api = _api(club.owner)
    for method in ("post", "put", "patch", "delete"):
        response = getattr(api, method)(_url(club.club.slug), {}, format="json")
        assert response.status_code == 405, method
        assert response.json()["code"] == "method_not_allowed"


def test_exports_are_rate_limited_per_user(
    club: SimpleNamespace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exports, "EXPORT_RATE", "2/min")
    api = _api(club.member)
    assert [api.get(_url(club.club.slug)).status_code for _ in range(3)] == [200, 200, 429]
    assert api.get(_url(club.club.slug)).json()["code"] == "throttled"
    assert _api(club.recorder).get(_url(club.club.slug)).status_code == 200  # per user
    page = _page(club.member)
    url = f"/clubs/{club.club.slug}/export/bgstats/"
    assert [page.get(url).status_code for _ in range(3)] == [200, 200, 429]
    assert page.get(url).content.decode() == "Too many exports; wait a minute."


def test_the_page_gives_the_same_file(club: SimpleNamespace, played: SimpleNamespace) -> None:
    page = _page(club.member).get(f"/clubs/{club.club.slug}/export/bgstats/")
    assert page.status_code == 200
    assert page["Content-Disposition"] == ATTACHMENT
    api = _api(club.member).get(_url(club.club.slug))
    strip = {"modificationDate", "entryDate"}

    def shape(raw: bytes) -> Any:
        document = json.loads(raw)
        for key in ("games", "players", "locations", "plays"):
            document[key] = [
                {k: v for k, v in row.items() if k not in strip} for row in document[key]
            ]
        return document

    assert shape(page.content) == shape(api.content)
    assert _page(club.outsider).get(f"/clubs/{club.club.slug}/export/bgstats/").status_code == 404


def test_the_home_page_links_to_the_export(club: SimpleNamespace) -> None:
    client = _page(club.member)
    assert "export-bgstats" not in client.get("/").content.decode()  # nothing finished yet
    simulated(club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES)
    home = client.get("/").content.decode()
    assert f'href="/clubs/{club.club.slug}/export/bgstats/"' in home
    assert "Export for BG Stats" in home


def test_a_finished_game_s_page_sends_it_to_bg_stats(
    club: SimpleNamespace, played: SimpleNamespace
) -> None:
    client = _page(club.member)
    finished = client.get(f"/games/{played.finished.pk}/").content.decode()
    assert 'id="send-to-bgstats"' in finished
    assert 'href="https://app.bgstatsapp.com/createPlay.html?data=' in finished
    assert "Send to BG Stats" in finished
    unfinished = client.get(f"/games/{played.unfinished.pk}/").content.decode()
    assert "send-to-bgstats" not in unfinished
    # The players without an account have it too, on the game's share link.
    share = services.share_create(game=played.finished, by=club.owner)
    shared = _page().get(share.get_absolute_url()).content.decode()
    assert 'id="send-to-bgstats"' in shared


def test_the_api_s_game_has_its_link(club: SimpleNamespace, played: SimpleNamespace) -> None:
    api = _api(club.member)
    finished = api.get(f"/api/games/{played.finished.pk}/").json()
    assert finished["bgstats_url"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert api.get(f"/api/games/{played.unfinished.pk}/").json()["bgstats_url"] is None


def test_a_member_of_two_clubs_exports_each_one_apart(
    club: SimpleNamespace, played: SimpleNamespace
) -> None:
    Membership.objects.create(club=club.other, user=club.recorder, role="member")
    response = _api(club.recorder).get(_url(club.other.slug))
    assert response.status_code == 200  # a member of both reads both, each its own
    names = sorted(p["name"] for p in json.loads(response.content)["players"])
    assert names == ["Xia", "Yan", "Zed"]
