"""Writes to game records of any game. Every write that depends on the entries runs the game's
engine on the game as it would stand afterwards, inside one transaction with the game row
locked, and stores nothing if the engine refuses it. What is game-shaped comes from the
engine's ``GameInfo``; nothing here names a game."""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.records import access, adapters, bulk, events, stored_json
from games.records.errors import Forbidden, GameConflict, RecordError
from games.records.i18n import engine_message
from games.records.memory import collector_paused
from games.records.models import (
    MAX_ENTRIES,
    MAX_LOCATION_LENGTH,
    MAX_NOTES_LENGTH,
    Club,
    Edition,
    Game,
    GameEvent,
    GameShare,
    Player,
    Round,
    Seat,
    name_key,
)
from games.records.names import BadName, player_name
from scoring.engine import ENGINES, GameInfo, LogError, engine_for_log, get_engine
from scoring.engine.errors import Code, said


def clean_name(name: Any, *, seat: int | None = None, index: int | None = None) -> str:
    """A player's name as stored (``games.records.names``). Raises ``RecordError`` (invalid_text,
    too_long, blank_name) with the seat it was given for."""
    if not isinstance(name, str):
        raise RecordError("malformed", _("a player's name is a string"), seat=seat, index=index)
    try:
        return player_name(name)
    except BadName as exc:
        raise RecordError(exc.code, exc.message, seat=seat, index=index) from None


def _player_exists(name: str) -> GameConflict:
    return GameConflict(
        "player_exists", _("a player called %(name)r already exists") % {"name": name}
    )


def player_create(
    *, club: Club, name: str, created_by: AbstractBaseUser | None, user: Any = None
) -> Player:
    """A new player in ``club``'s roster. Raises ``GameConflict`` (player_exists) for a name
    the club's roster has (another club's players are no concern of this one)."""
    name = clean_name(name)
    if Player.objects.filter(club=club, name_key=name_key(name)).exists():
        raise _player_exists(name)
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=name, created_by=created_by, user=user)
    except IntegrityError as exc:  # a concurrent create of the same name
        raise _player_exists(name) from exc


def player_update(*, player: Player, name: str, by: AbstractBaseUser | None = None) -> Player:
    """Rename a player. Raises ``GameConflict`` (player_exists) for a name another player has
    in the club (told apart by ``name_key``: case and Unicode forms folded), and ``Forbidden``
    (player_in_others_games) when ``by`` is no admin of the club and the player sits in a game
    ``by`` did not create: a name in other people's records is theirs too."""
    name = clean_name(name)
    if (
        by is not None
        and not access.may(by, player.club_id, access.Can.ADMIN)
        and Seat.objects.filter(player=player).exclude(game__owner=by).exists()
    ):
        raise Forbidden(
            "player_in_others_games",
            _("this player sits in games others recorded: only the club's admins rename them"),
        )
    if (
        Player.objects.filter(club_id=player.club_id, name_key=name_key(name))
        .exclude(pk=player.pk)
        .exists()
    ):
        raise _player_exists(name)
    player.name = name
    try:
        with transaction.atomic():
            player.save(update_fields=["name"])
    except IntegrityError as exc:  # a concurrent rename to the same name
        raise _player_exists(name) from exc
    return player


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


def _clean_notes(location: Any, notes: Any) -> tuple[str, str]:
    """A game's location and notes, refused (never cut) past their lengths."""
    location = "" if location is None else str(location)
    notes = "" if notes is None else str(notes)
    stored_json.check_text(location, path="location", max_length=MAX_LOCATION_LENGTH)
    stored_json.check_text(notes, path="notes", max_length=MAX_NOTES_LENGTH)
    return location, notes


def _clean_entry(info: GameInfo, entry: Any, number: int) -> Any:
    """An entry as stored: through the gate, without the keys its format does not define.
    Raises ``RecordError`` with the entry's number."""
    try:
        return stored_json.clean(entry, info.entry_schema)
    except RecordError as exc:
        exc.round = number
        raise


