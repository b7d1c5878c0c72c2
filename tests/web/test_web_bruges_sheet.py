"""Bruges by its final score sheet on the web scorepad page (Django's test client): the page asks
each player's categories in number boxes with a numeric keyboard, the persons by price and the
statues to tick; a filled sheet becomes a finished game scored like the rules (the rulebook's
example of a final scoring, worked by hand), shown with its score sheet; the engine's refusals
come back inside the player's part of the form with nothing stored; B7's tie-breaks in words."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.models import Game, Player

pytestmark = pytest.mark.django_db

URL = reverse("web:scorepad-new-of", args=["bruges"])
# The sheet of the rulebook's "Esempio di punteggio finale" (Ada): persons 9, 3, 6, 0, 6
# florins -> 3 + 1 + 2 + 0 + 2 = 8 (B4), 6 houses, 4 laurel points, two majority tiles 8, a
# canal's 3rd space 3, step 6 = 7 on the standard board (B1): 36 with 3 florins. Bea: track 21,
# a 12-florin person 4, 2 houses, the statue of 7, step 3 = 3: 37 with 5 florins. Bea wins.
ADA = {
    "track": 0,
    "p0": 1,
    "p3": 1,
    "p6": 2,
    "p9": 1,
    "houses": 6,
    "laurels": 4,
    "majorities": 2,
    "canals": 1,
    "step": 6,
    "florins": 3,
}
BEA = {"track": 21, "p12": 1, "houses": 2, "statues": [7], "step": 3, "florins": 5}


@pytest.fixture(autouse=True)
def _editions(db: None) -> None:
    services.editions_ensure_builtin()


def form_data(*seats: dict[str, Any], names: tuple[str, ...] = ("Ada", "Bea")) -> dict[str, Any]:
    data: dict[str, Any] = {"game_type": "bruges", "edition": "standard"}
    for seat, name in enumerate(names):
        data[f"player_{seat}"] = name
    for seat, values in enumerate(seats):
        for key, value in values.items():
            data[f"s{seat}_{key}"] = [str(v) for v in value] if isinstance(value, list) else value
    return data


def sheet_cell(html: str, seat: int, key: str) -> list[str]:
    """The words of a cell of the finished game's score sheet, tags stripped."""
    found = re.search(rf'<td data-seat="{seat}" data-key="{key}">(.*?)</td>', html, re.S)
    assert found, f"no cell {seat}/{key}"
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split()


def seat_part(html: str, seat: int) -> str:
    start = f'<fieldset class="tableau-entry bsheet-entry" data-seat="{seat}"'
    found = re.search(re.escape(start) + r".*?</fieldset>\s*</fieldset>", html, re.S)
    assert found, f"no part for seat {seat}"
    return found.group(0)


def test_the_page_asks_each_players_sheet_as_on_paper(web: Client) -> None:
    response = web.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    # Bruges takes 2 to 4 players: a part per seat, its numbers with the numeric keyboard.
    for seat in range(4):
        part = seat_part(html, seat)
        for key in ("track", "houses", "laurels", "majorities", "canals", "step", "florins"):
            box = re.search(rf'<input[^>]*name="s{seat}_{key}"[^>]*>', part)
            assert box and 'inputmode="numeric"' in box.group(0) and 'type="number"' in box.group(0)
        # The persons by price (B4: 0, 3, 6, 9, 12 florins), the statues to tick (B3).
        for price in (0, 3, 6, 9, 12):
            assert f'name="s{seat}_p{price}"' in part
        statues = re.findall(rf'<input type="checkbox" name="s{seat}_statues" value="(\d)"', part)
        assert statues == ["7", "6", "5", "4", "3", "2"]
    # The form's bounds: 3 majority tiles, 2 canal sections, step 12.
    assert re.search(r'name="s0_majorities"[^>]*max="3"|max="3"[^>]*name="s0_majorities"', html)
    assert re.search(r'name="s0_step"[^>]*max="12"|max="12"[^>]*name="s0_step"', html)
    # The board edition is chosen like a new game's.
    assert 'name="edition"' in html


def test_bruges_is_offered_among_the_scorepad_games(web: Client) -> None:
    html = web.get(reverse("web:scorepad-new")).content.decode()
    assert URL in html


