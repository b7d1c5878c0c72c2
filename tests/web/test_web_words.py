"""One word per meaning, on the pages: numbers in the reader's language on charts, seats
counted from 1, a Complots count nobody kept shown as a dash (a counted 0 stays 0), the
share page without the deck link a guest cannot open, and the Italian words that no longer
name four things."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, pgettext

from games.records import services
from games.records.models import Edition, GameShare, Player
from games.web import charts
from tests.accounts import first_club

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.mark.parametrize(("language", "half"), [("en", "1.5"), ("it", "1,5"), ("pt-br", "1,5")])
def test_chart_numbers_are_in_the_pages_language(language: str, half: str) -> None:
    with translation.override(language):
        svg = str(charts.line_chart([("a", 1.5), ("b", 2.5)], title="t"))
    # The ticks 1.5, 2, 2.5 and each point's title ("a: 1.5").
    assert f">{half}</text>" in svg and f"<title>a: {half}</title>" in svg
    assert ">2</text>" in svg


def test_seats_are_counted_from_1_on_the_new_game_page(web: Client) -> None:
    html = text(web.get(reverse("web:game-new-of", args=["pot-de-vin"]), follow=True))
    assert '<label for="id_player_0">Seat 1</label>' in html
    assert '<option value="0" selected>Seat 1</option>' in html or (
        '<option value="0">Seat 1</option>' in html
    )
    assert "Seat 0" not in html


def complots_by_result(user: Any, counts: list[dict[str, int] | None] | None) -> None:
    players = services.players_resolve(club=first_club(), refs=["Ada", "Bea"], created_by=user)
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        services.scorepad_game_create(
            club=first_club(),
            owner=user,
            players=players,
            game_type="complots",
            variant="inquisitor",
            sheet={"eliminated": [1], "counts": counts},
        )


def test_the_share_page_does_not_link_the_deck(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    players = services.players_resolve(
        club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=user
    )
    game = services.game_create(
        club=first_club(), owner=user, players=players, game_type="pot-de-vin", first_player=0
    )
    deck_url = reverse("web:deck", args=[game.edition.key])
    own = text(web.get(reverse("web:game", args=[game.pk])))
    assert f'href="{deck_url}"' in own
    assert web.post(reverse("web:share-create", args=[game.pk])).status_code == 302
    share = GameShare.objects.get(game=game)
    shared = text(Client().get(f"/shared/{share.token}/"))
    assert f"deck {game.edition.key}" in shared
    assert deck_url not in shared


def test_italian_gives_each_meaning_its_own_word() -> None:
    with translation.override("it"):
        words = [
            gettext("Scorepad"),
            pgettext("club role", "Recorder"),
            pgettext("bruges score sheet", "Score track"),
            pgettext("game badge", "scorepad"),
        ]
        laurels = (pgettext("bruges score sheet", "Laurel points"), gettext("Laurels"))
    assert words == ["Segnapunti", "Registratore", "Tracciato segnapunti", "dal segnapunti"]
    assert laurels == ("Vantaggi (dai personaggi)", "Vantaggi (dai personaggi)")
    with translation.override("pt-br"):
        assert gettext("Scorepad") != pgettext("game badge", "scorepad")
        assert gettext("Seat %(number)s") % {"number": 1} == "Lugar 1"


def test_the_rating_is_said_in_plain_words_on_the_player_page(web: Client, user: Any) -> None:
    complots_by_result(user, None)
    ada = Player.objects.get(name="Ada")
    html = text(web.get(reverse("web:player", args=[ada.pk])))
    assert "a cautious estimate of skill: higher is better" in html
    assert "Ordinal" not in html


@pytest.mark.parametrize(
    ("counts", "shown"),
    [
        (None, "—"),  # nobody counted: unknown, a dash
        ([{"coins_gained": 0}, {"coins_gained": 3}], "0"),  # counted, and none gained: 0
    ],
)
def test_a_complots_count_nobody_kept_is_a_dash_and_a_counted_zero_stays_0(
    web: Client, user: Any, counts: Any, shown: str
) -> None:
    complots_by_result(user, counts)
    ada = Player.objects.get(name="Ada")
    html = web.get(reverse("web:player", args=[ada.pk])).content.decode()
    cell = re.search(r'<td class="num" data-key="coins_gained">(.*?)</td>', html, re.S)
    assert cell is not None
    assert re.sub(r"<span class=\"vh\">.*?</span>|<[^>]+>", "", cell.group(1)) == shown
    # The API says the same: null for a count nobody kept.
    api = web.get(f"/api/players/{ada.pk}/stats/?game_type=complots").json()
    assert api["coins_gained"] == (None if counts is None else 0)
