"""Fixtures of the API tests: users with tokens, API clients signed in as them, small factories
of Pot de Vin and Complots games (made through the services, so every stored game is one the
engine accepts), and a game of each worked by hand from the rules."""

from __future__ import annotations

import copy
import datetime
import json
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from games.records import services
from games.records.models import Edition, Game, Player, Round, Seat
from scoring.engine.potdevin.cards import GUILDS
from tests.accounts import client_for, first_club

POT_DE_VIN = "pot-de-vin"
COMPLOTS = "complots"

# Rules D1, written out again here: values 4..9 carry one symbol of guild
# (value - 4 + character) mod 6, values 10..12 two symbols of guild ((value - 10) * 4 + character)
# mod 6; characters A, P, E, U are 0..3.


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
def standard_deck(db: None) -> Edition:
    """The `standard` deck (Pot de Vin's edition). A migration stores it; a flush after a
    transactional test removes it, so it is made again (with the D1 layout) when missing."""
    deck, _ = Edition.objects.get_or_create(
        game_type=POT_DE_VIN,
        key="standard",
        defaults={"data": standard_cards(), "description": "rules D1"},
    )
    return deck


@pytest.fixture
def token(user: Any) -> str:
    return Token.objects.get_or_create(user=user)[0].key


@pytest.fixture
def api(user: Any) -> APIClient:
    """Signed in (token) as ``user``, who owns the games of ``make_game``."""
    return client_for(user)


@pytest.fixture
def other_api(other_user: Any) -> APIClient:
    return client_for(other_user)


@pytest.fixture
def staff_api(staff_user: Any) -> APIClient:
    return client_for(staff_user)


@pytest.fixture
def anon_api() -> APIClient:
    return APIClient()


GameFactory = Callable[..., Game]


@pytest.fixture
def make_game(user: Any, standard_deck: Edition) -> GameFactory:
    """``make_game(players=("Ada", "Bea", "Cy"), first_player=1, rounds=(), owner=user, ...)``:
    a round-by-round Pot de Vin game made through the services, with ``rounds`` appended in
    order."""

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
            club=first_club(),
            owner=owner,
            players=services.players_resolve(
                club=first_club(), refs=list(players), created_by=owner
            ),
            game_type=POT_DE_VIN,
            edition=standard_deck,
            first_player=first_player,
            teams=teams,
            setup={"hands": hands, "trump_pile": trump_pile},
            played_on=played_on,
            location=location,
            notes=notes,
        )
        for data in rounds:
            game, _ = services.round_append(game=game, round_data=data)
        game.refresh_from_db()
        return game

    return factory


@pytest.fixture
def make_complots(user: Any) -> GameFactory:
    """``make_complots(players=("Ada", "Bea", "Cy"), first_player=0, variant="inquisitor",
    turns=(), owner=user, played_on=None)``: a Complots game made through the services, with
    ``turns`` appended in order."""

    def factory(
        *,
        players: Sequence[str | int] = ("Ada", "Bea", "Cy"),
        first_player: int = 0,
        variant: str = "inquisitor",
        turns: Sequence[dict[str, Any]] = (),
        owner: Any = None,
        played_on: datetime.date | None = None,
    ) -> Game:
        owner = owner or user
        game = services.game_create(
            club=first_club(),
            owner=owner,
            players=services.players_resolve(
                club=first_club(), refs=list(players), created_by=owner
            ),
            game_type=COMPLOTS,
            variant=variant,
            setup={"variant": variant},
            first_player=first_player,
            played_on=played_on,
        )
        for data in turns:
            game, _ = services.round_append(game=game, round_data=data)
        game.refresh_from_db()
        return game

    return factory


