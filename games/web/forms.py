"""Forms of the web scorepad. They check what a person typed (blanks, numbers, choices); what a
game allows is the engine's to say, through the services."""

from __future__ import annotations

import itertools
from typing import Any

from django import forms

from games.models import GAME_TYPES, Deck, name_key
from scoring.engine import LogError
from scoring.engine.potdevin.cards import CARD_NAMES, GUILDS, is_guild_card
from scoring.engine.potdevin.play import check_teams
from scoring.engine.potdevin.sheet import COUNT_FIELDS

MAX_SEATS = 6
NAME_MAX_LENGTH = 80
GUILD_CARDS = [c for i, c in enumerate(CARD_NAMES) if is_guild_card(i)]
GUILD_CHOICES = [(g, g.capitalize()) for g in GUILDS]


def _teams_value(teams: list[list[int]]) -> str:
    return ";".join(",".join(str(s) for s in team) for team in teams)


def _teams_label(teams: list[list[int]]) -> str:
    return " / ".join(" & ".join(f"seat {s}" for s in team) for team in teams)


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


TEAM_CHOICES = [("", "No teams (everyone for themselves)")] + [
    (_teams_value(t), f"{n} players: {_teams_label(t)}") for n in (4, 6) for t in team_seatings(n)
]


def parse_teams(value: str) -> list[list[int]] | None:
    if not value:
        return None
    return [[int(s) for s in team.split(",")] for team in value.split(";")]


