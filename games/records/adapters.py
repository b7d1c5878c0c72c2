"""The one place that turns stored records into engine input, and engine output into records.

Game-generic: what a game's log holds besides players, teams and first player comes from its
engine's ``GameInfo`` (``setup_keys``, ``finish_keys``, ``entries_key``, editions).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

import orjson
from django.db import connection

from games.records.models import Edition, Game, Player, Round, Seat
from scoring.engine import GameEngine, LogError, get_engine, score_result
from scoring.engine.errors import Seat as SeatRef
from scoring.engine.errors import said

# Optional keys of a log that the engine does not read but a record keeps, so that an exported
# log re-imports to the same game.
LOG_META_FIELDS = ("played_on", "location", "notes")


@lru_cache(maxsize=64)
def _engine_edition(pk: int, game_type: str, key: str, created_at: datetime.datetime) -> Any:
    data = Edition.objects.values_list("data", flat=True).get(pk=pk)
    load = get_engine(game_type).info.edition_from_data
    return None if load is None else load(key, data)


def engine_edition(edition: Edition | None) -> Any:
    """The engine's view of an edition, cached: an edition's data never changes (services
    create editions and never edit their data). The creation time is in the key because a
    rolled-back SQLite transaction can hand the same id to another edition."""
    if edition is None:
        return None
    return _engine_edition(edition.pk, edition.game_type, edition.key, edition.created_at)


def game_log(
    game: Game,
    seats: Sequence[Seat | str],
    entries: list[dict[str, Any]],
    *,
    finish: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The game as its engine's log document (the export format and the engine's input).
    ``seats`` are the game's seats in order, or just the players' names; ``finish`` replaces
    the stored end-of-game choices."""
    info = get_engine(game.game_type).info
    log: dict[str, Any] = {
        "format": info.log_format,
        "players": [s if isinstance(s, str) else s.player.name for s in seats],
        "teams": game.teams,
        "first_player": game.first_player,
    }
    if info.variants:
        log["variant"] = game.variant or info.default_variant
    if info.has_editions:
        log[info.edition_log_key] = game.edition.key if game.edition else None
    setup = game.setup or {}
    for key in info.setup_keys:
        log[key] = setup.get(key)
    log[info.entries_key] = entries
    chosen = game.finish if finish is None else finish
    for key in info.finish_keys:
        log[key] = (chosen or {}).get(key)
    log["played_on"] = game.played_on.isoformat()
    log["location"] = game.location
    log["notes"] = game.notes
    return log


class StoredGame(NamedTuple):
    """What a batch needs of a stored game besides its row: seats and entries as plain rows."""

    seats: list[tuple[int, int, str]]  # (seat row id, seat number, player name)
    rounds: list[dict[str, Any]]


def stored_games(game_ids: Sequence[int]) -> dict[int, StoredGame]:
    """Seats and entries of many games in two queries, without building model instances
    (re-scoring thousands of games is mostly this read)."""
    out = {g: StoredGame([], []) for g in game_ids}
    seat_rows = (
        Seat.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "id", "seat", "player__name")
    )
    for game_id, pk, seat, name in seat_rows:
        out[game_id].seats.append((pk, seat, name))
    entry_rows = (
        Round.objects.filter(game_id__in=game_ids)
        .order_by("game_id", "number")
        .values_list("game_id", "data")
    )
    for game_id, data in entry_rows:
        out[game_id].rounds.append(data)
    return out


@dataclass(slots=True)
class GameRecord:
    """A stored game as a re-score reads it, without a model instance: the fields its engine
    reads (``game_log``, ``rescore``), its seats and entries, and of its stored result only its
    digest and its winners. The result itself (``result``) is read only for a game with no
    digest, one written by hand around the ORM."""

    id: int
    game_type: str
    mode: str
    status: str
    edition_id: int | None
    variant: str
    teams: Any
    first_player: int | None
    setup: Any
    finish: Any
    sheet: Any
    played_on: datetime.date
    location: str
    notes: str
    result_digest: str | None
    winners: Any  # the stored result's, None when it has none
    result: Any  # None unless the game has no digest
    engine_version: str
    # (row id, seat, player's name, score, rank)
    seats: list[tuple[int, int, str, int | None, int | None]] = field(default_factory=list)
    rounds: list[Any] = field(default_factory=list)
    edition: Edition | None = None


_RECORD_COLUMNS = [
    "id",
    "game_type",
    "mode",
    "status",
    "edition_id",
    "variant",
    "teams",
    "first_player",
    "setup",
    "finish",
    "sheet",
    "played_on",
    "location",
    "notes",
    "result_digest",
    "winners",
    "result",
    "engine_version",
]
_JSON_COLUMNS = frozenset(("teams", "setup", "finish", "sheet", "winners", "result"))


