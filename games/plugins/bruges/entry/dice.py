"""The dice step (step 1): the five dice, and then the penalty choices that leave a single
option filled in."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.plugins.bruges import words
from games.plugins.bruges.entry.base import EntryForm
from games.plugins.bruges.entry.draft import Draft
from games.plugins.bruges.entry.steps import DICE, DRAW, PHASE2
from scoring.engine.bruges.rules import COLORS


class DiceStep(EntryForm):
    """The five dice read, and what they leave to ask."""

    def _step_dice(self, step: str) -> None:
        if self.stage not in (DRAW, DICE, PHASE2):
            self.add_error(None, _("The dice of this round are entered already."))
            return
        if self.stage == DRAW and self.upkeep_question() is not None:
            self.add_error("t_choice", _("First say what the penalty takes."))
            return
        dice = {}
        for c in COLORS:
            value = self.cleaned_data.get(f"dice_{c}")
            if value is None:
                self.add_error(
                    f"dice_{c}",
                    _("What does the %(colour)s die show?")
                    % {"colour": words.colour(words.COLOR_NAMES, c)},
                )
            else:
                dice[c] = value
        if self.errors:
            return
        draft = Draft(dice=dice, upkeep=list(self.current.upkeep), drawn=self.draw_step)
        reading = self._reading_of(draft)
        if reading.refusal is not None:
            self.engine_error(reading.refusal)
            return
        self._commit(draft)
        self._prefill_phase2()

    def _prefill_phase2(self) -> None:
        """The penalty choices with a single option are filled in (nothing to ask)."""
        data = self.data.copy()
        for q in self.phase2_questions()["penalties"]:
            if len(q["options"]) == 1:
                data[q["field"]] = q["options"][0][0]
        self.data = data
