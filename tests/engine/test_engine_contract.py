"""The contract every registered engine keeps, run against each one through the registry (as
OpenSpiel's random_sim_test runs every game): its registry entry describes its logs, random
playouts replay, entry by entry equals a whole replay, and every impossible entry is refused
with a stable code, the entry's number and nothing half-applied."""

from __future__ import annotations

import copy
import json
from typing import Any

import jsonschema
import pytest

from scoring.engine import ENGINES, GameEngine, LogError, engine_for_log

# The games played from a log ("other" games have none: tests/engine/other/).
GAMES = sorted(g for g, engine in ENGINES.items() if engine.info.logged)
SEEDS = range(12)


def playouts(engine: GameEngine) -> list[dict[str, Any]]:
    """Simulated logs of every player count (and every variant, and team play where the game
    has it)."""
    info = engine.info
    assert info.simulate is not None, f"{info.game_id} has no simulator"
    logs = []
    for players in info.player_counts:
        for seed in SEEDS:
            extra: dict[str, Any] = {}
            if info.variants:
                extra["variant"] = info.variants[seed % len(info.variants)]
            if players in info.team_counts and seed % 2:
                extra["teams"] = True
            logs.append(info.simulate(players, seed=seed, **extra))
    return logs


@pytest.fixture(params=GAMES)
def engine(request: pytest.FixtureRequest) -> GameEngine:
    return ENGINES[request.param]


def test_registry_entry_describes_the_engine(engine: GameEngine) -> None:
    info = engine.info
    assert info.game_id == engine.game_id
    assert info.log_format == engine.log_format
    assert info.player_counts and all(n >= 2 for n in info.player_counts)
    assert info.entry_name and info.entries_key and info.label
    assert set(info.team_counts) <= set(info.player_counts)
    # A record keeps these in columns of their own, not in its setup.
    common = {"format", "players", "teams", "first_player", "variant", info.edition_log_key}
    assert not common & set(info.setup_keys)
    assert (info.default_variant in info.variants) if info.variants else not info.default_variant
    if info.has_editions:
        assert info.default_edition in info.builtin_editions
        assert info.edition_from_data is not None
        for key, builtin in info.builtin_editions.items():
            info.edition_from_data(key, builtin["data"])
    for schema in (info.header_schema, info.entry_schema, info.finish_schema):
        if schema is not None:
            jsonschema.Draft202012Validator.check_schema(schema)
    assert {s.name for s in info.stats} == {s.name for s in info.stats if s.label and s.path}
    per = {s.name for s in info.stats} | {"games"}
    assert all(s.per in per for s in info.stats)


def test_random_playouts_replay_and_match_their_schemas(engine: GameEngine) -> None:
    info = engine.info
    header = jsonschema.Draft202012Validator(info.header_schema)
    entry = jsonschema.Draft202012Validator(info.entry_schema)
    for log in playouts(engine):
        header.validate({k: v for k, v in log.items() if k != info.entries_key})
        for e in log[info.entries_key]:
            entry.validate(e)
        assert engine_for_log(log) is engine
        result = engine.replay(log)
        assert result["format"] and result["game"] == engine.game_id
        assert result["engine_version"] == engine.version
        assert result["complete"] is True
        n = len(log["players"])
        seats = result["players"]
        assert [p["seat"] for p in seats] == list(range(n))
        assert [p["name"] for p in seats] == log["players"]
        ranks = sorted(p["rank"] for p in seats)
        assert ranks[0] == 1 and all(1 <= r <= n for r in ranks)
        assert result["winners"] == [p["seat"] for p in seats if p["rank"] == 1]
        for s in info.stats:
            for p in seats:
                value: Any = p
                for key in s.path:
                    value = value[key]
                assert isinstance(value, int | float) and not isinstance(value, bool), s.name
        # A stored log is JSON: its round trip replays to the same result.
        assert engine.replay(json.loads(json.dumps(log))) == result


def test_an_unfinished_game_says_why_in_words(engine: GameEngine) -> None:
    info = engine.info
    assert info.unfinished is not None
    for log in playouts(engine)[::5]:
        # The first entry only, and none of the end-of-game choices (Bruges' `final` says the
        # game is over, whatever came before it).
        partial = {k: v for k, v in log.items() if k not in info.finish_keys}
        partial[info.entries_key] = log[info.entries_key][:1]
        result = engine.replay(partial)
        assert result["complete"] is False
        words = str(info.unfinished(result))
        assert words and any(ch.isdigit() for ch in words), words


def test_entry_by_entry_equals_a_whole_replay(engine: GameEngine) -> None:
    info = engine.info
    key = info.entries_key
    for log in playouts(engine)[::3]:
        # Entry by entry, the game in progress (no end-of-game choices yet) ...
        progress = {k: v for k, v in log.items() if k not in info.finish_keys}
        state = engine.start(progress)
        for k, e in enumerate(log[key]):
            before = engine.result(state)
            state = engine.apply_entry(state, e)
            assert engine.result(state) == engine.replay({**progress, key: log[key][: k + 1]})
        assert before != engine.result(state) or not log[key]
        # ... then finished with the log's choices: the whole log's result.
        finish = {k: log[k] for k in info.finish_keys if log.get(k) is not None}
        assert engine.result(state, finish=finish or None) == engine.replay(log)


def _refused(engine: GameEngine, log: dict[str, Any], number: int) -> LogError:
    with pytest.raises(LogError) as caught:
        engine.replay(log)
    err = caught.value
    assert err.code and err.code.replace("_", "").isalpha(), err
    assert err.round == number, err
    return err


def test_every_impossible_entry_is_refused_with_a_code_and_its_number(
    engine: GameEngine,
) -> None:
    key = engine.info.entries_key
    for log in playouts(engine)[::2]:
        entries = log[key]
        for k in (0, len(entries) // 2, len(entries) - 1):
            # Not an entry at all.
            broken = copy.deepcopy(log)
            broken[key][k] = "not an entry"
            assert _refused(engine, broken, k + 1).code == "malformed"
            # The same entry twice in a row cannot happen at a real table.
            doubled = copy.deepcopy(log)
            doubled[key].insert(k + 1, copy.deepcopy(entries[k]))
            _refused(engine, doubled, k + 2)
        # Nothing follows the end of a game.
        after = copy.deepcopy(log)
        after[key].append(copy.deepcopy(entries[-1]))
        _refused(engine, after, len(entries) + 1)


def test_apply_entry_leaves_the_state_it_was_given(engine: GameEngine) -> None:
    key = engine.info.entries_key
    log = playouts(engine)[0]
    state = engine.start(log)
    state = engine.apply_entry(state, log[key][0])
    before = engine.result(state)
    with pytest.raises(LogError):
        engine.apply_entry(state, "not an entry")
    engine.apply_entry(state, log[key][1])
    assert engine.result(state) == before
