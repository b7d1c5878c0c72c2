"""Clubs over the API: your clubs, their members and roles, their invitations, and taking an
invitation. A club you are not in is as if it did not exist (404), whatever you ask of it."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.authtoken.models import Token
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from games.api.common import errors, id_parameter
from games.records import access, clubs, selectors
from games.records.models import Club, Invitation, Membership, Player

Can = access.Can
Role = Membership.Role
SLUG = OpenApiParameter("slug", {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}, "path")
USERNAME = OpenApiParameter("username", str, "path", description="The member's username.")
INVITATION_ID = id_parameter("The invitation's id.")
TOKEN = OpenApiParameter("token", str, "path", description="The invitation link's token.")


class ClubSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="Your role in the club (staff: null).")

    class Meta:
        model = Club
        fields = ["slug", "name", "public_results", "role", "created_at"]
        read_only_fields = ["slug", "created_at"]
        extra_kwargs = {"name": {"allow_blank": True, "trim_whitespace": False}}

    def get_role(self, club: Club) -> str | None:
        return access.roles(self.context["request"].user).get(club.pk)


class ClubCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, allow_blank=True, trim_whitespace=False)


class ClubUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(
        max_length=200, required=False, allow_blank=True, trim_whitespace=False
    )
    public_results = serializers.BooleanField(required=False)


class MemberSerializer(serializers.Serializer):
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=Role.choices)
    joined_at = serializers.DateTimeField()
    player = serializers.SerializerMethodField(help_text="The linked player's id, or null.")

    def get_player(self, membership: Membership) -> int | None:
        linked: dict[int, int] = self.context["linked"]
        return linked.get(membership.user_id)


class MemberUpdateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    player = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        help_text="Link the member to this player of the club (null: unlink).",
    )


class TransferSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="The member to hand over to.")


class InvitationSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField(help_text="The link to send.")
    created_by = serializers.SerializerMethodField()

    class Meta:
        model = Invitation
        fields = ["id", "role", "url", "token", "created_by", "created_at", "expires_at"]

    def get_url(self, invitation: Invitation) -> str:
        return self.context["request"].build_absolute_uri(invitation.get_absolute_url())

    def get_created_by(self, invitation: Invitation) -> str | None:
        return invitation.created_by.get_username() if invitation.created_by else None


class InvitationCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=clubs.INVITABLE_CHOICES)
    days = serializers.IntegerField(
        min_value=1,
        max_value=clubs.MAX_INVITATION_DAYS,
        default=clubs.INVITATION_DAYS,
        help_text="How long the link stays open.",
    )


class InvitationShownSerializer(serializers.Serializer):
    club = serializers.CharField(help_text="The club's name.")
    role = serializers.ChoiceField(choices=Role.choices)
    expires_at = serializers.DateTimeField()


class SignUpSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, max_length=150, trim_whitespace=False)
    password = serializers.CharField(required=False, max_length=4096, trim_whitespace=False)


class JoinedSerializer(serializers.Serializer):
    club = serializers.CharField(help_text="The club's slug.")
    role = serializers.ChoiceField(choices=Role.choices)
    username = serializers.CharField()
    token = serializers.CharField(
        required=False, help_text="A new account's API token (sign-up only)."
    )


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


@extend_schema_view(
    list=extend_schema(responses={200: ClubSerializer(many=True), **errors(400, 401, 404)}),
    retrieve=extend_schema(parameters=[SLUG], responses={200: ClubSerializer, **errors(401, 404)}),
    create=extend_schema(
        request=ClubCreateSerializer,
        responses={201: ClubSerializer, **errors(400, 401, 413, 429)},
    ),
    partial_update=extend_schema(
        parameters=[SLUG],
        request=ClubUpdateSerializer,
        responses={200: ClubSerializer, **errors(400, 401, 403, 404, 413, 429)},
    ),
    destroy=extend_schema(parameters=[SLUG], responses={204: None, **errors(401, 403, 404, 429)}),
)
class ClubViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Your clubs (staff: every club), with your role in each. Anyone signed in starts a club
    and is its owner; admins change its name and whether its results are public; owners delete
    it (with every game, player, statistic and rating of it) or hand it over."""

    serializer_class = ClubSerializer
    permission_classes = [IsAuthenticated]
    lookup_field = "slug"
    lookup_value_regex = "[-a-zA-Z0-9_]{1,50}"
    http_method_names = ["get", "post", "patch", "delete"]
    filter_backends: list[Any] = []

    def get_queryset(self) -> QuerySet[Club]:
        if getattr(self, "swagger_fake_view", False):
            return Club.objects.none()
        return access.clubs(self.request.user).order_by("name", "id")

    def _club(self, at_least: Can) -> Club:
        return access.club_or_404(self.request.user, self.kwargs["slug"], at_least)

    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = _valid(ClubCreateSerializer, request)
        club = clubs.club_create(name=data["name"], owner=request.user)
        body = ClubSerializer(club, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)

    def partial_update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        club = self._club(Can.ADMIN)
        data = _valid(ClubUpdateSerializer, request)
        clubs.club_update(club=club, **data)
        return Response(ClubSerializer(club, context={"request": request}).data)

    def destroy(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        clubs.club_delete(club=self._club(Can.OWN), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        parameters=[SLUG],
        request=TransferSerializer,
        responses={204: None, **errors(400, 401, 403, 404, 413, 429)},
    )
    @action(detail=True, methods=["post"])
    def transfer(self, request: Request, slug: str) -> Response:
        """Hand the club over to another member: they become an owner, you an admin."""
        club = self._club(Can.OWN)
        data = _valid(TransferSerializer, request)
        target = selectors.club_member_id(club, data["username"])
        clubs.ownership_transfer(club=club, to_user_id=target, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    # --- members ---------------------------------------------------------------------------

    @extend_schema(
        parameters=[SLUG], responses={200: MemberSerializer(many=True), **errors(400, 401, 404)}
    )
    @action(detail=True, methods=["get"])
    def members(self, request: Request, slug: str) -> Response:
        """The club's members with their roles, by username (every member sees them)."""
        club = self._club(Can.READ)
        memberships = Membership.objects.filter(club=club).select_related("user")
        page = self.paginate_queryset(memberships.order_by("user__username", "id"))
        linked = dict(
            Player.objects.filter(club=club, user__isnull=False).values_list("user_id", "id")
        )
        body = MemberSerializer(page, many=True, context={"linked": linked}).data
        return self.get_paginated_response(body)

    @extend_schema(
        methods=["PATCH"],
        parameters=[SLUG, USERNAME],
        request=MemberUpdateSerializer,
        responses={200: MemberSerializer, **errors(400, 401, 403, 404, 409, 413, 429)},
    )
    @extend_schema(
        methods=["DELETE"],
        parameters=[SLUG, USERNAME],
        responses={204: None, **errors(401, 403, 404, 409, 429)},
    )
    @action(
        detail=True,
        methods=["patch", "delete"],
        url_path=r"members/(?P<username>[\w.@+-]{1,150})",
    )
    def member(self, request: Request, slug: str, username: str) -> Response:
        """PATCH (admins): a member's role (only owners make or unmake owners; the last owner
        stays), or the club's player linked to the member. DELETE: remove a member (admins), or
        leave the club (yourself); the last owner cannot go."""
        leaving = request.method == "DELETE" and username == request.user.get_username()
        club = self._club(Can.READ if leaving else Can.ADMIN)
        user_id = selectors.club_member_id(club, username)
        if request.method == "DELETE":
            clubs.member_remove(club=club, user_id=user_id, by=request.user)
            return Response(status=status.HTTP_204_NO_CONTENT)
        data = _valid(MemberUpdateSerializer, request)
        with transaction.atomic():  # both or neither
            if "role" in data:
                clubs.member_role_set(
                    club=club, user_id=user_id, role=data["role"], by=request.user
                )
            if "player" in data:
                clubs.member_player_link(club=club, user_id=user_id, player_id=data["player"])
        membership = Membership.objects.select_related("user").get(club=club, user_id=user_id)
        linked = dict(
            Player.objects.filter(club=club, user_id=user_id).values_list("user_id", "id")
        )
        return Response(MemberSerializer(membership, context={"linked": linked}).data)

    # --- invitations -----------------------------------------------------------------------

    @extend_schema(
        methods=["GET"],
        parameters=[SLUG],
        responses={200: InvitationSerializer(many=True), **errors(400, 401, 403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        parameters=[SLUG],
        request=InvitationCreateSerializer,
        responses={201: InvitationSerializer, **errors(400, 401, 403, 404, 409, 413, 429)},
    )
    @action(detail=True, methods=["get", "post"])
    def invitations(self, request: Request, slug: str) -> Response:
        """The club's open invitations (GET), or a new one (POST): a single-use link with the
        role it grants (member, recorder or admin) and how many days it stays open (7 unless
        said, 30 at most). Admins and owners only."""
        club = self._club(Can.ADMIN)
        context = {"request": request}
        if request.method == "POST":
            data = _valid(InvitationCreateSerializer, request)
            invitation = clubs.invitation_create(
                club=club, role=data["role"], days=data["days"], by=request.user
            )
            return Response(InvitationSerializer(invitation, context=context).data, status=201)
        invitations = Invitation.objects.open().filter(club=club).select_related("created_by")
        page = self.paginate_queryset(invitations.order_by("-created_at", "-id"))
        return self.get_paginated_response(
            InvitationSerializer(page, many=True, context=context).data
        )

    @extend_schema(
        parameters=[SLUG, INVITATION_ID],
        request=None,
        responses={204: None, **errors(401, 403, 404, 429)},
    )
    @action(detail=True, methods=["delete"], url_path=r"invitations/(?P<id>[0-9]{1,18})")
    def invitation_revoke(self, request: Request, slug: str, id: str) -> Response:
        """Revoke an open invitation: its link then opens nothing."""
        club = self._club(Can.ADMIN)
        if not clubs.invitation_revoke(club=club, invitation_id=int(id)):
            raise Http404(_("the club has no such open invitation"))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationView(APIView):
    """An invitation link: GET shows the club and role it opens to (anyone with the link);
    POST takes it: a signed-in user joins, a new person sends a username and password and gets
    an account in the club (Django's password rules). Single use; a used, revoked or expired
    link answers 404 like one never made. Rate-limited per address."""

    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "invitations"

    def _shown(self, token: str) -> Invitation:
        invitation = Invitation.objects.open().select_related("club").filter(token=token).first()
        if invitation is None:
            raise Http404(_("this invitation link is not valid (any more)"))
        return invitation

    @extend_schema(
        operation_id="invitation",
        parameters=[TOKEN],
        responses={200: InvitationShownSerializer, **errors(404, 429)},
        auth=[],
    )
    def get(self, request: Request, token: str) -> Response:
        invitation = self._shown(token)
        return Response(
            {
                "club": invitation.club.name,
                "role": invitation.role,
                "expires_at": invitation.expires_at,
            }
        )

    @extend_schema(
        operation_id="invitation_take",
        parameters=[TOKEN],
        request=SignUpSerializer,
        responses={
            200: JoinedSerializer,
            201: JoinedSerializer,
            **errors(400, 404, 409, 413, 415, 429),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        user = request.user
        try:
            if user.is_authenticated:
                membership = clubs.invitation_accept(token=token, user=user)
                code = status.HTTP_200_OK
            else:
                data = _valid(SignUpSerializer, request)
                if "username" not in data or "password" not in data:
                    raise NotAuthenticated(
                        _("sign in, or send a username and password to make an account")
                    )
                membership = clubs.invitation_sign_up(
                    token=token, username=data["username"], password=data["password"]
                )
                code = status.HTTP_201_CREATED
        except clubs.NoInvitation as exc:
            raise Http404(exc.message) from None
        body: dict[str, Any] = {
            "club": membership.club.slug,
            "role": membership.role,
            "username": membership.user.get_username(),
        }
        if code == status.HTTP_201_CREATED:
            body["token"] = Token.objects.get_or_create(user=membership.user)[0].key
        return Response(body, status=code)
