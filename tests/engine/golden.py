"""What the golden-log tests of every game share: the files under ``tests/golden/<game>/``,
each one ``{"log", "expected"}``, and the engine's result by ``replay`` and entry by entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.engine.base import GameEngine
from tests.paths import ROOT

GOLDEN_ROOT = ROOT / "tests" / "golden"


def golden_files(folder: str) -> list[Path]:
    return sorted((GOLDEN_ROOT / folder).glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert set(doc) == {"log", "expected"}, path.name
    return doc


def entry_by_entry(engine: GameEngine, log: dict[str, Any]) -> dict[str, Any]:
    """The result of ``log`` applied one entry at a time, as the record layer does."""
    state = engine.start(log)
    for entry in log[engine.info.entries_key]:
        state = engine.apply_entry(state, entry)
    result: dict[str, Any] = engine.result(state)
    return result
