"""Writes of a club's named games (``BoardGame``: the games it plays that have no engine here)
and of plays known by their final scores only (``Game.Mode.RESULT``): every play of a named
game, and a play of one of ours brought in without its sheet. Scored by the generic scorer
(``scoring.engine.score_result``, rules O1-O6 in docs/other-games.md); everything is checked
before anything is written."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from games.records import access, adapters, events, stored_json
from games.records.errors import GameConflict, RecordError
from games.records.i18n import engine_message
from games.records.models import (
    MAX_GAME_NAME_LENGTH,
    BoardGame,
    Club,
    Edition,
    Game,
    GameEvent,
    Player,
    Seat,
    name_key,
)
from games.records.names import BadName, player_name
from games.records.services import (
    _check_club,
    _check_distinct,
    _clean_notes,
    _edition_for,
    _game_info,
    _seats_for,
    games_touch,
    history_event,
)
from scoring.engine import GameInfo, LogError
from scoring.engine.errors import check_first_player

# The largest BoardGameGeek id a column stores (a positive 32-bit integer on every database).
MAX_BGG_ID = 2**31 - 1
# The longest a play may have lasted, in minutes: a week (a campaign's session is far shorter).
MAX_DURATION = 7 * 24 * 60
WIN_RULES = tuple(BoardGame.Win.values)


def board_games(user: Any, queryset: QuerySet[BoardGame] | None = None) -> QuerySet[BoardGame]:
    """The named games the user may read: their clubs' (nothing for anonymous visitors, like
    players: public results show a named game's name on its plays only)."""
    queryset = BoardGame.objects.all() if queryset is None else queryset
    if user is None or not user.is_authenticated:
        return queryset.none()
    ids = access.club_ids(user)
    return queryset if ids is None else queryset.filter(club_id__in=ids)


def clean_game_name(name: Any) -> str:
    """A named game's name, under the rule of player names (``games.records.names``) with room for
    the longest titles. Raises ``RecordError`` (malformed, invalid_text, too_long, blank_name)."""
    if not isinstance(name, str):
        raise RecordError("malformed", _("a game's name is a string"))
    try:
        return player_name(name, max_length=MAX_GAME_NAME_LENGTH)
    except BadName as exc:
        raise RecordError(exc.code, exc.message) from None


def _clean_bgg_id(bgg_id: Any) -> int | None:
    if bgg_id is None:
        return None
    if type(bgg_id) is not int or not 1 <= bgg_id <= MAX_BGG_ID:
        raise RecordError(
            "bad_bgg_id",
            _("a BoardGameGeek id is a whole number from 1 to %(most)s") % {"most": MAX_BGG_ID},
        )
    return bgg_id


def _clean_win(win: Any) -> str:
    if not isinstance(win, str) or win not in WIN_RULES:
        raise RecordError(
            "bad_win", _("how a game is won is one of %(rules)s") % {"rules": ", ".join(WIN_RULES)}
        )
    return win


def _board_game_exists(name: str) -> GameConflict:
    return GameConflict(
        "board_game_exists", _("the club already has a game called %(name)r") % {"name": name}
    )


def board_game_create(
    *,
    club: Club,
    name: str,
    bgg_id: int | None = None,
    win: str = BoardGame.Win.HIGHEST,
    by: AbstractBaseUser | None = None,
) -> BoardGame:
    """A new named game of ``club``. Raises ``RecordError`` (the name's codes, bad_bgg_id,
    bad_win) and ``GameConflict`` (board_game_exists) for a name the club has (told apart like
    player names: case and Unicode forms folded)."""
    name = clean_game_name(name)
    bgg_id = _clean_bgg_id(bgg_id)
    win = _clean_win(win)
    if BoardGame.objects.filter(club=club, name_key=name_key(name)).exists():
        raise _board_game_exists(name)
    creator = by if by is not None and by.pk is not None else None
    try:
        with transaction.atomic():
            return BoardGame.objects.create(
                club=club, name=name, bgg_id=bgg_id, win=win, created_by=creator
            )
    except IntegrityError as exc:  # a concurrent create of the same name
        raise _board_game_exists(name) from exc


_UNSET: Any = object()


