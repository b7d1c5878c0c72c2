"""A game's entries (rounds, or turns), one at a time: appended, the last undone, one
corrected; each write replays the game with its engine."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.records import adapters, stored_json
from games.records.errors import GameConflict, RecordError
from games.records.models import MAX_ENTRIES, Game, GameEvent, Round
from games.records.services.common import (
    _game_info,
    _locked,
    _locked_game,
    _require_open,
    history_event,
)
from scoring.engine import GameInfo


def _clean_entry(info: GameInfo, entry: Any, number: int) -> Any:
    """An entry as stored: through the gate, without the keys its format does not define.
    Raises ``RecordError`` with the entry's number."""
    try:
        return stored_json.clean(entry, info.entry_schema)
    except RecordError as exc:
        exc.round = number
        raise


def round_append(
    *,
    game: Game,
    round_data: dict[str, Any],
    number: int | None = None,
    by: AbstractBaseUser | None = None,
) -> tuple[Game, Round]:
    """Append the next round. ``number``, when given, must be the next round's number: a client
    that appends on a stale view gets ``round_conflict`` instead of a round it did not mean.

    Runs under ``select_for_update`` of the game. Raises ``LogError`` for an impossible round
    (nothing stored) and ``GameConflict``."""
    try:
        with transaction.atomic():
            game = _locked_game(game)
            _require_open(game)
            # Names and rounds as plain rows: appending is the hot path of a game at the table.
            stored_game = adapters.stored_games([game.pk])[game.pk]
            names = [name for _, _, name in stored_game.seats]
            rounds = stored_game.rounds
            expected = len(rounds) + 1
            if number is not None and number != expected:
                raise GameConflict(
                    "round_conflict",
                    ngettext(
                        "round %(number)s cannot be appended: the game has %(count)s round, so "
                        "the next is %(next)s",
                        "round %(number)s cannot be appended: the game has %(count)s rounds, so "
                        "the next is %(next)s",
                        len(rounds),
                    )
                    % {"number": number, "count": len(rounds), "next": expected},
                    round=number,
                )
            if expected > MAX_ENTRIES:
                raise RecordError(
                    "too_many_entries",
                    _("a game has at most %(most)s entries") % {"most": MAX_ENTRIES},
                    round=expected,
                )
            round_data = _clean_entry(_game_info(game.game_type), round_data, expected)
            result = adapters.replay(game, names, [*rounds, round_data])
            stored = Round.objects.create(game=game, number=expected, data=round_data)
            adapters.store_result(game, [], result, final=False)  # seat scores stay unset
            game.save(update_fields=["result", "engine_version", "updated_at"])
            history_event(game, GameEvent.Action.ADDED, by, expected).save()
    except IntegrityError as exc:  # the row lock makes this unreachable; the constraint is a guard
        raise GameConflict("round_conflict", _("that round was stored meanwhile")) from exc
    return game, stored


def round_undo(*, game: Game, by: AbstractBaseUser | None = None) -> Game:
    """Remove the last round. Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_open(game)
        stored = list(Round.objects.filter(game=game).order_by("number"))
        if not stored:
            raise GameConflict("no_rounds", _("the game has no round to undo"))
        result = adapters.replay(game, seats, [r.data for r in stored[:-1]])
        stored[-1].delete()
        adapters.store_result(game, seats, result, final=False)
        game.save(update_fields=["result", "engine_version", "updated_at"])
        history_event(game, GameEvent.Action.UNDONE, by, stored[-1].number).save()
    return game


def round_correct(
    *, game: Game, number: int, round_data: dict[str, Any], by: AbstractBaseUser | None = None
) -> Game:
    """Replace round ``number``; every later round is checked again. If that makes the log
    impossible nothing changes, and the ``LogError`` names the round that broke.

    Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_open(game)
        stored = {r.number: r for r in Round.objects.filter(game=game)}
        target = stored.get(number)
        if target is None:
            raise RecordError(
                "no_such_round",
                _("the game has no round %(number)s") % {"number": number},
                round=number,
            )
        round_data = _clean_entry(_game_info(game.game_type), round_data, number)
        rounds = [stored[k].data for k in sorted(stored)]
        rounds[number - 1] = round_data
        result = adapters.replay(game, seats, rounds)
        target.data = round_data
        target.save(update_fields=["data"])
        adapters.store_result(game, seats, result, final=False)
        game.save(update_fields=["result", "engine_version", "updated_at"])
        history_event(game, GameEvent.Action.CORRECTED, by, number).save()
    return game
