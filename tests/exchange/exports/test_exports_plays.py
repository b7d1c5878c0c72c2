"""A club's finished games as plays for BG Stats (``games.exchange.exports``): what each game type
becomes, the ids that stay the same from one export to the next (and the app's own ids for what
came from it), and a read in a few queries whatever the number of games."""

from __future__ import annotations

import datetime
import uuid
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.exchange import exports
from games.records import services
from games.records.models import Game, Player, PlaySource, Seat, SourceRef
from tests.exchange.exports.conftest import simulated

# The namespace of the export's uuids, written out again: a uuid made here must be the one a
# first export made, so that the app matches a second import to the first.
NAMESPACE = uuid.UUID("a3d61d93-fa69-4ba4-82e3-3322b1e39c66")
NAMES = ["Ada", "Bea", "Cy"]


def _uuid(text: str) -> str:
    return str(uuid.uuid5(NAMESPACE, text))


def _seats(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("player").order_by("seat"))


def _by_id(plays: list[Any]) -> dict[str, Any]:
    return {p.external_id: p for p in plays}


def test_a_logged_game_is_a_play_with_its_checked_result(club: SimpleNamespace) -> None:
    game = simulated(club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES)
    services.game_update(game=game, location="Ada's kitchen", notes="A close one")
    assert game.status == Game.Status.FINISHED
    (play,) = exports.club_plays(club=club.club)
    seats = _seats(game)
    assert play.external_id == _uuid(f"play/{game.pk}")
    assert play.game.name == "Pot de Vin"
    assert play.game.ref == _uuid("game/pot-de-vin")
    assert play.game.win == "highest" and not play.game.uses_teams
    assert play.played_on == game.played_on
    assert play.location == "Ada's kitchen"
    assert play.location_ref == _uuid(f"location/{club.club.pk}/ada's kitchen")
    assert play.comments == "A close one"
    assert play.duration is None
    assert [p.name for p in play.players] == NAMES
    assert [p.ref for p in play.players] == [
        _uuid(f"player/{club.club.pk}/{s.player_id}") for s in seats
    ]
    # The stored (engine-checked) scores and ranks, the winners those ranked first.
    assert [(p.score, p.score_text, p.rank) for p in play.players] == [
        (s.score, str(s.score), s.rank) for s in seats
    ]
    assert [p.winner for p in play.players] == [s.rank == 1 for s in seats]
    assert [p.start_player for p in play.players] == [s.seat == game.first_player for s in seats]
    assert sum(p.start_player for p in play.players) == 1
    assert all(p.team is None for p in play.players)


def test_a_game_without_scores_is_ranked_only(club: SimpleNamespace) -> None:
    """Complots has no points (its engine's ``has_scores``): the app's noPoints game, ranked
    by the result (K4, K5), the last one standing the winner."""
    game = simulated(club.club, club.owner, "complots", players=4, seed=3, names=[*NAMES, "Di"])
    (play,) = exports.club_plays(club=club.club)
    assert play.game.name == "Complots" and play.game.win == "manual"
    seats = _seats(game)
    assert [p.score for p in play.players] == [None] * 4
    assert [p.score_text for p in play.players] == [""] * 4
    assert sorted(p.rank for p in play.players) == [1, 2, 3, 4]  # K4: no ties
    assert [p.rank for p in play.players] == [s.rank for s in seats]
    assert [p.winner for p in play.players].count(True) == 1


def test_team_play_names_each_seat_s_team(club: SimpleNamespace) -> None:
    """Pot de Vin at 6 plays in 3 teams of 2: each seat's team is named 1 to 3 (its team's
    number), and the game uses teams in every play of the file, the 3-player ones too."""
    names = ["Ada", "Bea", "Cy", "Di", "Ed", "Flo"]
    teams = simulated(
        club.club, club.owner, "pot-de-vin", players=6, seed=2, teams=True, names=names
    )
    simulated(club.club, club.owner, "pot-de-vin", players=3, seed=7, names=NAMES)
    plays = _by_id(exports.club_plays(club=club.club))
    team_play = plays[_uuid(f"play/{teams.pk}")]
    stored = [sorted(t) for t in teams.teams]
    assert sorted(s for t in stored for s in t) == [0, 1, 2, 3, 4, 5]
    for number, (a, b) in enumerate(stored, start=1):
        assert (team_play.players[a].team, team_play.players[b].team) == (str(number),) * 2
    # Partners share their team's place.
    for a, b in stored:
        assert team_play.players[a].rank == team_play.players[b].rank
    assert all(p.game.uses_teams for p in plays.values())


