"""Hostile input through the API, as a plain signed-in user unless a test says otherwise:
integers past 64 bits, lone surrogates, NUL and control characters, look-alike and over-long
player names, keys no log format defines, null list items, notes and locations past their
limits, malformed credentials, and games or imports past the most entries stored. Each refusal
is a 4xx JSON error with its stable code (and the path of what was refused where the gate of
stored JSON names one), and leaves every stored row as it was; what is accepted is stored
without the keys its format does not define.

Bodies are sent as JSON text with every non-ASCII character escaped (``json.dumps``' default),
the only way a lone surrogate reaches the server: as the escape ``\\ud800``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from games.records import services
from games.records.models import Club, Edition, Game, Membership, Player, Round
from scoring import jobs
from scoring.engine import get_engine
from scoring.jobs import tasks
from scoring.models import Job, JobInput
from tests.engine.bruges.logs import WORKED_EXAMPLE_ROUND

pytestmark = pytest.mark.django_db

BIG = 2**64  # outside the signed 64-bit range
PAST_INT64 = [2**64, 2**63, -(2**63) - 1]
SURROGATE = "\ud800"  # half of a UTF-16 pair: no character at all
IMPORT_ROUTES = ["/api/games/import/", "/api/imports/"]
LOOK_ALIKES = ["Ada\u200b", "\u202eAda", "\ufeffAda", "\uff21\uff44\uff41"]  # the last: Ａｄａ
LONG_LIGATURE = "\ufdfa" * 14  # 14 characters as sent; 14 x 18 = 252 once NFKC-normalised
MAX_ENTRIES = 1000  # entries one game may have
MAX_LOCATION = 120
MAX_NOTES = 5000


# --- helpers ----------------------------------------------------------------------------------


def send(client, method: str, url: str, body: Any, **extra: Any):
    """``body`` as JSON text, non-ASCII escaped, so lone surrogates travel as ``\\ud800``."""
    return client.generic(method, url, json.dumps(body), content_type="application/json", **extra)


def assert_error(response, status: int, code: str | None = None, **where: Any) -> dict:
    """A JSON error with ``status``, a code (``code`` if given), a message, ``round`` and
    ``seat``; ``where`` checks other keys of the body (``path``, ``index``, ...)."""
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert isinstance(body["code"], str) and body["code"], body
    if code is not None:
        assert body["code"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    assert "round" in body and "seat" in body, body
    for key, value in where.items():
        assert body.get(key) == value, body
    return body


def assert_refused_credentials(response) -> dict:
    """Not signed in: 401 or 403, a JSON body with a code, never a 500."""
    assert response.status_code in (401, 403), response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["code"], str) and body["code"], body
    return body


def outcome(response) -> tuple[int, str | None]:
    """(status, code) of a response; the code is None when the body is no JSON error."""
    if not response["Content-Type"].startswith("application/json"):
        return response.status_code, None
    body = response.json()
    return response.status_code, body.get("code") if isinstance(body, dict) else None


def keys_in(value: Any) -> set[str]:
    """Every object key anywhere in ``value``."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def simulate(game_type: str, players: int, seed: int, **kwargs: Any) -> dict[str, Any]:
    return get_engine(game_type).info.simulate(players=players, seed=seed, **kwargs)


def exchanges(turns: int) -> dict[str, Any]:
    """A 2-player Complots log of ``turns`` exchanges, Ada and Bea in turn: an exchange costs
    and gives no coin and turns no card up, so any number of them is a valid game."""
    return {
        "format": "complots-log/1",
        "players": ["Ada", "Bea"],
        "first_player": 0,
        "variant": "ambassador",
        "turns": [{"actor": i % 2, "action": "exchange"} for i in range(turns)],
    }


def first_step_with(log: dict[str, Any], key: str) -> tuple[int, int, int]:
    """(round, turn, step) indexes of the first step of a Bruges log holding ``key``."""
    for r, rnd in enumerate(log["rounds"]):
        for t, turn in enumerate(rnd["turns"]):
            for s, step in enumerate(turn.get("steps") or ()):
                if key in step:
                    return r, t, s
    raise AssertionError(f"no step with {key!r} in the simulated log")


def new_bruges(client, players=("Ada", "Bea")) -> int:
    body = {"game_type": "bruges", "players": list(players), "first_player": 0}
    response = send(client, "POST", "/api/games/", body)
    assert response.status_code == 201, response.content
    return int(response.json()["id"])


def imported(client, document: Any, url: str = "/api/games/import/") -> list[dict[str, Any]]:
    response = send(client, "POST", url, document)
    assert response.status_code == 201, response.content
    return list(response.json()["games"])


def seat_players(client, game_id: int) -> list[int]:
    detail = client.get(f"/api/games/{game_id}/").json()
    return [s["player"]["id"] for s in detail["seats"]]


