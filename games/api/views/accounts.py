"""The signed-in user (``/api/me/``) and signing in for a token (``/api/auth/token/``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken import serializers as authtoken_serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from games.api.serializers import MeSerializer, documented, errors
from games.records import selectors


class MeView(APIView):
    """The signed-in user, their clubs with their role in each, and the player linked to the
    account (in its first club), if any."""

    # Never public: an anonymous reader has no account to show.
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me", responses={200: MeSerializer, **errors(401)})
    def get(self, request: Request) -> Response:
        user = request.user
        return Response(
            {
                "id": user.pk,
                "username": user.get_username(),
                "is_staff": user.is_staff,
                "player": selectors.player_id_of(user),
                "clubs": selectors.clubs_of(user),
            }
        )


class AuthTokenSerializer(authtoken_serializers.AuthTokenSerializer):
    """Documentation only (the view's own serializer checks the request): a username and a
    password, neither blank (the username is trimmed first)."""

    username = documented(
        serializers.CharField, {"type": "string", "minLength": 1, "pattern": "\\S"}, write_only=True
    )
    password = documented(
        serializers.CharField, {"type": "string", "minLength": 1}, write_only=True
    )


class TokenView(ObtainAuthToken):
    """Sign in with a username and password; returns the token for the `Authorization: Token
    <token>` header."""

    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "signin"
    permission_classes: list[type] = []
    parser_classes = ObtainAuthToken.parser_classes

    @extend_schema(
        operation_id="auth_token",
        request=AuthTokenSerializer,
        responses={
            200: inline_serializer("Token", {"token": serializers.CharField()}),
            **errors(400, 413, 415, 429),
        },
        auth=[],
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)
