"""The OpenAPI document states the constraints the API enforces, so that a client (or a fuzzer)
built from it sends what the API takes: the player name rule, id and entry number ranges, a
deck's cards, the log documents of an import. Every request example fits its own schema, and
the examples of the bodies that do not depend on a stored game are accepted as they are."""

from __future__ import annotations

import copy
import re
from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator

from games.api.serializers import MAX_ID, NAME_SCHEMA
from games.records.models import MAX_ENTRIES
from games.records.names import BadName, player_name
from scoring.engine.potdevin.cards import CARD_NAMES

SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
COMPONENTS = SCHEMA["components"]["schemas"]


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in SCHEMA["paths"].items()
        for method, operation in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]


def _json_schema(node: Any) -> Any:
    """An OpenAPI 3.0 request schema as JSON Schema: ``nullable`` is a null alternative, and a
    read-only property is not sent (nor required)."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _json_schema(value) for key, value in node.items()}
    if "required" in out and isinstance(node.get("properties"), dict):
        read_only = {k for k, v in node["properties"].items() if v.get("readOnly")}
        out["required"] = [name for name in out["required"] if name not in read_only]
    if out.pop("nullable", False):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def _validator(schema: dict[str, Any]) -> jsonschema.Draft7Validator:
    # The components travel with the schema, so that its references resolve.
    root = {"allOf": [_json_schema(schema)], "components": {"schemas": _json_schema(COMPONENTS)}}
    return jsonschema.Draft7Validator(root)


def test_a_player_name_is_documented_with_the_name_rule() -> None:
    player = COMPONENTS["Player"]["properties"]["name"]
    assert NAME_SCHEMA in player["allOf"]
    reference = COMPONENTS["PotDeVinGameCreate"]["properties"]["players"]["items"]
    assert NAME_SCHEMA in reference["oneOf"]
    assert (NAME_SCHEMA["minLength"], NAME_SCHEMA["maxLength"]) == (1, 80)


@pytest.mark.parametrize(
    "name",
    ["Ada", " Ada ", "Ａｄａ", "Zoë\u200b", "a\tb", "\u00a0x", "名前", "x" * 80],
)
def test_a_name_the_pattern_takes_is_a_name(name: str) -> None:
    assert re.search(NAME_SCHEMA["pattern"], name)
    player_name(name)


@pytest.mark.parametrize(
    "name", ["", " ", "\t\n", "\u200b", "\u202e", "\u00ad", "A\x00", "A\x1b", "\x85", "A\x9f"]
)
def test_a_name_the_rule_refuses_the_pattern_refuses(name: str) -> None:
    assert not re.search(NAME_SCHEMA["pattern"], name)
    with pytest.raises(BadName):
        player_name(name)


def test_every_character_the_pattern_takes_makes_a_name() -> None:
    pattern = re.compile(NAME_SCHEMA["pattern"])
    for code in range(0x10000):
        if 0xD800 <= code < 0xE000:
            continue
        char = chr(code)
        for name in (char, f"A{char}"):
            if pattern.search(name):
                player_name(name)  # no BadName


def test_ids_and_entry_numbers_in_paths_have_their_ranges() -> None:
    seen = set()
    for method, path, operation in _operations():
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "path" or parameter["name"] not in ("id", "number"):
                continue
            bounds = (parameter["schema"].get("minimum"), parameter["schema"].get("maximum"))
            expected = (1, MAX_ID) if parameter["name"] == "id" else (1, MAX_ENTRIES)
            assert bounds == expected, (method, path, parameter)
            seen.add(parameter["name"])
    assert seen == {"id", "number"}


def test_a_deck_is_documented_card_by_card() -> None:
    cards = COMPONENTS["Deck"]["properties"]["cards"]
    guild_cards = [name for name in CARD_NAMES if 4 <= int(name[1:]) <= 12]
    assert sorted(cards["required"]) == sorted(guild_cards)
    assert cards["additionalProperties"] is False  # another card is refused (bad_deck)


def test_an_import_document_names_its_format() -> None:
    body = SCHEMA["paths"]["/api/games/import/"]["post"]["requestBody"]
    documents = body["content"]["application/json"]["schema"]["oneOf"][0]["oneOf"]
    formats = [d["properties"]["format"]["enum"] for d in documents]
    assert formats == [["potdevin-log/1"], ["complots-log/1"], ["bruges-log/1"]]
    assert all({"format", "players", "first_player"} <= set(d["required"]) for d in documents)


def _request_examples() -> list[tuple[str, str, str, dict[str, Any], Any]]:
    found = []
    for method, path, operation in _operations():
        content = operation.get("requestBody", {}).get("content", {})
        for media in content.values():
            for name, example in media.get("examples", {}).items():
                found.append((method, path, name, media["schema"], example["value"]))
    return found


def test_there_are_request_examples() -> None:
    assert {(m, p) for m, p, *_ in _request_examples()} >= {
        ("POST", "/api/games/"),
        ("POST", "/api/games/scorepad/"),
        ("POST", "/api/editions/"),
        ("POST", "/api/games/{id}/rounds/"),
    }


@pytest.mark.parametrize(
    ("method", "path", "name", "schema", "value"),
    _request_examples(),
    ids=[f"{m} {p} {n}" for m, p, n, *_ in _request_examples()],
)
def test_a_request_example_fits_its_schema(
    method: str, path: str, name: str, schema: dict[str, Any], value: Any
) -> None:
    errors = [e.message for e in _validator(schema).iter_errors(value)]
    assert not errors, errors


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/games/", "/api/games/scorepad/", "/api/editions/"])
def test_the_examples_of_a_new_record_are_accepted(api: Any, standard_deck: Any, path: str) -> None:
    values = [v for m, p, _n, _s, v in _request_examples() if (m, p) == ("POST", path)]
    assert values
    for value in values:
        response = api.post(path, copy.deepcopy(value), format="json")
        assert response.status_code == 201, (value, response.content)