def assert_reads_still_answer(client, game_ids: list[int]) -> None:
    """What was refused left nothing behind that breaks a read."""
    for url in ("/api/games/", "/api/players/", "/api/editions/", "/api/imports/"):
        response = client.get(url)
        assert response.status_code == 200, (url, response.content)
    for game_id in game_ids:
        for url in (f"/api/games/{game_id}/", f"/api/games/{game_id}/rounds/"):
            response = client.get(url)
            assert response.status_code == 200, (url, response.content)


# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def stored(snapshot) -> Callable[[], dict[str, Any]]:
    """The conftest's snapshot, with jobs and their documents, editions' data, players' names
    and games' locations and notes."""

    def state() -> dict[str, Any]:
        return {
            **snapshot(),
            "jobs": Job.objects.count(),
            "job_inputs": JobInput.objects.count(),
            "edition_rows": sorted(
                (e.game_type, e.key, json.dumps(e.data, sort_keys=True))
                for e in Edition.objects.all()
            ),
            "player_rows": sorted(Player.objects.values_list("id", "name")),
            "game_rows": sorted(
                Game.objects.values_list("id", "location", "notes", "played_on", "finish")
            ),
        }

    return state


@pytest.fixture
def world(api, make_game, make_complots, hand, plot) -> SimpleNamespace:
    """One game of each kind: Pot de Vin after round 1, Complots after the 6 turns of the
    conftest, Bruges after the rules' example round, and a Bruges game with no round."""
    services.editions_ensure_builtin()
    pot = make_game(rounds=hand.rounds[:1])
    plot_game = make_complots(turns=plot.turns)
    bruges = new_bruges(api)
    response = send(api, "POST", f"/api/games/{bruges}/rounds/", WORKED_EXAMPLE_ROUND)
    assert response.status_code == 201, response.content
    return SimpleNamespace(
        pot=pot.pk, complots=plot_game.pk, bruges=bruges, bruges_empty=new_bruges(api)
    )


@pytest.fixture
def run_import_job(monkeypatch, django_capture_on_commit_callbacks) -> Callable[..., Any]:
    """``run_import_job(client, documents)``: POST /api/imports/, then its batches run here
    (not on a worker); the response, and the job as GET /api/imports/{id}/ then has it (None
    when the request was refused)."""
    sent: list[tuple[int, list[int]]] = []
    monkeypatch.setattr(tasks.import_batch, "delay", lambda job, keys: sent.append((job, keys)))

    def run(client, documents: list[Any]) -> tuple[Any, dict[str, Any] | None]:
        with django_capture_on_commit_callbacks(execute=True):
            response = send(client, "POST", "/api/imports/", documents)
        if response.status_code != 202:
            return response, None
        job_id = response.json()["id"]
        for batch_job, keys in sent:
            if batch_job == job_id:
                jobs.import_batch(job_id=job_id, keys=keys)
        return response, client.get(f"/api/imports/{job_id}/").json()

    return run


@pytest.fixture
def unchanged(world, stored) -> Iterator[None]:
    """Asserts, after the test, that the database is as it was before it."""
    before = stored()
    yield
    assert stored() == before


# --- 1, 2, 4: integers past 64 bits -------------------------------------------------------------


@pytest.mark.parametrize("url", IMPORT_ROUTES)
@pytest.mark.parametrize("as_list", [True, False])
def test_an_import_with_an_integer_past_64_bits(api, unchanged, url, as_list) -> None:
    """The import job's documents used to be stored as sent, the number with them."""
    document = {"format": "complots-log/1", "zz": BIG}
    body = assert_error(send(api, "POST", url, [document] if as_list else document), 400)
    assert body["code"] == "out_of_range", body
    assert body["path"] in ("[0].zz", "zz"), body


@pytest.mark.parametrize("value", PAST_INT64)
def test_an_edition_with_a_prestige_point_past_64_bits(api, unchanged, value) -> None:
    standard = api.get("/api/editions/bruges/standard/")
    assert standard.status_code == 200, standard.content
    data = standard.json()["data"]
    data["prestige_points"][3] = value
    body = {"game_type": "bruges", "key": "board-huge", "data": data}
    assert_error(
        send(api, "POST", "/api/editions/", body),
        400,
        "out_of_range",
        path="data.prestige_points[3]",
    )
    assert not Edition.objects.filter(key="board-huge").exists()


@pytest.mark.parametrize("value", PAST_INT64)
def test_a_bruges_gain_past_64_bits(api, unchanged, world, value) -> None:
    log = simulate("bruges", 2, seed=1)
    r, t, s = first_step_with(log, "gain")
    log["rounds"][r]["turns"][t]["steps"][s]["gain"]["prestige"] = value
    path = f"rounds[{r}].turns[{t}].steps[{s}].gain.prestige"
    assert_error(send(api, "POST", "/api/games/import/", log), 400, "out_of_range", path=path)
    body = assert_error(send(api, "POST", "/api/imports/", [log]), 400, "out_of_range")
    assert body["path"] in (f"[0].{path}", path), body
    # Appended: the rules' example round, whose Alchimista's gain is turn 7, step 2.
    entry = copy.deepcopy(WORKED_EXAMPLE_ROUND)
    entry["turns"][6]["steps"][1]["gain"]["prestige"] = value
    assert_error(
        send(api, "POST", f"/api/games/{world.bruges_empty}/rounds/", entry),
        400,
        "out_of_range",
        path="turns[6].steps[1].gain.prestige",
    )
    # Corrected in place of the stored round 1.
    response = send(api, "PUT", f"/api/games/{world.bruges}/rounds/1/", entry)
    assert_error(response, 400, "out_of_range", path="turns[6].steps[1].gain.prestige")


