"""The game pages follow the game (static/js/live.js): the page carries its tag (the game's
version and the page's language), and the page asked again with it (``/games/<id>/live/``,
``/shared/<token>/live/``) is 304 while the game is unchanged, one query for the game; after a
change it is the page again, with a new tag and what changed in words. The page's parts are
marked for the script: those showing the game (``data-live``), those holding a form
(``data-live-form``, keyed by what the form is for)."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.records import selectors, services
from games.records.models import Club, Game, GameShare
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import make_user, signed_in
from tests.builders import complots_game
from tests.web import test_web_bruges as bruges
from tests.web.test_web_pages import make_game, round_post

pytestmark = pytest.mark.django_db


def live_news(html: str) -> dict[str, str]:
    """The data-live-* attributes of the page's polite live region."""
    tag = re.search(r'<p id="live-news"[^>]*>', html)
    assert tag, "no live region"
    return {k: html_lib.unescape(v) for k, v in re.findall(r'data-live-([a-z]+)="([^"]*)"', tag[0])}


def parts(html: str) -> dict[str, str]:
    """Each part of the page marked for the script: its id and name (or form key)."""
    return dict(re.findall(r'<div id="(live-[a-z]+)" data-live(?:-form)?="([^"]*)"', html))


def pdv(user: Any, rounds: int = 0) -> tuple[Game, dict[str, Any]]:
    log = simulate(3, seed=4, record_deal=False)
    game = make_game(user, tuple(log["players"]), first_player=log["first_player"])
    for number in range(1, rounds + 1):
        services.round_append(game=game, round_data=log["rounds"][number - 1], number=number)
    game.refresh_from_db()
    return game, log


def poll(client: Client, url: str, tag: str, **headers: str) -> Any:
    return client.get(url, HTTP_IF_NONE_MATCH=tag, **headers)


def test_the_page_asked_again_is_304_until_the_game_changes(web: Client, user: Any) -> None:
    game, log = pdv(user, rounds=1)
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    said = live_news(page)
    url = reverse("web:game-live", args=[game.pk])
    assert said["url"] == url and said["page"] == reverse("web:game", args=[game.pk])
    assert said["tag"] == f'W/"g{game.pk}-v{selectors.version_of(game)}-en"'
    assert said["news"] == ""  # said only to the script, of a change
    assert parts(page) == {
        "live-meta": "meta",
        "live-top": "top",
        "live-entry": "entry-2",
        "live-body": "body",
        "live-undo": "undo",
        "live-actions": "actions",
        "live-history": "history",
    }
    unchanged = poll(web, url, said["tag"])
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == said["tag"]
    assert unchanged["Cache-Control"] == "private, no-cache"
    assert "Content-Type" not in unchanged

    services.round_append(game=game, round_data=log["rounds"][1], number=2, by=user)
    changed = poll(web, url, said["tag"])
    assert changed.status_code == 200
    now = live_news(changed.content.decode())
    assert changed["ETag"] == now["tag"] != said["tag"]
    assert now["news"] == "Round 2 was saved from another page or phone."
    assert parts(changed.content.decode())["live-entry"] == "entry-3"
    assert poll(web, url, now["tag"]).status_code == 304

    services.round_undo(game=game, by=user)
    undone = live_news(poll(web, url, now["tag"]).content.decode())
    assert undone["news"] == "Round 2 was undone from another page or phone."
    # A rename writes no line of history: the game "was updated".
    services.player_update(player=game.seats.get(seat=0).player, name="Adelheid")
    renamed = poll(web, url, undone["tag"]).content.decode()
    assert live_news(renamed)["news"] == "The game was updated."
    assert "Adelheid" in renamed


def test_a_304_reads_the_game_once(web: Client, user: Any) -> None:
    game, _ = pdv(user, rounds=1)
    url = reverse("web:game-live", args=[game.pk])
    tag = live_news(web.get(reverse("web:game", args=[game.pk])).content.decode())["tag"]
    with CaptureQueriesContext(connection) as queries:
        assert poll(web, url, tag).status_code == 304
    assert len([q for q in queries if "games_game" in q["sql"]]) == 1
    # The session, the user, their clubs and their language, then the game.
    assert len(queries) <= 5, [q["sql"] for q in queries]


