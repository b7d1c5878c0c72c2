"""Exactly-once from the pages: every form that writes carries a key made once per rendered form
(``idempotency_key``); the same form sent again (its answer lost, a second tap) is saved once and
says "saved" once, never a refusal; sent again after other changes to its game, it is checked as
any post is (test_web_stale_and_undo)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records import services
from games.records.models import Edition, Game, GameEvent, IdempotencyKey
from tests.web.test_web_bruges_sheet import ADA, BEA, form_data
from tests.web.test_web_other_games import play_data
from tests.web.test_web_pages import round_post
from tests.web.test_web_stale_and_undo import hidden_fields, pdv_game, pdv_log, text, undo_form

pytestmark = pytest.mark.django_db

KEY_FIELD = re.compile(r'<input type="hidden" name="idempotency_key" value="([0-9a-f]{32})">')


def keys_in(html: str) -> list[str]:
    return KEY_FIELD.findall(html)


def test_every_form_that_writes_a_game_carries_a_key_of_its_own(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    log = pdv_log()
    game = pdv_game(user, log)
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    entry_key = hidden_fields(page, "round-entry")["idempotency_key"]
    assert len(entry_key) == 1
    again = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert hidden_fields(again, "round-entry")["idempotency_key"] != entry_key  # per render
    review = web.post(
        reverse("web:round-append", args=[game.pk]),
        {**round_post(log["rounds"][0], 1), "review": ""},
    ).content.decode()
    # The review's Save has a key of its own, not the entry form's sent again.
    assert len(hidden_fields(review, "entry-review")["idempotency_key"]) == 1
    assert hidden_fields(review, "entry-review")["idempotency_key"] != entry_key
    for name, game_type in (("web:game-new-of", "pot-de-vin"), ("web:scorepad-new-of", "bruges")):
        assert len(keys_in(web.get(reverse(name, args=[game_type])).content.decode())) == 1, name
    assert len(keys_in(web.get("/plays/new/").content.decode())) == 1


def test_a_save_sent_twice_is_saved_once_and_says_saved_once(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    log = pdv_log()
    game = pdv_game(user, log)
    url = reverse("web:round-append", args=[game.pk])
    review = web.post(url, {**round_post(log["rounds"][0], 1), "review": ""})
    fields = hidden_fields(review.content.decode(), "entry-review")
    first = web.post(url, {**fields, "review": "save"})
    assert first.status_code == 302 and "Idempotent-Replayed" not in first
    # Its answer never reached the phone (the notice with it): the same Save is sent again.
    web.cookies.pop("messages", None)
    again = web.post(url, {**fields, "review": "save"})
    assert again.status_code == 302 and again["Idempotent-Replayed"] == "true"
    assert again["Location"] == first["Location"]
    page = text(web.get(again["Location"]))
    assert page.count("Round 1 saved") == 1
    assert "already saved" not in page and "was not" not in page
    assert list(game.rounds.values_list("number", flat=True)) == [1]
    assert GameEvent.objects.filter(game_id=game.pk, action="added").count() == 1
    # The page now offers round 2, stored at once.
    assert web.post(url, round_post(log["rounds"][1], 2)).status_code == 302
    assert list(game.rounds.order_by("number").values_list("data", flat=True)) == log["rounds"][:2]


def test_the_same_form_sent_after_another_phone_saved_is_checked_as_any_post(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    log = pdv_log()
    game = pdv_game(user, log)
    url = reverse("web:round-append", args=[game.pk])
    review = web.post(url, {**round_post(log["rounds"][0], 1), "review": ""})
    fields = hidden_fields(review.content.decode(), "entry-review")
    assert web.post(url, {**fields, "review": "save"}).status_code == 302
    services.round_append(game=game, round_data=log["rounds"][1], number=2)  # another phone
    again = web.post(url, {**fields, "review": "save"}, follow=True)
    assert "Round 1 was already saved from another page or phone" in text(again)
    assert game.rounds.count() == 2


def test_a_refused_save_is_not_kept_and_is_checked_again(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    log = pdv_log()
    game = pdv_game(user, log)
    url = reverse("web:round-append", args=[game.pk])
    bad = {**round_post(log["rounds"][0], 1), "trump": "Z9", "idempotency_key": "k" * 32}
    assert web.post(url, bad).status_code == 400
    assert not IdempotencyKey.objects.exists()
    good = {**round_post(log["rounds"][0], 1), "idempotency_key": "k" * 32}
    assert web.post(url, good).status_code == 302
    assert game.rounds.count() == 1


def test_undo_confirmed_twice_undoes_once(web: Client, user: Any, standard_deck: Edition) -> None:
    log = pdv_log()
    game = pdv_game(user, log)
    for number, data in enumerate(log["rounds"][:2], start=1):
        services.round_append(game=game, round_data=data, number=number)
    page = web.get(reverse("web:game", args=[game.pk])).content.decode()
    undo = reverse("web:round-undo", args=[game.pk])
    form = {**undo_form(page), "idempotency_key": "u" * 32}
    question = web.post(undo, form)
    assert question.status_code == 200 and 'id="confirm"' in question.content.decode()
    confirmed = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">',
                                question.content.decode()))  # fmt: skip
    confirmed.pop("csrfmiddlewaretoken", None)
    assert confirmed["idempotency_key"] == "u" * 32 and confirmed["confirmed"] == "yes"
    assert web.post(undo, confirmed).status_code == 302
    again = web.post(undo, confirmed)
    assert again.status_code == 302 and again["Idempotent-Replayed"] == "true"
    assert list(game.rounds.values_list("number", flat=True)) == [1]


def test_a_quick_sheet_and_another_games_play_sent_twice_are_stored_once(web: Client) -> None:
    services.editions_ensure_builtin()
    sheet = {**form_data(ADA, BEA), "idempotency_key": "s" * 32}
    url = reverse("web:scorepad-new-of", args=["bruges"])
    first = web.post(url, sheet)
    assert first.status_code == 302, text(first)
    assert web.post(url, sheet)["Location"] == first["Location"]
    assert Game.objects.filter(game_type="bruges").count() == 1
    play = {
        **play_data(new_name="Carcassonne", player_0="Ada", player_1="Bea"),
        "score_0": "84",
        "score_1": "91",
        "idempotency_key": "p" * 32,
    }
    first = web.post("/plays/new/", play)
    assert first.status_code == 302, text(first)
    assert web.post("/plays/new/", play)["Location"] == first["Location"]
    assert Game.objects.filter(game_type="other").count() == 1
