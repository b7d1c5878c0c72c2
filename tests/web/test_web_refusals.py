"""The engine's refusals in the players' terms (games/web/refusals.py): real refusals of the
Complots and Pot de Vin engines turned into sentences that name the player first, by name, with
no engine code and no 0-based seat number; the API keeps the engine's own words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.records import services
from games.web import refusals
from scoring.engine import LogError, get_engine
from tests.accounts import first_club

NAMES = ["Ada", "Bea", "Cy"]
COMPLOTS = get_engine("complots")
POTDEVIN = get_engine("pot-de-vin")
CODES = re.compile(r"\b[a-z]+_[a-z_]+\b|\bseats? \d|\(.*·.*\)")


def complots_refusal(turn: dict[str, Any]) -> LogError:
    log = {
        "format": "complots-log/1",
        "players": NAMES,
        "variant": "inquisitor",
        "first_player": 0,
        "turns": [turn],
    }
    with pytest.raises(LogError) as caught:
        COMPLOTS.replay(log)
    return caught.value


def potdevin_refusal(rounds: list[dict[str, Any]]) -> LogError:
    log = {"format": "potdevin-log/1", "players": NAMES, "first_player": 1, "rounds": rounds}
    with pytest.raises(LogError) as caught:
        POTDEVIN.replay(log)
    return caught.value


ROUND_1 = {
    "trump": "E5",
    "plays": [{"seat": 1, "card": "A7"}, {"seat": 2, "pass": True}, {"seat": 0, "card": "A9"}],
}

COMPLOTS_CASES = [
    # (turn, the sentence the page shows)
    (
        {"actor": 0, "action": "inquire", "target": 1, "challenge": {"by": 2, "truthful": False},
         "losses": [{"seat": 0, "card": "inquisitor"}]},
        "Ada was caught bluffing the inquisitor: it cannot turn one up.",
    ),
    (
        {"actor": 0, "action": "foreign_aid", "challenge": {"by": 1, "truthful": True}},
        "Bea: foreign aid claims no character and cannot be challenged.",
    ),
    (
        {"actor": 0, "action": "captain", "target": 0},
        "Ada: the target is a live player other than the actor, not Ada.",
    ),
    (
        {"actor": 0, "action": "captain", "target": 1, "challenge": {"by": 0, "truthful": True}},
        "Ada: the challenger is a live player other than the actor, not Ada.",
    ),
    ({"actor": 1, "action": "income"}, "Bea: Ada plays turn 1, not Bea."),
    (
        {"actor": 0, "action": "duchess", "challenge": {"by": 2, "truthful": True}},
        "Cy must lose an influence here, and the list of cards turned up lists no more.",
    ),
    ({"actor": 0, "action": "coup", "target": 1}, "Ada: coup costs 7 coins; Ada has 2."),
]  # fmt: skip


@pytest.mark.parametrize(("turn", "words"), COMPLOTS_CASES)
def test_complots_refusals_name_the_player_first_in_words(turn: dict[str, Any], words: str) -> None:
    exc = complots_refusal(turn)
    shown = refusals.sentence(exc, NAMES, refusals.for_game("complots"))
    assert shown == words
    assert not CODES.search(shown), shown
    assert exc.code not in shown


@pytest.mark.parametrize(
    ("rounds", "words"),
    [
        (
            [ROUND_1, {"trump": "U4", "plays": [{"seat": 0, "card": "P5"},
                                                {"seat": 1, "card": "A9"}]}],
            "Bea: A9 was already played.",
        ),
        (
            [{"trump": "E5", "plays": [{"seat": 1, "pass": True}]}],
            "Bea starts round 1 and must play a card.",
        ),
        (
            [{"trump": "E5", "plays": [{"seat": 2, "card": "A7"}]}],
            "Cy: Bea acts at this point of round 1, not Cy.",
        ),
    ],
)  # fmt: skip
def test_pot_de_vin_refusals_name_the_player_first_in_words(
    rounds: list[dict[str, Any]], words: str
) -> None:
    exc = potdevin_refusal(rounds)
    shown = refusals.sentence(exc, NAMES, refusals.for_game("pot-de-vin"))
    assert shown == words
    assert not CODES.search(shown), shown


@pytest.mark.parametrize(
    ("turn", "words"),
    [
        (COMPLOTS_CASES[0][0],
         "jean_luc was caught bluffing the inquisitor: it cannot turn one up."),
        (COMPLOTS_CASES[2][0],
         "jean_luc: the target is a live player other than the actor, not jean_luc."),
        (COMPLOTS_CASES[1][0],
         "mary_ann: foreign aid claims no character and cannot be challenged."),
    ],
)  # fmt: skip
def test_a_players_name_is_written_as_it_is(turn: dict[str, Any], words: str) -> None:
    """A name put in the sentence is not read as an engine code afterwards (its underscores
    kept) nor capitalised: only the engine's own words are."""
    names = ["jean_luc", "mary_ann", "Cy"]
    exc = complots_refusal(turn)
    assert refusals.sentence(exc, names, refusals.for_game("complots")) == words


def test_a_seat_not_at_the_table_is_named_as_such_and_no_number_is_left() -> None:
    exc = LogError("unknown_seat", "there is no seat 7 at this table", round=2, seat=7)
    assert refusals.sentence(exc, NAMES) == "There is no such player at this table."
    # A refusal that names no seat is the reason alone, as a sentence.
    assert refusals.sentence(LogError("game_over", "the game is over"), NAMES) == (
        "The game is over."
    )


@pytest.mark.django_db
def test_the_api_keeps_the_engine_words(user: Any) -> None:
    """The pages speak the players' words; the API answers with the engine's code, seat and
    message, unchanged."""
    game = services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(club=first_club(), refs=NAMES, created_by=user),
        game_type="complots",
        first_player=0,
        variant="inquisitor",
    )
    client = APIClient()
    client.force_authenticate(user)
    turn = COMPLOTS_CASES[0][0]
    response = client.post(f"/api/games/{game.pk}/turns/", turn, format="json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "claimed_card_lost" and body["seat"] == 0
    assert body["message"] == complots_refusal(turn).message
    assert "seat 0" in body["message"]