# --- 3: keys a format does not define -----------------------------------------------------------


def _same_game(api, junk_id: int, clean_id: int, entries: str) -> None:
    """The game imported with junk keys is the one imported without them, and keeps no "zz"."""
    junk = api.get(f"/api/games/{junk_id}/").json()
    clean = api.get(f"/api/games/{clean_id}/").json()
    assert junk["result"] == clean["result"]
    assert junk["status"] == clean["status"] and junk["winners"] == clean["winners"]
    assert [(s["player"]["id"], s["score"], s["rank"]) for s in junk["seats"]] == [
        (s["player"]["id"], s["score"], s["rank"]) for s in clean["seats"]
    ]
    assert junk[entries] == clean[entries]
    log = api.get(f"/api/games/{junk_id}/log/")
    assert log.status_code == 200, log.content
    assert log.json() == api.get(f"/api/games/{clean_id}/log/").json()
    entry = api.get(f"/api/games/{junk_id}/{entries}/1/")
    assert entry.status_code == 200, entry.content
    for shown in (junk, log.json(), entry.json(), api.get(f"/api/games/{junk_id}/rounds/").json()):
        assert "zz" not in keys_in(shown)
    for data in Round.objects.filter(game_id=junk_id).values_list("data", flat=True):
        assert "zz" not in keys_in(data)
    assert "zz" not in keys_in(
        Game.objects.filter(pk=junk_id).values("setup", "finish", "teams")[0]
    )


def test_unknown_keys_of_a_complots_log_are_not_stored(api) -> None:
    clean = simulate("complots", 3, seed=5)
    junk = copy.deepcopy(clean)
    junk["zz"] = 1
    junk["turns"][0]["zz"] = 1
    challenged = next(turn for turn in junk["turns"] if turn.get("challenge"))
    challenged["challenge"]["zz"] = 1
    blocked = next(turn for turn in junk["turns"] if turn.get("block"))
    blocked["block"]["zz"] = 1
    lost = next(turn for turn in junk["turns"] if turn.get("losses"))
    lost["losses"][0]["zz"] = 1
    (made,) = imported(api, junk)
    (again,) = imported(api, clean)
    _same_game(api, made["id"], again["id"], "turns")


def test_unknown_keys_of_a_bruges_log_are_not_stored(api, world) -> None:
    clean = simulate("bruges", 2, seed=1)
    junk = copy.deepcopy(clean)
    junk["rounds"][0]["turns"][0]["steps"][0]["zz"] = 1
    junk["rounds"][0]["turns"][0]["zz"] = 1
    junk["rounds"][0]["zz"] = 1
    junk["rounds"][0]["dice"]["zz"] = 1
    junk["zz"] = 1
    junk["final"]["zz"] = 1
    r, t, s = first_step_with(junk, "person")
    junk["rounds"][r]["turns"][t]["steps"][s]["person"]["zz"] = 1
    penalised = next(rnd for rnd in junk["rounds"] if rnd.get("penalties"))
    penalised["penalties"][0]["zz"] = 1
    (made,) = imported(api, junk)
    (again,) = imported(api, clean)
    _same_game(api, made["id"], again["id"], "rounds")


def test_unknown_keys_of_a_pot_de_vin_log_are_not_stored(api, world) -> None:
    clean = simulate("pot-de-vin", 3, seed=61)
    junk = copy.deepcopy(clean)
    junk["zz"] = 1
    junk["rounds"][0]["zz"] = 1
    junk["rounds"][0]["plays"][0]["zz"] = 1
    (made,) = imported(api, junk)
    (again,) = imported(api, clean)
    _same_game(api, made["id"], again["id"], "rounds")


def test_unknown_keys_of_an_appended_entry_are_not_stored(api, world) -> None:
    """The API's own route drops them too (its form names the keys it takes)."""
    turn = {"number": 7, "actor": 0, "action": "income", "zz": 1}
    response = send(api, "POST", f"/api/games/{world.complots}/turns/", turn)
    assert response.status_code == 201, response.content
    assert "zz" not in keys_in(response.json())
    assert "zz" not in keys_in(Round.objects.get(game_id=world.complots, number=7).data)


