"""Clubs on the pages: the current club (the switcher's choice, kept in the session), the
members and invitations pages for admins, the club's settings, and the invitation link's page
where a new person makes an account or a signed-in one joins."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_ratelimit import ALL
from django_ratelimit.decorators import ratelimit

from games.api.permissions import page_rate
from games.records import access, clubs, selectors
from games.records.errors import Forbidden, RecordError
from games.records.models import Club, Invitation, Membership, Player
from games.records.names import MAX_NAME_LENGTH
from games.web import present, qr
from games.web.confirm import Question, asks_first

Can = access.Can
SESSION_KEY = "club"


def current_club(request: HttpRequest) -> Club | None:
    """The club the pages show: the one last chosen with the switcher, while the user may
    still read it; else their first club by name (None: they have none)."""
    user = request.user
    chosen = request.session.get(SESSION_KEY)
    # Asked by the view and again by the menu (``club_menu``) of the page it renders: read
    # once per request, again only if the choice changed meanwhile.
    remembered = getattr(request, "_potdevin_club", None)
    if remembered is not None and remembered[0] == chosen:
        club: Club | None = remembered[1]
        return club
    club = None
    if isinstance(chosen, int) and access.may(user, chosen, Can.READ):
        club = Club.objects.filter(pk=chosen).first()
    if club is None:
        club = access.clubs(user).order_by("name", "id").first()
    request._potdevin_club = (chosen, club)  # type: ignore[attr-defined]
    return club


def recording_club(request: HttpRequest) -> Club:
    """The current club, where the user must record (403 otherwise)."""
    club = current_club(request)
    if club is None or not access.may(request.user, club.pk, Can.RECORD):
        raise PermissionDenied("only the club's recorders record its games")
    return club


def club_menu(request: HttpRequest) -> dict[str, Any]:
    """Template context: the user's clubs for the switcher and the current one."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    current = current_club(request)
    owner = current is not None and access.may(user, current.pk, Can.OWN)
    to_name = current if owner and current is not None and clubs.unnamed(current) else None
    return {
        "current_club": current,
        "my_clubs": list(access.clubs(user).order_by("name", "id")[:50]),
        "club_recorder": current is not None and access.may(user, current.pk, Can.RECORD),
        "club_admin": current is not None and access.may(user, current.pk, Can.ADMIN),
        # The fresh server's club, still with its default name: its owners name it (Home).
        "club_to_name": to_name,
        "club_naming_form": ClubNameForm() if to_name is not None else None,
    }


@login_required
@require_POST
def switch(request: HttpRequest) -> HttpResponse:
    """Make another of the user's clubs the current one (a form: works without scripts)."""
    club = access.club_or_404(request.user, request.POST.get("club"))
    request.session[SESSION_KEY] = club.pk
    return redirect("web:home")


class ClubForm(forms.Form):
    # No max_length: a browser would cut a pasted name silently; the rule refuses it instead.
    name = forms.CharField(label=gettext_lazy("Name"), strip=False)
    public_results = forms.BooleanField(
        label=gettext_lazy("Public results"),
        required=False,
        help_text=gettext_lazy(
            "Anyone with the link, signed in or not, reads the club's finished games and "
            "leaderboards. Nothing else, and never a change."
        ),
    )


