"""What the generic pages read and how they word it: each game's web part found
through the plugin registry, and words shared by every game. What is game-shaped (card grids,
tableaux, coins and influences) is in each game's plugin, ``games/plugins/<game>/web.py``.

A game's web part (``plugin_for(game_type).part("web")``) provides:

- ``NewGameOptions``: a form of the game's own options on the new-game page, with
  ``check(players)`` (errors that depend on the number of players), ``game_kwargs()`` (what
  ``services.game_create`` takes besides players and first player) and ``template``;
- ``table_state(game)``: the table before the next entry, with ``number`` (the next entry's
  number) and ``over`` (no entry can follow); raises ``LogError`` if the entries no longer replay;
- ``entry_form(game, table, names, data=None)``: the next entry's form, with ``entry_data()``,
  ``ready()`` (False: show the form's next step, or the entry again after "Change", instead of
  the review) and ``engine_error(exc)`` (puts a refusal next to the field that caused it);
- ``entry_review(result, number, names, entry)``: the entry in words for the review before it
  is saved (``result``: the game as it would stand with it, nothing stored), with
  ``change``, the (name, value) of the "Change" button that takes the form back with
  everything kept;
- ``entry_saved(result, number, names)``: the message once an entry is stored;
- ``finish_form(result, data=None)``: the end-of-game choices, or None, with ``finish()`` and
  ``engine_error(exc)`` (False when the refusal names nothing on the form);
- ``game_page(...)``: the context of the game page's per-game pieces, templates included;
- ``player_section(player, stats)``: what the player page shows of this game;
- optionally ``ScorepadSheet`` (a finished game by its final sheet) and ``urlpatterns`` (pages
  of the game's own, e.g. Pot de Vin's decks).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from games import adapters, selectors
from games.models import Edition, Game
from games.plugins import GamePlugin, plugin_for, plugins

# --- Games and their web parts --------------------------------------------------------------


def web_part(game_type: str) -> ModuleType:
    """The game's web part. Raises ``UnknownGameType``."""
    return plugin_for(game_type).part("web")


def game_choices() -> list[tuple[str, str]]:
    """Every game recorded here, as (game type, label), the default game first."""
    return [(p.game_type, p.label) for p in plugins().values()]


def game_types() -> list[str]:
    return list(plugins())


def game_labels() -> dict[str, str]:
    return dict(game_choices())


def labelled(games: Iterable[Game]) -> list[Game]:
    """Games with their game's label as ``label``, for lists of games of any type."""
    labels = game_labels()
    out = list(games)
    for game in out:
        game.label = labels.get(game.game_type, game.game_type)  # type: ignore[attr-defined]
    return out


def scorepad_games() -> list[GamePlugin]:
    """The games that can be recorded by their final sheet only."""
    return [p for p in plugins().values() if p.engine.info.scorepad]


def player_range(plugin: GamePlugin) -> tuple[int, int]:
    counts = plugin.engine.info.player_counts
    return min(counts), max(counts)


# --- Reads ------------------------------------------------------------------------------------


def entry_count(game: Game) -> int:
    """The entries stored (prefetched by ``selectors.game_detail_queryset``)."""
    return len(game.rounds.all())


def entry_preview(game: Game, entry: Any) -> dict[str, Any]:
    """The game's result as it would stand with ``entry`` appended, for the review before the
    entry is saved: the engine checks it as the save will, and nothing is stored. Raises
    ``LogError`` for an impossible entry."""
    engine = adapters.engine_of(game)
    state = engine.apply_entry(selectors.engine_state(game), entry)
    return engine.result(state)


# Fields a review does not carry over to the confirmation: the token (sent anew), the review's
# own buttons and the entry form's step (the "Save" button sends the entry whole).
REVIEW_SKIPPED = {"csrfmiddlewaretoken", "review", "step"}


def review_fields(data: Any) -> list[tuple[str, str]]:
    """The posted entry as hidden fields of the review's form, every value kept."""
    return [
        (name, value) for name in data if name not in REVIEW_SKIPPED for value in data.getlist(name)
    ]


def edition_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Editions grouped by game for a choice field: value ``<game type>:<key>``."""
    labels = game_labels()
    groups: dict[str, list[tuple[str, str]]] = {}
    for e in selectors.editions():
        label = e.key + ("" if e.verified else " (not verified)")
        groups.setdefault(e.game_type, []).append((edition_value(e), label))
    return [(labels.get(t, t), rows) for t, rows in groups.items()]


def edition_value(edition: Edition) -> str:
    return f"{edition.game_type}:{edition.key}"


# --- Words --------------------------------------------------------------------------------------


RANK_WORDS = {1: "1st", 2: "2nd", 3: "3rd"}


def rank_words(rank: int | None) -> str:
    if rank is None:
        return ""
    return RANK_WORDS.get(rank, f"{rank}th")


def names_joined(names: Sequence[str]) -> str:
    """ "Ada", "Ada and Bea", "Ada, Bea and Cy"."""
    names = list(names)
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
