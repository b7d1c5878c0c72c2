"""Other games take their place beside the engine games: a club's named game (Catan) has its
own leaderboard on Home and on the public results page, by its name, built as the engine
games' are (its ratings kept under its series key, "other-<id>"), and its section on the
player page."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client, TestCase

from games.records.models import BoardGame, Club
from games.web import present
from tests.accounts import first_club

pytestmark = pytest.mark.django_db


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def post_play(web: Client, play: dict[str, Any]) -> None:
    """One play recorded by its final scores; its ratings follow the commit."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        r = web.post("/plays/new/", {"game_type": "other", "new_win": "highest", **play})
    assert r.status_code == 302, text(r)


def catan_evening(web: Client) -> BoardGame:
    """Three plays of Catan (highest score wins), worked by hand: Ada 10, Bea 8, Cy 5 (Ada
    wins); Ada 9, Bea 12, Cy 3 (Bea wins); Ada 11, Bea 7 (Ada wins). Ada: 3 games, 2 wins;
    Bea: 3 games, 1 win; Cy: 2 games, no win."""
    plays = [
        {"new_name": "Catan", "new_win": "highest", "player_0": "Ada", "player_1": "Bea",
         "player_2": "Cy", "score_0": "10", "score_1": "8", "score_2": "5"},
        {"player_0": "Ada", "player_1": "Bea", "player_2": "Cy", "score_0": "9",
         "score_1": "12", "score_2": "3"},
        {"player_0": "Ada", "player_1": "Bea", "score_0": "11", "score_1": "7"},
    ]  # fmt: skip
    catan = None
    for play in plays:
        if catan is not None:
            play = {**play, "board_game": str(catan.pk)}
        post_play(web, play)
        catan = BoardGame.objects.get(name="Catan")
    assert catan is not None
    return catan


def board_rows(html: str, board_id: str) -> list[tuple[str, str, str, str]]:
    """(position, name, games, wins) of each row of a leaderboard table."""
    table = re.search(rf'<table class="data leaderboard" id="{board_id}">(.*?)</table>', html, re.S)
    assert table is not None, f"no {board_id} on the page"
    rows = re.findall(r"<tr><td>(\d+)</td><td>(?:<a [^>]*>)?([^<]+)(?:</a>)?</td>"
                      r'<td class="num">[^<]*</td><td class="num">(\d+)</td>'
                      r'<td class="num">([^<]+)</td></tr>', table.group(1))  # fmt: skip
    return rows


def test_catan_has_its_leaderboard_on_home_by_its_name(web: Client) -> None:
    catan = catan_evening(web)
    key = f"other-{catan.pk}"
    boards = present.leaderboards(first_club())
    assert [(b["game_type"], b["label"]) for b in boards] == [(key, "Catan")]
    first = boards[0]["entries"][0]
    assert (first["player"]["name"], first["games"], first["wins"]) == ("Ada", 3, 2)
    html = text(web.get("/"))
    assert f'id="board-{key}"' in html
    assert re.search(rf'id="board-{key}"> <caption>Catan ', html)
    rows = board_rows(html, f"board-{key}")
    assert rows[0] == ("1", "Ada", "3", "2")
    assert {r[1]: (r[2], r[3]) for r in rows} == {"Ada": ("3", "2"), "Bea": ("3", "1"),
                                                    "Cy": ("2", "0")}  # fmt: skip
    assert "No rated player yet" not in html


def test_catan_leaderboard_on_the_public_results_page(web: Client) -> None:
    catan = catan_evening(web)
    club = first_club()
    Club.objects.filter(pk=club.pk).update(public_results=True)
    page = Client().get(f"/clubs/{club.slug}/results/")
    assert page.status_code == 200
    rows = board_rows(text(page), f"board-other-{catan.pk}")
    assert rows[0] == ("1", "Ada", "3", "2")
    assert len(rows) == 3


def test_named_games_follow_the_engine_games_by_name(web: Client) -> None:
    catan_evening(web)
    post_play(web, {"new_name": "Azul", "player_0": "Ada", "player_1": "Bea", "score_0": "40",
                    "score_1": "52"})  # fmt: skip
    labels = [b["label"] for b in present.leaderboards(first_club())]
    assert labels == ["Azul", "Catan"]
    azul = present.leaderboards(first_club())[0]["entries"]
    assert [(e["player"]["name"], e["wins"]) for e in azul] == [("Bea", 1), ("Ada", 0)]


def test_the_player_page_has_a_catan_section(web: Client) -> None:
    catan = catan_evening(web)
    from games.records.models import Player

    ada = Player.objects.get(name="Ada")
    html = text(web.get(f"/players/{ada.pk}/"))
    assert f'id="game-other-{catan.pk}"' in html and "Statistics: Catan" in html
    players = text(web.get("/players/"))
    assert "Ada" in players and "Bea" in players and "Cy" in players
