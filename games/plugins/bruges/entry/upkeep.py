"""The automatic effects of infinity persons outside the turns (upkeep): at the draw
(step 0), after the dice or after prestige (step 2), and the penalties they cause."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.plugins.bruges import words
from games.plugins.bruges.entry.base import EntryForm
from games.plugins.bruges.entry.choices import penalty_entry, penalty_options, split_person
from games.plugins.bruges.entry.draft import QUIET_DICE, Draft, moment_of
from games.plugins.bruges.entry.steps import DRAW, PHASE2
from scoring.engine.bruges.rules import AT_NAMES
from scoring.engine.bruges.table import RoundProgress, Table, read_table, round_progress


class UpkeepStep(EntryForm):
    """An automatic effect added, and a penalty it caused asked."""

    def _step_upkeep(self, step: str) -> None:
        """An infinity person's effect outside the turns: at the draw in the draw step (before
        the dice), after the dice or after prestige with the penalties and prestige (what was
        typed there is kept)."""
        stage = self.stage
        if stage not in (DRAW, PHASE2):
            self.add_error(None, _("No automatic effect can be entered now."))
            return
        if self.upkeep_question() is not None:
            self.add_error("t_choice", _("First say what the penalty takes."))
            return
        owner, pid = split_person((self.cleaned_data.get("u_person") or "").strip())
        if not pid or owner is None:
            self.add_error("u_person", _("Whose effect was it? Choose the person."))
            return
        at = "draw" if stage == DRAW else self.cleaned_data.get("u_at") or "dice"
        if at == "draw" and stage != DRAW:
            self.add_error(
                "u_at",
                _("An effect at the draw comes before the dice: take back the steps to the draw."),
            )
            return
        entry = {"seat": owner, "effect": pid, "gain": self._gain(), "at": at}
        draft = self.current.copy()
        draft.upkeep = [*draft.upkeep, entry]
        self._add_upkeep(draft, entry)

    def _upkeep_progress(self, draft: Draft, moment: str) -> RoundProgress:
        """The draft's phase 2 read up to the automatic effects of ``moment`` (those of later
        moments left out; prestige left out: a later effect may pay for it). At the draw, the
        dice are not rolled yet: dice that give nothing stand in for them."""
        moments = AT_NAMES[: AT_NAMES.index(moment) + 1]
        entries = [u for u in draft.upkeep if moment_of(u) in moments]
        state = self.table.state
        if moment == "draw":
            return round_progress(state, {"dice": QUIET_DICE, "upkeep": entries, "turns": []})
        penalties, _climbers = self._phase2_entries(report=False, draft=draft, defaults=True)
        return round_progress(
            state,
            {"dice": draft.dice or {}, "upkeep": entries, "penalties": penalties, "turns": []},
        )

    def _upkeep_pending(self, draft: Draft, moment: str) -> tuple[Table, int, str] | None:
        """The penalty an automatic effect of ``moment`` triggered and that is not entered
        yet: (the table then, seat, colour)."""
        if not any(moment_of(u) == moment for u in draft.upkeep):
            return None
        progress = self._upkeep_progress(draft, moment)
        error = progress.error
        if not (error and error.code == "missing_penalty" and error.turn is None):
            return None
        view = read_table(progress.state)
        if not view.pending:
            return None
        seat, color = view.pending[0]
        return view, seat, color

    def _add_upkeep(self, draft: Draft, entry: dict[str, Any]) -> None:
        at = moment_of(entry)
        progress = self._upkeep_progress(draft, at)
        refusal = progress.error
        if refusal is not None and refusal.code not in ("missing_penalty", "missing_turn"):
            self.engine_error(refusal, upkeep=True)
            return
        # Penalties the effect triggered follow it, with the same moment; those leaving no
        # choice at once, the others asked next (``upkeep_question``).
        for _k in range(10):
            pending = self._upkeep_pending(draft, at)
            if pending is None:
                break
            view, seat, color = pending
            options = penalty_options(view, seat, color)
            if len(options) > 1:
                break
            choice = options[0][0] if options else ""
            draft.upkeep = [
                *draft.upkeep,
                {"penalty": penalty_entry(seat, color, choice), "at": at},
            ]
        keep = [f for f in self.fields if f.startswith(("pen_", "climb_", "fire_first_"))]
        self._commit(draft, keep=keep)
        self.notice = (
            _("Effect at the draw added.") if at == "draw" else _("Automatic effect added.")
        )

    def upkeep_question(self) -> dict[str, Any] | None:
        """A penalty an automatic effect triggered and that is not entered yet, at the first
        moment of the round where one is missing."""
        if self.stage not in (DRAW, PHASE2) or not self.current.upkeep:
            return None
        for moment in AT_NAMES if self.stage == PHASE2 else ("draw",):
            pending = self._upkeep_pending(self.current, moment)
            if pending is None:
                continue
            view, seat, color = pending
            return {
                "seat": seat,
                "name": self.names[seat],
                "color": color,
                "what": words.PENALTY_NAMES[color],
                "tokens_colour": words.colour(words.COLOR_FP, color),
                "options": penalty_options(view, seat, color),
                "verb": "discards" if color == "brown" else "loses",
                "at": moment,
                "at_words": words.AT_LABELS[moment],
            }
        return None

    def _step_upkeep_penalty(self, step: str) -> None:
        question = self.upkeep_question()
        if question is None:
            self.add_error(None, _("No penalty is due now."))
            return
        choice = (self.cleaned_data.get("t_choice") or "").strip()
        if question["options"] and not choice:
            self.add_error("t_choice", _("What does %(name)s lose?") % {"name": question["name"]})
            return
        entry = {
            "penalty": penalty_entry(question["seat"], question["color"], choice),
            "at": question["at"],
        }
        draft = self.current.copy()
        draft.upkeep = [*draft.upkeep, entry]
        self._add_upkeep(draft, entry)
