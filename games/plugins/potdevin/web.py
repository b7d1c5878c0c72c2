"""Pot de Vin's pieces of the web scorepad (found through ``plugin_for("pot-de-vin")``; the
generic pages in ``games/web/`` never import this module by name): the new game's teams and
deck (``new_game.py``), the round entry with its card pickers (``rounds.py``), the Jokers on
finish (``finish.py``), the scorepad sheet (``scorepad.py``), the game page and the player
page's section with guild habits (``pages.py``; the tableaux and the scorepad breakdown in
``tables.py``), and the deck pages (``decks.py``); the words of them all are in ``words.py``.
Every number comes from the engine's result document (docs/pot-de-vin-engine.md)."""

from __future__ import annotations

from django.urls import path
from django.utils.translation import gettext_lazy

# The names this module had before its parts moved beside it stay importable from it: generic
# code reads the web part by name (``plugin_for(game_type).part("web")``).
from games.plugins.potdevin import GAME_TYPE as GAME_TYPE
from games.plugins.potdevin.decks import BUILTIN_DESCRIPTIONS as BUILTIN_DESCRIPTIONS
from games.plugins.potdevin.decks import GUILD_CARDS as GUILD_CARDS
from games.plugins.potdevin.decks import GUILD_CHOICES as GUILD_CHOICES
from games.plugins.potdevin.decks import DeckForm as DeckForm
from games.plugins.potdevin.decks import deck as deck
from games.plugins.potdevin.decks import deck_description as deck_description
from games.plugins.potdevin.decks import deck_detail as deck_detail
from games.plugins.potdevin.decks import deck_game_count as deck_game_count
from games.plugins.potdevin.decks import deck_list as deck_list
from games.plugins.potdevin.decks import deck_new as deck_new
from games.plugins.potdevin.decks import decks as decks
from games.plugins.potdevin.finish import JokersForm as JokersForm
from games.plugins.potdevin.finish import finish_form as finish_form
from games.plugins.potdevin.finish import joker_choices as joker_choices
from games.plugins.potdevin.new_game import TEAM_SEATINGS as TEAM_SEATINGS
from games.plugins.potdevin.new_game import NewGameOptions as NewGameOptions
from games.plugins.potdevin.new_game import parse_teams as parse_teams
from games.plugins.potdevin.new_game import team_choices as team_choices
from games.plugins.potdevin.new_game import team_seatings as team_seatings
from games.plugins.potdevin.pages import game_page as game_page
from games.plugins.potdevin.pages import player_guild_habits as player_guild_habits
from games.plugins.potdevin.pages import player_section as player_section
from games.plugins.potdevin.rounds import ROUND_WIDE_CODES as ROUND_WIDE_CODES
from games.plugins.potdevin.rounds import RoundForm as RoundForm
from games.plugins.potdevin.rounds import card_grid as card_grid
from games.plugins.potdevin.rounds import entry_form as entry_form
from games.plugins.potdevin.rounds import entry_review as entry_review
from games.plugins.potdevin.rounds import entry_saved as entry_saved
from games.plugins.potdevin.scorepad import ScorepadSheet as ScorepadSheet
from games.plugins.potdevin.tables import NEUTRAL_ROWS as NEUTRAL_ROWS
from games.plugins.potdevin.tables import breakdown_table as breakdown_table
from games.plugins.potdevin.tables import joker_cell as joker_cell
from games.plugins.potdevin.tables import names_key as names_key
from games.plugins.potdevin.tables import player_key as player_key
from games.plugins.potdevin.tables import standings as standings
from games.plugins.potdevin.tables import tableau_table as tableau_table
from games.plugins.potdevin.tables import tiebreak_words as tiebreak_words
from games.plugins.potdevin.tables import unit_names as unit_names
from games.plugins.potdevin.words import BONUS_CARDS as BONUS_CARDS
from games.plugins.potdevin.words import CHARACTER_NAMES as CHARACTER_NAMES
from games.plugins.potdevin.words import GEMS_WON as GEMS_WON
from games.plugins.potdevin.words import GUILD_LABELS as GUILD_LABELS
from games.plugins.potdevin.words import JOKERS as JOKERS
from games.plugins.potdevin.words import MALUS_CARDS as MALUS_CARDS
from games.plugins.potdevin.words import REFUSAL_VOCABULARY as REFUSAL_VOCABULARY
from games.plugins.potdevin.words import STAT_LABELS as STAT_LABELS
from games.plugins.potdevin.words import TABLEAU_LABELS as TABLEAU_LABELS
from games.records.models import Game
from games.records.selectors import engine_state
from scoring.engine.potdevin.table import TableState
from scoring.engine.potdevin.table import table_state as _table_of_state

# --- Reads ------------------------------------------------------------------------------------


def table_state(game: Game) -> TableState:
    """The table before the game's next round. Raises ``LogError`` if the stored rounds no
    longer replay (a deck or rules change)."""
    return _table_of_state(engine_state(game))


# Included by ``games/web/urls.py`` under the ``web`` namespace.
urlpatterns = [
    path("decks/", deck_list, name="decks"),
    path("decks/new/", deck_new, name="deck-new"),
    path("decks/<slug:key>/", deck_detail, name="deck"),
]

# Links of the main menu to pages of this game's own: (label, url name).
MENU = [(gettext_lazy("Decks"), "web:decks")]
