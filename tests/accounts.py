"""Test users, shared by every test package (fixtures in tests/conftest.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.records.models import Club, Membership

PASSWORD = "a-long-test-password-42"


def first_club() -> Club:
    """The club every database has from its migrations (``games/migrations/0011``), made
    again after a transactional test's flush took it."""
    club = Club.objects.order_by("id").first()
    return club or Club.objects.create(name="Club", slug="club")


def make_user(
    username: str,
    *,
    is_staff: bool = False,
    club: Club | None = None,
    role: str | None = Membership.Role.RECORDER,
) -> Any:
    """A user with ``role`` in ``club`` (default: a recorder of the first club, as every
    account was before clubs; ``role=None``: in no club)."""
    user = get_user_model().objects.create_user(
        username=username, password=PASSWORD, is_staff=is_staff
    )
    if role is not None:
        Membership.objects.create(club=club or first_club(), user=user, role=role)
    return user


def signed_in(user: Any) -> Client:
    """A page client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def client_for(user: Any) -> APIClient:
    """An API client with ``user``'s token."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
