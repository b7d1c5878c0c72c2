"""BG Stats' files: its whole export (``BGStatsExport.json``), one shared play (``.bgsplay``),
and its ``createPlay`` push link.

Both files are one JSON object of the same shape: lists ``games``, ``players``, ``locations``
and ``plays``, the plays referring to the others by their numeric ``id`` (``gameRefId``,
``locationRefId``, ``playerScores[].playerRefId``). The export adds ``userInfo``,
``challenges``, ``groups`` and ``tags`` (not read); the shared play holds one play and what it
refers to, with an ``about`` text. Each game, player, location and play has the app's
``uuid``, which is what the import keeps: the ids are numbered afresh by every export.

What is read (the rest is left alone, ``metaData`` too, an object in new exports and a JSON
string in old ones):

- a game: ``name``, ``uuid``, ``bggId`` (0: none), how it is won (``cooperative``, else
  ``noPoints``: winners marked, else ``highestWins``: highest or lowest), ``usesTeams``;
- a player: ``name``, ``uuid``, ``isAnonymous``; a location: ``name``, ``uuid``;
- a play: ``uuid``, ``playDate`` ("2020-10-23 19:16:58"), ``gameRefId``, ``locationRefId``,
  ``durationMin`` (0: none), ``comments``, ``board``, ``ignored`` (as incomplete),
  ``manualWinner``, ``usesTeams``, and per seat (``playerScores``, in ``seatOrder`` when every
  seat has a distinct one) ``playerRefId``, ``score`` (text: a number, an expression, or
  nothing), ``winner``, ``rank`` (0: none), ``startPlayer``, ``newPlayer``, ``team`` (in a team
  play), ``role`` or ``teamRole``.

What the app deletes is not in its files; an object marked ``deleted`` or ``isDeleted`` (as a
sync copy may be) is read as deleted, and a play of a deleted or missing game or player is
skipped with the reason, never half read.
"""

from __future__ import annotations

import datetime
import json
import urllib.parse
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _

from games.exchange.formats.plays import (
    ForeignGame,
    ForeignPlay,
    ForeignPlayer,
    FormatError,
    PlayFile,
    Problem,
    Skipped,
    fingerprinted,
)
from games.exchange.formats.reading import (
    MAX_BGG_ID,
    MAX_DURATION,
    MAX_ID_LENGTH,
    MAX_PLAYERS,
    Refused,
    deleted,
    external_ref,
    flag,
    integer,
    is_text,
    malformed,
    parse_date,
    player_twice,
    ref_id,
    score_problems,
    shown,
    soft_text,
    text,
)
from games.exchange.formats.scores import parse_score

APP = "bgstats"
KIND_EXPORT = "bgstats-export"
KIND_PLAY = "bgsplay"

MAX_RANK = 1_000

CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"
# The time written when a play has a date and no time: noon stays on the same date in every
# time zone the app may read it in.
NOON = datetime.time(12, 0)
# Every uuid made for something that has none (a constant: the same thing gets the same uuid in
# every export).
NAMESPACE = uuid.UUID("6f1c2a1e-5b0e-4d43-9d6a-2f1e0b7c9a41")


def is_document(doc: Any) -> bool:
    """Whether ``doc`` (parsed JSON) looks like a BG Stats export or shared play: an object
    with ``plays`` and ``games`` or ``players``."""
    return isinstance(doc, dict) and "plays" in doc and ("games" in doc or "players" in doc)


def kind_of(doc: Mapping[str, Any]) -> str:
    """``bgsplay`` for a shared play (its ``about`` text, or a single play without the
    export's own lists), ``bgstats-export`` otherwise."""
    plays = doc.get("plays")
    export_only = ("challenges", "groups", "tags")
    if "about" in doc or (
        isinstance(plays, list) and len(plays) == 1 and not any(k in doc for k in export_only)
    ):
        return KIND_PLAY
    return KIND_EXPORT


# --- reading -------------------------------------------------------------------------------


