"""Editions (versions of a game's printed data): created, checked, the engines' own
stored, and the one a game uses."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games.records import stored_json
from games.records.errors import GameConflict, RecordError
from games.records.models import MAX_NOTES_LENGTH, Edition, Game
from games.records.services.common import _game_info, games_touch
from scoring.engine import ENGINES, GameInfo, LogError
from scoring.engine.errors import said


def edition_create(
    *,
    game_type: str,
    key: str,
    data: Any,
    description: str = "",
    verified: bool = False,
    created_by: AbstractBaseUser | None,
) -> Edition:
    """A new edition (version of a game's printed data). Raises ``LogError`` for data the
    engine refuses (Pot de Vin: bad_deck), ``GameConflict`` (edition_exists) for a taken key."""
    info = _game_info(game_type)
    if info.edition_from_data is None or info.edition_to_data is None:
        raise _no_editions(info)
    if not isinstance(data, dict):  # every game's printed data is an object of named parts
        raise LogError(f"bad_{info.edition_log_key}", said("an edition's data is a JSON object"))
    stored_json.check(data, path="data")
    stored_json.check_text(description, path="description", max_length=MAX_NOTES_LENGTH)
    # What is stored is what the engine read: keys it does not know are not kept.
    data = info.edition_to_data(info.edition_from_data(key, data))
    if Edition.objects.filter(game_type=game_type, key=key).exists():
        raise GameConflict(
            f"{info.edition_log_key}_exists",
            _("%(game)s edition %(key)r exists; a correction is a new version")
            % {"game": info.label, "key": key},
        )
    return Edition.objects.create(
        game_type=game_type,
        key=key,
        data=data,
        description=description,
        verified=verified,
        created_by=created_by,
    )


def edition_mark_verified(*, edition: Edition, verified: bool = True) -> Edition:
    """Mark an edition checked (or not) against the printed material. Staff only: the caller
    checks who asks. The data itself never changes (a correction is a new version)."""
    edition.verified = verified
    with transaction.atomic():
        edition.save(update_fields=["verified"])
        games_touch(Game.objects.filter(edition=edition))  # their pages say whether it is
    return edition


def editions_ensure_builtin() -> None:
    """Store the editions the engines ship (Pot de Vin's ``standard`` deck) that are missing.
    Run after every ``migrate`` (``games.apps``), so that reads never write."""
    for game_type, engine in ENGINES.items():
        for key, builtin in engine.info.builtin_editions.items():
            Edition.objects.get_or_create(
                game_type=game_type,
                key=key,
                defaults={"data": builtin["data"], "description": builtin["description"]},
            )


def editions_by_key(game_type: str) -> dict[str, Edition]:
    """Every stored edition of ``game_type`` by key."""
    return {e.key: e for e in Edition.objects.filter(game_type=game_type)}


def edition_default(game_type: str) -> Edition | None:
    """The edition a new game of ``game_type`` uses unless told otherwise (``None`` for a game
    without editions). Raises ``RecordError`` (unknown_edition) if it is not stored."""
    key = _game_info(game_type).default_edition
    if key is None:
        return None
    found = Edition.objects.filter(game_type=game_type, key=key).first()
    if found is None:
        raise RecordError("unknown_edition", _("no edition %(key)r is stored") % {"key": key})
    return found


def _no_editions(info: GameInfo) -> RecordError:
    return RecordError("no_editions", _("%(game)s has no editions") % {"game": info.label})


def _edition_for(info: GameInfo, edition: Edition | None) -> Edition | None:
    if not info.has_editions:
        if edition is not None:
            raise _no_editions(info)
        return None
    if edition is None:
        return edition_default(info.game_id)
    if edition.game_type != info.game_id:
        raise RecordError(
            "unknown_edition",
            _("%(key)r is not a %(game)s edition") % {"key": edition.key, "game": info.label},
        )
    return edition


class EditionCache:
    """Stored editions by game type and key, each game type read once (an import of many logs
    looks them up per document)."""

    def __init__(self) -> None:
        self._by_type: dict[str, dict[str, Edition]] = {}

    def get(self, game_type: str, key: str) -> Edition | None:
        if game_type not in self._by_type:
            self._by_type[game_type] = editions_by_key(game_type)
        return self._by_type[game_type].get(key)