class ClubNameForm(forms.Form):
    """A club's name, for a new club or the first club's naming: the rule of ``clubs.club_name``
    (its limit said beside the field and in the refusal; a long name is refused, never cut)."""

    name = forms.CharField(
        label=gettext_lazy("The club's name"),
        strip=False,
        error_messages={"required": gettext_lazy("Give the club a name.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "club-%s")
        super().__init__(*args, **kwargs)
        self.fields["name"].help_text = _("1 to %(most)s characters.") % {"most": MAX_NAME_LENGTH}

    def clean_name(self) -> str:
        try:
            return clubs.club_name(self.cleaned_data["name"])
        except RecordError as exc:
            raise ValidationError(exc.message, code=exc.code) from None


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=clubs.INVITABLE_CHOICES)
    days = forms.IntegerField(
        label=gettext_lazy("Open for (days)"),
        min_value=1,
        max_value=clubs.MAX_INVITATION_DAYS,
        initial=clubs.INVITATION_DAYS,
    )


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Membership.Role.choices)


def _club(request: HttpRequest, slug: str, at_least: Can) -> Club:
    """The club of ``slug`` (404 unless the user is in it) where the user may do ``at_least``
    (403 otherwise: ``access`` says ``Forbidden``, which a page answers as Django does)."""
    try:
        return access.club_or_404(request.user, slug, at_least)
    except Forbidden as exc:
        raise PermissionDenied(exc.message) from None


def _admin_club(request: HttpRequest, slug: str) -> Club:
    return _club(request, slug, Can.ADMIN)


# The members page lists the owners first, then the admins, the recorders and the members.
ROLE_ORDER = {role: rank for rank, role in enumerate(Membership.Role.values)}


@login_required
def members(request: HttpRequest, slug: str) -> HttpResponse:
    """Every member of the club, the owners first, then admins, recorders and members, each
    with their role in words; admins change roles and remove members, anyone leaves."""
    club = access.club_or_404(request.user, slug)
    is_admin = access.may(request.user, club.pk, Can.ADMIN)
    rows = sorted(
        Membership.objects.filter(club=club).select_related("user"),
        key=lambda m: (ROLE_ORDER.get(m.role, len(ROLE_ORDER)), m.user.get_username().casefold()),
    )
    linked = dict(Player.objects.filter(club=club, user__isnull=False).values_list("user_id", "id"))
    # An admin links members to players: the roster to choose from (the first 500 by name).
    roster = (
        list(Player.objects.filter(club=club).order_by("name").values_list("id", "name")[:500])
        if is_admin
        else []
    )
    names = dict(Player.objects.filter(pk__in=linked.values()).values_list("id", "name"))
    context = {
        "club": club,
        "is_admin": is_admin,
        "roster": roster,
        "is_owner": access.may(request.user, club.pk, Can.OWN),
        "members": [
            {
                "username": m.user.get_username(),
                "role": m.role,
                "role_label": m.get_role_display(),
                "player": linked.get(m.user_id),
                "player_name": names.get(linked.get(m.user_id)),
                "me": m.user_id == request.user.pk,
                "form": RoleForm(initial={"role": m.role}, prefix=f"m{m.pk}"),
            }
            for m in rows
        ],
    }
    return render(request, "web/club_members.html", context)


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, username: str) -> HttpResponse:
    club = _admin_club(request, slug)
    user_id = selectors.club_member_id(club, username)
    role = request.POST.get("role")
    try:
        clubs.member_role_set(club=club, user_id=user_id, role=str(role), by=request.user)
    except RecordError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(user)s's role changed.") % {"user": username})
    return redirect("web:club-members", slug=club.slug)


@login_required
@require_POST
def member_player(request: HttpRequest, slug: str, username: str) -> HttpResponse:
    """Link a member to the club's player who is that person (an empty choice unlinks)."""
    club = _admin_club(request, slug)
    user_id = selectors.club_member_id(club, username)
    chosen = request.POST.get("player") or ""
    player_id = int(chosen) if chosen.isdigit() and len(chosen) < 19 else None
    if chosen and player_id is None:
        raise Http404
    try:
        clubs.member_player_link(club=club, user_id=user_id, player_id=player_id)
    except RecordError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(user)s's player saved.") % {"user": username})
    return redirect("web:club-members", slug=club.slug)


def _removal(request: HttpRequest, slug: str, username: str) -> Question:
    leaving = username == request.user.get_username()
    club = _club(request, slug, Can.READ if leaving else Can.ADMIN)
    selectors.club_member_id(club, username)  # 404 for no such member
    back = reverse("web:club-members", args=[club.slug])
    if leaving:
        return Question(
            title=_("Leave %(club)s?") % {"club": club.name},
            goes=_(
                "You lose access to its games, players and statistics; your player stays in its "
                "roster. To come back you need a new invitation."
            ),
            button=_("Leave the club"),
            back=back,
        )
    return Question(
        title=_("Remove %(user)s from %(club)s?") % {"user": username, "club": club.name},
        goes=_("They lose access to its games; their player stays in the roster."),
        button=_("Remove %(user)s") % {"user": username},
        back=back,
    )


