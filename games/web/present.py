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
  of the game's own, e.g. Pot de Vin's decks);
- ``STAT_LABELS``: its statistics' labels in the reader's language (stat name ->
  ``gettext_lazy`` label; ``stat_label``);
- optionally ``ENTRY_TEXTS``: the generic pages' sentences about its entries, in its rulebook's
  words, where the defaults for its ``entry_name`` do not fit (``entry_text``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.records import adapters, selectors
from games.records.game_types import GamePlugin, UnknownGameType, plugin_for, plugins
from games.records.models import BoardGame, Club, Edition, Game
from games.web import results
from scoring.models import Rating
from scoring.stats import selectors as scoring_selectors
from scoring.stats.games import board_game_of

LEADERBOARD_SIZE = 10

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
        # A club's named game by its name ("Carcassonne"), else the game's label.
        label = labels.get(game.game_type, game.game_type)
        game.label = results.label_of(game, label)  # type: ignore[attr-defined]
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
# own buttons, the entry form's step (the "Save" button sends the entry whole) and its key (the
# review's form has its own).
REVIEW_SKIPPED = {"csrfmiddlewaretoken", "idempotency_key", "review", "step"}


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
        label = e.key if e.verified else _("%(key)s (not verified)") % {"key": e.key}
        groups.setdefault(e.game_type, []).append((edition_value(e), label))
    return [(labels.get(t, t), rows) for t, rows in groups.items()]


def edition_value(edition: Edition) -> str:
    return f"{edition.game_type}:{edition.key}"


# --- Words --------------------------------------------------------------------------------------


def stat_label(game_type: str, name: str, fallback: str) -> str:
    """A statistic's label in the reader's language: the game's web part's ``STAT_LABELS``,
    else ``fallback`` (the engine's English ``StatDef.label``)."""
    try:
        labels = getattr(web_part(game_type), "STAT_LABELS", None) or {}
    except UnknownGameType:
        labels = {}
    label = labels.get(name)
    return fallback if label is None else str(label)


# The generic pages' sentences about a game's entries, whole, by the engine's ``entry_name``
# (a Pot de Vin round, a Complots turn): the word differs with the game and its gender with the
# language, so no sentence is glued from the word. A game whose rulebook names its entries
# otherwise gives its own (its web part's ``ENTRY_TEXTS``, the same keys, any of them).
ENTRY_TEXTS: dict[str, dict[str, Any]] = {
    "round": {
        "first_player_help": gettext_lazy("Who starts round 1 (chosen at random at the table)."),
        # Translators: a refusal about one round of a game; %(refusal)s is a whole sentence.
        "refusal": gettext_lazy("Round %(number)s: %(refusal)s"),
        # Translators: %(refusal)s is the reason, a whole sentence.
        "no_replay": gettext_lazy("The stored rounds no longer replay. %(refusal)s"),
        "no_more": gettext_lazy("This game takes no more rounds."),
        "ended_after": gettext_lazy("The game ended after round %(number)s."),
        "undone": gettext_lazy("The last round was undone."),
        "reopened": gettext_lazy("Game reopened: rounds can be undone or added again."),
        "next": gettext_lazy("The next round"),
        "undo": gettext_lazy("Undo round %(number)s"),
        "save": gettext_lazy("Save round %(number)s"),
        "scorepad_help": gettext_lazy(
            "For a game played without logging rounds: type each player's final sheet, and the "
            "engine scores it with the same rules and tie-breaks."
        ),
        # The game's history, a line each.
        "history_added": gettext_lazy("Round %(number)s entered"),
        "history_corrected": gettext_lazy("Round %(number)s corrected"),
        "history_undone": gettext_lazy("Round %(number)s undone"),
        # Said to the pages following the game (static/js/live.js) when it changed elsewhere.
        "live_added": gettext_lazy("Round %(number)s was saved from another page or phone."),
        "live_corrected": gettext_lazy(
            "Round %(number)s was corrected from another page or phone."
        ),
        "live_undone": gettext_lazy("Round %(number)s was undone from another page or phone."),
        # Translators: a page posted an entry the game already has (a page left open, Back, a
        # second phone): the game is shown as it is now, with this notice.
        "moved_on": gettext_lazy(
            "Round %(number)s was already saved from another page or phone: here is the game as "
            "it is now; enter round %(next)s."
        ),
        # Translators: a page posted an entry after the entries before it were undone elsewhere.
        "moved_back": gettext_lazy(
            "Round %(number)s was undone from another page or phone: here is the game as it is "
            "now; enter round %(next)s."
        ),
        # The question before the last entry is undone (``games.web.confirm``).
        "undo_question": gettext_lazy("Undo round %(number)s?"),
        "undo_goes": gettext_lazy(
            "Round %(number)s is deleted with everything entered in it: the game goes back to "
            "how it stood before it. The rounds before it stay as they are."
        ),
        "undo_gone": gettext_lazy(
            "Round %(number)s was already undone from another page or phone: nothing more was "
            "undone. Here is the game as it is now."
        ),
        "undo_stale": gettext_lazy(
            "Round %(number)s was not undone: it is no longer the last round, as round "
            "%(last)s was saved since from another page or phone. Here is the game as it is now."
        ),
    },
    "turn": {
        "first_player_help": gettext_lazy("Who starts turn 1 (chosen at random at the table)."),
        # Translators: a refusal about one turn of a game; %(refusal)s is a whole sentence.
        "refusal": gettext_lazy("Turn %(number)s: %(refusal)s"),
        # Translators: %(refusal)s is the reason, a whole sentence.
        "no_replay": gettext_lazy("The stored turns no longer replay. %(refusal)s"),
        "no_more": gettext_lazy("This game takes no more turns."),
        "ended_after": gettext_lazy("The game ended after turn %(number)s."),
        "undone": gettext_lazy("The last turn was undone."),
        "reopened": gettext_lazy("Game reopened: turns can be undone or added again."),
        "next": gettext_lazy("The next turn"),
        "undo": gettext_lazy("Undo turn %(number)s"),
        "save": gettext_lazy("Save turn %(number)s"),
        "scorepad_help": gettext_lazy(
            "For a game played without logging turns: type each player's final sheet, and the "
            "engine scores it with the same rules and tie-breaks."
        ),
        "history_added": gettext_lazy("Turn %(number)s entered"),
        "history_corrected": gettext_lazy("Turn %(number)s corrected"),
        "history_undone": gettext_lazy("Turn %(number)s undone"),
        "live_added": gettext_lazy("Turn %(number)s was saved from another page or phone."),
        "live_corrected": gettext_lazy("Turn %(number)s was corrected from another page or phone."),
        "live_undone": gettext_lazy("Turn %(number)s was undone from another page or phone."),
        # Translators: a page posted an entry the game already has (a page left open, Back, a
        # second phone): the game is shown as it is now, with this notice.
        "moved_on": gettext_lazy(
            "Turn %(number)s was already saved from another page or phone: here is the game as "
            "it is now; enter turn %(next)s."
        ),
        # Translators: a page posted an entry after the entries before it were undone elsewhere.
        "moved_back": gettext_lazy(
            "Turn %(number)s was undone from another page or phone: here is the game as it is "
            "now; enter turn %(next)s."
        ),
        # The question before the last entry is undone (``games.web.confirm``).
        "undo_question": gettext_lazy("Undo turn %(number)s?"),
        "undo_goes": gettext_lazy(
            "Turn %(number)s is deleted with everything entered in it: the game goes back to "
            "how it stood before it. The turns before it stay as they are."
        ),
        "undo_gone": gettext_lazy(
            "Turn %(number)s was already undone from another page or phone: nothing more was "
            "undone. Here is the game as it is now."
        ),
        "undo_stale": gettext_lazy(
            "Turn %(number)s was not undone: it is no longer the last turn, as turn "
            "%(last)s was saved since from another page or phone. Here is the game as it is now."
        ),
    },
}

# The game's history, the lines about the whole game (an entry's are ENTRY_TEXTS').
HISTORY_TEXTS = {
    "created": pgettext_lazy("game history", "Game created"),
    "edited": pgettext_lazy("game history", "Date, place or notes changed"),
    "finished": pgettext_lazy("game history", "Game finished"),
    "reopened": pgettext_lazy("game history", "Game reopened"),
    "deleted": pgettext_lazy("game history", "Game deleted"),
}


# What the pages following a game say of a change to the whole game (an entry's are
# ENTRY_TEXTS'); "changed": a change the history has no line for (a re-score, a rename).
LIVE_TEXTS = {
    "finished": gettext_lazy("The game was finished from another page or phone."),
    "reopened": gettext_lazy("The game was reopened from another page or phone."),
    "edited": gettext_lazy(
        "The game's date, place or notes were changed from another page or phone."
    ),
    "changed": gettext_lazy("The game was updated."),
}


def live_news(game: Game) -> str:
    """The game's last change in words, for the pages following it (``static/js/live.js``
    says it in a polite live region): "Round 5 was saved from another page or phone."."""
    event = selectors.last_change(game)
    if event is not None and event.number is not None:
        return entry_text(game.game_type, f"live_{event.action}", number=event.number)
    action = event.action if event is not None else "changed"
    return str(LIVE_TEXTS.get(action, LIVE_TEXTS["changed"]))


def history(game: Game) -> list[dict[str, Any]]:
    """The game's history for its page, oldest first: what was done, in the game's words for
    its entries, by whom (None when nobody is known) and when."""
    lines = []
    for event in selectors.game_history(game=game):
        if event.number is not None:
            what = entry_text(game.game_type, f"history_{event.action}", number=event.number)
        else:
            what = str(HISTORY_TEXTS[event.action])
        lines.append({"what": what, "user": event.username or None, "at": event.at})
    return lines


def entry_text(game_type: str, key: str, **params: Any) -> str:
    """One of ``ENTRY_TEXTS``' sentences for the game, in the reader's language, its
    placeholders filled from ``params`` (``taken`` is a plural on ``stored``)."""
    plugin = plugin_for(game_type)
    own = getattr(plugin.part("web"), "ENTRY_TEXTS", None) or {}
    texts = ENTRY_TEXTS.get(plugin.engine.info.entry_name, ENTRY_TEXTS["round"])
    text = own.get(key, texts[key])
    return str(text % params if params else text)


# Translators: a place in a game's ranking, as in "1st (with Bea)".
RANK_WORDS = {1: gettext_lazy("1st"), 2: gettext_lazy("2nd"), 3: gettext_lazy("3rd")}


def rank_words(rank: int | None) -> str:
    if rank is None:
        return ""
    if rank in RANK_WORDS:
        return str(RANK_WORDS[rank])
    # Translators: a place in a game's ranking from the 4th on (8 players at most).
    return _("%(rank)sth") % {"rank": rank}


def names_joined(names: Sequence[str]) -> str:
    """ "Ada", "Ada and Bea", "Ada, Bea and Cy"."""
    names = list(names)
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    # Translators: the last two of a list of player names: "Ada, Bea and Cy".
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


# A re-score job's status code (kept as it is in the page's data and the API) in words.
JOB_STATUS_WORDS = {
    "running": pgettext_lazy("job status", "running"),
    "done": pgettext_lazy("job status", "done"),
    "failed": pgettext_lazy("job status", "failed"),
}


def job_status_word(status: str) -> str:
    return str(JOB_STATUS_WORDS.get(status, status))


def leaderboards(club: Club) -> list[dict[str, Any]]:
    """The club's best rated players at each game it has ratings of, as its pages show them
    (Home, the public results): each game type in the registry's order, and after its game
    type each of the club's named games (an "other game": Catan) by its name, each named game
    a series of its own (``scoring.stats.games.stats_key``). A board's ``game_type`` is its
    statistics key ("pot-de-vin", "other-12")."""
    keys = set(
        Rating.objects.filter(player__club=club).values_list("game_type", flat=True).order_by()
    )
    named = {key: board_game_of(key) for key in keys}
    names = dict(
        BoardGame.objects.filter(club=club, pk__in=[b for b in named.values() if b is not None])
        .values_list("pk", "name")
        .order_by()
    )
    series: list[tuple[str, str]] = []
    for game_type, label in game_choices():
        if game_type in keys:
            series.append((game_type, label))
        prefix = f"{game_type}-"
        own = [
            (names[b], key)
            for key, b in named.items()
            if b is not None and b in names and key.startswith(prefix)
        ]
        series.extend(
            (key, name) for name, key in sorted(own, key=lambda r: (r[0].casefold(), r[1]))
        )
    boards = []
    for key, label in series:
        ratings = list(scoring_selectors.leaderboard(club=club, game_type=key)[:LEADERBOARD_SIZE])
        if ratings:
            entries = scoring_selectors.leaderboard_entries(ratings, start=1)
            boards.append({"game_type": key, "label": label, "entries": entries})
    return boards
