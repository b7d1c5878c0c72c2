"""Bruges statistics (games/plugins/bruges/stats.py over the engine's info.stats), worked by hand
on two small finished games: the generic figures, the average points by scoring category,
statues, majority tiles flipped, penalties by colour, persons hired by group, head-to-head, the
leaderboard of Bruges alone, and a re-score with a corrected edition followed by the statistics.
The games follow shared/rules/bruges.md; the arithmetic is in the comments."""

from __future__ import annotations

import copy
import datetime
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.records import services
from games.records.models import Edition, Game, Player
from scoring import jobs
from scoring.models import Rating
from scoring.stats import selectors
from scoring.stats.games import game_stats
from tests.accounts import first_club

pytestmark = pytest.mark.django_db

BRUGES = "bruges"
DAY = datetime.date(2026, 3, 1)
CATEGORIES = (
    "track",
    "persons",
    "houses",
    "laurels",
    "majorities",
    "canals",
    "statues",
    "prestige",
)
COLORS = ("blue", "brown", "red", "purple", "yellow")
GROUPS = (
    "nobles", "bureaucrats", "entertainers", "merchants", "craftsmen", "courtiers", "clergy",
    "artists", "defenders", "underworld", "scholars",
)  # fmt: skip
# Rules B1: the default edition.
STANDARD = {
    "prestige_points": [0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 20],
    "canal": {
        "left": [{"cost": c, "color": None} for c in (1, 2, 3, 4, 5)],
        "right": [{"cost": c, "color": None} for c in (1, 2, 3, 4, 5)],
    },
}


def card(color: str, action: str, **more: Any) -> dict[str, Any]:
    return {"card": color, "action": action, **more}


def turn(seat: int, *steps: dict[str, Any]) -> dict[str, Any]:
    return {"seat": seat, "steps": list(steps)}


def person(pid: str, name: str, price: int, group: str, icon: str) -> dict[str, Any]:
    return {"id": pid, "name": name, "price": price, "group": group, "icon": icon}


# Game 1: Ada (seat 0) and Bea (seat 1), Ada first: the rules' example round, then a second one
# (tests/api/test_api_bruges.py works both out turn by turn). After round 2: Ada track 6,
# persons (6 + 3) / 3 = 3, houses 2, majorities 4 (persons), step 0: 15; Bea track 7, persons
# 3 / 3 = 1, houses 1, majorities 8 (prestige, canals), step 1 = 1 point: 18. The Poeta's
# laurel gives Ada 4: 19 against 18, Ada wins. Ada hired a scholar and an artist, Bea a
# merchant; no penalty, no statue.
GAME_1 = [
    {
        "dice": {"blue": 2, "brown": 5, "red": 1, "purple": 4, "yellow": 6},
        "prestige": [1],
        "turns": [
            turn(0, card("red", "workers")),
            turn(1, card("yellow", "florins")),
            turn(0, card("red", "house")),
            turn(1, card("blue", "canal", section="left")),
            turn(0, card("blue", "florins")),
            turn(1, card("brown", "threat")),
            turn(
                0,
                card("purple", "person", house=0,
                     person=person("p1", "Alchimista", 6, "scholars", "arrow")),
                {"effect": "p1", "gain": {"florins": 6}},
            ),
            turn(1, card("purple", "workers")),
        ],
    },
    {
        "dice": {"blue": 3, "brown": 4, "red": 3, "purple": 4, "yellow": 3},
        "turns": [
            turn(1, card("purple", "house")),
            turn(0, card("blue", "house")),
            turn(1, card("yellow", "threat")),
            turn(0, card("brown", "person", house=1,
                         person=person("p2", "Poeta", 3, "artists", "laurel"))),
            turn(1, card("red", "florins")),
            turn(0, card("yellow", "threat")),
            turn(1, card("blue", "person", house=0,
                         person=person("p3", "Mercante", 3, "merchants", "infinity"))),
            turn(0, card("red", "workers")),
        ],
    },
]  # fmt: skip
FINAL_1 = {"laurels": [{"seat": 0, "person": "p2", "points": 4}]}