def test_a_filled_sheet_is_a_finished_game_scored_by_the_rules(web: Client) -> None:
    response = web.post(URL, form_data(ADA, BEA))
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert (game.game_type, game.mode, game.status) == ("bruges", "scorepad", "finished")
    assert game.edition.key == "standard"
    assert [(s.player.name, s.score, s.rank) for s in game.seats.order_by("seat")] == [
        ("Ada", 36, 2),
        ("Bea", 37, 1),
    ]
    # The sheet as the engine read it: the persons' prices, highest first.
    assert game.sheet == [
        {
            "track": 0,
            "persons": [9, 6, 6, 3, 0],
            "houses": 6,
            "laurels": 4,
            "majorities": 2,
            "canals": 1,
            "statues": [],
            "step": 6,
            "florins": 3,
        },
        {
            "track": 21,
            "persons": [12],
            "houses": 2,
            "laurels": 0,
            "majorities": 0,
            "canals": 0,
            "statues": [7],
            "step": 3,
            "florins": 5,
        },
    ]
    html = web.get(response["Location"]).content.decode()
    # The score sheet of the finished game, as the logged games show it.
    assert sheet_cell(html, 0, "persons") == ["3", "+", "2", "+", "2", "+", "1", "+", "0", "8"]
    assert sheet_cell(html, 0, "houses") == ["6", "houses", "6"]
    assert sheet_cell(html, 0, "laurels") == ["4"]
    assert sheet_cell(html, 0, "majorities") == ["2", "tiles", "8"]
    assert sheet_cell(html, 0, "canals") == ["1", "section", "3"]
    assert sheet_cell(html, 0, "prestige") == ["step", "6", "7"]
    assert sheet_cell(html, 1, "statues") == ["7"]
    assert sheet_cell(html, 1, "persons") == ["4"]
    assert sheet_cell(html, 0, "total") == ["36"] and sheet_cell(html, 1, "total") == ["37"]
    assert sheet_cell(html, 0, "rank") == ["2"] and sheet_cell(html, 1, "rank") == ["1"]
    assert sheet_cell(html, 1, "florins") == ["5"]
    ranking = re.search(r'<ol class="ranking" id="ranking">(.*?)</ol>', html, re.S)
    assert ranking
    first = re.search(r'<li id="player-(\d)"[^>]*data-rank="1"', ranking.group(1))
    assert first and first.group(1) == "1"
    assert "winner" in ranking.group(1)
    # A game entered by its sheet has no rounds to add, no finish and no reopen.
    for absent in ('id="entry"', 'id="game-finish"', f'action="/games/{game.pk}/reopen/"'):
        assert absent not in html
    assert "scorepad entry" in html


def test_two_players_leave_the_other_seats_empty(web: Client) -> None:
    data = form_data({"track": 9}, {"track": 9, "florins": 1})
    data["s3_track"] = ""  # an unnamed seat's empty boxes are not read
    assert web.post(URL, data).status_code == 302
    game = Game.objects.get()
    assert game.player_count == 2 and len(game.sheet) == 2
    # B7: as many points, more florins: Bea first.
    assert [(s.score, s.rank) for s in game.seats.order_by("seat")] == [(9, 2), (9, 1)]


def test_ties_are_said_in_words(web: Client) -> None:
    # Ada, Bea and Cy 20 points each; Ada and Bea 4 florins (shared), Cy 2 (third, B7).
    data = form_data(
        {"track": 20, "florins": 4},
        {"track": 19, "houses": 1, "florins": 4},
        {"track": 17, "canals": 1, "florins": 2},
        names=("Ada", "Bea", "Cy"),
    )
    response = web.post(URL, data)
    assert response.status_code == 302
    html = html_lib.unescape(web.get(response["Location"]).content.decode())
    assert "Tied on 20 points and 4 florins with Bea: the place is shared" in html
    assert (
        "Tied on 20 points with Ada and Bea: placed by florins among players with as many " in html
    )
    game = Game.objects.get()
    assert [s.rank for s in game.seats.order_by("seat")] == [1, 1, 3]


@pytest.mark.parametrize(
    ("seats", "seat", "words"),
    [
        pytest.param(
            ({"statues": [6]}, {}),
            0,
            "Ada: statues: the statue of 6 cannot be taken while the statue of 7 is still on "
            "the pile",
            id="a statue under the top of the pile (B3)",
        ),
        pytest.param(
            ({"statues": [7]}, {"statues": [7, 6, 5]}),
            1,
            "Bea: statues: a player takes at most 2 statues, not 3",
            id="three statues (B3)",
        ),
        pytest.param(
            ({}, {"p3": 2, "houses": 1}),
            1,
            "Bea: houses: one person per house, and the sheet gives more persons in play (2) "
            "than houses (1)",
            id="more persons than houses",
        ),
        pytest.param(
            ({"laurels": 3}, {}),
            0,
            "Ada: laurel points: laurel points come from laurel persons in play, and the sheet "
            "has no person",
            id="laurels without a person",
        ),
    ],
)
def test_a_refused_sheet_is_shown_in_the_players_part_and_nothing_is_kept(
    web: Client, seats: tuple[dict[str, Any], ...], seat: int, words: str
) -> None:
    response = web.post(URL, form_data(*seats))
    assert response.status_code == 400  # refused: said beside its fields
    html = html_lib.unescape(response.content.decode())
    part = seat_part(html, seat)
    errors = re.findall(r'<p class="error seat-error" role="alert">([^<]*)</p>', part)
    assert len(errors) == 1 and errors[0].startswith(words), errors
    assert "has-error" in part  # the box it is about
    assert not Game.objects.exists() and not Player.objects.exists()
    # What was typed is kept for the correction.
    assert 'value="Ada"' in html


def test_the_forms_own_bounds(web: Client) -> None:
    response = web.post(URL, form_data({"majorities": 4, "step": 13}, {"canals": "x"}))
    assert response.status_code == 400  # refused: said beside its fields
    sheet = response.context["sheet"]
    assert set(sheet.errors) == {"s0_majorities", "s0_step", "s1_canals"}
    assert not Game.objects.exists()


def test_a_refused_name_stays_with_the_players(web: Client) -> None:
    response = web.post(URL, form_data({}, {}, names=("Ada", "Ada")))
    assert response.status_code == 400  # refused: said beside its fields
    assert not Game.objects.exists()
