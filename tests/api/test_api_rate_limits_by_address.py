"""Rate limits per address count a client under the address the deployment trusts
(``potdevin_site.client``): with no proxy configured (the default) the connection's own, so a
guesser who forges a new ``X-Forwarded-For`` for every try is still one client; behind N
proxies of the deployment's, the address the outermost one saw, never what the client wrote to
the left of it. The API (DRF's throttles) and the pages (django-ratelimit) agree."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.test import Client, RequestFactory
from rest_framework.request import Request
from rest_framework.test import APIClient
from rest_framework.throttling import BaseThrottle

from potdevin_site.client import client_address
from tests.accounts import make_user

pytestmark = pytest.mark.django_db

FORGED = (f"198.51.100.{n}" for n in itertools.count(1))


@pytest.fixture
def rates(settings: Any, throttle_rates: Any) -> Any:
    """Three tries a minute for signing in and for invitation links, on the API and the pages
    (the pages read the API's rates)."""
    throttle_rates(signin="3/min", invitations="3/min")
    return settings


def forged() -> dict[str, str]:
    return {"HTTP_X_FORWARDED_FOR": next(FORGED)}


def test_api_sign_in_is_not_escaped_by_forged_addresses(rates: Any) -> None:
    make_user("alice")
    api = APIClient()
    wrong = {"username": "alice", "password": "wrong"}
    statuses = [
        api.post("/api/auth/token/", wrong, format="json", **forged()).status_code for _ in range(8)
    ]
    assert statuses == [400, 400, 400] + [429] * 5


def test_api_invitation_guesses_are_not_escaped_by_forged_addresses(rates: Any) -> None:
    api = APIClient()
    statuses = [
        api.get(f"/api/invitations/{'A' * 31}{n}/", **forged()).status_code for n in range(8)
    ]
    assert statuses == [404, 404, 404] + [429] * 5


def test_page_sign_in_and_invitation_guesses_are_not_escaped_either(rates: Any) -> None:
    page = Client()
    wrong = {"username": "nobody", "password": "wrong"}
    signing_in = [page.post("/accounts/login/", wrong, **forged()).status_code for _ in range(5)]
    assert signing_in == [200, 200, 200, 429, 429]
    # Looking at links counts too, and a made-up one is then answered like a real one: 429.
    guesses = [page.get(f"/invite/{'B' * 31}{n}/", **forged()).status_code for n in range(5)]
    assert guesses == [404, 404, 404, 429, 429]
    assert page.post(f"/invite/{'B' * 32}/", {}, **forged()).status_code == 429


def test_behind_one_proxy_the_address_it_saw_counts(rates: Any) -> None:
    """POTDEVIN_TRUSTED_PROXIES=1: the proxy appends the address it was reached from; what a
    client writes to the left of it changes nothing, and two clients behind the proxy are
    counted apart."""
    rates.POTDEVIN_TRUSTED_PROXIES = 1
    rates.REST_FRAMEWORK = {**rates.REST_FRAMEWORK, "NUM_PROXIES": 1}
    make_user("alice")
    api = APIClient(REMOTE_ADDR="10.0.0.2")  # every request comes from the proxy
    wrong = {"username": "alice", "password": "wrong"}

    def from_client(address: str) -> int:
        header = f"{next(FORGED)}, {address}"  # a forged entry, then the proxy's
        return api.post(
            "/api/auth/token/", wrong, format="json", HTTP_X_FORWARDED_FOR=header
        ).status_code

    assert [from_client("203.0.113.7") for _ in range(4)] == [400, 400, 400, 429]
    assert from_client("203.0.113.8") == 400  # another client at the table's café
    assert from_client("203.0.113.7") == 429


@pytest.mark.parametrize(
    ("proxies", "header", "expected"),
    [
        (0, None, "192.0.2.1"),
        (0, "203.0.113.7", "192.0.2.1"),
        (0, "not an address", "192.0.2.1"),
        (1, None, "192.0.2.1"),
        (1, "203.0.113.7", "203.0.113.7"),
        (1, "198.51.100.1, 203.0.113.7", "203.0.113.7"),
        (1, " 198.51.100.1 ,203.0.113.7 ", "203.0.113.7"),
        (2, "198.51.100.1, 203.0.113.7, 10.0.0.3", "203.0.113.7"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_pages_and_the_api_key_on_the_same_address(
    settings: Any, proxies: int, header: str | None, expected: str
) -> None:
    settings.POTDEVIN_TRUSTED_PROXIES = proxies
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": proxies}
    extra = {"REMOTE_ADDR": "192.0.2.1"}
    if header is not None:
        extra["HTTP_X_FORWARDED_FOR"] = header
    request = RequestFactory().get("/", **extra)
    assert client_address(request) == expected
    assert BaseThrottle().get_ident(Request(request)) == expected


def test_a_garbage_entry_where_the_proxy_writes_falls_back_to_the_connection(
    settings: Any,
) -> None:
    # Only a misconfigured count reaches a client's own entry: never a crash, never its word.
    settings.POTDEVIN_TRUSTED_PROXIES = 3
    request = RequestFactory().get(
        "/", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="\x00<script>, 203.0.113.7"
    )
    assert client_address(request) == "192.0.2.1"
