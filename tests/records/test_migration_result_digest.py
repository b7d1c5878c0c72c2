"""Migration games 0016: the games stored before it get the digest of their stored result
(``Game.result_digest``), computed here by hand from what the database gives back.

Games of the three types are stored through today's services, finished and not, and one with
no result yet; the database is taken back to 0015 (no digest column) and migrated again."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from games.records import services
from games.records.models import Game
from scoring.engine import ENGINES
from tests.accounts import first_club
from tests.records.migrations import migrate

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,
    pytest.mark.usefixtures("back_to_latest"),
]

BEFORE = [("games", "0015_idempotency_keys")]


def _hand_digest(result: Any) -> str:
    canonical = json.dumps(result, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def test_the_games_stored_before_get_the_digest_of_their_results(django_user_model: Any) -> None:
    owner = django_user_model.objects.create_user("owner")
    services.editions_ensure_builtin()
    logs = []
    for _, engine in sorted(ENGINES.items()):
        info = engine.info
        if not info.logged:  # an "other game" has no log to simulate
            continue
        assert info.simulate is not None
        for seed in range(3):
            log = info.simulate(players=info.player_counts[seed], seed=seed)
            if seed == 2:  # in progress
                log = {**log, info.entries_key: log[info.entries_key][:2]}
                log.pop("final", None)
            logs.append(log)
    services.game_import(club=first_club(), owner=owner, documents=logs)
    players = services.players_resolve(club=first_club(), refs=["Ada", "Bea"], created_by=owner)
    empty = services.game_create(
        club=first_club(), owner=owner, players=players, first_player=0, game_type="bruges"
    )
    Game.objects.filter(pk=empty.pk).update(result=None)  # a game with no result at all
    expected = {
        pk: None if result is None else _hand_digest(result)
        for pk, result in Game.objects.values_list("pk", "result")
    }
    assert sum(digest is None for digest in expected.values()) == 1

    migrate(BEFORE)
    migrate([("games", "0016_game_result_digest")])
    assert dict(Game.objects.values_list("pk", "result_digest")) == expected
