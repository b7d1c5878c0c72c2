"""The engine registry and the two ways the engine can be loaded (compiled or plain)."""

from __future__ import annotations

import os

import pytest

from scoring.engine import ENGINES, LogError, engine_for_log, get_engine
from scoring.engine.potdevin import play
from tests.paths import ROOT

ENGINE_DIR = ROOT / "scoring" / "engine"


def test_registry_is_keyed_by_game_id() -> None:
    engine = get_engine("pot-de-vin")
    assert engine.game_id == "pot-de-vin"
    assert engine.log_format == "potdevin-log/1"
    assert get_engine("complots").log_format == "complots-log/1"
    assert get_engine("bruges").log_format == "bruges-log/1"
    assert get_engine("other").log_format == "other-log/1"
    assert set(ENGINES) == {"pot-de-vin", "complots", "bruges", "other"}


def test_unknown_game_has_no_engine() -> None:
    with pytest.raises(KeyError, match="carcassonne"):
        get_engine("carcassonne")


def test_engine_for_log_picks_by_format() -> None:
    assert engine_for_log({"format": "potdevin-log/1"}) is get_engine("pot-de-vin")
    assert engine_for_log({"format": "complots-log/1"}) is get_engine("complots")
    assert engine_for_log({"format": "bruges-log/1"}) is get_engine("bruges")
    with pytest.raises(LogError) as err:
        engine_for_log({"format": "carcassonne-log/1"})
    assert err.value.code == "unsupported_format"
    with pytest.raises(LogError) as err:
        engine_for_log(["not", "an", "object"])
    assert err.value.code == "malformed"


def test_tests_run_the_build_they_say() -> None:
    compiled = any(ENGINE_DIR.rglob("play.*.so"))
    if os.environ.get("POTDEVIN_PURE_ENGINE") == "1" or not compiled:
        assert play.__file__.endswith("play.py")
    else:
        assert play.__file__.endswith(".so")
