"""The record layer's contract, run against every installed game through the registries: a
game recorded entry by entry through the services equals the same log imported, its export
re-imports to the same result, an impossible entry stores nothing, and undo takes back exactly
one entry. Nothing here names a game."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.records import services
from games.records.game_types import game_types, plugin_for
from games.records.models import Game, Round
from scoring.engine import LogError
from tests.accounts import first_club

pytestmark = pytest.mark.django_db


# The games played entry by entry ("other" games have none: tests/api/test_api_other_games.py).
@pytest.fixture(params=[t for t in game_types() if plugin_for(t).engine.info.logged])
def game_type(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def owner() -> Any:
    return get_user_model().objects.create_user("contract", password="pw-contract-123")


def simulated(game_type: str, seed: int) -> dict[str, Any]:
    info = plugin_for(game_type).engine.info
    assert info.simulate is not None
    players = info.player_counts[seed % len(info.player_counts)]
    extra: dict[str, Any] = {}
    if info.variants:
        extra["variant"] = info.variants[seed % len(info.variants)]
    names = [f"Contract {game_type} {seed} {i}" for i in range(players)]
    return info.simulate(players, seed=seed, names=names, **extra)


def entry_by_entry(owner: Any, log: dict[str, Any], game_type: str) -> Game:
    info = plugin_for(game_type).engine.info
    game = services.game_create(
        club=first_club(),
        owner=owner,
        players=services.players_resolve(club=first_club(), refs=log["players"], created_by=owner),
        first_player=log["first_player"],
        game_type=game_type,
        variant=log.get("variant") or "",
        teams=log.get("teams"),
        setup={k: log.get(k) for k in info.setup_keys},
    )
    for number, entry in enumerate(log[info.entries_key], start=1):
        game, stored = services.round_append(game=game, round_data=entry, number=number)
        assert stored.number == number
    return game


def test_entry_by_entry_equals_import_and_export_round_trips(owner: Any, game_type: str) -> None:
    info = plugin_for(game_type).engine.info
    for seed in range(3):
        log = simulated(game_type, seed)
        typed = entry_by_entry(owner, log, game_type)
        (imported,) = services.game_import(club=first_club(), owner=owner, documents=[log])
        assert imported.status == Game.Status.FINISHED  # the simulated log is complete
        # The end-of-game choices (Pot de Vin's Jokers, Bruges' `final`) come with the finish.
        finish = {k: log[k] for k in info.finish_keys if log.get(k) is not None}
        typed = services.game_finish(game=typed, finish=finish or None)
        assert typed.result == imported.result
        exported = services.game_export_log(game=imported)
        assert exported[info.entries_key] == log[info.entries_key]
        assert exported["format"] == info.log_format
        # Re-importing the export makes the same game again (under a new id).
        Game.objects.filter(pk=imported.pk).delete()
        (again,) = services.game_import(club=first_club(), owner=owner, documents=[exported])
        assert again.result == imported.result
        assert services.game_export_log(game=again) == exported


def test_an_impossible_entry_stores_nothing_and_undo_takes_back_one(
    owner: Any, game_type: str
) -> None:
    info = plugin_for(game_type).engine.info
    log = simulated(game_type, 7)
    entries = log[info.entries_key]
    # A game in progress: its entries so far, without the end-of-game choices.
    log = {k: v for k, v in log.items() if k not in info.finish_keys}
    half = {**log, info.entries_key: entries[: len(entries) // 2]}
    game = entry_by_entry(owner, half, game_type)
    before = (game.result, list(Round.objects.filter(game=game).values_list("number", "data")))
    # The last entry again cannot have happened at a real table.
    with pytest.raises(LogError) as refused:
        services.round_append(game=game, round_data=half[info.entries_key][-1])
    assert refused.value.code
    assert refused.value.round == len(half[info.entries_key]) + 1
    game.refresh_from_db()
    assert (game.result, list(Round.objects.filter(game=game).values_list("number", "data"))) == (
        before
    )
    game = services.round_undo(game=game)
    shorter = {**log, info.entries_key: entries[: len(entries) // 2 - 1]}
    (imported,) = services.game_import(club=first_club(), owner=owner, documents=[shorter])
    assert game.result == imported.result
