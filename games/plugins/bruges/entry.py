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
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.plugins.bruges import words
from games.records import stored_json
from games.records.errors import RecordError
from scoring.engine import LogError
from scoring.engine.bruges.play import State
from scoring.engine.bruges.rules import (
    ACTIONS,
    AT_NAMES,
    COLORS,
    GROUPS,
    HAND,
    ICONS,
    PRICES,
    SECTIONS,
)
from scoring.engine.bruges.table import (
    RoundProgress,
    Table,
    prestige_cost,
    read_table,
    round_progress,
    threat_colors,
)
from scoring.engine.errors import Code, Seat

DIE_VALUES = range(1, 7)
GAIN_NUMBERS = ("florins", "points", "prestige")
MAX_GAIN = 99
# Steps of the form (the value of the button pressed).
CHANGE = "change"  # from the review: the last turn back in the form, every step kept
RESUME = "resume"  # a draft kept by the script brought back after a reload
DRAW, DICE, PHASE2, UPKEEP, UPKEEP_PENALTY, TURN, MORE, PENALTY, PASS, UNDO, RESTART, SAVE = (
    "draw",
    "dice",
    "phase2",
    "upkeep",
    "upkeep_penalty",
    "turn",
    "more",
    "penalty",
    "pass",
    "undo",
    "restart",
    "save",
)
BUTTONS = (
    RESUME,
    DRAW,
    DICE,
    PHASE2,
    UPKEEP,
    UPKEEP_PENALTY,
    TURN,
    MORE,
    PENALTY,
    PASS,
    UNDO,
    RESTART,
    SAVE,
    CHANGE,
)
NEW_PERSON = "new"  # the effect of the person hired by the card of the same step
QUIET_DICE = {c: 3 for c in COLORS}  # dice that give no threat and no prestige


def _moment(entry: Any) -> str:
    """The moment of an automatic effect (or of its penalty): "draw", "dice" or "prestige"."""
    at = entry.get("at") if isinstance(entry, dict) else None
    return at if at in AT_NAMES else "dice"


# --- The round being built -----------------------------------------------------------------


class DraftError(ValueError):
    pass


