"""The gate for stored JSON (games/stored_json.py) and the rule for player names
(games/names.py): what each refuses, with which code and path, and that dropping the keys a
format does not define keeps exactly what every engine reads."""

from __future__ import annotations

import copy
import json
import sys
import unicodedata
from typing import Any

import pytest
from django.utils import translation

from games.records import stored_json
from games.records.models import MAX_ENTRIES, Player
from games.records.names import KEY_GROWTH, MAX_NAME_LENGTH, BadName, player_name
from games.records.stored_json import JsonRefused, Limits, check, log_schema, prune
from scoring.engine import ENGINES, GameEngine
from tests.accounts import first_club

# The games played from a log (an "other game" has none: it is known by its scores only).
LOGGED = sorted(g for g, engine in ENGINES.items() if engine.info.logged)


def refused(value: Any, **kwargs: Any) -> tuple[str, str]:
    with pytest.raises(JsonRefused) as caught:
        check(value, **kwargs)
    return caught.value.code, caught.value.path


# --- safety ---------------------------------------------------------------------------------


def test_integers_outside_signed_64_bits_are_refused_with_their_path() -> None:
    check({"a": [2**63 - 1, -(2**63)]})
    assert refused({"a": [0, 2**63]}) == ("out_of_range", "a[1]")
    assert refused({"a": {"b": -(2**63) - 1}}) == ("out_of_range", "a.b")
    assert refused([2**64]) == ("out_of_range", "[0]")
    assert refused(2**64, path="notes") == ("out_of_range", "notes")
    check([True, False, None, 1.5])  # a bool is no integer here, nor a float


def test_floats_json_cannot_write_are_refused() -> None:
    assert refused({"x": float("nan")})[0] == "out_of_range"
    assert refused({"x": float("inf")})[0] == "out_of_range"


def test_lone_surrogates_and_nul_are_refused_in_values_and_keys() -> None:
    assert refused({"name": "Ada\ud800"}) == ("invalid_text", "name")
    assert refused({"a": ["ok", "\udfff"]}) == ("invalid_text", "a[1]")
    # A key that cannot be shown as it is (the path is in the error body) is shown escaped.
    assert refused({"a\x00": 1}) == ("invalid_text", "a\\u0000")
    assert refused({"k\ud800": [1]}) == ("invalid_text", "k\\ud800")
    assert refused(["x\x00y"]) == ("invalid_text", "[0]")
    check({"emoji": "🎲 Dé", "rtl": "עברית", "pair": "\U0001f600"})  # a surrogate pair is one char


def test_lengths_and_depth_follow_the_limits() -> None:
    limits = Limits(max_string=5, max_items=3, max_depth=3)
    check({"a": ["12345", 1, 2]}, limits=limits)
    assert refused({"a": "123456"}, limits=limits) == ("too_long", "a")
    assert refused({"a": [1, 2, 3, 4]}, limits=limits) == ("too_long", "a")
    check({"a": {"b": 1}}, limits=limits)  # 2 levels of containers
    assert refused({"a": {"b": {"c": []}}}, limits=limits) == ("too_deep", "a.b.c")


def test_a_deep_document_is_refused_without_recursion() -> None:
    deep: Any = 1
    for _ in range(sys.getrecursionlimit() * 2):
        deep = [deep]
    code, _ = refused(deep)
    assert code == "too_deep"


def test_only_json_values_pass() -> None:
    assert refused({"a": {1, 2}})[0] == "malformed"


def test_the_error_body_names_the_path() -> None:
    body = JsonRefused("too_long", "text is long", path="notes").as_dict()
    assert body == {
        "code": "too_long",
        "message": "notes: text is long",
        "round": None,
        "seat": None,
        "path": "notes",
    }


# --- keys a format does not define ----------------------------------------------------------


