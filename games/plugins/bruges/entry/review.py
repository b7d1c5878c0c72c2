"""The review (step 4): the complete round goes to the page's review, whose "Change" opens
the last turn again; and what the view asks of the form once it is cleaned."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.plugins.bruges import words
from games.plugins.bruges.entry.base import EntryForm
from games.plugins.bruges.entry.steps import SAVE


class ReviewStep(EntryForm):
    """The round complete, checked before it is saved."""

    def _step_save(self, step: str) -> None:
        """The round complete: to the review (and from the review's "Save", stored)."""
        if self.stage != SAVE:
            self.add_error(None, _("The round is not complete yet."))
            return
        self._ready = True

    def _step_change(self, step: str) -> None:
        """From the review: the last turn back in the form with all its steps (a pass is
        taken back), nothing else lost."""
        draft = self.current.copy()
        if not draft.turns or draft.open:
            self.notice = draft.undo()
            self._commit(draft)
            return
        last = draft.turns.pop()
        if not last.get("pass"):
            draft.open = list(last.get("steps") or [])
        self._commit(draft)
        name = words.seat_name(last.get("seat"), self.names)
        self.notice = _(
            "Turn %(number)s (%(name)s) is open again with what was entered: add to it, take "
            "back its last step, or save it again."
        ) % {"number": len(draft.turns) + 1, "name": name}

    # What the view asks.

    def ready(self) -> bool:
        return self._ready

    def entry_data(self) -> dict[str, Any]:
        return self.current.entry()