def test_a_bruges_gain_with_an_unknown_key_is_still_refused(api, unchanged, world) -> None:
    """A gain says exactly what it gives (rules B8): a key it cannot have is the engine's
    bad_gain, not a key dropped in silence."""
    log = simulate("bruges", 2, seed=1)
    r, t, s = first_step_with(log, "gain")
    log["rounds"][r]["turns"][t]["steps"][s]["gain"]["zz"] = 1
    assert_error(send(api, "POST", "/api/games/import/", log), 400, "bad_gain", round=r + 1)
    entry = copy.deepcopy(WORKED_EXAMPLE_ROUND)
    entry["turns"][6]["steps"][1]["gain"]["zz"] = 1
    url = f"/api/games/{world.bruges_empty}/rounds/"
    assert_error(send(api, "POST", url, entry), 400, "bad_gain", round=1, seat=0)
    url = f"/api/games/{world.bruges}/rounds/1/"
    assert_error(send(api, "PUT", url, entry), 400, "bad_gain", round=1, seat=0)


# --- 5: lone surrogates -------------------------------------------------------------------------


@pytest.mark.parametrize("url", IMPORT_ROUTES)
@pytest.mark.parametrize("where", ["value", "key"])
def test_a_lone_surrogate_in_an_imported_entrys_unknown_key(api, unchanged, world, url, where):
    log = simulate("complots", 3, seed=5)
    if where == "value":
        log["turns"][0]["zz"] = f"a{SURROGATE}b"
    else:
        log["turns"][0][f"z{SURROGATE}"] = 1
    body = assert_error(send(api, "POST", url, log), 400, "invalid_text")
    assert body["path"].startswith("turns[0]."), body
    assert_reads_still_answer(api, [world.complots])


def test_a_lone_surrogate_in_a_hired_persons_name(api, unchanged, world) -> None:
    entry = copy.deepcopy(WORKED_EXAMPLE_ROUND)
    entry["turns"][6]["steps"][0]["person"]["name"] = f"Alchi{SURROGATE}mista"
    path = "turns[6].steps[0].person.name"
    url = f"/api/games/{world.bruges_empty}/rounds/"
    assert_error(send(api, "POST", url, entry), 400, "invalid_text", path=path)
    url = f"/api/games/{world.bruges}/rounds/1/"
    assert_error(send(api, "PUT", url, entry), 400, "invalid_text", path=path)
    assert_reads_still_answer(api, [world.bruges, world.bruges_empty])


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d.update(zz=SURROGATE), "data.zz"),
        (lambda d: d["canal"]["left"][0].update(color=SURROGATE), "data.canal.left[0].color"),
        (lambda d: d.update({SURROGATE: 1}), None),
    ],
    ids=["unknown-key", "canal-colour", "key-itself"],
)
def test_a_lone_surrogate_in_an_editions_data(api, unchanged, world, change, path) -> None:
    data = api.get("/api/editions/bruges/standard/").json()["data"]
    change(data)
    body = {"game_type": "bruges", "key": "board-v2", "data": data}
    response = assert_error(send(api, "POST", "/api/editions/", body), 400, "invalid_text")
    if path is None:  # the key itself: a path naming it could not be written as JSON
        assert response["path"].startswith("data"), response
    else:
        assert response["path"] == path, response
    assert_reads_still_answer(api, [world.bruges])


@pytest.mark.parametrize("name", [SURROGATE, f"Ada{SURROGATE}", "Ada\udfff"])
def test_a_lone_surrogate_in_a_player_name(api, unchanged, world, name) -> None:
    players = {"players": [name, "Bea", "Cy"]}
    assert_error(
        send(api, "POST", "/api/games/", {**players, "first_player": 0}),
        400,
        "invalid_text",
        path="players[0]",
    )
    scorepad = {**players, "tableaux": [{}, {}, {}]}
    assert_error(
        send(api, "POST", "/api/games/scorepad/", scorepad),
        400,
        "invalid_text",
        path="players[0]",
    )
    assert_error(send(api, "POST", "/api/players/", {"name": name}), 400, "invalid_text")
    url = f"/api/players/{Player.objects.get(name='Ada').pk}/"
    assert_error(send(api, "PATCH", url, {"name": name}), 400, "invalid_text")
    log = simulate("complots", 3, seed=5, names=[name, "Bea", "Cy"])
    assert_error(
        send(api, "POST", "/api/games/import/", log), 400, "invalid_text", path="players[0]"
    )
    body = assert_error(send(api, "POST", "/api/imports/", [log]), 400, "invalid_text")
    assert body["path"] in ("[0].players[0]", "players[0]"), body
    assert_reads_still_answer(api, [world.pot, world.complots])


@pytest.mark.parametrize("url", IMPORT_ROUTES)
@pytest.mark.parametrize("field", ["location", "notes"])
def test_a_lone_surrogate_in_an_imports_location_or_notes(api, unchanged, world, url, field):
    log = simulate("complots", 3, seed=5)
    log[field] = f"Club {SURROGATE} night"
    body = assert_error(send(api, "POST", url, [log]), 400, "invalid_text")
    assert body["path"] in (f"[0].{field}", field), body
    assert_reads_still_answer(api, [world.complots])


