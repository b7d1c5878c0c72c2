"""BG Stats out: the club's export file read back by the BG Stats reader gives the same plays,
for every kind of game (logged, scorepad, by its scores only, another game's highest, lowest,
marked winners, teams, cooperative won and lost); and a finished game's "Send to BG Stats" link
holds the play as the app's ``createPlay`` format says, written here by hand."""

from __future__ import annotations

import datetime
import json
import uuid
from dataclasses import replace
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from games.exchange import exports, imports
from games.exchange.formats import bgstats
from games.exchange.formats.plays import ForeignPlay
from games.records import board_games, services
from games.records.models import BoardGame, Game, Player, PlaySource
from tests.exchange.exports.conftest import simulated

NAMESPACE = uuid.UUID("a3d61d93-fa69-4ba4-82e3-3322b1e39c66")  # the export's, written again
NAMES = ["Ada", "Bea", "Cy"]
PLAYED = datetime.date(2026, 3, 14)


def _uuid(text: str) -> str:
    return str(uuid.uuid5(NAMESPACE, text))


def _players(club: SimpleNamespace, names: list[str]) -> list[Player]:
    return services.players_resolve(names, club=club.club, created_by=club.owner)


def _result(club: SimpleNamespace, game_type: str, sheet: list[dict[str, Any]], **kw: Any) -> Game:
    names = kw.pop("names", NAMES)
    return board_games.result_game_create(
        club=club.club,
        owner=club.owner,
        players=_players(club, names),
        game_type=game_type,
        sheet=sheet,
        played_on=kw.pop("played_on", PLAYED),
        **kw,
    )


def _complots_sheet(club: SimpleNamespace, eliminated: list[int], **kw: Any) -> Game:
    """A finished Complots game by its result sheet: seats in the order they were eliminated
    (K4: the last one standing first, the one eliminated last second, ...)."""
    return services.scorepad_game_create(
        club=club.club,
        owner=club.owner,
        players=_players(club, kw.pop("names", NAMES)),
        game_type="complots",
        sheet={"eliminated": eliminated},
        played_on=kw.pop("played_on", PLAYED),
        **kw,
    )


def _other(club: SimpleNamespace, name: str, win: str, bgg_id: int | None = None) -> BoardGame:
    return board_games.board_game_create(club=club.club, name=name, bgg_id=bgg_id, win=win)


def _read_back(club: SimpleNamespace) -> list[ForeignPlay]:
    """The club's export as the app would get it (the file's bytes), read by our reader."""
    document = json.loads(exports.bgstats_file(club=club.club))
    found = bgstats.read_document(document)
    assert found.skipped == []
    assert found.kind == "bgstats-export"
    return found.plays


def _comparable(play: ForeignPlay) -> ForeignPlay:
    """What a play holds that the file carries: not its fingerprint (the reader's digest), and
    a play with no time of day is at noon in the file."""
    return replace(play, fingerprint="", played_time=play.played_time or datetime.time(12))


def _seen(play: ForeignPlay) -> list[tuple[Any, ...]]:
    return [(p.name, p.score, p.rank, p.winner, p.team, p.start_player) for p in play.players]


# --- the round trip ----------------------------------------------------------------------------


@pytest.fixture
def every_kind(club: SimpleNamespace) -> dict[str, Game]:
    """One finished game of each kind, with what the app's file carries, values by hand."""
    four = [*NAMES, "Di"]
    games = {
        # Logged, entry by entry: the engine's result.
        "pot-de-vin": simulated(
            club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES
        ),
        # By its scores only (a play of ours from another app): 41, 37, 37 -> 1, 2, 2.
        "bruges": _result(
            club,
            "bruges",
            [{"score": 41}, {"score": 37}, {"score": 37}],
            first_player=2,
            location="Ada's kitchen",
            notes="Cy's first game",
            duration=75,
        ),
        # By its result sheet: Bea out first, then Ada; Cy wins (K4, K5).
        "complots": _complots_sheet(club, [1, 0], location="Ada's kitchen"),
        # Another game, two teams of two: Ada and Cy 8 points, Bea and Di 5 (O3).
        "teams": _result(
            club,
            "other",
            [{"score": 8}, {"score": 5}, {"score": 8}, {"score": 5}],
            board_game=_other(club, "Codenames", "highest", bgg_id=178900),
            teams=[[0, 2], [1, 3]],
            first_player=1,
            names=four,
        ),
        # Lowest score wins: Bea 12, Cy 15, Ada 20.
        "lowest": _result(
            club,
            "other",
            [{"score": 20}, {"score": 12}, {"score": 15}],
            board_game=_other(club, "Golf", "lowest"),
        ),
        # Winners marked by hand, no scores: Bea.
        "manual": _result(
            club,
            "other",
            [{"winner": False}, {"winner": True}, {"winner": False}],
            board_game=_other(club, "Werewolf", "manual"),
        ),
        # Cooperative, won and lost (O5).
        "won": _result(
            club,
            "other",
            [{}, {}, {}],
            board_game=_other(club, "Pandemic", "cooperative", bgg_id=30549),
            won=True,
            duration=50,
        ),
        "lost": _result(
            club,
            "other",
            [{}, {}, {}],
            board_game=BoardGame.objects.get(club=club.club, name="Pandemic"),
            won=False,
            played_on=datetime.date(2026, 3, 15),
        ),
    }
    return games