def game_records(game_ids: Sequence[int], *, lock: bool = False) -> list[GameRecord]:
    """The games among ``game_ids`` that still exist, in id order, read in three queries with
    their JSON decoded by orjson (a re-score of a million games is mostly this read). Of the
    stored result only its digest and winners are read (several KB of JSON a game otherwise,
    the largest part of the read), the whole result only for a game without a digest.
    ``lock``: their rows are locked (``FOR UPDATE``, PostgreSQL) until the transaction ends."""
    if not game_ids:
        return []
    ids = sorted(set(game_ids))
    q = connection.ops.quote_name
    pg = connection.vendor == "postgresql"
    result = f"g.{q('result')}"
    if pg:
        winners = f"({result} -> 'winners')::text"
    else:  # as JSON text whatever its type: SQL NULL for no winners becomes JSON's null
        winners = f"json_quote(json_extract({result}, '$.winners'))"
    whole = f"{result}::text" if pg else result
    expressions = {
        "winners": winners,
        "result": f"CASE WHEN g.{q('result_digest')} IS NULL THEN {whole} END",
    }

    def column(name: str) -> str:
        if name in expressions:
            return expressions[name]
        # Text, not jsonb: decoded here by orjson rather than by the driver.
        return f"g.{q(name)}::text" if pg and name in _JSON_COLUMNS else f"g.{q(name)}"

    where, params = _ids_where(ids, "g.id")
    sql = (
        f"SELECT {', '.join(column(c) for c in _RECORD_COLUMNS)} "
        f"FROM {q(Game._meta.db_table)} g WHERE {where} ORDER BY g.id"
    )
    if lock and pg:
        sql += " FOR UPDATE OF g"
    records: dict[int, GameRecord] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for row in cursor.fetchall():
            values = dict(zip(_RECORD_COLUMNS, row, strict=True))
            for name in _JSON_COLUMNS:
                values[name] = json_decoded(values[name])
            if isinstance(values["played_on"], str):  # SQLite gives the ISO text
                values["played_on"] = datetime.date.fromisoformat(values["played_on"])
            records[values["id"]] = GameRecord(**values)
        if not records:
            return []
        found = sorted(records)
        where, params = _ids_where(found, "s.game_id")
        cursor.execute(
            f"SELECT s.game_id, s.id, s.seat, p.name, s.score, s.rank "
            f"FROM {q(Seat._meta.db_table)} s "
            f"JOIN {q(Player._meta.db_table)} p ON p.id = s.player_id "
            f"WHERE {where} ORDER BY s.game_id, s.seat",
            params,
        )
        for game_id, *seat in cursor.fetchall():
            records[game_id].seats.append(tuple(seat))  # type: ignore[arg-type]
        where, params = _ids_where(found, "r.game_id")
        table = q(Round._meta.db_table)
        if pg:  # a game's entries as one JSON list: one row and one decode per game, not per entry
            cursor.execute(
                f"SELECT r.game_id, json_agg(r.data ORDER BY r.number)::text FROM {table} r "
                f"WHERE {where} GROUP BY r.game_id",
                params,
            )
            for game_id, entries in cursor.fetchall():
                records[game_id].rounds = json_decoded(entries)
        else:
            cursor.execute(
                f"SELECT r.game_id, r.data FROM {table} r WHERE {where} "
                "ORDER BY r.game_id, r.number",
                params,
            )
            for game_id, entry in cursor.fetchall():
                records[game_id].rounds.append(json_decoded(entry))
    editions = Edition.objects.defer("data").in_bulk(
        {r.edition_id for r in records.values() if r.edition_id is not None}
    )
    for record in records.values():
        if record.edition_id is not None:
            record.edition = editions[record.edition_id]
    return [records[pk] for pk in found]


def _ids_where(ids: Sequence[int], column: str) -> tuple[str, list[Any]]:
    """``column`` among ``ids``: one array parameter on PostgreSQL, a range and a list on
    SQLite (whose IN lists are bounded by its parameter limit; a batch's ids are)."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s)", [list(ids)]
    return f"{column} IN ({', '.join(['%s'] * len(ids))})", list(ids)


def json_decoded(text: Any) -> Any:
    """JSON text read from the database, decoded by orjson (the standard library's reader for
    what orjson refuses); a value already decoded, or None, as it is."""
    if text is None or not isinstance(text, (str, bytes)):
        return text
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:  # what orjson refuses and json reads (a lone surrogate)
        return json.loads(text)


def round_logs(game: Game) -> list[dict[str, Any]]:
    """The game's entries in order, as its log lists them."""
    return list(Round.objects.filter(game=game).order_by("number").values_list("data", flat=True))