class PlayersForm(forms.Form):
    """Players in seat order (clockwise), teams and deck: shared by both ways to record a game."""

    teams = forms.ChoiceField(choices=TEAM_CHOICES, required=False, label="Teams")
    deck = forms.ModelChoiceField(
        queryset=Deck.objects.all(), to_field_name="key", label="Deck", empty_label=None
    )
    played_on = forms.DateField(
        required=False, label="Played on", widget=forms.DateInput(attrs={"type": "date"})
    )
    location = forms.CharField(required=False, max_length=120, label="Location")
    game_type = forms.ChoiceField(
        choices=GAME_TYPES, initial="pot-de-vin", widget=forms.HiddenInput
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        names = {}
        for seat in range(MAX_SEATS):
            names[f"player_{seat}"] = forms.CharField(
                required=False,
                max_length=NAME_MAX_LENGTH,
                label=f"Seat {seat}",
                widget=forms.TextInput(
                    attrs={"list": "known-players", "autocomplete": "off", "class": "player-name"}
                ),
            )
        # The player rows come first, in seat order.
        self.fields = {**names, **self.fields}
        self.fields["deck"].label_from_instance = lambda d: (
            f"{d.key}" + ("" if d.verified else " (not verified against the printed cards)")
        )

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{s}"] for s in range(MAX_SEATS)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        raw = [(data.get(f"player_{s}") or "").strip() for s in range(MAX_SEATS)]
        count = max((s + 1 for s, name in enumerate(raw) if name), default=0)
        names = raw[:count]
        for seat, name in enumerate(names):
            if not name:
                self.add_error(f"player_{seat}", "Fill the seats in order, with no gap.")
        if count < 3:
            self.add_error("player_0", "Pot de Vin is for 3 to 6 players: name at least 3.")
        seen: set[str] = set()
        for seat, name in enumerate(names):
            key = name_key(name)
            if name and key in seen:
                self.add_error(f"player_{seat}", f"{name} already has a seat.")
            seen.add(key)
        teams = parse_teams(data.get("teams") or "")
        if teams is not None and sum(len(t) for t in teams) != count:
            self.add_error("teams", f"These teams are for {sum(len(t) for t in teams)} players.")
        data["names"] = names
        data["team_list"] = teams
        return data


class NewGameForm(PlayersForm):
    first_player = forms.TypedChoiceField(
        choices=[(s, f"Seat {s}") for s in range(MAX_SEATS)],
        coerce=int,
        initial=0,
        label="First player",
        help_text="Who starts round 1 (chosen at random at the table).",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first = data.get("first_player")
        if first is not None and data["names"] and first >= len(data["names"]):
            self.add_error("first_player", "The first player must be one of the seats named.")
        return data


TABLEAU_LABELS = {
    **{g: g.capitalize() for g in GUILDS},
    "jokers": "Jokers",
    "bonus": "+2 cards",
    "malus": "−2 cards",
    "pot_de_vin": "Pot de Vin cards",
    "gems": "Gems won",
    "cards": "Cards won (all)",
}


class ScorepadForm(PlayersForm):
    """A finished game by its final tableaux only: per seat, each count of the paper sheet."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(MAX_SEATS):
            for name in COUNT_FIELDS:
                self.fields[f"t{seat}_{name}"] = forms.IntegerField(
                    required=False,
                    min_value=0,
                    max_value=99,
                    initial=0,
                    label=TABLEAU_LABELS[name],
                    widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "count"}),
                )

    def tableau_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "name": self[f"player_{seat}"],
                "counts": [self[f"t{seat}_{n}"] for n in COUNT_FIELDS],
            }
            for seat in range(MAX_SEATS)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["tableaux"] = [
            {n: data.get(f"t{seat}_{n}") or 0 for n in COUNT_FIELDS}
            for seat in range(len(data["names"]))
        ]
        return data


class RoundForm(forms.Form):
    """The next round: the revealed trump and one action per seat in turn order. The seats and
    their order come from the engine's state (``games.selectors.table_state``)."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    trump = forms.CharField(
        max_length=3, error_messages={"required": "Choose the revealed trump card."}
    )

    def __init__(self, *args: Any, order: list[int], names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order = order
        for i, seat in enumerate(order):
            self.fields[f"play_{i}"] = forms.CharField(
                max_length=4,
                error_messages={"required": f"Choose a card for {names[seat]}, or pass."},
            )

    def round_data(self) -> dict[str, Any]:
        plays: list[dict[str, Any]] = []
        for i, seat in enumerate(self.order):
            value = self.cleaned_data[f"play_{i}"]
            plays.append(
                {"seat": seat, "pass": True} if value == "pass" else {"seat": seat, "card": value}
            )
        return {"trump": self.cleaned_data["trump"], "plays": plays}


class JokersForm(forms.Form):
    """Where the Jokers go at the end, for the players (teams) who have a choice (rules D5).
    The engine's placement, the one that scores most, is checked to begin with; nothing checked
    (or a form without the fields) leaves it to the engine. The engine validates the rest."""

    def __init__(self, *args: Any, choices: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.choices = choices
        for choice in choices:
            count = len(choice["placed"])
            self.fields[self.field_name(choice)] = forms.MultipleChoiceField(
                label=choice["name"],
                choices=choice["columns"],
                initial=choice["placed"],
                required=False,
                widget=forms.CheckboxSelectMultiple,
                help_text=f"{choice['held']} held, {count} to place, one per column",
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
                self.add_error(name, f"Place exactly {count} Joker{'s' if count > 1 else ''}.")
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

    def engine_error(self, exc: LogError) -> bool:
        """Show the engine's refusal next to the unit it names; False if it names none."""
        for choice in self.choices:
            if exc.seat in choice["seats"]:
                self.add_error(self.field_name(choice), exc.message)
                return True
        return False


class DeckForm(forms.Form):
    """A new deck version: each guild card's one or two symbols (rules D1)."""

    key = forms.SlugField(max_length=64, label="Version key", help_text="e.g. standard-v2")
    description = forms.CharField(
        required=False, label="Description", widget=forms.Textarea(attrs={"rows": 2})
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
                label=f"{card} first symbol",
                initial=symbols[0] if symbols else None,
            )
            self.fields[f"{card}_2"] = forms.ChoiceField(
                choices=[("", "—"), *GUILD_CHOICES],
                required=False,
                label=f"{card} second symbol",
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


class RescoreForm(forms.Form):
    game_type = forms.ChoiceField(
        choices=[("", "Every game type"), *GAME_TYPES], required=False, label="Game type"
    )
    deck = forms.ModelChoiceField(
        queryset=Deck.objects.all(),
        to_field_name="key",
        required=False,
        label="Only games with deck",
        empty_label="Any deck",
    )
    date_from = forms.DateField(
        required=False, label="Played from", widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label="Played to", widget=forms.DateInput(attrs={"type": "date"})
    )
    new_deck = forms.ModelChoiceField(
        queryset=Deck.objects.all(),
        to_field_name="key",
        required=False,
        label="Re-score with deck",
        empty_label="Keep each game's deck",
    )

    def job_params(self) -> dict[str, Any]:
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}
