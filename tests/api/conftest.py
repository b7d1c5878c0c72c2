"""Fixtures of the API tests: users with tokens, API clients signed in as them, and a small
factory of games (made through the services, so every stored game is one the engine accepts)."""

from __future__ import annotations

import copy
import datetime
from collections.abc import Callable, Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games import services
from games.models import Deck, Game, Player, Round, Seat

# Rules D1, written out again here: values 4..9 carry one symbol of guild
# (value - 4 + character) mod 6, values 10..12 two symbols of guild ((value - 10) * 4 + character)
# mod 6; characters A, P, E, U are 0..3.
GUILDS = ("nobles", "artists", "traders", "workmen", "knights", "assassins")


def standard_cards() -> dict[str, list[str]]:
    cards: dict[str, list[str]] = {}
    for ci, ch in enumerate("APEU"):
        for value in range(4, 10):
            cards[f"{ch}{value}"] = [GUILDS[(value - 4 + ci) % 6]]
        for value in range(10, 13):
            cards[f"{ch}{value}"] = [GUILDS[((value - 10) * 4 + ci) % 6]] * 2
    return cards


# A 3-player game without the deal, seat 1 starting (the README's example), worked by hand:
# round 1: E5 revealed (Enzo trump), seat 1 leads A7, seat 2 pays a gem, seat 0 plays A9. No
# Enzo card is played, so the highest Aldo card wins: A9, seat 0, who takes A7, A9, the trump E5
# and the gem. Seat 0's tableau: A7 workmen, A9 assassins, E5 workmen (D1) -> workmen 2 symbols
# = 3 points, assassins 1 = 1 point, 1 gem won = 1 point: 5 points. Seats 1 and 2 have nothing:
# 0 points, and the same cards and gems, so they share rank 2 (D7).
ROUND_1 = {
    "trump": "E5",
    "plays": [{"seat": 1, "card": "A7"}, {"seat": 2, "pass": True}, {"seat": 0, "card": "A9"}],
}
# Round 2: seat 0 (the winner) starts. Trump U4 (Ugo); seat 0 leads P5, seat 1 plays P8,
# seat 2 plays U6 (a trump) and wins: seat 2 takes P5, P8, U6 and U4.
ROUND_2 = {
    "trump": "U4",
    "plays": [{"seat": 0, "card": "P5"}, {"seat": 1, "card": "P8"}, {"seat": 2, "card": "U6"}],
}
# Round 3: seat 2 starts. Trump E6; seat 2 leads U9, seat 0 plays U5, seat 1 pays a gem. No
# Enzo card: U9 wins (seat 2), who takes U9, U5, E6 and the gem.
# After round 3 (D1): seat 2 holds P5 traders, P8 assassins, U6 assassins, U4 workmen,
# U9 traders, U5 knights, E6 knights: traders 2 (3) + assassins 2 (3) + workmen 1 (1) +
# knights 2 (3) + 1 gem = 11 points; seat 0 still 5, seat 1 0. Ranks 2, 3, 1.
ROUND_3 = {
    "trump": "E6",
    "plays": [{"seat": 2, "card": "U9"}, {"seat": 0, "card": "U5"}, {"seat": 1, "pass": True}],
}


@pytest.fixture
def hand() -> SimpleNamespace:
    """The hand-worked game above: ``hand.rounds``, the score of seat 0 after round 1, and the
    scores and ranks per seat after the three rounds."""
    return SimpleNamespace(
        rounds=[copy.deepcopy(r) for r in (ROUND_1, ROUND_2, ROUND_3)],
        seat0_after_1=5,
        scores_after_3=[5, 0, 11],
        ranks_after_3=[2, 3, 1],
        winners=[0, 2, 2],
    )


@pytest.fixture(autouse=True)
def _fresh_throttle_cache() -> Iterator[None]:
    """Throttle counts live in the cache: every test starts and ends with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def throttle_rates(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Set throttle rates for one test, e.g. ``throttle_rates(signin="3/min")``.

    DRF copies DEFAULT_THROTTLE_RATES onto SimpleRateThrottle when it is imported, so changing
    the setting alone changes nothing: the class attribute is patched as well."""

    def set_rates(**rates: str) -> None:
        framework = dict(settings.REST_FRAMEWORK)
        framework["DEFAULT_THROTTLE_RATES"] = {**framework["DEFAULT_THROTTLE_RATES"], **rates}
        settings.REST_FRAMEWORK = framework
        monkeypatch.setattr(
            SimpleRateThrottle, "THROTTLE_RATES", framework["DEFAULT_THROTTLE_RATES"]
        )

    return set_rates


@pytest.fixture
def standard_deck(db: None) -> Deck:
    """The `standard` deck. A migration stores it; a flush after a transactional test removes
    it, so it is made again (with the D1 layout) when missing."""
    deck, _ = Deck.objects.get_or_create(
        key="standard", defaults={"cards": standard_cards(), "description": "rules D1"}
    )
    return deck


def _client_for(user: Any) -> APIClient:
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def token(user: Any) -> str:
    return Token.objects.get_or_create(user=user)[0].key


@pytest.fixture
def api(user: Any) -> APIClient:
    """Signed in (token) as ``user``, who owns the games of ``make_game``."""
    return _client_for(user)


@pytest.fixture
def other_api(other_user: Any) -> APIClient:
    return _client_for(other_user)


@pytest.fixture
def staff_api(staff_user: Any) -> APIClient:
    return _client_for(staff_user)


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient()


GameFactory = Callable[..., Game]


@pytest.fixture
def make_game(user: Any, standard_deck: Deck) -> GameFactory:
    """``make_game(players=("Ada", "Bea", "Cy"), first_player=1, rounds=(), owner=user, ...)``:
    a round-by-round game made through the services, with ``rounds`` appended in order."""

    def factory(
        *,
        players: Sequence[str | int] = ("Ada", "Bea", "Cy"),
        first_player: int = 1,
        rounds: Sequence[dict[str, Any]] = (),
        owner: Any = None,
        played_on: datetime.date | None = None,
        location: str = "",
        notes: str = "",
        teams: list[list[int]] | None = None,
        hands: dict[str, list[str]] | None = None,
        trump_pile: list[str] | None = None,
    ) -> Game:
        owner = owner or user
        game = services.game_create(
            owner=owner,
            players=services.players_resolve(list(players), created_by=owner),
            deck=standard_deck,
            first_player=first_player,
            teams=teams,
            hands=hands,
            trump_pile=trump_pile,
            played_on=played_on,
            location=location,
            notes=notes,
        )
        for data in rounds:
            game, _ = services.round_append(game=game, round_data=data)
        game.refresh_from_db()
        return game

    return factory


def db_snapshot() -> dict[str, Any]:
    """Row counts of the records, and every game's stored result and rounds, to compare a
    database before and after a refused request."""
    return {
        "games": Game.objects.count(),
        "rounds": Round.objects.count(),
        "players": Player.objects.count(),
        "seats": Seat.objects.count(),
        "decks": Deck.objects.count(),
        "results": {g.pk: (g.status, g.result) for g in Game.objects.all()},
        "round_rows": sorted(Round.objects.values_list("game_id", "number", "trump", "plays")),
        "seat_rows": sorted(Seat.objects.values_list("game_id", "seat", "player_id", "score")),
    }


@pytest.fixture
def snapshot() -> Callable[[], dict[str, Any]]:
    return db_snapshot
