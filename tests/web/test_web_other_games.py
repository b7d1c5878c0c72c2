"""The pages of other games: the club's named games, a play recorded by its final scores (a
refusal next to its player, nothing stored), the play's page, lists, and the player page's
section per named game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games.records import board_games, services
from games.records.models import BoardGame, Club, Game, Player
from tests.accounts import first_club

pytestmark = pytest.mark.django_db


def play_data(**fields: Any) -> dict[str, Any]:
    return {"game_type": "other", "new_win": "highest", **fields}


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_a_named_game_is_added_changed_and_deleted(web: Client) -> None:
    r = web.post("/board-games/", {"name": " Azul ", "bgg_id": "230802", "win": "highest"})
    assert r.status_code == 302
    azul = BoardGame.objects.get()
    assert (azul.name, azul.bgg_id, azul.win, azul.club) == (
        "Azul",
        230802,
        "highest",
        first_club(),
    )
    page = text(web.get("/board-games/"))
    assert "Azul" in page and "Highest score wins" in page
    r = web.post(f"/board-games/{azul.pk}/", {"name": "Azul", "bgg_id": "", "win": "lowest"})
    assert r.status_code == 302
    azul.refresh_from_db()
    assert (azul.bgg_id, azul.win) == (None, "lowest")
    r = web.post("/board-games/", {"name": "AZUL", "win": "highest"})
    assert r.status_code == 400 and "already has a game called" in text(r)
    assert web.post(f"/board-games/{azul.pk}/delete/").status_code == 302
    assert not BoardGame.objects.exists()


def test_a_play_is_recorded_and_shown(web: Client) -> None:
    r = web.post(
        "/plays/new/",
        play_data(
            new_name="Carcassonne",
            new_bgg_id="822",
            player_0="Ada",
            player_1="Bea",
            player_2="Cy",
            # 84, 91, 84: Bea first, Ada and Cy share the second place (O3).
            score_0="84",
            score_1="91",
            score_2="84",
            first_player="2",
            duration="75",
            location="Café",
        ),
    )
    assert r.status_code == 302, text(r)
    game = Game.objects.get()
    assert r["Location"] == f"/games/{game.pk}/"
    assert (game.mode, game.board_game.name, game.duration, game.first_player) == (
        "result",
        "Carcassonne",
        75,
        2,
    )
    assert [s.rank for s in game.seats.order_by("seat")] == [2, 1, 2]
    page = text(web.get(f"/games/{game.pk}/"))
    assert "Carcassonne · game #" in page
    assert "1 h 15 min" in page and "Cy started" in page
    assert "boardgamegeek.com/boardgame/822" in page
    ranking = re.findall(r'data-seat="(\d)" data-rank="(\d)"', page)
    assert ranking == [("1", "1"), ("0", "2"), ("2", "2")]
    # The lists call it by its name.
    assert "Carcassonne #" in text(web.get("/"))
    assert "Carcassonne #" in text(web.get(f"/board-games/{game.board_game_id}/"))


def test_a_refused_play_says_who_and_stores_nothing(web: Client) -> None:
    azul = board_games.board_game_create(club=first_club(), name="Azul")
    r = web.post(
        "/plays/new/",
        play_data(
            board_game=str(azul.pk),
            player_0="Ada",
            player_1="Bea",
            score_0="30",
            rank_0="2",
            score_1="20",
        ),
    )
    assert r.status_code == 400
    page = text(r)
    assert "Ada is ranked 2, but the sheet places it 1." in page
    assert not Game.objects.exists()
    assert not Player.objects.exists()  # the names typed are not kept either


def test_a_new_game_refused_with_its_play_is_not_kept(web: Client) -> None:
    r = web.post("/plays/new/", play_data(new_name="Go", player_0="Ada", player_1="Bea"))
    assert r.status_code == 400
    assert "Nothing says who won" in text(r)
    assert not BoardGame.objects.exists() and not Game.objects.exists()


def test_a_cooperative_play_and_teams(web: Client) -> None:
    r = web.post(
        "/plays/new/",
        play_data(new_name="Hanabi", new_win="cooperative", player_0="Ada", player_1="Bea",
                  score_0="21", won="lost"),
    )  # fmt: skip
    assert r.status_code == 302, text(r)
    game = Game.objects.get()
    assert game.teams == [[0, 1]] and game.result["winners"] == []
    assert "Lost together" in text(web.get(f"/games/{game.pk}/"))
    r = web.post(
        "/plays/new/",
        play_data(new_name="Codenames", player_0="Ada", player_1="Bea", player_2="Cy",
                  player_3="Dan", team_0="1", team_1="2", team_2="1", team_3="2",
                  winner_1="on"),
    )  # fmt: skip
    assert r.status_code == 302, text(r)
    game = Game.objects.latest("pk")
    assert game.teams == [[0, 2], [1, 3]]
    assert [s.rank for s in game.seats.order_by("seat")] == [2, 1, 2, 1]


def test_another_clubs_named_game_is_not_found(web: Client) -> None:
    theirs = BoardGame.objects.create(club=Club.objects.create(name="B", slug="b"), name="Go")
    assert web.get(f"/board-games/{theirs.pk}/").status_code == 404
    assert web.post(f"/board-games/{theirs.pk}/delete/").status_code == 404
    r = web.post(
        "/plays/new/",
        play_data(board_game=str(theirs.pk), player_0="Ada", player_1="Bea", score_0="1",
                  score_1="2"),
    )  # fmt: skip
    assert r.status_code == 400 and not Game.objects.exists()


def test_a_member_reads_but_records_nothing(other_web: Client) -> None:
    azul = board_games.board_game_create(club=first_club(), name="Azul")
    assert other_web.get(f"/board-games/{azul.pk}/").status_code == 200
    assert other_web.get("/plays/new/").status_code == 403
    assert other_web.post("/board-games/", {"name": "Go", "win": "highest"}).status_code == 403
    assert other_web.post(f"/board-games/{azul.pk}/delete/").status_code == 403


def test_the_player_page_has_a_section_per_named_game(web: Client, user: Any) -> None:
    club = first_club()
    azul = board_games.board_game_create(club=club, name="Azul")
    golf = board_games.board_game_create(club=club, name="Golf", win="lowest")
    players = services.players_resolve(["Ada", "Bea"], club=club, created_by=user)
    for board_game, lines in (
        (azul, [{"score": 10}, {"score": 7}]),
        (azul, [{"score": 5}, {"score": 9}]),
        (golf, [{"score": 3}, {"score": 8}]),
    ):
        board_games.result_game_create(
            club=club, owner=user, players=players, game_type="other", board_game=board_game,
            sheet=lines,
        )  # fmt: skip
    page = text(web.get(f"/players/{players[0].pk}/"))
    assert "Statistics: Azul" in page and "Statistics: Golf" in page
    azul_part = page[page.index("Statistics: Azul") : page.index("Statistics: Golf")]
    # Azul: 2 games, 1 win (50%), average score 7.5, best 10.
    compact = azul_part.replace(" ", "")
    assert "<dt>Games</dt><dd>2</dd>" in compact
    assert "<dt>Winrate</dt><dd>50%</dd>" in compact
    assert "<dt>Averagescore</dt><dd>7.5</dd>" in compact
    assert "<dt>Bestscore</dt><dd>10</dd>" in compact


def test_the_new_game_chooser_leads_to_a_play(web: Client) -> None:
    r = web.get("/games/new/other/")
    assert r.status_code == 302 and r["Location"] == "/plays/new/"


def test_a_play_of_bruges_known_by_its_scores_has_the_same_page(web: Client, user: Any) -> None:
    club = first_club()
    game = board_games.result_game_create(
        club=club,
        owner=user,
        players=services.players_resolve(["Ada", "Bea"], club=club, created_by=user),
        game_type="bruges",
        sheet=[{"score": 48}, {"score": 55}],
    )
    page = text(web.get(f"/games/{game.pk}/"))
    assert "Bruges · game #" in page and "final scores only" in page
    assert re.findall(r'data-seat="(\d)" data-rank="(\d)"', page) == [("1", "1"), ("0", "2")]
