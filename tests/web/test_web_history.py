"""The game page's history: each change of the game, in the game's words for its entries and the
reader's language, with who made it through the pages and when."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.models import GameEvent
from tests.accounts import first_club
from tests.builders import complots_game
from tests.web.test_web_complots import turn_post


def history(html: str) -> list[str]:
    """The history's lines, tags and the time removed."""
    section = re.search(r'<section aria-labelledby="h-history".*?</section>', html, re.S)
    assert section, "no history on the page"
    items = re.findall(r"<li>(.*?)<time", section.group(0), re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_the_game_page_shows_who_did_what(web: Client, staff_web: Client, user: Any) -> None:
    game = complots_game(user)
    income = {"actor": 0, "action": "income"}
    assert web.post(reverse("web:round-append", args=[game.pk]), turn_post(income, 1)).status_code
    undo = {"number": "1", "confirmed": "yes"}  # the question's "Yes"
    assert staff_web.post(reverse("web:round-undo", args=[game.pk]), undo).status_code == 302
    assert web.post(reverse("web:round-append", args=[game.pk]), turn_post(income, 1)).status_code
    assert [e.username for e in GameEvent.objects.order_by("id")] == [
        "alice",
        "alice",
        "carol",
        "alice",
    ]

    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert history(html) == [
        "Game created by alice",
        "Turn 1 entered by alice",
        "Turn 1 undone by carol",
        "Turn 1 entered by alice",
    ]
    assert "4 changes, oldest first" in html

    web.cookies["django_language"] = "it"
    italian = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert history(italian) == [
        "Partita creata da alice",
        "Turno 1 registrato da alice",
        "Turno 1 annullato da carol",
        "Turno 1 registrato da alice",
    ]


def test_a_bruges_round_is_a_turno_in_italian_and_nobody_known_is_not_named(
    web: Client, user: Any
) -> None:
    from scoring.engine.bruges.simulate import simulate as bruges_simulate

    services.editions_ensure_builtin()
    log = bruges_simulate(3, seed=62)
    game = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=user),
        game_type="bruges",
        first_player=log["first_player"],
    )
    services.round_append(game=game, round_data=log["rounds"][0])  # by nobody known
    web.cookies["django_language"] = "pt-br"
    portuguese = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert history(portuguese) == ["Partida criada por alice", "Rodada 1 registrada"]
    web.cookies["django_language"] = "it"
    italian = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert history(italian) == ["Partita creata da alice", "Turno 1 registrato"]
