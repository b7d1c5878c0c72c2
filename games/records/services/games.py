"""A game's life: created (entry by entry, or by its final sheet), finished, reopened,
its date, location and notes changed, deleted, and exported as its engine's log."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.records import adapters, events, stored_json
from games.records.errors import GameConflict, RecordError
from games.records.i18n import engine_message
from games.records.models import Club, Edition, Game, GameEvent, Player, Seat
from games.records.services.common import (
    _check_club,
    _check_distinct,
    _clean_notes,
    _game_info,
    _locked,
    _require_open,
    _require_rounds_mode,
    _seats_for,
    history_event,
)
from games.records.services.editions import _edition_for
from scoring.engine import GameInfo, LogError


def _clean_header(info: GameInfo, header: dict[str, Any]) -> dict[str, Any]:
    """Header values (teams, setup, finish) as stored: through the gate of ``stored_json``,
    each without the keys its schema does not define."""
    schema = stored_json.log_schema(info)
    return {
        key: stored_json.clean(
            value, {**schema["properties"].get(key, {}), "$defs": schema["$defs"]}, path=key
        )
        for key, value in header.items()
    }


def game_create(
    *,
    club: Club,
    owner: AbstractBaseUser,
    players: Sequence[Player],
    first_player: int,
    game_type: str,
    edition: Edition | None = None,
    variant: str = "",
    teams: list[list[int]] | None = None,
    setup: dict[str, Any] | None = None,
    played_on: datetime.date | None = None,
    location: str = "",
    notes: str = "",
    by: AbstractBaseUser | None = None,
) -> Game:
    """A game of ``club`` in progress with no entry yet (its players are the club's);
    ``edition`` defaults to the game's default one; ``by``, who created it, defaults to
    ``owner``. Raises ``LogError`` for an impossible header (the engine checks it)."""
    info = _game_info(game_type)
    _check_distinct(players)
    _check_club(club, players)
    header = _clean_header(
        info, {"teams": teams, **{k: (setup or {}).get(k) for k in info.setup_keys}}
    )
    location, notes = _clean_notes(location, notes)
    game = Game(
        club=club,
        game_type=game_type,
        edition=_edition_for(info, edition),
        variant=variant or (info.default_variant or ""),
        owner=owner,
        player_count=len(players),
        first_player=first_player,
        teams=header["teams"],
        setup={k: header[k] for k in info.setup_keys},
        played_on=played_on or timezone.localdate(),
        location=location,
        notes=notes,
    )
    seats = _seats_for(game, players)
    result = adapters.replay(game, seats, [])
    with transaction.atomic():
        adapters.store_result(game, seats, result, final=False)
        game.save()
        for seat in seats:
            seat.game = game
        Seat.objects.bulk_create(seats)
        history_event(game, GameEvent.Action.CREATED, by or owner).save()
    return game


def scorepad_game_create(
    *,
    club: Club,
    owner: AbstractBaseUser,
    players: Sequence[Player],
    game_type: str,
    sheet: Any,
    edition: Edition | None = None,
    variant: str = "",
    teams: list[list[int]] | None = None,
    finish: dict[str, Any] | None = None,
    played_on: datetime.date | None = None,
    location: str = "",
    notes: str = "",
    by: AbstractBaseUser | None = None,
) -> Game:
    """A finished game known by its final sheet only (Pot de Vin: the tableaux; Complots: the
    elimination order), scored like a replayed one, its variant kept like any game's; ``by`` as
    for ``game_create``. Raises ``LogError`` for a sheet a real game cannot leave."""
    info = _game_info(game_type)
    if not info.scorepad:
        raise RecordError(
            "no_scorepad", _("%(game)s games are recorded entry by entry") % {"game": info.label}
        )
    _check_distinct(players)
    _check_club(club, players)
    header = _clean_header(info, {"teams": teams, **({} if finish is None else finish)})
    teams = header.pop("teams")
    finish = header if finish is not None else None
    sheet = stored_json.clean(sheet, path=info.sheet_key)
    location, notes = _clean_notes(location, notes)
    game = Game(
        club=club,
        game_type=game_type,
        edition=_edition_for(info, edition),
        variant=variant or (info.default_variant or ""),
        owner=owner,
        mode=Game.Mode.SCOREPAD,
        status=Game.Status.FINISHED,
        player_count=len(players),
        teams=teams,
        sheet=sheet,
        finish=finish,
        played_on=played_on or timezone.localdate(),
        location=location,
        notes=notes,
        finished_at=timezone.now(),
    )
    seats = _seats_for(game, players)
    result = adapters.score_sheet(game, [p.name for p in players], sheet, finish)
    with transaction.atomic():
        adapters.store_result(game, seats, result, final=True)
        game.save()
        Seat.objects.bulk_create(seats)
        history_event(game, GameEvent.Action.CREATED, by or owner).save()
        events.results_changed(game_ids=[game.pk])
    return game


def _not_over(info: GameInfo, count: int, result: dict[str, Any]) -> str:
    """Why a game cannot be finished: how many entries it has, and its engine's reason."""
    if info.unfinished is None:
        if info.entry_name == "turn":
            return ngettext(
                "the game is not over after %(count)s turn",
                "the game is not over after %(count)s turns",
                count,
            ) % {"count": count}
        return ngettext(
            "the game is not over after %(count)s round",
            "the game is not over after %(count)s rounds",
            count,
        ) % {"count": count}
    # i18n: engine message (the game's own words for what is left to play)
    why = engine_message(LogError("game_incomplete", info.unfinished(result)))
    if info.entry_name == "turn":
        return ngettext(
            "the game is not over after %(count)s turn: %(why)s",
            "the game is not over after %(count)s turns: %(why)s",
            count,
        ) % {"count": count, "why": why}
    return ngettext(
        "the game is not over after %(count)s round: %(why)s",
        "the game is not over after %(count)s rounds: %(why)s",
        count,
    ) % {"count": count, "why": why}


def game_finish(
    *, game: Game, finish: dict[str, Any] | None = None, by: AbstractBaseUser | None = None
) -> Game:
    """Finish a complete game, optionally with end-of-game choices (Pot de Vin: an explicit
    Joker placement, rules D5), which the engine validates. A finished game is read-only until
    reopened.

    Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_open(game)
        rounds = adapters.round_logs(game)
        info = _game_info(game.game_type)
        cleaned = _clean_header(
            info, {k: v for k, v in (finish or {}).items() if k in info.finish_keys}
        )
        chosen = {k: v for k, v in cleaned.items() if v is not None} or None
        result = adapters.replay(game, seats, rounds, finish=chosen)
        if not result["complete"]:
            raise GameConflict("game_incomplete", _not_over(info, len(rounds), result))
        if chosen is not None:
            game.finish = {**(game.finish or {}), **chosen}
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        adapters.store_result(game, seats, result, final=True)
        game.save()
        Seat.objects.bulk_update(seats, ["score", "rank"])
        history_event(game, GameEvent.Action.FINISHED, by).save()
        events.results_changed(game_ids=[game.pk])
    return game


def game_reopen(*, game: Game, by: AbstractBaseUser | None = None) -> Game:
    """Make a finished game editable again. A game whose end-of-game choices say it is over
    (``GameInfo.finish_ends_game``: Bruges' `final`) loses them, so that it is in progress
    again; they are given anew at the next finish. Runs under ``select_for_update`` of the
    game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_rounds_mode(game)
        if game.status != Game.Status.FINISHED:
            raise GameConflict("game_not_finished", _("the game is already in progress"))
        game.status = Game.Status.IN_PROGRESS
        game.finished_at = None
        fields = ["status", "finished_at", "updated_at"]
        if game.finish and _game_info(game.game_type).finish_ends_game:
            game.finish = None
            result = adapters.replay(game, seats, adapters.round_logs(game))
            adapters.store_result(game, [], result, final=False)
            fields += ["finish", "result", "engine_version"]
        for seat in seats:
            seat.score = seat.rank = None
        game.save(update_fields=fields)
        Seat.objects.bulk_update(seats, ["score", "rank"])
        history_event(game, GameEvent.Action.REOPENED, by).save()
        events.results_changed(game_ids=[game.pk])
    return game


def game_update(*, game: Game, by: AbstractBaseUser | None = None, **fields: Any) -> Game:
    """Change what the engine does not read: date, location, notes."""
    allowed = {"played_on", "location", "notes"}
    if not set(fields) <= allowed:
        raise ValueError(f"{', '.join(sorted(set(fields) - allowed))} cannot be changed here")
    location, notes = _clean_notes(
        fields.get("location", game.location), fields.get("notes", game.notes)
    )
    for name, value in {**fields, "location": location, "notes": notes}.items():
        setattr(game, name, value)
    with transaction.atomic():
        game.save(update_fields=[*fields, "updated_at"])
        history_event(game, GameEvent.Action.EDITED, by).save()
        if "played_on" in fields:  # the order of games, which streaks and ratings follow
            events.results_changed(game_ids=[game.pk])
    return game


def game_delete(*, game: Game, by: AbstractBaseUser | None = None) -> None:
    """Delete a game with its seats and rounds; statistics and ratings follow. Its history
    stays, with the deletion.

    Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().only("id").get(pk=game.pk)
        game_id = locked.pk
        locked.delete()
        history_event(game_id, GameEvent.Action.DELETED, by).save()
        events.results_changed(game_ids=[game_id])


def game_export_log(*, game: Game) -> dict[str, Any]:
    """The game as its engine's log document, which re-imports to the same result."""
    _require_rounds_mode(game)
    seats = list(game.seats.select_related("player").order_by("seat"))
    return adapters.game_log(game, seats, adapters.round_logs(game))