def board_game_update(
    *,
    board_game: BoardGame,
    name: Any = _UNSET,
    bgg_id: Any = _UNSET,
    win: Any = _UNSET,
    by: AbstractBaseUser | None = None,
) -> BoardGame:
    """Rename a named game, change its BoardGameGeek id (None: none) or how it is won. A new
    way to win re-scores its plays, all or none: ``RecordError`` (``win_refused``, naming the
    first play that the new rule cannot score) changes nothing. Raises ``GameConflict``
    (board_game_exists) for a name another of the club's games has.

    Runs under ``select_for_update`` of the named game and its plays when ``win`` changes."""
    fields: dict[str, Any] = {}
    if name is not _UNSET:
        fields["name"] = clean_game_name(name)
        taken = BoardGame.objects.filter(
            club_id=board_game.club_id, name_key=name_key(fields["name"])
        ).exclude(pk=board_game.pk)
        if taken.exists():
            raise _board_game_exists(fields["name"])
    if bgg_id is not _UNSET:
        fields["bgg_id"] = _clean_bgg_id(bgg_id)
    if win is not _UNSET:
        fields["win"] = _clean_win(win)
    if not fields:
        return board_game
    try:
        with transaction.atomic():
            locked = BoardGame.objects.select_for_update().get(pk=board_game.pk)
            rescored = []
            if fields.get("win", locked.win) != locked.win:
                rescored = _rescore_plays(locked, fields["win"], by)
            for key, value in fields.items():
                setattr(board_game, key, value)
            board_game.save(update_fields=list(fields))
            if rescored:
                events.results_changed(game_ids=rescored)
            else:  # the plays show its name and BoardGameGeek link
                games_touch(Game.objects.filter(board_game=board_game))
    except IntegrityError as exc:  # a concurrent rename to the same name
        raise _board_game_exists(fields.get("name", board_game.name)) from exc
    return board_game


def _rescore_plays(board_game: BoardGame, win: str, by: AbstractBaseUser | None) -> list[int]:
    """Score every play of ``board_game`` again with ``win``; nothing stored if one cannot be.
    The caller holds the transaction."""
    games = list(
        Game.objects.select_for_update(of=("self",)).filter(board_game=board_game).order_by("id")
    )
    stored = adapters.stored_games([g.pk for g in games])
    seats_changed: list[Seat] = []
    for game in games:
        names = [name for _, _, name in stored[game.pk].seats]
        sheet = {**(game.sheet or {}), "win": win}
        if win == BoardGame.Win.COOPERATIVE:
            sheet.setdefault("won", None)
        else:
            sheet["won"] = None
        try:
            result = adapters.score_final(game, names, sheet)
        except LogError as exc:
            raise RecordError(
                "win_refused",
                _("play %(id)s cannot be scored that way: %(why)s")
                # i18n: engine message
                % {"id": game.pk, "why": engine_message(exc)},
                seat=exc.seat,
            ) from exc
        seats = [Seat(pk=pk, seat=seat) for pk, seat, _ in stored[game.pk].seats]
        game.sheet = sheet
        adapters.store_result(game, seats, result, final=True)
        game.save(update_fields=["sheet", "result", "engine_version", "updated_at"])
        seats_changed.extend(seats)
        history_event(game, GameEvent.Action.EDITED, by).save()
    Seat.objects.bulk_update(seats_changed, ["score", "rank"])
    return [g.pk for g in games]


def board_game_delete(*, board_game: BoardGame) -> None:
    """Delete a named game. Raises ``GameConflict`` (board_game_has_plays) while any play of it
    is stored: delete those first."""
    with transaction.atomic():
        locked = BoardGame.objects.select_for_update().get(pk=board_game.pk)
        if Game.objects.filter(board_game=locked).exists():
            raise GameConflict(
                "board_game_has_plays",
                _("%(name)s has plays: delete them first") % {"name": locked.name},
            )
        locked.delete()


def check_player_count(info: GameInfo, count: int) -> None:
    """Raises ``RecordError`` (bad_player_count) for a play of ``info``'s game with ``count``
    players, which the game is not for."""
    if count not in info.player_counts:
        raise RecordError(
            "bad_player_count",
            _("%(game)s is for %(fewest)s to %(most)s players, not %(count)s")
            % {
                "game": info.label,
                "fewest": min(info.player_counts),
                "most": max(info.player_counts),
                "count": count,
            },
        )


def _clean_duration(duration: Any) -> int | None:
    if duration is None:
        return None
    if type(duration) is not int or not 0 <= duration <= MAX_DURATION:
        raise RecordError(
            "bad_duration",
            _("a duration is a whole number of minutes from 0 to %(most)s")
            % {"most": MAX_DURATION},
        )
    return duration