def test_only_the_club_s_finished_games_are_plays(club: SimpleNamespace) -> None:
    mine = simulated(club.club, club.owner, "bruges", players=3, seed=1, names=NAMES)
    simulated(club.club, club.owner, "bruges", players=3, seed=2, names=NAMES, complete=False)
    simulated(club.other, club.outsider, "bruges", players=3, seed=3, names=NAMES)
    plays = exports.club_plays(club=club.club)
    assert [p.external_id for p in plays] == [_uuid(f"play/{mine.pk}")]
    assert plays[0].game.win == "highest"


def test_the_ids_are_the_same_on_every_export(club: SimpleNamespace) -> None:
    simulated(club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES)
    simulated(club.club, club.owner, "complots", players=3, seed=5, names=NAMES)
    first = exports.club_plays(club=club.club)
    second = exports.club_plays(club=club.club)
    assert first == second
    # One player is one uuid in every play.
    refs = {p.name: p.ref for play in first for p in play.players}
    assert len(set(refs.values())) == 3
    for play in first:
        assert {p.name: p.ref for p in play.players} == refs


def test_what_came_from_bg_stats_keeps_the_app_s_ids(club: SimpleNamespace) -> None:
    """A round trip gives the app its own uuids back: the import's SourceRef of a player and a
    location, and the PlaySource of a play; a play from BoardGameGeek gets one of ours."""
    came = simulated(club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES)
    from_bgg = simulated(club.club, club.owner, "pot-de-vin", players=3, seed=6, names=NAMES)
    services.game_update(game=came, location="Bea's")
    ada = Player.objects.get(club=club.club, name="Ada")
    app = {
        "ada": "5f7d1a0e-3b1c-4c7e-9d55-0a1b2c3d4e5f",
        "location": "0c9a86f2-75e1-4b8e-8f3d-6b2a1c0d9e8f",
        "play": "e2b7c4d1-0f3a-4a6b-9c8d-7e6f5a4b3c2d",
    }
    SourceRef.objects.create(
        club=club.club, app="bgstats", kind="player", external_id=app["ada"], player=ada
    )
    SourceRef.objects.create(
        club=club.club,
        app="bgstats",
        kind="location",
        external_id=app["location"],
        location="BEA'S",
    )
    PlaySource.objects.create(
        club=club.club, app="bgstats", external_id=app["play"], game=came, fingerprint="x"
    )
    PlaySource.objects.create(
        club=club.club, app="bgg", external_id="12345678", game=from_bgg, fingerprint="y"
    )
    # Another club's ids mean nothing here.
    SourceRef.objects.create(
        club=club.other,
        app="bgstats",
        kind="player",
        external_id="11111111-2222-4333-8444-555555555555",
        player=services.player_create(club=club.other, name="Ada", created_by=None),
    )
    plays = _by_id(exports.club_plays(club=club.club))
    assert set(plays) == {app["play"], _uuid(f"play/{from_bgg.pk}")}
    play = plays[app["play"]]
    assert play.players[0].name == "Ada" and play.players[0].ref == app["ada"]
    bea = Player.objects.get(club=club.club, name="Bea")
    assert play.players[1].ref == _uuid(f"player/{club.club.pk}/{bea.pk}")
    assert play.location_ref == app["location"]  # matched by the folded name
    assert plays[_uuid(f"play/{from_bgg.pk}")].players[0].ref == app["ada"]
    # An imported play's time of day is not known here (the import's own time is no play's).
    assert play.played_time is None and plays[_uuid(f"play/{from_bgg.pk}")].played_time is None


def test_a_game_recorded_here_is_dated_when_it_was_started(club: SimpleNamespace) -> None:
    game = simulated(club.club, club.owner, "pot-de-vin", players=3, seed=5, names=NAMES)
    started = datetime.datetime(2026, 3, 14, 20, 45, 12, 345678, tzinfo=datetime.UTC)
    Game.objects.filter(pk=game.pk).update(created_at=started, played_on=datetime.date(2026, 3, 14))
    (play,) = exports.club_plays(club=club.club)
    assert play.played_on == datetime.date(2026, 3, 14)
    assert play.played_time == datetime.time(20, 45, 12)
    # Recorded the day after it was played: the time would be the recording's, not the play's.
    Game.objects.filter(pk=game.pk).update(played_on=datetime.date(2026, 3, 13))
    (play,) = exports.club_plays(club=club.club)
    assert play.played_time is None


@pytest.mark.parametrize("games", [2, 12])
def test_a_club_is_read_in_a_few_queries_whatever_its_size(
    club: SimpleNamespace, games: int
) -> None:
    for seed in range(games):
        game_type = ("pot-de-vin", "complots", "bruges")[seed % 3]
        simulated(club.club, club.owner, game_type, players=3, seed=seed, names=NAMES)
    with CaptureQueriesContext(connection) as queries:
        plays = exports.club_plays(club=club.club)
    assert len(plays) == games
    # Games, seats, names, the club's named games, the app's ids, the play sources.
    assert len(queries) == 6
