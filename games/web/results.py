"""The game page of a play known by its final scores only (``Game.Mode.RESULT``), whatever its
game: a play of one of the club's named games, or one of ours brought in from another app
without its sheet. Its result is the generic scorer's (rules O1-O6, docs/other-games.md), the
same for every game, so one presentation serves them all: the ranking with scores, teams and
tie-breaks, a cooperative game's outcome, and the play's duration and start player."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.records.models import Game

TIEBREAK_WORDS = {
    "shared": gettext_lazy("place shared"),
    "marked": gettext_lazy("tied on score: the winners marked on the sheet placed first"),
    "ranked": gettext_lazy("tied on score: placed by the ranks on the sheet"),
}


def duration_words(minutes: int | None) -> str:
    """A play's duration for people: "45 min", "1 h 30 min"."""
    if minutes is None:
        return ""
    hours, rest = divmod(minutes, 60)
    if not hours:
        return _("%(minutes)s min") % {"minutes": rest}
    if not rest:
        return _("%(hours)s h") % {"hours": hours}
    return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": rest}


def label_of(game: Game, fallback: str) -> str:
    """What a play is called in lists and on its page: its named game, else ``fallback`` (its
    game's label)."""
    board_game = game.board_game if game.board_game_id is not None else None
    return board_game.name if board_game is not None else fallback


def ranking(result: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The seats best first (then by seat), with their names and the tie-break in words."""
    players = sorted(result.get("players") or [], key=lambda p: (p["rank"], p["seat"]))
    rows = []
    for p in players:
        seat = p["seat"]
        rows.append(
            {
                "seat": seat,
                "name": names[seat] if 0 <= seat < len(names) else "",
                "rank": p["rank"],
                "score": p.get("score"),
                "team": p.get("team"),
                "winner": p["rank"] == 1 and result.get("won") is not False,
                "tiebreak": p.get("tiebreak"),
                "tiebreak_words": str(TIEBREAK_WORDS.get(p.get("tiebreak") or "", "")),
            }
        )
    return rows


def game_page(
    *,
    game: Game,
    result: dict[str, Any],
    names: list[str],
    label: str,
    **_unused: Any,
) -> dict[str, Any]:
    """The context of the page's pieces for a play known by its final scores."""
    teams = [
        {
            "number": t["team"] + 1,
            "names": [names[s] for s in t["seats"] if 0 <= s < len(names)],
            "rank": t["rank"],
            "score": t.get("score"),
        }
        for t in (result.get("teams") or [])
    ]
    cooperative = result.get("win") == "cooperative"
    won = result.get("won")
    outcome = (_("Won together") if won else _("Lost together")) if cooperative else ""
    first = game.first_player
    board_game = game.board_game if game.board_game_id is not None else None
    return {
        "label": label_of(game, label),
        "meta_template": "web/other/game_meta.html",
        "top_template": None,
        "body_template": "web/other/game_body.html",
        "over_heading": "",
        "finish_button": "",
        "scripts": [],
        "team_play": bool(teams) and not cooperative,
        "ranking": ranking(result, names),
        "result_teams": teams if not cooperative else [],
        "cooperative": cooperative,
        "outcome": outcome,
        "duration_words": duration_words(game.duration),
        "first_name": names[first] if first is not None and 0 <= first < len(names) else "",
        "board_game": board_game,
    }
