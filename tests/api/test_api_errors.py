"""Every answer under /api/ is JSON with a stable code, whatever went wrong and whatever DEBUG
says: a bug (500), the database gone (503 `unavailable`), a number too large to store or a
document nested too deep (400), a URL no route takes (404)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from scoring.stats import selectors
from tests.accounts import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(params=[True, False], ids=["debug", "no-debug"])
def client(request: pytest.FixtureRequest, settings: Any) -> APIClient:
    settings.DEBUG = request.param
    api = APIClient(raise_request_exception=False)
    api.force_authenticate(make_user("errors"))
    return api


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body: dict[str, Any] = json.loads(response.content)
    assert {"code", "message", "round", "seat"} <= set(body)
    return body


def test_a_bug_in_a_view_is_a_json_500(client: APIClient, monkeypatch: Any) -> None:
    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(selectors, "leaderboard", broken)
    body = error_of(client.get("/api/leaderboard/"), 500)
    assert body["code"] == "internal_error"
    assert "a bug" not in body["message"]  # nothing of the server's inside leaks


def test_the_database_gone_is_a_json_503(client: APIClient, monkeypatch: Any) -> None:
    def gone(**kwargs: Any) -> Any:
        raise OperationalError("connection refused")

    monkeypatch.setattr(selectors, "leaderboard", gone)
    assert error_of(client.get("/api/leaderboard/"), 503)["code"] == "unavailable"


def test_a_player_id_too_large_to_store_is_a_400(client: APIClient) -> None:
    body = {"players": [2**70, "Bea", "Cy"], "first_player": 0}
    error = error_of(client.post("/api/games/", body, format="json"), 400)
    assert (error["code"], error["path"]) == ("out_of_range", "players[0]")
    body = {"players": [2**63 - 1, "Bea", "Cy"], "first_player": 0}  # storable, but no player
    error = error_of(client.post("/api/games/", body, format="json"), 400)
    assert error["code"] == "unknown_player"


def test_a_game_id_too_large_to_store_is_a_json_4xx(client: APIClient) -> None:
    response = client.get("/api/games/99999999999999999999999999/")
    # SQLite cannot even compare with it (400 out_of_range); PostgreSQL finds no such game.
    assert error_of(response, response.status_code)["code"] in {"out_of_range", "not_found"}
    assert response.status_code in {400, 404}


def test_a_document_nested_too_deep_is_a_400(client: APIClient) -> None:
    deep = "[" * 5000 + "]" * 5000
    response = client.post("/api/games/import/", deep, content_type="application/json")
    assert error_of(response, 400)["code"] == "too_deep"
    nested: Any = "x"
    for _ in range(40):
        nested = {"a": nested}
    body = {"players": ["Ada", "Bea", "Cy"], "first_player": 0, "notes": nested}
    response = client.post("/api/games/", body, format="json")
    assert "nested" in error_of(response, 400)["message"]


def test_a_url_no_route_takes_is_a_json_404(client: APIClient) -> None:
    assert error_of(client.get("/api/no-such-thing/"), 404)["code"] in {"not_found"}


def test_a_method_not_allowed_is_json(client: APIClient) -> None:
    response = client.delete("/api/health/")
    assert error_of(response, 405)["code"] == "method_not_allowed"


def test_a_bad_host_is_a_json_400(client: APIClient, settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["potdevin.example"]
    response = client.get("/api/health/", HTTP_HOST="evil.example")
    assert error_of(response, 400)["code"] == "bad_request"


def test_pages_outside_the_api_keep_their_html(settings: Any) -> None:
    settings.DEBUG = False
    response = APIClient(raise_request_exception=False).get("/no-such-page/")
    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")
