"""The end of a Bruges game: the laurel persons in play and each one's points, as its card says
(rules "End and scoring"); the engine checks them."""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from games.plugins.bruges import words
from games.plugins.bruges.entry import refusal_words
from games.records.errors import RecordError
from scoring.engine import LogError


class LaurelsForm(forms.Form):
    """The end of the game (the table says the last round is played): each laurel person's
    points, as its card says (rules: "End and scoring"). The engine checks them."""

    template = "web/bruges/finish_laurels.html"

    def __init__(
        self,
        *args: Any,
        laurels: list[dict[str, Any]],
        names: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.laurels = laurels
        self.names = list(names)
        for item in laurels:
            self.fields[self.field_name(item)] = forms.IntegerField(
                min_value=0,
                max_value=999,
                initial=0,
                label=_("%(person)s (%(player)s's; %(details)s)")
                % {
                    "person": item["person_name"],
                    "player": item["name"],
                    "details": item["details"],
                },
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "num-in"}),
            )

    @staticmethod
    def field_name(item: dict[str, Any]) -> str:
        return f"laurel_{item['seat']}_{item['person']}"

    def rows(self) -> list[dict[str, Any]]:
        return [{**item, "field": self[self.field_name(item)]} for item in self.laurels]

    def finish(self) -> dict[str, Any]:
        return {
            "final": {
                "laurels": [
                    {
                        "seat": item["seat"],
                        "person": item["person"],
                        "points": self.cleaned_data[self.field_name(item)],
                    }
                    for item in self.laurels
                ]
            }
        }

    def engine_error(self, exc: LogError | RecordError) -> bool:
        if isinstance(exc, RecordError):
            self.add_error(None, exc.message)
            return True
        text = refusal_words(exc, self.names, {i["person"]: i["person_name"] for i in self.laurels})
        if exc.seat is not None:
            for item in self.laurels:
                if item["seat"] == exc.seat and item["person"] in exc.message:
                    self.add_error(self.field_name(item), text)
                    return True
        self.add_error(None, text)
        return True


def laurel_persons(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The laurel persons in play, by seat, as the finish form asks their points (with what
    tells apart two cards of the same name: price, group, the house it sits in)."""
    players = result.get("players") or []
    out = []
    for p in result.get("persons") or []:
        if p.get("icon") == "laurel" and p.get("status") == "in_play":
            seat = p["seat"]
            tableau = players[seat].get("tableau") or [] if seat < len(players) else []
            details = words.person_details(SimpleNamespace(**p))
            where = next(
                (
                    _("%(details)s; in house %(number)s, %(colour)s")
                    % {
                        "details": details,
                        "number": k + 1,
                        "colour": words.colour(words.COLOR_F, h.get("color")),
                    }
                    for k, h in enumerate(tableau)
                    if h.get("person") == p["id"]
                ),
                details,
            )
            out.append(
                {
                    "seat": seat,
                    "name": players[seat]["name"]
                    if seat < len(players)
                    else _("seat %(number)s") % {"number": seat + 1},
                    "person": p["id"],
                    "person_name": p["name"],
                    "details": where,
                    "group": words.GROUP_LABELS.get(p["group"], p["group"]),
                }
            )
    return sorted(out, key=lambda item: (item["seat"], item["person_name"]))


def laurels_form(result: dict[str, Any], data: Any = None) -> LaurelsForm:
    players = sorted(result.get("players") or [], key=lambda p: p.get("seat", 0))
    names = [str(p.get("name", "")) for p in players]
    return LaurelsForm(data, laurels=laurel_persons(result), names=names)


finish_form = laurels_form  # the end-of-game choices: the laurel points