@dataclass
class _Table:
    """One of the export's lists by id; each entry read once, when a play first refers to it."""

    name: str
    rows: dict[int | str, tuple[Mapping[str, Any], str]] = field(default_factory=dict)
    read: dict[int | str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: Mapping[str, Any], key: str) -> _Table:
        table = cls(key)
        rows = doc.get(key)
        if rows is None:
            return table
        if not isinstance(rows, list):
            raise FormatError("malformed", _("%(where)s is not a list") % {"where": key})
        for index, row in enumerate(rows):
            # An entry without an id no play can refer to: passed over.
            if isinstance(row, dict):
                ref = ref_id(row.get("id"))
                if ref is not None and ref not in table.rows:
                    table.rows[ref] = (row, f"{key}[{index}]")
        return table


@dataclass(frozen=True)
class _Game:
    game: ForeignGame
    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class _Player:
    ref: str | None
    name: str
    anonymous: bool


class _Reader:
    def __init__(self, doc: Mapping[str, Any]) -> None:
        self.games = _Table.of(doc, "games")
        self.players = _Table.of(doc, "players")
        self.locations = _Table.of(doc, "locations")

    def _cached(self, table: _Table, ref: int | str, build: Any) -> Any:
        if ref not in table.read:
            row, where = table.rows[ref]
            try:
                table.read[ref] = build(row, where)
            except Refused as refused:
                table.read[ref] = refused
        found = table.read[ref]
        if isinstance(found, Refused):
            raise found
        return found

    def game(self, value: Any, where: str) -> _Game:
        ref = ref_id(value)
        if ref is None or ref not in self.games.rows:
            raise Refused(
                "unknown_game_ref",
                _("its game (id %(ref)s) is not in the file") % {"ref": shown(str(value))},
            )
        found: _Game = self._cached(self.games, ref, self._read_game)
        return found

    def _read_game(self, row: Mapping[str, Any], where: str) -> _Game:
        if deleted(row):
            raise Refused("deleted", _("its game was deleted in the app"))
        name = text(row.get("name"), f"{where}.name").strip()
        if not name:
            raise Refused("malformed", _("%(where)s has no name") % {"where": where})
        problems: list[Problem] = []
        bgg_id = integer(row.get("bggId"), f"{where}.bggId")
        if bgg_id is not None and not 0 <= bgg_id <= MAX_BGG_ID:
            problems.append(
                Problem(
                    "bad_bgg_id",
                    _("the BoardGameGeek id %(id)s of %(game)s is out of range: left out")
                    % {"id": bgg_id, "game": shown(name)},
                )
            )
            bgg_id = None
        if flag(row.get("cooperative"), f"{where}.cooperative"):
            win = "cooperative"
        elif flag(row.get("noPoints"), f"{where}.noPoints"):
            win = "manual"
        elif flag(row.get("highestWins"), f"{where}.highestWins") is False:
            win = "lowest"
        else:
            win = "highest"
        game = ForeignGame(
            ref=external_ref(row.get("uuid"), f"{where}.uuid"),
            name=name,
            bgg_id=bgg_id or None,
            win=win,
            uses_teams=bool(flag(row.get("usesTeams"), f"{where}.usesTeams")),
        )
        return _Game(game, tuple(problems))

    def player(self, value: Any, seat: int) -> _Player:
        ref = ref_id(value)
        if ref is None or ref not in self.players.rows:
            raise Refused(
                "unknown_player_ref",
                _("its player at seat %(seat)s (id %(ref)s) is not in the file")
                % {"seat": seat + 1, "ref": shown(str(value))},
            )
        found: _Player = self._cached(self.players, ref, self._read_player)
        return found

    def _read_player(self, row: Mapping[str, Any], where: str) -> _Player:
        if deleted(row):
            raise Refused("deleted", _("one of its players was deleted in the app"))
        return _Player(
            ref=external_ref(row.get("uuid"), f"{where}.uuid"),
            name=text(row.get("name"), f"{where}.name").strip(),
            anonymous=bool(flag(row.get("isAnonymous"), f"{where}.isAnonymous")),
        )

    def location(self, value: Any, problems: list[Problem]) -> tuple[str | None, str]:
        ref = ref_id(value)
        if ref is None or ref == 0:
            return None, ""
        if ref not in self.locations.rows:
            problems.append(
                Problem(
                    "unknown_location_ref",
                    _("its location (id %(ref)s) is not in the file: left out")
                    % {"ref": shown(str(value))},
                )
            )
            return None, ""
        row, where = self.locations.rows[ref]
        if deleted(row):
            problems.append(
                Problem("location_deleted", _("its location was deleted in the app: left out"))
            )
            return None, ""
        try:
            location_ref = external_ref(row.get("uuid"), f"{where}.uuid")
        except Refused as refused:
            problems.append(Problem(refused.code, refused.message))
            return None, ""
        return location_ref, soft_text(row.get("name"), f"{where}.name", problems).strip()


