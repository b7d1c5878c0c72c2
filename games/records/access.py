"""Who may see and do what, club by club: the one place the API, the pages and the jobs ask.

- A club's games, players, statistics and jobs are its members' alone. Anything of another
  club is as if it did not exist: the querysets here leave it out, ``club_or_404`` answers
  "not found" alike for what is missing and what is not yours, and a club named in a body or
  a query that the user cannot see is ``unknown_club``, like one that does not exist.
- Roles rank: a member reads, a recorder also records any game of the club, an admin also
  manages members, invitations, settings and re-scores, an owner also deletes or hands over
  the club (``Membership.Role``).
- Staff of the site act in every club as an owner would (the site-wide powers they had
  before clubs: every game, editions, the admin).
- A club with public results lets anyone, signed in or not, read its finished games and its
  leaderboards; never more.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any

from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from games.records.errors import Forbidden, RecordError
from games.records.models import Club, Game, Membership, Player

Role = Membership.Role


class Can(IntEnum):
    """What a role allows, each level including the ones below it."""

    READ = 1
    RECORD = 2
    ADMIN = 3
    OWN = 4


LEVEL = {
    Role.MEMBER: Can.READ,
    Role.RECORDER: Can.RECORD,
    Role.ADMIN: Can.ADMIN,
    Role.OWNER: Can.OWN,
}

SLUG = re.compile(r"[-a-zA-Z0-9_]{1,50}")
_CACHE = "_potdevin_club_roles"  # on the user object: one query per request


def roles(user: Any) -> dict[int, str]:
    """The user's clubs (id to role); empty for an anonymous visitor. Staff: only their own
    memberships (``level`` gives them every club)."""
    if user is None or not user.is_authenticated:
        return {}
    cached: dict[int, str] | None = getattr(user, _CACHE, None)
    if cached is None:
        cached = dict(Membership.objects.filter(user=user).values_list("club_id", "role"))
        setattr(user, _CACHE, cached)
    return cached


def forget(user: Any) -> None:
    """Drop what ``roles`` remembered of the user (after their memberships change)."""
    if user is not None and hasattr(user, _CACHE):
        delattr(user, _CACHE)


def level(user: Any, club_id: int | None) -> int:
    """What the user may do in the club: a ``Can`` level, 0 for nothing."""
    if user is None or not user.is_authenticated or club_id is None:
        return 0
    if user.is_staff:
        return Can.OWN
    role = roles(user).get(club_id)
    return LEVEL[Role(role)] if role else 0


def may(user: Any, club_id: int | None, at_least: Can) -> bool:
    return level(user, club_id) >= at_least


def club_ids(user: Any, at_least: Can = Can.READ) -> list[int] | None:
    """The ids of the clubs where the user may do ``at_least``; None: every club (staff)."""
    if user is not None and user.is_authenticated and user.is_staff:
        return None
    wanted = [c for c, r in roles(user).items() if LEVEL[Role(r)] >= at_least]
    return sorted(wanted)


def clubs(user: Any, at_least: Can = Can.READ) -> QuerySet[Club]:
    """The clubs where the user may do ``at_least``, by name."""
    ids = club_ids(user, at_least)
    return Club.objects.all() if ids is None else Club.objects.filter(pk__in=ids)


def _in_clubs(user: Any, field: str) -> Q:
    ids = club_ids(user)
    return Q() if ids is None else Q(**{f"{field}__in": ids})


def games(user: Any, queryset: QuerySet[Game] | None = None) -> QuerySet[Game]:
    """The games the user may read: their clubs' games, and the finished games of clubs with
    public results."""
    queryset = Game.objects.all() if queryset is None else queryset
    if user is not None and user.is_authenticated and user.is_staff:
        return queryset
    mine = club_ids(user) or []
    # The public clubs as a subquery on their few rows: a list stays a filter on the games'
    # own club column rather than a join, and nothing is read before the list is.
    public = Club.objects.filter(public_results=True).values("id")
    return queryset.filter(Q(club_id__in=mine) | Q(club_id__in=public, status=Game.Status.FINISHED))


def players(user: Any, queryset: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """The players the user may read: their clubs' rosters (nothing for anonymous visitors:
    public results show names on games and leaderboards only)."""
    queryset = Player.objects.all() if queryset is None else queryset
    if user is None or not user.is_authenticated:
        return queryset.none()
    return queryset.filter(_in_clubs(user, "club_id"))


def _club(slug: Any) -> Club | None:
    # Anything not shaped like a slug (NUL, which PostgreSQL refuses in a query, a surrogate,
    # a number) names no club.
    if not isinstance(slug, str) or not SLUG.fullmatch(slug):
        return None
    return Club.objects.filter(slug=slug).first()


def club_or_404(user: Any, slug: Any, at_least: Can = Can.READ) -> Club:
    """The club named by ``slug`` if the user may read it (404 otherwise, as for a club that
    does not exist), and may do ``at_least`` in it (403 ``forbidden`` otherwise)."""
    club = _club(slug)
    if club is None or not may(user, club.pk, Can.READ):
        raise Http404(_("no such club"))
    require(user, club.pk, at_least)
    return club


def is_public(slug: Any) -> bool:
    """Whether ``slug`` names a club with public results."""
    club = _club(slug)
    return club is not None and club.public_results


def _results_readable(user: Any, club: Club) -> bool:
    """Whether the user may read the club's results: theirs, or a club with public results."""
    return club.public_results or may(user, club.pk, Can.READ)


