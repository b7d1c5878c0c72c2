"""Pot de Vin's round entry: the revealed trump and one action per seat in turn order, each
picked on a grid of cards (``card_grid``) that offers only the cards the seat can play; the
round in words before it is saved, and once it is."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.plugins.potdevin.words import CHARACTER_NAMES, REFUSAL_VOCABULARY
from games.records.errors import RecordError
from games.records.models import Game
from games.web import refusals
from scoring.engine import LogError
from scoring.engine.potdevin.cards import CHARACTERS, VALUES
from scoring.engine.potdevin.table import TableState

# Round errors without a seat that are about the round as a whole rather than its trump card.
ROUND_WIDE_CODES = {"too_many_rounds", "round_conflict", "malformed"}


class RoundForm(forms.Form):
    """The next round: the revealed trump and one action per seat in turn order. The seats and
    their order come from the engine's state (``table_state``)."""

    template = "web/potdevin/round_entry.html"

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    trump = forms.CharField(
        max_length=3, error_messages={"required": gettext_lazy("Choose the revealed trump card.")}
    )

    def __init__(self, *args: Any, order: list[int], names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order = order
        self.names = names
        for i, seat in enumerate(order):
            self.fields[f"play_{i}"] = forms.CharField(
                max_length=4,
                error_messages={
                    "required": _("Choose a card for %(name)s, or pass.") % {"name": names[seat]}
                },
            )

    def ready(self) -> bool:
        """False after the review's "Change": the round comes back as entered."""
        return self.data.get("review") != "change"

    def entry_data(self) -> dict[str, Any]:
        plays: list[dict[str, Any]] = []
        for i, seat in enumerate(self.order):
            value = self.cleaned_data[f"play_{i}"]
            plays.append(
                {"seat": seat, "pass": True} if value == "pass" else {"seat": seat, "card": value}
            )
        return {"trump": self.cleaned_data["trump"], "plays": plays}

    def engine_error(self, exc: LogError | RecordError) -> None:
        """Show the engine's error next to the action that caused it: the seat's action, or the
        trump card when the error names no seat. In the players' words (``refusals``)."""
        words = refusals.sentence(exc, self.names, REFUSAL_VOCABULARY)
        if exc.seat is not None and exc.seat in self.order:
            self.add_error(f"play_{self.order.index(exc.seat)}", words)
        elif exc.code in ROUND_WIDE_CODES or isinstance(exc, RecordError):
            self.add_error(None, words)
        else:
            self.add_error("trump", words)


def entry_form(game: Game, table: TableState, names: list[str], data: Any = None) -> RoundForm:
    return RoundForm(data, initial={"number": table.number}, order=table.order, names=names)


def entry_saved(result: dict[str, Any], number: int, names: list[str]) -> str:
    summary = (result.get("rounds") or [])[number - 1]
    return _("Round %(number)s saved: %(name)s wins it with %(card)s.") % {
        "number": number,
        "name": names[summary["winner"]],
        "card": summary["winning_card"],
    }


def entry_review(
    result: dict[str, Any], number: int, names: list[str], form: RoundForm
) -> dict[str, Any]:
    """The round in words before it is saved (``result``: the game as it would stand with it):
    the trump revealed, each seat's action in turn order, and who wins it. "Change" brings the
    round entry back with everything kept."""
    entry = form.entry_data()
    summary = (result.get("rounds") or [])[number - 1]
    trump = entry["trump"]
    lines = [
        # Translators: %(character)s is the dignitary of the revealed card (Aldo, Pietra...).
        _("Trump revealed: %(card)s (%(character)s is trump).")
        % {"card": trump, "character": CHARACTER_NAMES[trump[0]]}
    ]
    for i, play in enumerate(entry["plays"]):
        name = names[play["seat"]]
        if play.get("pass"):
            lines.append(_("%(name)s passes and pays a gem.") % {"name": name})
        elif i == 0:
            # Translators: the round's first card, played by its starting player.
            lines.append(_("%(name)s leads %(card)s.") % {"name": name, "card": play["card"]})
        else:
            lines.append(_("%(name)s plays %(card)s.") % {"name": name, "card": play["card"]})
    gems = summary.get("gems") or 0
    count = len(summary.get("cards") or [])
    won = {
        "name": names[summary["winner"]],
        "card": summary["winning_card"],
        "cards": ngettext("%(count)s card", "%(count)s cards", count) % {"count": count},
        "gems": ngettext("%(count)s gem", "%(count)s gems", gems) % {"count": gems},
    }
    if gems:
        # Translators: %(cards)s is "2 cards", %(gems)s is "1 gem".
        after = _("%(name)s wins the round with %(card)s: %(cards)s and %(gems)s.") % won
    else:
        # Translators: %(cards)s is "3 cards".
        after = _("%(name)s wins the round with %(card)s: %(cards)s.") % won
    if result.get("complete"):
        after += " " + _("It is the last round.")
    return {
        "title": _("Round %(number)s: check it before saving") % {"number": number},
        "number": number,
        "lines": lines,
        "after": after,
        "change": ("review", "change"),
    }


def card_grid(
    *,
    name: str,
    prefix: str,
    blocked: Iterable[str] = (),
    allowed: Iterable[str] | None = None,
    checked: str | None = None,
) -> list[dict[str, Any]]:
    """Four rows (Aldo, Pietra, Enzo, Ugo) of 13 radio buttons for a card picker. A card is
    disabled when it is ``blocked`` or, if ``allowed`` is given, not in it."""
    blocked_set = set(blocked)
    allowed_set = None if allowed is None else set(allowed)
    rows = []
    for letter in CHARACTERS:
        cells = []
        for value in VALUES:
            card = f"{letter}{value}"
            off = card in blocked_set or (allowed_set is not None and card not in allowed_set)
            cells.append(
                {
                    "card": card,
                    "id": f"{prefix}-{card}",
                    "disabled": off,
                    "checked": card == checked and not off,
                }
            )
        rows.append(
            {"letter": letter, "name": CHARACTER_NAMES[letter], "name_": name, "cells": cells}
        )
    return rows


def round_context(state: TableState, form: RoundForm, names: list[str]) -> dict[str, Any]:
    """The round entry: a card picker for the trump, then one per seat in turn order."""
    data = form.data if form.is_bound else {}
    slots = []
    for i, seat in enumerate(state.order):
        checked = data.get(f"play_{i}")
        allowed = state.hands[seat] if state.hands is not None else None
        gems = state.gems_in_hand[seat]
        slots.append(
            {
                "index": i,
                "seat": seat,
                "name": names[seat],
                "field": form[f"play_{i}"],
                "starter": i == 0,
                "cards": state.cards_in_hand[seat],
                "gems": gems,
                "can_pass": i > 0 and gems > 0,
                "passed": checked == "pass",
                "grid": card_grid(
                    name=f"play_{i}",
                    prefix=f"play{i}",
                    blocked=state.blocked,
                    allowed=allowed,
                    checked=checked,
                ),
            }
        )
    return {
        "trump_grid": card_grid(
            name="trump",
            prefix="trump",
            blocked=(),
            allowed=state.trump_choices,
            checked=data.get("trump"),
        ),
        "slots": slots,
    }
