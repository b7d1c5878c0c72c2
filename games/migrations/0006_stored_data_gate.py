"""Stored data that the gate of stored JSON (added with this migration) would refuse: found and
reported, and repaired where that changes nothing an engine reads or a person sees.

Repaired:
- keys a log format does not define, dropped from entries and from games' setup and finish
  (every engine ignores them: no result changes);
- player names normalised as new ones are (invisible format characters removed, NFKC, runs of
  white space as one space), unless that would make two players one;
- NUL characters in games' location and notes and in editions' descriptions (SQLite holds
  them; PostgreSQL never could), removed.

Reported, one line each on the migration's output (and the ``potdevin.migrations`` logger),
for a person to decide: integers outside the signed 64-bit range, lone surrogates and NUL
inside stored JSON (entries, setups, finishes, sheets, results, editions' data), notes over
5,000 characters, names that cannot be normalised or that would then be another player's.

The code is frozen as of this migration (the schemas of the three log formats included) and
imports nothing of the project's: a later change of the engines does not change what it does.
"""

import logging
import re
import unicodedata

from django.db import migrations

logger = logging.getLogger("potdevin.migrations")
BATCH = 500
INT_MIN, INT_MAX = -(2**63), 2**63 - 1
MAX_DEPTH = 32
MAX_NOTES = 5000
MAX_NAME = 80

