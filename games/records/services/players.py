"""Players of a club's roster: created, renamed, and found by id or name (a new name
creating one)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.records import access
from games.records.errors import Forbidden, GameConflict, RecordError
from games.records.models import Club, Game, Player, Seat, name_key
from games.records.names import BadName, player_name
from games.records.services.common import games_touch


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
            games_touch(Game.objects.filter(seats__player=player))  # their pages show the name
    except IntegrityError as exc:  # a concurrent rename to the same name
        raise _player_exists(name) from exc
    return player


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
