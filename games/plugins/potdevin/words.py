"""Pot de Vin in words, for the pages: the guilds and dignitaries as the rulebooks name them,
the tableau's rows, the statistics and the refusal words."""

from __future__ import annotations

from django.utils.translation import gettext_lazy, pgettext_lazy

from games.web import refusals

# The guilds as the rulebooks name them (the codes stay in the data).
GUILD_LABELS = {
    "nobles": pgettext_lazy("pot de vin guild", "Nobles"),
    "artists": pgettext_lazy("pot de vin guild", "Artists"),
    "traders": pgettext_lazy("pot de vin guild", "Traders"),
    "workmen": pgettext_lazy("pot de vin guild", "Workmen"),
    "knights": pgettext_lazy("pot de vin guild", "Knights"),
    "assassins": pgettext_lazy("pot de vin guild", "Assassins"),
}
# The four dignitaries by their card letter: names, the same in every rulebook (marked so that
# every page's text goes through the catalogues).
CHARACTER_NAMES = {
    "A": pgettext_lazy("pot de vin dignitary", "Aldo"),
    "P": pgettext_lazy("pot de vin dignitary", "Pietra"),
    "E": pgettext_lazy("pot de vin dignitary", "Enzo"),
    "U": pgettext_lazy("pot de vin dignitary", "Ugo"),
}
JOKERS = pgettext_lazy("pot de vin cards", "Jokers")
# The engine's codes and log keys in the players' words, for its refusals on the pages.
REFUSAL_VOCABULARY = refusals.Vocabulary(
    words={
        "pot_de_vin": "Pot de Vin",
        "trump_pile": gettext_lazy("the trump pile"),
        # Translators: the cards dealt to each player at the start (the log's "hands").
        "hands": gettext_lazy("the deal"),
        "jokers": gettext_lazy("the Jokers"),
        "plays": gettext_lazy("the plays"),
        # Translators: a player's pass (paying a gem instead of playing a card).
        "pass": gettext_lazy("pass"),
    }
)
# The statistics' labels (scoring/engine/potdevin/info.py, and this game's own counters in
# stats.py), for the pages (``present.stat_label``).
STAT_LABELS = {
    "rounds_won": gettext_lazy("Rounds won"),
    "cards_won": gettext_lazy("Cards won"),
    "gems_paid": gettext_lazy("Gems paid"),
    "gems_won": gettext_lazy("Gems won"),
    "logged_games": gettext_lazy("Games logged round by round"),
    # Translators: games where the player held all four Pot de Vin cards.
    "pot_de_vin_sweeps": gettext_lazy("Pot de Vin sweeps"),
    # Translators: a player not following the lead's character when able, found after the fact.
    "revokes": gettext_lazy("Revokes"),
}
BONUS_CARDS = gettext_lazy("+2 cards")
MALUS_CARDS = gettext_lazy("−2 cards")
GEMS_WON = gettext_lazy("Gems won")
TABLEAU_LABELS = {
    **GUILD_LABELS,
    "jokers": JOKERS,
    "bonus": BONUS_CARDS,
    "malus": MALUS_CARDS,
    "pot_de_vin": gettext_lazy("Pot de Vin cards"),
    "gems": GEMS_WON,
    "cards": gettext_lazy("Cards won (all)"),
}
