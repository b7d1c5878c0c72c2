"""Share links on the pages: the game's owner (or staff) makes a link on the game's page; anyone
with it, signed out, follows that game read-only and sees nothing else (no entry form, no
history, no share links, no menu); a stopped link, a made-up one and another game's are not
found alike; nobody else makes or stops a link."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.models import GameShare
from tests.builders import complots_game
from tests.web.test_web_complots import turn_post


def share_urls(html: str) -> list[str]:
    return re.findall(r'<textarea readonly id="share-\d+"[^>]*>([^<]+)</textarea>', html)


def test_a_share_link_shows_the_game_and_nothing_else(web: Client, user: Any) -> None:
    game = complots_game(user)
    web.post(
        reverse("web:round-append", args=[game.pk]), turn_post({"actor": 0, "action": "income"}, 1)
    )
    made = web.post(reverse("web:share-create", args=[game.pk]))
    assert made.status_code == 302 and made["Location"].endswith("#shares")
    (url,) = share_urls(web.get(reverse("web:game", args=[game.pk])).content.decode())
    share = GameShare.objects.get(game=game)
    assert url == f"http://testserver/shared/{share.token}/"
    assert len(share.token) == 32 and share.created_by == user

    table = Client()  # a phone at the table, signed out
    page = table.get(f"/shared/{share.token}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="shared-note"' in html and 'http-equiv="refresh" content="30"' in html
    assert "Ada" in html and "Bea" in html and "Cy" in html
    assert 'id="seats-table"' in html  # the table as it stands
    for absent in ("turn-entry", "h-history", "h-shares", "share-new", "undo-round", "signout"):
        assert absent not in html, absent
    assert share.token not in html.replace(f"/shared/{share.token}/", "")  # only in its own path
    # The game goes on: the link follows it.
    web.post(
        reverse("web:round-append", args=[game.pk]), turn_post({"actor": 1, "action": "income"}, 2)
    )
    assert (
        "2 turni giocati"
        in table.get(f"/shared/{share.token}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    )

    stop = reverse("web:share-revoke", args=[game.pk, share.token])
    asked = web.post(stop)  # asks first: the link still works
    assert asked.status_code == 200 and "Stop this share link?" in asked.content.decode()
    assert table.get(f"/shared/{share.token}/").status_code == 200
    stopped = web.post(stop, {"confirmed": "yes"})
    assert stopped.status_code == 302
    assert table.get(f"/shared/{share.token}/").status_code == 404
    assert share_urls(web.get(reverse("web:game", args=[game.pk])).content.decode()) == []


@pytest.mark.parametrize(
    "path",
    [
        "/shared/" + "A" * 32 + "/",  # no such link
        "/shared/short/",
        "/shared/" + "A" * 33 + "/",
        "/shared/%00" + "A" * 29 + "/",
        "/shared/" + "%F0%9F%8E%B2" * 8 + "/",
    ],
)
def test_a_link_that_is_no_share_link_is_not_found(client: Client, db: None, path: str) -> None:
    assert client.get(path).status_code == 404


def test_only_who_may_change_the_game_makes_or_stops_its_links(
    web: Client, other_web: Client, staff_web: Client, user: Any
) -> None:
    game = complots_game(user)
    assert other_web.post(reverse("web:share-create", args=[game.pk])).status_code == 403
    assert not GameShare.objects.exists()
    assert staff_web.post(reverse("web:share-create", args=[game.pk])).status_code == 302
    share = GameShare.objects.get()
    # Bob sees the game (one club today) but not its links, and cannot stop them.
    assert share.token not in other_web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert (
        other_web.post(reverse("web:share-revoke", args=[game.pk, share.token])).status_code == 403
    )
    assert (
        other_web.post(
            reverse("web:share-revoke", args=[game.pk, share.token]), {"confirmed": "yes"}
        ).status_code
        == 403
    )
    # A link of another game, stopped through this one: not found, still working.
    other = complots_game(user)
    assert web.post(reverse("web:share-revoke", args=[other.pk, share.token])).status_code == 404
    assert (
        web.post(
            reverse("web:share-revoke", args=[other.pk, share.token]), {"confirmed": "yes"}
        ).status_code
        == 404
    )
    assert Client().get(f"/shared/{share.token}/").status_code == 200
    # Signed out: to the sign-in page, nothing made.
    assert Client().post(reverse("web:share-create", args=[game.pk])).status_code == 302
    assert GameShare.objects.count() == 1


def test_a_game_takes_at_most_twenty_links_at_once(web: Client, user: Any) -> None:
    game = complots_game(user)
    for _ in range(services.MAX_SHARES):
        services.share_create(game=game, by=user)
    refused = web.post(reverse("web:share-create", args=[game.pk]), follow=True)
    assert "at most 20 share links" in refused.content.decode()
    assert GameShare.objects.filter(game=game).count() == services.MAX_SHARES
