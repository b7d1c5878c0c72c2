"""Penalties and prestige (step 2): the penalties the dice triggered and the choices they
leave, who can pay for prestige, and the penalties and climbers typed."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.plugins.bruges import words
from games.plugins.bruges.entry.base import EntryForm
from games.plugins.bruges.entry.choices import penalty_entry, penalty_options
from games.plugins.bruges.entry.draft import Draft, moment_of
from scoring.engine.bruges.table import prestige_cost, read_table, round_progress, threat_colors


class PenaltiesStep(EntryForm):
    """The dice's penalties and the prestige climbed, asked and read."""

    def _draw_unresolved(self, draft: Draft) -> bool:
        """Whether an automatic effect at the draw left a penalty not entered yet (the dice's
        penalties are only known once the draw is settled)."""
        return self._upkeep_pending(draft, "draw") is not None

    def phase2_questions(self, draft: Draft | None = None) -> dict[str, Any]:
        """The penalties the dice triggered (and the ones needing a choice) and who can pay
        the prestige cost, read from the engine's state after the dice: the automatic effects
        at the draw (and the penalties they caused) come first, as in the round."""
        draft = draft or self.current
        dice = draft.dice or {}
        state = self.table.state
        draw_upkeep = [u for u in draft.upkeep if moment_of(u) == "draw"]
        waiting = self._draw_unresolved(draft)
        after_dice = round_progress(
            state, {"dice": dice, "upkeep": draw_upkeep, "penalties": [], "turns": []}
        )
        view = read_table(after_dice.state)
        penalties = []
        for seat, color in [] if waiting else view.pending:
            options = penalty_options(view, seat, color)
            penalties.append(
                {
                    "seat": seat,
                    "name": self.names[seat],
                    "color": color,
                    "what": words.PENALTY_NAMES[color],
                    "tokens_colour": words.colour(words.COLOR_FP, color),
                    "field": f"pen_{seat}_{color}",
                    "options": options,
                    "ask": len(options) > 1,
                    "verb": "discards" if color == "brown" else "loses",
                }
            )
        for q in penalties:
            plague = any(
                o["seat"] == q["seat"] and o["color"] == "brown" and o["options"] for o in penalties
            )
            q["order_field"] = f"fire_first_{q['seat']}" if q["color"] == "red" and plague else ""
        # Who can pay for prestige: florins after the penalties and the effects at the dice.
        defaults = [
            penalty_entry(q["seat"], q["color"], q["options"][0][0] if q["options"] else "")
            for q in penalties
        ]
        early = [u for u in draft.upkeep if moment_of(u) in ("draw", "dice")]
        before = read_table(
            round_progress(
                state, {"dice": dice, "upkeep": early, "penalties": defaults, "turns": []}
            ).state
        )
        cost = prestige_cost(dice)
        n = len(self.names)
        first = self.table.view.first_player
        climbers = []
        for k in range(n):
            me = before.seats[(first + k) % n]
            if cost == 0:
                why = ""
            elif me.step >= before.top_step:
                why = _("on the top step")
            elif me.florins < cost:
                why = ngettext(
                    "%(count)s florin: cannot pay %(cost)s",
                    "%(count)s florins: cannot pay %(cost)s",
                    me.florins,
                ) % {"count": me.florins, "cost": cost}
            else:
                why = ""
            climbers.append(
                {
                    "seat": me.seat,
                    "name": self.names[me.seat],
                    "florins": me.florins,
                    "step": me.step,
                    "can": cost > 0 and not why,
                    "why": why,
                    "field": f"climb_{me.seat}",
                    "checked": bool(self.value(f"climb_{me.seat}")),
                }
            )
        return {
            "dice": dice,
            "threats": threat_colors(dice),
            "cost": cost,
            "penalties": penalties,
            "waiting": waiting,
            "climbers": climbers,
            "view": view,
        }

    def _phase2_entries(
        self, report: bool = True, draft: Draft | None = None, defaults: bool = False
    ) -> tuple[list[dict[str, Any]], list[int]]:
        """The penalties and climbers typed (``report``: a choice left out is an error;
        ``defaults``: a choice left out is taken as the first option, for a trial)."""
        questions = self.phase2_questions(draft)
        penalties = []
        for q in questions["penalties"]:
            choice = ""
            if q["options"]:
                choice = (self.data.get(q["field"]) or "").strip()
                if choice not in {v for v, _label in q["options"]}:
                    choice = ""  # none, or one left from a penalty that is gone
                if not choice and (len(q["options"]) == 1 or defaults):
                    choice = q["options"][0][0]
                if not choice:
                    if report:
                        self.add_error(
                            q["field"],
                            _("%(name)s's %(colour)s penalty: choose what %(name)s loses.")
                            % {
                                "name": q["name"],
                                "colour": words.colour(words.COLOR_F, q["color"]),
                            },
                        )
                    continue
            penalties.append(penalty_entry(q["seat"], q["color"], choice))
        # The player applies several penalties in the order they like (the rulebook); listed by
        # colour, but a fire may come before a plague: a person in the house burnt goes back to
        # the hand first, and the plague takes another one, or none.
        view = questions["view"]
        for seat in range(len(self.names)):
            mine = {e["color"]: i for i, e in enumerate(penalties) if e["seat"] == seat}
            if not self._ticked(f"fire_first_{seat}") or not {"red", "brown"} <= set(mine):
                continue
            r, b = mine["red"], mine["brown"]
            fire, plague = penalties[r], penalties[b]
            house = fire.get("house")
            houses = view.seats[seat].houses
            saved = houses[house].person if isinstance(house, int) and house < len(houses) else None
            if saved is not None and plague.get("person") == saved:
                left = [pid for pid in view.seats[seat].persons if pid != saved]
                if not left:
                    plague = {"seat": seat, "color": "brown"}  # no one left to take
                elif report:
                    self.add_error(
                        f"pen_{seat}_brown",
                        _("That person goes back to the hand with the fire: choose another."),
                    )
            penalties[r], penalties[b] = plague, fire
        n = len(self.names)
        first = self.table.view.first_player
        climbers = [
            (first + k) % n for k in range(n) if self.cleaned_data.get(f"climb_{(first + k) % n}")
        ]
        return penalties, climbers

    def _ticked(self, name: str) -> bool:
        if hasattr(self, "cleaned_data") and name in self.cleaned_data:
            return bool(self.cleaned_data[name])
        return str(self.value(name) or "") not in ("", "off", "False", "false")

    def _step_phase2(self, step: str) -> None:
        if self.current.dice is None:
            self.add_error(None, _("Enter the dice first."))
            return
        if self.upkeep_question() is not None:
            self.add_error("t_choice", _("First say what the penalty takes."))
            return
        penalties, climbers = self._phase2_entries()
        if self.errors:
            return
        draft = self.current.copy()
        draft.penalties, draft.prestige, draft.phase2 = penalties, climbers, True
        reading = self._reading_of(draft)
        if reading.refusal is not None:
            self.engine_error(reading.refusal)
            return
        self._commit(draft)
        self.notice = _("Penalties and prestige entered: now the turns.")