LOG_SCHEMAS = {
    "pot-de-vin": {
        "type": "object",
        "properties": {
            "format": {},
            "players": {"type": "array", "items": {"type": "string"}},
            "first_player": {"type": "integer"},
            "teams": {
                "type": ["array", "null"],
                "items": {"type": "array", "items": {"type": "integer"}},
            },
            "deck": {"type": ["string", "null"]},
            "hands": {
                "type": ["object", "null"],
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            },
            "trump_pile": {"type": ["array", "null"], "items": {"type": "string"}},
            "jokers": {
                "type": ["object", "null"],
                "additionalProperties": {"type": "array", "items": {"type": "string"}},
            },
            "rounds": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["trump", "plays"],
                    "properties": {
                        "trump": {"type": "string"},
                        "plays": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["seat"],
                                "properties": {
                                    "seat": {"type": "integer"},
                                    "card": {"type": "string"},
                                    "pass": {"type": "boolean"},
                                },
                            },
                        },
                    },
                },
            },
            "played_on": {"type": ["string", "null"]},
            "location": {"type": ["string", "null"]},
            "notes": {"type": ["string", "null"]},
        },
        "$defs": {},
    },
    "complots": {
        "type": "object",
        "properties": {
            "format": {},
            "players": {"type": "array", "items": {"type": "string"}},
            "variant": {},
            "first_player": {"type": "integer"},
            "teams": {"type": "null"},
            "played_on": {"type": ["string", "null"]},
            "location": {"type": ["string", "null"]},
            "notes": {"type": ["string", "null"]},
            "turns": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["actor", "action"],
                    "properties": {
                        "actor": {"type": "integer"},
                        "action": {},
                        "target": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                        "challenge": {"anyOf": [{"$ref": "#/$defs/challenge"}, {"type": "null"}]},
                        "block": {
                            "anyOf": [
                                {
                                    "type": "object",
                                    "required": ["by", "as"],
                                    "properties": {
                                        "by": {"type": "integer"},
                                        "as": {},
                                        "challenge": {
                                            "anyOf": [
                                                {"$ref": "#/$defs/challenge"},
                                                {"type": "null"},
                                            ]
                                        },
                                    },
                                },
                                {"type": "null"},
                            ]
                        },
                        "losses": {
                            "anyOf": [
                                {
                                    "type": "array",
                                    "items": {
                                        "type": "object",
                                        "required": ["seat", "card"],
                                        "properties": {"seat": {"type": "integer"}, "card": {}},
                                    },
                                },
                                {"type": "null"},
                            ]
                        },
                        "forced_swap": {"type": ["boolean", "null"]},
                    },
                },
            },
        },
        "$defs": {
            "challenge": {
                "type": "object",
                "required": ["by", "truthful"],
                "properties": {"by": {"type": "integer"}, "truthful": {"type": "boolean"}},
            }
        },
    },
    "bruges": {
        "type": "object",
        "properties": {
            "format": {},
            "players": {"type": "array", "items": {"type": "string"}},
            "first_player": {"type": "integer"},
            "edition": {},
            "teams": {"type": "null"},
            "final": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "laurels": {
                                "anyOf": [
                                    {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["seat", "person", "points"],
                                            "properties": {
                                                "seat": {"type": "integer"},
                                                "person": {"type": "string"},
                                                "points": {"type": "integer"},
                                            },
                                        },
                                    },
                                    {"type": "null"},
                                ]
                            }
                        },
                    },
                    {"type": "null"},
                ]
            },
            "played_on": {"type": ["string", "null"]},
            "location": {"type": ["string", "null"]},
            "notes": {"type": ["string", "null"]},
            "rounds": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["dice", "turns"],
                    "properties": {
                        "dice": {
                            "type": "object",
                            "required": ["blue", "brown", "red", "purple", "yellow"],
                            "properties": {
                                "blue": {"type": "integer"},
                                "brown": {"type": "integer"},
                                "red": {"type": "integer"},
                                "purple": {"type": "integer"},
                                "yellow": {"type": "integer"},
                            },
                        },
                        "penalties": {
                            "anyOf": [
                                {"type": "array", "items": {"$ref": "#/$defs/penalty"}},
                                {"type": "null"},
                            ]
                        },
                        "prestige": {
                            "anyOf": [
                                {"type": "array", "items": {"type": "integer"}},
                                {"type": "null"},
                            ]
                        },
                        "upkeep": {
                            "anyOf": [
                                {
                                    "type": "array",
                                    "items": {
                                        "anyOf": [
                                            {
                                                "type": "object",
                                                "required": ["seat", "effect"],
                                                "properties": {
                                                    "seat": {"type": "integer"},
                                                    "effect": {"type": "string"},
                                                    "gain": {"$ref": "#/$defs/gain"},
                                                    "at": {},
                                                },
                                            },
                                            {
                                                "type": "object",
                                                "required": ["penalty"],
                                                "properties": {
                                                    "penalty": {"$ref": "#/$defs/penalty"},
                                                    "at": {},
                                                },
                                            },
                                        ]
                                    },
                                },
                                {"type": "null"},
                            ]
                        },
                        "turns": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["seat"],
                                "properties": {
                                    "seat": {"type": "integer"},
                                    "pass": {"type": ["boolean", "null"]},
                                    "steps": {"type": "array", "items": {"$ref": "#/$defs/step"}},
                                },
                            },
                        },
                    },
                },
            },
        },
        "$defs": {
            "gain": {
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "florins": {"type": "integer"},
                            "points": {"type": "integer"},
                            "prestige": {"type": "integer"},
                            "workers": {
                                "type": "object",
                                "additionalProperties": {"type": "integer"},
                            },
                            "threats": {
                                "type": "object",
                                "additionalProperties": {"type": "integer"},
                            },
                            "plays": {"type": "integer"},
                        },
                        "additionalProperties": False,
                    },
                    {"type": "null"},
                ]
            },
            "penalty": {
                "type": "object",
                "required": ["seat", "color"],
                "properties": {
                    "seat": {"type": "integer"},
                    "color": {},
                    "house": {"type": ["integer", "null"]},
                    "section": {},
                    "person": {"type": ["string", "null"]},
                },
            },
            "person": {
                "anyOf": [
                    {
                        "type": "object",
                        "required": ["id", "name", "price", "group", "icon"],
                        "properties": {
                            "id": {"type": "string"},
                            "name": {"type": "string"},
                            "price": {},
                            "group": {},
                            "icon": {},
                            "worker": {"anyOf": [{}, {"type": "null"}]},
                        },
                    },
                    {"type": "string"},
                ]
            },
            "step": {
                "anyOf": [
                    {
                        "type": "object",
                        "required": ["card", "action"],
                        "properties": {
                            "card": {},
                            "action": {},
                            "section": {},
                            "house": {"type": "integer"},
                            "person": {"$ref": "#/$defs/person"},
                        },
                    },
                    {
                        "type": "object",
                        "required": ["effect"],
                        "properties": {
                            "effect": {"type": "string"},
                            "seat": {"type": "integer"},
                            "gain": {"$ref": "#/$defs/gain"},
                        },
                    },
                    {
                        "type": "object",
                        "required": ["penalty"],
                        "properties": {"penalty": {"$ref": "#/$defs/penalty"}},
                    },
                ]
            },
        },
    },
}
ENTRIES_KEY = {"pot-de-vin": "rounds", "complots": "turns", "bruges": "rounds"}
SETUP_KEYS = {"pot-de-vin": ["hands", "trump_pile"], "complots": [], "bruges": []}
FINISH_KEYS = {"pot-de-vin": ["jokers"], "complots": [], "bruges": ["final"]}


