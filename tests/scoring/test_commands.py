"""The command-line tools over every game: ``replay`` picks the engine by the log's format,
``simulate --game`` prints a random legal log of that game, ``demo`` stores games of each."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.records.models import Game
from tests.engine.complots import reference as complots_reference
from tests.engine.golden import golden_files, load


def run(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_replay_reads_each_log_by_its_format(tmp_path: Path) -> None:
    complots = golden_files("complots")[:2]
    potdevin = golden_files("potdevin")[:1]
    paths = []
    for path in [*complots, *potdevin]:
        target = tmp_path / path.name
        target.write_text(json.dumps(load(path)["log"]), encoding="utf-8")
        paths.append(target)
    lines = run("replay", *map(str, paths)).splitlines()
    assert len(lines) == 3
    for line, path in zip(lines[:2], complots, strict=True):
        expected = load(path)["expected"]  # the reference's, not the engine's
        assert complots_reference.picked(json.loads(line)) == expected
    assert json.loads(lines[2])["format"] == "potdevin-result/1"


def test_replay_reports_an_impossible_complots_log_with_its_turn(tmp_path: Path) -> None:
    log = {
        "format": "complots-log/1",
        "players": ["Ada", "Bea"],
        "first_player": 0,
        # Bea acts first although Ada (seat 0) starts: out of turn at turn 1.
        "turns": [{"actor": 1, "action": "income"}],
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("replay", str(path), stdout=out)
    assert exit_.value.code == 1
    error = json.loads(out.getvalue())["error"]
    assert (error["code"], error["round"], error["turn"], error["seat"]) == (
        "out_of_turn",
        1,
        1,
        1,
    )


@pytest.mark.parametrize(
    ("players", "variant"), [(2, "ambassador"), (5, "inquisitor"), (8, "inquisitor")]
)
def test_simulate_prints_a_legal_complots_game(players: int, variant: str) -> None:
    log = json.loads(
        run(
            "simulate",
            "--game",
            "complots",
            "--players",
            str(players),
            "--seed",
            "3",
            "--variant",
            variant,
        )
    )
    assert log["format"] == "complots-log/1"
    assert len(log["players"]) == players and log["variant"] == variant
    # The independent reference plays it to the end: one survivor.
    table = complots_reference.Table(log)
    for number, turn in enumerate(log["turns"], start=1):
        table.play(number, turn)
    assert sum(1 for n in range(players) if table.alive(n)) == 1


def test_simulate_is_deterministic_for_a_seed() -> None:
    args = ("simulate", "--game", "complots", "--players", "4", "--seed", "11")
    assert run(*args) == run(*args)


@pytest.mark.parametrize(
    "args",
    [
        ("--game", "complots", "--players", "9"),
        ("--game", "complots", "--players", "4", "--teams"),
        ("--game", "complots", "--players", "4", "--variant", "spy"),
        ("--game", "complots", "--players", "4", "--no-deal"),
        ("--game", "pot-de-vin", "--players", "4", "--variant", "inquisitor"),
        ("--game", "pot-de-vin", "--players", "2"),
    ],
)
def test_simulate_refuses_what_the_game_does_not_have(args: tuple[str, ...]) -> None:
    with pytest.raises(CommandError):
        run("simulate", *args)


@pytest.mark.django_db
def test_demo_stores_games_of_every_game() -> None:
    run("demo", "--games", "40", "--seed", "2")
    types = set(Game.objects.values_list("game_type", flat=True))
    assert types == {"pot-de-vin", "complots", "bruges"}
    assert Game.objects.count() == 40
    for game in Game.objects.filter(status=Game.Status.FINISHED):
        assert game.result["complete"] is True
        assert [s.rank for s in game.seats.order_by("seat")] == [
            p["rank"] for p in game.result["players"]
        ]


def test_replay_takes_an_edition_file(tmp_path: Path) -> None:
    """bruges.md: `manage.py replay --edition FILE` replays against the edition given (B1)."""
    from tests.engine.bruges.test_bruges_rules import worked_example

    log = tmp_path / "example.json"
    log.write_text(json.dumps(worked_example()), encoding="utf-8")
    standard = run("replay", str(log))
    assert [p["score"] for p in json.loads(standard)["players"]] == [12, 15]  # bruges.md
    board = {
        "id": "corrected",
        "prestige_points": [0, 5, 2, 3, 4, 5, 7, 9, 11, 13, 15, 17, 20],  # step 1 worth 5
        "canal": {
            side: [{"cost": cost, "color": None} for cost in (1, 2, 3, 4, 5)]
            for side in ("left", "right")
        },
    }
    edition = tmp_path / "board.json"
    edition.write_text(json.dumps(board), encoding="utf-8")
    corrected = json.loads(run("replay", "--edition", str(edition), str(log)))
    # Bea is on step 1: 15 - 1 + 5 = 19; Ada, on step 0, keeps 12.
    assert [p["score"] for p in corrected["players"]] == [12, 19]
    edition.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(CommandError, match="JSON object"):
        run("replay", "--edition", str(edition), str(log))