# Game 2: Bea (seat 0) and Ada (seat 1), Bea first.
# Round 1, dice 1 3 4 5 6: a purple and a yellow token each; prestige costs 1 (the blue 1): Ada
# pays (5 - 1 = 4 florins) and climbs to step 1.
#   Bea + the yellow die: 5 + 6 = 11 florins.   Ada +2 red workers (3).
#   Bea builds left space 1 for 1 (10).         Ada builds a red house (red workers 2).
#   Bea builds left space 2 for 2 (8).          Ada hires the Cavaliere (arrow, defenders, 3)
#                                               into house 0 (4 - 3 = 1 florin); its arrow
#                                               gives 2 florins (3) and 2 purple tokens: 3
#                                               purple, so the purple penalty follows: 5 - 3 =
#                                               2 points, the 3 tokens returned.
#   Bea builds left space 3 for 3 (5).          Ada returns her yellow token, +1 point (3).
#   Majorities: Ada alone on a step (prestige) and with a person (persons), Bea with tiles.
# Round 2, Ada first, dice 6 2 3 4 6: a blue and a yellow token each (Bea's yellow: 2); no
# prestige (nobody listed).
#   Ada + the yellow die: 3 + 6 = 9.            Bea + the yellow die: 5 + 6 = 11.
#   Ada builds a blue house (blue workers 0).   Bea builds left space 4 for 4 (7).
#   Ada hires the Prete (laurel, clergy, 6)     Bea builds left space 5 for 5 (2): the section
#   into house 1 (9 - 6 = 3).                   is complete, the top statue is hers: 7 (B3).
#   Ada +2 blue workers.                        Bea returns her blue token, +1 point (6).
# Final, the Prete's laurel 2: Bea track 6 + majorities 4 + canals 3 (left 3rd space) + statue 7
# = 20; Ada track 3 + persons (3 + 6) / 3 = 3 + houses 2 + laurels 2 + majorities 8 + step 1 =
# 1 point: 19. Bea wins.
GAME_2 = [
    {
        "dice": {"blue": 1, "brown": 3, "red": 4, "purple": 5, "yellow": 6},
        "prestige": [1],
        "turns": [
            turn(0, card("yellow", "florins")),
            turn(1, card("red", "workers")),
            turn(0, card("blue", "canal", section="left")),
            turn(1, card("red", "house")),
            turn(0, card("red", "canal", section="left")),
            turn(
                1,
                card("purple", "person", house=0,
                     person=person("c1", "Cavaliere", 3, "defenders", "arrow")),
                {"effect": "c1", "gain": {"florins": 2, "threats": {"purple": 2}}},
                {"penalty": {"seat": 1, "color": "purple"}},
            ),
            turn(0, card("purple", "canal", section="left")),
            turn(1, card("yellow", "threat")),
        ],
    },
    {
        "dice": {"blue": 6, "brown": 2, "red": 3, "purple": 4, "yellow": 6},
        "turns": [
            turn(1, card("yellow", "florins")),
            turn(0, card("yellow", "florins")),
            turn(1, card("blue", "house")),
            turn(0, card("brown", "canal", section="left")),
            turn(1, card("red", "person", house=1,
                         person=person("c2", "Prete", 6, "clergy", "laurel"))),
            turn(0, card("red", "canal", section="left")),
            turn(1, card("blue", "workers")),
            turn(0, card("blue", "threat")),
        ],
    },
]  # fmt: skip
FINAL_2 = {"laurels": [{"seat": 1, "person": "c2", "points": 2}]}


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("owner", is_staff=True)


@pytest.fixture(autouse=True)
def bruges_standard(db: None) -> Edition:
    edition, _ = Edition.objects.get_or_create(
        game_type=BRUGES, key="standard", defaults={"data": STANDARD, "description": "B1"}
    )
    return edition


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any, settings: Any) -> Any:
    """``with commit(): ...``: the after-commit work (ratings, in process) runs at the end."""
    settings.POTDEVIN_RATINGS_SYNC = True
    return lambda: django_capture_on_commit_callbacks(execute=True)


def played(
    owner: Any,
    names: list[str],
    rounds: list[dict[str, Any]],
    final: dict[str, Any] | None,
    played_on: datetime.date,
) -> Game:
    """A Bruges game entered round by round through the services, finished with ``final``."""
    game = services.game_create(
        club=first_club(),
        owner=owner,
        players=services.players_resolve(club=first_club(), refs=names, created_by=owner),
        first_player=0,
        game_type=BRUGES,
        played_on=played_on,
    )
    for data in rounds:
        game, _ = services.round_append(game=game, round_data=copy.deepcopy(data))
    if final is not None:
        game = services.game_finish(game=game, finish={"final": copy.deepcopy(final)})
    return game


