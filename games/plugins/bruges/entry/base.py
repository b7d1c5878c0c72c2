"""What every step of the round entry shares: the game as the entry gets it (``EntryTable``),
the form's fields, the draft it carries and the engine's reading of it, and the refusals shown
beside the fields that caused them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.plugins.bruges import words
from games.plugins.bruges.entry.choices import choice_of
from games.plugins.bruges.entry.draft import Draft, DraftError, Reading, read_draft
from games.plugins.bruges.entry.refusals import refusal_words
from games.plugins.bruges.entry.steps import DICE, PHASE2, TURN
from games.records.errors import RecordError
from scoring.engine import LogError
from scoring.engine.bruges.play import State
from scoring.engine.bruges.rules import AT_NAMES, COLORS, GROUPS, ICONS, PRICES
from scoring.engine.bruges.table import Table

DIE_VALUES = range(1, 7)
GAIN_NUMBERS = ("florins", "points", "prestige")
MAX_GAIN = 99


def _int_field(label: Any, **kwargs: Any) -> forms.IntegerField:
    attrs = {"inputmode": "numeric", "class": "num-in", "autocomplete": "off"}
    return forms.IntegerField(
        required=False,
        label=label,
        min_value=-MAX_GAIN,
        max_value=MAX_GAIN,
        widget=forms.NumberInput(attrs=attrs),
        **kwargs,
    )


@dataclass(frozen=True)
class EntryTable:
    """The game before its next round, as the entry needs it (``web.table_state``)."""

    number: int  # the next round's number
    over: bool  # never: the table says when the game ends (Finish), not the engine
    state: State  # the engine's state after the stored rounds
    view: Table
    names: list[str]
    rounds_played: int


class EntryForm(forms.Form):
    """The round entry's fields and the state its steps share (``form.RoundForm`` adds the
    steps). The fields are all declared here rather than with their steps: several serve more
    than one step (an effect's gain, a penalty's choice, the fields a refusal is shown beside),
    and they keep the one order the form has always had."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    draft = forms.CharField(widget=forms.HiddenInput, required=False)
    # Phase 3: the card and its action.
    card = forms.ChoiceField(choices=[(c, c) for c in COLORS], required=False)
    action = forms.CharField(required=False, max_length=32)
    p_back = forms.CharField(required=False, max_length=80, label=gettext_lazy("Back in the hand"))
    p_name = forms.CharField(required=False, max_length=80, label=gettext_lazy("Name"))
    p_price = forms.TypedChoiceField(
        choices=[("", "—"), *((str(p), str(p)) for p in PRICES)],
        coerce=int,
        empty_value=None,
        required=False,
        label=gettext_lazy("Price"),
    )
    p_group = forms.ChoiceField(
        choices=[("", "—"), *((g, words.GROUP_LABELS[g]) for g in GROUPS)],
        required=False,
        label=gettext_lazy("Group"),
    )
    p_icon = forms.ChoiceField(
        choices=[("", "—"), *((i, words.ICON_LABELS[i]) for i in ICONS)],
        required=False,
        label=gettext_lazy("Icon"),
    )
    p_worker = forms.ChoiceField(
        choices=[("", "—"), *((c, words.COLOR_LABELS[c]) for c in COLORS)],
        required=False,
        label=gettext_lazy("Worker it pays (worker icon)"),
    )
    # An effect: the person who caused it and the gain.
    e_person = forms.CharField(required=False, max_length=80, label=gettext_lazy("Whose effect"))
    e_when = forms.ChoiceField(
        choices=[
            ("after", gettext_lazy("After the card")),
            ("before", gettext_lazy("Before the card")),
        ],
        required=False,
        initial="after",
        label=gettext_lazy("When"),
    )
    g_florins = _int_field(gettext_lazy("Florins"))
    g_points = _int_field(gettext_lazy("Points"))
    g_prestige = _int_field(gettext_lazy("Prestige steps"))
    g_plays = forms.IntegerField(
        required=False,
        min_value=0,
        max_value=9,
        label=gettext_lazy("Extra card plays"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-in"}),
    )
    u_person = forms.CharField(required=False, max_length=80, label=gettext_lazy("Whose effect"))
    u_at = forms.ChoiceField(
        choices=[(a, words.AT_LABELS[a]) for a in AT_NAMES],
        required=False,
        initial="dice",
        label=gettext_lazy("When"),
    )
    t_choice = forms.CharField(required=False, max_length=80)  # a penalty in a turn
    passing = forms.CharField(required=False, max_length=1)  # the pass's errors go here
    gain = forms.CharField(required=False, max_length=1)  # an effect's errors go here
    upkeep = forms.CharField(required=False, max_length=1)  # an upkeep entry's errors

    def __init__(self, *args: Any, table: EntryTable, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.names = table.names
        self.total = table.view.turns
        # The draw step: some seat has an automatic person in play at the start of the round.
        self.draw_step = any(
            p.status == "in_play" and p.icon == "infinity" for p in table.view.persons
        )
        for c in COLORS:
            self.fields[f"dice_{c}"] = forms.TypedChoiceField(
                choices=[(str(v), str(v)) for v in DIE_VALUES],
                coerce=int,
                empty_value=None,
                required=False,
                label=words.COLOR_LABELS[c],
            )
            self.fields[f"g_w_{c}"] = _int_field(words.WORKER_LABELS[c])
            self.fields[f"g_t_{c}"] = _int_field(words.THREAT_LABELS[c])
        for seat in range(len(self.names)):
            self.fields[f"climb_{seat}"] = forms.BooleanField(
                required=False, label=_("%(name)s climbs") % {"name": self.names[seat]}
            )
            for c in COLORS:
                self.fields[f"pen_{seat}_{c}"] = forms.CharField(required=False, max_length=80)
            self.fields[f"fire_first_{seat}"] = forms.BooleanField(
                required=False, label=_("The fire before the plague")
            )
        self.turn_errors: dict[int, str] = {}  # 1-based turn -> the engine's refusal
        self._trying: list[dict[str, Any]] = []  # the steps being tried (for the refusal)
        self.notice = ""
        self._ready = False
        self._set_draft(self._posted_draft())

    # The draft and what the engine read of it.

    def _posted_draft(self) -> Draft:
        if not self.is_bound:
            return Draft()
        try:
            return Draft.parse(self.data.get("draft"))
        except DraftError:
            return Draft()

    def _set_draft(self, draft: Draft) -> None:
        self.current = draft
        self.reading = read_draft(self.table.state, draft, self.total)

    def _reading_of(self, draft: Draft) -> Reading:
        return read_draft(self.table.state, draft, self.total)

    @property
    def stage(self) -> str:
        return self.current.stage(self.total, draw=self.draw_step)

    @property
    def turn_index(self) -> int:
        return len(self.current.turns)

    @property
    def turn_seat(self) -> int:
        return self.table.view.turn_seat(self.turn_index)

    def _commit(self, draft: Draft, *, keep: Sequence[str] = ()) -> None:
        """Take ``draft`` as the round so far; the step's fields are emptied for the next."""
        self._set_draft(draft)
        data = self.data.copy()
        for name in self.fields:
            if name not in ("number", *keep):
                data.pop(name, None)
        data["draft"] = draft.dump()
        self.data = data
        self._prefill()

    def _prefill(self) -> None:
        """Going back to the dice or the penalties shows what was entered."""
        draft = self.current
        if self.stage == DICE or self.stage == PHASE2:
            data = self.data.copy()
            for c, v in (draft.dice or {}).items():
                data[f"dice_{c}"] = str(v)
            for entry in draft.penalties:
                if isinstance(entry, dict):
                    data[f"pen_{entry.get('seat')}_{entry.get('color')}"] = choice_of(entry)
            for seat in draft.prestige:
                data[f"climb_{seat}"] = "on"
            colors = [
                (e.get("seat"), e.get("color")) for e in draft.penalties if isinstance(e, dict)
            ]
            for seat in range(len(self.names)):
                both = (seat, "red") in colors and (seat, "brown") in colors
                if both and colors.index((seat, "red")) < colors.index((seat, "brown")):
                    data[f"fire_first_{seat}"] = "on"
            self.data = data

    # Reading the fields.

    def value(self, name: str) -> Any:
        """A field's value as posted (or as the step left it)."""
        if not self.is_bound:
            return self.initial.get(name, self.fields[name].initial if name in self.fields else "")
        return self.data.get(name, "")

    def _gain(self) -> dict[str, Any]:
        data = self.cleaned_data
        gain: dict[str, Any] = {}
        for key in GAIN_NUMBERS:
            value = data.get(f"g_{key}")
            if value:
                gain[key] = value
        for key, prefix in (("workers", "g_w_"), ("threats", "g_t_")):
            parts = {c: data[f"{prefix}{c}"] for c in COLORS if data.get(f"{prefix}{c}")}
            if parts:
                gain[key] = parts
        if data.get("g_plays"):
            gain["plays"] = data["g_plays"]
        return gain

    # Refusals.

    def engine_error(
        self,
        exc: LogError | RecordError,
        *,
        step: Mapping[str, Any] | None = None,
        passing: bool = False,
        upkeep: bool = False,
    ) -> None:
        """Show the engine's refusal beside the field or the turn that caused it; nothing is
        stored and the round entered so far is kept."""
        if isinstance(exc, RecordError):
            self.add_error(None, exc.message)
            return
        persons = words.person_names(self.reading.view.persons)
        for s in [*self.current.open, *self._trying]:  # a person hired in the step refused
            given = s.get("person") if isinstance(s, dict) else None
            if isinstance(given, dict) and given.get("id") not in persons:
                persons[str(given.get("id"))] = str(given.get("name"))
        text = refusal_words(exc, self.names, persons)
        open_turn = len(self.current.turns) + 1
        if exc.turn is not None:
            if passing:
                self.add_error("passing", text)
            elif exc.turn == open_turn and self.stage == TURN:
                self.add_error(self._turn_field(exc, step), text)
            else:
                self.turn_errors[exc.turn] = text
                self.add_error(
                    None, _("Turn %(number)s: %(message)s") % {"number": exc.turn, "message": text}
                )
            return
        field_name = self._phase2_field(exc, upkeep)
        self.add_error(field_name, text)

    def _turn_field(self, exc: LogError, step: Mapping[str, Any] | None) -> str | None:
        code = exc.code
        if step is not None and "penalty" in step:
            return "t_choice"
        if step is not None and "effect" in step:
            return "e_person" if code in ("unknown_person", "person_gone") else "gain"
        if code in ("bad_card", "wrong_play_count"):
            return "card"
        if code == "bad_person":
            return "p_name"
        if code in ("unknown_person", "person_gone"):
            return "p_back"
        if code == "not_enough_florins" and (self.data.get("action") or "").startswith("person"):
            return "p_price"
        if code in ("effect_not_allowed", "bad_gain", "below_zero"):
            return "gain"
        if code == "missing_penalty":
            return "t_choice"
        if code == "out_of_turn":
            return None
        return "action"

    def _phase2_field(self, exc: LogError, upkeep: bool) -> str | None:
        code, seat = exc.code, exc.seat
        if code == "bad_dice":
            return "dice_" + next((c for c in COLORS if c in exc.message), COLORS[0])
        if upkeep or code in ("effect_not_allowed", "bad_gain", "below_zero", "unknown_person"):
            return "upkeep"
        if code in ("unexpected_penalty", "bad_penalty_choice", "missing_penalty", "bad_color"):
            color = next((c for c in COLORS if c in exc.message), None)
            if seat is not None and color is None:  # the choice that does not fit: asked ones
                asked = [c for c in COLORS if self.data.get(f"pen_{seat}_{c}")]
                color = asked[-1] if asked else None
            if seat is not None and color is not None:
                return f"pen_{seat}_{color}"
            return None
        if code.startswith("prestige") or code == "not_enough_florins":
            return f"climb_{seat}" if seat is not None and seat < len(self.names) else None
        return None
