"""A new Bruges game's own options on the new-game page: the board's edition (rules B1)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.plugins.bruges import GAME_TYPE
from games.records import services
from games.records.models import Edition


def _edition_label(edition: Edition) -> str:
    if edition.verified:
        return edition.key
    # Translators: no rulebook word: the board's printed numbers kept as data (Italian chosen
    # "edizione del tabellone", Portuguese "edição do tabuleiro").
    return _("%(key)s (not verified against the printed board)") % {"key": edition.key}


class NewGameOptions(forms.Form):
    """Bruges's own options of a new game: the board's edition (rules B1)."""

    template = "web/bruges/new_game_options.html"

    edition = forms.ChoiceField(
        choices=[],
        label=gettext_lazy("Board edition"),
        help_text=gettext_lazy("The prestige points and canal spaces of the board (rules B1)."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        default = services.edition_default(GAME_TYPE)
        kwargs["initial"].setdefault("edition", default.key if default else None)
        super().__init__(*args, **kwargs)
        self.editions = services.editions_by_key(GAME_TYPE)
        self.fields["edition"].choices = [  # type: ignore[attr-defined]
            (key, _edition_label(e)) for key, e in sorted(self.editions.items())
        ]

    def check(self, players: int) -> bool:
        return True

    def game_kwargs(self) -> dict[str, Any]:
        return {"edition": self.editions[self.cleaned_data["edition"]]}
