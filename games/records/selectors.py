"""Reads of game records, shaped for the API and pages (prefetching what they show)."""

from __future__ import annotations

import datetime
from typing import Any

from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from games.records import access, adapters
from games.records.game_types import plugins
from games.records.models import (
    Club,
    Edition,
    Game,
    GameEvent,
    GameShare,
    Membership,
    Player,
    PlaySource,
    Round,
    Seat,
)

KNOWN_PLAYERS_SHOWN = 500
PLAYERS_LISTED = 200


def _seats() -> Prefetch[Seat]:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("seat"))


def game_list() -> QuerySet[Game]:
    # Winners come from the seats' ranks, so the large JSON columns are not read.
    return (
        Game.objects.select_related("club", "edition", "owner", "board_game")
        .defer("result", "setup", "sheet", "finish", "edition__data")
        .prefetch_related(_seats())
        .order_by("-played_on", "-id")
    )


def game_detail_queryset() -> QuerySet[Game]:
    return (
        Game.objects.select_related("club", "edition", "owner", "board_game")
        .defer("edition__data")
        .prefetch_related(_seats(), Prefetch("rounds", queryset=Round.objects.order_by("number")))
    )


def game_source(game: Game) -> PlaySource | None:
    """Where an imported game came from (the other app and its id of the play), or None."""
    return PlaySource.objects.filter(game_id=game.pk).first()


def game_for_write() -> QuerySet[Game]:
    """Enough of a game to check who may change it, and to pick its shapes."""
    return Game.objects.only("id", "club_id", "owner_id", "game_type")


def player_id_of(user: Any, club_id: int | None = None) -> int | None:
    """The player linked to the account: in ``club_id``, or in its first club."""
    players = Player.objects.filter(user=user)
    if club_id is not None:
        players = players.filter(club_id=club_id)
    return players.order_by("club_id").values_list("id", flat=True).first()


def club_member_id(club: Club, username: str) -> int:
    """The account id of the club's member called ``username``. Raises ``Http404`` for a
    username that is no member of the club."""
    user_id = (
        Membership.objects.filter(club=club, user__username=username)
        .values_list("user_id", flat=True)
        .first()
    )
    if user_id is None:
        raise Http404(_("there is no such member"))
    return user_id


def clubs_of(user: Any) -> list[dict[str, Any]]:
    """The user's clubs, by name, with their role in each (staff: only their memberships)."""
    return [
        {"slug": m.club.slug, "name": m.club.name, "role": m.role}
        for m in Membership.objects.filter(user=user)
        .select_related("club")
        .order_by("club__name", "club_id")
    ]


# --- Reads for the web scorepad ------------------------------------------------------------


def games_in_progress(club: Club) -> QuerySet[Game]:
    return game_list().filter(club=club, status=Game.Status.IN_PROGRESS)


def games_finished(club: Club) -> QuerySet[Game]:
    return game_list().filter(club=club, status=Game.Status.FINISHED)


def games_of_player(player_id: int) -> QuerySet[Game]:
    """The games a player sat at, newest first."""
    return game_list().filter(seats__player_id=player_id)


def known_player_names(club: Club) -> list[str]:
    """Names offered as one types a player's name: the club's roster."""
    return list(
        Player.objects.filter(club=club)
        .order_by("name")
        .values_list("name", flat=True)[:KNOWN_PLAYERS_SHOWN]
    )


def players_matching(club: Club, query: str) -> QuerySet[Player]:
    """The club's players by name, with their number of games."""
    players = Player.objects.filter(club=club).annotate(games=Count("seats")).order_by("name")
    if query:
        players = players.filter(name__icontains=query)
    return players[:PLAYERS_LISTED]


def player_or_none(user: Any, pk: int) -> Player | None:
    """The player ``pk`` if one of the user's clubs has them."""
    return access.players(user).filter(pk=pk).first()


