"""``Game.result_digest``: the SHA-256 of the stored result as canonical JSON, kept with the result
by every write (a re-score compares it instead of reading the result: test_jobs_scale).

The expected digests are computed here by hand: the canonical JSON written out as text, hashed
by ``hashlib``."""

from __future__ import annotations

import copy
import hashlib
import importlib
import json
from typing import Any

import pytest

from games.records import services
from games.records.models import Game, result_digest
from scoring.engine.complots.simulate import simulate as simulate_complots
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import first_club
from tests.records.conftest import append_all

pytestmark = pytest.mark.django_db

# A result with an integer key, as an engine may give it; stored, the key comes back a string.
KNOWN = {"winners": [0], "players": [{"seat": 0, "score": 3, "rank": 1}], "hands": {0: ["A1"]}}
# Its canonical JSON, written by hand: keys sorted at every level, no spaces.
KNOWN_CANONICAL = '{"hands":{"0":["A1"]},"players":[{"rank":1,"score":3,"seat":0}],"winners":[0]}'


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _canonical(value: Any) -> str:
    """The canonical JSON by the standard library: another writer than the one under test."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_the_digest_is_the_sha256_of_the_canonical_json() -> None:
    assert result_digest(KNOWN) == _sha(KNOWN_CANONICAL)
    # As a database gives it back: keys in its own order, the integer key as a string.
    stored = {
        "players": [{"rank": 1, "seat": 0, "score": 3}],
        "hands": {"0": ["A1"]},
        "winners": [0],
    }
    assert result_digest(stored) == _sha(KNOWN_CANONICAL)
    assert result_digest({**KNOWN, "winners": [1]}) != result_digest(KNOWN)
    assert result_digest({**KNOWN, "extra": None}) != result_digest(KNOWN)
    assert result_digest(None) is None
    text = {"players": [{"name": "Zoë 🎲", "score": -2}], "ratio": 0.5}
    assert result_digest(text) == _sha(_canonical(text))  # not ASCII-escaped


def test_the_migration_computes_the_digest_the_same_way() -> None:
    """Migration games 0016 keeps its own copy of the digest (migrations import no project
    code): it must agree with today's."""
    migration = importlib.import_module("games.migrations.0016_game_result_digest")
    for result in (KNOWN, {"players": [], "winners": []}, {"a": [1.5, None, True, "é"]}):
        assert migration._digest(json.dumps(result)) == result_digest(result)
    assert migration._digest("null") is None


def _digests_follow_results() -> None:
    """Every stored game's digest is the hand-computed digest of its stored result."""
    rows = list(Game.objects.values_list("pk", "result", "result_digest"))
    assert rows
    for pk, result, digest in rows:
        expected = None if result is None else _sha(_canonical(result))
        assert digest == expected, pk


def test_every_write_of_a_result_writes_its_digest(owner: Any, pdv_edition: Any) -> None:
    # An import (bulk insert), and a game entered turn by turn (save with update_fields).
    imported = services.game_import(
        club=first_club(),
        owner=owner,
        documents=[simulate(4, seed=3), simulate_complots(3, seed=4)],
    )
    log = simulate_complots(3, seed=5, names=["Ada", "Bea", "Cy"])
    players = services.players_resolve(club=first_club(), refs=log["players"], created_by=owner)
    game = services.game_create(
        club=first_club(),
        owner=owner,
        players=players,
        first_player=log["first_player"],
        game_type="complots",
        variant=log["variant"],
    )
    assert Game.objects.get(pk=game.pk).result_digest == result_digest(game.result)
    game = append_all(game, log["turns"][:3])
    _digests_follow_results()
    services.round_undo(game=game)
    _digests_follow_results()

    # Writes around the services: a queryset update, a bulk update, a full save.
    first = imported[0]
    changed = copy.deepcopy(first.result)
    changed["winners"] = [9]
    Game.objects.filter(pk=first.pk).update(result=changed)
    _digests_follow_results()
    second = Game.objects.get(pk=imported[1].pk)
    second.result = {**second.result, "note": "bulk"}
    Game.objects.bulk_update([second], ["result"])
    _digests_follow_results()
    second.result = {**second.result, "note": "save"}
    second.save()
    _digests_follow_results()
    second.result = {**second.result, "note": "some fields"}
    second.save(update_fields=["result"])
    _digests_follow_results()
    # A game read without its result and saved keeps the digest of the result it has.
    kept = Game.objects.defer("result").get(pk=second.pk)
    kept.notes = "deferred"
    kept.save()
    _digests_follow_results()
