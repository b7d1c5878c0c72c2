"""Writes to clubs: the club itself, its members and roles, its invitations. Who may call them
is the caller's to check (``games.records.access``); what may never happen whoever asks (a club
without an owner, an invitation taken twice) is checked here, under a lock."""

from __future__ import annotations

import datetime
import secrets
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.records import access, events
from games.records.errors import Forbidden, GameConflict, RecordError
from games.records.models import Club, Game, GameEvent, Invitation, Membership, Player
from games.records.names import BadName, player_name
from games.records.services import history_event

Role = Membership.Role

# An invitation is open for a week unless said otherwise, and a month at the most.
INVITATION_DAYS = 7
MAX_INVITATION_DAYS = 30
# Open invitations a club may have at once: more than any club invites in one evening.
MAX_OPEN_INVITATIONS = 100
# Invitations grant these; ownership is handed over, never sent by link.
INVITABLE = (Role.MEMBER, Role.RECORDER, Role.ADMIN)
INVITABLE_CHOICES = [(r.value, r.label) for r in INVITABLE]


# The club a fresh server starts with (``games/migrations/0011_clubs_fill.py`` makes it, as do
# ``scoring.archive`` and ``manage.py demo`` on a database without one), for its first owner
# to name.
FIRST_CLUB = {"name": "Club", "slug": "club"}


def unnamed(club: Club) -> bool:
    """Whether ``club`` is the fresh server's club as it was made, never named: its name and
    its slug (which never changes) both the default ones. A renamed first club is named, and so
    is any club started with a name of its own."""
    return club.name == FIRST_CLUB["name"] and club.slug == FIRST_CLUB["slug"]


def club_name(name: Any) -> str:
    """A club's name as stored: the rule of player names (``games.records.names``)."""
    if not isinstance(name, str):
        raise RecordError("malformed", _("a club's name is a string"))
    try:
        cleaned = player_name(name)
    except BadName as exc:
        raise RecordError(exc.code, exc.message) from None
    return cleaned


def _free_slug(name: str) -> str:
    base = slugify(name)[:40].strip("-") or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def club_create(*, name: Any, owner: AbstractBaseUser) -> Club:
    """A new club with ``owner`` its owner; its slug (its name in URLs, never changed) is made
    from its name."""
    name = club_name(name)
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=_free_slug(name))
        Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    access.forget(owner)
    return club


def club_update(*, club: Club, name: Any = None, public_results: bool | None = None) -> Club:
    fields = []
    if name is not None:
        club.name = club_name(name)
        fields.append("name")
    if public_results is not None:
        club.public_results = public_results
        fields.append("public_results")
    if fields:
        club.save(update_fields=fields)
    return club


def club_delete(*, club: Club, by: AbstractBaseUser | None = None) -> None:
    """Delete the club with everything of it: games, players, their statistics and ratings,
    jobs, memberships and invitations. The games' history stays, with each game's deletion by
    ``by`` (``GameEvent`` outlives its game)."""
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        game_ids = list(Game.objects.filter(club=club).values_list("id", flat=True))
        Game.objects.filter(club=club).delete()
        Player.objects.filter(club=club).delete()  # statistics and ratings cascade
        club.delete()
        GameEvent.objects.bulk_create(
            [history_event(game_id, GameEvent.Action.DELETED, by) for game_id in game_ids],
            batch_size=1000,
        )
        events.results_changed(game_ids=game_ids)


def _owners(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Role.OWNER).count()


def _locked_member(club: Club, user_id: int) -> Membership:
    # Every change of roles locks the club's memberships: two admins demoting the last two
    # owners at once would otherwise leave none.
    members = list(Membership.objects.select_for_update().filter(club=club))
    for m in members:
        if m.user_id == user_id:
            return m
    raise RecordError("not_a_member", _("there is no such member"))


def member_role_set(*, club: Club, user_id: int, role: str, by: AbstractBaseUser) -> Membership:
    """Give a member another role. Only an owner makes an owner or changes an owner's role;
    the last owner keeps the role (hand the club over first)."""
    if role not in Role.values:
        raise RecordError("invalid_choice", _("%(role)r is no role") % {"role": role})
    with transaction.atomic():
        member = _locked_member(club, user_id)
        if (role == Role.OWNER or member.role == Role.OWNER) and not access.may(
            by, club.pk, access.Can.OWN
        ):
            raise Forbidden("forbidden", _("only the club's owners may do this"))
        if member.role == Role.OWNER and role != Role.OWNER and _owners(club) == 1:
            raise GameConflict(
                "last_owner", _("the club's last owner stays owner: hand the club over first")
            )
        member.role = role
        member.save(update_fields=["role"])
    access.forget(by)
    return member


def member_remove(*, club: Club, user_id: int, by: AbstractBaseUser) -> None:
    """Remove a member (``by`` themselves: leave the club). Only an owner removes an owner; the
    last owner cannot go. Their linked player stays in the roster, unlinked."""
    with transaction.atomic():
        member = _locked_member(club, user_id)
        if member.role == Role.OWNER:
            if by.pk != user_id and not access.may(by, club.pk, access.Can.OWN):
                raise Forbidden("forbidden", _("only the club's owners may do this"))
            if _owners(club) == 1:
                raise GameConflict(
                    "last_owner",
                    _("the club's last owner stays owner: hand the club over first"),
                )
        member.delete()
        Player.objects.filter(club=club, user_id=user_id).update(user=None)
    access.forget(by)