@pytest.fixture
def two_games(owner: Any, commit: Any) -> tuple[Game, Game]:
    with commit():
        first = played(owner, ["Ada", "Bea"], GAME_1, FINAL_1, DAY)
        second = played(owner, ["Bea", "Ada"], GAME_2, FINAL_2, DAY + datetime.timedelta(1))
        # A game in progress counts for nothing.
        played(owner, ["Ada", "Cy"], GAME_1[:1], None, DAY)
    return first, second


def served(name: str) -> dict[str, Any]:
    return selectors.player_stats(player=Player.objects.get(name=name), game_type=BRUGES)


def test_the_results_are_the_hand_worked_ones(two_games: tuple[Game, Game]) -> None:
    first, second = two_games
    assert [(p["score"], p["rank"]) for p in first.result["players"]] == [(19, 1), (18, 2)]
    assert [(p["score"], p["rank"]) for p in second.result["players"]] == [(20, 1), (19, 2)]
    assert second.result["statues"]["taken"] == [
        {"seat": 0, "section": "left", "value": 7, "round": 2}
    ]


def test_player_statistics_by_hand(two_games: tuple[Game, Game]) -> None:
    ada, bea = served("Ada"), served("Bea")
    # Ada: won game 1 (19), second in game 2 (19).
    assert (ada["games"], ada["wins"], ada["win_rate"]) == (2, 1, 0.5)
    assert (ada["average_score"], ada["best_score"], ada["worst_score"]) == (19, 19, 19)
    assert ada["average_rank"] == 1.5
    assert (ada["current_streak"], ada["longest_streak"]) == (0, 1)
    # Per category, (game 1 + game 2) / 2: track (6 + 3) / 2, persons (3 + 3) / 2, houses
    # (2 + 2) / 2, laurels (4 + 2) / 2, majorities (4 + 8) / 2, prestige (0 + 1) / 2; they add
    # up to the average score, 19.
    assert ada["average_points"] == {
        "track": 4.5, "persons": 3, "houses": 2, "laurels": 3, "majorities": 6, "canals": 0,
        "statues": 0, "prestige": 0.5,
    }  # fmt: skip
    assert sum(ada["average_points"].values()) == ada["average_score"]
    # Majority tiles: persons in game 1, prestige and persons in game 2.
    assert (ada["majorities_flipped"], ada["majorities_per_game"]) == (3, 1.5)
    assert (ada["statues_taken"], ada["statues_per_game"]) == (0, 0)
    assert ada["penalties"] == {"blue": 0, "brown": 0, "red": 0, "purple": 1, "yellow": 0}
    assert {g: n for g, n in ada["hired"].items() if n} == {
        "scholars": 1, "artists": 1, "defenders": 1, "clergy": 1
    }  # fmt: skip
    assert list(ada["hired"]) == list(GROUPS) and list(ada["penalties"]) == list(COLORS)

    # Bea: second in game 1 (18), won game 2 (20).
    assert (bea["games"], bea["wins"], bea["average_rank"]) == (2, 1, 1.5)
    assert (bea["average_score"], bea["best_score"], bea["worst_score"]) == (19, 20, 18)
    assert (bea["current_streak"], bea["longest_streak"]) == (1, 1)
    # track (7 + 6) / 2, persons (1 + 0) / 2, houses (1 + 0) / 2, majorities (8 + 4) / 2,
    # canals (0 + 3) / 2, statues (0 + 7) / 2, prestige (1 + 0) / 2: 19 in all.
    assert bea["average_points"] == {
        "track": 6.5, "persons": 0.5, "houses": 0.5, "laurels": 0, "majorities": 6,
        "canals": 1.5, "statues": 3.5, "prestige": 0.5,
    }  # fmt: skip
    assert sum(bea["average_points"].values()) == bea["average_score"]
    assert (bea["majorities_flipped"], bea["majorities_per_game"]) == (3, 1.5)
    assert (bea["statues_taken"], bea["statues_per_game"]) == (1, 0.5)
    assert bea["penalties"] == dict.fromkeys(COLORS, 0)
    assert {g: n for g, n in bea["hired"].items() if n} == {"merchants": 1}

    # By player count (Bruges: 2 to 4), and the head-to-head.
    assert sorted(ada["by_player_count"], key=int) == ["2", "3", "4"]
    two = ada["by_player_count"]["2"]
    assert (two["games"], two["average_points"]["laurels"]) == (2, 3)
    three = ada["by_player_count"]["3"]
    assert three["games"] == 0 and three["average_points"] == dict.fromkeys(CATEGORIES)
    assert three["statues_per_game"] is None
    assert (ada["individual"]["games"], ada["team"]["games"]) == (2, 0)
    assert [
        (h["opponent"]["name"], h["games"], h["wins"], h["losses"], h["ties"])
        for h in ada["head_to_head"]
    ] == [("Bea", 2, 1, 1, 0)]
    assert ada["game_types"] == [{"game_type": BRUGES, "label": "Bruges", "games": 2}]
    # Cy's only game is in progress: no statistics.
    cy = served("Cy")
    assert (cy["games"], cy["average_points"]["track"], cy["game_types"]) == (0, None, [])


