"""What a phone keeps for offline (games/web/offline_app.py): a game's copy and what a new play's
pages read. Each holds the signed-in user's own fields but never a password, other accounts
by name only, and nothing of another club."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import board_games, services
from games.records.models import Club, Membership
from tests.accounts import first_club, make_user, signed_in

pytestmark = pytest.mark.django_db


def rows(body: dict[str, Any], model: str) -> list[dict[str, Any]]:
    return [row for row in body["objects"] if row["model"] == model]


def test_a_new_plays_copy_holds_the_clubs_players_editions_and_named_games_only() -> None:
    services.editions_ensure_builtin()
    alice = make_user("alice")
    make_user("bob", role=Membership.Role.MEMBER)
    elsewhere = Club.objects.create(name="Elsewhere", slug="elsewhere")
    services.player_create(club=first_club(), name="Ada", created_by=alice)
    services.player_create(club=elsewhere, name="Zed", created_by=alice)
    board_games.board_game_create(club=first_club(), name="Azul", by=alice)
    board_games.board_game_create(club=elsewhere, name="Catan", by=alice)

    answer = signed_in(alice).get(reverse("web:new-play-offline"))
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "private, no-cache"
    body = answer.json()
    assert (body["format"], body["game"]) == ("potdevin-offline/1", None)
    assert body["app"].startswith("/engine/app/")
    assert [r["fields"]["name"] for r in rows(body, "games.player")] == ["Ada"]
    assert [r["fields"]["name"] for r in rows(body, "games.boardgame")] == ["Azul"]
    assert [r["fields"]["slug"] for r in rows(body, "games.club")] == [first_club().slug]
    assert [r["fields"]["user"] for r in rows(body, "games.membership")] == [alice.pk]
    assert {r["fields"]["game_type"] for r in rows(body, "games.edition")} >= {
        "pot-de-vin",
        "bruges",
    }
    (me,) = rows(body, "auth.user")
    assert me["pk"] == alice.pk and "password" not in me["fields"]
    assert "bob" not in answer.content.decode()


@pytest.mark.parametrize("role", [Membership.Role.MEMBER, None])
def test_a_new_plays_copy_is_nothing_to_whoever_does_not_record(role: Any) -> None:
    reader = make_user("reader", role=role)
    assert signed_in(reader).get(reverse("web:new-play-offline")).status_code == 404
    assert Client().get(reverse("web:new-play-offline")).status_code == 404
