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
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, npgettext, pgettext, pgettext_lazy

from games.records import services
from games.records.errors import RecordError
from games.records.models import Edition, Game, Player, Seat
from games.records.selectors import engine_state
from games.web import present, refusals
from games.web.forms import edition_create_from_form, edition_mark_verified_from_post
from scoring.engine import LogError
from scoring.engine.potdevin.cards import (
    CARD_NAMES,
    CHARACTERS,
    GUILDS,
    VALUES,
    is_guild_card,
)
from scoring.engine.potdevin.decks import STANDARD_DECK
from scoring.engine.potdevin.play import check_teams
from scoring.engine.potdevin.sheet import COUNT_FIELDS
from scoring.engine.potdevin.table import TableState
from scoring.engine.potdevin.table import table_state as _table_of_state

GAME_TYPE = "pot-de-vin"
# The guilds as the rulebooks name them (the codes stay in the data).
GUILD_LABELS = {
    "nobles": pgettext_lazy("pot de vin guild", "Nobles"),
    "artists": pgettext_lazy("pot de vin guild", "Artists"),
    "traders": pgettext_lazy("pot de vin guild", "Traders"),
    "workmen": pgettext_lazy("pot de vin guild", "Workmen"),
    "knights": pgettext_lazy("pot de vin guild", "Knights"),
    "assassins": pgettext_lazy("pot de vin guild", "Assassins"),
}
# The four dignitaries by their card letter: names, the same in every rulebook (marked so that
# every page's text goes through the catalogues).
CHARACTER_NAMES = {
    "A": pgettext_lazy("pot de vin dignitary", "Aldo"),
    "P": pgettext_lazy("pot de vin dignitary", "Pietra"),
    "E": pgettext_lazy("pot de vin dignitary", "Enzo"),
    "U": pgettext_lazy("pot de vin dignitary", "Ugo"),
}
GUILD_CARDS = [c for i, c in enumerate(CARD_NAMES) if is_guild_card(i)]
GUILD_CHOICES = [(g, GUILD_LABELS[g]) for g in GUILDS]
JOKERS = pgettext_lazy("pot de vin cards", "Jokers")
NEUTRAL_ROWS = (
    ("jokers", JOKERS),
    ("bonus", "+2"),
    ("malus", "−2"),
    ("pot_de_vin", "Pot de Vin"),
)
# The engine's codes and log keys in the players' words, for its refusals on the pages.
REFUSAL_VOCABULARY = refusals.Vocabulary(
    words={
        "pot_de_vin": "Pot de Vin",
        "trump_pile": gettext_lazy("the trump pile"),
        # Translators: the cards dealt to each player at the start (the log's "hands").
        "hands": gettext_lazy("the deal"),
        "jokers": gettext_lazy("the Jokers"),
        "plays": gettext_lazy("the plays"),
        # Translators: a player's pass (paying a gem instead of playing a card).
        "pass": gettext_lazy("pass"),
    }
)
# The statistics' labels (scoring/engine/potdevin/info.py, and this game's own counters in
# stats.py), for the pages (``present.stat_label``).
STAT_LABELS = {
    "rounds_won": gettext_lazy("Rounds won"),
    "cards_won": gettext_lazy("Cards won"),
    "gems_paid": gettext_lazy("Gems paid"),
    "gems_won": gettext_lazy("Gems won"),
    "logged_games": gettext_lazy("Games logged round by round"),
    # Translators: games where the player held all four Pot de Vin cards.
    "pot_de_vin_sweeps": gettext_lazy("Pot de Vin sweeps"),
    # Translators: a player not following the lead's character when able, found after the fact.
    "revokes": gettext_lazy("Revokes"),
}
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


# --- New game: teams and deck -------------------------------------------------------------------


def _teams_value(teams: list[list[int]]) -> str:
    return ";".join(",".join(str(s) for s in team) for team in teams)


def _teams_label(teams: list[list[int]]) -> str:
    # Translators: a seat in a list of teams, "seat 0 & seat 2 / seat 1 & seat 3".
    return " / ".join(
        " & ".join(_("seat %(number)s") % {"number": s} for s in team) for team in teams
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


# --- Scorepad mode: the final tableaux ----------------------------------------------------------


BONUS_CARDS = gettext_lazy("+2 cards")
MALUS_CARDS = gettext_lazy("−2 cards")
GEMS_WON = gettext_lazy("Gems won")
TABLEAU_LABELS = {
    **GUILD_LABELS,
    "jokers": JOKERS,
    "bonus": BONUS_CARDS,
    "malus": MALUS_CARDS,
    "pot_de_vin": gettext_lazy("Pot de Vin cards"),
    "gems": GEMS_WON,
    "cards": gettext_lazy("Cards won (all)"),
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
                "label": _("Team %(number)s") % {"number": team["team"] + 1},
            }
            for team in teams
        ]
    return [
        {**p, "label": _("Seat %(number)s") % {"number": p["seat"]}, "seats": [p["seat"]]}
        for p in players
    ]


