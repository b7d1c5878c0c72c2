"""Pot de Vin's pieces of the web scorepad (found through ``plugin_for("pot-de-vin")``; the
generic pages in ``games/web/`` never import this module by name): the new game's teams and
deck, the round entry with its card pickers, the Jokers on finish, the scorepad sheet, the
tableaux and the scorepad breakdown, guild habits, and the deck pages. Every number comes from
the engine's result document (docs/pot-de-vin-engine.md)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path

from games import services
from games.errors import RecordError
from games.models import Edition, Game, Player, Seat
from games.selectors import engine_state
from games.web import present, refusals
from games.web.forms import edition_create_from_form, edition_mark_verified_from_post
from scoring.engine import LogError
from scoring.engine.potdevin.cards import (
    CARD_NAMES,
    CHARACTER_NAMES,
    CHARACTERS,
    GUILDS,
    VALUES,
    is_guild_card,
)
from scoring.engine.potdevin.play import check_teams
from scoring.engine.potdevin.sheet import COUNT_FIELDS
from scoring.engine.potdevin.table import TableState
from scoring.engine.potdevin.table import table_state as _table_of_state

GAME_TYPE = "pot-de-vin"
GUILD_LABELS = {g: g.capitalize() for g in GUILDS}
GUILD_CARDS = [c for i, c in enumerate(CARD_NAMES) if is_guild_card(i)]
GUILD_CHOICES = [(g, g.capitalize()) for g in GUILDS]
NEUTRAL_ROWS = (
    ("jokers", "Jokers"),
    ("bonus", "+2"),
    ("malus", "−2"),
    ("pot_de_vin", "Pot de Vin"),
)
# The engine's codes and log keys in the players' words, for its refusals on the pages.
REFUSAL_VOCABULARY = refusals.Vocabulary(
    words={
        "pot_de_vin": "Pot de Vin",
        "trump_pile": "the trump pile",
        "hands": "the deal",
        "jokers": "the Jokers",
        "plays": "the plays",
        "pass": "pass",
    }
)
# Round errors without a seat that are about the round as a whole rather than its trump card.
ROUND_WIDE_CODES = {"too_many_rounds", "round_conflict", "malformed"}


# --- Reads ------------------------------------------------------------------------------------


def table_state(game: Game) -> TableState:
    """The table before the game's next round. Raises ``LogError`` if the stored rounds no
    longer replay (a deck or rules change)."""
    return _table_of_state(engine_state(game))


def player_guild_habits(player: Player, *, limit: int = 200) -> dict[str, Any]:
    """What the player collects: per guild, the symbols in their own tableau on average and how
    often they had a column of it, over their last ``limit`` finished games."""
    rows = (
        Seat.objects.filter(
            player=player, game__status=Game.Status.FINISHED, game__game_type=GAME_TYPE
        )
        .order_by("-game__played_on", "-game_id")
        .values_list("seat", "game__result")[:limit]
    )
    totals = dict.fromkeys(GUILDS, 0)
    columns = dict.fromkeys(GUILDS, 0)
    games = 0
    for seat, result in rows:
        players = (result or {}).get("players") or []
        if seat >= len(players):
            continue
        tableau = players[seat].get("tableau") or {}
        games += 1
        for guild in GUILDS:
            symbols = int(tableau.get(guild) or 0)
            totals[guild] += symbols
            columns[guild] += symbols > 0
    return {
        "games": games,
        "guilds": [
            {
                "guild": g,
                "symbols": totals[g],
                "average": round(totals[g] / games, 2) if games else None,
                "column_rate": round(columns[g] / games, 2) if games else None,
            }
            for g in GUILDS
        ],
    }


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


# --- New game: teams and deck -------------------------------------------------------------------


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


def _deck_label(edition: Edition) -> str:
    return edition.key + ("" if edition.verified else " (not verified against the printed cards)")


class NewGameOptions(forms.Form):
    """Pot de Vin's own options of a new game (and of a scorepad entry): teams and deck."""

    template = "web/potdevin/new_game_options.html"

    teams = forms.ChoiceField(
        choices=TEAM_CHOICES,
        required=False,
        label="Teams",
        help_text="4 players play in 2 teams, 6 players in 3 teams or alone; teammates never "
        "sit side by side.",
    )
    deck = forms.ChoiceField(choices=[], label="Deck")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {})
        default = services.edition_default(GAME_TYPE)
        kwargs["initial"].setdefault("deck", default.key if default else None)
        super().__init__(*args, **kwargs)
        self.editions = services.editions_by_key(GAME_TYPE)
        self.fields["deck"].choices = [  # type: ignore[attr-defined]
            (key, _deck_label(e)) for key, e in sorted(self.editions.items())
        ]

    def check(self, players: int) -> bool:
        """Errors that depend on the number of players named. True when there is none."""
        teams = parse_teams(self.cleaned_data.get("teams") or "")
        if teams is not None and sum(len(t) for t in teams) != players:
            self.add_error("teams", f"These teams are for {sum(len(t) for t in teams)} players.")
            return False
        return True

    def game_kwargs(self) -> dict[str, Any]:
        return {
            "edition": self.editions[self.cleaned_data["deck"]],
            "teams": parse_teams(self.cleaned_data.get("teams") or ""),
        }