def ownership_transfer(*, club: Club, to_user_id: int, by: AbstractBaseUser) -> None:
    """Hand the club over to another member: they become an owner, ``by`` an admin."""
    with transaction.atomic():
        target = _locked_member(club, to_user_id)
        target.role = Role.OWNER
        target.save(update_fields=["role"])
        Membership.objects.filter(club=club, user=by).exclude(user_id=to_user_id).update(
            role=Role.ADMIN
        )
    access.forget(by)


def member_player_link(*, club: Club, user_id: int, player_id: int | None) -> Player | None:
    """Link a member's account to the club's player who is that person (None: unlink)."""
    with transaction.atomic():
        _locked_member(club, user_id)
        Player.objects.filter(club=club, user_id=user_id).update(user=None)
        if player_id is None:
            return None
        player = Player.objects.filter(club=club, pk=player_id).first()
        if player is None:
            raise RecordError("unknown_player", _("there is no player %(id)s") % {"id": player_id})
        if player.user_id is not None:
            raise GameConflict("player_linked", _("this player is another member's"))
        player.user_id = user_id
        player.save(update_fields=["user"])
        return player


def invitation_create(
    *, club: Club, role: str, by: AbstractBaseUser, days: int = INVITATION_DAYS
) -> Invitation:
    """A single-use link into ``club`` with ``role``, open for ``days`` days."""
    if role not in INVITABLE:
        raise RecordError("invalid_choice", _("an invitation grants member, recorder or admin"))
    if not 1 <= days <= MAX_INVITATION_DAYS:
        raise RecordError(
            "out_of_range",
            _("an invitation is open for 1 to %(most)s days") % {"most": MAX_INVITATION_DAYS},
        )
    if role == Role.ADMIN and not access.may(by, club.pk, access.Can.ADMIN):
        raise Forbidden("forbidden", _("only the club's admins and owners may do this"))
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        if Invitation.objects.open().filter(club=club).count() >= MAX_OPEN_INVITATIONS:
            raise GameConflict(
                "too_many_invitations",
                _("a club has at most %(most)s open invitations: revoke one first")
                % {"most": MAX_OPEN_INVITATIONS},
            )
        return Invitation.objects.create(
            club=club,
            role=role,
            token=secrets.token_urlsafe(24),
            created_by=by,
            expires_at=timezone.now() + datetime.timedelta(days=days),
        )


def invitation_revoke(*, club: Club, invitation_id: int) -> bool:
    """Stop an open invitation; False when the club has no such open invitation."""
    stopped = (
        Invitation.objects.open()
        .filter(club=club, pk=invitation_id)
        .update(revoked_at=timezone.now())
    )
    return stopped > 0


def _taken(token: str) -> Invitation:
    """The open invitation of ``token``, locked, or ``RecordError`` ``no_invitation`` (404 at
    the edge: used, revoked, expired and never made alike)."""
    invitation = (
        Invitation.objects.open()
        .select_for_update(of=("self",))
        .select_related("club")
        .filter(token=token)
        .first()
    )
    if invitation is None:
        raise NoInvitation("no_invitation", _("this invitation link is not valid (any more)"))
    return invitation


class NoInvitation(RecordError):
    """An invitation link that opens nothing (404)."""


def _join(invitation: Invitation, user: AbstractBaseUser) -> Membership:
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])
    membership = Membership.objects.create(club=invitation.club, user=user, role=invitation.role)
    access.forget(user)
    return membership


def invitation_accept(*, token: str, user: AbstractBaseUser) -> Membership:
    """A signed-in user takes an invitation and joins its club. Raises ``NoInvitation`` for a
    link that opens nothing, ``GameConflict`` ``already_member`` (the invitation stays open)."""
    with transaction.atomic():
        invitation = _taken(token)
        if Membership.objects.filter(club=invitation.club, user=user).exists():
            raise GameConflict("already_member", _("you are already a member of this club"))
        return _join(invitation, user)


def invitation_sign_up(*, token: str, username: Any, password: Any) -> Membership:
    """A new person takes an invitation: an account (Django's username rule and password
    validators) and its place in the club, or nothing at all."""
    User = get_user_model()
    if not isinstance(username, str) or not isinstance(password, str):
        raise RecordError("malformed", _("a username and a password are strings"))
    with transaction.atomic():
        invitation = _taken(token)
        user = User(username=username)
        try:
            user.full_clean(exclude=["password"], validate_unique=False)
        except ValidationError as exc:
            messages = exc.message_dict.get("username") or [str(exc)]
            raise FieldError("username", "invalid_username", " ".join(messages)) from None
        if User.objects.filter(username__iexact=username).exists():
            raise FieldError("username", "username_taken", _("this username is taken"))
        try:
            password_validation.validate_password(password, user)
        except ValidationError as exc:
            raise FieldError("password", "weak_password", " ".join(exc.messages)) from None
        user.set_password(password)
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            raise FieldError("username", "username_taken", _("this username is taken")) from None
        return _join(invitation, user)


class FieldError(RecordError):
    """A refused sign-up field (400), with the field's name."""

    def __init__(self, field: str, code: str, message: str) -> None:
        super().__init__(code, message)
        self.field = field

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "fields": {self.field: [self.message]}}
