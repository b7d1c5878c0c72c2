"""Any other game on the record side: a club's named games (``BoardGame``) and their plays,
recorded by their final scores only (``games.records.board_games``)."""

from django.utils.translation import pgettext_lazy

GAME_TYPE = "other"
# Not a name the same in every language, as the others' are: said in the reader's words.
LABEL = pgettext_lazy("game type", "Other game")
