"""Pot de Vin's pieces of the game page (its tables are in ``tables.py``) and of the player
page: the statistics of this game and guild habits."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.plugins.potdevin import GAME_TYPE
from games.plugins.potdevin.finish import JokersForm
from games.plugins.potdevin.rounds import RoundForm, round_context
from games.plugins.potdevin.tables import breakdown_table, standings, tableau_table
from games.plugins.potdevin.words import GUILD_LABELS, STAT_LABELS
from games.records.models import Game, Player, Seat
from games.web import present
from scoring.engine.potdevin.cards import GUILDS
from scoring.engine.potdevin.table import TableState

# --- The game page ------------------------------------------------------------------------------


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
        context.update(round_context(table, entry_form, names))
    return context


# --- The player page ----------------------------------------------------------------------------


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