@pytest.mark.parametrize("field", ["location", "notes"])
def test_a_lone_surrogate_in_a_games_location_or_notes(api, unchanged, world, field) -> None:
    body = {"players": ["Ada", "Bea", "Cy"], "first_player": 0, field: SURROGATE}
    assert_error(send(api, "POST", "/api/games/", body), 400, "invalid_text", path=field)
    url = f"/api/games/{world.pot}/"
    assert_error(send(api, "PATCH", url, {field: SURROGATE}), 400, "invalid_text", path=field)
    assert_reads_still_answer(api, [world.pot])


@pytest.mark.parametrize(
    "body",
    [
        {"game_type": SURROGATE},
        {"game_type": "bruges", "new_edition": SURROGATE},
        {"new_deck": f"standard{SURROGATE}"},
    ],
)
def test_a_lone_surrogate_in_a_rescore(staff_api, api, unchanged, world, body) -> None:
    """Staff only, and still a 400 that starts no job."""
    assert_error(send(staff_api, "POST", "/api/rescore/", body), 400, "invalid_text")
    assert staff_api.get("/api/rescore/").status_code == 200
    assert_reads_still_answer(api, [world.pot, world.complots, world.bruges])


# --- 6: null list items -----------------------------------------------------------------------


@pytest.mark.parametrize("losses", [[None], [{"seat": 1, "card": "duchess"}, None]])
@pytest.mark.parametrize("entries", ["turns", "rounds"])
def test_a_null_loss_in_a_complots_turn(api, unchanged, world, losses, entries) -> None:
    """A null item is refused as the list's error, not handed on as a loss (the coup would be
    the engine's not_enough_coins: the error must be the one about ``losses``)."""
    url = f"/api/games/{world.complots}/{entries}/"
    turn = {"actor": 0, "action": "coup", "target": 1, "losses": losses}
    body = assert_error(send(api, "POST", url, {"number": 7, **turn}), 400)
    assert "losses" in json.dumps(body), body
    body = assert_error(send(api, "PUT", f"{url}1/", turn), 400)
    assert "losses" in json.dumps(body), body


@pytest.mark.parametrize("laurels", [[None], [{"seat": 0, "person": "p1", "points": 2}, None]])
def test_a_null_laurel_in_a_bruges_finish(api, unchanged, world, laurels) -> None:
    url = f"/api/games/{world.bruges}/finish/"
    body = assert_error(send(api, "POST", url, {"final": {"laurels": laurels}}), 400)
    assert "laurels" in json.dumps(body), body
    assert Game.objects.get(pk=world.bruges).status == Game.Status.IN_PROGRESS


# --- 7, 11: player names ----------------------------------------------------------------------


def _name_refused(api, name: str, code: str, *, index: int = 0) -> None:
    """``name`` at seat ``index`` is refused with ``code`` on every route that names players
    (one comparison shows every route's answer)."""
    players = ["Bea", "Cy", "Dev"]
    players[index] = name
    bea = Player.objects.get(name="Bea").pk
    log = simulate("complots", 3, seed=5, names=players)
    sent = {
        "POST /api/games/ pot-de-vin": {"players": players, "first_player": 0},
        "POST /api/games/ complots": {
            "game_type": "complots",
            "players": players,
            "first_player": 0,
        },
        "POST /api/games/scorepad/": {"players": players, "tableaux": [{}, {}, {}]},
        "POST /api/players/": {"name": name},
        f"PATCH /api/players/{bea}/": {"name": name},
        "POST /api/games/import/": log,
    }
    responses = {label: send(api, *label.split()[:2], body) for label, body in sent.items()}
    got = {label: outcome(response) for label, response in responses.items()}
    assert got == dict.fromkeys(got, (400, code))
    assert_error(responses["POST /api/games/import/"], 400, code, seat=index, index=0)


def test_a_name_long_once_normalised_is_too_long(api, unchanged, world) -> None:
    """14 characters as sent, 252 once NFKC-normalised: refused, not a database error (it was
    a 500 on PostgreSQL, whose name columns hold 80 characters)."""
    _name_refused(api, LONG_LIGATURE, "too_long")
    _name_refused(api, "x" * 81, "too_long", index=2)
    assert_reads_still_answer(api, [world.pot])


def test_a_name_of_80_characters_once_normalised_is_taken(api, world) -> None:
    name = "\ufdfa" * 4 + "x" * 8  # 4 x 18 + 8 = 80
    response = send(api, "POST", "/api/players/", {"name": name})
    assert response.status_code == 201, response.content
    stored_name = Player.objects.get(pk=response.json()["id"]).name
    assert len(stored_name) == 80 and stored_name.endswith("x" * 8)


@pytest.mark.parametrize("name", ["A\x07da", "\x1b[31mAda", "Ada\x7f", "Ad\x9ba"])
def test_a_name_with_a_control_character(api, unchanged, world, name) -> None:
    _name_refused(api, name, "invalid_text")