def engine_of(game: Game) -> GameEngine:
    return get_engine(game.game_type)


def replay(
    game: Game,
    seats: Sequence[Seat | str],
    entries: list[dict[str, Any]],
    *,
    finish: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Replay ``entries`` as this game's log. Raises ``LogError`` for an impossible log, and
    for one whose result cannot be stored (``storable``)."""
    log = game_log(game, seats, entries, finish=finish)
    return storable(engine_of(game).replay(log, edition=engine_edition(game.edition)))


def start(game: Game, seats: Sequence[Seat | str]) -> Any:
    """The engine's state before the game's first entry."""
    log = game_log(game, seats, [])
    return engine_of(game).start(log, edition=engine_edition(game.edition))


def score_sheet(
    game: Game, names: list[str], sheet: Any, finish: dict[str, Any] | None
) -> dict[str, Any]:
    """Score a scorepad-mode game. Raises ``LogError`` for a sheet no game can leave, and for
    one whose result cannot be stored (``storable``)."""
    engine: Any = engine_of(game)
    body = {"players": names, "teams": game.teams, **(finish or {})}
    if engine.info.variants:
        body["variant"] = game.variant or engine.info.default_variant
    body[engine.info.sheet_key] = sheet
    return storable(dict(engine.score_sheet(body, edition=engine_edition(game.edition))))


def result_body(game: Game, names: list[str], sheet: Any = None) -> dict[str, Any]:
    """What the generic scorer reads of a play known by its final scores only
    (``Game.Mode.RESULT``): its players and teams, and its stored sheet (``win``, one line per
    seat under ``sheet``, ``won``), or ``sheet`` in its place."""
    stored = game.sheet if sheet is None else sheet
    return {"players": names, "teams": game.teams, **(stored if isinstance(stored, dict) else {})}


def score_final(game: Game, names: list[str], sheet: Any = None) -> dict[str, Any]:
    """Score a result-mode play with the generic scorer, whatever its game (the result does
    not depend on an edition). Raises ``LogError`` for a sheet that contradicts itself, and
    for one whose result cannot be stored (``storable``)."""
    return storable(score_result(result_body(game, names, sheet), game=game.game_type))


def rescore(game: Game, names: list[str], entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The game's result computed again from what is stored, the way its mode says: its
    entries replayed, its final sheet scored by its engine, or its final scores by the generic
    scorer. Raises ``LogError``."""
    if game.mode == Game.Mode.RESULT:
        return score_final(game, names)
    if game.mode == Game.Mode.SCOREPAD:
        return score_sheet(game, names, game.sheet, game.finish)
    return replay(game, names, entries)


# A seat's score is a column of 32 bits on every database (PostgreSQL's integer).
SCORE_MIN, SCORE_MAX = -(2**31), 2**31 - 1


def storable(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` if every database can store it and every client read it exactly: each seat's
    score fits its column, and no number in it is past 53 bits, the integers JSON readers hold
    exactly (I-JSON, RFC 7493). Only sums of huge numbers a log gave can get there (a Bruges
    gain of 2**60 florins, twice). Raises ``LogError`` (out_of_range)."""
    for player in result.get("players", ()):
        score = player.get("score") if isinstance(player, dict) else None
        if isinstance(score, int) and not SCORE_MIN <= score <= SCORE_MAX:
            seat = player.get("seat")
            raise LogError(
                "out_of_range",
                said(
                    "{seat} would score {score}: a score is at most {most}",
                    seat=SeatRef(seat) if isinstance(seat, int) else repr(seat),
                    score=score,
                    most=SCORE_MAX,
                ),
                seat=seat,
            )
    try:  # orjson walks a result about ten times faster than Python could
        orjson.dumps(result, option=orjson.OPT_STRICT_INTEGER | orjson.OPT_NON_STR_KEYS)
    except orjson.JSONEncodeError as exc:
        raise LogError(
            "out_of_range", said("the result cannot be stored: {reason}", reason=str(exc))
        ) from None
    return result


def store_result(game: Game, seats: list[Seat], result: dict[str, Any], *, final: bool) -> None:
    """Keep the engine's result on the game; a final result also sets each seat's score and
    rank, which statistics read. Saving is the caller's (it holds the lock)."""
    game.result = result
    game.engine_version = result["engine_version"]
    for seat in seats:
        seat.score, seat.rank = seat_result(result, seat.seat, final=final)


def seat_result(result: dict[str, Any], seat: int, *, final: bool) -> tuple[Any, Any]:
    """What seat ``seat`` stores of ``result``: its score and rank once the game is finished,
    neither before."""
    if not final:
        return None, None
    entry = result["players"][seat]
    return entry["score"], entry["rank"]
