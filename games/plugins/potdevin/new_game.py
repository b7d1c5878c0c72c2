"""Pot de Vin's own options of a new game (and of a scorepad entry): the teams, among the
seatings the engine accepts, and the deck."""

from __future__ import annotations

import itertools
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.plugins.potdevin import GAME_TYPE
from games.records import services
from games.records.models import Edition
from scoring.engine import LogError
from scoring.engine.potdevin.play import check_teams


def _teams_value(teams: list[list[int]]) -> str:
    return ";".join(",".join(str(s) for s in team) for team in teams)


def _teams_label(teams: list[list[int]]) -> str:
    # Translators: a seat in a list of teams, "seat 1 & seat 3 / seat 2 & seat 4" (seats are
    # counted from 1 on the pages).
    return " / ".join(
        " & ".join(_("seat %(number)s") % {"number": s + 1} for s in team) for team in teams
    )


def team_seatings(players: int) -> list[list[list[int]]]:
    """Every way to seat ``players`` in pairs that the engine accepts (teammates apart)."""
    found = []
    for perm in itertools.permutations(range(players)):
        pairs = sorted(sorted(perm[i : i + 2]) for i in range(0, players, 2))
        if pairs in found:
            continue
        try:
            check_teams(pairs, players)
        except LogError:
            continue
        found.append(pairs)
    return found


TEAM_SEATINGS = [(n, t) for n in (4, 6) for t in team_seatings(n)]


def team_choices() -> list[tuple[str, str]]:
    """The teams field's choices, in the reader's language."""
    return [("", _("No teams (everyone for themselves)"))] + [
        (
            _teams_value(t),
            _("%(count)s players: %(teams)s") % {"count": n, "teams": _teams_label(t)},
        )
        for n, t in TEAM_SEATINGS
    ]


def parse_teams(value: str) -> list[list[int]] | None:
    if not value:
        return None
    return [[int(s) for s in team.split(",")] for team in value.split(";")]


def _deck_label(edition: Edition) -> str:
    if edition.verified:
        return edition.key
    return _("%(key)s (not verified against the printed cards)") % {"key": edition.key}


class NewGameOptions(forms.Form):
    """Pot de Vin's own options of a new game (and of a scorepad entry): teams and deck."""

    template = "web/potdevin/new_game_options.html"

    teams = forms.ChoiceField(
        choices=[],
        required=False,
        label=gettext_lazy("Teams"),
        help_text=gettext_lazy(
            "4 players play in 2 teams, 6 players in 3 teams or alone; teammates never "
            "sit side by side."
        ),
    )
    deck = forms.ChoiceField(choices=[], label=gettext_lazy("Deck"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        default = services.edition_default(GAME_TYPE)
        kwargs["initial"].setdefault("deck", default.key if default else None)
        super().__init__(*args, **kwargs)
        self.editions = services.editions_by_key(GAME_TYPE)
        self.fields["teams"].choices = team_choices()  # type: ignore[attr-defined]
        self.fields["deck"].choices = [  # type: ignore[attr-defined]
            (key, _deck_label(e)) for key, e in sorted(self.editions.items())
        ]

    def check(self, players: int) -> bool:
        """Errors that depend on the number of players named. True when there is none."""
        teams = parse_teams(self.cleaned_data.get("teams") or "")
        if teams is not None and sum(len(t) for t in teams) != players:
            count = sum(len(t) for t in teams)
            self.add_error("teams", _("These teams are for %(count)s players.") % {"count": count})
            return False
        return True

    def game_kwargs(self) -> dict[str, Any]:
        return {
            "edition": self.editions[self.cleaned_data["deck"]],
            "teams": parse_teams(self.cleaned_data.get("teams") or ""),
        }