@pytest.mark.parametrize(
    ("name", "code"),
    [(LONG_LIGATURE, "too_long"), ("A\x07da", "invalid_text"), ("\u200b\u202e", "blank_name")],
)
def test_an_import_job_with_a_bad_name_stores_no_game(
    api, world, stored, run_import_job, name, code
) -> None:
    """Refused at once (no job), or a failure of its document in the job: no game, no player
    either way."""
    before = stored()
    log = simulate("complots", 3, seed=5, names=["Bea", name, "Cy"])
    response, job = run_import_job(api, [log])
    if job is None:
        assert_error(response, 400, code, index=0)
        assert stored() == before
        return
    ((failure),) = job["failures"]
    assert (failure["key"], failure["code"], failure["game"]) == (0, code, None), job
    assert job["games"] == [] and job["status"] == "done", job
    after = stored()
    assert (after["games"], after["players"]) == (before["games"], before["players"])


@pytest.mark.parametrize("name", ["\u200b", "\u200b\u200d\ufeff", "\u202e", " \u2060 "])
def test_a_name_of_invisible_characters_only(api, unchanged, world, name) -> None:
    _name_refused(api, name, "blank_name")


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_name_is_the_same_player(api, world, run_import_job, name) -> None:
    """Invisible, bidi and compatibility characters make no second Ada, on any route."""
    ada = Player.objects.get(name="Ada")
    players_before = Player.objects.count()
    response = send(api, "POST", "/api/games/", {"players": [name, "Bea", "Cy"], "first_player": 0})
    assert response.status_code == 201, response.content
    assert seat_players(api, response.json()["id"])[0] == ada.pk
    body = {"game_type": "complots", "players": ["Bea", name], "first_player": 0}
    response = send(api, "POST", "/api/games/", body)
    assert response.status_code == 201, response.content
    assert seat_players(api, response.json()["id"])[1] == ada.pk
    (made,) = imported(api, simulate("complots", 3, seed=5, names=["Bea", "Cy", name]))
    assert seat_players(api, made["id"])[2] == ada.pk
    response, job = run_import_job(api, [simulate("bruges", 2, seed=1, names=[name, "Bea"])])
    assert response.status_code == 202, response.content
    assert job["failures"] == [] and len(job["games"]) == 1, job
    assert seat_players(api, job["games"][0])[0] == ada.pk
    assert_error(send(api, "POST", "/api/players/", {"name": name}), 409, "player_exists")
    assert Player.objects.count() == players_before
    assert Player.objects.get(pk=ada.pk).name == "Ada"
    assert api.get("/api/players/", {"name": "Ada"}).json()["results"][0]["id"] == ada.pk


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_of_a_seated_name_is_one_player_twice(api, unchanged, world, name) -> None:
    players = ["Ada", name, "Cy"]
    assert_error(
        send(api, "POST", "/api/games/", {"players": players, "first_player": 0}),
        400,
        "player_twice",
        seat=1,
    )
    scorepad = {"players": players, "tableaux": [{}, {}, {}]}
    assert_error(send(api, "POST", "/api/games/scorepad/", scorepad), 400, "player_twice")
    log = simulate("complots", 3, seed=5, names=players)
    assert_error(send(api, "POST", "/api/games/import/", log), 400, "player_twice", index=0)


def test_a_look_alike_name_cannot_be_a_rename_to_another_player(api, unchanged, world) -> None:
    bea = Player.objects.get(name="Bea")
    url = f"/api/players/{bea.pk}/"
    for name in LOOK_ALIKES:
        assert_error(send(api, "PATCH", url, {"name": name}), 409, "player_exists")


# --- 12: renaming a player other users recorded -------------------------------------------------


def test_renaming_a_player_in_another_users_game(
    api, other_api, other_user, staff_api, stored
) -> None:
    Membership.objects.filter(user=other_user).update(role=Membership.Role.RECORDER)
    response = send(api, "POST", "/api/players/", {"name": "Zed"})
    assert response.status_code == 201, response.content
    zed = response.json()["id"]
    body = {"game_type": "complots", "players": ["Zed", "Bea"], "first_player": 0}
    assert send(api, "POST", "/api/games/", body).status_code == 201
    body = {"game_type": "complots", "players": ["Zed", "Bob"], "first_player": 1}
    response = send(other_api, "POST", "/api/games/", body)
    assert response.status_code == 201, response.content
    assert seat_players(other_api, response.json()["id"])[0] == zed

    before = stored()
    assert_error(
        send(api, "PATCH", f"/api/players/{zed}/", {"name": "Zedd"}),
        403,
        "player_in_others_games",
    )
    # Nor through a look-alike of the new name, nor by the other user, who did not create Zed.
    assert_error(
        send(api, "PATCH", f"/api/players/{zed}/", {"name": "Zedd\u200b"}),
        403,
        "player_in_others_games",
    )
    assert_error(send(other_api, "PATCH", f"/api/players/{zed}/", {"name": "Zedd"}), 403)
    assert stored() == before
    assert api.get(f"/api/players/{zed}/").json()["name"] == "Zed"

    response = send(staff_api, "PATCH", f"/api/players/{zed}/", {"name": "Zedd"})
    assert response.status_code == 200, response.content
    assert Player.objects.get(pk=zed).name == "Zedd"


