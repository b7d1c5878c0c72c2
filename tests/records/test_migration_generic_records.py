"""Migration games 0005 (one record model for every game) keeps every stored game: each game's
exported log and result are identical before and after, on a few thousand imported games of
every shape (deal recorded or not, teams, Jokers placed, games in progress, scorepad games).

The "before" export is written here from the old columns exactly as the old adapter wrote it
(format, players, teams, first_player, deck, hands, trump_pile, rounds, jokers, played_on,
location, notes); the "after" export is the service's.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest

from games.records import services
from games.records.models import Edition, Game
from games.records.models import name_key as current_name_key
from scoring.engine import LogError, get_engine
from scoring.engine.potdevin.simulate import simulate
from tests.paths import ROOT
from tests.records.migrations import latest, migrate

BEFORE = [("games", "0004_player_name_key")]
# Past the migration's batches of 500 games (and many more of rounds), twice, with a remainder.
GAMES = 1100
SCOREPAD_EVERY = 20  # one game in 20 is stored as a scorepad game

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("back_to_latest"),
]


def _logs(count: int) -> list[dict[str, Any]]:
    rng = random.Random(5)
    logs = []
    for k in range(count):
        players = 3 + k % 4
        log = simulate(
            players,
            seed=k,
            teams=players in (4, 6) and k % 3 == 0,
            record_deal=k % 2 == 0,
            names=[f"P{(k + i) % 40}" for i in range(players)],
        )
        if k % 10 == 3:  # a game in progress
            log["rounds"] = log["rounds"][: rng.randrange(len(log["rounds"]))]
        log["played_on"] = (datetime.date(2026, 1, 1) + datetime.timedelta(k % 300)).isoformat()
        log["location"] = ["Club night", "", "Café"][k % 3]
        log["notes"] = "" if k % 4 else f"game {k}"
        logs.append(log)
    return logs


def _with_stated_jokers(log: dict[str, Any], result: dict[str, Any]) -> dict[str, Any] | None:
    """An explicit Joker placement for a finished game without teams: where the engine put
    them, written out as a table would state it (rules D5), when the rules accept it stated."""
    if log.get("teams"):
        return None
    placed = {
        str(p["seat"]): list(p["breakdown"]["jokers"]["placed"])
        for p in result["players"]
        if p["breakdown"]["jokers"]["held"] and not p["breakdown"]["jokers"]["discarded"]
    }
    if not placed:
        return None
    try:
        get_engine("pot-de-vin").replay({**log, "jokers": placed})
    except LogError:
        return None
    return placed


def test_every_game_exports_and_scores_the_same_after_the_migration(django_db_blocker) -> None:
    # Before the migration only Pot de Vin had decks (their keys unique across the table).
    Edition.objects.exclude(game_type="pot-de-vin").delete()
    old = migrate(BEFORE)
    User = old.get_model("auth", "User")
    Deck = old.get_model("games", "Deck")
    OldGame = old.get_model("games", "Game")
    OldSeat = old.get_model("games", "Seat")
    OldRound = old.get_model("games", "Round")
    Player = old.get_model("games", "Player")

    owner = User.objects.create(username="migrator")
    deck = Deck.objects.get(key="standard")
    engine = get_engine("pot-de-vin")

    logs = _logs(GAMES)
    names = sorted({n for log in logs for n in log["players"]})
    players = {
        n: p
        for n, p in zip(
            names,
            Player.objects.bulk_create(Player(name=n, name_key=current_name_key(n)) for n in names),
            strict=True,
        )
    }
    planned = []
    for k, log in enumerate(logs):
        result = engine.replay(log)
        if result["complete"] and k % 7 == 0:
            log["jokers"] = _with_stated_jokers(log, result)
        scorepad = result["complete"] and k % SCOREPAD_EVERY == 0 and not log.get("teams")
        tableaux = None
        if scorepad:
            tableaux = [
                {**p["tableau"], "gems": p["gems_won"], "cards": p["cards_won"]}
                for p in result["players"]
            ]
            result = engine.score_tableaux(
                {"players": log["players"], "teams": None, "tableaux": tableaux, "jokers": None}
            )
        planned.append((log, result, scorepad, tableaux))

    games = OldGame.objects.bulk_create(
        OldGame(
            game_type="pot-de-vin",
            deck=deck,
            owner=owner,
            mode="scorepad" if scorepad else "rounds",
            status="finished" if result["complete"] else "in_progress",
            player_count=len(log["players"]),
            first_player=None if scorepad else log["first_player"],
            teams=log.get("teams"),
            hands=None if scorepad else log.get("hands"),
            trump_pile=None if scorepad else log.get("trump_pile"),
            jokers=None if scorepad else log.get("jokers"),
            tableaux=tableaux,
            result=result,
            engine_version=result["engine_version"],
            played_on=log["played_on"],
            location=log["location"],
            notes=log["notes"],
        )
        for log, result, scorepad, tableaux in planned
    )
    OldSeat.objects.bulk_create(
        OldSeat(game=g, seat=i, player=players[name])
        for g, (log, _, _, _) in zip(games, planned, strict=True)
        for i, name in enumerate(log["players"])
    )
    OldRound.objects.bulk_create(
        OldRound(game=g, number=i, trump=r["trump"], plays=r["plays"])
        for g, (log, _, scorepad, _) in zip(games, planned, strict=True)
        if not scorepad
        for i, r in enumerate(log["rounds"], start=1)
    )

    before: dict[int, tuple[dict[str, Any] | None, Any, dict[str, Any]]] = {}
    for g in OldGame.objects.select_related("deck").order_by("id"):
        seats = OldSeat.objects.filter(game=g).select_related("player").order_by("seat")
        rounds = OldRound.objects.filter(game=g).order_by("number")
        exported = None
        if g.mode == "rounds":
            exported = {
                "format": "potdevin-log/1",
                "players": [s.player.name for s in seats],
                "teams": g.teams,
                "first_player": g.first_player,
                "deck": g.deck.key,
                "hands": g.hands,
                "trump_pile": g.trump_pile,
                "rounds": [{"trump": r.trump, "plays": r.plays} for r in rounds],
                "jokers": g.jokers,
                "played_on": g.played_on.isoformat(),
                "location": g.location,
                "notes": g.notes,
            }
        before[g.pk] = (exported, g.tableaux, g.result)

    migrate(latest())

    after = Game.objects.select_related("edition").order_by("id")
    assert after.count() == GAMES
    kinds = {"rounds": 0, "scorepad": 0, "jokers": 0, "in_progress": 0}
    for game in after:
        exported, tableaux, result = before[game.pk]
        assert game.result == result, game.pk
        assert (game.game_type, game.edition.key) == ("pot-de-vin", "standard")
        if exported is None:
            kinds["scorepad"] += 1
            assert game.sheet == tableaux
            continue
        kinds["rounds"] += 1
        kinds["jokers"] += exported["jokers"] is not None
        kinds["in_progress"] += game.status == Game.Status.IN_PROGRESS
        assert services.game_export_log(game=game) == exported, game.pk
        # The exported log still replays to the stored result.
        assert get_engine("pot-de-vin").replay(exported) == result, game.pk
    # The data covered every shape it claims to.
    assert all(count > 0 for count in kinds.values()), kinds


def test_no_migration_imports_live_project_code() -> None:
    """Migrations run against the code of their day: importing today's engine or services from
    one would change what an old migration does (or break it when the code moves)."""
    import ast

    root = ROOT
    ours = ("games", "scoring", "potdevin_site")
    for path in sorted(root.glob("*/migrations/0*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert name.split(".")[0] not in ours, f"{path.name} imports {name}"