def test_prune_drops_undefined_keys_and_keeps_refused_and_patterned_ones() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "closed": {"type": "object", "properties": {"x": {}}, "additionalProperties": False},
            "by_seat": {"type": "object", "additionalProperties": {"type": "array"}},
            "free": {"type": "object"},
            "items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
            "either": {
                "anyOf": [
                    {"type": "object", "required": ["card"], "properties": {"card": {}}},
                    {"type": "object", "required": ["effect"], "properties": {"effect": {}}},
                    {"type": "null"},
                ]
            },
        },
        "$defs": {"item": {"type": "object", "properties": {"seat": {}}}},
    }
    value = {
        "a": 1,
        "junk": 2,
        "closed": {"x": 1, "y": 2},
        "by_seat": {"0": [], "9": []},
        "free": {"anything": 1},
        "items": [{"seat": 0, "junk": 1}, "not an object"],
        "either": {"effect": "p1", "junk": 1},
    }
    before = copy.deepcopy(value)
    assert prune(value, schema) == {
        "a": 1,
        "closed": {"x": 1, "y": 2},  # refused by its format: kept for the engine to say so
        "by_seat": {"0": [], "9": []},  # keys the engine checks
        "free": {"anything": 1},
        "items": [{"seat": 0}, "not an object"],  # a wrong shape is left to the engine
        "either": {"effect": "p1"},
    }
    assert value == before  # a copy: the value given is not changed
    assert prune({"either": None}, schema) == {"either": None}


def _with_junk(value: Any, keep_closed: list[str], path: str = "") -> Any:
    """``value`` with a junk key added to every object whose format ignores unknown keys."""
    if isinstance(value, dict):
        out = {
            k: _with_junk(v, keep_closed, stored_json.join_path(path, k)) for k, v in value.items()
        }
        if not any(path.endswith(closed) for closed in keep_closed):
            out["zz_junk"] = {"nested": [1, "two"]}
        return out
    if isinstance(value, list):
        return [
            _with_junk(v, keep_closed, stored_json.join_path(path, i)) for i, v in enumerate(value)
        ]
    return value


# Objects whose format refuses unknown keys, or whose keys are data (seats, colours).
CLOSED = {
    "pot-de-vin": ["hands", "jokers"],
    "complots": [],
    "bruges": ["gain", "workers", "threats", "dice"],
}


def _playouts(engine: GameEngine) -> list[dict[str, Any]]:
    info = engine.info
    assert info.simulate is not None
    logs = []
    for seed in range(12):
        players = info.player_counts[seed % len(info.player_counts)]
        logs.append(json.loads(json.dumps(info.simulate(players=players, seed=seed))))
    return logs


@pytest.mark.parametrize("game_type", LOGGED)
def test_prune_keeps_every_key_the_engine_reads(game_type: str) -> None:
    """Simulated logs use every key of their format: pruning them changes nothing."""
    engine = ENGINES[game_type]
    for log in _playouts(engine):
        assert prune(log, log_schema(engine.info)) == log


@pytest.mark.parametrize("game_type", LOGGED)
def test_undefined_keys_are_ignored_by_the_engine_and_dropped_by_the_gate(game_type: str) -> None:
    """The rules references: keys a format does not define are ignored. The engine gives the
    same result with junk keys everywhere, and the gate gives back the log without them."""
    engine = ENGINES[game_type]
    closed = CLOSED[game_type]
    for log in _playouts(engine):
        junk = _with_junk(log, closed)
        assert junk != log
        assert engine.replay(junk) == engine.replay(log)
        assert prune(junk, log_schema(engine.info)) == log


def test_a_bruges_gain_keeps_its_unknown_keys_for_the_engine_to_refuse() -> None:
    schema = ENGINES["bruges"].info.entry_schema
    step = {"effect": "p1", "gain": {"florins": 1, "zz": 2}}
    entry = {"dice": {}, "turns": [{"seat": 0, "steps": [step]}]}
    assert prune(entry, schema)["turns"][0]["steps"][0]["gain"] == {"florins": 1, "zz": 2}


# --- player names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        ("Ada", "Ada"),
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("Ada\u200b", "Ada"),  # zero-width space
        ("\ufeffAda", "Ada"),  # byte-order mark
        ("\u202eAda\u202c", "Ada"),  # right-to-left override and its end
        ("A\u200dda", "Ada"),  # zero-width joiner
        ("\u2067Ada\u2069", "Ada"),  # isolates
        ("Ａｄａ", "Ada"),  # full-width forms
        ("Ada\u00a0L.", "Ada L."),  # no-break space
        ("Ada\tL.\nB", "Ada L. B"),
        ("e\u0301", "\u00e9"),  # composed
        ("Úna", "Úna"),
        ("עברית", "עברית"),
        ("🎲 Dé", "🎲 Dé"),
    ],
)
def test_names_are_normalised(raw: str, name: str) -> None:
    assert player_name(raw) == name


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "blank_name"),
        ("   ", "blank_name"),
        ("\u200b\u200d\ufeff", "blank_name"),
        ("A\x07da", "invalid_text"),
        ("A\x00da", "invalid_text"),
        ("Ada\ud800", "invalid_text"),
        ("x" * (MAX_NAME_LENGTH + 1), "too_long"),
        ("\ufdfa" * 14, "too_long"),  # 14 characters that are 18 each once normalised
    ],
)
def test_names_that_cannot_be_are_refused(raw: str, code: str) -> None:
    with pytest.raises(BadName) as caught:
        player_name(raw)
    assert caught.value.code == code