def test_renaming_a_player_only_in_ones_own_games(api) -> None:
    response = send(api, "POST", "/api/players/", {"name": "Solo"})
    assert response.status_code == 201, response.content
    solo = response.json()["id"]
    body = {"game_type": "complots", "players": ["Solo", "Bea"], "first_player": 0}
    assert send(api, "POST", "/api/games/", body).status_code == 201
    response = send(api, "PATCH", f"/api/players/{solo}/", {"name": "Soloist"})
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Soloist"
    assert Player.objects.get(pk=solo).name == "Soloist"


# --- 8, 9: credentials and anonymous reads ------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "Token abc\x00def",
        "Token " + "a" * 20 + "\x00" + "b" * 19,
        "Token \x00",
        "Token \u00e9t\u00e9",
        "Token " + "A" * 40,
        "Token " + "0" * 40,
    ],
    ids=["nul", "nul-40", "only-nul", "latin-1", "upper-case", "no-such-token"],
)
def test_a_malformed_token_is_no_credential(anon_api, world, stored, header) -> None:
    before = stored()
    for method, url in [
        ("GET", "/api/games/"),
        ("GET", "/api/me/"),
        ("POST", "/api/games/"),
        ("POST", "/api/games/import/"),
    ]:
        body = {"players": ["Ada", "Bea", "Cy"], "first_player": 0}
        response = send(anon_api, method, url, body, HTTP_AUTHORIZATION=header)
        assert response.status_code == 401, (url, response.content)
        assert response.json()["code"], response.content
    assert stored() == before


def test_a_valid_token_with_a_nul_after_it(anon_api, token, world) -> None:
    """The key is checked whole: a real token with a NUL after it is no credential."""
    response = anon_api.get("/api/me/", HTTP_AUTHORIZATION=f"Token {token}\x00")
    assert response.status_code == 401, response.content
    assert anon_api.get("/api/me/", HTTP_AUTHORIZATION=f"Token {token}").status_code == 200


@pytest.mark.parametrize(
    "cookie",
    ["abc\x00def", "a" * 32 + "\x00", "\x00", "a" * 31 + "\u00e9", "A" * 32],
    ids=["nul", "nul-after-a-key", "only-nul", "latin-1", "upper-case"],
)
@pytest.mark.parametrize("public", [False, True])
def test_a_malformed_session_cookie_is_no_session(anon_api, settings, world, cookie, public):
    """A cookie no session key can be is no session: never a query with a NUL (a 500 on
    PostgreSQL), and public results still answer."""
    Club.objects.update(public_results=public)
    extra = {"HTTP_COOKIE": f"sessionid={cookie}"}
    assert_refused_credentials(anon_api.get("/api/me/", **extra))
    response = anon_api.get("/api/games/?club=club", **extra)
    if public:
        assert response.status_code == 200, response.content
    else:
        assert_refused_credentials(response)
    body = {"players": ["Ada", "Bea", "Cy"], "first_player": 0}
    assert_refused_credentials(send(anon_api, "POST", "/api/games/", body, **extra))


@pytest.mark.parametrize(
    "url", ["/api/imports/", "/api/rescore/", "/api/imports/1/", "/api/rescore/1/", "/api/me/"]
)
def test_public_reads_keep_jobs_private(anon_api, settings, world, url) -> None:
    """Jobs and the account are a user's own: with public results on, an anonymous read of
    them is refused (not a 500 on a user that is none), while the finished games are public."""
    Club.objects.update(public_results=True)
    Game.objects.filter(pk=world.complots).update(status=Game.Status.FINISHED)
    assert_refused_credentials(anon_api.get(url))
    response = anon_api.get("/api/games/?club=club")
    assert response.status_code == 200, response.content
    finished = Game.objects.filter(status=Game.Status.FINISHED)
    assert response.json()["count"] == finished.count() > 0
    assert anon_api.get(f"/api/games/{finished.first().pk}/").status_code == 200


