"""Statistics and ratings of plays known by their final scores (rules O5, O6): each of a
club's named games is a series of its own (games, wins, scores, head-to-head, ratings); a
cooperative game is one unit, won or lost by all and never rated; a play of Bruges known by its
final scores counts in Bruges' statistics with its own figures unknown, never 0. Every
expected number is worked by hand below."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from openskill.models import PlackettLuce
from rest_framework.test import APIClient

from games.records import board_games, services
from games.records.models import BoardGame, Player
from scoring import stats
from scoring.models import HeadToHead, PlayerGame, PlayerStats, Rating
from scoring.stats import selectors
from tests.accounts import first_club, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner")


def day(n: int) -> datetime.date:
    return datetime.date(2026, 1, n)


def record(
    owner: Any,
    names: list[str],
    lines: list[dict[str, Any]],
    *,
    board_game: BoardGame | None = None,
    game_type: str = "other",
    played_on: datetime.date,
    won: bool | None = None,
) -> Any:
    club = first_club()
    return board_games.result_game_create(
        club=club,
        owner=owner,
        players=services.players_resolve(names, club=club, created_by=owner),
        game_type=game_type,
        board_game=board_game,
        sheet=lines,
        won=won,
        played_on=played_on,
    )


def pid(name: str) -> int:
    return Player.objects.get(name=name).pk


def key(board_game: BoardGame) -> str:
    return f"other-{board_game.pk}"


@pytest.fixture
def evening(owner: Any) -> dict[str, BoardGame]:
    club = first_club()
    azul = board_games.board_game_create(club=club, name="Azul", bgg_id=230802, win="highest")
    golf = board_games.board_game_create(club=club, name="Golf", win="lowest")
    hanabi = board_games.board_game_create(club=club, name="Hanabi", win="cooperative")
    # Azul 1: Ada 10, Bea 7, Cy 7 -> ranks 1, 2, 2.
    record(owner, ["Ada", "Bea", "Cy"], [{"score": 10}, {"score": 7}, {"score": 7}],
           board_game=azul, played_on=day(1))  # fmt: skip
    # Azul 2: Ada 5, Bea 9 -> ranks 2, 1.
    record(owner, ["Ada", "Bea"], [{"score": 5}, {"score": 9}], board_game=azul, played_on=day(2))
    # Golf: Ada 3, Bea 8, lowest wins -> ranks 1, 2.
    record(owner, ["Ada", "Bea"], [{"score": 3}, {"score": 8}], board_game=golf, played_on=day(3))
    # Hanabi: won by Ada and Bea, then lost by Ada and Cy.
    record(owner, ["Ada", "Bea"], [{"score": 25}, {}], board_game=hanabi, played_on=day(4),
           won=True)  # fmt: skip
    record(owner, ["Ada", "Cy"], [{}, {}], board_game=hanabi, played_on=day(5), won=False)
    stats.ratings_recompute()  # what the commit would have run
    return {"azul": azul, "golf": golf, "hanabi": hanabi}


def bucket(name: str, game_type: str) -> dict[str, Any]:
    player = Player.objects.get(name=name)
    return selectors.player_stats(player=player, game_type=game_type)


def test_o6_each_named_game_is_a_series_of_its_own(evening: dict[str, BoardGame]) -> None:
    azul, golf = key(evening["azul"]), key(evening["golf"])
    ada = bucket("Ada", azul)
    assert (ada["games"], ada["wins"], ada["win_rate"]) == (2, 1.0, 0.5)
    assert (ada["average_score"], ada["best_score"], ada["worst_score"]) == (7.5, 10, 5)
    assert ada["average_rank"] == 1.5
    bea = bucket("Bea", azul)
    assert (bea["games"], bea["wins"], bea["average_score"], bea["average_rank"]) == (
        2,
        1.0,
        8.0,
        1.5,
    )
    cy = bucket("Cy", azul)
    assert (cy["games"], cy["wins"], cy["average_score"], cy["average_rank"]) == (1, 0.0, 7.0, 2.0)
    # Golf holds only its own play: Ada's 3 won it.
    ada = bucket("Ada", golf)
    assert (ada["games"], ada["wins"], ada["best_score"]) == (1, 1.0, 3)
    assert bucket("Bea", golf)["wins"] == 0.0
    # The series are the named games', nothing under the bare game type.
    assert not PlayerStats.objects.filter(game_type="other").exists()
    assert set(PlayerGame.objects.values_list("game_type", flat=True)) == {
        azul,
        golf,
        key(evening["hanabi"]),
    }


def test_o6_head_to_head_per_named_game(evening: dict[str, BoardGame]) -> None:
    azul, golf = key(evening["azul"]), key(evening["golf"])

    def h2h(a: str, b: str, game_type: str) -> tuple[int, int, int, int]:
        row = HeadToHead.objects.get(player_id=pid(a), opponent_id=pid(b), game_type=game_type)
        return row.games, row.wins, row.losses, row.ties

    # Azul: Ada beat Bea in play 1 (1 < 2) and lost in play 2 (2 > 1); beat Cy in play 1;
    # Bea and Cy tied in play 1 (2 = 2).
    assert h2h("Ada", "Bea", azul) == (2, 1, 1, 0)
    assert h2h("Ada", "Cy", azul) == (1, 1, 0, 0)
    assert h2h("Bea", "Cy", azul) == (1, 0, 0, 1)
    assert h2h("Bea", "Ada", golf) == (1, 0, 1, 0)


def test_o5_a_cooperative_game_is_won_or_lost_by_all(evening: dict[str, BoardGame]) -> None:
    hanabi = key(evening["hanabi"])
    ada = bucket("Ada", hanabi)
    assert (ada["games"], ada["wins"], ada["win_rate"]) == (2, 1.0, 0.5)
    assert bucket("Bea", hanabi)["wins"] == 1.0  # won with Ada: a whole win each
    assert bucket("Cy", hanabi)["wins"] == 0.0  # lost with Ada
    assert bucket("Ada", hanabi)["best_score"] == 25  # the table's score, shared
    # Teammates are not opponents, and nobody is ranked against anybody: no head-to-head,
    # no rating.
    assert not HeadToHead.objects.filter(game_type=hanabi).exists()
    assert not Rating.objects.filter(game_type=hanabi).exists()
    assert ada["rating"] is None


def test_o6_ratings_per_named_game_equal_openskill_by_hand(evening: dict[str, BoardGame]) -> None:
    azul, golf = key(evening["azul"]), key(evening["golf"])
    model = PlackettLuce()
    ada, bea, cy = model.rating(), model.rating(), model.rating()
    # Azul 1: ranks 1, 2, 2; Azul 2: Ada 2, Bea 1.
    [ada], [bea], [cy] = model.rate([[ada], [bea], [cy]], ranks=[1, 2, 2])
    [ada], [bea] = model.rate([[ada], [bea]], ranks=[2, 1])
    for name, expected, games in (("Ada", ada, 2), ("Bea", bea, 2), ("Cy", cy, 1)):
        stored = Rating.objects.get(player_id=pid(name), game_type=azul)
        assert (stored.mu, stored.sigma, stored.games) == pytest.approx(
            (expected.mu, expected.sigma, games)
        )
    # Golf's series starts afresh: Ada's first game there is a win over Bea.
    ada2, bea2 = model.rating(), model.rating()
    [ada2], [bea2] = model.rate([[ada2], [bea2]], ranks=[1, 2])
    stored = Rating.objects.get(player_id=pid("Ada"), game_type=golf)
    assert (stored.mu, stored.sigma, stored.games) == pytest.approx((ada2.mu, ada2.sigma, 1))


def test_o6_a_result_play_of_bruges_counts_in_bruges(owner: Any) -> None:
    record(owner, ["Ada", "Bea"], [{"score": 60}, {"score": 50}], game_type="bruges",
           played_on=day(1))  # fmt: skip
    rows = {r.player_id: r for r in PlayerGame.objects.filter(game_type="bruges")}
    ada = rows[pid("Ada")]
    assert (ada.score, ada.rank, ada.win_share, ada.detailed) == (60, 1, 1.0, False)
    # Its own counters need a log or a sheet: unknown, never 0.
    assert ada.counters and set(ada.counters.values()) == {None}
    figures = bucket("Ada", "bruges")
    assert (figures["games"], figures["wins"], figures["average_score"]) == (1, 1.0, 60.0)
    assert (
        PlayerStats.objects.get(
            player_id=pid("Ada"), game_type="bruges", bucket="all"
        ).detailed_games
        == 0
    )
    assert all(v is None for v in figures["average_points"].values())


def test_o6_a_renamed_or_rewon_named_game_keeps_its_series(
    owner: Any, evening: dict[str, BoardGame]
) -> None:
    golf = evening["golf"]
    board_games.board_game_update(board_game=golf, name="Mini golf", win="highest")
    # Now 8 beats 3: Bea won the one play.
    assert bucket("Bea", key(golf))["wins"] == 1.0
    assert bucket("Ada", key(golf))["wins"] == 0.0


def test_o6_the_api_serves_a_named_games_series(evening: dict[str, BoardGame]) -> None:
    user = make_user("reader")
    client = APIClient()
    client.force_authenticate(user)
    azul = evening["azul"]
    r = client.get(f"/api/players/{pid('Ada')}/stats/?game_type={key(azul)}")
    assert r.status_code == 200, r.json()
    body = r.json()
    assert (body["games"], body["wins"], body["best_score"]) == (2, 1.0, 10)
    listed = {g["game_type"]: g for g in body["game_types"]}
    assert listed[key(azul)] == {"game_type": key(azul), "label": "Azul", "games": 2}
    r = client.get(f"/api/players/{pid('Ada')}/head-to-head/?game_type={key(azul)}")
    rows = r.json()["results"] if isinstance(r.json(), dict) else r.json()
    assert {row["opponent"]["name"]: row["wins"] for row in rows} == {"Bea": 1, "Cy": 1}
    r = client.get(f"/api/leaderboard/?game_type={key(azul)}")
    rows = r.json()["results"] if isinstance(r.json(), dict) else r.json()
    assert {row["player"]["name"] for row in rows} == {"Ada", "Bea", "Cy"}
    # A named game that is none of the reader's: an empty series, like one that does not exist.
    r = client.get(f"/api/players/{pid('Ada')}/stats/?game_type=other-{azul.pk + 1000}")
    assert r.status_code == 200 and r.json()["games"] == 0
    for bad in ("other-0", "other-01", "other-x", "bruges-3", f"other-{2**64}", "other-"):
        r = client.get(f"/api/players/{pid('Ada')}/stats/?game_type={bad}")
        assert r.status_code == 400 and r.json()["code"] == "unknown_game_type", bad
