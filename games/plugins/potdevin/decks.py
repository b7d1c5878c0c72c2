"""Pot de Vin's deck pages: the deck versions (the game's editions), one deck's cards and
symbols, and a new version corrected from another."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.plugins.potdevin import GAME_TYPE
from games.plugins.potdevin.rounds import card_grid
from games.plugins.potdevin.words import GUILD_LABELS
from games.records import services
from games.records.models import Edition
from games.web.forms import edition_create_from_form, edition_mark_verified_from_post
from scoring.engine.potdevin.cards import CARD_NAMES, GUILDS, is_guild_card
from scoring.engine.potdevin.decks import STANDARD_DECK

GUILD_CARDS = [c for i, c in enumerate(CARD_NAMES) if is_guild_card(i)]
GUILD_CHOICES = [(g, GUILD_LABELS[g]) for g in GUILDS]


def decks() -> list[Edition]:
    """Every deck version, with the number of games that use it."""
    return list(
        Edition.objects.filter(game_type=GAME_TYPE)
        .defer("data")
        .annotate(game_count=Count("games"))
        .order_by("key")
    )


def deck(key: str) -> Edition:
    """A deck version by key. Raises ``Http404``."""
    found = Edition.objects.filter(game_type=GAME_TYPE, key=key).first()
    if found is None:
        raise Http404(f"no deck {key!r}")
    return found


def deck_game_count(edition: Edition) -> int:
    return edition.games.count()


# The built-in decks' descriptions, stored in the engine's English, in the reader's language.
BUILTIN_DESCRIPTIONS = {
    STANDARD_DECK.description: gettext_lazy(
        "Default layout of rules D1, built from a rule: NOT verified against the printed "
        "cards. Correct it by creating a new deck version."
    ),
}


def deck_description(edition: Edition) -> str:
    """The deck's description as shown: a built-in deck's in the reader's language, any other
    as it was typed."""
    text = BUILTIN_DESCRIPTIONS.get(edition.description)
    return edition.description if text is None else str(text)


# --- Deck pages (Pot de Vin's editions) ---------------------------------------------------------


class DeckForm(forms.Form):
    """A new deck version: each guild card's one or two symbols (rules D1)."""

    key = forms.SlugField(
        max_length=64,
        label=gettext_lazy("Version key"),
        # Translators: an example of a deck version's key; keep "standard-v2" as it is.
        help_text=gettext_lazy("e.g. standard-v2"),
    )
    description = forms.CharField(
        required=False,
        label=gettext_lazy("Description"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(
        self, *args: Any, cards: dict[str, list[str]] | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        cards = cards or {}
        for card in GUILD_CARDS:
            symbols = cards.get(card) or []
            self.fields[f"{card}_1"] = forms.ChoiceField(
                choices=GUILD_CHOICES,
                label=_("%(card)s first symbol") % {"card": card},
                initial=symbols[0] if symbols else None,
            )
            self.fields[f"{card}_2"] = forms.ChoiceField(
                choices=[("", "—"), *GUILD_CHOICES],
                required=False,
                label=_("%(card)s second symbol") % {"card": card},
                initial=symbols[1] if len(symbols) > 1 else "",
            )

    def card_rows(self) -> list[dict[str, Any]]:
        return [{"card": c, "first": self[f"{c}_1"], "second": self[f"{c}_2"]} for c in GUILD_CARDS]

    def cards(self) -> dict[str, list[str]]:
        data = self.cleaned_data
        return {
            c: [data[f"{c}_1"]] + ([data[f"{c}_2"]] if data.get(f"{c}_2") else [])
            for c in GUILD_CARDS
        }


@login_required
def deck_list(request: HttpRequest) -> HttpResponse:
    shown = decks()
    for edition in shown:
        edition.description_shown = deck_description(edition)  # type: ignore[attr-defined]
    return render(request, "web/potdevin/decks.html", {"decks": shown})


@login_required
def deck_detail(request: HttpRequest, key: str) -> HttpResponse:
    edition = deck(key)
    if request.method == "POST":
        return edition_mark_verified_from_post(
            request,
            edition,
            label=_("Deck"),
            url_name="web:deck",
            done_texts=(
                _("Deck %(key)s marked verified."),
                _("Deck %(key)s marked not verified."),
            ),
        )
    cards = edition.data or {}
    rows = []
    for letter, row in zip("APEU", card_grid(name="", prefix=""), strict=True):
        rows.append(
            {
                "name": row["name"],
                "letter": letter,
                "cards": [
                    {
                        "card": c["card"],
                        "symbols": [GUILD_LABELS.get(g, g) for g in cards.get(c["card"], [])],
                    }
                    for c in row["cells"]
                    if c["card"] in cards
                ],
            }
        )
    context = {
        "deck": edition,
        "description": deck_description(edition),
        "rows": rows,
        "games": deck_game_count(edition),
    }
    return render(request, "web/potdevin/deck.html", context)


@login_required
def deck_new(request: HttpRequest) -> HttpResponse:
    default = services.edition_default(GAME_TYPE)
    source = deck(request.GET.get("from") or (default.key if default else ""))
    form = DeckForm(
        request.POST if request.method == "POST" else None,
        cards=source.data,
        initial={
            "key": f"{source.key}-v2",
            "description": _("Corrected from %(key)s.") % {"key": source.key},
        },
    )
    if request.method == "POST" and form.is_valid():
        created = edition_create_from_form(
            form, game_type=GAME_TYPE, data=form.cards(), created_by=request.user
        )
        if created is not None:
            messages.success(request, _("Deck %(key)s created.") % {"key": created.key})
            return redirect("web:deck", key=created.key)
    return render(request, "web/potdevin/deck_new.html", {"form": form, "source": source})