def edition_create(
    *,
    game_type: str,
    key: str,
    data: Any,
    description: str = "",
    verified: bool = False,
    created_by: AbstractBaseUser | None,
) -> Edition:
    """A new edition (version of a game's printed data). Raises ``LogError`` for data the
    engine refuses (Pot de Vin: bad_deck), ``GameConflict`` (edition_exists) for a taken key."""
    info = _game_info(game_type)
    if info.edition_from_data is None or info.edition_to_data is None:
        raise _no_editions(info)
    if not isinstance(data, dict):  # every game's printed data is an object of named parts
        raise LogError(f"bad_{info.edition_log_key}", said("an edition's data is a JSON object"))
    stored_json.check(data, path="data")
    stored_json.check_text(description, path="description", max_length=MAX_NOTES_LENGTH)
    # What is stored is what the engine read: keys it does not know are not kept.
    data = info.edition_to_data(info.edition_from_data(key, data))
    if Edition.objects.filter(game_type=game_type, key=key).exists():
        raise GameConflict(
            f"{info.edition_log_key}_exists",
            _("%(game)s edition %(key)r exists; a correction is a new version")
            % {"game": info.label, "key": key},
        )
    return Edition.objects.create(
        game_type=game_type,
        key=key,
        data=data,
        description=description,
        verified=verified,
        created_by=created_by,
    )


def edition_mark_verified(*, edition: Edition, verified: bool = True) -> Edition:
    """Mark an edition checked (or not) against the printed material. Staff only: the caller
    checks who asks. The data itself never changes (a correction is a new version)."""
    edition.verified = verified
    edition.save(update_fields=["verified"])
    return edition


def editions_ensure_builtin() -> None:
    """Store the editions the engines ship (Pot de Vin's ``standard`` deck) that are missing.
    Run after every ``migrate`` (``games.apps``), so that reads never write."""
    for game_type, engine in ENGINES.items():
        for key, builtin in engine.info.builtin_editions.items():
            Edition.objects.get_or_create(
                game_type=game_type,
                key=key,
                defaults={"data": builtin["data"], "description": builtin["description"]},
            )


def editions_by_key(game_type: str) -> dict[str, Edition]:
    """Every stored edition of ``game_type`` by key."""
    return {e.key: e for e in Edition.objects.filter(game_type=game_type)}


def edition_default(game_type: str) -> Edition | None:
    """The edition a new game of ``game_type`` uses unless told otherwise (``None`` for a game
    without editions). Raises ``RecordError`` (unknown_edition) if it is not stored."""
    key = _game_info(game_type).default_edition
    if key is None:
        return None
    found = Edition.objects.filter(game_type=game_type, key=key).first()
    if found is None:
        raise RecordError("unknown_edition", _("no edition %(key)r is stored") % {"key": key})
    return found


def _players_by_name(
    club: Club, names: Sequence[str], created_by: AbstractBaseUser | None
) -> list[Player]:
    """The players of ``club`` with these names (already ``clean_name``d), creating the ones
    not met before (told apart by ``name_key``: case and Unicode forms folded)."""
    keys = [name_key(n) for n in names]
    wanted = dict(zip(keys, names, strict=True))
    roster = Player.objects.filter(club=club)
    found = {p.name_key: p for p in roster.filter(name_key__in=list(wanted))}
    missing = [
        Player(club=club, name=wanted[k], name_key=k, created_by=created_by)
        for k in wanted
        if k not in found
    ]
    if missing:
        # Another request may create the same names meanwhile: keep theirs, then read back.
        Player.objects.bulk_create(missing, ignore_conflicts=True)
        found.update(
            (p.name_key, p) for p in roster.filter(name_key__in=[p.name_key for p in missing])
        )
    return [found[k] for k in keys]


def players_resolve(
    refs: Sequence[int | str], *, club: Club, created_by: AbstractBaseUser | None
) -> list[Player]:
    """Players of ``club`` by id, or by name (a new name creates a player), in the order
    given. Another club's player id is unknown here, like one that does not exist."""
    ids = [r for r in refs if isinstance(r, int)]
    by_id = Player.objects.filter(club=club).in_bulk(ids)
    names = [clean_name(r, seat=seat) for seat, r in enumerate(refs) if isinstance(r, str)]
    by_name = iter(_players_by_name(club, names, created_by)) if names else iter(())
    players = []
    for seat, ref in enumerate(refs):
        if isinstance(ref, int):
            if ref not in by_id:
                raise RecordError(
                    "unknown_player", _("there is no player %(id)s") % {"id": ref}, seat=seat
                )
            players.append(by_id[ref])
        else:
            players.append(next(by_name))
    return players


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


def _check_club(club: Club, players: Sequence[Player]) -> None:
    for seat, player in enumerate(players):
        if player.club_id != club.pk:
            # Not the player's name: it is another club's.
            raise RecordError(
                "unknown_player", _("there is no player %(id)s") % {"id": player.pk}, seat=seat
            )


def _no_editions(info: GameInfo) -> RecordError:
    return RecordError("no_editions", _("%(game)s has no editions") % {"game": info.label})


