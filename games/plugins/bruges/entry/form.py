"""``RoundForm``: the steps combined, and the cleaning that runs the step of the button
pressed (or takes back, brings back or starts the round again)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.plugins.bruges.entry.dice import DiceStep
from games.plugins.bruges.entry.draft import Draft, DraftError
from games.plugins.bruges.entry.draw import DrawStep
from games.plugins.bruges.entry.penalties import PenaltiesStep
from games.plugins.bruges.entry.review import ReviewStep
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
from games.plugins.bruges.entry.turns import TurnsStep
from games.plugins.bruges.entry.upkeep import UpkeepStep


class RoundForm(DrawStep, DiceStep, PenaltiesStep, UpkeepStep, TurnsStep, ReviewStep):
    """The next round, built step by step in ``draft``. Every field is optional to the form:
    what a step needs is checked by that step, and the rules by the engine."""

    template = "web/bruges/round_entry.html"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        try:
            Draft.parse(self.data.get("draft"))
        except DraftError:
            self.add_error(None, _("the round being entered was garbled: start the round again."))
            self._commit(Draft())
            return data
        # An entry for a round the game has left is answered by the view before this form
        # is read (``games.web.views.round_append``): the game as it is now, and a notice.
        step = self.data.get("step") or ""
        if step not in BUTTONS:
            step = {DICE: DICE, PHASE2: PHASE2, TURN: TURN, SAVE: SAVE}.get(self.stage, TURN)
            if self.stage == DRAW:  # Enter in the draw step: the effect typed, or go on
                step = UPKEEP if (self.data.get("u_person") or "").strip() else DRAW
        if step == UNDO:
            draft = self.current.copy()
            dice = dict(draft.dice or {})
            self.notice = draft.undo()
            self._commit(draft)
            if self.stage == DICE:  # the dice as they were, to change one
                self.data = self.data.copy()
                for c, v in dice.items():
                    self.data[f"dice_{c}"] = str(v)
            return data
        if step == RESUME:
            if self.reading.refusal is not None:
                self.engine_error(self.reading.refusal)
                return data
            self.notice = _("The round is back as it was being entered.")
            self._commit(self.current.copy())
            return data
        if step == RESTART:
            if self.draw_step:
                self.notice = _("Round %(number)s starts again from the effects at the draw.")
            else:
                self.notice = _("Round %(number)s starts again from the dice.")
            self.notice %= {"number": self.table.number}
            self._commit(Draft())
            return data
        if self.reading.refusal is not None and step not in (SAVE,):
            # What was entered before no longer reads (a forged or stale form): say where.
            self.engine_error(self.reading.refusal)
            return data
        handler = {
            DRAW: self._step_draw,
            DICE: self._step_dice,
            PHASE2: self._step_phase2,
            UPKEEP: self._step_upkeep,
            UPKEEP_PENALTY: self._step_upkeep_penalty,
            TURN: self._step_turn,
            MORE: self._step_turn,
            PENALTY: self._step_turn_penalty,
            PASS: self._step_pass,
            SAVE: self._step_save,
            CHANGE: self._step_change,
        }[step]
        handler(step)
        return data