def public_club_or_404(user: Any, slug: Any) -> Club:
    """A club whose results the user may read (``_results_readable``), or 404."""
    club = _club(slug)
    if club is None or not _results_readable(user, club):
        raise Http404(_("no such club"))
    return club


FORBIDDEN = {
    Can.RECORD: lambda: _("only the club's recorders, admins and owners may do this"),
    Can.ADMIN: lambda: _("only the club's admins and owners may do this"),
    Can.OWN: lambda: _("only the club's owners may do this"),
}


def require(user: Any, club_id: int, at_least: Can) -> None:
    """Raise ``Forbidden`` unless the user may do ``at_least`` in the club (call it once the
    user is known to see the club: otherwise the answer is 404)."""
    if at_least > Can.READ and not may(user, club_id, at_least):
        raise Forbidden("forbidden", FORBIDDEN[at_least]())


def _unknown_club() -> RecordError:
    # The same for a club that does not exist and one the user may not see.
    return RecordError("unknown_club", _("there is no club with this slug"))


def club_to_read(user: Any, slug: Any) -> Club:
    """The club whose results are asked for: the one named (``slug``: theirs, or one with
    public results), or the user's only club. Raises ``RecordError``: ``unknown_club`` for a
    club they cannot read (alike for one that does not exist), ``club_required`` when they
    named none and have not exactly one."""
    if slug not in (None, ""):
        club = _club(slug)
        if club is None or not _results_readable(user, club):
            raise _unknown_club()
        return club
    candidates = list(clubs(user).order_by("id")[:2])
    if len(candidates) == 1:
        return candidates[0]
    raise RecordError("club_required", _("say which club with 'club' (its slug)"))


def club_for_new(user: Any, slug: Any, at_least: Can = Can.RECORD) -> Club:
    """The club a new record goes into: the one named (``slug``), or the user's only club
    where they may do ``at_least``. Raises ``RecordError`` ``unknown_club`` for a club they
    cannot see (alike for one that does not exist), ``Forbidden`` for one where they may not,
    ``RecordError`` ``club_required`` when they have several and named none, and
    ``Forbidden`` ``no_club`` when they have none."""
    if slug not in (None, ""):
        club = _club(slug)
        if club is None or not may(user, club.pk, Can.READ):
            raise _unknown_club()
        require(user, club.pk, at_least)
        return club
    candidates = list(clubs(user, at_least).order_by("id")[:2])
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise Forbidden("no_club", _("you may record in no club: ask a club's admin to invite you"))
    raise RecordError(
        "club_required", _("you belong to several clubs: say which one with 'club' (its slug)")
    )


def owner_or_admin(user: Any, record: Any) -> bool:
    """Whether ``user`` may act on ``record`` (a job: confirm, resume) now: an admin of its
    club, or who started it (``created_by_id``) while they still hold the role starting it took
    (``record.role_to_start``): the role is checked when the action happens, never only when it
    was planned, so a recorder demoted to member no longer confirms the import they planned.
    A record of no club (a re-score of every club) is staff's."""
    if record.club_id is None:
        return bool(user and user.is_authenticated and user.is_staff)
    if may(user, record.club_id, Can.ADMIN):
        return True
    needed = getattr(record, "role_to_start", Can.READ)
    return record.created_by_id == user.pk and may(user, record.club_id, needed)
