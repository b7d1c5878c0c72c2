"""Entry forms posted as no page writes them (Django's test client): a Bruges round whose hidden
draft was changed (nesting no page writes, seats no player has, a person's name holding a NUL
or a lone surrogate), the review's hidden fields sent back changed, and Complots and Pot de Vin
entries with missing, wrong or huge values. Each is refused on the page (never a server
error), nothing is stored, and a player's name is written escaped."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.records.models import Edition, Game, Round
from tests.web import test_web_bruges as bruges
from tests.web import test_web_complots as complots
from tests.web import test_web_pages as potdevin

pytestmark = pytest.mark.django_db

HOSTILE_NAME = "<script>alert(1)</script>\"'&"
QUIET_DICE = {"blue": 3, "brown": 3, "red": 3, "purple": 3, "yellow": 3}
GARBLED = "the round being entered was garbled: start the round again."


@pytest.fixture(autouse=True)
def _editions(db: None) -> None:
    bruges.services.editions_ensure_builtin()


def append(web: Client, game: Game, data: dict[str, Any]) -> Any:
    return web.post(reverse("web:round-append", args=[game.pk]), data)


def assert_refused(response: Any, game: Game, stored: int = 0) -> str:
    """A page (no server error) that stores nothing and writes no script of a name."""
    assert response.status_code in (200, 400), response.status_code
    html = response.content.decode()
    assert "<script>alert" not in html
    assert Round.objects.filter(game=game).count() == stored
    return html


# --- Bruges: the draft ---------------------------------------------------------------------------

STEPS = ("", "draw", "dice", "phase2", "upkeep", "turn", "more", "pass", "penalty", "undo")
STEPS += ("resume", "save", "change")

# Drafts that read as JSON but hold a seat no player has: the engine refuses them, and the page
# that says so still writes the round entered so far.
NO_SUCH_SEAT_DRAFTS = [
    {"turns": [{"seat": 99, "steps": [{"card": "blue", "action": "workers"}]}]},
    {"dice": QUIET_DICE, "phase2": True, "turns": [{"seat": 99, "steps": []}]},
    {"dice": QUIET_DICE, "upkeep": [{"seat": 99, "effect": "p1", "gain": {}, "at": "dice"}]},
    {"upkeep": [{"seat": 99, "effect": "p1", "gain": {}, "at": "draw"}]},
    {
        "dice": QUIET_DICE,
        "phase2": True,
        "turns": [
            {"seat": -5, "steps": [{"penalty": {"seat": 77, "color": "red", "house": 1}}]},
        ],
    },
]


@pytest.mark.parametrize("draft", NO_SUCH_SEAT_DRAFTS)
def test_a_bruges_draft_naming_a_seat_no_player_has_is_refused(
    web: Client, user: Any, draft: dict[str, Any]
) -> None:
    game = bruges.make_game(user, (HOSTILE_NAME, "Bea"))
    for step in STEPS:
        for review in ("", "save"):
            data = {"number": "1", "draft": json.dumps(draft), "step": step, "review": review}
            html = assert_refused(append(web, game, data), game)
            assert "seat 99" not in html and "seat 77" not in html


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000 + "]" * 100_000,  # deeper than any JSON reader goes
        json.dumps({"dice": {**QUIET_DICE, "blue": 2**70}}),  # past 64 bits
        json.dumps({"dice": QUIET_DICE, "phase2": True, "turns": [{"seat": 0}] * 3000}),
    ],
)
def test_a_bruges_draft_no_page_writes_is_garbled(web: Client, user: Any, text: str) -> None:
    game = bruges.make_game(user)
    for step in ("", "dice", "turn", "save", "change"):
        data = {"number": "1", "draft": text, "step": step, "review": "save"}
        html = assert_refused(append(web, game, data), game)
        assert GARBLED.capitalize() in html or GARBLED in html


def reviewed_round(web: Client, user: Any) -> tuple[Game, bruges.Entry]:
    """The worked example's round entered through the pages, at its review."""
    game = bruges.played(user, bruges.example_log([bruges.EXAMPLE_ROUND]), upto=0)
    entry = bruges.Entry(web, game)
    round_ = bruges.EXAMPLE_ROUND
    entry.draw(round_)
    entry.dice(round_["dice"])
    entry.phase2(round_)
    persons: dict[str, Any] = {}
    for turn in round_["turns"]:
        entry.turn(turn, persons)
    assert 'id="entry-review"' in entry.html
    return game, entry


