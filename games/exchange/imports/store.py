"""Storing planned plays: each play's players and named game resolved (created where new),
its game created or updated in place, and what the app's ids mean kept for the next import."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.exchange.formats.plays import PlayFile
from games.exchange.imports.build import _built, _first_player, _teams, _win_rule
from games.exchange.imports.matching import plays_plan
from games.exchange.imports.plans import (
    CREATE,
    OTHER,
    SKIP,
    UNCHANGED,
    UPDATE,
    GameMatch,
    ImportPlan,
    PlayPlan,
    _place_sheet,
)
from games.exchange.imports.play_json import fingerprint
from games.records import adapters, board_games, events, services
from games.records.errors import GameConflict, RecordError
from games.records.i18n import engine_message
from games.records.models import (
    BoardGame,
    Club,
    Game,
    GameEvent,
    Player,
    PlaySource,
    Seat,
    SourceRef,
    name_key,
)
from scoring.engine import LogError


@dataclass
class _Resolved:
    players: list[Player]
    board_game: BoardGame | None


def _resolve(plan: PlayPlan, club: Club, app: str, by: AbstractBaseUser) -> _Resolved:
    """The play's players and named game as records, created where new, looked up again now
    (an earlier play of the same import may have made them)."""
    assert plan.game is not None
    refs = dict(
        SourceRef.objects.filter(
            club=club,
            app=app,
            kind=SourceRef.Kind.PLAYER,
            external_id__in=[s.ref for s in plan.seats if s.ref is not None],
            player__isnull=False,
        ).values_list("external_id", "player_id")
    )
    by_ref = Player.objects.filter(club=club).in_bulk(list(refs.values()))
    named = [s.name for s in plan.seats if s.ref not in refs or refs[s.ref] not in by_ref]
    created = iter(services.players_resolve(named, club=club, created_by=by) if named else [])
    players = [
        by_ref[refs[s.ref]] if s.ref in refs and refs[s.ref] in by_ref else next(created)
        for s in plan.seats
    ]
    board_game = None
    if plan.game.game_type == OTHER:
        board_game = _board_game(plan.game, club, app, by)
    return _Resolved(players, board_game)


def _board_game(match: GameMatch, club: Club, app: str, by: AbstractBaseUser) -> BoardGame:
    games = BoardGame.objects.filter(club=club).order_by("id")
    if match.ref is not None:
        learnt = SourceRef.objects.filter(
            club=club, app=app, kind=SourceRef.Kind.GAME, external_id=match.ref
        ).values("board_game_id")
        found = games.filter(pk__in=learnt).first()
        if found is not None:
            return found
    if match.bgg_id is not None:
        found = games.filter(bgg_id=match.bgg_id).first()
        if found is not None:
            return found
    found = games.filter(name_key=name_key(match.name)).first()
    if found is not None:
        return found
    return board_games.board_game_create(
        club=club, name=match.name, bgg_id=match.bgg_id, win=match.win, by=by
    )


def _learn(plan: PlayPlan, resolved: _Resolved, club: Club, app: str) -> None:
    """Keep what the app's ids mean here, for the next import (``SourceRef``)."""
    rows = [
        SourceRef(
            club=club, app=app, kind=SourceRef.Kind.PLAYER, external_id=seat.ref, player=player
        )
        for seat, player in zip(plan.seats, resolved.players, strict=True)
        if seat.ref
    ]
    if resolved.board_game is not None and plan.game is not None and plan.game.ref:
        rows.append(
            SourceRef(
                club=club,
                app=app,
                kind=SourceRef.Kind.GAME,
                external_id=plan.game.ref,
                board_game=resolved.board_game,
            )
        )
    if plan.play.location_ref and plan.location:
        rows.append(
            SourceRef(
                club=club,
                app=app,
                kind=SourceRef.Kind.LOCATION,
                external_id=plan.play.location_ref,
                location=plan.location,
            )
        )
    # What an id already means is kept: it was matched first.
    SourceRef.objects.bulk_create(rows, ignore_conflicts=True)


def _create(
    plan: PlayPlan, resolved: _Resolved, club: Club, owner: AbstractBaseUser, by: AbstractBaseUser
) -> Game:
    """A new game through the services that record games known by their result or sheet."""
    assert plan.game is not None
    common: dict[str, Any] = {
        "club": club,
        "owner": owner,
        "players": resolved.players,
        "game_type": plan.game.game_type,
        "played_on": plan.play.played_on,
        "location": plan.location,
        "notes": plan.play.comments,
        "by": by,
    }
    places = plan.places()
    if plan.mode() == Game.Mode.SCOREPAD and places is not None:
        game = services.scorepad_game_create(
            sheet=_place_sheet(plan.game.game_type, places), **common
        )
        # What the sheet does not hold, kept like any game's.
        game.first_player = _first_player(plan.seats)
        game.duration = board_games._clean_duration(plan.play.duration)
        game.save(update_fields=["first_player", "duration"])
        return game
    rule = _win_rule(plan)
    return board_games.result_game_create(
        sheet=plan.sheet_lines(),
        board_game=resolved.board_game,
        won=plan.play.cooperative_won if rule == BoardGame.Win.COOPERATIVE else None,
        teams=_teams(plan.seats),
        first_player=_first_player(plan.seats),
        duration=plan.play.duration,
        **common,
    )