def test_names_made_are_remembered_but_not_refusals() -> None:
    """Names made once are remembered (an import meets a club's few names in every game); a
    refusal is made again each time, in the language of the request that meets it."""
    first = player_name("Ｂｅａ​ ")
    assert first == "Bea" and player_name("Ｂｅａ​ ") == "Bea"
    with translation.override("it"), pytest.raises(BadName) as italian:
        player_name(" ​")
    with translation.override("en"), pytest.raises(BadName) as english:
        player_name(" ​")
    assert (italian.value.code, english.value.code) == ("blank_name", "blank_name")
    assert italian.value.message == "un nome non può essere vuoto"
    assert english.value.message == "a name cannot be blank"
    assert player_name("x" * 90, max_length=100) == "x" * 90  # the length is part of the rule
    with pytest.raises(BadName):
        player_name("x" * 90)


def test_a_name_at_the_limit_after_normalisation_is_taken() -> None:
    assert player_name("\ufdfa" * 4) == unicodedata.normalize("NFKC", "\ufdfa") * 4
    assert len(player_name("x" * MAX_NAME_LENGTH)) == MAX_NAME_LENGTH


def test_the_name_key_column_holds_the_longest_folding() -> None:
    """Case-folding any character, after NFKC, gives at most KEY_GROWTH characters, so the
    key of a name of MAX_NAME_LENGTH characters fits its column."""
    most = 0
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue
        for char in unicodedata.normalize("NFKC", chr(code)):
            most = max(most, len(char.casefold()))
    assert most == KEY_GROWTH
    assert Player._meta.get_field("name_key").max_length == KEY_GROWTH * MAX_NAME_LENGTH
    assert Player._meta.get_field("name").max_length == MAX_NAME_LENGTH


def test_the_entry_limit_is_far_above_the_longest_simulated_complots_game() -> None:
    """The rules bound Pot de Vin (16 rounds) and Bruges (its draw piles); Complots only by its
    players' choices: its simulator's longest 8-player game among many is far below the limit."""
    simulate = ENGINES["complots"].info.simulate
    assert simulate is not None
    longest = max(len(simulate(players=8, seed=seed)["turns"]) for seed in range(300))
    assert longest * 5 < MAX_ENTRIES


def _bruges_log_with_a_gain() -> tuple[dict[str, Any], dict[str, Any]]:
    """A simulated Bruges log and one of its effects' gains (to change in place)."""
    simulate = ENGINES["bruges"].info.simulate
    assert simulate is not None
    for seed in range(50):
        log = json.loads(json.dumps(simulate(players=2, seed=seed)))
        for rnd in log["rounds"]:
            for turn in rnd["turns"]:
                for step in turn.get("steps") or ():
                    if isinstance(step.get("gain"), dict) and "florins" in step["gain"]:
                        return log, step["gain"]
    raise AssertionError("no simulated game has a florins gain")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("points", 2**40, "would score"),  # past a score's column of 32 bits
        ("florins", 2**60, "53-bit"),  # florins are no score, but past what clients read
    ],
)
def test_a_result_no_database_or_client_holds_is_refused(
    django_user_model: Any, key: str, value: int, reason: str
) -> None:
    from games.records import services
    from games.records.errors import RecordError
    from games.records.models import Game

    owner = django_user_model.objects.create_user("owner")
    log, gain = _bruges_log_with_a_gain()
    gain[key] = value
    with pytest.raises(RecordError) as caught:
        services.game_import(club=first_club(), owner=owner, documents=[log])
    assert (caught.value.code, caught.value.index) == ("out_of_range", 0)
    assert reason in caught.value.message
    assert not Game.objects.exists()
