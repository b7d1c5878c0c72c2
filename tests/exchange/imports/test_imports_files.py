"""Realistic files, built by hand from the formats' documented fields
(tests/exchange/imports/files/), imported from their bytes as ``manage.py import_plays`` and the API
read them: a club's BG Stats export (our three games, named games with teams, a cooperative game,
ties, lowest wins, an anonymous seat, a score written as a sum and one that is no number, a play
left out of statistics, a play of a deleted game), the same export from an old app (``metaData`` as
JSON text), zipped, a week later with a play edited and one added, one shared play (.bgsplay), and a
BoardGameGeek plays XML. Every expected game, statistic and rating is worked out by hand in the
comments next to it."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from games.exchange import imports
from games.exchange.formats.detect import read_play_file
from games.records.models import (
    BoardGame,
    Club,
    Game,
    GameEvent,
    Player,
    PlaySource,
    Seat,
    SourceRef,
)
from scoring.models import PlayerStats, Rating
from scoring.stats.games import stats_key

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "files"
EXPORT = "club-export.json"
Commit = Callable[[], AbstractContextManager[Any]]


def uuid(n: int) -> str:
    return f"dd000000-0000-4000-8000-0000000000{n:02d}"


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any, settings: Any) -> Commit:
    settings.POTDEVIN_RATINGS_SYNC = True
    return lambda: django_capture_on_commit_callbacks(execute=True)


def load(club: Club, owner: Any, name: str, *, dry_run: bool = False) -> dict[str, Any]:
    read = read_play_file((FILES / name).read_bytes(), filename=name)
    return imports.file_import(club=club, owner=owner, read=read, dry_run=dry_run)


def game_of(play: str) -> Game:
    return PlaySource.objects.select_related("game").get(external_id=play).game


def seats(game: Game) -> list[tuple[str, int | None, int | None]]:
    return [(s.player.name, s.score, s.rank) for s in game.seats.order_by("seat")]


def stats(key: str) -> dict[str, tuple[int, float]]:
    rows = PlayerStats.objects.filter(game_type=key, bucket="all")
    return {r.player.name: (r.games, r.wins) for r in rows.select_related("player")}


def key(name: str) -> str:
    return stats_key("other", BoardGame.objects.get(name=name).pk)


def counts() -> dict[str, int]:
    return {
        "games": Game.objects.count(),
        "seats": Seat.objects.count(),
        "events": GameEvent.objects.count(),
        "sources": PlaySource.objects.count(),
        "refs": SourceRef.objects.count(),
        "players": Player.objects.count(),
        "board_games": BoardGame.objects.count(),
    }


def test_a_club_export_imports_to_the_expected_games(club: Club, recorder: Any) -> None:
    summary = load(club, recorder, EXPORT)
    assert summary["format"] == "bgstats-export"
    assert summary["plays"] == 12
    # 12 plays: P10 is left out of statistics in the app, P11's game was deleted there.
    assert summary["created"] == {"games": 10, "players": 4, "board_games": 4, "locations": 2}
    assert summary["matched"] == {"players": 0, "board_games": 0, "locations": 0}
    assert summary["game_types"] == {"bruges": 1, "complots": 2, "other": 6, "pot-de-vin": 1}
    assert [(s["play"], s["code"]) for s in summary["skipped"]] == [
        (uuid(11), "deleted"),
        (uuid(10), "incomplete"),
    ]
    assert [(p["play"], p["code"], p["seat"]) for p in summary["problems"]] == [
        (uuid(4), "anonymous_seats", None),
        (uuid(12), "score_unreadable", 2),
    ]
    assert sorted(BoardGame.objects.values_list("name", "bgg_id", "win")) == [
        ("Azul", 230802, "highest"),
        ("Codenames", 178900, "manual"),
        ("Hearts", 6887, "lowest"),
        ("Pandemic", 30549, "cooperative"),
    ]
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ada", "Bea", "Cy", "Dan"]

    p1 = game_of(uuid(1))
    assert (p1.game_type, p1.mode, p1.board_game.name) == ("other", "result", "Azul")
    assert seats(p1) == [("Ada", 50, 1), ("Bea", 45, 2), ("Cy", 30, 3)]  # "40+5" is 45
    assert (p1.first_player, p1.location, p1.duration) == (0, "Ada's flat", 30)
    assert p1.played_on.isoformat() == "2026-02-06"
    assert seats(game_of(uuid(2))) == [("Ada", 33, 1), ("Bea", 33, 1), ("Dan", 10, 3)]
    assert game_of(uuid(2)).result["winners"] == [0, 1]
    # P3, Coup ranking everyone: Complots' result sheet, Cy out first, then Ada; Bea won (K5).
    p3 = game_of(uuid(3))
    assert (p3.game_type, p3.mode, p3.sheet) == (
        "complots",
        "scorepad",
        {"eliminated": [2, 0], "counts": None},
    )
    assert seats(p3) == [("Ada", None, 2), ("Bea", None, 1), ("Cy", None, 3)]
    # P4, Coup with its winner only and an anonymous seat behind: left out, a result game.
    p4 = game_of(uuid(4))
    assert (p4.game_type, p4.mode) == ("complots", "result")
    assert seats(p4) == [("Ada", None, 1), ("Bea", None, 2)]
    # P5, Bruges tied at 58: the app's ranks (florins) split it.
    p5 = game_of(uuid(5))
    assert (p5.game_type, p5.mode, p5.board_game) == ("bruges", "result", None)
    assert seats(p5) == [("Ada", 62, 1), ("Bea", 58, 2), ("Cy", 58, 3)]
    # P6, Pot de Vin without a BoardGameGeek id: by its name.
    p6 = game_of(uuid(6))
    assert (p6.game_type, p6.mode) == ("pot-de-vin", "result")
    assert seats(p6) == [("Ada", 12, 2), ("Bea", -3, 4), ("Cy", 20, 1), ("Dan", 7, 3)]
    # P7, Pandemic won together: one side, everyone first.
    p7 = game_of(uuid(7))
    assert (p7.result["won"], p7.result["winners"]) == (True, [0, 1, 2])
    # P8, Codenames: Red (Ada, Cy) beat Blue.
    p8 = game_of(uuid(8))
    assert (p8.teams, p8.result["winners"]) == ([[0, 2], [1, 3]], [0, 2])
    # P9, Hearts: lowest wins; Ada and Dan share second.
    assert seats(game_of(uuid(9))) == [("Ada", 26, 2), ("Bea", 0, 1), ("Cy", 78, 4), ("Dan", 26, 2)]
    # P12: Dan's "abc" left out, the places kept.
    assert seats(game_of(uuid(12))) == [("Ada", 20, 1), ("Bea", 15, 2), ("Dan", None, 3)]
    assert not Game.objects.filter(mode="rounds").exists()


def test_a_club_exports_statistics_and_ratings(club: Club, recorder: Any, commit: Commit) -> None:
    with commit():
        load(club, recorder, EXPORT)
    # Azul: P1 Ada; P2 Ada and Bea share; P12 Ada. Cy played P1, Dan P2 and P12.
    assert stats(key("Azul")) == {"Ada": (3, 2.5), "Bea": (3, 0.5), "Cy": (1, 0), "Dan": (2, 0)}
    # Complots: Bea won P3, Ada P4 (Cy was at P3 only).
    assert stats("complots") == {"Ada": (2, 1), "Bea": (2, 1), "Cy": (1, 0)}
    assert stats("bruges") == {"Ada": (1, 1), "Bea": (1, 0), "Cy": (1, 0)}
    assert stats("pot-de-vin") == {"Ada": (1, 0), "Bea": (1, 0), "Cy": (1, 1), "Dan": (1, 0)}
    assert stats(key("Pandemic")) == {"Ada": (1, 1), "Bea": (1, 1), "Cy": (1, 1)}
    assert stats(key("Codenames")) == {"Ada": (1, 1), "Bea": (1, 0), "Cy": (1, 1), "Dan": (1, 0)}
    assert stats(key("Hearts")) == {"Ada": (1, 0), "Bea": (1, 1), "Cy": (1, 0), "Dan": (1, 0)}
    # Ratings: each game its own series, every player of a game with a winner and a loser.
    rated = {(r.player.name, r.game_type) for r in Rating.objects.select_related("player")}
    for series, players in {
        key("Azul"): ("Ada", "Bea", "Cy", "Dan"),
        "complots": ("Ada", "Bea", "Cy"),
        "bruges": ("Ada", "Bea", "Cy"),
        "pot-de-vin": ("Ada", "Bea", "Cy", "Dan"),
        key("Codenames"): ("Ada", "Bea", "Cy", "Dan"),
        key("Hearts"): ("Ada", "Bea", "Cy", "Dan"),
    }.items():
        assert {(p, series) for p in players} <= rated, series
    # Bruges: Ada beat both, Bea beat Cy.
    bruges = dict(Rating.objects.filter(game_type="bruges").values_list("player__name", "mu"))
    assert bruges["Ada"] > bruges["Bea"] > bruges["Cy"]


@pytest.mark.parametrize("again", ["club-export.json", "club-export.zip", "club-export-old.json"])
def test_the_same_export_again_zipped_or_from_an_old_app_changes_nothing(
    club: Club, recorder: Any, again: str, commit: Commit
) -> None:
    with commit():
        load(club, recorder, EXPORT)
    before = counts()
    results = dict(Game.objects.values_list("id", "result"))
    with commit():
        summary = load(club, recorder, again)
    assert (summary["unchanged"], summary["updated"], summary["created"]["games"]) == (10, 0, 0)
    assert counts() == before
    assert dict(Game.objects.values_list("id", "result")) == results


def test_an_old_apps_export_imports_to_the_same_games(club: Club, recorder: Any) -> None:
    summary = load(club, recorder, "club-export-old.json")
    assert summary["created"] == {"games": 10, "players": 4, "board_games": 4, "locations": 2}
    assert seats(game_of(uuid(1))) == [("Ada", 50, 1), ("Bea", 45, 2), ("Cy", 30, 3)]
    summary = load(club, recorder, EXPORT)
    assert summary["unchanged"] == 10


def test_an_edited_export_updates_in_place(club: Club, recorder: Any, commit: Commit) -> None:
    with commit():
        load(club, recorder, EXPORT)
    p1 = game_of(uuid(1))
    with commit():
        summary = load(club, recorder, "club-export-edited.json")
    # P1 edited (Cy scored 55: Cy won), P13 new (Bea 61, Dan 59), the nine others as they were.
    assert (summary["updated"], summary["unchanged"], summary["created"]["games"]) == (1, 9, 1)
    again = game_of(uuid(1))
    assert again.pk == p1.pk
    assert seats(again) == [("Ada", 50, 2), ("Bea", 45, 3), ("Cy", 55, 1)]
    assert list(GameEvent.objects.filter(game_id=p1.pk).values_list("action", flat=True)) == [
        "created",
        "edited",
    ]
    # Azul now: P1 Cy; P2 Ada and Bea share; P12 Ada; P13 Bea.
    assert stats(key("Azul")) == {"Ada": (3, 1.5), "Bea": (4, 1.5), "Cy": (1, 1), "Dan": (3, 0)}


def test_a_shared_play_finds_who_and_what_the_export_brought(club: Club, recorder: Any) -> None:
    load(club, recorder, EXPORT)
    summary = load(club, recorder, "azul-with-eve.bgsplay")
    assert summary["format"] == "bgsplay"
    # Ada, Azul and the club room by the app's ids; Eve is new.
    assert summary["created"] == {"games": 1, "players": 1, "board_games": 0, "locations": 0}
    assert summary["matched"] == {"players": 1, "board_games": 1, "locations": 1}
    game = game_of(uuid(14))
    assert (game.board_game.name, game.location) == ("Azul", "Club room")
    assert seats(game) == [("Eve", 70, 1), ("Ada", 64, 2)]


def test_boardgamegeek_plays_after_the_export(club: Club, recorder: Any, commit: Commit) -> None:
    with commit():
        load(club, recorder, EXPORT)
    with commit():
        summary = load(club, recorder, "plays.xml")
    assert summary["format"] == "bgg-xml"
    # Another app: its ids are new here, so players by name; Azul by its BoardGameGeek id,
    # whatever its name there; Love Letter and Eve new; the incomplete Bruges play skipped.
    assert summary["created"] == {"games": 4, "players": 1, "board_games": 1, "locations": 1}
    assert summary["matched"] == {"players": 4, "board_games": 1, "locations": 1}
    assert summary["game_types"] == {"bruges": 1, "complots": 1, "other": 2}
    assert [(s["play"], s["code"]) for s in summary["skipped"]] == [("81000004", "incomplete")]
    assert [(p["play"], p["code"]) for p in summary["problems"]] == [
        ("81000003", "anonymous_seats")
    ]
    coup = game_of("81000001")
    assert (coup.game_type, coup.mode, seats(coup)) == (
        "complots",
        "result",
        [("Ada", None, 2), ("Bea", None, 1), ("Cy", None, 2)],
    )
    assert seats(game_of("81000002")) == [("Ada", 54, 2), ("Dan", 71, 1)]
    azul = game_of("81000003")
    assert (azul.board_game.name, seats(azul)) == ("Azul", [("Ada", 48, 1), ("Cy", 41, 2)])
    # Complots now: P3 Bea, P4 Ada, 81000001 Bea.
    assert stats("complots") == {"Ada": (3, 1), "Bea": (3, 2), "Cy": (2, 0)}
    with commit():
        again = load(club, recorder, "plays.xml")
    assert (again["unchanged"], again["created"]["games"]) == (4, 0)


def test_a_dry_run_of_every_file_writes_nothing(club: Club, recorder: Any) -> None:
    from tests.exchange.imports.test_imports_plan import every_table

    load(club, recorder, EXPORT)
    before = every_table()
    for name in sorted(p.name for p in FILES.iterdir()):
        load(club, recorder, name, dry_run=True)
    assert every_table() == before
