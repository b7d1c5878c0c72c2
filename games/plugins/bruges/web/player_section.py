"""Bruges's section of the player page: the engine's statistics (``info.stats``) labelled in
the reader's language (``STAT_LABELS``, also read by the generic statistics pages), and whether a
score comes from an unverified edition."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.plugins.bruges import GAME_TYPE, words
from games.records.models import Player, Seat
from scoring.engine import get_engine

# The labels of the engine's statistics (``info.stats``) on the pages.
STAT_LABELS = {
    "points": gettext_lazy("Points"),
    "points_track": gettext_lazy("Score track points"),
    "points_persons": gettext_lazy("Person points"),
    "points_houses": gettext_lazy("House points"),
    "points_laurels": gettext_lazy("Laurel points"),
    "points_majorities": gettext_lazy("Majority points"),
    "points_canals": gettext_lazy("Canal (3rd space) points"),
    "points_statues": gettext_lazy("Statue points"),
    "points_prestige": gettext_lazy("Prestige points"),
    "statues_taken": gettext_lazy("Statues taken"),
    "majorities_flipped": gettext_lazy("Majority tiles flipped"),
    "cards_played": gettext_lazy("Cards played"),
    "penalties_blue": gettext_lazy("Blue penalties"),
    "penalties_brown": gettext_lazy("Brown penalties"),
    "penalties_red": gettext_lazy("Red penalties"),
    "penalties_purple": gettext_lazy("Purple penalties"),
    "penalties_yellow": gettext_lazy("Yellow penalties"),
    "hired_nobles": pgettext_lazy("bruges statistic", "Nobles hired"),
    "hired_bureaucrats": pgettext_lazy("bruges statistic", "Bureaucrats hired"),
    "hired_entertainers": pgettext_lazy("bruges statistic", "Entertainers hired"),
    "hired_merchants": pgettext_lazy("bruges statistic", "Merchants hired"),
    "hired_craftsmen": pgettext_lazy("bruges statistic", "Craftsmen hired"),
    "hired_courtiers": pgettext_lazy("bruges statistic", "Courtiers hired"),
    "hired_clergy": pgettext_lazy("bruges statistic", "Clergy hired"),
    "hired_artists": pgettext_lazy("bruges statistic", "Artists hired"),
    "hired_defenders": pgettext_lazy("bruges statistic", "Defenders hired"),
    "hired_underworld": pgettext_lazy("bruges statistic", "Underworld hired"),
    "hired_scholars": pgettext_lazy("bruges statistic", "Scholars hired"),
}


def player_section(player: Player, stats: dict[str, Any]) -> dict[str, Any]:
    """What the player page shows of Bruges: the generic figures, the engine's statistics
    (``info.stats``: points per category, majorities, statues, penalties, persons by group) and
    whether any of the scores comes from an edition not verified against the printed board."""
    info = get_engine(GAME_TYPE).info
    counts = [
        {"name": s.name, "label": STAT_LABELS.get(s.name, s.label), "value": stats.get(s.name)}
        for s in info.stats
        if stats.get(s.name) is not None
    ]
    unverified = (
        Seat.objects.filter(player=player, game__game_type=GAME_TYPE)
        .filter(Q(game__edition__verified=False))
        .exists()
    )
    return {
        "template": "web/bruges/player_section.html",
        "stats": stats,
        "counts": counts,
        "unverified": unverified,
        "unverified_words": words.UNVERIFIED,
    }