def test_the_export_read_back_gives_the_same_plays(
    club: SimpleNamespace, every_kind: dict[str, Game]
) -> None:
    ours = exports.club_plays(club=club.club)
    back = _read_back(club)
    assert len(ours) == len(back) == len(every_kind)
    assert [_comparable(p) for p in back] == [_comparable(p) for p in ours]


def test_each_kind_of_game_reads_back_as_it_was_played(
    club: SimpleNamespace, every_kind: dict[str, Game]
) -> None:
    """The same plays, field by field, as written by hand from what was recorded."""
    back = {p.external_id: p for p in _read_back(club)}

    def play(kind: str) -> ForeignPlay:
        return back[_uuid(f"play/{every_kind[kind].pk}")]

    bruges = play("bruges")
    assert (bruges.game.name, bruges.game.bgg_id, bruges.game.win) == ("Bruges", 136888, "highest")
    assert _seen(bruges) == [
        ("Ada", 41, 1, True, None, False),
        ("Bea", 37, 2, False, None, False),
        ("Cy", 37, 2, False, None, True),
    ]
    assert (bruges.played_on, bruges.duration) == (PLAYED, 75)
    assert (bruges.location, bruges.comments) == ("Ada's kitchen", "Cy's first game")

    complots = play("complots")
    assert (complots.game.name, complots.game.bgg_id, complots.game.win) == (
        "Complots",
        131357,
        "manual",  # the app's noPoints
    )
    assert _seen(complots) == [
        ("Ada", None, 2, False, None, False),
        ("Bea", None, 3, False, None, False),
        ("Cy", None, 1, True, None, False),
    ]
    # One location, one uuid, whichever play names it.
    assert (
        complots.location_ref
        == bruges.location_ref
        == _uuid(f"location/{club.club.pk}/ada's kitchen")
    )

    teams = play("teams")
    assert (teams.game.name, teams.game.bgg_id, teams.game.uses_teams) == (
        "Codenames",
        178900,
        True,
    )
    assert _seen(teams) == [
        ("Ada", 8, 1, True, "1", False),
        ("Bea", 5, 2, False, "2", True),
        ("Cy", 8, 1, True, "1", False),
        ("Di", 5, 2, False, "2", False),
    ]

    lowest = play("lowest")
    assert lowest.game.win == "lowest"
    assert _seen(lowest) == [
        ("Ada", 20, 3, False, None, False),
        ("Bea", 12, 1, True, None, False),
        ("Cy", 15, 2, False, None, False),
    ]

    manual = play("manual")
    assert manual.game.win == "manual"
    assert [(p.name, p.winner) for p in manual.players] == [
        ("Ada", False),
        ("Bea", True),
        ("Cy", False),
    ]

    won, lost = play("won"), play("lost")
    assert (won.game.name, won.game.win, won.game.bgg_id) == ("Pandemic", "cooperative", 30549)
    assert won.game.ref == lost.game.ref
    assert (won.cooperative_won, lost.cooperative_won) == (True, False)
    assert [p.winner for p in won.players] == [True, True, True]
    assert [p.winner for p in lost.players] == [False, False, False]
    # Everyone on one side: no team, no place.
    assert all(p.team is None and p.rank is None for p in (*won.players, *lost.players))
    assert not won.game.uses_teams
    assert (won.duration, lost.played_on) == (50, datetime.date(2026, 3, 15))

    logged = play("pot-de-vin")
    assert (logged.game.name, logged.game.win) == ("Pot de Vin", "highest")
    stored = list(every_kind["pot-de-vin"].seats.order_by("seat"))
    assert [(p.score, p.rank) for p in logged.players] == [(s.score, s.rank) for s in stored]


