"""Thin API views: check the request's shape, call a service, return what it made. Every game is
served by the same views; its shapes come from its plugin (games/api/plugins.py).

By resource: ``accounts`` (``/api/me/``, ``/api/auth/token/``), ``game_types``, ``players``,
``editions``, ``games`` and its ``entries``; ``base`` holds what several of them share. The
names are kept here for whatever imported them from ``games.api.views``."""

from __future__ import annotations

from games.api.serializers import errors
from games.api.views.accounts import AuthTokenSerializer, MeView, TokenView
from games.api.views.base import GAME_DETAIL, GAME_ID, GAME_TYPE_FILTER
from games.api.views.editions import EditionFilter, EditionViewSet
from games.api.views.entries import (
    ENTRIES,
    ENTRIES_SCHEMA,
    ENTRY,
    ENTRY_APPENDED,
    ENTRY_INPUT,
    ENTRY_SCHEMA,
    NUMBER,
    UNDO_SCHEMA,
    GameEntries,
)
from games.api.views.game_types import GameTypesView
from games.api.views.games import (
    GAME_CREATE,
    GAME_FINISH,
    GAME_LOG,
    GAME_SCOREPAD,
    GameFilter,
    GameViewSet,
)
from games.api.views.players import PLAYER_ID, PlayerFilter, PlayerViewSet

__all__ = [
    "ENTRIES",
    "ENTRIES_SCHEMA",
    "ENTRY",
    "ENTRY_APPENDED",
    "ENTRY_INPUT",
    "ENTRY_SCHEMA",
    "GAME_CREATE",
    "GAME_DETAIL",
    "GAME_FINISH",
    "GAME_ID",
    "GAME_LOG",
    "GAME_SCOREPAD",
    "GAME_TYPE_FILTER",
    "NUMBER",
    "PLAYER_ID",
    "UNDO_SCHEMA",
    "AuthTokenSerializer",
    "EditionFilter",
    "EditionViewSet",
    "GameEntries",
    "GameFilter",
    "GameTypesView",
    "GameViewSet",
    "MeView",
    "PlayerFilter",
    "PlayerViewSet",
    "TokenView",
    "errors",  # other apps' views documented their errors with it
]