def report(message):
    print(f"  games.0006: {message}")
    logger.warning("games.0006: %s", message)


def problem(value):
    """What the gate would refuse in a stored JSON value (the first thing found), or None."""
    stack = [(value, "", 1)]
    while stack:
        item, path, depth = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return f"a NUL character at {path or 'the top'}"
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"a lone surrogate at {path or 'the top'}"
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        elif isinstance(item, int):
            if not INT_MIN <= item <= INT_MAX:
                return f"an integer outside 64 bits at {path or 'the top'}"
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                return f"nesting deeper than {MAX_DEPTH} at {path or 'the top'}"
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in pairs:
                if isinstance(key, str):
                    stack.append((key, path, depth))
                where = f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}".lstrip(".")
                stack.append((child, where, depth + 1))
    return None


class Pruner:
    """Drops the keys a schema does not define (frozen copy of the gate's rule)."""

    def __init__(self, root):
        self.root = root

    def resolve(self, schema):
        while "$ref" in schema:
            target = self.root
            for part in schema["$ref"][2:].split("/"):
                target = target[part]
            schema = target
        return schema

    def prune(self, value, schema):
        schema = self.resolve(schema)
        branches = schema.get("anyOf") or schema.get("oneOf")
        if branches:
            fitting = [b for b in map(self.resolve, branches) if self.fits(value, b)]
            if not fitting:
                return value
            if len(fitting) > 1 and isinstance(value, dict):
                return self.prune_object(value, fitting)
            return self.prune(value, fitting[0])
        if isinstance(value, dict):
            return self.prune_object(value, [schema])
        if isinstance(value, list) and isinstance(schema.get("items"), dict):
            return [self.prune(item, schema["items"]) for item in value]
        return value

    def prune_object(self, value, schemas):
        out = {}
        for key, child in value.items():
            kept, child_schema = self.place(key, schemas)
            if kept:
                out[key] = child if child_schema is None else self.prune(child, child_schema)
        return out

    @staticmethod
    def place(key, schemas):
        for schema in schemas:
            if key in schema.get("properties", {}):
                return True, schema["properties"][key]
        for schema in schemas:
            extra = schema.get("additionalProperties", "properties" not in schema)
            if extra is False and "additionalProperties" in schema:
                return True, None
            if isinstance(extra, dict):
                return True, extra
            if extra is True:
                return True, None
        return False, None

    def fits(self, value, schema):
        schema = self.resolve(schema)
        types = schema.get("type")
        if types is not None:
            allowed = [types] if isinstance(types, str) else list(types)
            kind = (
                "null"
                if value is None
                else "boolean"
                if isinstance(value, bool)
                else "integer"
                if isinstance(value, int)
                else "number"
                if isinstance(value, float)
                else "string"
                if isinstance(value, str)
                else "array"
                if isinstance(value, list)
                else "object"
            )
            if kind not in allowed and not (kind == "integer" and "number" in allowed):
                return False
        if isinstance(value, dict):
            return all(k in value for k in schema.get("required", ()))
        return True


