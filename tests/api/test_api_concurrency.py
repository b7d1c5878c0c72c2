"""Two clients appending the same round at once, through real concurrent HTTP requests to a
live server: exactly one round is stored, the other client gets 409 round_conflict.

On SQLite the writers queue on the database lock (transaction_mode IMMEDIATE with a timeout);
on PostgreSQL on the game row (select_for_update). Either way: no 500, no "database is locked".
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
import requests

from games.records.models import Game, Round

RACES = 5
CARDS = [f"{c}{v}" for c in "APEU" for v in range(1, 14)]


def next_round_candidates(game: Game) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two different rounds, each legal as the game's next one (no deal is recorded, so any
    unused cards will do, played in turn from the starter; nobody passes)."""
    game.refresh_from_db()
    rounds = [r.data for r in Round.objects.filter(game=game).order_by("number")]
    used = {r["trump"] for r in rounds} | {
        p["card"] for r in rounds for p in r["plays"] if "card" in p
    }
    unused = [c for c in CARDS if c not in used]
    starter = game.result["rounds"][-1]["winner"] if rounds else game.first_player
    seats = [(starter + k) % game.player_count for k in range(game.player_count)]
    need = 1 + len(seats)

    def build(cards: list[str]) -> dict[str, Any]:
        return {
            "trump": cards[0],
            "plays": [{"seat": s, "card": c} for s, c in zip(seats, cards[1:], strict=True)],
        }

    return build(unused[:need]), build(unused[-need:])


def race(url: str, token: str, bodies: list[dict[str, Any]]) -> list[requests.Response]:
    """POST every body at once, one thread and one connection each."""
    barrier = threading.Barrier(len(bodies))
    responses: list[requests.Response | BaseException | None] = [None] * len(bodies)

    def post(i: int) -> None:
        with requests.Session() as session:
            session.headers["Authorization"] = f"Token {token}"
            try:
                barrier.wait(timeout=10)
                responses[i] = session.post(url, json=bodies[i], timeout=60)
            except BaseException as exc:  # reported by the main thread
                responses[i] = exc

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(bodies))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=90)
    for r in responses:
        if not isinstance(r, requests.Response):
            raise AssertionError(f"a request did not complete: {r!r}")
    return responses  # type: ignore[return-value]


@pytest.mark.django_db(transaction=True)
def test_two_clients_race_for_each_round(live_server, user, token, make_game) -> None:
    game = make_game(players=["Ada", "Bea", "Cy"], first_player=1)
    url = f"{live_server.url}/api/games/{game.pk}/rounds/"
    for number in range(1, RACES + 1):
        first, second = next_round_candidates(game)
        responses = race(url, token, [{"number": number, **first}, {"number": number, **second}])
        statuses = sorted(r.status_code for r in responses)
        bodies = [r.text for r in responses]
        assert statuses == [201, 409], bodies
        assert all("database is locked" not in b for b in bodies)
        won = next(r for r in responses if r.status_code == 201).json()
        lost = next(r for r in responses if r.status_code == 409).json()
        assert lost["code"] == "round_conflict" and lost["round"] == number
        assert won["round"]["number"] == number
        stored = Round.objects.get(game=game, number=number).data
        assert stored in (first, second)
        assert stored == {"trump": won["round"]["trump"], "plays": won["round"]["plays"]}
        assert Round.objects.filter(game=game).count() == number
    game.refresh_from_db()
    assert game.result["rounds_played"] == RACES
    assert list(Round.objects.filter(game=game).values_list("number", flat=True)) == list(
        range(1, RACES + 1)
    )


@pytest.mark.django_db(transaction=True)
def test_many_clients_append_without_numbers(live_server, user, token, make_game) -> None:
    """Without ``number`` each append takes the next round: three clients at once make three
    rounds 1, 2, 3, or get a refusal from the engine, never a 500 or a lost round."""
    game = make_game(players=["Ada", "Bea", "Cy"], first_player=0)
    url = f"{live_server.url}/api/games/{game.pk}/rounds/"
    # Three rounds that are legal in any order: seat 0 leads and wins each (highest trump),
    # with trump cards and plays that never repeat a card.
    bodies = [
        {
            "trump": f"A{k}",
            "plays": [
                {"seat": 0, "card": f"A{k + 3}"},
                {"seat": 1, "card": f"P{k}"},
                {"seat": 2, "card": f"E{k}"},
            ],
        }
        for k in (4, 5, 6)
    ]
    responses = race(url, token, bodies)
    assert [r.status_code for r in responses] == [201, 201, 201], [r.text for r in responses]
    numbers = sorted(r.json()["round"]["number"] for r in responses)
    assert numbers == [1, 2, 3]
    stored = {
        (r.data["trump"], r.data["plays"][0]["card"]) for r in Round.objects.filter(game=game)
    }
    assert stored == {("A4", "A7"), ("A5", "A8"), ("A6", "A9")}


@pytest.mark.django_db(transaction=True)
def test_two_clients_race_for_each_turn(live_server, user, token, make_complots) -> None:
    """The same for Complots turns: one client takes income, the other foreign aid, as the same
    turn; exactly one is stored, the other gets 409 round_conflict."""
    game = make_complots(players=["Ada", "Bea", "Cy"], first_player=1, variant="ambassador")
    url = f"{live_server.url}/api/games/{game.pk}/turns/"
    for number in range(1, RACES + 1):
        # Nobody loses an influence: the seats play in turn clockwise from seat 1, and nobody
        # reaches the 10 coins that force a coup (at most 2 + 2 * 2 = 6 after 5 turns).
        actor = (1 + number - 1) % 3
        first = {"actor": actor, "action": "income"}
        second = {"actor": actor, "action": "foreign_aid"}
        responses = race(url, token, [{"number": number, **first}, {"number": number, **second}])
        statuses = sorted(r.status_code for r in responses)
        bodies = [r.text for r in responses]
        assert statuses == [201, 409], bodies
        assert all("database is locked" not in b for b in bodies)
        won = next(r for r in responses if r.status_code == 201).json()
        lost = next(r for r in responses if r.status_code == 409).json()
        assert lost["code"] == "round_conflict" and lost["round"] == number
        assert won["turn"]["number"] == number
        stored = Round.objects.get(game=game, number=number).data
        assert stored in (first, second)
        assert {"number": number, **stored} == won["turn"]
        assert Round.objects.filter(game=game).count() == number
    game.refresh_from_db()
    assert game.result["turns_played"] == RACES
