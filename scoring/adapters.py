"""The one place that turns stored records into engine input, and engine output into records."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from games.models import Deck, Game, Round, Seat
from scoring.engine import get_engine
from scoring.engine.potdevin import Deck as EngineDeck
from scoring.engine.potdevin import deck_from_dict

# Optional keys of a log that the engine does not read but a record keeps, so that an exported
# log re-imports to the same game.
LOG_META_FIELDS = ("played_on", "location", "notes")


@lru_cache(maxsize=64)
def _engine_deck(pk: int, key: str, created_at: datetime.datetime) -> EngineDeck:
    cards = Deck.objects.values_list("cards", flat=True).get(pk=pk)
    return deck_from_dict({"id": key, "cards": cards})


def engine_deck(deck: Deck) -> EngineDeck:
    """The engine's view of a deck version, cached: a version's cards never change (services
    create decks and never edit their cards). The creation time is in the key because a
    rolled-back SQLite transaction can hand the same id to another deck."""
    return _engine_deck(deck.pk, deck.key, deck.created_at)


def game_log(
    game: Game, seats: Sequence[Seat | str], rounds: list[dict[str, Any]], *, jokers: Any = None
) -> dict[str, Any]:
    """The game as a ``potdevin-log/1`` document (the export format and the engine's input).
    ``seats`` are the game's seats in order, or just the players' names."""
    log: dict[str, Any] = {
        "format": get_engine(game.game_type).log_format,
        "players": [s if isinstance(s, str) else s.player.name for s in seats],
        "teams": game.teams,
        "first_player": game.first_player,
        "deck": game.deck.key,
        "hands": game.hands,
        "trump_pile": game.trump_pile,
        "rounds": rounds,
        "jokers": game.jokers if jokers is None else jokers,
        "played_on": game.played_on.isoformat(),
        "location": game.location,
        "notes": game.notes,
    }
    return log


class StoredGame(NamedTuple):
    """What a batch needs of a stored game besides its row: seats and rounds as plain rows."""

    seats: list[tuple[int, int, str]]  # (seat row id, seat number, player name)
    rounds: list[dict[str, Any]]


def stored_games(game_ids: Sequence[int]) -> dict[int, StoredGame]:
    """Seats and rounds of many games in two queries, without building model instances
    (re-scoring thousands of games is mostly this read)."""
    out = {g: StoredGame([], []) for g in game_ids}
    seat_rows = (
        Seat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "id", "seat", "player__name")
    )
    for game_id, pk, seat, name in seat_rows:
        out[game_id].seats.append((pk, seat, name))
    round_rows = (
        Round.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list("game_id", "trump", "plays")
    )
    for game_id, trump, plays in round_rows:
        out[game_id].rounds.append({"trump": trump, "plays": plays})
    return out


def round_logs(game: Game) -> list[dict[str, Any]]:
    return [r.as_log() for r in Round.objects.filter(game=game).order_by("number")]


def replay(
    game: Game, seats: Sequence[Seat | str], rounds: list[dict[str, Any]], *, jokers: Any = None
) -> dict[str, Any]:
    """Replay ``rounds`` as this game's log. Raises ``LogError`` for an impossible log."""
    log = game_log(game, seats, rounds, jokers=jokers)
    return get_engine(game.game_type).replay(log, deck=engine_deck(game.deck))


def score_sheet(
    game: Game, names: list[str], tableaux: list[dict[str, Any]], jokers: Any
) -> dict[str, Any]:
    """Score a scorepad-mode game. Raises ``LogError`` for tableaux no game can leave."""
    sheet = {"players": names, "teams": game.teams, "tableaux": tableaux, "jokers": jokers}
    return get_engine(game.game_type).score_tableaux(sheet, deck=engine_deck(game.deck))


def store_result(game: Game, seats: list[Seat], result: dict[str, Any], *, final: bool) -> None:
    """Keep the engine's result on the game; a final result also sets each seat's score and
    rank, which statistics read. Saving is the caller's (it holds the lock)."""
    game.result = result
    game.engine_version = result["engine_version"]
    for seat in seats:
        entry = result["players"][seat.seat]
        seat.score = entry["score"] if final else None
        seat.rank = entry["rank"] if final else None