def normal_name(raw):
    """The name as new ones are stored, or None when it cannot be one."""
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError:
        return None
    visible = "".join(c for c in raw if unicodedata.category(c) != "Cf")
    name = re.sub(r"\s+", " ", unicodedata.normalize("NFKC", visible)).strip()
    if not name or len(name) > MAX_NAME or any(unicodedata.category(c) == "Cc" for c in name):
        return None
    return name


def _save(model, rows, fields):
    if rows:
        model.objects.bulk_update(rows, fields, batch_size=BATCH)
    rows.clear()


def forward(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Round = apps.get_model("games", "Round")
    Player = apps.get_model("games", "Player")
    Edition = apps.get_model("games", "Edition")
    pruners = {game_type: Pruner(schema) for game_type, schema in LOG_SCHEMAS.items()}
    game_types = dict(Game.objects.values_list("id", "game_type"))

    changed = []
    for rnd in Round.objects.only("id", "game_id", "number", "data").iterator(chunk_size=BATCH):
        where = f"game {rnd.game_id}, entry {rnd.number}"
        found = problem(rnd.data)
        if found:
            report(f"{where}: {found}")
            continue
        game_type = game_types.get(rnd.game_id)
        if game_type in pruners:
            schema = LOG_SCHEMAS[game_type]["properties"][ENTRIES_KEY[game_type]]["items"]
            pruned = pruners[game_type].prune(rnd.data, schema)
            if pruned != rnd.data:
                rnd.data = pruned
                changed.append(rnd)
        if len(changed) >= BATCH:
            _save(Round, changed, ["data"])
    _save(Round, changed, ["data"])

    fields = ["setup", "finish", "location", "notes"]
    for game in Game.objects.only("id", "game_type", *fields, "teams", "sheet", "result").iterator(
        chunk_size=BATCH
    ):
        dirty = False
        for name in ("setup", "finish", "teams", "sheet", "result"):
            found = problem(getattr(game, name))
            if found:
                report(f"game {game.pk}, its {name}: {found}")
        pruner = pruners.get(game.game_type)
        if pruner is not None:
            properties = LOG_SCHEMAS[game.game_type]["properties"]
            for name, keys in (("setup", SETUP_KEYS), ("finish", FINISH_KEYS)):
                value = getattr(game, name)
                if isinstance(value, dict) and not problem(value):
                    kept = {
                        k: pruner.prune(v, properties[k])
                        for k, v in value.items()
                        if k in keys[game.game_type]
                    }
                    if kept != value:
                        setattr(game, name, kept)
                        dirty = True
        for name in ("location", "notes"):
            text = getattr(game, name) or ""
            if "\x00" in text:
                setattr(game, name, text.replace("\x00", ""))
                dirty = True
        if len(game.notes or "") > MAX_NOTES:
            report(f"game {game.pk}: notes of {len(game.notes)} characters, over {MAX_NOTES}")
        if dirty:
            changed.append(game)
        if len(changed) >= BATCH:
            _save(Game, changed, fields)
    _save(Game, changed, fields)

    for edition in Edition.objects.all():
        found = problem(edition.data)
        if found:
            report(f"edition {edition.game_type}/{edition.key}, its data: {found}")
        if "\x00" in (edition.description or ""):
            edition.description = edition.description.replace("\x00", "")
            edition.save(update_fields=["description"])

    keys = set(Player.objects.values_list("name_key", flat=True))
    for player in Player.objects.order_by("id"):
        name = normal_name(player.name)
        if name is None:
            report(f"player {player.pk}: the name {player.name!r} cannot be normalised")
            continue
        if name == player.name:
            continue
        key = unicodedata.normalize("NFKC", name).casefold()
        if key != player.name_key and key in keys:
            report(f"player {player.pk}: {player.name!r} would be {name!r}, another player's name")
            continue
        keys.discard(player.name_key)
        keys.add(key)
        player.name, player.name_key = name, key
        player.save(update_fields=["name", "name_key"])


class Migration(migrations.Migration):
    dependencies = [("games", "0005_generic_records")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