@login_required
@require_POST
@asks_first(_removal)
def member_remove(request: HttpRequest, slug: str, username: str) -> HttpResponse:
    """Remove a member (admins), or leave the club (oneself)."""
    leaving = username == request.user.get_username()
    club = _club(request, slug, Can.READ if leaving else Can.ADMIN)
    user_id = selectors.club_member_id(club, username)
    try:
        clubs.member_remove(club=club, user_id=user_id, by=request.user)
    except RecordError as exc:
        messages.error(request, exc.message)
        return redirect("web:club-members", slug=club.slug)
    if leaving:
        messages.success(request, _("You left %(club)s.") % {"club": club.name})
        request.session.pop(SESSION_KEY, None)
        return redirect("web:home")
    messages.success(request, _("%(user)s is no longer a member.") % {"user": username})
    return redirect("web:club-members", slug=club.slug)


@login_required
def invitations(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's open invitations, and a new one (admins and owners)."""
    club = _admin_club(request, slug)
    form = InvitationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            invitation = clubs.invitation_create(
                club=club,
                role=form.cleaned_data["role"],
                days=form.cleaned_data["days"],
                by=request.user,
            )
        except RecordError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request,
                _("Invitation made: send the link to one person; it works once."),
            )
            return redirect(
                reverse("web:club-invitations", args=[club.slug]) + f"#i{invitation.pk}"
            )
    shown = Invitation.objects.open().filter(club=club).select_related("created_by")
    context = {
        "club": club,
        "form": form,
        "invitations": [
            {
                "id": i.pk,
                "field_id": f"invitation-{i.pk}",
                "role": i.get_role_display(),
                "url": (url := request.build_absolute_uri(i.get_absolute_url())),
                "qr": qr.qr_svg(url, _("QR code of the invitation link")),
                "expires_at": i.expires_at,
                "created_by": i.created_by.get_username() if i.created_by else "",
            }
            for i in shown.order_by("-created_at", "-id")[: clubs.MAX_OPEN_INVITATIONS]
        ],
    }
    return render(request, "web/club_invitations.html", context, status=400 if form.errors else 200)


def _revocation(request: HttpRequest, slug: str, pk: int) -> Question:
    club = _admin_club(request, slug)
    made = Invitation.objects.open().filter(club=club, pk=pk).first()
    if made is None:
        raise Http404
    return Question(
        title=_("Revoke this invitation to %(club)s?") % {"club": club.name},
        goes=_(
            "Its link (%(role)s) then opens nothing: whoever has not used it yet cannot join "
            "with it. You can make a new one."
        )
        % {"role": made.get_role_display()},
        button=_("Revoke the invitation"),
        back=reverse("web:club-invitations", args=[club.slug]) + f"#i{made.pk}",
    )


