"""Our own log documents imported: each replayed by its engine into an unsaved game
(``import_plan``), then all stored at once (``import_store``)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.records import adapters, bulk, events, stored_json
from games.records.errors import RecordError
from games.records.i18n import engine_message
from games.records.memory import collector_paused
from games.records.models import MAX_ENTRIES, Club, Game, GameEvent, Round, Seat, name_key
from games.records.services.common import _clean_notes, _team_of, history_event
from games.records.services.editions import EditionCache
from games.records.services.players import _players_by_name, clean_name
from scoring.engine import LogError, engine_for_log
from scoring.engine.errors import Code, said


def game_import(
    *, club: Club, owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]
) -> list[Game]:
    """Create one game of ``club`` per log document: finished when the log is complete, else
    in progress. All or nothing: an impossible document stores nothing, and the
    ``RecordError`` says which document (``index``) broke."""
    with collector_paused():
        return _import_all(club, owner, documents)


def _import_all(
    club: Club, owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]
) -> list[Game]:
    editions = EditionCache()
    planned = []
    entries = 0
    for index, doc in enumerate(documents):
        try:
            plan = import_plan(club=club, owner=owner, document=doc, editions=editions)
        except LogError as exc:
            # i18n: engine message
            raise RecordError(
                exc.code, engine_message(exc), round=exc.round, seat=exc.seat, index=index
            ) from exc
        except RecordError as exc:
            exc.index = index
            raise
        entries += len(plan[2])
        if entries > MAX_IMPORT_ENTRIES:
            raise RecordError(
                "too_many_entries",
                _("one import holds at most %(most)s entries in all its documents")
                % {"most": MAX_IMPORT_ENTRIES},
                index=index,
            )
        planned.append(plan)
    with transaction.atomic():
        return import_store(club=club, owner=owner, planned=planned)


PlannedGame = tuple[Game, list[str], list[dict[str, Any]]]

# The entries of all the documents of one import (or one batch of an import job), so that one
# request cannot hold a worker for long: 50 games at the most entries a game may have.
MAX_IMPORT_ENTRIES = 50 * MAX_ENTRIES


def log_document_check(document: Any) -> None:
    """Refuse a log document no import may store: one that is not a JSON object, one with more
    than ``MAX_ENTRIES`` entries, one the gate of ``stored_json`` refuses (``check``: what no
    database or encoder stores whole). What an import job checks before it stores its documents
    (``scoring.jobs.import_start``); dropping the keys a format does not define is left to its
    batches (``log_document_clean(checked=True)``). Raises ``RecordError`` (malformed,
    too_many_entries and the gate's codes)."""
    if not isinstance(document, dict):
        raise RecordError("malformed", _("a log document is a JSON object"))
    info = _log_info(document)
    entries = document.get(info.entries_key) if info is not None else None
    if isinstance(entries, list) and len(entries) > MAX_ENTRIES:
        raise RecordError(
            "too_many_entries",
            _("a game has at most %(most)s entries, not %(count)s")
            % {"most": MAX_ENTRIES, "count": len(entries)},
        )
    stored_json.check(document)


def log_document_clean(document: Any, *, checked: bool = False) -> dict[str, Any]:
    """A log document as an import stores it: through the gate of ``stored_json``
    (``log_document_check``), without the keys its format does not define. A document no
    engine reads keeps only its ``format``, which is all its refusal needs. ``checked``: it
    passed ``log_document_check`` already, and is not walked again. Raises ``RecordError``
    (malformed, too_many_entries and the gate's codes)."""
    if not checked:
        log_document_check(document)
    info = _log_info(document)
    if info is None:
        return {"format": document.get("format")}
    cleaned: dict[str, Any] = stored_json.prune(document, stored_json.log_schema(info))
    return cleaned


def _log_info(document: dict[str, Any]) -> Any:
    """The ``GameInfo`` of the engine that reads ``document``; None when none does."""
    try:
        return engine_for_log(document).info
    except LogError:
        return None


def import_store(
    *, club: Club, owner: AbstractBaseUser, planned: Sequence[PlannedGame]
) -> list[Game]:
    """Store games of ``club`` checked by ``import_plan``. The caller holds the
    transaction."""
    players = _players_by_name(club, [n for _, names, _ in planned for n in names], owner)
    games = [g for g, _, _ in planned]
    bulk.bulk_insert(games)
    # Rows, not Seat and Round objects: an import job's batch stores thousands of each.
    seats: list[tuple[int, int, int, int | None, Any, Any]] = []
    rounds: list[tuple[int, int, Any, datetime.datetime]] = []
    now = timezone.now()
    at = 0
    for game, names, logged in planned:
        game_players = players[at : at + len(names)]
        at += len(names)
        result = game.result or {}
        final = game.status == Game.Status.FINISHED
        adapters.store_result(game, [], result, final=final)
        team_of = _team_of(game)
        seats.extend(
            (game.pk, i, p.pk, team_of.get(i), *adapters.seat_result(result, i, final=final))
            for i, p in enumerate(game_players)
        )
        rounds.extend((game.pk, i, entry, now) for i, entry in enumerate(logged, start=1))
    bulk.insert_rows(Seat, ("game", "seat", "player", "team", "score", "rank"), seats)
    bulk.insert_rows(Round, ("game", "number", "data", "created_at"), rounds)
    bulk.bulk_insert([history_event(g, GameEvent.Action.CREATED, owner) for g in games])
    events.results_changed(game_ids=[g.pk for g in games if g.status == Game.Status.FINISHED])
    return games


def import_plan(
    *,
    club: Club,
    owner: AbstractBaseUser,
    document: dict[str, Any],
    editions: EditionCache,
    checked: bool = False,
) -> PlannedGame:
    """Replay one log document of any game (its engine chosen by ``format``) into an unsaved
    game. Raises ``LogError`` for an impossible document, ``RecordError`` for one the records
    refuse (``log_document_clean``, player names, location and notes). ``checked``: the
    document already passed ``log_document_check`` (an import job's, when it was started), so
    it is only pruned here, not walked by the gate again."""
    doc = log_document_clean(document, checked=checked)
    engine = engine_for_log(doc)
    info = engine.info
    names = doc.get("players")
    if isinstance(names, list):
        names = doc["players"] = [
            clean_name(n, seat=seat) if isinstance(n, str) else n for seat, n in enumerate(names)
        ]
    location, notes = _clean_notes(doc.get("location"), doc.get("notes"))
    edition = None
    if info.has_editions:
        key = doc.get(info.edition_log_key) or info.default_edition
        edition = editions.get(info.game_id, key) if isinstance(key, str) else None
        if edition is None:
            raise LogError(
                f"unknown_{info.edition_log_key}",
                # Translators: {kind} is the log's key for an edition, "deck" or "edition" (the
                # API keeps it in English; the pages put it in words); {key!r} is its quoted key.
                said(
                    "no {kind} {key!r} is stored", kind=Code(info.edition_log_key, False), key=key
                ),
            )
    if isinstance(names, list) and len({name_key(str(n)) for n in names}) != len(names):
        raise LogError("player_twice", said("a player cannot sit at two seats of one game"))
    result = adapters.storable(engine.replay(doc, edition=adapters.engine_edition(edition)))
    played_on = _date_or_none(doc.get("played_on"))
    finish = {k: doc[k] for k in info.finish_keys if doc.get(k) is not None}
    game = Game(
        club=club,
        game_type=engine.game_id,
        edition=edition,
        variant=(doc.get("variant") or info.default_variant or "") if info.variants else "",
        owner=owner,
        player_count=len(result["players"]),
        first_player=doc["first_player"],
        teams=doc.get("teams"),
        setup={k: doc.get(k) for k in info.setup_keys},
        finish=finish or None,
        played_on=played_on or timezone.localdate(),
        location=location,
        notes=notes,
        result=result,
        engine_version=result["engine_version"],
    )
    if result["complete"]:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
    entries = doc.get(info.entries_key) or []
    return game, [p["name"] for p in result["players"]], list(entries)


def _date_or_none(value: Any) -> datetime.date | None:
    if value in (None, ""):
        return None
    try:
        return datetime.date.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise LogError(
            "malformed", said("'played_on' is a date like 2026-11-22, not {value!r}", value=value)
        ) from exc
