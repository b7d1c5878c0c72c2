"""Bruges's words for the generic pages: the log's keys in their refusals, and their sentences
about a round in the rulebook's words."""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

from games.plugins.bruges import words
from games.web import refusals

# The words of the log's keys for the generic pages' refusals (``games.web.refusals``; the round
# entry words its own with ``entry.refusal_words``, which also names persons and houses).
REFUSAL_VOCABULARY = refusals.Vocabulary(words=words.LOG_KEY_WORDS)


# The generic pages' sentences about a round (``present.ENTRY_TEXTS``), Bruges' own: the Italian
# rulebook calls a round "turno" (and the other games' rounds are "round").
ENTRY_TEXTS = {
    "first_player_help": pgettext_lazy(
        "bruges round", "Who starts round 1 (chosen at random at the table)."
    ),
    # Translators: a refusal about one round of a game; %(refusal)s is a whole sentence.
    "refusal": pgettext_lazy("bruges round", "Round %(number)s: %(refusal)s"),
    # Translators: %(refusal)s is the reason, a whole sentence.
    "no_replay": pgettext_lazy("bruges round", "The stored rounds no longer replay. %(refusal)s"),
    "no_more": pgettext_lazy("bruges round", "This game takes no more rounds."),
    "ended_after": pgettext_lazy("bruges round", "The game ended after round %(number)s."),
    "undone": pgettext_lazy("bruges round", "The last round was undone."),
    "reopened": pgettext_lazy(
        "bruges round", "Game reopened: rounds can be undone or added again."
    ),
    "next": pgettext_lazy("bruges round", "The next round"),
    "undo": pgettext_lazy("bruges round", "Undo round %(number)s"),
    "save": pgettext_lazy("bruges round", "Save round %(number)s"),
    "scorepad_help": pgettext_lazy(
        "bruges round",
        "For a game played without logging rounds: type each player's final sheet, and the "
        "engine scores it with the same rules and tie-breaks.",
    ),
    "history_added": pgettext_lazy("bruges round", "Round %(number)s entered"),
    "history_corrected": pgettext_lazy("bruges round", "Round %(number)s corrected"),
    "history_undone": pgettext_lazy("bruges round", "Round %(number)s undone"),
    "live_added": pgettext_lazy(
        "bruges round", "Round %(number)s was saved from another page or phone."
    ),
    "live_corrected": pgettext_lazy(
        "bruges round", "Round %(number)s was corrected from another page or phone."
    ),
    "live_undone": pgettext_lazy(
        "bruges round", "Round %(number)s was undone from another page or phone."
    ),
    # Translators: a page posted a round the game already has (a page left open, Back, a
    # second phone): the game is shown as it is now, with this notice.
    "moved_on": pgettext_lazy(
        "bruges round",
        "Round %(number)s was already saved from another page or phone: here is the game as it "
        "is now; enter round %(next)s.",
    ),
    # Translators: a page posted a round after the rounds before it were undone elsewhere.
    "moved_back": pgettext_lazy(
        "bruges round",
        "Round %(number)s was undone from another page or phone: here is the game as it is now; "
        "enter round %(next)s.",
    ),
    # The question before the last round is undone (``games.web.confirm``).
    "undo_question": pgettext_lazy("bruges round", "Undo round %(number)s?"),
    "undo_goes": pgettext_lazy(
        "bruges round",
        "Round %(number)s is deleted with everything entered in it: the game goes back to how "
        "it stood before it. The rounds before it stay as they are.",
    ),
    "undo_gone": pgettext_lazy(
        "bruges round",
        "Round %(number)s was already undone from another page or phone: nothing more was "
        "undone. Here is the game as it is now.",
    ),
    "undo_stale": pgettext_lazy(
        "bruges round",
        "Round %(number)s was not undone: it is no longer the last round, as round %(last)s was "
        "saved since from another page or phone. Here is the game as it is now.",
    ),
}