def read_document(doc: Any, *, kind: str | None = None) -> PlayFile:
    """The plays of a parsed BG Stats export or shared play, and the ones skipped (each with a
    code). Raises ``FormatError`` (malformed) when the document's own structure is wrong: not
    an object, or ``plays``, ``games``, ``players`` or ``locations`` not a list."""
    if not isinstance(doc, dict):
        raise FormatError("malformed", _("a BG Stats file is a JSON object"))
    plays = doc.get("plays")
    if not isinstance(plays, list):
        raise FormatError("malformed", _("%(where)s is not a list") % {"where": "plays"})
    reader = _Reader(doc)
    found = PlayFile(app=APP, kind=kind or kind_of(doc))
    seen: set[str] = set()
    for index, raw in enumerate(plays):
        where = f"plays[{index}]"
        external_id = _play_id(raw)
        try:
            if not isinstance(raw, dict):
                raise malformed(where, "object")
            if external_id is None:
                raise Refused(
                    "no_id", _("%(where)s has no uuid the import can keep") % {"where": where}
                )
            if external_id in seen:
                raise Refused(
                    "duplicate",
                    _("another play of the file has the uuid %(id)s") % {"id": external_id},
                )
            seen.add(external_id)
            play = _read_play(reader, raw, where, external_id)
        except Refused as refused:
            found.skipped.append(Skipped(external_id, refused.code, refused.message))
            continue
        found.plays.append(play)
    return found


def _play_id(raw: Any) -> str | None:
    if not isinstance(raw, dict):
        return None
    value = raw.get("uuid")
    if not isinstance(value, str) or not is_text(value):
        return None
    value = value.strip()
    return value if 0 < len(value) <= MAX_ID_LENGTH else None


