"""Factories of the import tests: plays as the readers hand them over
(``games.exchange.formats.plays``), built by hand, and who imports them."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from games.exchange.formats.plays import ForeignGame, ForeignPlay, ForeignPlayer, Problem
from games.records import services
from games.records.models import Club, Edition
from tests.accounts import first_club, make_user

COUP = ForeignGame(ref="g-coup", name="Coup", bgg_id=131357, win="manual")
BRUGES = ForeignGame(ref="g-bruges", name="Bruges", bgg_id=136888)
POT_DE_VIN = ForeignGame(ref="g-pdv", name="Pot de Vin", bgg_id=None)
AZUL = ForeignGame(ref="g-azul", name="Azul", bgg_id=230802)
GOLF = ForeignGame(ref="g-golf", name="Golf", bgg_id=None, win="lowest")
PANDEMIC = ForeignGame(ref="g-pandemic", name="Pandemic", bgg_id=30549, win="cooperative")


def seat(
    name: str,
    score: int | None = None,
    *,
    rank: int | None = None,
    winner: bool | None = None,
    ref: str | None = "",
    team: str | None = None,
    start: bool = False,
    anonymous: bool = False,
) -> ForeignPlayer:
    """A seat; its ref is ``p-<name>`` unless given (None: the app has no id for it)."""
    return ForeignPlayer(
        ref=f"p-{name.lower()}" if ref == "" else ref,
        name=name,
        score=score,
        score_text="" if score is None else str(score),
        rank=rank,
        winner=winner,
        start_player=start,
        team=team,
        anonymous=anonymous,
    )


def play(
    external_id: str,
    game: ForeignGame,
    *seats: ForeignPlayer,
    on: str = "2026-03-01",
    app: str = "bgstats",
    location: str = "",
    location_ref: str | None = None,
    problems: tuple[Problem, ...] = (),
    **more: Any,
) -> ForeignPlay:
    return ForeignPlay(
        app=app,
        external_id=external_id,
        game=game,
        played_on=datetime.date.fromisoformat(on),
        players=tuple(seats),
        location=location,
        location_ref=location_ref,
        problems=problems,
        **more,
    )


@pytest.fixture
def club(db: None) -> Club:
    return first_club()


@pytest.fixture
def recorder(club: Club) -> Any:
    return make_user("rita", club=club, role="recorder")


@pytest.fixture
def standard_deck(db: None) -> Edition:
    """Pot de Vin's `standard` deck, stored again as ``migrate`` would (a transactional test's
    flush removes it)."""
    services.editions_ensure_builtin()
    deck = services.edition_default("pot-de-vin")
    assert deck is not None
    return deck


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Batches are run by the test itself: what would have been queued."""
    from scoring.jobs import tasks

    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.import_batch, "delay", lambda *a: queued.append(a))
    return queued
