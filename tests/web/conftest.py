"""Fixtures of the web page tests: users and Django test clients signed in as them."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.records import services
from games.records.models import Edition
from tests.accounts import signed_in


@pytest.fixture(autouse=True)
def _sync_ratings(settings: Any) -> None:
    # Ratings are recomputed in this process when a change commits, not queued for a worker.
    settings.POTDEVIN_RATINGS_SYNC = True


@pytest.fixture
def web(user: Any) -> Client:
    return signed_in(user)


@pytest.fixture
def other_web(other_user: Any) -> Client:
    return signed_in(other_user)


@pytest.fixture
def staff_web(staff_user: Any) -> Client:
    return signed_in(staff_user)


@pytest.fixture
def standard_deck(db: None) -> Edition:
    """Pot de Vin's `standard` deck (stored at migrate; a flush after a transactional test
    removes it, so it is stored again here as ``migrate`` would)."""
    services.editions_ensure_builtin()
    deck = services.edition_default("pot-de-vin")
    assert deck is not None
    return deck