def _read_play(
    reader: _Reader, raw: Mapping[str, Any], where: str, external_id: str
) -> ForeignPlay:
    if deleted(raw):
        raise Refused("deleted", _("the play was deleted in the app"))
    played_on, played_time = parse_date(raw.get("playDate"), f"{where}.playDate")
    found = reader.game(raw.get("gameRefId"), f"{where}.gameRefId")
    game = found.game
    problems = list(found.problems)
    scores = raw.get("playerScores")
    if scores is None or scores == []:
        raise Refused("no_players", _("the play has no players"))
    if not isinstance(scores, list):
        raise malformed(f"{where}.playerScores", "list")
    if len(scores) > MAX_PLAYERS:
        raise Refused(
            "too_many_players",
            _("the play has %(count)s players; at most %(most)s")
            % {"count": len(scores), "most": MAX_PLAYERS},
        )
    teams = bool(flag(raw.get("usesTeams"), f"{where}.usesTeams"))
    seats = [
        _read_seat(reader, score, f"{where}.playerScores[{i}]", i, teams)
        for i, score in enumerate(scores)
    ]
    orders = [seat.order for seat in seats]
    if all(o is not None and o > 0 for o in orders) and len(set(orders)) == len(orders):
        seats.sort(key=lambda seat: seat.order or 0)
    players = tuple(seat.player for seat in seats)
    player_twice(players)
    for index, seat in enumerate(seats):  # numbered in the play's seat order
        problems.extend(replace(problem, seat=index) for problem in seat.problems)
    problems.extend(score_problems(players))
    value = raw.get("durationMin")
    if type(value) is int and not 0 <= value <= MAX_DURATION:  # past 64 bits too
        duration: int | None = value
    else:
        duration = integer(value, f"{where}.durationMin")
    if duration is not None and not 0 <= duration <= MAX_DURATION:
        problems.append(
            Problem(
                "bad_duration",
                _("the duration %(minutes)s is not a number of minutes: left out")
                % {"minutes": shown(str(duration))},
            )
        )
        duration = None
    location_ref, location = reader.location(raw.get("locationRefId"), problems)
    comments = soft_text(raw.get("comments"), f"{where}.comments", problems).strip()
    board = soft_text(raw.get("board"), f"{where}.board", problems).strip()
    play = ForeignPlay(
        app=APP,
        external_id=external_id,
        game=game,
        played_on=played_on,
        players=players,
        duration=duration or None,
        location_ref=location_ref,
        location=location,
        comments=comments,
        cooperative_won=(any(p.winner for p in players) if game.win == "cooperative" else None),
        incomplete=bool(flag(raw.get("ignored"), f"{where}.ignored")),
        problems=tuple(problems),
        played_time=played_time,
        board=board,
        manual_winner=bool(flag(raw.get("manualWinner"), f"{where}.manualWinner")),
    )
    return fingerprinted(play)


@dataclass(frozen=True)
class _Seat:
    order: int | None  # the file's seatOrder
    player: ForeignPlayer
    problems: list[Problem]


def _read_seat(reader: _Reader, raw: Any, where: str, index: int, teams: bool) -> _Seat:
    problems: list[Problem] = []
    if not isinstance(raw, dict):
        raise malformed(where, "object")
    player = reader.player(raw.get("playerRefId"), index)
    score = raw.get("score")
    if isinstance(score, int | float) and not isinstance(score, bool):
        score = str(score)  # the app writes text; a number is read as its text
    score_text = soft_text(score, f"{where}.score", problems).strip()
    rank = integer(raw.get("rank"), f"{where}.rank")
    if rank is not None and not 0 <= rank <= MAX_RANK:
        problems.append(
            Problem(
                "bad_rank",
                _("the rank of %(name)s, %(rank)s, is not a place: left out")
                % {"name": shown(player.name), "rank": rank},
            )
        )
        rank = None
    team: str | None = None
    if teams:
        value = raw.get("team")
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        team = soft_text(value, f"{where}.team", problems).strip() or None
    role = soft_text(raw.get("role"), f"{where}.role", problems).strip()
    if not role:
        role = soft_text(raw.get("teamRole"), f"{where}.teamRole", problems).strip()
    order = integer(raw.get("seatOrder"), f"{where}.seatOrder")
    found = ForeignPlayer(
        ref=player.ref,
        name=player.name,
        score=parse_score(score_text).value,
        score_text=score_text,
        rank=rank or None,
        winner=flag(raw.get("winner"), f"{where}.winner"),
        start_player=bool(flag(raw.get("startPlayer"), f"{where}.startPlayer")),
        team=team,
        anonymous=player.anonymous,
        new_player=bool(flag(raw.get("newPlayer"), f"{where}.newPlayer")),
        role=role,
    )
    return _Seat(order, found, problems)


# --- writing -------------------------------------------------------------------------------


