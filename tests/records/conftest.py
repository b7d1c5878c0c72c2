"""Factories of the record service tests: an owner, the stored Pot de Vin edition, games made
through the services."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.records import services
from games.records.models import Edition, Game
from tests.accounts import first_club
from tests.records.migrations import latest, migrate

COMPLOTS = "complots"
POT_DE_VIN = "pot-de-vin"


@pytest.fixture
def back_to_latest(transactional_db: None) -> Iterator[None]:
    """Whatever a test of a data migration does, the test database ends in the latest state
    (the flush after a transactional test, and the tests after it, expect its tables)."""
    yield
    migrate(latest())


@pytest.fixture
def owner(db: None) -> Any:
    return get_user_model().objects.create_user("owner", password="pw-owner-123456")


@pytest.fixture
def pdv_edition(db: None) -> Edition:
    """The stored Pot de Vin ``standard`` edition: migrate stores it (post_migrate), and a
    transactional test's flush emits post_migrate again."""
    return Edition.objects.get(game_type=POT_DE_VIN, key="standard")


def append_all(game: Game, entries: Sequence[dict[str, Any]]) -> Game:
    """Append these entries (rounds, turns) one by one through the service."""
    for data in entries:
        game, _ = services.round_append(game=game, round_data=copy.deepcopy(data))
    game.refresh_from_db()
    return game


@pytest.fixture
def complots_game(owner: Any) -> Callable[..., Game]:
    """``complots_game(names=..., first_player=..., variant=..., turns=[...])``: a Complots game
    made through the services, its turns appended one by one."""

    def make(
        names: Sequence[str] = ("Ada", "Bea", "Cy"),
        *,
        first_player: int = 0,
        variant: str = "",
        turns: Sequence[dict[str, Any]] = (),
    ) -> Game:
        players = services.players_resolve(club=first_club(), refs=list(names), created_by=owner)
        game = services.game_create(
            club=first_club(),
            owner=owner,
            players=players,
            first_player=first_player,
            game_type=COMPLOTS,
            variant=variant,
        )
        return append_all(game, turns)

    return make
