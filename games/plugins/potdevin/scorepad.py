"""A finished Pot de Vin game entered by its final tableaux only (``ScorepadSheet``)."""

from __future__ import annotations

from typing import Any

from django import forms

from games.plugins.potdevin.words import TABLEAU_LABELS
from games.records.errors import RecordError
from scoring.engine import LogError
from scoring.engine.potdevin.sheet import COUNT_FIELDS


class ScorepadSheet(forms.Form):
    """A finished game by its final tableaux only: per seat, each count of the paper sheet."""

    template = "web/potdevin/scorepad_sheet.html"

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in range(seats):
            for name in COUNT_FIELDS:
                self.fields[f"t{seat}_{name}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=99,
                    initial=0,
                    label=TABLEAU_LABELS[name],
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
                )

    def rows(self, players_form: forms.Form) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "name": players_form[f"player_{seat}"],
                "counts": [self[f"t{seat}_{n}"] for n in COUNT_FIELDS],
            }
            for seat in range(self.seats)
        ]

    def sheet(self, players: int) -> list[dict[str, int]]:
        data = self.cleaned_data
        return [{n: data.get(f"t{seat}_{n}") or 0 for n in COUNT_FIELDS} for seat in range(players)]

    def engine_error(self, exc: LogError | RecordError) -> bool:
        return False  # a refused tableau is shown at the top of the form