def player_game_types(player: Player) -> list[str]:
    """The game types the player has a seat in, in the order of the plugins."""
    played = set(Seat.objects.filter(player=player).values_list("game__game_type", flat=True))
    return [t for t in plugins() if t in played]


def player_score_history(
    player: Player, game_type: str, *, board_game_id: int | None = None, limit: int = 200
) -> list[Seat]:
    """The player's finished games of ``game_type`` (and of the named game ``board_game_id``,
    when given), oldest first (the last ``limit``), with score and rank."""
    seats = (
        Seat.objects.filter(
            player=player, game__status=Game.Status.FINISHED, game__game_type=game_type
        )
        .select_related("game")
        .only("seat", "score", "rank", "team", "game__id", "game__played_on", "game__player_count")
        .order_by("-game__played_on", "-game_id")
    )
    if board_game_id is not None:
        seats = seats.filter(game__board_game_id=board_game_id)
    return list(reversed(seats[:limit]))


def editions() -> list[Edition]:
    """Every stored edition of every game, by game then key (without their data)."""
    return list(Edition.objects.defer("data").order_by("game_type", "key"))


def edition_by_value(value: str) -> Edition | None:
    game_type, _, key = value.partition(":")
    return Edition.objects.filter(game_type=game_type, key=key).first()


def engine_state(game: Game) -> Any:
    """The game's engine state after its stored entries, for pages that show the table.

    Raises ``LogError`` if the stored entries no longer replay (an edition or rules change)."""
    seats = list(game.seats.select_related("player").order_by("seat"))
    engine = adapters.engine_of(game)
    state = adapters.start(game, seats)
    for entry in adapters.round_logs(game):
        state = engine.apply_entry(state, entry)
    return state


def game_history(*, game: Game) -> QuerySet[GameEvent]:
    """The game's history, oldest first."""
    return GameEvent.objects.filter(game_id=game.pk).order_by("at", "id")


# --- A game's version: what a page or an API client last saw of it ---------------------------

_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
_MICROSECOND = datetime.timedelta(microseconds=1)


def version_of(game: Game) -> int:
    """The game's version: its ``updated_at`` in microseconds. Every write of a game sets it
    (an entry added, corrected or undone, a finish, a reopening, an edit, a re-score, a play
    imported again), and so does a change shown on its page from another row (a player or a
    named game renamed, an edition checked: ``services.games_touch``); the history alone would
    miss a re-score and a rename. Versions are compared for equality, never for order (two
    servers' clocks may differ)."""
    return _microseconds(game.updated_at)


def _microseconds(moment: datetime.datetime) -> int:
    return (moment - _EPOCH) // _MICROSECOND


def game_version(games: QuerySet[Game], pk: int) -> int | None:
    """The version of game ``pk`` among ``games`` (``access.games``), or None when it is not
    there: one query by primary key, so that a conditional read answers 304 before reading
    anything else."""
    updated_at = games.filter(pk=pk).values_list("updated_at", flat=True).first()
    return None if updated_at is None else _microseconds(updated_at)


def shared_game_version(token: str) -> tuple[int, int] | None:
    """The game an active share link shows and its version (as ``game_version``), or None."""
    found = (
        GameShare.objects.active()
        .filter(token=token)
        .values_list("game_id", "game__updated_at")
        .first()
    )
    return None if found is None else (found[0], _microseconds(found[1]))


def last_change(game: Game) -> GameEvent | None:
    """The history's line of the game's last change, or None when the last change wrote none
    (a re-score, a rename): a line written before the game's ``updated_at`` is an older one."""
    event = game_history(game=game).last()
    return event if event is not None and event.at >= game.updated_at else None


def game_shares(*, game: Game) -> QuerySet[GameShare]:
    """The game's active share links, oldest first."""
    return GameShare.objects.active().filter(game=game).order_by("created_at", "id")


def shared_game(token: str) -> Game | None:
    """The game an active share link shows, or None (no such link, or stopped)."""
    share = GameShare.objects.active().filter(token=token).select_related("game").first()
    return share.game if share else None
