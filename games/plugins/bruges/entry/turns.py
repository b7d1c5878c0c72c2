"""The turns (step 3): a card and its action, a person hired, an effect and when it came, a
penalty an effect causes, the turn closed, and a pass."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.plugins.bruges import words
from games.plugins.bruges.entry.base import EntryForm
from games.plugins.bruges.entry.choices import penalty_entry, penalty_options, split_person
from games.plugins.bruges.entry.draft import Draft, turn_plays
from games.plugins.bruges.entry.steps import MORE, TURN
from scoring.engine.bruges.rules import ACTIONS, HAND

NEW_PERSON = "new"  # the effect of the person hired by the card of the same step


class TurnsStep(EntryForm):
    """Each turn in order, step by step."""

    def _hire(self, seat: int) -> dict[str, Any] | str | None:
        """The person of a hire: the id of a person back in this seat's hand after a fire
        (``p_back``), or a new person's details (those of the last person met under that
        name, where left blank)."""
        data = self.cleaned_data
        view = self.reading.view
        back = (data.get("p_back") or "").strip()
        if back:
            return back
        name = (data.get("p_name") or "").strip()
        if not name:
            self.add_error("p_name", _("Who is hired? Type the person's name."))
            return None
        folded = name.casefold()
        known = next((p for p in reversed(view.persons) if p.name.casefold() == folded), None)
        price = data.get("p_price")
        group = data.get("p_group") or (known.group if known else "")
        icon = data.get("p_icon") or (known.icon if known else "")
        worker = data.get("p_worker") or (known.worker if known and known.worker else "")
        if price is None and known is not None:
            price = known.price
        if price is None:
            self.add_error("p_price", _("What does %(name)s cost?") % {"name": name})
        if not group:
            self.add_error("p_group", _("Which group is %(name)s in?") % {"name": name})
        if not icon:
            self.add_error("p_icon", _("Which icon has %(name)s?") % {"name": name})
        elif icon == "worker" and not worker:
            self.add_error(
                "p_worker", _("Which worker does %(name)s's activation cost?") % {"name": name}
            )
        if self.errors:
            return None
        person: dict[str, Any] = {
            "id": self._new_id(),
            "name": name,
            "price": price,
            "group": group,
            "icon": icon,
        }
        if icon == "worker":
            person["worker"] = worker
        return person

    def _new_id(self) -> str:
        taken = {p.id for p in self.reading.view.persons}
        k = len(taken) + 1
        while f"p{k}" in taken:
            k += 1
        return f"p{k}"

    def _card_step(self, seat: int) -> dict[str, Any] | None:
        data = self.cleaned_data
        card = data.get("card") or ""
        action = (data.get("action") or "").strip()
        if not card and not action:
            return None
        if not card:
            self.add_error("card", _("Which card (colour) was played?"))
        if not action:
            self.add_error("action", _("Which action did the card make?"))
        if self.errors:
            return None
        kind, _sep, arg = action.partition(":")
        step: dict[str, Any] = {"card": card, "action": kind}
        if kind == "canal":
            step["section"] = arg
        elif kind == "person":
            step["house"] = int(arg) if arg.isdigit() else arg
            person = self._hire(seat)
            if person is None:
                return None
            step["person"] = person
        elif kind not in ACTIONS:
            self.add_error("action", _("Choose one of the actions offered."))
            return None
        return step

    def _effect_step(self, seat: int, card: dict[str, Any] | None) -> dict[str, Any] | None:
        who = (self.cleaned_data.get("e_person") or "").strip()
        gain = self._gain()
        if not who:
            if gain:
                self.add_error("e_person", _("Whose effect gave this? Choose the person."))
            return None
        step: dict[str, Any]
        if who == NEW_PERSON:
            hired = (card or {}).get("person")
            if card is None or hired is None:
                self.add_error("e_person", _("No person is hired with this card."))
                return None
            pid = hired["id"] if isinstance(hired, dict) else hired
            step = {"effect": pid, "gain": gain}
        else:
            owner, pid = split_person(who)
            step = {"effect": pid, "gain": gain}
            if owner is not None and owner != seat:
                step = {"seat": owner, **step}
        return step

    def _step_turn(self, step: str) -> None:
        if self.stage != TURN:
            self.add_error(None, _("There is no turn to enter now."))
            return
        if self.pending_question() is not None:
            self.add_error("t_choice", _("First say what the penalty takes."))
            return
        seat = self.turn_seat
        card = self._card_step(seat)
        if self.errors:
            return
        effect = self._effect_step(seat, card)
        if self.errors:
            return
        before = effect is not None and self.cleaned_data.get("e_when") == "before"
        new = [s for s in ((effect, card) if before else (card, effect)) if s is not None]
        draft = self.current.copy()
        if not new and not draft.open:
            self.add_error("card", _("Which card did %(name)s play?") % {"name": self.names[seat]})
            return
        self._trying = new
        for k in range(1, len(new) + 1):
            trial = draft.copy()
            trial.open = [*draft.open, *new[:k]]
            reading = self._reading_of(trial)
            if reading.refusal is not None:
                self.engine_error(reading.refusal, step=new[k - 1])
                return
        draft.open = [*draft.open, *new]
        draft = self._auto_penalties(draft)
        self._commit(draft)
        self._close_turn(step)

    def _auto_penalties(self, draft: Draft) -> Draft:
        """Penalties an effect triggered that leave no choice follow at once."""
        for _k in range(10):
            reading = self._reading_of(draft)
            if not (reading.progress.error and reading.progress.error.code == "missing_penalty"):
                return draft
            view = reading.view
            due = [(s, c) for s, c in view.pending if len(penalty_options(view, s, c)) <= 1]
            if not due:
                return draft  # the rest leave a choice: asked (``pending_question``)
            seat, color = due[0]
            options = penalty_options(view, seat, color)
            choice = options[0][0] if options else ""
            entry = {"penalty": penalty_entry(seat, color, choice)}
            if draft.open:
                draft.open = [*draft.open, entry]
            else:
                return draft
        return draft

    def _close_turn(self, step: str) -> None:
        draft = self.current
        seat = self.turn_seat
        if self.pending_question() is not None:
            return
        cards, plays = turn_plays(draft.open)
        name = self.names[seat]
        if step == MORE or cards < plays:
            if cards < plays:
                left = plays - cards
                if cards == 0:
                    self.notice = ngettext(
                        "%(name)s plays %(count)s more card in this turn. The actions offered now "
                        "count what the effect gave.",
                        "%(name)s plays %(count)s more cards in this turn. The actions offered now "
                        "count what the effect gave.",
                        left,
                    ) % {"name": name, "count": left}
                else:
                    self.notice = ngettext(
                        "%(name)s plays %(count)s more card in this turn.",
                        "%(name)s plays %(count)s more cards in this turn.",
                        left,
                    ) % {"name": name, "count": left}
            else:
                self.notice = _("%(name)s's turn goes on: add an effect, or save the turn.") % {
                    "name": name
                }
            return
        closed = draft.copy()
        closed.turns = [*closed.turns, {"seat": seat, "steps": closed.open}]
        closed.open = []
        reading = self._reading_of(closed)
        if reading.refusal is not None:
            self.engine_error(reading.refusal)
            return
        self._commit(closed)
        number = len(closed.turns)
        if reading.complete:
            self.notice = _(
                "Turn %(number)s entered (%(name)s). Every turn is entered: check the round, then "
                "save it."
            ) % {"number": number, "name": name}
            self._ready = True  # the page's review comes next: nothing is stored before it
        else:
            # Translators: a turn is one player's go in phase 3 (one card and its action): the
            # Italian rulebook's "turno" is the round, so the turn is "mossa"; Portuguese
            # "rodada" for the round, "turno" for the turn.
            self.notice = _("Turn %(number)s entered (%(name)s).") % {
                "number": number,
                "name": name,
            }

    def pending_question(self) -> dict[str, Any] | None:
        """A penalty an effect of the turn being entered triggered, when it leaves a choice."""
        if self.stage != TURN or not self.current.open:
            return None
        progress = self.reading.progress
        if not (progress.error and progress.error.code == "missing_penalty"):
            return None
        view = self.reading.view
        if not view.pending:
            return None
        seat, color = view.pending[0]
        return {
            "seat": seat,
            "name": self.names[seat],
            "color": color,
            "what": words.PENALTY_NAMES[color],
            "tokens_colour": words.colour(words.COLOR_FP, color),
            "options": penalty_options(view, seat, color),
            "verb": "discards" if color == "brown" else "loses",
        }

    def _step_turn_penalty(self, step: str) -> None:
        question = self.pending_question()
        if question is None:
            self.add_error(None, _("No penalty is due now."))
            return
        choice = (self.cleaned_data.get("t_choice") or "").strip()
        if question["options"] and not choice:
            self.add_error("t_choice", _("What does %(name)s lose?") % {"name": question["name"]})
            return
        entry = {"penalty": penalty_entry(question["seat"], question["color"], choice)}
        draft = self.current.copy()
        draft.open = [*draft.open, entry]
        reading = self._reading_of(draft)
        if reading.refusal is not None:
            self.engine_error(reading.refusal, step=entry)
            return
        self._commit(self._auto_penalties(draft))
        self._close_turn(MORE)

    def can_pass(self) -> bool:
        draft = self.current
        return self.stage == TURN and not draft.open and self._cards(self.turn_seat) >= HAND

    def _cards(self, seat: int) -> int:
        draft = self.current
        count = 0
        for t in draft.turns:
            if t.get("seat") == seat:
                count += sum(1 for s in t.get("steps") or [] if "card" in s)
        if self.turn_seat == seat:
            count += sum(1 for s in draft.open if "card" in s)
        return count

    def cards_this_round(self) -> list[int]:
        return [self._cards(s) for s in range(len(self.names))]

    def _step_pass(self, step: str) -> None:
        if self.stage != TURN:
            self.add_error(None, _("There is no turn to pass now."))
            return
        if self.current.open:
            self.add_error("passing", _("This turn has steps already: take them back to pass."))
            return
        seat = self.turn_seat
        draft = self.current.copy()
        draft.turns = [*draft.turns, {"seat": seat, "pass": True}]
        reading = self._reading_of(draft)
        if reading.refusal is not None:
            self.engine_error(reading.refusal, passing=True)
            return
        self._commit(draft)
        params = {"number": len(draft.turns), "name": self.names[seat]}
        if reading.complete:
            self.notice = (
                _(
                    "Turn %(number)s: %(name)s passes. Every turn is entered: check the round, "
                    "then save it."
                )
                % params
            )
            self._ready = True  # the page's review comes next: nothing is stored before it
        else:
            self.notice = _("Turn %(number)s: %(name)s passes.") % params