@dataclass
class Draft:
    """A round as far as it is entered: what the log's round holds, plus ``drawn`` (the
    effects at the draw confirmed), ``phase2`` (the penalties and prestige confirmed) and
    ``open`` (the steps of the turn being entered)."""

    dice: dict[str, int] | None = None
    penalties: list[dict[str, Any]] = field(default_factory=list)
    prestige: list[int] = field(default_factory=list)
    upkeep: list[dict[str, Any]] = field(default_factory=list)
    drawn: bool = False
    phase2: bool = False
    turns: list[dict[str, Any]] = field(default_factory=list)
    open: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str | None) -> Draft:
        """The draft a form sent back. Raises ``DraftError`` for one that is not a draft (what
        it holds is the engine's to judge)."""
        if not text:
            return cls()
        garbled = DraftError("the round being entered was garbled")
        try:
            data = json.loads(text)
            # What no page wrote: text no store or page takes (NUL, a lone surrogate), numbers
            # past 64 bits, nesting or lengths far past a round's.
            stored_json.check(data)
        except (ValueError, RecursionError, RecordError) as exc:
            raise garbled from exc
        if not isinstance(data, dict):
            raise garbled
        lists = ("penalties", "prestige", "upkeep", "turns", "open")
        if any(not isinstance(data.get(k, []), list) for k in lists):
            raise garbled
        dice = data.get("dice")
        if dice is not None and not isinstance(dice, dict):
            raise garbled
        if not all(isinstance(v, int) for v in data.get("prestige", [])):
            raise garbled
        objects = [*data.get("penalties", []), *data.get("upkeep", []), *data.get("open", [])]
        for turn in data.get("turns", []):
            if not isinstance(turn, dict) or not isinstance(turn.get("steps", []), list):
                raise garbled
            objects.extend(turn.get("steps", []))
        for item in objects:
            if not isinstance(item, dict):
                raise garbled
            for key in ("gain", "penalty"):
                if item.get(key) is not None and not isinstance(item[key], dict):
                    raise garbled
        return cls(
            dice=dice,
            penalties=data.get("penalties", []),
            prestige=data.get("prestige", []),
            upkeep=data.get("upkeep", []),
            drawn=bool(data.get("drawn")),
            phase2=bool(data.get("phase2")),
            turns=data.get("turns", []),
            open=data.get("open", []),
        )

    def dump(self) -> str:
        data: dict[str, Any] = {"dice": self.dice}
        for key in ("penalties", "prestige", "upkeep", "turns", "open"):
            if getattr(self, key):
                data[key] = getattr(self, key)
        if self.drawn:
            data["drawn"] = True
        if self.phase2:
            data["phase2"] = True
        return json.dumps(data, separators=(",", ":"))

    def copy(self) -> Draft:
        return Draft.parse(self.dump())

    def entry(self) -> dict[str, Any]:
        """The round as ``bruges-log/1`` has it (without the turn being entered)."""
        out: dict[str, Any] = {
            "dice": dict(self.dice or {}),
            "penalties": list(self.penalties),
            "prestige": list(self.prestige),
        }
        if self.upkeep:
            out["upkeep"] = list(self.upkeep)
        out["turns"] = list(self.turns)
        return out

    def log_round(self, seat_of_open: int | None = None) -> dict[str, Any]:
        """The round for the engine, the turn being entered included (its seat given)."""
        out = self.entry()
        if not self.phase2:
            out["penalties"] = []
            out["prestige"] = []
        if self.open and seat_of_open is not None:
            out["turns"] = [*self.turns, {"seat": seat_of_open, "steps": list(self.open)}]
        return out

    def draw_entries(self) -> list[dict[str, Any]]:
        """The automatic effects at the draw (and the penalties they caused)."""
        return [u for u in self.upkeep if _moment(u) == "draw"]

    def stage(self, total: int, draw: bool = False) -> str:
        """The step the entry is at (``draw``: the round has a draw step, some seat having an
        automatic person in play at its start)."""
        if self.dice is None:
            return DRAW if draw and not self.drawn else DICE
        if not self.phase2:
            return PHASE2
        if len(self.turns) < total:
            return TURN
        return SAVE

    def undo(self) -> str:
        """Take back the last thing entered; says what."""
        if self.open:
            self.open.pop()
            return _("The last step of this turn was taken back.")
        if self.turns:
            last = self.turns.pop()
            if last.get("pass") or not last.get("steps"):
                return _("The last turn was taken back.")
            self.open = list(last["steps"])[:-1]
            return _("The last step of the last turn was taken back.")
        if self.phase2:
            self.phase2 = False
            return _("Back to the penalties and prestige.")
        later = [k for k, u in enumerate(self.upkeep) if _moment(u) != "draw"]
        if self.dice is not None and later:
            self.upkeep.pop(later[-1])
            return _("The last automatic effect was taken back.")
        if self.dice is not None:
            self.dice = None
            self.penalties, self.prestige = [], []
            return _("Back to the dice.")
        if self.drawn:
            self.drawn = False
            return _("Back to the effects at the draw.")
        if self.upkeep:
            self.upkeep.pop()
            return _("The last effect at the draw was taken back.")
        return _("Nothing to take back.")


