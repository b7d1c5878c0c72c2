"""Bruges's edition pages (rules B1): the board's printed data that can be wrong, versioned
like Pot de Vin's decks. A list of the edition versions, each version's prestige points and
canal spaces, a corrected version made from an existing one (the points of each prestige step,
each canal space's cost and colour), and staff marking a version verified against the printed
board. An edition's data never changes: a correction is a new version."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games.plugins.bruges import words
from games.records import services
from games.records.models import Edition
from games.web.forms import edition_create_from_form, edition_mark_verified_from_post
from scoring.engine.bruges.editions import STANDARD_DESCRIPTION
from scoring.engine.bruges.rules import COLORS, SECTIONS, SPACES, TOP_STEP

GAME_TYPE = "bruges"
STEPS = range(TOP_STEP + 1)
SPACE_COST_LABELS = {
    "left": gettext_lazy("Left space %(number)s: cost"),
    "right": gettext_lazy("Right space %(number)s: cost"),
}
SPACE_COLOUR_LABELS = {
    "left": gettext_lazy("Left space %(number)s: colour"),
    "right": gettext_lazy("Right space %(number)s: colour"),
}


# The built-in edition's description, stored in the engine's English, in the reader's language.
BUILTIN_DESCRIPTIONS = {
    STANDARD_DESCRIPTION: gettext_lazy(
        "Default edition of rules B1: canal spaces cost 1 to 5 outward from the seal, colours "
        "unknown (any card builds a space); prestige points 0, 1, 2, 3, 4, 5, 7, 9, 11, 13, 15, "
        "17, 20 (only step 6 = 7 is known). NOT verified against the printed board: correct it "
        "by creating a new edition version."
    ),
}


def _described(edition: Edition) -> Edition:
    """The edition with ``description_shown``: a built-in one's in the reader's language, any
    other as it was typed."""
    text = BUILTIN_DESCRIPTIONS.get(edition.description)
    edition.description_shown = edition.description if text is None else str(text)  # type: ignore[attr-defined]
    return edition


def editions() -> list[Edition]:
    """Every Bruges edition version, with the number of games that use it."""
    return [
        _described(e)
        for e in Edition.objects.filter(game_type=GAME_TYPE)
        .defer("data")
        .annotate(game_count=Count("games"))
        .order_by("key")
    ]


def edition(key: str) -> Edition:
    """An edition version by key. Raises ``Http404``."""
    found = Edition.objects.filter(game_type=GAME_TYPE, key=key).first()
    if found is None:
        raise Http404(f"no Bruges edition {key!r}")
    return _described(found)


def board(data: dict[str, Any]) -> dict[str, Any]:
    """An edition's data as the pages show it: prestige points by step, canal spaces."""
    points = list(data.get("prestige_points") or [])
    canal = data.get("canal") or {}
    return {
        "steps": [{"step": k, "points": points[k] if k < len(points) else None} for k in STEPS],
        "sections": [
            {
                "name": name,
                "label": words.SECTION_LABELS[name],
                "spaces": [
                    {
                        "space": k + 1,
                        "cost": space.get("cost"),
                        "color": space.get("color"),
                        "colour": words.colour(words.COLOR_F, space.get("color")),
                        "third": k + 1 == 3,
                    }
                    for k, space in enumerate(canal.get(name) or [])
                ],
            }
            for name in SECTIONS
        ],
    }


class EditionForm(forms.Form):
    """A new edition version: the points of each prestige step (0 = the Town Hall) and each
    canal space's cost and colour ("unknown": any card builds it, B3)."""

    key = forms.SlugField(
        max_length=64, label=gettext_lazy("Version key"), help_text=gettext_lazy("e.g. standard-v2")
    )
    description = forms.CharField(
        required=False,
        label=gettext_lazy("Description"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args: Any, data_from: dict[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        source = data_from or {}
        points = list(source.get("prestige_points") or [])
        canal = source.get("canal") or {}
        number = {"inputmode": "numeric", "class": "num-in"}
        for k in STEPS:
            self.fields[f"step_{k}"] = forms.IntegerField(
                min_value=0,
                max_value=999,
                label=_("Step %(number)s") % {"number": k} if k else _("Town Hall (0)"),
                initial=points[k] if k < len(points) else 0,
                widget=forms.NumberInput(attrs=number),
            )
        for name in SECTIONS:
            spaces = canal.get(name) or []
            for k in range(SPACES):
                space = spaces[k] if k < len(spaces) else {}
                self.fields[f"{name}_{k}_cost"] = forms.IntegerField(
                    min_value=0,
                    max_value=99,
                    label=SPACE_COST_LABELS[name] % {"number": k + 1},
                    initial=space.get("cost", k + 1),
                    widget=forms.NumberInput(attrs=number),
                )
                self.fields[f"{name}_{k}_color"] = forms.ChoiceField(
                    choices=[
                        ("", _("unknown (any card)")),
                        *((c, words.COLOR_LABELS[c]) for c in COLORS),
                    ],
                    required=False,
                    label=SPACE_COLOUR_LABELS[name] % {"number": k + 1},
                    initial=space.get("color") or "",
                )

    def step_fields(self) -> list[forms.BoundField]:
        return [self[f"step_{k}"] for k in STEPS]

    def section_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "name": name,
                "label": words.SECTION_LABELS[name],
                "spaces": [
                    {
                        "space": k + 1,
                        "cost": self[f"{name}_{k}_cost"],
                        "color": self[f"{name}_{k}_color"],
                    }
                    for k in range(SPACES)
                ],
            }
            for name in SECTIONS
        ]

    def edition_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "prestige_points": [data[f"step_{k}"] for k in STEPS],
            "canal": {
                name: [
                    {
                        "cost": data[f"{name}_{k}_cost"],
                        "color": data.get(f"{name}_{k}_color") or None,
                    }
                    for k in range(SPACES)
                ]
                for name in SECTIONS
            },
        }


@login_required
def edition_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/bruges/editions.html", {"editions": editions()})


@login_required
def edition_detail(request: HttpRequest, key: str) -> HttpResponse:
    found = edition(key)
    if request.method == "POST":
        return edition_mark_verified_from_post(
            request,
            found,
            label=str(_("Bruges edition")),
            url_name="web:bruges-edition",
            done_texts=(
                _("Bruges edition %(key)s marked verified."),
                _("Bruges edition %(key)s marked not verified."),
            ),
        )
    context = {"edition": found, "board": board(found.data or {}), "games": found.games.count()}
    return render(request, "web/bruges/edition.html", context)


@login_required
def edition_new(request: HttpRequest) -> HttpResponse:
    default = services.edition_default(GAME_TYPE)
    source = edition(request.GET.get("from") or (default.key if default else ""))
    form = EditionForm(
        request.POST if request.method == "POST" else None,
        data_from=source.data,
        initial={
            "key": f"{source.key}-v2",
            "description": pgettext("bruges edition", "Corrected from %(key)s.")
            % {"key": source.key},
        },
    )
    if request.method == "POST" and form.is_valid():
        created = edition_create_from_form(
            form, game_type=GAME_TYPE, data=form.edition_data(), created_by=request.user
        )
        if created is not None:
            messages.success(request, _("Bruges edition %(key)s created.") % {"key": created.key})
            return redirect("web:bruges-edition", key=created.key)
    return render(request, "web/bruges/edition_new.html", {"form": form, "source": source})


urlpatterns = [
    path("bruges/editions/", edition_list, name="bruges-editions"),
    path("bruges/editions/new/", edition_new, name="bruges-edition-new"),
    path("bruges/editions/<slug:key>/", edition_detail, name="bruges-edition"),
]
