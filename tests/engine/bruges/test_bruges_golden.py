"""Golden logs: ``tests/golden/bruges/*.json``, one ``{"log", "expected"}`` per setup.

``expected`` was produced by the naive ``reference`` module (never by the engine) from logs of
the simulator picked for what they exercise (2, 3 and 4 players, complete and in progress,
fires and plague with their choices, re-hires, statues, laurels, a shared rank and florins
tie-breaks); a test here checks that the reference still reproduces it, so the golden data
stays tied to the rules file. The engine must give the same scores, breakdowns, ranks,
tie-breaks, florins, workers, tokens, houses, persons, canals, majorities and statues, by
``replay`` and round by round. To add or rebuild a golden file, write
``json.dumps(reference.golden_document(log))`` for its log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scoring.engine.bruges import ENGINE
from tests.engine.bruges import reference
from tests.engine.golden import entry_by_entry, golden_files, load

GOLDEN_FILES = golden_files("bruges")


def features(log: dict[str, Any]) -> set[str]:
    """What a golden log exercises, read from the log and the reference's result."""
    found: set[str] = set()
    for entry in log["rounds"]:
        for penalty in entry.get("penalties") or []:
            found.add(f"penalty {penalty['color']}")
            found.update(f"choice {k}" for k in penalty if k not in ("seat", "color"))
        for t in entry["turns"]:
            for step in t.get("steps") or []:
                if "penalty" in step:
                    found.add("penalty step")
                elif step.get("action") == "person" and isinstance(step["person"], str):
                    found.add("re-hire")
    result = reference.replay(log)
    if result["statues"]["taken"]:
        found.add("statues")
    if any(p["laurels"] for p in result["players"]):
        found.add("laurels")
    found.update(f"tiebreak {p['tiebreak']}" for p in result["players"])
    return found


def test_golden_files_cover_every_setup() -> None:
    docs = [load(path) for path in GOLDEN_FILES]
    assert 5 <= len(docs) <= 8
    setups = {(len(d["log"]["players"]), d["expected"]["complete"]) for d in docs}
    assert setups >= {(2, True), (3, True), (3, False), (4, True), (4, False)}
    found = set().union(*(features(d["log"]) for d in docs))
    assert found >= {
        "penalty blue",
        "penalty brown",
        "penalty red",
        "penalty purple",
        "penalty yellow",
        "choice house",
        "choice section",
        "choice person",
        "penalty step",
        "re-hire",
        "statues",
        "laurels",
        "tiebreak florins",
        "tiebreak shared",
    }


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_reference_reproduces_golden(path: Path) -> None:
    doc = load(path)
    assert reference.expected_for(doc["log"]) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_matches_golden(path: Path) -> None:
    doc = load(path)
    assert reference.picked(ENGINE.replay(doc["log"])) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_round_by_round_matches_golden(path: Path) -> None:
    doc = load(path)
    assert reference.picked(entry_by_entry(ENGINE, doc["log"])) == doc["expected"]


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_engine_result_header(path: Path) -> None:
    result = ENGINE.replay(load(path)["log"])
    assert (result["format"], result["game"], result["engine_version"], result["edition"]) == (
        "bruges-result/1",
        "bruges",
        "1.0.0",
        "standard",
    )