def test_the_tag_differs_per_language(web: Client, user: Any) -> None:
    game, _ = pdv(user, rounds=1)
    url = reverse("web:game-live", args=[game.pk])
    english = live_news(web.get(reverse("web:game", args=[game.pk])).content.decode())["tag"]
    web.cookies["django_language"] = "it"
    italian = web.get(reverse("web:game", args=[game.pk])).content.decode()
    tag = live_news(italian)["tag"]
    assert tag == english.replace('-en"', '-it"')
    answer = poll(web, url, english)  # the English page, asked in Italian: the page in Italian
    assert answer.status_code == 200 and answer["ETag"] == tag
    assert '<html lang="it">' in answer.content.decode()
    assert poll(web, url, tag).status_code == 304
    # RFC 9110's weak comparison: the tag with or without its W/.
    assert poll(web, url, tag.removeprefix("W/")).status_code == 304
    assert poll(web, url, "*").status_code == 304


def test_a_live_page_leaves_the_notices_for_the_page_seen_next(web: Client, user: Any) -> None:
    game, log = pdv(user)
    saved = web.post(reverse("web:round-append", args=[game.pk]), round_post(log["rounds"][0], 1))
    assert saved.status_code == 302
    assert web.get(reverse("web:game-live", args=[game.pk])).status_code == 200
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "Round 1 saved" in page


def test_who_may_not_read_the_game_gets_what_its_page_answers(user: Any, web: Client) -> None:
    game, _ = pdv(user, rounds=1)
    url = reverse("web:game-live", args=[game.pk])
    tag = live_news(web.get(reverse("web:game", args=[game.pk])).content.decode())["tag"]
    theirs = Club.objects.create(name="Quokka Society", slug="quokka-society")
    stranger = signed_in(make_user("zed", club=theirs))
    assert poll(stranger, url, tag).status_code == 404
    assert poll(stranger, url, "*").status_code == 404
    anonymous = poll(Client(), url, tag)
    assert anonymous.status_code == 302
    assert anonymous["Location"].endswith("?next=" + reverse("web:game", args=[game.pk]))
    assert poll(web, reverse("web:game-live", args=[game.pk + 1000]), "*").status_code == 404


def test_the_share_links_page_follows_the_game(web: Client, user: Any) -> None:
    game = complots_game(user)
    share = services.share_create(game=game, by=user)
    table = Client()  # a phone at the table, signed out
    page = table.get(f"/shared/{share.token}/").content.decode()
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in page
    said = live_news(page)
    assert said["url"] == f"/shared/{share.token}/live/" and said["page"] == ""
    game.refresh_from_db()
    assert said["tag"] == f'W/"g{game.pk}-v{selectors.version_of(game)}-en-shared"'
    assert "live-stale" not in page and parts(page)["live-entry"] == ""
    assert poll(table, said["url"], said["tag"]).status_code == 304
    # The member's page has its own tag: it is not the share link's page.
    mine = live_news(web.get(reverse("web:game", args=[game.pk])).content.decode())["tag"]
    assert poll(table, said["url"], mine).status_code == 200

    services.round_append(game=game, round_data={"actor": 0, "action": "income"}, number=1)
    changed = poll(table, said["url"], said["tag"])
    assert changed.status_code == 200
    html = changed.content.decode()
    assert live_news(html)["news"] == "Turn 1 was saved from another page or phone."
    assert "1 turn played" in html and "turn-entry" not in html
    assert share.token not in html.replace(f"/shared/{share.token}/", "")

    GameShare.objects.filter(pk=share.pk).update(revoked_at=game.updated_at)
    assert poll(table, said["url"], "*").status_code == 404


def test_a_bruges_page_keeps_the_laurels_form_apart(web: Client, user: Any) -> None:
    log = bruges.example_log([bruges.EXAMPLE_ROUND], final=False)
    game = bruges.played(user, log)
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    version = selectors.version_of(game)
    assert parts(page) == {
        "live-meta": "meta",
        "live-top": "top",
        "live-entry": "entry-2",
        "live-score": "score",
        "live-laurels": f"finish-{version}",
        "live-rounds": "rounds",
        "live-undo": "undo",
        "live-actions": "actions",
        "live-history": "history",
    }
    assert 'data-live-with="live-entry"' in page  # the table as the entry form has it