# --- Scorepad mode: the final tableaux ----------------------------------------------------------


TABLEAU_LABELS = {
    **{g: g.capitalize() for g in GUILDS},
    "jokers": "Jokers",
    "bonus": "+2 cards",
    "malus": "−2 cards",
    "pot_de_vin": "Pot de Vin cards",
    "gems": "Gems won",
    "cards": "Cards won (all)",
}


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


# --- The round entry ----------------------------------------------------------------------------


class RoundForm(forms.Form):
    """The next round: the revealed trump and one action per seat in turn order. The seats and
    their order come from the engine's state (``table_state``)."""

    template = "web/potdevin/round_entry.html"

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    trump = forms.CharField(
        max_length=3, error_messages={"required": "Choose the revealed trump card."}
    )

    def __init__(self, *args: Any, order: list[int], names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.order = order
        self.names = names
        for i, seat in enumerate(order):
            self.fields[f"play_{i}"] = forms.CharField(
                max_length=4,
                error_messages={"required": f"Choose a card for {names[seat]}, or pass."},
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
    return (
        f"Round {number} saved: {names[summary['winner']]} wins it with {summary['winning_card']}."
    )


def entry_review(
    result: dict[str, Any], number: int, names: list[str], form: RoundForm
) -> dict[str, Any]:
    """The round in words before it is saved (``result``: the game as it would stand with it):
    the trump revealed, each seat's action in turn order, and who wins it. "Change" brings the
    round entry back with everything kept."""
    entry = form.entry_data()
    summary = (result.get("rounds") or [])[number - 1]
    lines = [f"Trump revealed: {entry['trump']} ({CHARACTER_NAMES[entry['trump'][0]]} is trump)."]
    for i, play in enumerate(entry["plays"]):
        name = names[play["seat"]]
        if play.get("pass"):
            lines.append(f"{name} passes and pays a gem.")
        else:
            lines.append(f"{name} {'leads' if i == 0 else 'plays'} {play['card']}.")
    gems = summary.get("gems") or 0
    won = f" and {gems} gem{'s' if gems != 1 else ''}" if gems else ""
    after = (
        f"{names[summary['winner']]} wins the round with {summary['winning_card']}: "
        f"{len(summary.get('cards') or [])} cards{won}."
    )
    if result.get("complete"):
        after += " It is the last round."
    return {
        "title": f"Round {number}: check it before saving",
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


def _round_context(state: TableState, form: RoundForm, names: list[str]) -> dict[str, Any]:
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


# --- Finish: the Jokers -----------------------------------------------------------------------


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


# --- The game page ------------------------------------------------------------------------------


def unit_names(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The scoring units of a result (players, or teams in team games) with display names."""
    players = result.get("players") or []
    teams = result.get("teams")
    if teams:
        return [
            {
                **team,
                "name": " & ".join(players[s]["name"] for s in team["seats"]),
                "label": f"Team {team['team'] + 1}",
            }
            for team in teams
        ]
    return [{**p, "label": f"Seat {p['seat']}", "seats": [p["seat"]]} for p in players]


def tableau_table(result: dict[str, Any], *, current: int | None = None) -> dict[str, Any]:
    """The running tableau: one column per player, one row per guild, neutral card, gems."""
    players = result.get("players") or []
    rows = []
    for guild in GUILDS:
        rows.append({"label": GUILD_LABELS[guild], "cells": [p["tableau"][guild] for p in players]})
    for key, label in NEUTRAL_ROWS:
        rows.append({"label": label, "cells": [p["tableau"][key] for p in players]})
    rows.append({"label": "Gems won", "cells": [p["gems_won"] for p in players]})
    rows.append({"label": "Cards won", "cells": [p["cards_won"] for p in players]})
    rows.append({"label": "Cards in hand", "cells": [p["cards_in_hand"] for p in players]})
    rows.append({"label": "Gems in hand", "cells": [p["gems_in_hand"] for p in players]})
    return {
        "players": [
            {
                "name": p["name"],
                "short": player_key(p["seat"]),
                "seat": p["seat"],
                "current": p["seat"] == current,
            }
            for p in players
        ],
        "rows": rows,
        "key": names_key(result),
    }


def standings(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Units by rank, as the game stands."""
    units = unit_names(result)
    return sorted(units, key=lambda u: (u["rank"], u["seats"][0]))


def _guild_cell(entry: dict[str, Any], players: Sequence[dict[str, Any]], teams: bool) -> str:
    symbols = entry["symbols"]
    text = str(symbols)
    if entry.get("joker"):
        text += " + Joker"
    if teams and entry.get("seat") is not None and (symbols or entry.get("joker")):
        text += f" ({player_key(entry['seat'])})"  # the player's number in the names' key
    return text


def player_key(seat: int) -> str:
    """A player's short name in the tables' headers, explained in the key of names above them
    (a phone has no room for six long names side by side): "1" for the first seat."""
    return str(seat + 1)


def names_key(result: dict[str, Any]) -> list[dict[str, str]]:
    """The key of the tables' short names: each player's number and name, and in team games
    each team's players by number."""
    players = result.get("players") or []
    rows = [{"short": player_key(p["seat"]), "name": p["name"]} for p in players]
    for team in result.get("teams") or []:
        seats = " & ".join(player_key(s) for s in team["seats"])
        rows.append({"short": f"Team {team['team'] + 1}", "name": f"players {seats}"})
    return rows


def breakdown_table(result: dict[str, Any]) -> dict[str, Any]:
    """The scorepad as on paper: a column per player (or team), a row per scoring line."""
    players = result.get("players") or []
    teams = bool(result.get("teams"))
    units = unit_names(result)
    rows: list[dict[str, Any]] = []
    for guild in GUILDS:
        cells = []
        for u in units:
            entry = u["breakdown"]["guilds"][guild]
            cells.append({"detail": _guild_cell(entry, players, teams), "points": entry["points"]})
        rows.append({"label": GUILD_LABELS[guild], "key": guild, "cells": cells})
    rows.append(
        {
            "label": "Jokers",
            "key": "jokers",
            "cells": [
                {"detail": joker_words(u["breakdown"]["jokers"]), "points": None} for u in units
            ],
        }
    )
    rows.append(
        {
            "label": "Guilds",
            "key": "guild_points",
            "subtotal": True,
            "cells": [{"detail": "", "points": u["breakdown"]["guild_points"]} for u in units],
        }
    )
    for key, label, count in (
        ("bonus", "+2 cards", "cards"),
        ("malus", "−2 cards", "cards"),
        ("pot_de_vin", "Pot de Vin", "cards"),
        ("gems", "Gems won", "count"),
    ):
        rows.append(
            {
                "label": label,
                "key": key,
                "cells": [
                    {
                        "detail": f"{u['breakdown'][key][count]} ×"
                        if key != "pot_de_vin"
                        else f"{u['breakdown'][key][count]} held",
                        "points": u["breakdown"][key]["points"],
                    }
                    for u in units
                ],
            }
        )
    rows.append(
        {
            "label": "Total",
            "key": "total",
            "total": True,
            "cells": [{"detail": "", "points": u["breakdown"]["total"]} for u in units],
        }
    )
    shown = [
        {
            "index": i,
            "name": u["name"],
            "short": u["label"] if teams else player_key(u["seats"][0]),
            "label": u["label"],
            "rank": u["rank"],
            "score": u["score"],
            "tiebreak": u.get("tiebreak"),
            "tiebreak_words": tiebreak_words(u, units),
            "winner": u["rank"] == 1,
        }
        for i, u in enumerate(units)
    ]
    return {
        "units": shown,
        "ranking": sorted(shown, key=lambda u: (u["rank"], u["index"])),
        "rows": rows,
        "key": names_key(result),
    }


def joker_words(jokers: dict[str, Any]) -> str:
    held = jokers.get("held", 0)
    if not held:
        return "none"
    parts = []
    placed = jokers.get("placed") or []
    if placed:
        parts.append("on " + ", ".join(GUILD_LABELS.get(g, g) for g in placed))
    if jokers.get("discarded"):
        parts.append(f"{jokers['discarded']} discarded")
    return f"{held} held: " + "; ".join(parts)


def tiebreak_words(unit: dict[str, Any], units: Sequence[dict[str, Any]]) -> str:
    """The tie-break that placed ``unit`` (rules D7), in words; "" when no other unit had the
    same score."""
    kind = unit.get("tiebreak")
    if not kind:
        return ""
    tied = [u for u in units if u is not unit and u["score"] == unit["score"]]
    if not tied:
        return ""
    head = f"Tied on {unit['score']} points with {present.names_joined([u['name'] for u in tied])}"
    cards = unit["cards_won"]
    gems = unit["gems_won"]
    if kind == "cards":
        others = ", ".join(str(u["cards_won"]) for u in tied)
        return f"{head}; more cards won decided it: {cards} against {others}."
    if kind == "gems":
        same = [u for u in tied if u["cards_won"] == cards]
        others = ", ".join(str(u["gems_won"]) for u in same or tied)
        return (
            f"{head} and the same number of cards won ({cards}); more gems won decided it: "
            f"{gems} against {others}."
        )
    return (
        f"{head}, the same number of cards won ({cards}) and of gems won ({gems}): "
        f"the place is shared."
    )


def game_page(
    *,
    game: Game,
    result: dict[str, Any],
    names: list[str],
    table: TableState | None,
    entry_form: RoundForm | None,
    finish_form: JokersForm | None,
    can_write: bool,
) -> dict[str, Any]:
    """The context of Pot de Vin's pieces of the game page."""
    context: dict[str, Any] = {
        "meta_template": "web/potdevin/game_meta.html",
        "body_template": "web/potdevin/game_body.html",
        "over_heading": "All rounds are played",
        "finish_button": "Finish and score the game",
        "scripts": ["js/round.js"] if entry_form is not None else [],
        "team_play": bool(game.teams),
        "rounds": [
            {**r, "winner_name": names[r["winner"]], "starter_name": names[r["starter"]]}
            for r in result.get("rounds") or []
        ],
        "violations": [{**v, "name": names[v["seat"]]} for v in result.get("violations") or []],
    }
    if game.status == Game.Status.FINISHED:
        context["breakdown"] = breakdown_table(result)
        context["tableau"] = tableau_table(result) if game.mode == Game.Mode.ROUNDS else None
        return context
    context["standings"] = standings(result) if result else []
    current = table.order[0] if table is not None and table.order else None
    context["tableau"] = tableau_table(result, current=current)
    if entry_form is not None and table is not None:
        context.update(_round_context(table, entry_form, names))
    return context


# --- The player page ----------------------------------------------------------------------------


def player_section(player: Player, stats: dict[str, Any]) -> dict[str, Any]:
    """What the player page shows of Pot de Vin besides the generic numbers: the statistics
    of this game, per number of players, and guild habits."""
    habits = player_guild_habits(player)
    negative = stats.get("negative_columns") or {}
    for row in habits["guilds"]:
        row["negative"] = negative.get(row["guild"], 0)
        row["label"] = GUILD_LABELS[row["guild"]]
    by_count = [
        {"players": n, **b} for n, b in (stats.get("by_player_count") or {}).items() if b["games"]
    ]
    return {
        "template": "web/potdevin/player_section.html",
        "stats": stats,
        "by_count": by_count,
        "habits": habits,
    }


# --- Deck pages (Pot de Vin's editions) ---------------------------------------------------------


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


@login_required
def deck_list(request: HttpRequest) -> HttpResponse:
    return render(request, "web/potdevin/decks.html", {"decks": decks()})


@login_required
def deck_detail(request: HttpRequest, key: str) -> HttpResponse:
    edition = deck(key)
    if request.method == "POST":
        return edition_mark_verified_from_post(request, edition, label="Deck", url_name="web:deck")
    cards = edition.data or {}
    rows = []
    for letter, row in zip("APEU", card_grid(name="", prefix=""), strict=True):
        rows.append(
            {
                "name": row["name"],
                "letter": letter,
                "cards": [
                    {"card": c["card"], "symbols": cards.get(c["card"], [])}
                    for c in row["cells"]
                    if c["card"] in cards
                ],
            }
        )
    context = {"deck": edition, "rows": rows, "games": deck_game_count(edition)}
    return render(request, "web/potdevin/deck.html", context)


@login_required
def deck_new(request: HttpRequest) -> HttpResponse:
    default = services.edition_default(GAME_TYPE)
    source = deck(request.GET.get("from") or (default.key if default else ""))
    form = DeckForm(
        request.POST if request.method == "POST" else None,
        cards=source.data,
        initial={"key": f"{source.key}-v2", "description": f"Corrected from {source.key}."},
    )
    if request.method == "POST" and form.is_valid():
        created = edition_create_from_form(
            form, game_type=GAME_TYPE, data=form.cards(), created_by=request.user
        )
        if created is not None:
            messages.success(request, f"Deck {created.key} created.")
            return redirect("web:deck", key=created.key)
    return render(request, "web/potdevin/deck_new.html", {"form": form, "source": source})


# Included by ``games/web/urls.py`` under the ``web`` namespace.
urlpatterns = [
    path("decks/", deck_list, name="decks"),
    path("decks/new/", deck_new, name="deck-new"),
    path("decks/<slug:key>/", deck_detail, name="deck"),
]

# Links of the main menu to pages of this game's own: (label, url name).
MENU = [("Decks", "web:decks")]