@pytest.mark.parametrize("name", ["Alchimista\x00", "Alchimista\ud800"])
def test_a_review_whose_draft_holds_text_no_store_takes_is_refused_in_words(
    web: Client, user: Any, name: str
) -> None:
    """A person's name with a NUL or a lone surrogate (JSON writes it as an escape, so a form
    can carry it): neither reviewed nor saved, and the page says so without a path or code."""
    game, entry = reviewed_round(web, user)
    fields = entry.review_fields()
    draft = json.loads(fields["draft"])
    draft["turns"][6]["steps"][0]["person"]["name"] = name
    fields["draft"] = json.dumps(draft)
    for review in ("", "save"):
        html = assert_refused(append(web, game, {**fields, "review": review}), game)
        assert 'id="entry-review"' not in html
        assert GARBLED.capitalize() in html or GARBLED in html
        assert "turns[6]" not in html


def test_a_review_sent_back_changed_saves_only_what_the_engine_takes(
    web: Client, user: Any
) -> None:
    """The review's draft changed before "Save": the server reads it as a fresh entry; a turn
    the engine refuses is not stored, a name is stored as typed and written escaped."""
    game, entry = reviewed_round(web, user)
    fields = entry.review_fields()
    draft = json.loads(fields["draft"])
    draft["turns"][0]["steps"][0]["action"] = "house"  # Ada has no red worker yet
    html = assert_refused(
        append(web, game, {**fields, "draft": json.dumps(draft), "review": "save"}), game
    )
    assert "Ada" in html
    draft = json.loads(fields["draft"])
    draft["turns"][6]["steps"][0]["person"]["name"] = HOSTILE_NAME
    response = append(web, game, {**fields, "draft": json.dumps(draft), "review": "save"})
    assert response.status_code == 302
    html = web.get(reverse("web:game", args=[game.pk])).content.decode()
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html


# --- Complots and Pot de Vin ---------------------------------------------------------------------


def test_complots_turns_posted_as_no_page_writes_them_are_refused(web: Client, user: Any) -> None:
    game = complots.make_game(user, (HOSTILE_NAME, "Bea", "Cy"))
    base = {"number": "1", "actor": "0", "action": "income"}
    posts = [
        {},
        {**base, "number": "x"},
        {**base, "number": "9" * 5000},
        {**base, "actor": "5"},
        {**base, "actor": "99999999999999999999999"},
        {**base, "actor": "-1"},
        {**base, "action": "\x00"},
        {**base, "action": "coup", "target": "1"},
        {**base, "action": "captain", "target": "0"},
        {**base, "action": "foreign_aid", "block_challenge_by": "2"},
        {**base, "action": "duchess", "loss_0_seat": "1", "loss_0_card": "duchess"},
    ]
    for data in posts:
        for step in ("", "action", "details", "junk"):
            for review in ("", "save", "change"):
                assert_refused(append(web, game, {**data, "step": step, "review": review}), game)


def test_pot_de_vin_rounds_posted_as_no_page_writes_them_are_refused(
    web: Client, user: Any, standard_deck: Edition
) -> None:
    game = potdevin.make_game(user, (HOSTILE_NAME, "Bea", "Cy"))
    base = {"number": "1", "trump": "E5", "play_0": "A7", "play_1": "pass", "play_2": "A9"}
    posts = [
        {},
        {**base, "number": "x"},
        {**base, "number": "9" * 5000},
        {**base, "trump": "\x00"},
        {**base, "trump": "e5"},
        {**base, "play_0": "J"},
        {**base, "play_0": "<b>"},
        {**base, "play_0": "pass", "play_2": "pass", "play_1": "pass"},
    ]
    for data in posts:
        for review in ("", "save", "change"):
            assert_refused(append(web, game, {**data, "review": review}), game)
