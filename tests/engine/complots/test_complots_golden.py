"""Golden logs: ``tests/golden/complots/*.json``, one ``{"log", "expected"}`` per setup.

``expected`` was produced by the naive ``reference`` module (never by the engine) from logs
played by a throwaway random playout with real hidden hands; a test here checks that the
reference still reproduces it, so the golden data stays tied to the rules file. The engine must
give the same ranks, winners, coins, influences, face-up cards, eliminations, Treasury, turn
outcomes and K4 counts, by ``replay`` and turn by turn. To add or rebuild a golden file, write
``json.dumps(reference.golden_document(log))`` for its log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scoring.engine.complots import ENGINE
from tests.engine.complots import reference
from tests.engine.golden import entry_by_entry, golden_files, load

GOLDEN_FILES = golden_files("complots")


def features(log: dict[str, Any]) -> set[str]:
    """What a golden log exercises, found by stepping the reference's table."""
    found: set[str] = set()
    table = reference.Table(log)
    for number, turn in enumerate(log["turns"], start=1):
        if table.coins[turn["actor"]] >= 10:
            found.add("forced coup")
        seats = [loss["seat"] for loss in turn.get("losses", [])]
        if len(seats) != len(set(seats)):
            found.add("double loss")
        block = turn.get("block")
        if block is not None and "challenge" in block:
            found.add(f"block challenge {block['challenge']['truthful']}")
        if "challenge" in turn:
            found.add(f"claim challenge {turn['challenge']['truthful']}")
        found.add(turn["action"])
        table.play(number, turn)
        if len(table.turns[-1]["eliminated"]) > 1:
            found.add("two out in one turn")
    return found


def test_golden_files_cover_every_setup() -> None:
    docs = [load(path) for path in GOLDEN_FILES]
    assert 5 <= len(docs) <= 8
    setups = {(len(d["log"]["players"]), d["expected"]["variant"]) for d in docs}
    assert {n for n, _ in setups} >= {2, 3, 6, 8}
    assert {v for _, v in setups} == {"ambassador", "inquisitor"}
    assert any("variant" not in d["log"] for d in docs)  # the base game, variant left out
    assert {d["expected"]["complete"] for d in docs} == {True, False}
    found = set().union(*(features(d["log"]) for d in docs))
    assert found >= {
        "forced coup",
        "double loss",
        "two out in one turn",
        "claim challenge True",
        "claim challenge False",
        "block challenge True",
        "block challenge False",
        "exchange",
        "inquire",
        "coup",
        "assassin",
        "captain",
    }
    tiebreaks = {p["tiebreak"] for d in docs for p in d["expected"]["players"]}
    assert tiebreaks >= {None, "shared", "coins", "loss_order"}  # K4, K5


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_reference_reproduces_golden(path: Path) -> None:
    doc = load(path)
    assert reference.expected_for(doc["log"]) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_matches_golden(path: Path) -> None:
    doc = load(path)
    assert reference.picked(ENGINE.replay(doc["log"])) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_turn_by_turn_matches_golden(path: Path) -> None:
    doc = load(path)
    assert reference.picked(entry_by_entry(ENGINE, doc["log"])) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_result_header(path: Path) -> None:
    result = ENGINE.replay(load(path)["log"])
    assert (result["format"], result["game"], result["engine_version"]) == (
        "complots-result/1",
        "complots",
        "1.0.0",
    )
