"""The import's matching and its plan (``games.exchange.imports``), from plays built by hand as the
readers hand them over: our games by BoardGameGeek id (Pot de Vin by name), named games, players
and locations by the app's ids then by name, seats with no person, and what a dry run says
without writing anything."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps

from games.exchange import imports
from games.exchange.formats.plays import ForeignGame, PlayFile, Problem, Skipped
from games.records.models import BoardGame, Club, Game, Player, SourceRef
from tests.exchange.imports.conftest import AZUL, COUP, GOLF, POT_DE_VIN, play, seat

pytestmark = pytest.mark.django_db


def one(club: Club, *plays: Any, app: str = "bgstats") -> imports.ImportPlan:
    return imports.plays_plan(club=club, play_file=PlayFile(app=app, plays=list(plays)))


def every_table() -> dict[str, int]:
    """How many rows each table of the project holds."""
    return {m._meta.label: m.objects.count() for m in apps.get_models()}


@pytest.mark.parametrize(
    ("name", "bgg_id", "expected"),
    [
        ("Coup", 131357, "complots"),  # Coup's BoardGameGeek id
        ("Complots", 131357, "complots"),  # the French edition: a version of Coup on BGG
        ("Complots", None, "complots"),  # no id: by name
        ("Coup", None, "complots"),
        ("Bruges", 136888, "bruges"),
        ("Brügge", 136888, "bruges"),  # by id, whatever the name
        ("Bruges", None, "bruges"),
        ("Pot de Vin", None, "pot-de-vin"),
        ("POT DE VIN", 4242, "pot-de-vin"),  # we know no id for Pot de Vin: by name always
        ("Coup", 5, None),  # another game called Coup (another id): a named game
        ("Bruges", 1, None),
        ("Azul", 230802, None),
    ],
)
def test_our_games_are_found_by_boardgamegeek_id_and_pot_de_vin_by_name(
    name: str, bgg_id: int | None, expected: str | None
) -> None:
    assert imports.engine_game_type(ForeignGame(ref=None, name=name, bgg_id=bgg_id)) == expected


def test_named_games_are_found_by_the_apps_id_then_bgg_id_then_name(club: Club) -> None:
    azul = BoardGame.objects.create(club=club, name="Azul", bgg_id=230802)
    catan = BoardGame.objects.create(club=club, name="Catan Deluxe", bgg_id=13)
    golf = BoardGame.objects.create(club=club, name="Golf", win="lowest")
    SourceRef.objects.create(
        club=club, app="bgstats", kind="game", external_id="g-old", board_game=golf
    )
    plan = one(
        club,
        # Renamed in the app since: the app's id still says which game.
        play("1", ForeignGame(ref="g-old", name="Minigolf", bgg_id=None), seat("Ada", 3)),
        play("2", ForeignGame(ref="g-catan", name="Catan", bgg_id=13), seat("Ada", 3)),
        play("3", ForeignGame(ref="g-azul", name="AZUL", bgg_id=None), seat("Ada", 3)),
        play("4", ForeignGame(ref="g-new", name="Brand New", bgg_id=99), seat("Ada", 3)),
    )
    found = [(p.game.how, p.game.board_game_id) for p in plan.plays if p.game]
    assert found == [
        ("ref", golf.pk),
        ("bgg", catan.pk),
        ("name", azul.pk),
        ("new", None),
    ]
    # A game found is won the club's way; a new one the file's.
    assert [p.game.win for p in plan.plays if p.game] == ["lowest", "highest", "highest", "highest"]
    summary = plan.summary()
    assert summary["created"]["board_games"] == 1
    assert summary["matched"]["board_games"] == 3
    assert summary["game_types"] == {"other": 4}


def test_players_are_found_by_the_apps_id_then_by_name_else_new(club: Club, recorder: Any) -> None:
    lovelace = Player.objects.create(club=club, name="Ada Lovelace")
    bea = Player.objects.create(club=club, name="bea")
    SourceRef.objects.create(
        club=club, app="bgstats", kind="player", external_id="u1", player=lovelace
    )
    plays = [
        play(
            "1",
            AZUL,
            seat("Ada", 30, ref="u1"),  # renamed "Ada" in the app: still Ada Lovelace
            seat("BEA", 20, ref="u2"),  # case folded: the club's bea
            seat("Cy", 10, ref="u3"),  # nobody: a new player
        )
    ]
    plan = one(club, *plays)
    assert [(s.name, s.how, s.player_id) for s in plan.plays[0].seats] == [
        ("Ada", "ref", lovelace.pk),
        ("BEA", "name", bea.pk),
        ("Cy", "new", None),
    ]
    assert plan.summary()["created"]["players"] == 1
    assert plan.summary()["matched"]["players"] == 2

    imports.plays_store(club=club, owner=recorder, play_file=PlayFile(app="bgstats", plays=plays))
    game = Game.objects.get()
    assert [s.player.name for s in game.seats.order_by("seat")] == ["Ada Lovelace", "bea", "Cy"]
    assert Player.objects.filter(club=club).count() == 3  # no second Ada, no second Bea
    learnt = dict(
        SourceRef.objects.filter(kind="player").values_list("external_id", "player__name")
    )
    assert learnt == {"u1": "Ada Lovelace", "u2": "bea", "u3": "Cy"}


def test_locations_are_found_by_the_apps_id_then_by_name(club: Club, recorder: Any) -> None:
    first = [play("1", AZUL, seat("Ada", 3), location="café  central", location_ref="l1")]
    existing = Game.objects.none()
    imports.plays_store(club=club, owner=recorder, play_file=PlayFile(app="bgstats", plays=first))
    assert list(Game.objects.values_list("location", flat=True)) == ["café central"]
    # Another spelling of the same name, and the place renamed in the app (same id).
    later = [
        play("2", AZUL, seat("Ada", 3), location="CAFÉ CENTRAL"),
        play("3", AZUL, seat("Ada", 3), location="The Café", location_ref="l1"),
        play("4", AZUL, seat("Ada", 3), location="Home"),
    ]
    plan = one(club, *later)
    assert [(p.location, p.location_how) for p in plan.plays] == [
        ("café central", "name"),
        ("café central", "ref"),
        ("Home", "new"),
    ]
    assert plan.summary()["created"]["locations"] == 1
    assert plan.summary()["matched"]["locations"] == 1
    assert not existing


def test_a_seat_with_no_person_is_left_out_and_said(club: Club, recorder: Any) -> None:
    kept = play(
        "1",
        AZUL,
        seat("Ada", 30),
        seat("Anonymous", 5, ref="anon", anonymous=True),  # last: nobody moves up
        seat("Bea", 10),
    )
    plan = one(club, kept)
    assert [s.name for s in plan.plays[0].seats] == ["Ada", "Bea"]
    assert [p.code for p in plan.plays[0].problems] == ["anonymous_seats"]
    imports.plays_store(club=club, owner=recorder, play_file=PlayFile(app="bgstats", plays=[kept]))
    game = Game.objects.get()
    assert game.player_count == 2
    assert [(s.player.name, s.score, s.rank) for s in game.seats.order_by("seat")] == [
        ("Ada", 30, 1),
        ("Bea", 10, 2),
    ]
    assert not Player.objects.filter(name__icontains="anonymous").exists()


@pytest.mark.parametrize(
    "anonymous",
    [
        seat("Anonymous", 40, ref=None, anonymous=True),  # ahead by score (highest wins)
        seat("Anonymous", None, rank=1, ref=None, anonymous=True),  # ahead by place
        seat("Anonymous", None, winner=True, ref=None, anonymous=True),  # the winner marked
    ],
)
def test_a_play_an_anonymous_seat_finished_ahead_in_is_skipped(club: Club, anonymous: Any) -> None:
    lost = play(
        "1",
        AZUL,
        seat("Ada", 30, rank=2 if anonymous.rank else None, winner=False),
        anonymous,
        seat("Bea", 10, rank=3 if anonymous.rank else None, winner=False),
    )
    plan = one(club, lost)
    assert (plan.plays[0].action, plan.plays[0].code) == ("skip", "anonymous_ahead")


def test_a_complots_play_ranking_everyone_apart_is_its_elimination_order(
    club: Club, recorder: Any
) -> None:
    # K5: the last survivor first, then the last eliminated: Bea won, Cy went out last, Ada
    # first; the sheet lists the seats first out first.
    ranked = play("1", COUP, seat("Ada", rank=3), seat("Bea", rank=1), seat("Cy", rank=2))
    winner_only = play(
        "2", COUP, seat("Ada", winner=False), seat("Bea", winner=True), seat("Cy", winner=False)
    )
    imports.plays_store(
        club=club, owner=recorder, play_file=PlayFile(app="bgstats", plays=[ranked, winner_only])
    )
    sheet_game, result_game = Game.objects.order_by("id")
    assert (sheet_game.game_type, sheet_game.mode) == ("complots", "scorepad")
    assert sheet_game.sheet == {"eliminated": [0, 2], "counts": None}
    assert [s.rank for s in sheet_game.seats.order_by("seat")] == [3, 1, 2]
    assert (result_game.game_type, result_game.mode) == ("complots", "result")
    assert [s.rank for s in result_game.seats.order_by("seat")] == [2, 1, 2]
    assert sheet_game.result["winners"] == result_game.result["winners"] == [1]


def test_our_games_become_result_or_sheet_games_never_logs(club: Club, recorder: Any) -> None:
    plays = [
        play(
            "b",
            ForeignGame(ref=None, name="Bruges", bgg_id=136888),
            seat("Ada", 60),
            seat("Bea", 55),
        ),
        play("p", POT_DE_VIN, seat("Ada", 12), seat("Bea", 20), seat("Cy", 7)),
        play("c", COUP, seat("Ada", rank=2), seat("Bea", rank=1)),
    ]
    imports.plays_store(club=club, owner=recorder, play_file=PlayFile(app="bgstats", plays=plays))
    games = {g.game_type: g for g in Game.objects.all()}
    assert {t: g.mode for t, g in games.items()} == {
        "bruges": "result",
        "pot-de-vin": "result",
        "complots": "scorepad",
    }
    assert all(not g.rounds.exists() for g in games.values())
    assert games["bruges"].result["winners"] == [0]
    assert games["pot-de-vin"].result["winners"] == [1]


def test_winners_marked_by_hand_against_the_scores_keep_the_winners(
    club: Club, recorder: Any
) -> None:
    marked = play(
        "1", AZUL, seat("Ada", 40, winner=False), seat("Bea", 30, winner=True), manual_winner=True
    )
    unmarked = play("2", AZUL, seat("Ada", 40, winner=False), seat("Bea", 30, winner=True))
    plan = one(club, marked, unmarked)
    assert [p.code for p in plan.plays[0].problems] == ["scores_left_out"]
    assert (plan.plays[1].action, plan.plays[1].code) == ("skip", "winner_disagrees")
    imports.plays_store(
        club=club, owner=recorder, play_file=PlayFile(app="bgstats", plays=[marked])
    )
    game = Game.objects.get()
    assert game.result["winners"] == [1]
    assert [(s.score, s.rank) for s in game.seats.order_by("seat")] == [(None, 2), (None, 1)]


def test_teams_a_cooperative_game_and_lowest_wins(club: Club, recorder: Any) -> None:
    pandemic = ForeignGame(ref="g-p", name="Pandemic", bgg_id=30549, win="cooperative")
    plays = [
        play(
            "teams",
            AZUL,
            seat("Ada", 10, team="Red"),
            seat("Cy", 8, team="Blue"),
            seat("Bea", 10, team="Red"),
            seat("Dan", 8, team="Blue"),
        ),
        play("coop", pandemic, seat("Ada"), seat("Bea"), cooperative_won=False),
        play("golf", GOLF, seat("Ada", 41), seat("Bea", 36), seat("Cy", 36)),
    ]
    imports.plays_store(club=club, owner=recorder, play_file=PlayFile(app="bgstats", plays=plays))
    teams, coop, golf = (Game.objects.get(source__external_id=k) for k in ("teams", "coop", "golf"))
    assert teams.teams == [[0, 2], [1, 3]]
    assert teams.result["winners"] == [0, 2]
    assert coop.board_game.win == "cooperative"
    assert coop.result["won"] is False and coop.result["winners"] == []
    assert [s.rank for s in golf.seats.order_by("seat")] == [3, 1, 1]  # lowest wins, a tie


@pytest.mark.parametrize(
    ("bad", "code"),
    [
        (play("x", AZUL, seat("Ada", 3), incomplete=True), "incomplete"),
        (play("x", AZUL, seat("Anonymous", 3, anonymous=True)), "no_players"),
        (play("x", AZUL, seat("Ada", 3), seat("ADA", 2, ref="other")), "player_twice"),
        (play("x", AZUL, seat("Ada\x1b", 3)), "invalid_text"),
        (play("x", AZUL, seat("A" * 81, 3)), "too_long"),
        (play("x", AZUL, seat("Ada", 3), location="x" * 121), "too_long"),
        (play("x", ForeignGame(ref=None, name=" ", bgg_id=None), seat("Ada", 3)), "blank_name"),
        (play("x", AZUL, *[seat(f"P{i}", i) for i in range(17)]), "bad_player_count"),
        (play("x", POT_DE_VIN, seat("Ada", 3), seat("Bea", 2)), "bad_player_count"),
        (play("x", AZUL, seat("Ada", 3, rank=2), seat("Bea", 2, rank=1)), "rank_disagrees"),
        (play("x", AZUL, seat("Ada", 3), duration=10**6), "bad_duration"),
    ],
)
def test_a_play_the_records_refuse_is_skipped_with_its_code(
    club: Club, bad: Any, code: str
) -> None:
    plan = one(club, bad)
    assert (plan.plays[0].action, plan.plays[0].code) == ("skip", code)
    assert plan.plays[0].message
    assert plan.summary()["skipped"] == [
        {"play": "x", "code": code, "message": plan.plays[0].message}
    ]


def test_the_readers_problems_and_skips_are_in_the_summary(club: Club) -> None:
    unreadable = Problem("bad_score", "seat 1: '12+x' is no number", seat=1)
    summary = imports.plays_plan(
        club=club,
        play_file=PlayFile(
            app="bgstats",
            plays=[
                play(
                    "1",
                    AZUL,
                    seat("Ada", 3, winner=True),
                    seat("Bea", None, winner=False),  # its score unreadable
                    problems=(unreadable,),
                ),
                play("1", AZUL, seat("Ada", 5)),  # the same play twice
            ],
            skipped=[Skipped("9", "unknown_game", "play 9's game is not in the file")],
        ),
    ).summary()
    assert summary["plays"] == 3
    assert summary["created"]["games"] == 1
    assert [(s["play"], s["code"]) for s in summary["skipped"]] == [
        ("9", "unknown_game"),
        ("1", "duplicate_play"),
    ]
    assert summary["problems"] == [
        {"play": "1", "code": "bad_score", "message": "seat 1: '12+x' is no number", "seat": 1}
    ]


def test_a_play_no_database_stores_is_skipped_with_the_gates_code(club: Club) -> None:
    plan = one(club, play("1", AZUL, seat("Ada\x00", 3)), play("2\ud800", AZUL, seat("Bea", 2)))
    assert [(s.external_id, s.code) for s in plan.skipped] == [
        ("1", "invalid_text"),
        ("2\ufffd", "invalid_text"),
    ]
    assert plan.plays == []


def test_a_dry_run_writes_nothing(club: Club, recorder: Any) -> None:
    BoardGame.objects.create(club=club, name="Azul", bgg_id=230802)
    before = every_table()
    summary = one(
        club,
        play("1", AZUL, seat("Ada", 3), seat("Bea", 2), location="Home", location_ref="l1"),
        play("2", GOLF, seat("Ada", 3), seat("Cy", 2)),
        play("3", COUP, seat("Ada", rank=1), seat("Cy", rank=2)),
    ).summary()
    assert summary["created"] == {"games": 3, "players": 3, "board_games": 1, "locations": 1}
    assert every_table() == before