def turn_plays(steps: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """(cards played, cards allowed) in a turn so far: 1 plus the extra plays its own seat's
    effects granted (B8; another seat's effect grants none)."""
    cards = sum(1 for s in steps if "card" in s)
    plays = 1
    for s in steps:
        if "effect" in s and "seat" not in s:
            value = (s.get("gain") or {}).get("plays")
            if isinstance(value, int) and value > 0:
                plays += value
    return cards, plays


# --- What the engine said of a draft ---------------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """A draft as the engine read it: the table as far as it got and the refusal, if any, of
    something entered (what is only missing yet is not a refusal)."""

    progress: RoundProgress
    view: Table
    refusal: LogError | None

    @property
    def complete(self) -> bool:
        return self.progress.complete


def read_draft(state: State, draft: Draft, total: int) -> Reading:
    if draft.dice is None:
        draw = draft.draw_entries()
        if not draw:  # nothing entered: the table as the last round left it
            waiting = LogError("bad_dice", "the dice are not entered yet")
            return Reading(RoundProgress(state, waiting), read_table(state), None)
        # The effects at the draw: the dice not rolled yet, dice that give nothing stand in.
        progress = round_progress(state, {"dice": QUIET_DICE, "upkeep": draw, "turns": []})
        return Reading(progress, read_table(progress.state), _refusal(progress.error, draft, total))
    first = state.current_first
    n = state.players
    seat_of_open = (first + len(draft.turns)) % n
    progress = round_progress(state, draft.log_round(seat_of_open))
    view = read_table(progress.state)
    return Reading(progress, view, _refusal(progress.error, draft, total))


def _refusal(exc: LogError | None, draft: Draft, total: int) -> LogError | None:
    """``exc`` unless it only says that the round is not entered that far yet."""
    if exc is None:
        return None
    next_turn = len(draft.turns) + 1
    if not draft.phase2:
        # Before the penalties are confirmed: they (or the first turn) are what is missing.
        if exc.code == "missing_penalty" and exc.turn is None:
            return None
        if exc.code == "missing_turn" and exc.turn == 1:
            return None
        return exc
    if draft.open:
        if exc.turn == next_turn:
            cards, plays = turn_plays(draft.open)
            if exc.code == "wrong_play_count" and cards < plays:
                return None  # the turn has cards still to play
            if exc.code == "missing_penalty":
                return None  # asked next
        if exc.code == "missing_turn" and exc.turn == next_turn + 1:
            return None
        return exc
    if exc.code == "missing_turn" and exc.turn == next_turn and next_turn <= total:
        return None
    return exc


# --- Penalty choices -------------------------------------------------------------------------


def person_label(view: Table, pid: str, *, house: bool = True) -> str:
    """A person as a choice shows it: the name and what tells it apart from another card of
    the same name (price, icon, group) and, in play, the house it sits in."""
    person = view.person(pid)
    if person is None:
        return pid
    if house and 0 <= person.seat < len(view.seats):
        for h in view.seats[person.seat].houses:
            if h.person == pid:
                return _("%(name)s (%(details)s; in house %(number)s, %(colour)s)") % {
                    "name": person.name,
                    "details": words.person_details(person),
                    "number": h.index + 1,
                    "colour": words.colour(words.COLOR_F, h.color),
                }
    return words.person_named(person.name, words.person_details(person))


def penalty_options(view: Table, seat: int, color: str) -> list[tuple[str, str]]:
    """The choices a penalty leaves, as (value, words): brown, each person in play; red, each
    house and each canal section with a tile. None when there is nothing to choose from."""
    me = view.seats[seat]
    if color == "brown":
        return [(f"person:{pid}", person_label(view, pid)) for pid in me.persons]
    if color == "red":
        out = []
        for house in me.houses:
            params = {
                "number": house.index + 1,
                "colour": words.colour(words.COLOR_F, house.color),
            }
            if house.person:
                params["person"] = person_label(view, house.person, house=False)
                what = (
                    _("house %(number)s (%(colour)s, with %(person)s, who goes back to the hand)")
                    % params
                )
            else:
                what = _("house %(number)s (%(colour)s, empty)") % params
            out.append((f"house:{house.index}", what))
        for section in SECTIONS:
            if me.canals[section]:
                out.append(
                    (
                        f"section:{section}",
                        ngettext(
                            "the outermost tile of the %(section)s canal (%(count)s built)",
                            "the outermost tile of the %(section)s canal (%(count)s built)",
                            me.canals[section],
                        )
                        % {
                            "section": words.SECTION_LABELS[section],
                            "count": me.canals[section],
                        },
                    )
                )
        return out
    return []


def split_person(value: str) -> tuple[int | None, str]:
    """A person choice: ``"p3"`` (the seat's own) or ``"2:p3"`` (seat 2's)."""
    head, sep, tail = value.partition(":")
    if sep and head.isdigit():
        return int(head), tail
    return None, value


def penalty_entry(seat: int, color: str, choice: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"seat": seat, "color": color}
    kind, _sep, value = choice.partition(":")
    if kind == "person":
        entry["person"] = value
    elif kind == "house":
        entry["house"] = int(value) if value.isdigit() else value
    elif kind == "section":
        entry["section"] = value
    return entry


def _choice_of(entry: Mapping[str, Any]) -> str:
    for key in ("person", "house", "section"):
        if entry.get(key) is not None:
            return f"{key}:{entry[key]}"
    return ""


# --- The form ------------------------------------------------------------------------------------


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


class RoundForm(forms.Form):
    """The next round, built step by step in ``draft``. Every field is optional to the form:
    what a step needs is checked by that step, and the rules by the engine."""

    template = "web/bruges/round_entry.html"

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
                    data[f"pen_{entry.get('seat')}_{entry.get('color')}"] = _choice_of(entry)
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

    # Cleaning: one step of the entry.

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
        number, expected = data.get("number"), self.table.number
        if number != expected:
            if isinstance(number, int) and number > expected:  # a round undone on another phone
                said = _(
                    "Round %(number)s was taken back meanwhile (from another phone?): this is "
                    "round %(expected)s, start it again."
                ) % {"number": number - 1, "expected": expected}
            else:
                said = _(
                    "Round %(number)s was saved meanwhile (from another phone?): this is round "
                    "%(expected)s, start it again."
                ) % {"number": expected - 1, "expected": expected}
            self.add_error(None, said)
            self._commit(Draft())
            return data
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
        draw_upkeep = [u for u in draft.upkeep if _moment(u) == "draw"]
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
        early = [u for u in draft.upkeep if _moment(u) in ("draw", "dice")]
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
        entries = [u for u in draft.upkeep if _moment(u) in moments]
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
        if not any(_moment(u) == moment for u in draft.upkeep):
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
        at = _moment(entry)
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

    # Phase 3.

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


# In an engine's refusal: a seat, a house (0-based), a quoted person id or key (not the
# apostrophe of "a turn's").
REFUSAL_PARTS = re.compile(r"\bseat (\d+)|\bhouse (\d+)\b|(?<!\w)'([^']*)'(?!\w)")
QUOTED = re.compile(r"(?<!\w)'([^']*)'(?!\w)")


def _english_words(exc: LogError, names: Sequence[str], persons: Mapping[str, str]) -> str:
    """The engine's English message in the players' terms (seats, houses, persons)."""

    def words_of(match: re.Match[str]) -> str:
        seat, house, quoted = match.groups()
        if seat is not None:
            k = int(seat)
            return names[k] if 0 <= k < len(names) else f"player {k + 1}"
        if house is not None:
            return f"house {int(house) + 1}"
        return persons.get(quoted, quoted)

    text = exc.message.replace(" suffer its ", " suffer the ")
    # One pass over the engine's own words: a name put in (a player's "O'Brien", a person's
    # "in house 2") is not read again.
    return REFUSAL_PARTS.sub(words_of, text)


def _translated_words(
    exc: LogError, names: Sequence[str], persons: Mapping[str, str]
) -> str | None:
    """The engine's refusal in the active language, from its template (``said``): seats as
    names, codes in words, a house counted from 1, persons by name. None when the template has
    no translation (the English words are read from the message)."""
    template = getattr(exc, "template", None)
    params: Mapping[str, Any] = getattr(exc, "params", None) or {}
    if not template or not params:
        return None
    translated = _(template)
    if translated == template:
        return None
    filled: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, Seat):
            k = value.number
            filled[key] = (
                names[k] if 0 <= k < len(names) else _("player %(number)s") % {"number": k + 1}
            )
        elif isinstance(value, Code):
            filled[key] = persons.get(value.value) or str(
                words.LOG_KEY_WORDS.get(value.value, value.value.replace("_", " "))
            )
        elif "house" in key and isinstance(value, int) and not isinstance(value, bool):
            filled[key] = value + 1
        else:
            filled[key] = value
    try:
        text = translated.format(**filled)
    except (KeyError, IndexError, ValueError):
        return None
    return QUOTED.sub(lambda m: persons.get(m.group(1), m.group(1)), text)


def refusal_words(
    exc: LogError, names: Sequence[str], persons: Mapping[str, str] | None = None
) -> str:
    """The engine's refusal as the pages show it, in the players' terms: the player named
    first, persons by name, houses counted from 1, then where ("Bea has 3 florins, 6 needed
    (round 2, turn 5)."). The code and the 0-based seats are the API's (``exc`` keeps them)."""
    persons = persons or {}
    text = _translated_words(exc, names, persons)
    if text is None:
        text = _english_words(exc, names, persons)
    who = names[exc.seat] if exc.seat is not None and 0 <= exc.seat < len(names) else None
    if who is not None and not text.startswith(who):
        # Translators: a refusal about a player: the player's name, then the reason.
        text = _("%(name)s: %(message)s") % {"name": who, "message": text}
    if not any(text.startswith(name) for name in names if name):
        text = text[:1].upper() + text[1:]  # a player's name is written as it is
    params = {"message": text, "round": exc.round, "turn": exc.turn}
    if exc.round is not None and exc.turn is not None:
        return _("%(message)s (round %(round)s, turn %(turn)s).") % params
    if exc.round is not None:
        return _("%(message)s (round %(round)s).") % params
    if exc.turn is not None:
        return _("%(message)s (turn %(turn)s).") % params
    return f"{text}."