def _datetime_text(value: datetime.datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M:%S")


def _play_date(play: ForeignPlay) -> str:
    time = play.played_time or NOON
    return f"{play.played_on.isoformat()} {time.strftime('%H:%M:%S')}"


def _stable_uuid(kind: str, ref: str | None, name: str) -> str:
    """``ref`` when it is a uuid (the app's own, given back as it wrote it); otherwise a
    name-based uuid of ``kind`` and ``ref`` (or the name, for something with no ref)."""
    if ref:
        try:
            uuid.UUID(ref)
        except ValueError:
            pass
        else:
            return ref
    key = f"{kind}/ref/{ref}" if ref else f"{kind}/name/{name.casefold()}"
    return str(uuid.uuid5(NAMESPACE, key))


def _score_out(player: ForeignPlayer) -> str:
    """The score as the app keeps it, text: the file's own text when it says the same (an
    expression stays one), the number otherwise; a text that was no number is given back."""
    if player.score is None:
        return player.score_text
    if player.score_text and parse_score(player.score_text).value == player.score:
        return player.score_text
    return str(player.score)


_WINS = {
    # win: (highestWins, noPoints, cooperative)
    "highest": (True, False, False),
    "lowest": (False, False, False),
    "manual": (True, True, False),
    "cooperative": (True, False, True),
}


def export_document(
    plays: Iterable[ForeignPlay],
    *,
    modified: datetime.datetime | None = None,
    me: str | None = None,
) -> dict[str, Any]:
    """A ``BGStatsExport.json`` (as a dict, for ``json.dump``) holding ``plays``, which the
    app imports.

    The app's ids are the refs the plays carry: ``game.ref``, each player's ``ref``,
    ``location_ref``, and ``external_id`` for the play itself. A ref that is a uuid is written
    as it is (a play read from the app goes back with the app's own uuids); anything else
    (None, a BoardGameGeek ref) gets a uuid made from it, or from the name, the same in every
    export. A game, player or location is written once, as its first play has it; numeric
    ids count from 1 in order of first appearance. A play with no time is written at noon
    (the same date in every time zone); a seat whose winning is not said, as not winning (in
    a cooperative play, as the table's outcome); a score as its text when the text says the
    same (an expression stays one). ``modified`` (default: now, UTC) is every object's
    modification date; ``me`` is the ref of the player who is the app's user, if any.
    """
    stamp = _datetime_text(modified or datetime.datetime.now(datetime.UTC))
    games: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    written: list[dict[str, Any]] = []
    plays = list(plays)
    scored_games = {
        _stable_uuid("game", p.game.ref, p.game.name)
        for p in plays
        if any(s.score is not None for s in p.players)
    }

    for play in plays:
        game_uuid = _stable_uuid("game", play.game.ref, play.game.name)
        if game_uuid not in games:
            highest, no_points, cooperative = _WINS.get(play.game.win, _WINS["highest"])
            if cooperative:
                no_points = game_uuid not in scored_games
            games[game_uuid] = {
                "id": len(games) + 1,
                "uuid": game_uuid,
                "name": play.game.name,
                "modificationDate": stamp,
                "bggId": play.game.bgg_id or 0,
                "bggName": play.game.name if play.game.bgg_id else "",
                "bggYear": 0,
                "highestWins": highest,
                "noPoints": no_points,
                "cooperative": cooperative,
                "usesTeams": play.game.uses_teams,
                "isBaseGame": True,
                "isExpansion": False,
            }
        location_id = None
        if play.location:
            location_uuid = _stable_uuid("location", play.location_ref, play.location)
            if location_uuid not in locations:
                locations[location_uuid] = {
                    "id": len(locations) + 1,
                    "uuid": location_uuid,
                    "name": play.location,
                    "modificationDate": stamp,
                }
            location_id = locations[location_uuid]["id"]
        uses_teams = any(p.team is not None for p in play.players)
        scores = []
        for seat, player in enumerate(play.players):
            player_uuid = _stable_uuid("player", player.ref, player.name)
            if player_uuid not in players:
                players[player_uuid] = {
                    "id": len(players) + 1,
                    "uuid": player_uuid,
                    "name": player.name,
                    "isAnonymous": player.anonymous,
                    "bggUsername": "",
                    "modificationDate": stamp,
                }
            winner = player.winner
            if winner is None:
                winner = bool(play.cooperative_won)
            entry: dict[str, Any] = {
                "playerRefId": players[player_uuid]["id"],
                "score": _score_out(player),
                "winner": winner,
                "newPlayer": player.new_player,
                "startPlayer": player.start_player,
                "rank": player.rank or 0,
                "seatOrder": seat + 1,
                "role": player.role,
                "teamRole": "",
            }
            if uses_teams and player.team is not None:
                entry["team"] = player.team
            scores.append(entry)
        out: dict[str, Any] = {
            "uuid": _stable_uuid(f"play/{play.app}", play.external_id, ""),
            "modificationDate": stamp,
            "entryDate": stamp,
            "playDate": _play_date(play),
            "usesTeams": uses_teams,
            "durationMin": play.duration or 0,
            "ignored": play.incomplete,
            "manualWinner": play.manual_winner,
            "rounds": 0,
            "bggId": 0,
            "gameRefId": games[game_uuid]["id"],
            "board": play.board,
            "scoringSetting": 0,
            "rating": 0,
            "comments": play.comments,
            "playerScores": scores,
            "expansionPlays": [],
        }
        if location_id is not None:
            out["locationRefId"] = location_id
        written.append(out)

    user: dict[str, Any] = {}
    if me is not None:
        for player_uuid, entry in players.items():
            if player_uuid == _stable_uuid("player", me, ""):
                user["meRefId"] = entry["id"]
    return {
        "userInfo": user,
        "games": list(games.values()),
        "players": list(players.values()),
        "locations": list(locations.values()),
        "plays": written,
        "challenges": [],
        "groups": [],
        "tags": [],
    }


def create_play_payload(
    play: ForeignPlay, *, source_name: str, source_play_id: str
) -> dict[str, Any]:
    """The JSON of ``create_play_url``: the app's push format (``sourceName``,
    ``sourcePlayId``, ``playDate``, ``game`` and ``players``, then what the play has of
    ``durationMin``, ``location``, ``comments``, ``board``)."""
    highest, no_points, _cooperative = _WINS.get(play.game.win, _WINS["highest"])
    if play.game.win == "cooperative":
        no_points = all(p.score is None for p in play.players)
    game: dict[str, Any] = {
        "name": play.game.name,
        "sourceGameId": play.game.ref or _game_source_id(play.game),
        "highestWins": highest,
        "noPoints": no_points,
    }
    if play.game.bgg_id:
        game["bggId"] = play.game.bgg_id
    players = []
    for player in play.players:
        winner = player.winner
        if winner is None:
            winner = bool(play.cooperative_won)
        entry: dict[str, Any] = {
            "name": player.name,
            "sourcePlayerId": player.ref or f"name:{player.name.casefold()}",
            "winner": winner,
            "startPlayer": player.start_player,
        }
        if player.score is not None:
            entry["score"] = player.score
        if player.rank is not None:
            entry["rank"] = player.rank
        if player.role:
            entry["role"] = player.role
        if player.team is not None:
            entry["team"] = player.team
        players.append(entry)
    payload: dict[str, Any] = {
        "sourceName": source_name,
        "sourcePlayId": source_play_id,
        "playDate": _play_date(play),
        "game": game,
        "players": players,
    }
    if play.duration:
        payload["durationMin"] = play.duration
    if play.location:
        payload["location"] = play.location
    if play.comments:
        payload["comments"] = play.comments
    if play.board:
        payload["board"] = play.board
    return payload


def _game_source_id(game: ForeignGame) -> str:
    return f"bgg:{game.bgg_id}" if game.bgg_id else f"name:{game.name.casefold()}"


def create_play_url(play: ForeignPlay, *, source_name: str, source_play_id: str) -> str:
    """BG Stats' documented push link for one play: ``createPlay.html?data=`` and the play as
    URL-encoded JSON (``create_play_payload``). Opened on a phone with the app, it shows the
    play for the player to match and save. A player's or game's ref is its source id (the
    name when it has none), so the app remembers the match for the next play."""
    payload = create_play_payload(play, source_name=source_name, source_play_id=source_play_id)
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"{CREATE_PLAY_URL}?data={urllib.parse.quote(text, safe='')}"