# A 3-player Complots game with the inquisitor, Ada (seat 0) first: the rules' own example
# (shared/rules/complots.md, "Log format"), worked by hand. Everyone starts with 2 coins; the
# Treasury holds 54 - 3 * 2 = 48 (K1).
# Turn 1: Ada takes income: Ada 3, Treasury 47.
# Turn 2: Bea's captain aims at Ada; Cy challenges and the claim is true: Cy turns up a duchess
#   (1 influence left); Bea takes min(2, 3) = 2 of Ada's coins: Ada 1, Bea 4.
# Turn 3: Cy's foreign aid; Ada blocks as a duchess, Cy challenges the block and Ada was
#   bluffing: she turns up her captain (not the duchess she claimed); the block fails and Cy
#   takes 2: Cy 4, Treasury 45.
# Turn 4: Ada claims the duchess, unchallenged: Ada 4, Treasury 42.
# Turn 5: Bea pays 3 to assassinate Cy (Bea 1, Treasury 45); Cy blocks as the countess, which
#   stands: nobody loses anything, the coins stay spent (K5).
# Turn 6: Cy's inquisitor looks at one of Ada's cards and makes her swap it: no coin moves.
# After turn 6: Ada 1 influence and 4 coins, Bea 2 influences and 1 coin, Cy 1 influence and 4
# coins (9 coins at the table + 45 in the Treasury = 54). Bea ranks first on influences; Ada and
# Cy share the second place (as many influences, as many coins: 1, 1, 3 ranking, K4): ranks
# [2, 1, 2]. Nobody is eliminated: no winner yet. Turn 7 is Ada's (seat 0).
# K4 counts: Ada gained 1 + 3 = 4 coins, lost 2 to a captain, made 1 claim (the duchess; a block
# is no claim), was caught bluffing once (her block), made 1 block that did not stand. Bea
# gained 2, made 2 claims (captain, assassin). Cy gained 2, made 1 claim (inquire), 2
# challenges of which 1 won, 1 block that stood.
COMPLOTS_TURNS = [
    {"actor": 0, "action": "income"},
    {
        "actor": 1,
        "action": "captain",
        "target": 0,
        "challenge": {"by": 2, "truthful": True},
        "losses": [{"seat": 2, "card": "duchess"}],
    },
    {
        "actor": 2,
        "action": "foreign_aid",
        "block": {"by": 0, "as": "duchess", "challenge": {"by": 2, "truthful": False}},
        "losses": [{"seat": 0, "card": "captain"}],
    },
    {"actor": 0, "action": "duchess"},
    {"actor": 1, "action": "assassin", "target": 2, "block": {"by": 2, "as": "countess"}},
    {"actor": 2, "action": "inquire", "target": 0, "forced_swap": True},
]

# A 2-player Complots game (base game), Ada first, won in two turns. Ada starts with 1 coin and
# Bea with 2 (2 players: the first player has 1), the Treasury 54 - 3 = 51.
# Turn 1: Ada claims the duchess; Bea challenges, the claim is true: Bea turns up a captain
#   (1 influence left); Ada takes 3: Ada 4, Treasury 48.
# Turn 2: Bea claims the duchess; Ada challenges, Bea was bluffing: she turns up an assassin
#   (not the duchess) and, with no influence left, is eliminated on turn 2; her 2 coins go
#   back: Bea 0, Treasury 50 (4 + 50 = 54). Ada is the last player: first, and the winner; Bea
#   second. The elimination is credited to Ada, who won the challenge (K5).
COMPLOTS_DUEL = [
    {
        "actor": 0,
        "action": "duchess",
        "challenge": {"by": 1, "truthful": True},
        "losses": [{"seat": 1, "card": "captain"}],
    },
    {
        "actor": 1,
        "action": "duchess",
        "challenge": {"by": 0, "truthful": False},
        "losses": [{"seat": 1, "card": "assassin"}],
    },
]


@pytest.fixture
def plot() -> SimpleNamespace:
    """The hand-worked Complots games above: ``plot.turns`` (3 players, unfinished) with the
    standings after them, and ``plot.duel`` (2 players, won by seat 0 on turn 2)."""
    return SimpleNamespace(
        turns=copy.deepcopy(COMPLOTS_TURNS),
        influences_after_6=[1, 2, 1],
        coins_after_6=[4, 1, 4],
        ranks_after_6=[2, 1, 2],
        face_up_after_6=[["captain"], [], ["duchess"]],
        treasury_after_6=45,
        counts_after_6={
            "coins_gained": [4, 2, 2],
            "coins_lost_to_captains": [2, 0, 0],
            "claims_made": [1, 2, 1],
            "bluffs_caught": [1, 0, 0],
            "challenges_made": [0, 0, 2],
            "challenges_won": [0, 0, 1],
            "blocks_made": [1, 0, 1],
            "blocks_standing": [0, 0, 1],
            "influences_taken": [0, 0, 0],
            "players_eliminated": [0, 0, 0],
        },
        duel=copy.deepcopy(COMPLOTS_DUEL),
    )


def db_snapshot() -> dict[str, Any]:
    """Row counts of the records, and every game's stored result and entries, to compare a
    database before and after a refused request."""
    return {
        "games": Game.objects.count(),
        "rounds": Round.objects.count(),
        "players": Player.objects.count(),
        "seats": Seat.objects.count(),
        "editions": Edition.objects.count(),
        "results": {g.pk: (g.status, g.result) for g in Game.objects.all()},
        "round_rows": sorted(
            (game, number, json.dumps(data, sort_keys=True))
            for game, number, data in Round.objects.values_list("game_id", "number", "data")
        ),
        "seat_rows": sorted(Seat.objects.values_list("game_id", "seat", "player_id", "score")),
    }


@pytest.fixture
def snapshot() -> Callable[[], dict[str, Any]]:
    return db_snapshot
