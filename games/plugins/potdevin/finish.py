"""The end of a Pot de Vin game: where the Jokers go, for the players (teams) who have a
choice (rules D5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.plugins.potdevin.tables import unit_names
from games.plugins.potdevin.words import GUILD_LABELS, REFUSAL_VOCABULARY
from games.records.errors import RecordError
from games.web import refusals
from scoring.engine import LogError
from scoring.engine.potdevin.cards import GUILDS


class JokersForm(forms.Form):
    """Where the Jokers go at the end, for the players (teams) who have a choice (rules D5).
    The engine's placement, the one that scores most, is checked to begin with; nothing checked
    (or a form without the fields) leaves it to the engine. The engine validates the rest."""

    template = "web/potdevin/finish_jokers.html"

    def __init__(
        self,
        *args: Any,
        choices: list[dict[str, Any]],
        names: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.choices = choices
        self.names = list(names)
        for choice in choices:
            count = len(choice["placed"])
            self.fields[self.field_name(choice)] = forms.MultipleChoiceField(
                label=choice["name"],
                choices=choice["columns"],
                initial=choice["placed"],
                required=False,
                widget=forms.CheckboxSelectMultiple,
                # Translators: numbers of Jokers: held by the player (team), to place at the end.
                help_text=_("%(held)s held, %(count)s to place, one per column")
                % {"held": choice["held"], "count": count},
            )

    @staticmethod
    def field_name(choice: dict[str, Any]) -> str:
        return f"jokers_{choice['seat']}"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for choice in self.choices:
            name = self.field_name(choice)
            count = len(choice["placed"])
            if data.get(name) and len(data[name]) != count:
                self.add_error(
                    name,
                    ngettext(
                        "Place exactly %(count)s Joker.", "Place exactly %(count)s Jokers.", count
                    )
                    % {"count": count},
                )
        return data

    def placement(self) -> dict[str, list[str]] | None:
        """The placement to state: only the units moved from the engine's choice (None when
        none moved, so the finished game records the engine's own choice)."""
        stated = {}
        for choice in self.choices:
            picked = self.cleaned_data.get(self.field_name(choice))
            if picked and set(picked) != set(choice["placed"]):
                stated[str(choice["seat"])] = picked
        return stated or None

    def finish(self) -> dict[str, Any] | None:
        placement = self.placement()
        return None if placement is None else {"jokers": placement}

    def engine_error(self, exc: LogError | RecordError) -> bool:
        """Show the engine's refusal next to the unit it names; False if it names none."""
        if not isinstance(exc, LogError):
            return False
        for choice in self.choices:
            if exc.seat in choice["seats"]:
                words = refusals.sentence(exc, self.names, REFUSAL_VOCABULARY)
                self.add_error(self.field_name(choice), words)
                return True
        return False


def finish_form(result: dict[str, Any], data: Any = None) -> JokersForm:
    names = [p["name"] for p in result.get("players") or []]
    return JokersForm(data, choices=joker_choices(result), names=names)


def joker_choices(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The scoring units whose Jokers could go more than one way: fewer are placed than there
    are columns to take them (rules D5). Each with those columns and the engine's placement,
    the one that scores most. A team's Jokers are pooled (D8) and stated under its first seat."""
    choices = []
    for unit in unit_names(result):
        breakdown = unit.get("breakdown") or {}
        guilds = breakdown.get("guilds") or {}
        jokers = breakdown.get("jokers") or {}
        placed = list(jokers.get("placed") or [])
        # A Joker joins a column with a real symbol (``symbols`` leaves the Joker out).
        open_columns = [g for g in GUILDS if g in guilds and guilds[g]["symbols"] > 0]
        if 0 < len(placed) < len(open_columns):
            choices.append(
                {
                    "seat": unit["seats"][0],
                    "name": unit["name"],
                    "seats": unit["seats"],
                    "held": jokers["held"],
                    "placed": placed,
                    "columns": [(g, GUILD_LABELS[g]) for g in open_columns],
                }
            )
    return choices