def _edition_for(info: GameInfo, edition: Edition | None) -> Edition | None:
    if not info.has_editions:
        if edition is not None:
            raise _no_editions(info)
        return None
    if edition is None:
        return edition_default(info.game_id)
    if edition.game_type != info.game_id:
        raise RecordError(
            "unknown_edition",
            _("%(key)r is not a %(game)s edition") % {"key": edition.key, "game": info.label},
        )
    return edition


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


def _seats_for(game: Game, players: Sequence[Player]) -> list[Seat]:
    team_of = {s: i for i, t in enumerate(game.teams or ()) for s in t if isinstance(s, int)}
    return [Seat(game=game, seat=i, player=p, team=team_of.get(i)) for i, p in enumerate(players)]


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


# Active share links a game may have at once: enough for every table it is played at.
MAX_SHARES = 20


def share_create(*, game: Game, by: AbstractBaseUser | None = None) -> GameShare:
    """A new read-only link to ``game`` for the people at the table. Raises ``GameConflict``
    (``too_many_shares``) past ``MAX_SHARES`` active links."""
    with transaction.atomic():
        game = _locked_game(game)
        if GameShare.objects.active().filter(game=game).count() >= MAX_SHARES:
            raise GameConflict(
                "too_many_shares",
                _("a game has at most %(most)s share links: stop one first") % {"most": MAX_SHARES},
            )
        return GameShare.objects.create(
            game=game, token=secrets.token_urlsafe(24), created_by=_account(by)
        )


def share_revoke(*, game: Game, token: str) -> bool:
    """Stop a share link of ``game``: it then answers like one that never existed. False when
    ``token`` is no active link of this game."""
    stopped = (
        GameShare.objects.active().filter(game=game, token=token).update(revoked_at=timezone.now())
    )
    return stopped > 0


def game_import(
    *, club: Club, owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]
) -> list[Game]:
    """Create one game of ``club`` per log document: finished when the log is complete, else
    in progress. All or nothing: an impossible document stores nothing, and the
    ``RecordError`` says which document (``index``) broke."""
    with collector_paused():
        return _import_all(club, owner, documents)


def _import_all(
    club: Club, owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]
) -> list[Game]:
    editions = EditionCache()
    planned = []
    entries = 0
    for index, doc in enumerate(documents):
        try:
            plan = import_plan(club=club, owner=owner, document=doc, editions=editions)
        except LogError as exc:
            # i18n: engine message
            raise RecordError(
                exc.code, engine_message(exc), round=exc.round, seat=exc.seat, index=index
            ) from exc
        except RecordError as exc:
            exc.index = index
            raise
        entries += len(plan[2])
        if entries > MAX_IMPORT_ENTRIES:
            raise RecordError(
                "too_many_entries",
                _("one import holds at most %(most)s entries in all its documents")
                % {"most": MAX_IMPORT_ENTRIES},
                index=index,
            )
        planned.append(plan)
    with transaction.atomic():
        return import_store(club=club, owner=owner, planned=planned)


PlannedGame = tuple[Game, list[str], list[dict[str, Any]]]

# The entries of all the documents of one import (or one batch of an import job), so that one
# request cannot hold a worker for long: 50 games at the most entries a game may have.
MAX_IMPORT_ENTRIES = 50 * MAX_ENTRIES


def log_document_clean(document: Any) -> dict[str, Any]:
    """A log document as an import stores it: through the gate of ``stored_json``, without
    the keys its format does not define, with at most ``MAX_ENTRIES`` entries. A document no
    engine reads keeps only its ``format``, which is all its refusal needs. Raises
    ``RecordError`` (malformed, too_many_entries and the gate's codes)."""
    if not isinstance(document, dict):
        raise RecordError("malformed", _("a log document is a JSON object"))
    try:
        info = engine_for_log(document).info
    except LogError:
        stored_json.check(document)
        return {"format": document.get("format")}
    entries = document.get(info.entries_key)
    if isinstance(entries, list) and len(entries) > MAX_ENTRIES:
        raise RecordError(
            "too_many_entries",
            _("a game has at most %(most)s entries, not %(count)s")
            % {"most": MAX_ENTRIES, "count": len(entries)},
        )
    stored_json.check(document)
    cleaned: dict[str, Any] = stored_json.prune(document, stored_json.log_schema(info))
    return cleaned