def test_the_statistics_api_and_the_leaderboard(two_games: tuple[Game, Game], owner: Any) -> None:
    client = APIClient()
    client.force_authenticate(owner)
    ada = Player.objects.get(name="Ada")
    response = client.get(f"/api/players/{ada.pk}/stats/", {"game_type": BRUGES})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body == served("Ada")
    # Exactly the generic figures and the Bruges ones (no Pot de Vin or Complots field).
    assert set(game_stats(BRUGES).api_fields()) == {
        "average_points", "statues_taken", "statues_per_game", "majorities_flipped",
        "majorities_per_game", "penalties", "hired",
    }  # fmt: skip
    assert "gems_paid" not in body and "claims_made" not in body
    # The default game type is still Pot de Vin, where Ada has no game.
    assert client.get(f"/api/players/{ada.pk}/stats/").json()["games"] == 0

    response = client.get("/api/leaderboard/", {"game_type": BRUGES})
    assert response.status_code == 200, response.content
    entries = response.json()["results"]
    ratings = list(Rating.objects.filter(game_type=BRUGES).order_by("-ordinal", "player_id"))
    assert [e["player"]["name"] for e in entries] == [r.player.name for r in ratings]
    assert sorted(e["player"]["name"] for e in entries) == ["Ada", "Bea"]
    assert [(e["games"], e["wins"]) for e in entries] == [(2, 1), (2, 1)]
    assert client.get("/api/leaderboard/").json()["results"] == []  # Pot de Vin: nobody
    assert (
        client.get("/api/leaderboard/", {"game_type": BRUGES, "min_games": 3}).json()["results"]
        == []
    )


def test_a_rescore_with_a_corrected_edition_moves_the_statistics(
    two_games: tuple[Game, Game], owner: Any, commit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scoring.jobs import tasks

    sent: list[tuple[int, list[int]]] = []
    monkeypatch.setattr(tasks.rescore_batch, "delay", lambda job, keys: sent.append((job, keys)))
    corrected = copy.deepcopy(STANDARD)
    corrected["prestige_points"][1] = 5  # step 1 worth 5, not 1
    edition = services.edition_create(
        game_type=BRUGES, key="standard-v2", data=corrected, created_by=owner
    )
    with commit():
        job = jobs.rescore_start(created_by=owner, new_edition=edition)
    with commit():
        for job_id, keys in sent:
            assert job_id == job.pk
            jobs.rescore_batch(job_id=job_id, game_ids=keys)
    # Game 1: Bea (step 1) 18 - 1 + 5 = 22, beats Ada's 19. Game 2: Ada (step 1) 19 - 1 + 5 =
    # 23, beats Bea's 20. Each of them now won the game the other won before.
    ada, bea = served("Ada"), served("Bea")
    assert (ada["wins"], ada["average_score"], ada["best_score"]) == (1, 21, 23)
    assert ada["average_points"]["prestige"] == 2.5  # (0 + 5) / 2
    assert (bea["wins"], bea["average_score"], bea["best_score"]) == (1, 21, 22)
    assert bea["average_points"]["prestige"] == 2.5  # (5 + 0) / 2
    assert (ada["current_streak"], bea["current_streak"]) == (1, 0)
