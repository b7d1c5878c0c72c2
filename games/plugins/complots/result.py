"""A Complots game known by its result only (``ScorepadSheet``): who went out first, second...,
and the counts kept."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.plugins.complots.words import OUT_LABELS, REFUSAL_VOCABULARY, STAT_LABELS
from games.records.errors import RecordError
from games.web import refusals
from scoring.engine import LogError
from scoring.engine.complots.rules import STAT_NAMES
from scoring.engine.complots.sheet import MAX_COUNT

# The result sheet's refusals about the order, and about one seat's counts.
ORDER_CODES = {"bad_seat", "eliminated_twice", "no_winner", "missing_seat"}
COUNT_CODES = {"bad_count", "unknown_count", "inconsistent_counts"}


def _named_seats(data: Any, seats: int) -> list[str]:
    """The names typed on the same page (the players' form), in seat order, up to the last
    one filled: the sheet's checks need to know how many players there are."""
    raw = [str(data.get(f"player_{s}") or "").strip() for s in range(seats)]
    count = max((s + 1 for s, name in enumerate(raw) if name), default=0)
    return raw[:count]


class ScorepadSheet(forms.Form):
    """A finished game known by its result only: per place in the elimination order (1st out,
    2nd out...), the seat that went out; the seat no place names won. Then, folded away, the
    K4 counts a player kept, each box blank when it was not counted (unknown, not 0). Plain
    HTML: the seats are numbered as on the players' rows above (players.js adds the names)."""

    template = "web/complots/scorepad_sheet.html"

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        choices = [
            ("", "—"),
            # Seats are counted from 1 on the pages, as on the players' rows above.
            *((str(s), _("Seat %(number)s") % {"number": s + 1}) for s in range(seats)),
        ]
        for place in range(1, seats):
            self.fields[f"out_{place}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                label=OUT_LABELS[place],
                widget=forms.Select(attrs={"class": "seat-choice"}),
            )
        for seat in range(seats):
            for name in STAT_NAMES:
                self.fields[f"c{seat}_{name}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=MAX_COUNT,
                    label=STAT_LABELS[name],
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
                )

    def places(self) -> list[forms.BoundField]:
        return [self[f"out_{place}"] for place in range(1, self.seats)]

    def rows(self, players_form: forms.Form) -> list[dict[str, Any]]:
        """Per seat, its counts' fields (and the seat's name field, for its legend)."""
        return [
            {
                "seat": seat,
                "name": players_form[f"player_{seat}"],
                "counts": [self[f"c{seat}_{name}"] for name in STAT_NAMES],
            }
            for seat in range(self.seats)
        ]

    def counts_open(self) -> bool:
        """Whether the counts are shown unfolded: one was typed, or one is refused."""
        names = [f"c{seat}_{name}" for seat in range(self.seats) for name in STAT_NAMES]
        return any(n in self.errors or str(self.data.get(n) or "").strip() for n in names)

    def _player(self, seat: int) -> str:
        names = _named_seats(self.data, self.seats)
        name = names[seat] if seat < len(names) else ""
        return name or _("seat %(number)s") % {"number": seat + 1}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        picks = [(place, data.get(f"out_{place}") or "") for place in range(1, self.seats)]
        last = max((place for place, seat in picks if seat), default=0)
        players = len(_named_seats(self.data, self.seats))
        chosen: set[str] = set()
        for place, seat in picks:
            field = f"out_{place}"
            if not seat:
                if place < last:
                    self.add_error(
                        field, _("Fill the places in order, from the 1st out, with no gap.")
                    )
                continue
            if seat in chosen:
                self.add_error(
                    field, _("%(player)s is chosen twice.") % {"player": self._player(int(seat))}
                )
            elif players and int(seat) >= players:
                self.add_error(
                    field, _("Seat %(number)s has no player.") % {"number": int(seat) + 1}
                )
            chosen.add(seat)
        if self.errors or players < 2:
            return data  # the players' form says what is wrong with the players
        if len(chosen) < players - 1:
            self.add_error(
                None,
                ngettext(
                    "Choose who went out, in order: every player but the winner, %(count)s "
                    "player of %(players)s.",
                    "Choose who went out, in order: every player but the winner, %(count)s "
                    "players of %(players)s.",
                    players - 1,
                )
                % {"count": players - 1, "players": players},
            )
        elif len(chosen) == players:
            self.add_error(None, _("One player is left standing, the winner: leave them out."))
        return data

    def sheet(self, players: int) -> dict[str, Any]:
        """The result sheet as the engine reads it (``sheet``): the seats in the order they
        went out, and the counts kept (None when none was)."""
        data = self.cleaned_data
        order = [int(data[f"out_{p}"]) for p in range(1, self.seats) if data.get(f"out_{p}")]
        counts: list[dict[str, int] | None] = []
        for seat in range(players):
            kept = {
                n: data[f"c{seat}_{n}"] for n in STAT_NAMES if data.get(f"c{seat}_{n}") is not None
            }
            counts.append(kept or None)
        return {"eliminated": order, "counts": counts if any(counts) else None}

    def engine_error(self, exc: LogError | RecordError) -> bool:
        """The engine's refusal of the sheet next to what it is about, in the players' words:
        a seat chosen twice at its second place, a refused count at its box, the rest at the
        top of the sheet. False when it is about the players or the variant (shown there)."""
        if exc.code not in ORDER_CODES | COUNT_CODES:
            return False
        names = _named_seats(self.data, self.seats)
        words = refusals.sentence(exc, names, REFUSAL_VOCABULARY)
        field = self._field_of(exc)
        self.add_error(field, words)
        return True

    def _field_of(self, exc: LogError | RecordError) -> str | None:
        params = getattr(exc, "params", None) or {}
        seat = exc.seat
        if exc.code == "eliminated_twice" and "second" in params:
            return f"out_{params['second']}"
        if exc.code in COUNT_CODES and seat is not None:
            for key in ("count", "part"):
                code = params.get(key)
                name = getattr(code, "value", None)
                if name in STAT_NAMES and f"c{seat}_{name}" in self.fields:
                    return f"c{seat}_{name}"
        return None