def _clean_sheet(sheet: Any, count: int) -> list[Any]:
    """The lines of a sheet through the gate of stored JSON, each keeping only the keys a line
    has (an unknown one is refused by the scorer, not dropped: it may be a misspelt score)."""
    cleaned = stored_json.clean(sheet, path="sheet")
    if not isinstance(cleaned, list) or len(cleaned) != count:
        raise RecordError(
            "malformed",
            _("'sheet' is a list of %(count)s lines, one per seat") % {"count": count},
        )
    return cleaned


def result_game_create(
    *,
    club: Club,
    owner: AbstractBaseUser,
    players: Sequence[Player],
    game_type: str,
    sheet: Any,
    board_game: BoardGame | None = None,
    win: str | None = None,
    won: bool | None = None,
    teams: list[list[int]] | None = None,
    first_player: int | None = None,
    played_on: datetime.date | None = None,
    location: str = "",
    notes: str = "",
    duration: int | None = None,
    edition: Edition | None = None,
    by: AbstractBaseUser | None = None,
) -> Game:
    """A finished play known by its final scores, ranks or winners only (``Game.Mode.RESULT``),
    ranked by the generic scorer. ``sheet`` holds one line per seat, ``{"score", "rank",
    "winner"}`` (each may be null or left out). A game without an engine here ("other") needs
    ``board_game``, one of the club's, which says how it is won; one of ours is won the way its
    engine's ``GameInfo.result_win_rule()`` says (``win``, when given, must be that). ``won``
    is a cooperative game's outcome. ``by`` as for ``services.game_create``.

    Raises ``RecordError`` (board_game_required, board_game_not_allowed, unknown_board_game,
    bad_win, bad_duration, bad_first_player, the gate's codes...) and ``LogError`` (the
    scorer's codes, with the seat) before anything is written."""
    info = _game_info(game_type)
    if not info.logged:
        if board_game is None:
            raise RecordError("board_game_required", _("say which of the club's games was played"))
        if board_game.club_id != club.pk:
            # The same answer as for a game that does not exist: it is another club's.
            raise RecordError("unknown_board_game", _("the club has no such game"))
        rule = board_game.win
    else:
        if board_game is not None:
            raise RecordError(
                "board_game_not_allowed",
                _("%(game)s is recorded here under its own name") % {"game": info.label},
            )
        rule = info.result_win_rule()
    if win is not None and win != rule:
        raise RecordError(
            "bad_win", _("this game is won by %(rule)s, not %(win)s") % {"rule": rule, "win": win}
        )
    check_player_count(info, len(players))
    _check_distinct(players)
    _check_club(club, players)
    if teams is not None and info.logged and len(players) not in info.team_counts:
        raise RecordError(
            "bad_teams",
            _("%(game)s has no teams with %(count)s players")
            % {"game": info.label, "count": len(players)},
        )
    if first_player is not None:
        try:
            check_first_player(first_player, len(players))
        except LogError as exc:
            # i18n: engine message
            raise RecordError(exc.code, engine_message(exc)) from None
    teams = stored_json.clean(teams, path="teams")
    lines = _clean_sheet(sheet, len(players))
    location, notes = _clean_notes(location, notes)
    duration = _clean_duration(duration)
    stored_sheet: dict[str, Any] = {"win": rule, "sheet": lines, "won": won}
    game = Game(
        club=club,
        game_type=game_type,
        edition=_edition_for(info, edition),
        variant=info.default_variant or "",
        board_game=board_game,
        owner=owner,
        mode=Game.Mode.RESULT,
        status=Game.Status.FINISHED,
        player_count=len(players),
        first_player=first_player,
        teams=teams,
        sheet=stored_sheet,
        played_on=played_on or timezone.localdate(),
        location=location,
        notes=notes,
        duration=duration,
        finished_at=timezone.now(),
    )
    result = adapters.score_final(game, [p.name for p in players])
    if result["teams"] is not None:  # a cooperative game is one team, however it came
        game.teams = [t["seats"] for t in result["teams"]]
    seats = _seats_for(game, players)
    with transaction.atomic():
        adapters.store_result(game, seats, result, final=True)
        game.save()
        Seat.objects.bulk_create(seats)
        history_event(game, GameEvent.Action.CREATED, by or owner).save()
        events.results_changed(game_ids=[game.pk])
    return game