# What an update replaces of a game: everything a play says.
_UPDATED_FIELDS = [
    "game_type",
    "edition",
    "variant",
    "board_game",
    "mode",
    "status",
    "player_count",
    "first_player",
    "teams",
    "finish",
    "sheet",
    "result",
    "engine_version",
    "played_on",
    "location",
    "notes",
    "duration",
    "finished_at",
    "updated_at",
]


def _update(
    plan: PlayPlan, resolved: _Resolved, game: Game, club: Club, by: AbstractBaseUser
) -> Game:
    """Make ``game`` the play as it reads now, in place: its seats, sheet, result, date,
    location... (checked as a new one would be, ``_built``), with an "edited" line in its
    history; statistics follow. Runs under ``select_for_update`` of the game."""
    locked = Game.objects.select_for_update(of=("self",)).get(pk=game.pk)
    built, result = _built(plan, club, [p.name for p in resolved.players])
    built.board_game = resolved.board_game
    for name in _UPDATED_FIELDS:
        if name != "updated_at":
            setattr(locked, name, getattr(built, name))
    locked.finish = None
    seats = services._seats_for(locked, resolved.players)
    adapters.store_result(locked, seats, result, final=True)
    Seat.objects.filter(game=locked).delete()
    locked.save(update_fields=_UPDATED_FIELDS)
    Seat.objects.bulk_create(seats)
    services.history_event(locked, GameEvent.Action.EDITED, by).save()
    events.results_changed(game_ids=[locked.pk])
    return locked


def play_store(
    plan: PlayPlan,
    *,
    club: Club,
    app: str,
    owner: AbstractBaseUser,
    by: AbstractBaseUser | None = None,
) -> tuple[str, Game | None]:
    """Store one planned play: (what was done, its game). The caller holds the transaction.
    Raises ``LogError`` and ``RecordError`` for a play the records refuse, and
    ``GameConflict`` (``play_imported``) when the same play was stored meanwhile."""
    if plan.action == SKIP:
        return SKIP, None
    if plan.action == UNCHANGED:
        return UNCHANGED, Game.objects.filter(pk=plan.existing_game_id).first()
    who = by or owner
    resolved = _resolve(plan, club, app, who)
    digest = fingerprint(plan.play)
    source = None
    if plan.action == UPDATE:
        source = (
            PlaySource.objects.select_for_update()
            .select_related("game")
            .filter(club=club, app=app, external_id=plan.play.external_id)
            .first()
        )
    if source is not None:
        game = _update(plan, resolved, source.game, club, who)
        source.fingerprint, source.imported_at = digest, timezone.now()
        source.save(update_fields=["fingerprint", "imported_at"])
        _learn(plan, resolved, club, app)
        return UPDATE, game
    # New, or its game was deleted meanwhile: the play is new again.
    game = _create(plan, resolved, club, owner, who)
    try:
        with transaction.atomic():
            PlaySource.objects.create(
                club=club, app=app, external_id=plan.play.external_id, game=game, fingerprint=digest
            )
    except IntegrityError as exc:
        raise GameConflict(
            "play_imported", _("this play was imported meanwhile, by another import")
        ) from exc
    _learn(plan, resolved, club, app)
    return CREATE, game


def plays_store(
    *,
    club: Club,
    owner: AbstractBaseUser,
    play_file: PlayFile,
    format: str | None = None,
    by: AbstractBaseUser | None = None,
) -> tuple[ImportPlan, dict[int, tuple[str, int | None]]]:
    """Import every play of ``play_file`` into ``club``: planned (``plays_plan``), then stored
    in one transaction, all or nothing: a play the records refuse that the plan did not foresee
    stores nothing, and its error is raised with the play's number as ``index``. The plays the
    plan skips are skipped. Returns the plan and what was done (play number to action and
    game id): ``plan.summary(outcomes)`` is the import's answer."""
    with transaction.atomic(), events.results_held():
        plan = plays_plan(club=club, play_file=play_file, format=format)
        outcomes: dict[int, tuple[str, int | None]] = {}
        for play in plan.plays:
            try:
                action, game = play_store(play, club=club, app=plan.app, owner=owner, by=by)
            except LogError as exc:
                # i18n: engine message
                raise RecordError(
                    exc.code, engine_message(exc), seat=exc.seat, index=play.key
                ) from exc
            except RecordError as exc:
                exc.index = play.key
                raise
            outcomes[play.key] = (action, game.pk if game is not None else None)
    return plan, outcomes
