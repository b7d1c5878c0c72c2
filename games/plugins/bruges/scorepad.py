"""Bruges by its final score sheet on the phone (``ScorepadSheet``, the sheet form the generic
scorepad page asks the game's web part for): per player the rulebook's scoring categories as
the table reads them at the end, as quick to fill as the paper sheet. Number boxes with a
numeric keyboard (an empty box is 0), the persons in play counted by price (0, 3, 6, 9 or 12
florins: the engine scores each price / 3), the statues taken as boxes to tick. The engine
checks and scores the sheet (``engine.score_sheet``, docs/bruges-engine.md "Score sheet"); its
refusals come back inside the player's part of the form, in the players' words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from games.plugins.bruges import words
from games.records.errors import RecordError
from games.web import refusals
from scoring.engine import LogError
from scoring.engine.bruges.rules import MAJORITIES, PRICES, SECTIONS, STATUES, TOP_STEP
from scoring.engine.bruges.sheet import CARDS, CHECKED

# The sheet's numbers in the order the rulebook scores them, with their labels and the most
# the form takes (the engine says what a game allows beyond these: more persons than houses,
# a statue under one still on the pile...).
NUMBERS: tuple[tuple[str, Promise, int], ...] = (
    ("track", pgettext_lazy("bruges score sheet", "Score track"), 999),
    ("houses", pgettext_lazy("bruges score sheet", "Houses"), CARDS),
    ("laurels", pgettext_lazy("bruges score sheet", "Laurel points"), 999),
    ("majorities", pgettext_lazy("bruges score sheet", "Majority tiles"), len(MAJORITIES)),
    ("canals", pgettext_lazy("bruges score sheet", "Canals: 3rd space"), len(SECTIONS)),
    ("step", pgettext_lazy("bruges score sheet", "Prestige step"), TOP_STEP),
    ("florins", pgettext_lazy("bruges score sheet", "Florins left"), 999),
)
# The categories as a refusal of the sheet names them ("Ada: majority tiles must be...").
SHEET_WORDS: dict[str, Any] = {
    **words.LOG_KEY_WORDS,
    "track": pgettext_lazy("bruges score sheet refusal", "score track"),
    "persons": pgettext_lazy("bruges score sheet refusal", "persons"),
    "houses": pgettext_lazy("bruges score sheet refusal", "houses"),
    "laurels": pgettext_lazy("bruges score sheet refusal", "laurel points"),
    "majorities": pgettext_lazy("bruges score sheet refusal", "majority tiles"),
    "canals": pgettext_lazy("bruges score sheet refusal", "canals' 3rd spaces"),
    "statues": pgettext_lazy("bruges score sheet refusal", "statues"),
    "step": pgettext_lazy("bruges score sheet refusal", "prestige step"),
    "prestige": pgettext_lazy("bruges score sheet refusal", "prestige"),
    "florins": pgettext_lazy("bruges score sheet refusal", "florins"),
    "score": pgettext_lazy("bruges score sheet refusal", "total"),
    "points": pgettext_lazy("bruges score sheet refusal", "points"),
}
VOCABULARY = refusals.Vocabulary(words=SHEET_WORDS)
# Where a refusal about a category is shown: the box it is about (the persons: their row).
REFUSED_AT = {
    "persons": "p0",
    **{f"points.{key}": key for key in CHECKED},
    "points": "track",
    "score": "track",
    "prestige": "step",
}


def _number(label: Promise | str, most: int) -> forms.IntegerField:
    return forms.IntegerField(
        required=False,
        min_value=0,
        max_value=most,
        label=label,
        widget=forms.NumberInput(
            attrs={"inputmode": "numeric", "class": "count", "placeholder": "0"}
        ),
    )


class ScorepadSheet(forms.Form):
    """A finished Bruges game by its final score sheet: one part per seat."""

    template = "web/bruges/scorepad_sheet.html"

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.seat_errors: dict[int, list[str]] = {s: [] for s in range(seats)}
        self.refused: set[str] = set()  # the boxes a refusal is about
        for seat in range(seats):
            for key, label, most in NUMBERS:
                self.fields[f"s{seat}_{key}"] = _number(label, most)
            for price in PRICES:
                self.fields[f"s{seat}_p{price}"] = _number(
                    # Translators: a person's price on its card, in florins, on the score sheet.
                    pgettext_lazy("bruges score sheet", "%(price)s fl.") % {"price": price},
                    CARDS,
                )
            self.fields[f"s{seat}_statues"] = forms.TypedMultipleChoiceField(
                required=False,
                coerce=int,
                choices=[(v, str(v)) for v in STATUES],
                label=pgettext_lazy("bruges score sheet", "Statues taken"),
                widget=forms.CheckboxSelectMultiple,
            )

    def _box(self, seat: int, key: str) -> dict[str, Any]:
        name = f"s{seat}_{key}"
        return {"field": self[name], "refused": name in self.refused}

    def rows(self, players_form: forms.Form) -> list[dict[str, Any]]:
        """Per seat: the player's name box (its typed name is shown in the legend), the number
        boxes, the persons by price, the statues, and the refusals about this player."""
        return [
            {
                "seat": seat,
                "name": players_form[f"player_{seat}"],
                "numbers": [self._box(seat, key) for key, _label, _most in NUMBERS],
                "prices": [self._box(seat, f"p{price}") for price in PRICES],
                "statues": self[f"s{seat}_statues"],
                "statues_refused": f"s{seat}_statues" in self.refused,
                "errors": self.seat_errors[seat],
            }
            for seat in range(self.seats)
        ]

    def sheet(self, players: int) -> list[dict[str, Any]]:
        """The sheet as the engine reads it: one object per seat named (an empty box is 0)."""
        data = self.cleaned_data
        lines = []
        for seat in range(players):

            def number(key: str, seat: int = seat) -> int:
                value: int | None = data.get(f"s{seat}_{key}")
                return value or 0

            persons = [p for p in reversed(PRICES) for _ in range(number(f"p{p}"))]
            lines.append(
                {
                    "track": number("track"),
                    "persons": persons,
                    "houses": number("houses"),
                    "laurels": number("laurels"),
                    "majorities": number("majorities"),
                    "canals": number("canals"),
                    "statues": sorted(data.get(f"s{seat}_statues") or [], reverse=True),
                    "step": number("step"),
                    "florins": number("florins"),
                }
            )
        return lines

    def names(self) -> list[str]:
        """The names typed in the players' boxes, by seat (for the refusals' words)."""
        data: Mapping[str, Any] = self.data or {}
        return [str(data.get(f"player_{seat}") or "").strip() for seat in range(self.seats)]

    def engine_error(self, exc: LogError | RecordError) -> bool:
        """Show the engine's refusal of the sheet in the part of the player it is about, next
        to the box it names (else above the sheet). False for a refusal of something else (the
        players, the edition), which the page shows where it belongs."""
        if not isinstance(exc, LogError) or exc.code not in ("bad_sheet", "malformed"):
            return False
        seat = exc.seat
        if exc.code == "malformed" and seat is None:
            return False
        text = refusals.sentence(exc, self.names(), VOCABULARY)
        named = exc.params.get("category")
        key = getattr(named, "value", None)
        if seat is not None and 0 <= seat < self.seats:
            self.seat_errors[seat].append(text)
            if isinstance(key, str):
                self.refused.add(f"s{seat}_{REFUSED_AT.get(key, key)}")
        else:
            self.add_error(None, text)
        return True
