"""Property-based tests of the whole API from its own OpenAPI schema (schemathesis).

The schema is generated in-process (drf-spectacular), and the generated requests go to the
project's WSGI application, signed in with the token of a user who owns the stored games. Every
response must be no server error, have a documented status code and content type, and a body
that matches the schema.

Each operation is one test, on a database of its own (``db``: one transaction, rolled back
after the test), filled with players, Pot de Vin games in progress, finished and scorepad, and
Complots games in progress and finished, whose ids start at 1, so that the small ids
schemathesis likes to try name real records.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.core.management.color import no_style
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.records import services
from games.records.models import Edition, Game, Player, Round, Seat
from potdevin_site.wsgi import application
from scoring.engine.complots.simulate import simulate as simulate_complots
from scoring.engine.potdevin.simulate import simulate
from tests.accounts import first_club

# The schema's conformance does not depend on the database: CI checks it once (SQLite). What
# each database refuses of hostile input is tested on both (test_api_hostile, _bad_input).
pytestmark = [pytest.mark.slow, pytest.mark.one_database]

MAX_EXAMPLES = 25

CONFIG = schemathesis.Config.from_dict(
    {
        "generation": {
            "max-examples": MAX_EXAMPLES,
            # The token is sent by the test; random Authorization headers only make 401s.
            "with-security-parameters": False,
        },
        # Boundary cases of every schema, then random ones; no stateful phase here.
        "phases": {"stateful": {"enabled": False}},
        # Random ids are almost never those of a stored record: most requests name one.
        "dictionaries": {
            "ids": {"values": [1, 2, 3, 4, 5, 6, 7, 8]},
            "round_numbers": {"values": [1, 2, 3, 4, 5]},
            "game_types": {"values": ["pot-de-vin", "complots", "bruges"]},
            "deck_keys": {"values": ["standard"]},
        },
        "parameters": {
            "path.id": {"dictionary": "ids", "probability": 0.8},
            "path.number": {"dictionary": "round_numbers", "probability": 0.8},
            "path.key": {"dictionary": "deck_keys", "probability": 0.5},
            "query.player": {"dictionary": "ids", "probability": 0.5},
            "path.game_type": {"dictionary": "game_types", "probability": 0.8},
        },
    }
)
SCHEMA = schemathesis.openapi.from_dict(
    SchemaGenerator().get_schema(request=None, public=True), config=CONFIG
)
SCHEMA.app = application

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def _restart_ids(*models: type) -> None:
    """Let the next row of each (empty) table get id 1, or the id after the highest."""
    if connection.vendor == "sqlite":
        tables = [m._meta.db_table for m in models]
        with connection.cursor() as cursor:
            cursor.execute(
                f"DELETE FROM sqlite_sequence WHERE name IN ({', '.join('%s' for _ in tables)})",
                tables,
            )
        return
    statements = connection.ops.sequence_reset_sql(no_style(), list(models))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


@pytest.fixture
def wsgi_in_test_transaction() -> Iterator[None]:
    """The test's requests run in the test's transaction, as with Django's test client: the
    handler must not close the connection at the start and end of each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def api_records(db: None, user: Any, other_user: Any, standard_deck: Edition, throttle_rates):
    """Players 1..7, Pot de Vin games 1..6 (in progress with rounds, finished, scorepad, another
    user's), Complots games 7 (in progress) and 8 (finished), and the owner's token header."""
    # Thousands of requests in a few seconds: no throttle may answer 429 instead of the API.
    scopes = django_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    throttle_rates(**dict.fromkeys(scopes, "1000000/min"))
    _restart_ids(Player, Game, Seat, Round)
    names = ["Ada", "Bea", "Cy", "Dev", "Eli", "Flo", "Gus"]
    players = [services.player_create(club=first_club(), name=n, created_by=user) for n in names]

    def partial(log: dict[str, Any], rounds: int) -> dict[str, Any]:
        return {**log, "rounds": log["rounds"][:rounds]}

    def import_one(owner: Any, log: dict[str, Any]) -> Game:
        return services.game_import(club=first_club(), owner=owner, documents=[log])[0]

    import_one(user, partial(simulate(3, seed=51, names=names[:3]), 4))  # 1: 4 rounds played
    import_one(user, simulate(4, seed=52, teams=True, names=names[:4]))  # 2: finished, teams
    services.game_create(
        club=first_club(),  # 3: no round yet
        owner=user,
        players=players[2:7],
        game_type="pot-de-vin",
        edition=standard_deck,
        first_player=0,
    )
    zeros = dict.fromkeys(
        ("nobles", "artists", "traders", "workmen", "knights", "assassins", "jokers"), 0
    )
    services.scorepad_game_create(
        club=first_club(),  # 4: scorepad
        owner=user,
        players=players[:3],
        game_type="pot-de-vin",
        edition=standard_deck,
        sheet=[
            {**zeros, "bonus": 0, "malus": 0, "pot_de_vin": 0, "gems": g, "cards": 0}
            for g in (1, 2, 0)
        ],
    )
    import_one(other_user, partial(simulate(3, seed=54, names=names[:3]), 2))  # 5: not ours
    complete = import_one(user, simulate(6, seed=55, names=names[:6]))
    services.game_reopen(game=complete)  # 6: every round played, not finished
    plot = simulate_complots(4, seed=57, variant="inquisitor")
    import_one(user, {**plot, "turns": plot["turns"][:5]})  # 7: Complots, 5 turns played
    import_one(user, simulate_complots(3, seed=58, variant="ambassador"))  # 8: Complots, won
    ids = list(Game.objects.order_by("pk").values_list("pk", flat=True))
    assert ids == [1, 2, 3, 4, 5, 6, 7, 8]
    assert players[0].pk == 1
    return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}


@SCHEMA.parametrize()
@settings(
    deadline=None,
    max_examples=MAX_EXAMPLES,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)
def test_api_conforms_to_its_schema(
    case: schemathesis.Case, api_records: dict[str, str], wsgi_in_test_transaction: None
) -> None:
    case.call_and_validate(headers=api_records, checks=CHECKS)