def test_a_second_export_is_the_same_file_for_the_app(
    club: SimpleNamespace, every_kind: dict[str, Game]
) -> None:
    """The same uuids, games, players and locations: the app matches a second import to the
    first (only the modification dates move)."""

    def without_dates(document: dict[str, Any]) -> str:
        text = json.dumps(document, sort_keys=True)
        for row in (*document["games"], *document["players"], *document["locations"]):
            text = text.replace(row["modificationDate"], "")
        for play in document["plays"]:
            text = text.replace(play["modificationDate"], "").replace(play["entryDate"], "")
        return text

    first = json.loads(exports.bgstats_file(club=club.club))
    second = json.loads(exports.bgstats_file(club=club.club))
    assert without_dates(first) == without_dates(second)
    assert sorted(g["name"] for g in first["games"]) == sorted(
        ["Pot de Vin", "Bruges", "Complots", "Codenames", "Golf", "Werewolf", "Pandemic"]
    )
    assert sorted(p["name"] for p in first["players"]) == ["Ada", "Bea", "Cy", "Di"]
    assert [loc["name"] for loc in first["locations"]] == ["Ada's kitchen"]


def test_the_file_s_me_is_the_player_of_whoever_exports(club: SimpleNamespace) -> None:
    simulated(club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES)
    bea = Player.objects.get(club=club.club, name="Bea")
    bea.user = club.member
    bea.save()
    document = exports.bgstats_export(club=club.club, user=club.member)
    (me,) = [p for p in document["players"] if p["id"] == document["userInfo"]["meRefId"]]
    assert (me["name"], me["uuid"]) == ("Bea", _uuid(f"player/{club.club.pk}/{bea.pk}"))
    # Someone with no player in the club: no "me".
    assert exports.bgstats_export(club=club.club, user=club.recorder)["userInfo"] == {}


# --- the createPlay link -----------------------------------------------------------------------


def _payload(url: str) -> Any:
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == (
        "https://app.bgstatsapp.com/createPlay.html"
    )
    (data,) = parse_qs(parts.query, strict_parsing=True)["data"]
    return json.loads(data)


def test_the_link_of_a_finished_bruges_game(club: SimpleNamespace) -> None:
    game = _result(
        club,
        "bruges",
        [{"score": 41}, {"score": 37}, {"score": 37}],
        first_player=1,
        location="Ada's kitchen",
        notes="Rematch on Friday",
        duration=75,
    )
    ada, bea, cy = (Player.objects.get(club=club.club, name=n).pk for n in NAMES)
    club_id = club.club.pk
    assert _payload(exports.bgstats_url(game=game) or "") == {
        "sourceName": "potdevin",
        "sourcePlayId": _uuid(f"play/{game.pk}"),
        "playDate": "2026-03-14 12:00:00",  # recorded another day: no time of day
        "game": {
            "name": "Bruges",
            "sourceGameId": _uuid("game/bruges"),
            "bggId": 136888,
            "highestWins": True,
            "noPoints": False,
        },
        "players": [
            {
                "name": "Ada",
                "sourcePlayerId": _uuid(f"player/{club_id}/{ada}"),
                "score": 41,
                "rank": 1,
                "winner": True,
                "startPlayer": False,
            },
            {
                "name": "Bea",
                "sourcePlayerId": _uuid(f"player/{club_id}/{bea}"),
                "score": 37,
                "rank": 2,
                "winner": False,
                "startPlayer": True,
            },
            {
                "name": "Cy",
                "sourcePlayerId": _uuid(f"player/{club_id}/{cy}"),
                "score": 37,
                "rank": 2,
                "winner": False,
                "startPlayer": False,
            },
        ],
        "durationMin": 75,
        "location": "Ada's kitchen",
        "comments": "Rematch on Friday",
    }