@login_required
@require_POST
@asks_first(_revocation)
def invitation_revoke(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _admin_club(request, slug)
    if not clubs.invitation_revoke(club=club, invitation_id=pk):
        raise Http404
    messages.success(request, _("Invitation revoked: its link opens nothing now."))
    return redirect("web:club-invitations", slug=club.slug)


@login_required
def club_settings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's name and whether its results are public (admins and owners)."""
    club = _admin_club(request, slug)
    posted = request.POST if request.method == "POST" else None
    form = ClubForm(posted, initial={"name": club.name, "public_results": club.public_results})
    if posted is not None and form.is_valid():
        try:
            clubs.club_update(club=club, **form.cleaned_data)
        except RecordError as exc:
            form.add_error("name", exc.message)
        else:
            messages.success(request, _("Club settings saved."))
            return redirect("web:club-settings", slug=club.slug)
    return render(
        request,
        "web/club_settings.html",
        {
            "club": club,
            "form": form,
            "results_url": request.build_absolute_uri(
                reverse("web:club-results", args=[club.slug])
            ),
        },
        status=400 if form.errors else 200,
    )


class SignUpForm(UserCreationForm):
    """Django's own: a username by its rule, a password twice through the validators."""


# Looking at links counts too, as on the API: one guessing tokens is slowed down whatever
# they send, and answered alike whether the link exists or not.
@ratelimit(key="ip", rate=lambda group, request: page_rate("invitations"), method=ALL, block=False)
def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: a signed-in user joins with one tap; a new person makes an account
    and is in. A used, revoked or expired link is not found, like one never made."""
    if getattr(request, "limited", False):
        return render(request, "web/too_many_attempts.html", status=429)
    shown = Invitation.objects.open().select_related("club").filter(token=token).first()
    if shown is None:
        raise Http404
    user = request.user
    form = SignUpForm(
        request.POST if request.method == "POST" and not user.is_authenticated else None
    )
    status = 200
    if request.method == "POST":
        if user.is_authenticated:
            try:
                clubs.invitation_accept(token=token, user=user)
            except clubs.NoInvitation:
                raise Http404 from None
            except RecordError as exc:
                messages.info(request, exc.message)
            else:
                return _joined(request, shown.club)
        elif form.is_valid():
            try:
                membership = clubs.invitation_sign_up(
                    token=token,
                    username=form.cleaned_data["username"],
                    password=form.cleaned_data["password1"],
                )
            except clubs.NoInvitation:
                raise Http404 from None
            except clubs.FieldError as exc:
                form.add_error(exc.field if exc.field != "password" else "password2", exc.message)
            else:
                login(request, membership.user, backend="django.contrib.auth.backends.ModelBackend")
                return _joined(request, shown.club)
        if form.errors:
            status = 400
    context = {"invitation": shown, "club": shown.club, "form": form}
    return render(request, "web/invitation.html", context, status=status)


def _joined(request: HttpRequest, club: Club) -> HttpResponse:
    request.session[SESSION_KEY] = club.pk
    messages.success(request, _("Welcome to %(club)s.") % {"club": club.name})
    return redirect("web:home")


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    """Start a club, whatever clubs one is in already: its owner is the one who starts it. The
    form is on the settings page (and on the page of someone in no club); a refused name comes
    back here, said at the field."""
    form = ClubNameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            club = clubs.club_create(name=form.cleaned_data["name"], owner=request.user)
        except RecordError as exc:
            form.add_error("name", exc.message)
        else:
            request.session[SESSION_KEY] = club.pk
            messages.success(
                request, _("%(club)s started: invite its members.") % {"club": club.name}
            )
            return redirect("web:club-invitations", slug=club.slug)
    return render(request, "web/club_new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def club_naming(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's name, given by an owner: the form Home shows the owners of the fresh server's
    club while it has its default name (``clubs.unnamed``). A refused name comes back here,
    said at the field."""
    club = _club(request, slug, Can.OWN)
    form = ClubNameForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            clubs.club_update(club=club, name=form.cleaned_data["name"])
        except RecordError as exc:
            form.add_error("name", exc.message)
        else:
            messages.success(request, _("The club is called %(club)s now.") % {"club": club.name})
            return redirect("web:home")
    return render(
        request,
        "web/club_name.html",
        {"club": club, "form": form},
        status=400 if form.errors else 200,
    )


def results(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's finished games and leaderboards: for its members, and for anyone when its
    results are public."""
    club = access.public_club_or_404(request.user, slug)
    finished = access.games(request.user, selectors.games_finished(club))
    context = {
        "club": club,
        "recent": present.labelled(finished[:30]),
        "leaderboards": present.leaderboards(club),
        # Player pages are the members' (anyone else would find them not found).
        "hide_player_links": not access.may(request.user, club.pk, Can.READ),
    }
    return render(request, "web/club_results.html", context)
