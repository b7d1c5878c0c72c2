"""Complots' pieces of the web scorepad (found through ``plugin_for("complots")``; the generic
pages in ``games/web/`` never import this module by name): the variant of a new game, the turn
entry (``turns.py``, with the rules by name and the table before a turn in ``table.py``), the
result of a game known by its result only (``result.py``: who went out first, second..., and the
counts kept), the game page (``pages.py``: the table of coins, influences and face-up cards, the
ranking with the K4 counts) and the player page's section; the words of them all are in
``words.py``.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

# The names this module had before its parts moved beside it stay importable from it: generic
# code reads the web part by name (``plugin_for(game_type).part("web")``).
from games.plugins.complots import GAME_TYPE as GAME_TYPE
from games.plugins.complots.pages import TIEBREAK_SENTENCES as TIEBREAK_SENTENCES
from games.plugins.complots.pages import counts_table as counts_table
from games.plugins.complots.pages import game_page as game_page
from games.plugins.complots.pages import player_section as player_section
from games.plugins.complots.pages import ranking as ranking
from games.plugins.complots.pages import seat_rows as seat_rows
from games.plugins.complots.pages import tiebreak_words as tiebreak_words
from games.plugins.complots.pages import turn_context as turn_context
from games.plugins.complots.result import COUNT_CODES as COUNT_CODES
from games.plugins.complots.result import ORDER_CODES as ORDER_CODES
from games.plugins.complots.result import ScorepadSheet as ScorepadSheet
from games.plugins.complots.table import Table as Table
from games.plugins.complots.table import allowed_actions as allowed_actions
from games.plugins.complots.table import block_characters as block_characters
from games.plugins.complots.table import blocked_by_target_only as blocked_by_target_only
from games.plugins.complots.table import claim_of as claim_of
from games.plugins.complots.table import game_characters as game_characters
from games.plugins.complots.table import is_blockable as is_blockable
from games.plugins.complots.table import is_targeted as is_targeted
from games.plugins.complots.table import required_losses as required_losses
from games.plugins.complots.table import table_state as table_state
from games.plugins.complots.turns import ACTION_FIELDS as ACTION_FIELDS
from games.plugins.complots.turns import FIELD_OF_CODE as FIELD_OF_CODE
from games.plugins.complots.turns import LOSS_CODES as LOSS_CODES
from games.plugins.complots.turns import MAX_LOSSES as MAX_LOSSES
from games.plugins.complots.turns import NO as NO
from games.plugins.complots.turns import STEP_ACTION as STEP_ACTION
from games.plugins.complots.turns import STEP_DETAILS as STEP_DETAILS
from games.plugins.complots.turns import STEP_SAVE as STEP_SAVE
from games.plugins.complots.turns import YES as YES
from games.plugins.complots.turns import TurnForm as TurnForm
from games.plugins.complots.turns import entry_form as entry_form
from games.plugins.complots.turns import entry_review as entry_review
from games.plugins.complots.turns import entry_saved as entry_saved
from games.plugins.complots.words import ACTION_LABELS as ACTION_LABELS
from games.plugins.complots.words import CHALLENGE_QUESTIONS as CHALLENGE_QUESTIONS
from games.plugins.complots.words import CHARACTER_LABELS as CHARACTER_LABELS
from games.plugins.complots.words import CLAIM_NOTES as CLAIM_NOTES
from games.plugins.complots.words import CLAIM_SHOWN as CLAIM_SHOWN
from games.plugins.complots.words import ENTRY_TEXTS as ENTRY_TEXTS
from games.plugins.complots.words import EXCHANGE_LABELS as EXCHANGE_LABELS
from games.plugins.complots.words import LAST_STANDING as LAST_STANDING
from games.plugins.complots.words import LOSS_WORDS as LOSS_WORDS
from games.plugins.complots.words import OUT_LABELS as OUT_LABELS
from games.plugins.complots.words import REFUSAL_VOCABULARY as REFUSAL_VOCABULARY
from games.plugins.complots.words import STAT_LABELS as STAT_LABELS
from games.plugins.complots.words import VARIANT_LABELS as VARIANT_LABELS
from games.plugins.complots.words import action_label as action_label
from games.plugins.complots.words import character_label as character_label
from games.plugins.complots.words import stat_label as stat_label
from games.plugins.complots.words import turn_words as turn_words
from scoring.engine.complots.rules import VARIANT_NAMES

# --- New game: the variant ----------------------------------------------------------------------


class NewGameOptions(forms.Form):
    """Complots' own options of a new game: which fifth character is in play."""

    template = "web/complots/new_game_options.html"

    variant = forms.ChoiceField(
        choices=[(v, VARIANT_LABELS[v]) for v in VARIANT_NAMES],
        initial=VARIANT_NAMES[0],
        widget=forms.RadioSelect,
        label=gettext_lazy("Variant"),
        help_text=gettext_lazy(
            "The Inquisitor also inquires: it looks at a card of another player."
        ),
    )

    def check(self, players: int) -> bool:
        return True

    def game_kwargs(self) -> dict[str, Any]:
        return {"variant": self.cleaned_data["variant"]}


# --- Finish: nothing to choose ------------------------------------------------------------------


def finish_form(result: dict[str, Any], data: Any = None) -> None:
    return None  # Complots has no end-of-game choices
