"""Test users, shared by every test package (fixtures in tests/conftest.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

PASSWORD = "a-long-test-password-42"


def make_user(username: str, *, is_staff: bool = False) -> Any:
    return get_user_model().objects.create_user(
        username=username, password=PASSWORD, is_staff=is_staff
    )
