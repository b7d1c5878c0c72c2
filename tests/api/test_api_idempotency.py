"""Exactly-once writes through the API's ``Idempotency-Key`` header (the IETF httpapi draft's
semantics): the same key and body answer the first answer again and write nothing; the same key
with another body is 422; a key still being answered is 409; keys are each user's own, kept 30
days, and in backups."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from games.records import idempotency
from games.records.models import Club, Edition, Game, GameEvent, IdempotencyKey, Player, Round
from scoring.models import Job
from tests.accounts import client_for, first_club, make_user

pytestmark = pytest.mark.django_db

# tests/api/conftest.py's hand-worked rounds of a 3-player game (the README's example).
from tests.api.conftest import ROUND_1, ROUND_2  # noqa: E402


def _post(api: APIClient, path: str, body: Any, key: str | None, **headers: str) -> Any:
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    return api.post(path, body, format="json", **headers)


def _round(game_id: int, number: int, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return f"/api/games/{game_id}/rounds/", {"number": number, **data}


def test_the_same_key_and_body_get_the_first_answer_again_and_write_once(
    api: APIClient, make_game: Any
) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    first = _post(api, path, body, "round-1-of-the-evening")
    assert first.status_code == 201, first.content
    assert "Idempotent-Replayed" not in first
    # The answer was lost; the phone sends the same request again.
    again = _post(api, path, body, "round-1-of-the-evening")
    assert again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert again["Content-Type"] == first["Content-Type"]
    assert Round.objects.filter(game=game).count() == 1
    assert GameEvent.objects.filter(game_id=game.pk, action="added").count() == 1
    # The next round goes on as usual.
    path, body = _round(game.pk, 2, ROUND_2)
    assert _post(api, path, body, "round-2-of-the-evening").status_code == 201
    assert Round.objects.filter(game=game).count() == 2


def test_without_a_key_a_second_send_is_refused_as_before(api: APIClient, make_game: Any) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    assert _post(api, path, body, None).status_code == 201
    second = _post(api, path, body, None)
    assert second.status_code == 409  # round 1 is taken: what the key is for
    assert Round.objects.filter(game=game).count() == 1


def test_a_created_game_is_created_once(api: APIClient, standard_deck: Edition) -> None:
    body = {"players": ["Ada", "Bo", "Cy"], "first_player": 1}
    first = _post(api, "/api/games/", body, "new-game-7f3a")
    assert first.status_code == 201, first.content
    again = _post(api, "/api/games/", body, "new-game-7f3a")
    assert again.status_code == 201
    assert again.json()["id"] == first.json()["id"]
    assert Game.objects.count() == 1
    assert Player.objects.filter(name__in=["Ada", "Bo", "Cy"]).count() == 3


def test_the_same_key_with_another_body_is_422_and_writes_nothing(
    api: APIClient, make_game: Any
) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    assert _post(api, path, body, "k-1").status_code == 201
    other = {**body, "trump": "U4"}
    response = _post(api, path, other, "k-1")
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert response.json()["message"]
    # Another address with the same key is another request too.
    response = _post(api, f"/api/games/{game.pk}/finish/", {}, "k-1")
    assert response.status_code == 422
    assert Round.objects.filter(game=game).get().data["trump"] == "E5"
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS


def test_a_key_still_being_answered_is_409_until_its_answer_or_abandoned(
    api: APIClient, user: Any, make_game: Any
) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    # A first request with this key is running (claimed, not answered yet): its fingerprint is
    # the one this request has, as a second tap on the same Save would.
    sent = _post(api, path, body, "k-running")
    assert sent.status_code == 201
    row = IdempotencyKey.objects.get(user=user, key="k-running")
    IdempotencyKey.objects.filter(pk=row.pk).update(status=None, body=b"")
    Round.objects.filter(game=game).delete()  # as if the first request had not written yet
    response = _post(api, path, body, "k-running")
    assert response.status_code == 409
    assert response.json()["code"] == "idempotency_key_in_use"
    assert not Round.objects.filter(game=game).exists()
    # Its process died: after ABANDONED_AFTER the key is taken over and the request runs.
    past = timezone.now() - idempotency.ABANDONED_AFTER - datetime.timedelta(seconds=1)
    IdempotencyKey.objects.filter(pk=row.pk).update(created_at=past)
    response = _post(api, path, body, "k-running")
    assert response.status_code == 201, response.content
    assert Round.objects.filter(game=game).count() == 1


def test_keys_are_kept_30_days_then_forgotten(api: APIClient, user: Any, make_game: Any) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    assert _post(api, path, body, "k-old").status_code == 201
    path2, body2 = _round(game.pk, 2, ROUND_2)
    assert _post(api, path2, {**body2, "trump": "Z9"}, "k-young").status_code == 400  # kept
    now = timezone.now()
    IdempotencyKey.objects.filter(key="k-old").update(created_at=now - datetime.timedelta(days=29))
    IdempotencyKey.objects.filter(key="k-young").update(
        created_at=now - datetime.timedelta(days=31)
    )
    # 29 days on, the key still answers as it did.
    again = _post(api, path, body, "k-old")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    # 31 days on, the key is new again: the request runs (and is refused now: round 1 is taken).
    assert idempotency.forget_expired() == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["k-old"]
    assert _post(api, path2, body2, "k-young").status_code == 201
    assert Round.objects.filter(game=game).count() == 2


def test_an_expired_key_is_new_even_before_it_is_deleted(api: APIClient, make_game: Any) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    assert _post(api, path, body, "k-expired").status_code == 201
    IdempotencyKey.objects.update(created_at=timezone.now() - datetime.timedelta(days=31))
    path2, body2 = _round(game.pk, 2, ROUND_2)
    response = _post(api, path2, body2, "k-expired")  # another body: new, not 422
    assert response.status_code == 201, response.content
    assert Round.objects.filter(game=game).count() == 2


def test_another_users_key_is_theirs_alone(
    api: APIClient, other_user: Any, user: Any, make_game: Any
) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    assert _post(api, path, body, "shared-key").status_code == 201
    # Another recorder of the same club, same key, same body: not answered from the first
    # user's answer; their request runs (and is refused: round 1 is saved).
    colleague = make_user("colleague")
    response = _post(client_for(colleague), path, body, "shared-key")
    assert response.status_code == 409
    assert "Idempotent-Replayed" not in response
    # A user of another club with the same key learns nothing of this game.
    outsider = make_user("outsider", club=Club.objects.create(name="Far", slug="far"))
    response = _post(client_for(outsider), path, body, "shared-key")
    assert response.status_code == 404
    assert "Idempotent-Replayed" not in response
    # The colleague's 409 is not kept (it may pass later); the outsider's 404 is.
    assert IdempotencyKey.objects.filter(key="shared-key").count() == 2
    kept = IdempotencyKey.objects.get(key="shared-key", user=user)
    assert kept.club_id == game.club_id
    assert IdempotencyKey.objects.get(key="shared-key", user=outsider).club_id is None


@pytest.mark.parametrize(
    "key",
    ["", "x" * 256, "café", "tab\there", "nul\x00", "\ud800", "line\nbreak", "a space"],
    ids=["empty", "too-long", "non-ascii", "tab", "nul", "surrogate", "newline", "space"],
)
def test_a_malformed_key_is_400_and_writes_nothing(
    api: APIClient, make_game: Any, key: str
) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    response = _post(api, path, body, key)
    assert response.status_code == 400
    assert response.json()["code"] == "idempotency_key_invalid"
    assert not Round.objects.filter(game=game).exists()
    assert not IdempotencyKey.objects.exists()


def test_a_refusal_is_kept_and_answered_again(api: APIClient, make_game: Any) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, {**ROUND_1, "trump": "Z9"})
    first = _post(api, path, body, "k-refused")
    assert first.status_code == 400
    again = _post(api, path, body, "k-refused")
    assert again.status_code == 400 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert not Round.objects.filter(game=game).exists()


def test_a_server_error_forgets_the_key_so_a_retry_runs(
    api: APIClient, make_game: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.records import services

    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    real = services.round_append

    def broken(**kwargs: Any) -> Any:
        raise RuntimeError("the database went away mid-write")

    monkeypatch.setattr(services, "round_append", broken)
    api.raise_request_exception = False
    assert _post(api, path, body, "k-5xx").status_code == 500
    assert not IdempotencyKey.objects.filter(key="k-5xx").exists()
    monkeypatch.setattr(services, "round_append", real)
    assert _post(api, path, body, "k-5xx").status_code == 201
    assert Round.objects.filter(game=game).count() == 1


def test_anonymous_and_reads_pass_through(anon_api: APIClient, api: APIClient) -> None:
    assert anon_api.post(
        "/api/games/", {}, format="json", HTTP_IDEMPOTENCY_KEY="k"
    ).status_code in (
        401,
        403,
    )
    assert api.get("/api/games/", HTTP_IDEMPOTENCY_KEY="k").status_code == 200
    assert not IdempotencyKey.objects.exists()


def test_keys_survive_a_backup_and_restore(
    api: APIClient, user: Any, make_game: Any, tmp_path: Path
) -> None:
    game = make_game()
    path, body = _round(game.pk, 1, ROUND_1)
    first = _post(api, path, body, "k-backed-up")
    assert first.status_code == 201
    archive = tmp_path / "backup.jsonl"
    call_command("export_all", str(archive))
    records = [
        line for line in archive.read_text().splitlines() if '"kind":"idempotency_key"' in line
    ]
    assert len(records) == 1 and '"k-backed-up"' in records[0]
    # An empty database, then the restore.
    Job.objects.all().delete()
    Game.objects.all().delete()
    GameEvent.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    Edition.objects.all().delete()
    get_user_model().objects.all().delete()
    Club.objects.create(name="Club", slug="club")
    call_command("import_all", str(archive))
    restored = IdempotencyKey.objects.get()
    assert restored.key == "k-backed-up" and restored.user.username == user.username
    # The phone sends again after the restore: answered once, nothing written twice.
    again = _post(client_for(restored.user), path, body, "k-backed-up")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Round.objects.filter(game_id=game.pk).count() == 1
    assert first_club() is not None


def test_a_form_body_with_any_characters_is_fingerprinted(api: APIClient) -> None:
    """A form-encoded write with characters past Latin-1 in its field names: answered by the
    view (here: refused as not JSON), never a server error, and answered alike again."""
    body = "79%C3%B7%EA%B4%89kH=%04%60&%F0%A7%87%90=1&username=x"
    first = api.post(
        "/api/games/",
        body,
        content_type="application/x-www-form-urlencoded",
        HTTP_IDEMPOTENCY_KEY="k-form",
    )
    assert 400 <= first.status_code < 500
    again = api.post(
        "/api/games/",
        body,
        content_type="application/x-www-form-urlencoded",
        HTTP_IDEMPOTENCY_KEY="k-form",
    )
    assert again.status_code == first.status_code and again.json() == first.json()