def test_the_link_of_a_finished_complots_game(club: SimpleNamespace) -> None:
    """Complots has no points: ranked by the result (K4, K5: Cy last standing wins, Ada out
    last is second, Bea out first third), no score, the app's noPoints."""
    game = _complots_sheet(club, [1, 0])
    ada, bea, cy = (Player.objects.get(club=club.club, name=n).pk for n in NAMES)
    club_id = club.club.pk
    assert _payload(exports.bgstats_url(game=game) or "") == {
        "sourceName": "potdevin",
        "sourcePlayId": _uuid(f"play/{game.pk}"),
        "playDate": "2026-03-14 12:00:00",
        "game": {
            "name": "Complots",
            "sourceGameId": _uuid("game/complots"),
            "bggId": 131357,
            "highestWins": True,
            "noPoints": True,
        },
        "players": [
            {
                "name": "Ada",
                "sourcePlayerId": _uuid(f"player/{club_id}/{ada}"),
                "rank": 2,
                "winner": False,
                "startPlayer": False,
            },
            {
                "name": "Bea",
                "sourcePlayerId": _uuid(f"player/{club_id}/{bea}"),
                "rank": 3,
                "winner": False,
                "startPlayer": False,
            },
            {
                "name": "Cy",
                "sourcePlayerId": _uuid(f"player/{club_id}/{cy}"),
                "rank": 1,
                "winner": True,
                "startPlayer": False,
            },
        ],
    }


def test_a_game_played_today_is_sent_with_its_time(club: SimpleNamespace) -> None:
    game = _complots_sheet(club, [1, 0], played_on=None)
    Game.objects.filter(pk=game.pk).update(
        created_at=datetime.datetime(2026, 3, 14, 21, 5, 9, tzinfo=datetime.UTC),
        played_on=PLAYED,
    )
    game.refresh_from_db()
    assert _payload(exports.bgstats_url(game=game) or "")["playDate"] == "2026-03-14 21:05:09"


def test_no_link_for_a_game_in_progress_or_one_that_came_from_bg_stats(
    club: SimpleNamespace,
) -> None:
    open_game = simulated(
        club.club, club.owner, "bruges", players=3, seed=2, names=NAMES, complete=False
    )
    assert open_game.status == Game.Status.IN_PROGRESS
    assert exports.bgstats_url(game=open_game) is None
    came = _complots_sheet(club, [1, 0])
    PlaySource.objects.create(
        club=club.club,
        app="bgstats",
        external_id="e2b7c4d1-0f3a-4a6b-9c8d-7e6f5a4b3c2d",
        game=came,
        fingerprint="x",
    )
    assert exports.bgstats_url(game=came) is None
    # From BoardGameGeek: the app may not have it, so the link is there.
    from_bgg = _complots_sheet(club, [0, 1])
    PlaySource.objects.create(
        club=club.club, app="bgg", external_id="98765", game=from_bgg, fingerprint="y"
    )
    assert exports.bgstats_url(game=from_bgg)


def test_the_export_imported_into_another_club_is_the_same_record(
    club: SimpleNamespace, every_kind: dict[str, Game]
) -> None:
    """Our file through our own import (as a club moving its record would): the other club
    gets every play, and its own export is the first club's, ids and all (the import keeps the
    app's uuids of players, locations, games and plays); importing the file again changes
    nothing."""
    document = json.loads(exports.bgstats_file(club=club.club))
    summary = imports.file_import(
        club=club.other, owner=club.outsider, read=bgstats.read_document(document)
    )
    assert (summary["plays"], summary["created"]["games"], summary["skipped"]) == (8, 8, [])
    assert summary["created"]["players"] == 4  # Ada, Bea, Cy, Di
    assert summary["created"]["board_games"] == 4  # Codenames, Golf, Werewolf, Pandemic
    theirs = exports.club_plays(club=club.other)
    ours = exports.club_plays(club=club.club)
    # A play that came from the app has no time of day of its own (ours were recorded today).
    assert [replace(p, played_time=None) for p in theirs] == [
        replace(p, played_time=None) for p in ours
    ]
    again = imports.file_import(
        club=club.other, owner=club.outsider, read=bgstats.read_document(document)
    )
    assert (again["created"]["games"], again["updated"], again["unchanged"]) == (0, 0, 8)


def test_the_club_s_own_export_brought_back_finds_every_play_already_here(
    club: SimpleNamespace, every_kind: dict[str, Game]
) -> None:
    """The club's file back into the same club (a phone's BG Stats synced, then its export
    brought in): every play is one of the club's games already, by its uuid; nothing is
    created, changed or skipped, and no game is copied."""
    document = json.loads(exports.bgstats_file(club=club.club))
    before = (Game.objects.count(), Player.objects.count(), BoardGame.objects.count())
    summary = imports.file_import(
        club=club.club, owner=club.outsider, read=bgstats.read_document(document)
    )
    assert (summary["plays"], summary["unchanged"]) == (8, 8)
    assert summary["created"]["games"] == summary["updated"] == 0
    assert summary["skipped"] == []
    assert (Game.objects.count(), Player.objects.count(), BoardGame.objects.count()) == before