def import_store(
    *, club: Club, owner: AbstractBaseUser, planned: Sequence[PlannedGame]
) -> list[Game]:
    """Store games of ``club`` checked by ``import_plan``. The caller holds the
    transaction."""
    players = _players_by_name(club, [n for _, names, _ in planned for n in names], owner)
    games = [g for g, _, _ in planned]
    bulk.bulk_insert(games)
    seats: list[Seat] = []
    rounds: list[tuple[int, int, Any, datetime.datetime]] = []
    now = timezone.now()
    at = 0
    for game, names, logged in planned:
        game_players = players[at : at + len(names)]
        at += len(names)
        game_seats = _seats_for(game, game_players)
        final = game.status == Game.Status.FINISHED
        adapters.store_result(game, game_seats, game.result or {}, final=final)
        seats.extend(game_seats)
        # Rows, not Round objects: a game has a dozen entries or more.
        rounds.extend((game.pk, i, entry, now) for i, entry in enumerate(logged, start=1))
    bulk.bulk_insert(seats)
    bulk.insert_rows(Round, ("game", "number", "data", "created_at"), rounds)
    bulk.bulk_insert([history_event(g, GameEvent.Action.CREATED, owner) for g in games])
    events.results_changed(game_ids=[g.pk for g in games if g.status == Game.Status.FINISHED])
    return games


class EditionCache:
    """Stored editions by game type and key, each game type read once (an import of many logs
    looks them up per document)."""

    def __init__(self) -> None:
        self._by_type: dict[str, dict[str, Edition]] = {}

    def get(self, game_type: str, key: str) -> Edition | None:
        if game_type not in self._by_type:
            self._by_type[game_type] = editions_by_key(game_type)
        return self._by_type[game_type].get(key)


def import_plan(
    *,
    club: Club,
    owner: AbstractBaseUser,
    document: dict[str, Any],
    editions: EditionCache,
    cleaned: bool = False,
) -> PlannedGame:
    """Replay one log document of any game (its engine chosen by ``format``) into an unsaved
    game. Raises ``LogError`` for an impossible document, ``RecordError`` for one the records
    refuse (``log_document_clean``, player names, location and notes). ``cleaned``: the
    document already passed ``log_document_clean`` (an import job's, when it was started), so
    it is not walked again; it is then the plan's own to change."""
    doc = document if cleaned else log_document_clean(document)
    engine = engine_for_log(doc)
    info = engine.info
    names = doc.get("players")
    if isinstance(names, list):
        names = doc["players"] = [
            clean_name(n, seat=seat) if isinstance(n, str) else n for seat, n in enumerate(names)
        ]
    location, notes = _clean_notes(doc.get("location"), doc.get("notes"))
    edition = None
    if info.has_editions:
        key = doc.get(info.edition_log_key) or info.default_edition
        edition = editions.get(info.game_id, key) if isinstance(key, str) else None
        if edition is None:
            raise LogError(
                f"unknown_{info.edition_log_key}",
                # Translators: {kind} is the log's key for an edition, "deck" or "edition" (the
                # API keeps it in English; the pages put it in words); {key!r} is its quoted key.
                said(
                    "no {kind} {key!r} is stored", kind=Code(info.edition_log_key, False), key=key
                ),
            )
    if isinstance(names, list) and len({name_key(str(n)) for n in names}) != len(names):
        raise LogError("player_twice", said("a player cannot sit at two seats of one game"))
    result = adapters.storable(engine.replay(doc, edition=adapters.engine_edition(edition)))
    played_on = _date_or_none(doc.get("played_on"))
    finish = {k: doc[k] for k in info.finish_keys if doc.get(k) is not None}
    game = Game(
        club=club,
        game_type=engine.game_id,
        edition=edition,
        variant=(doc.get("variant") or info.default_variant or "") if info.variants else "",
        owner=owner,
        player_count=len(result["players"]),
        first_player=doc["first_player"],
        teams=doc.get("teams"),
        setup={k: doc.get(k) for k in info.setup_keys},
        finish=finish or None,
        played_on=played_on or timezone.localdate(),
        location=location,
        notes=notes,
        result=result,
        engine_version=result["engine_version"],
    )
    if result["complete"]:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
    entries = doc.get(info.entries_key) or []
    return game, [p["name"] for p in result["players"]], list(entries)


def _date_or_none(value: Any) -> datetime.date | None:
    if value in (None, ""):
        return None
    try:
        return datetime.date.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise LogError(
            "malformed", said("'played_on' is a date like 2026-11-22, not {value!r}", value=value)
        ) from exc


def game_export_log(*, game: Game) -> dict[str, Any]:
    """The game as its engine's log document, which re-imports to the same result."""
    _require_rounds_mode(game)
    seats = list(game.seats.select_related("player").order_by("seat"))
    return adapters.game_log(game, seats, adapters.round_logs(game))
