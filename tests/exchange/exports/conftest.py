"""Fixtures of the export tests: a club with a member of each role and another club, and
finished games of every type made through the services."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from games.records import clubs, services
from games.records.models import Club, Game, Membership
from scoring.engine import get_engine
from tests.accounts import make_user


@pytest.fixture
def club(db: None) -> SimpleNamespace:
    """A club ("Export Club") with its owner, a member and a recorder, and another club whose
    owner is in no other club."""
    owner = make_user("ex-owner", role=None)
    home = clubs.club_create(name="Export Club", owner=owner)
    member = make_user("ex-member", club=home, role=Membership.Role.MEMBER)
    recorder = make_user("ex-recorder", club=home, role=Membership.Role.RECORDER)
    outsider = make_user("ex-outsider", role=None)
    other = clubs.club_create(name="Other Club", owner=outsider)
    return SimpleNamespace(
        club=home, owner=owner, member=member, recorder=recorder, outsider=outsider, other=other
    )


def simulated(
    club: Club, owner: Any, game_type: str, *, players: int, seed: int, names: list[str], **kw: Any
) -> Game:
    """A game of ``game_type`` simulated by its engine and imported: finished when complete."""
    document = get_engine(game_type).info.simulate(players, seed=seed, names=names, **kw)
    (game,) = services.game_import(club=club, owner=owner, documents=[document])
    return game


@pytest.fixture
def simulate_game() -> Callable[..., Game]:
    return simulated
