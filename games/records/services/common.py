"""What the record services share: a game type's engine info, a game's location and notes
as stored, the checks of its seats, the game row locked for a write, its history's lines, its
version moved by a change from another row."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.records import stored_json
from games.records.errors import GameConflict, RecordError
from games.records.models import (
    MAX_LOCATION_LENGTH,
    MAX_NOTES_LENGTH,
    Club,
    Game,
    GameEvent,
    Player,
    Seat,
)
from scoring.engine import ENGINES, GameInfo, get_engine


def _game_info(game_type: str) -> GameInfo:
    try:
        return get_engine(game_type).info
    except KeyError:
        known = ", ".join(ENGINES)
        raise RecordError(
            "unknown_game_type",
            _("no game %(game)r is recorded here; known: %(known)s")
            % {"game": game_type, "known": known},
        ) from None


def _clean_notes(location: Any, notes: Any) -> tuple[str, str]:
    """A game's location and notes, refused (never cut) past their lengths."""
    location = "" if location is None else str(location)
    notes = "" if notes is None else str(notes)
    stored_json.check_text(location, path="location", max_length=MAX_LOCATION_LENGTH)
    stored_json.check_text(notes, path="notes", max_length=MAX_NOTES_LENGTH)
    return location, notes


def _check_distinct(players: Sequence[Player]) -> None:
    seen: set[int] = set()
    for seat, player in enumerate(players):
        if player.pk in seen:
            raise RecordError(
                "player_twice",
                _("%(name)s cannot sit at two seats of one game") % {"name": player.name},
                seat=seat,
            )
        seen.add(player.pk)


def _check_club(club: Club, players: Sequence[Player]) -> None:
    for seat, player in enumerate(players):
        if player.club_id != club.pk:
            # Not the player's name: it is another club's.
            raise RecordError(
                "unknown_player", _("there is no player %(id)s") % {"id": player.pk}, seat=seat
            )


def _account(by: AbstractBaseUser | None) -> AbstractBaseUser | None:
    """``by`` where it is a stored account (not a signed-out visitor), else None."""
    return by if by is not None and by.pk is not None else None


def history_event(
    game: Game | int, action: str, by: AbstractBaseUser | None, number: int | None = None
) -> GameEvent:
    """A line of the game's history (``GameEvent``), not yet saved."""
    return GameEvent(
        game_id=game if isinstance(game, int) else game.pk,
        action=action,
        number=number,
        user=_account(by),
        username=by.get_username() if by is not None else "",
    )


def games_touch(games: QuerySet[Game]) -> None:
    """Move the version (``selectors.version_of``) of games whose pages and API bodies show
    what changed in another row (a player's or a named game's name, an edition's check), so
    that a reader holding their old ETag reads them again."""
    games.update(updated_at=timezone.now())


def _seats_for(game: Game, players: Sequence[Player]) -> list[Seat]:
    team_of = _team_of(game)
    return [Seat(game=game, seat=i, player=p, team=team_of.get(i)) for i, p in enumerate(players)]


def _team_of(game: Game) -> dict[int, int]:
    """Each seat's team (its index in ``game.teams``), by seat; a seat of no team is absent."""
    return {s: i for i, t in enumerate(game.teams or ()) for s in t if isinstance(s, int)}


def _locked_game(game: Game) -> Game:
    """The game re-read under ``select_for_update`` (callers are inside ``atomic``). Writers
    of one game queue here, so each sees the rounds the last one stored."""
    return (
        Game.objects.select_for_update(of=("self",))  # not the deck row other games share
        .select_related("edition")
        .defer("result", "sheet", "edition__data")
        .get(pk=game.pk)
    )


def _locked(game: Game) -> tuple[Game, list[Seat]]:
    """The locked game and its seats."""
    locked = _locked_game(game)
    return locked, list(locked.seats.select_related("player").order_by("seat"))


def _require_rounds_mode(game: Game) -> None:
    if game.mode != Game.Mode.ROUNDS:
        raise GameConflict("scorepad_game", _("this game was entered by its final sheet only"))


def _require_open(game: Game) -> None:
    _require_rounds_mode(game)
    if game.status == Game.Status.FINISHED:
        raise GameConflict("game_finished", _("the game is finished: reopen it to change it"))
