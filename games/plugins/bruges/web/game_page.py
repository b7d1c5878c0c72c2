"""Bruges's pieces of the game page: the running table of every seat, the score sheet once
finished, the round entry beside it and the laurel points that finish the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.plugins.bruges import sheet, words
from games.plugins.bruges.entry import TURN, EntryTable, RoundForm
from games.plugins.bruges.web.finish import LaurelsForm, laurels_form
from games.plugins.bruges.web.round_entry import round_context
from games.plugins.bruges.web.round_review import _person_names
from games.records.models import Game
from scoring.engine.bruges.rules import COLORS
from scoring.engine.bruges.table import Table


def edition_unverified(game: Game) -> bool:
    return game.edition is not None and not game.edition.verified


def seat_rows(view: Table, names: Sequence[str], current: int | None) -> list[dict[str, Any]]:
    """Every seat's florins, points, prestige, workers and threats per colour, houses, canals,
    statues and majority tiles, the seat to act marked."""
    persons = _person_names(view)
    rows = []
    for me in view.seats:
        rows.append(
            {
                "seat": me.seat,
                "name": names[me.seat],
                "current": me.seat == current,
                "first": me.seat == view.first_player,
                "florins": me.florins,
                "points": me.points,
                "step": me.step,
                "colors": [
                    {
                        "color": c,
                        "label": words.COLOR_NAMES[c],
                        "workers": me.workers[c],
                        "threats": me.threats[c],
                        "marks": range(me.threats[c]),
                    }
                    for c in COLORS
                ],
                "houses": [
                    {
                        "color": h.color,
                        "colour": words.colour(words.COLOR_F, h.color),
                        "person": persons.get(h.person, h.person) if h.person else "",
                    }
                    for h in me.houses
                ],
                "canals": me.canals,
                "statues": me.statues,
                "majorities": me.majorities,
                "majority_words": words.majorities_joined(me.majorities),
            }
        )
    return rows


def game_page(
    *,
    game: Game,
    result: dict[str, Any],
    names: list[str],
    table: EntryTable | None,
    entry_form: RoundForm | None,
    finish_form: LaurelsForm | None,
    can_write: bool,
) -> dict[str, Any]:
    """The context of Bruges's pieces of the game page."""
    finished = game.status == Game.Status.FINISHED
    unverified = edition_unverified(game)
    context: dict[str, Any] = {
        "meta_template": "web/bruges/game_meta.html",
        "top_template": "web/bruges/table.html",
        "body_template": "web/bruges/game_body.html",
        "over_heading": _("The game is over"),
        "finish_button": _("Finish and score the game"),
        "scripts": ["js/bruges.js"] if entry_form is not None else [],
        "finished": finished,
        "unverified": unverified,
        "unverified_words": words.UNVERIFIED,
        "edition_key": game.edition.key if game.edition else "standard",
        "rounds_played": result.get("rounds_played", 0),
        "history": sheet.round_history(result, names),
    }
    if finished:
        context["sheet"] = sheet.score_sheet(result, game)
        context["table_rows"] = None
        return context
    context["standings"] = sheet.standings(result)
    view = None
    current = None
    table_title = _("The table at the start")
    if entry_form is not None:
        view = entry_form.reading.view
        context.update(round_context(entry_form))
        stage = entry_form.stage
        if stage == TURN:
            current = entry_form.turn_seat
        draft = entry_form.current
        number = entry_form.table.number
        if draft.dice is None and draft.draw_entries():
            table_title = _("Round %(number)s after the effects at the draw") % {"number": number}
        elif draft.dice is None:
            table_title = _("The table before round %(number)s") % {
                "number": table.number if table else ""
            }
        elif draft.turns or draft.open:
            params = {"number": number, "turn": len(draft.turns)}
            if draft.open:
                table_title = (
                    _("Round %(number)s after turn %(turn)s (and the turn being entered)") % params
                )
            else:
                table_title = _("Round %(number)s after turn %(turn)s") % params
        elif draft.phase2:
            table_title = _("Round %(number)s after the penalties and prestige") % {
                "number": number
            }
        else:
            table_title = _("Round %(number)s after the dice") % {"number": number}
    elif table is not None:
        view = table.view
        table_title = _("The table before round %(number)s") % {"number": table.number}
    elif result:
        view = None
    if view is not None:
        context["table_rows"] = seat_rows(view, names, current)
        context["table_title"] = table_title
    if can_write and table is not None and table.rounds_played >= 1:
        context["laurels_form"] = finish_form if finish_form is not None else laurels_form(result)
    return context