def tableau_table(result: dict[str, Any], *, current: int | None = None) -> dict[str, Any]:
    """The running tableau: one column per player, one row per guild, neutral card, gems."""
    players = result.get("players") or []
    rows = []
    for guild in GUILDS:
        rows.append({"label": GUILD_LABELS[guild], "cells": [p["tableau"][guild] for p in players]})
    for key, label in NEUTRAL_ROWS:
        rows.append({"label": label, "cells": [p["tableau"][key] for p in players]})
    rows.append({"label": GEMS_WON, "cells": [p["gems_won"] for p in players]})
    rows.append({"label": _("Cards won"), "cells": [p["cards_won"] for p in players]})
    rows.append({"label": _("Cards in hand"), "cells": [p["cards_in_hand"] for p in players]})
    rows.append({"label": _("Gems in hand"), "cells": [p["gems_in_hand"] for p in players]})
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
        text += " + " + pgettext("pot de vin card", "Joker")
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
        rows.append(
            {
                "short": _("Team %(number)s") % {"number": team["team"] + 1},
                # Translators: the players of a team by their numbers in the tables: "1 & 3".
                "name": _("players %(seats)s") % {"seats": seats},
            }
        )
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
            "label": JOKERS,
            "key": "jokers",
            "cells": [joker_cell(u["breakdown"]["jokers"]) for u in units],
        }
    )
    rows.append(
        {
            "label": _("Guilds"),
            "key": "guild_points",
            "subtotal": True,
            "cells": [{"detail": "", "points": u["breakdown"]["guild_points"]} for u in units],
        }
    )
    for key, label, count in (
        ("bonus", BONUS_CARDS, "cards"),
        ("malus", MALUS_CARDS, "cards"),
        ("pot_de_vin", "Pot de Vin", "cards"),
        ("gems", GEMS_WON, "count"),
    ):
        rows.append(
            {
                "label": label,
                "key": key,
                "cells": [
                    {
                        "detail": f"{u['breakdown'][key][count]} ×"
                        if key != "pot_de_vin"
                        else _pot_de_vin_held(u["breakdown"][key][count]),
                        "points": u["breakdown"][key]["points"],
                    }
                    for u in units
                ],
            }
        )
    rows.append(
        {
            "label": _("Total"),
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


def _pot_de_vin_held(count: int) -> str:
    # Translators: Pot de Vin cards in the player's (team's) tableau: "3 held".
    return ngettext("%(count)s held", "%(count)s held", count) % {"count": count}


def joker_cell(jokers: dict[str, Any]) -> dict[str, Any]:
    """A player's Jokers on the scorepad: how many were held (and discarded) and, shown on wide
    screens only, where they went; on a phone the guild rows already say "+ Joker"."""
    held = jokers.get("held", 0)
    # Translators: a player's Jokers on the scorepad: "1 held".
    detail = npgettext("jokers", "%(count)s held", "%(count)s held", held) % {"count": held}
    discarded = jokers.get("discarded")
    if discarded:
        # Translators: Jokers that could not be placed.
        detail += "; " + (
            ngettext("%(count)s discarded", "%(count)s discarded", discarded) % {"count": discarded}
        )
    placed = jokers.get("placed") or []
    guilds = ", ".join(str(GUILD_LABELS.get(g, g)) for g in placed)
    # Translators: where a player's Jokers went: "on Nobles, Artists".
    where = _("on %(guilds)s") % {"guilds": guilds} if placed else ""
    return {"detail": detail, "where": where, "points": None}


def tiebreak_words(unit: dict[str, Any], units: Sequence[dict[str, Any]]) -> str:
    """The tie-break that placed ``unit`` (rules D7), in words; "" when no other unit had the
    same score."""
    kind = unit.get("tiebreak")
    if not kind:
        return ""
    tied = [u for u in units if u is not unit and u["score"] == unit["score"]]
    if not tied:
        return ""
    score = unit["score"]
    words = {
        "score": score,
        "names": present.names_joined([u["name"] for u in tied]),
        "cards": unit["cards_won"],
        "gems": unit["gems_won"],
    }
    if kind == "cards":
        words["others"] = ", ".join(str(u["cards_won"]) for u in tied)
        return (
            ngettext(
                "Tied on %(score)s point with %(names)s; more cards won decided it: %(cards)s "
                "against %(others)s.",
                "Tied on %(score)s points with %(names)s; more cards won decided it: %(cards)s "
                "against %(others)s.",
                score,
            )
            % words
        )
    if kind == "gems":
        same = [u for u in tied if u["cards_won"] == unit["cards_won"]]
        words["others"] = ", ".join(str(u["gems_won"]) for u in same or tied)
        return (
            ngettext(
                "Tied on %(score)s point with %(names)s and the same number of cards won "
                "(%(cards)s); more gems won decided it: %(gems)s against %(others)s.",
                "Tied on %(score)s points with %(names)s and the same number of cards won "
                "(%(cards)s); more gems won decided it: %(gems)s against %(others)s.",
                score,
            )
            % words
        )
    return (
        ngettext(
            "Tied on %(score)s point with %(names)s, the same number of cards won (%(cards)s) "
            "and of gems won (%(gems)s): the place is shared.",
            "Tied on %(score)s points with %(names)s, the same number of cards won (%(cards)s) "
            "and of gems won (%(gems)s): the place is shared.",
            score,
        )
        % words
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
        "over_heading": _("All rounds are played"),
        "finish_button": _("Finish and score the game"),
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
    labels = {
        name: present.stat_label(GAME_TYPE, name, str(label)) for name, label in STAT_LABELS.items()
    }
    by_count = [
        {"players": n, **b} for n, b in (stats.get("by_player_count") or {}).items() if b["games"]
    ]
    return {
        "template": "web/potdevin/player_section.html",
        "stats": stats,
        "by_count": by_count,
        "habits": habits,
        "labels": labels,
    }


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


# Included by ``games/web/urls.py`` under the ``web`` namespace.
urlpatterns = [
    path("decks/", deck_list, name="decks"),
    path("decks/new/", deck_new, name="deck-new"),
    path("decks/<slug:key>/", deck_detail, name="deck"),
]

# Links of the main menu to pages of this game's own: (label, url name).
MENU = [(gettext_lazy("Decks"), "web:decks")]
