"""Bruges's round entry: the paper scorepad replaced by plain HTML forms, in steps, fit for a
phone without JavaScript.

0. The automatic effects at the draw (rules: the draw comes before the dice), asked first only
   when some seat has an automatic (infinity) person in play at the start of the round
   (otherwise the entry opens on the dice): the effects entered so far, one more to add (whose,
   what it gave; a penalty it causes is asked once, as the effect's), and "Roll the dice" to go
   on. The dice's penalties are then read after them.
1. The five dice.
2. The threat tokens everyone got and the penalties they trigger: only the choices that are
   needed are asked (brown: which person; red: which house or canal section; nothing when the
   player has nothing to lose or a single thing); the prestige cost and who can pay it (tick who
   climbs); the automatic effects of infinity persons after the dice or after prestige
   (upkeep), if any, each read at its moment; a penalty an effect causes is asked once, as the
   effect's, at the effect's moment.
3. Each turn in order (4 per player, clockwise from the round's first player): the card and
   one of the actions the seat can afford, a person's details when one is hired (persons met in
   this game are remembered by name), an effect entered from the person who caused it, and a
   penalty choice when an effect brings a seat to 3 tokens; a pass only for a seat that has
   played 5 cards this round. An action the seat cannot afford yet is not offered: an effect
   that pays for it is entered alone first, then the action is offered.
4. The review: once the last turn is entered the round is complete (``ready()``) and the page
   shows it whole in words (``web.entry_review``) with the scores after it; nothing is stored
   before its "Save". Its "Change" (``step=change``) opens the last turn again with every step
   entered; "Take back the last step" goes further back.

Refusals are shown in the players' terms (``refusal_words``): the player first, by name, persons
by name, houses counted from 1; the API keeps the engine's code and 0-based seat. A choice of a
person shows what tells apart two cards of the same name (price, icon, group, its house).

The round being built travels in the form (``draft``, a hidden JSON field) until it is complete
(the script also keeps it for the tab, and ``resume`` brings it back after a reload); then the
whole round goes to the engine. Every step is read by the engine as it is added
(``scoring.engine.bruges.table.round_progress``: a round not complete yet stops at what is
missing, with everything before it applied), so a refusal is shown beside the field that caused
it, nothing stored, and the running counts of every seat come from the engine itself.

One module a step, each a part of the form that ``form.RoundForm`` combines: ``draw`` (0),
``dice`` (1), ``penalties`` (2, the penalties and prestige), ``upkeep`` (the automatic effects, at
0 and 2), ``turns`` (3) and ``review`` (4). Beside them, ``base`` holds the fields and what the
steps share, ``steps`` the buttons, ``draft`` the round being built and the engine's reading of
it, ``choices`` a penalty's choices, and ``refusals`` the engine's refusals in words.
"""

from games.plugins.bruges.entry.base import EntryTable
from games.plugins.bruges.entry.choices import (
    penalty_entry,
    penalty_options,
    person_label,
    split_person,
)
from games.plugins.bruges.entry.draft import Draft, DraftError, Reading, read_draft, turn_plays
from games.plugins.bruges.entry.form import RoundForm
from games.plugins.bruges.entry.refusals import refusal_words
from games.plugins.bruges.entry.steps import (
    BUTTONS,
    CHANGE,
    DICE,
    DRAW,
    MORE,
    PASS,
    PENALTY,
    PHASE2,
    RESTART,
    RESUME,
    SAVE,
    TURN,
    UNDO,
    UPKEEP,
    UPKEEP_PENALTY,
)

__all__ = [
    "BUTTONS",
    "CHANGE",
    "DICE",
    "DRAW",
    "MORE",
    "PASS",
    "PENALTY",
    "PHASE2",
    "RESTART",
    "RESUME",
    "SAVE",
    "TURN",
    "UNDO",
    "UPKEEP",
    "UPKEEP_PENALTY",
    "Draft",
    "DraftError",
    "EntryTable",
    "Reading",
    "RoundForm",
    "penalty_entry",
    "penalty_options",
    "person_label",
    "read_draft",
    "refusal_words",
    "split_person",
    "turn_plays",
]