# --- 10: notes and location ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "length"), [("location", MAX_LOCATION + 1), ("notes", MAX_NOTES + 1), ("notes", 6000)]
)
def test_location_and_notes_past_their_limits(api, unchanged, world, field, length) -> None:
    """Refused whole, with the same code on every route: a location used to be cut to its
    column's length in silence."""
    text = "x" * length
    log = simulate("complots", 3, seed=5)
    log[field] = text
    sent = {
        "POST /api/games/import/": log,
        "POST /api/games/ pot-de-vin": {"players": ["Ada", "Bea", "Cy"], "first_player": 0},
        "POST /api/games/ complots": {
            "game_type": "complots",
            "players": ["Ada", "Bea"],
            "first_player": 0,
        },
        "POST /api/games/scorepad/": {"players": ["Ada", "Bea", "Cy"], "tableaux": [{}, {}, {}]},
        f"PATCH /api/games/{world.pot}/": {},
    }
    responses = {
        label: send(api, *label.split()[:2], {**body, field: text}) for label, body in sent.items()
    }
    got = {label: outcome(response) for label, response in responses.items()}
    assert got == dict.fromkeys(got, (400, "too_long"))
    for response in responses.values():
        assert_error(response, 400, "too_long", path=field)


def test_notes_past_their_limit_in_an_import_job(api, unchanged, world) -> None:
    log = simulate("complots", 3, seed=5)
    log["notes"] = "x" * 6000
    body = assert_error(send(api, "POST", "/api/imports/", [log]), 400, "too_long")
    assert body["path"] in ("[0].notes", "notes"), body


def test_location_and_notes_at_their_limits_are_stored_whole(api, world) -> None:
    log = simulate("complots", 3, seed=5)
    log.update(location="l" * MAX_LOCATION, notes="n" * MAX_NOTES)
    (made,) = imported(api, log)
    game = Game.objects.get(pk=made["id"])
    assert (game.location, game.notes) == ("l" * MAX_LOCATION, "n" * MAX_NOTES)
    body = {"players": ["Ada", "Bea", "Cy"], "first_player": 0, "location": "m" * MAX_LOCATION}
    response = send(api, "POST", "/api/games/", body)
    assert response.status_code == 201, response.content
    assert Game.objects.get(pk=response.json()["id"]).location == "m" * MAX_LOCATION
    response = send(api, "PATCH", f"/api/games/{world.pot}/", {"notes": "p" * MAX_NOTES})
    assert response.status_code == 200, response.content
    assert Game.objects.get(pk=world.pot).notes == "p" * MAX_NOTES


# --- 13: entries per game and per import --------------------------------------------------------


@pytest.mark.parametrize("url", IMPORT_ROUTES)
def test_an_import_of_more_entries_than_a_game_holds(api, unchanged, world, url) -> None:
    """Refused before the engine replays it (and, for a job, before it is stored)."""
    response = send(api, "POST", url, [exchanges(MAX_ENTRIES + 1)])
    assert_error(response, 400, "too_many_entries", index=0)


def test_a_game_of_the_most_entries_and_one_more(api, world, stored) -> None:
    """1000 exchanges are a valid Complots game: it is imported whole and every turn reads;
    appending turn 1001 is refused and stores nothing, while the last turn stays editable."""
    (made,) = imported(api, exchanges(MAX_ENTRIES))
    game_id = made["id"]
    assert Round.objects.filter(game_id=game_id).count() == MAX_ENTRIES
    for number in (1, MAX_ENTRIES):
        response = api.get(f"/api/games/{game_id}/turns/{number}/")
        assert response.status_code == 200, response.content
        assert response.json() == {
            "number": number,
            "actor": (number - 1) % 2,
            "action": "exchange",
        }
    assert api.get(f"/api/games/{game_id}/rounds/{MAX_ENTRIES}/").status_code == 200
    assert len(api.get(f"/api/games/{game_id}/").json()["turns"]) == MAX_ENTRIES
    assert len(api.get(f"/api/games/{game_id}/log/").json()["turns"]) == MAX_ENTRIES

    before = stored()
    turn = {"actor": 0, "action": "exchange"}
    for entries in ("turns", "rounds"):
        url = f"/api/games/{game_id}/{entries}/"
        assert_error(send(api, "POST", url, turn), 400, "too_many_entries", round=1001)
        # Numbered, it is past the numbers an entry can have: a field of the form, or the same.
        body = assert_error(send(api, "POST", url, {"number": 1001, **turn}), 400)
        assert body["code"] == "too_many_entries" or "number" in body["fields"], body
    assert api.get(f"/api/games/{game_id}/turns/1001/").status_code == 404
    assert stored() == before
    # The last turn can still be corrected, and undone.
    last = {"actor": 1, "action": "income"}
    response = send(api, "PUT", f"/api/games/{game_id}/turns/{MAX_ENTRIES}/", last)
    assert response.status_code == 200, response.content
    assert api.delete(f"/api/games/{game_id}/turns/last/").status_code == 200
    assert Round.objects.filter(game_id=game_id).count() == MAX_ENTRIES - 1


def test_an_import_of_more_entries_than_one_import_holds(api, unchanged, world) -> None:
    """Each game within its limit, all of them past what one import takes."""
    games = services.MAX_IMPORT_ENTRIES // MAX_ENTRIES + 1
    documents = [exchanges(MAX_ENTRIES) for _ in range(games)]
    body = assert_error(send(api, "POST", "/api/games/import/", documents), 400, "too_many_entries")
    assert body["index"] == games - 1, body
