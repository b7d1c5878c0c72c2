"""A member changes their password on the settings page: the current one is asked, Django's
password validators apply, the member stays signed in on this device and the old password no
longer signs in; changes are limited per user."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.accounts import PASSWORD

NEW = "a-new-and-long-password-7"


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> None:
    cache.clear()


def signs_in(username: str, password: str) -> bool:
    return Client().login(username=username, password=password)


def test_a_member_changes_their_password(web: Client, user: Any) -> None:
    page = web.get(reverse("web:account")).content.decode()
    assert 'id="password-change"' in page and 'name="old_password"' in page
    changed = web.post(
        reverse("web:password-change"),
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert changed.status_code == 200 and "Password changed." in changed.content.decode()
    assert web.get(reverse("web:home")).status_code == 200  # still signed in here
    assert signs_in("alice", NEW) and not signs_in("alice", PASSWORD)


@pytest.mark.parametrize(
    ("old", "new1", "new2", "field"),
    [
        ("wrong", NEW, NEW, "old_password"),  # not the current password
        (PASSWORD, NEW, NEW + "x", "new_password2"),  # the two differ
        (PASSWORD, "short", "short", "new_password2"),  # too short
        (PASSWORD, "12345678901", "12345678901", "new_password2"),  # digits only
        (PASSWORD, "password123", "password123", "new_password2"),  # too common
        (PASSWORD, "alice123", "alice123", "new_password2"),  # like the username
        (PASSWORD, "a\x00bcdefghijk", "a\x00bcdefghijk", "new_password1"),  # a NUL
        ("", "", "", "old_password"),
    ],
)
def test_a_refused_password_changes_nothing(
    web: Client, user: Any, old: str, new1: str, new2: str, field: str
) -> None:
    posted = {"old_password": old, "new_password1": new1, "new_password2": new2}
    response = web.post(reverse("web:password-change"), posted)
    assert response.status_code == 400
    page = response.content.decode()
    assert f'id="id_{field}"' in page and 'class="field has-error"' in page
    assert signs_in("alice", PASSWORD)


def test_password_changes_are_limited_per_user(web: Client, other_web: Client) -> None:
    wrong = {"old_password": "wrong", "new_password1": NEW, "new_password2": NEW}
    statuses = [web.post(reverse("web:password-change"), wrong).status_code for _ in range(6)]
    assert statuses == [400] * 5 + [429]
    # Even the right password waits now; another member does not.
    right = {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    limited = web.post(reverse("web:password-change"), right)
    assert limited.status_code == 429 and "wait a minute" in limited.content.decode()
    assert signs_in("alice", PASSWORD)
    assert other_web.post(reverse("web:password-change"), right).status_code == 302


def test_changing_a_password_needs_a_signed_in_user(client: Client, user: Any) -> None:
    posted = {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW}
    assert client.post(reverse("web:password-change"), posted).status_code == 302
    assert client.get(reverse("web:password-change")).status_code == 302  # to sign in
    assert signs_in("alice", PASSWORD)
