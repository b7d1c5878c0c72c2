"""Golden logs: ``tests/golden/potdevin/*.json``, one ``{"log", "expected"}`` per variant.

``expected`` was produced by the naive ``reference`` module (never by the engine), and a test
here checks that the reference still reproduces it, so the golden data stays tied to the rules
file. The engine must give the same scores, ranks, counts, round winners and winners, through
the Python API and through ``manage.py replay``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from scoring.engine import get_engine
from tests.engine.golden import entry_by_entry, golden_files, load
from tests.engine.potdevin import reference

ENGINE = get_engine("pot-de-vin")
GOLDEN_FILES = golden_files("potdevin")


def picked(result: dict[str, Any]) -> dict[str, Any]:
    """The fields of an engine result that ``reference.expected_for`` gives."""
    return {
        "complete": result["complete"],
        "rounds_played": result["rounds_played"],
        "players": [
            {k: p[k] for k in ("seat", "score", "rank", "cards_won", "gems_won")}
            for p in result["players"]
        ],
        "rounds": [{"round": r["round"], "winner": r["winner"]} for r in result["rounds"]],
        "winners": result["winners"],
        "teams": None
        if result["teams"] is None
        else [{k: t[k] for k in ("team", "seats", "score", "rank")} for t in result["teams"]],
        "violations": result["violations"],
    }


def test_golden_files_cover_every_variant() -> None:
    logs = [load(path)["log"] for path in GOLDEN_FILES]
    expected = [load(path)["expected"] for path in GOLDEN_FILES]
    variants = {(len(log["players"]), log["teams"] is not None) for log in logs}
    # 3, 4, 4 in teams, 5, 6 alone and 6 in teams (D9).
    assert variants >= {(3, False), (4, False), (4, True), (5, False), (6, False), (6, True)}
    assert {log["hands"] is not None for log in logs} == {True, False}  # D4 both ways
    rounds_total = {3: 16, 4: 12, 5: 12, 6: 12}
    # rules D3: at least one game ends before its last trump because no card is left.
    assert any(
        e["complete"] and e["rounds_played"] < rounds_total[len(log["players"])]
        for log, e in zip(logs, expected, strict=True)
    )
    # A 3-player game with passes.
    assert any(
        len(log["players"]) == 3
        and any(p.get("pass") for rnd in log["rounds"] for p in rnd["plays"])
        for log in logs
    )
    # A revoke found after the fact (D4) and a shared first place (D7).
    assert any(e["violations"] for e in expected)
    assert any(len(e["winners"]) > (2 if e["teams"] else 1) for e in expected)


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_reference_reproduces_golden(path: Path) -> None:
    doc = load(path)
    assert reference.expected_for(doc["log"]) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_matches_golden(path: Path) -> None:
    doc = load(path)
    result = ENGINE.replay(doc["log"])
    assert picked(result) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_round_by_round_matches_golden(path: Path) -> None:
    doc = load(path)
    assert picked(entry_by_entry(ENGINE, doc["log"])) == doc["expected"]


def write_logs(tmp_path: Path) -> list[Path]:
    paths = []
    for golden in GOLDEN_FILES:
        path = tmp_path / golden.name
        path.write_text(json.dumps(load(golden)["log"]), encoding="utf-8")
        paths.append(path)
    return paths


def test_replay_command_prints_one_line_per_log(tmp_path: Path) -> None:
    paths = write_logs(tmp_path)
    out = io.StringIO()
    call_command("replay", *map(str, paths), stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(GOLDEN_FILES)
    for line, golden in zip(lines, GOLDEN_FILES, strict=True):
        assert picked(json.loads(line)) == load(golden)["expected"], golden.name


def test_replay_command_reports_a_broken_log(tmp_path: Path) -> None:
    good, *_ = write_logs(tmp_path)
    log = load(GOLDEN_FILES[0])["log"]
    starter = log["rounds"][1]["plays"][0]["seat"]
    log["rounds"][1]["plays"][0] = {"seat": starter, "pass": True}
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(log), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("replay", str(broken), str(good), stdout=out)
    assert info.value.code == 1
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert set(first) == {"error"}
    assert first["error"]["code"] == "starter_passed"
    assert (first["error"]["round"], first["error"]["seat"]) == (2, starter)
    assert picked(second) == load(GOLDEN_FILES[0])["expected"]
