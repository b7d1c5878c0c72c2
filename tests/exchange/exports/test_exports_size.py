"""A club of 10,000 finished games exports in a few seconds: the export reads the games, seats
and names in a few queries (no query per game) and writes the file in one pass."""

from __future__ import annotations

import datetime
import json
import time
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.exchange import exports
from games.records import board_games
from games.records.models import Game, Player, Seat

pytestmark = pytest.mark.slow

GAMES = 10_000
PLAYERS = 12
SEATS = 4


def _stored(club: SimpleNamespace) -> None:
    """10,000 finished 4-player games stored as the services store them (scores, ranks, a
    first player, a location on some), written in bulk: Pot de Vin, Bruges, Complots and a
    named game in turn."""
    owner = get_user_model().objects.get(username="ex-owner")
    named = board_games.board_game_create(club=club.club, name="Azul", bgg_id=230802)
    players = Player.objects.bulk_create(
        [
            Player(club=club.club, name=f"Player {n:02}", name_key=f"player {n:02}")
            for n in range(PLAYERS)
        ]
    )
    kinds = ["pot-de-vin", "bruges", "complots", "other"]
    start = datetime.date(2020, 1, 1)
    games = Game.objects.bulk_create(
        [
            Game(
                club=club.club,
                game_type=kinds[n % 4],
                board_game=named if kinds[n % 4] == "other" else None,
                mode=Game.Mode.RESULT,
                status=Game.Status.FINISHED,
                owner=owner,
                player_count=SEATS,
                first_player=n % SEATS,
                played_on=start + datetime.timedelta(days=n // 8),
                location="The club" if n % 3 else "",
                notes="",
            )
            for n in range(GAMES)
        ],
        batch_size=1000,
    )
    Seat.objects.bulk_create(
        [
            Seat(
                game=game,
                seat=s,
                player=players[(n + s) % PLAYERS],
                score=None if game.game_type == "complots" else 10 + s,
                rank=SEATS - s,
            )
            for n, game in enumerate(games)
            for s in range(SEATS)
        ],
        batch_size=2000,
    )


def test_ten_thousand_games_export_in_a_few_seconds(club: SimpleNamespace) -> None:
    _stored(club)
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        raw = exports.bgstats_file(club=club.club, user=club.member)
        took = time.perf_counter() - started
    document = json.loads(raw)
    assert len(document["plays"]) == GAMES
    assert len(document["players"]) == PLAYERS
    assert sorted(g["name"] for g in document["games"]) == [
        "Azul",
        "Bruges",
        "Complots",
        "Pot de Vin",
    ]
    assert sum(len(p["playerScores"]) for p in document["plays"]) == GAMES * SEATS
    assert len(queries) <= 8  # games, seats, names, named games, ids, sources, "me"
    # About 1.5 s on SQLite, 3 s on PostgreSQL, on two busy cores: the bound leaves room for a
    # slower machine (the query count above is what keeps the read from going game by game).
    assert took < 8.0, f"{GAMES} games took {took:.2f} s"
    print(f"\n{GAMES} games exported in {took:.2f} s ({len(raw) / 1e6:.1f} MB)")
