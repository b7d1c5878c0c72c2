"""Template context for every page."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from games.records.game_types import plugins


@cache
def _menu_entries() -> tuple[tuple[str, str], ...]:
    """The pages a game has of its own, for the main menu: ``MENU`` of each plugin's web part,
    ``(label, url name)``, in the order the plugins are installed."""
    return tuple(
        (label, name)
        for plugin in plugins().values()
        for label, name in getattr(plugin.part("web"), "MENU", [])
    )


def game_menu(request: HttpRequest) -> dict[str, Any]:
    return {
        "game_menu": [{"label": label, "url": reverse(name)} for label, name in _menu_entries()]
    }
