"""Records the tests start from, made through the services as the pages and the API make them."""

from __future__ import annotations

from typing import Any

from games.records import services
from games.records.models import Game
from tests.accounts import first_club


def complots_game(user: Any) -> Game:
    """A new 3-player Complots game of ``user``'s with the inquisitor: Ada, Bea and Cy, Ada
    first."""
    return services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(
            club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=user
        ),
        game_type="complots",
        first_player=0,
        variant="inquisitor",
    )
