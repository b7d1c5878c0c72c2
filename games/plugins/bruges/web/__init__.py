"""Bruges's pieces of the web scorepad (found through ``plugin_for("bruges")``; the generic
pages in ``games/web/`` never import this package by name): the edition of a new game
(``new_game``), the round entry (its form in ``entry``, its steps in ``round_entry``, the
round in words in ``round_review``), the running table of every seat (``game_page``), the end
of the game with its laurel points (``finish``), the score sheet as in the rulebook's example
(``sheet.py``), a finished game entered by its final score sheet (``scorepad.py``), the player
page's section (``player_section``), the generic pages' words (``vocabulary``) and the edition
pages (``edition_pages.py``). Every number comes from the engine: its result
document (docs/bruges-engine.md) or, while a round is entered, its state part-way through the
round (``scoring.engine.bruges.table``).

The engine cannot tell when a game is over (draws are not logged): the table says so with
*Finish*, offered after any round beside the next round's entry, with each laurel person's
points.

The generic pages read the names below from this package (``games.web.present`` lists them),
so they stay here whichever module holds them.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from games.plugins.bruges import GAME_TYPE, edition_pages
from games.plugins.bruges.scorepad import ScorepadSheet
from games.plugins.bruges.web.finish import (
    LaurelsForm,
    finish_form,
    laurel_persons,
    laurels_form,
)
from games.plugins.bruges.web.game_page import edition_unverified, game_page, seat_rows
from games.plugins.bruges.web.new_game import NewGameOptions
from games.plugins.bruges.web.player_section import STAT_LABELS, player_section
from games.plugins.bruges.web.round_entry import (
    action_choices,
    effect_choices,
    entry_form,
    round_context,
    table_state,
)
from games.plugins.bruges.web.round_review import (
    dice_words,
    entry_review,
    entry_saved,
    present_list,
    review_context,
    upkeep_words,
)
from games.plugins.bruges.web.vocabulary import ENTRY_TEXTS, REFUSAL_VOCABULARY

__all__ = [
    "ENTRY_TEXTS",
    "GAME_TYPE",
    "MENU",
    "REFUSAL_VOCABULARY",
    "STAT_LABELS",
    "LaurelsForm",
    "NewGameOptions",
    "ScorepadSheet",
    "action_choices",
    "dice_words",
    "edition_unverified",
    "effect_choices",
    "entry_form",
    "entry_review",
    "entry_saved",
    "finish_form",
    "game_page",
    "laurel_persons",
    "laurels_form",
    "player_section",
    "present_list",
    "review_context",
    "round_context",
    "seat_rows",
    "table_state",
    "upkeep_words",
    "urlpatterns",
]

# Included by ``games/web/urls.py`` under the ``web`` namespace.
urlpatterns = edition_pages.urlpatterns

# Links of the main menu to pages of this game's own: (label, url name).
MENU = [(gettext_lazy("Bruges editions"), "web:bruges-editions")]
