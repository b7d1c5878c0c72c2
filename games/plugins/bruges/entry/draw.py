"""The draw step (step 0): once the automatic effects at the draw are entered (as every
automatic effect is, ``upkeep``), on to the dice."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.plugins.bruges.entry.base import EntryForm
from games.plugins.bruges.entry.steps import DRAW


class DrawStep(EntryForm):
    """The effects at the draw confirmed."""

    def _step_draw(self, step: str) -> None:
        """The effects at the draw are all entered: on to the dice."""
        if self.stage != DRAW:
            self.add_error(None, _("The effects at the draw are entered already."))
            return
        if self.upkeep_question() is not None:
            self.add_error("t_choice", _("First say what the penalty takes."))
            return
        if (self.cleaned_data.get("u_person") or "").strip():
            self.add_error(
                "u_person",
                _(
                    "This effect is not added yet: tap Add this effect, or choose — to leave it "
                    "out."
                ),
            )
            return
        draft = self.current.copy()
        draft.drawn = True
        self._commit(draft)
        count = len([u for u in draft.draw_entries() if "effect" in u])
        self.notice = (
            ngettext(
                "%(count)s effect at the draw entered: now the dice.",
                "%(count)s effects at the draw entered: now the dice.",
                count,
            )
            % {"count": count}
            if count
            else _("No effect at the draw: now the dice.")
        )
