"""BG Stats out: the export file the app imports and the createPlay push link, from the
neutral plays; and the round trip (our export read back gives the same plays)."""

from __future__ import annotations

import datetime
import json
import urllib.parse
import uuid
from dataclasses import replace
from pathlib import Path

from games.exchange.formats import bgstats
from games.exchange.formats.detect import read_play_file
from games.exchange.formats.plays import ForeignGame, ForeignPlay, ForeignPlayer, PlayFile

FILES = Path(__file__).parent / "files"
MODIFIED = datetime.datetime(2024, 1, 2, 3, 4, 5)

ANNA = "5c6d7e8f-0a1b-4c2d-9e3f-4a5b6c7d8e01"
BRUNO = "5c6d7e8f-0a1b-4c2d-9e3f-4a5b6c7d8e02"
GAME = "0b3f4c2e-6d1a-4a57-9c1e-2f8b7d6a5e01"
PLACE = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c01"
PLAY = "e1d2c3b4-a596-4877-8899-aabbccdd0001"

WINGSPAN = ForeignGame(GAME, "Wingspan", 266192, "highest")


def read(data: bytes) -> PlayFile:
    found = read_play_file(data)
    assert isinstance(found, PlayFile)
    return found


def two_plays() -> list[ForeignPlay]:
    first = ForeignPlay(
        app="bgstats",
        external_id=PLAY,
        game=WINGSPAN,
        played_on=datetime.date(2023, 3, 4),
        played_time=datetime.time(20, 15),
        players=(
            ForeignPlayer(ANNA, "Anna", 87, "80+7", 1, True, start_player=True),
            ForeignPlayer(BRUNO, "Bruno", None, "12.5", 2, False, new_player=True, role="Gufi"),
        ),
        duration=75,
        location_ref=PLACE,
        location="Casa di Anna",
        comments="Prima partita",
    )
    # One of our games, with no app uuid for its play, a player or the game: made from them.
    second = ForeignPlay(
        app="bgstats",
        external_id="our-game-17",
        game=ForeignGame(None, "Complots", 131357, "manual"),
        played_on=datetime.date(2023, 3, 5),
        players=(
            ForeignPlayer(ANNA, "Anna", None, "", 2, False, team="1"),
            ForeignPlayer(None, "Chiara", None, "", 1, True, team="2"),
        ),
    )
    return [first, second]


def made(kind: str, key: str) -> str:
    """The name-based uuid the writer documents for something with no uuid of its own."""
    return str(uuid.uuid5(bgstats.NAMESPACE, f"{kind}/{key}"))


def test_export_document_is_the_apps_file_written_by_hand() -> None:
    doc = bgstats.export_document(two_plays(), modified=MODIFIED, me=ANNA)
    stamp = "2024-01-02 03:04:05"
    complots = made("game", "name/complots")
    chiara = made("player", "name/chiara")
    game_base = {"bggYear": 0, "isBaseGame": True, "isExpansion": False, "modificationDate": stamp}
    assert doc == {
        "userInfo": {"meRefId": 1},
        "games": [
            {
                "id": 1,
                "uuid": GAME,
                "name": "Wingspan",
                "bggId": 266192,
                "bggName": "Wingspan",
                "highestWins": True,
                "noPoints": False,
                "cooperative": False,
                "usesTeams": False,
                **game_base,
            },
            {
                "id": 2,
                "uuid": complots,
                "name": "Complots",
                "bggId": 131357,
                "bggName": "Complots",
                "highestWins": True,
                "noPoints": True,
                "cooperative": False,
                "usesTeams": False,
                **game_base,
            },
        ],
        "players": [
            {
                "id": 1,
                "uuid": ANNA,
                "name": "Anna",
                "isAnonymous": False,
                "bggUsername": "",
                "modificationDate": stamp,
            },
            {
                "id": 2,
                "uuid": BRUNO,
                "name": "Bruno",
                "isAnonymous": False,
                "bggUsername": "",
                "modificationDate": stamp,
            },
            {
                "id": 3,
                "uuid": chiara,
                "name": "Chiara",
                "isAnonymous": False,
                "bggUsername": "",
                "modificationDate": stamp,
            },
        ],
        "locations": [
            {"id": 1, "uuid": PLACE, "name": "Casa di Anna", "modificationDate": stamp},
        ],
        "plays": [
            {
                "uuid": PLAY,
                "modificationDate": stamp,
                "entryDate": stamp,
                "playDate": "2023-03-04 20:15:00",
                "usesTeams": False,
                "durationMin": 75,
                "ignored": False,
                "manualWinner": False,
                "rounds": 0,
                "bggId": 0,
                "gameRefId": 1,
                "locationRefId": 1,
                "board": "",
                "scoringSetting": 0,
                "rating": 0,
                "comments": "Prima partita",
                "expansionPlays": [],
                "playerScores": [
                    # An expression is given back as written; a text that was no number too.
                    {
                        "playerRefId": 1,
                        "score": "80+7",
                        "winner": True,
                        "newPlayer": False,
                        "startPlayer": True,
                        "rank": 1,
                        "seatOrder": 1,
                        "role": "",
                        "teamRole": "",
                    },
                    {
                        "playerRefId": 2,
                        "score": "12.5",
                        "winner": False,
                        "newPlayer": True,
                        "startPlayer": False,
                        "rank": 2,
                        "seatOrder": 2,
                        "role": "Gufi",
                        "teamRole": "",
                    },
                ],
            },
            {
                "uuid": made("play/bgstats", "ref/our-game-17"),
                "modificationDate": stamp,
                "entryDate": stamp,
                # No time given: noon, the same date in every time zone.
                "playDate": "2023-03-05 12:00:00",
                "usesTeams": True,
                "durationMin": 0,
                "ignored": False,
                "manualWinner": False,
                "rounds": 0,
                "bggId": 0,
                "gameRefId": 2,
                "board": "",
                "scoringSetting": 0,
                "rating": 0,
                "comments": "",
                "expansionPlays": [],
                "playerScores": [
                    {
                        "playerRefId": 1,
                        "score": "",
                        "winner": False,
                        "newPlayer": False,
                        "startPlayer": False,
                        "rank": 2,
                        "seatOrder": 1,
                        "role": "",
                        "teamRole": "",
                        "team": "1",
                    },
                    {
                        "playerRefId": 3,
                        "score": "",
                        "winner": True,
                        "newPlayer": False,
                        "startPlayer": False,
                        "rank": 1,
                        "seatOrder": 2,
                        "role": "",
                        "teamRole": "",
                        "team": "2",
                    },
                ],
            },
        ],
        "challenges": [],
        "groups": [],
        "tags": [],
    }
    json.dumps(doc)  # writes as JSON


def test_the_same_plays_get_the_same_ids_in_every_export() -> None:
    first = bgstats.export_document(two_plays(), modified=MODIFIED)
    again = bgstats.export_document(two_plays(), modified=MODIFIED)
    assert first == again
    assert first["userInfo"] == {}


def test_win_settings_are_written_as_the_app_keeps_them() -> None:
    rows = {}
    for win in ("highest", "lowest", "manual", "cooperative"):
        play = replace(two_plays()[1], game=ForeignGame(f"g-{win}", win, None, win))
        game = bgstats.export_document([play], modified=MODIFIED)["games"][0]
        rows[win] = (game["highestWins"], game["noPoints"], game["cooperative"], game["bggId"])
    assert rows == {
        "highest": (True, False, False, 0),
        "lowest": (False, False, False, 0),
        "manual": (True, True, False, 0),
        "cooperative": (True, True, True, 0),  # no play of it has scores
    }


def test_a_cooperative_play_gives_every_seat_its_outcome() -> None:
    lost = replace(
        two_plays()[1],
        game=ForeignGame("coop", "Pandemic", 30549, "cooperative"),
        players=tuple(replace(p, winner=None, team=None) for p in two_plays()[1].players),
        cooperative_won=True,
    )
    doc = bgstats.export_document([lost], modified=MODIFIED)
    assert [s["winner"] for s in doc["plays"][0]["playerScores"]] == [True, True]


def test_our_export_read_back_gives_the_same_plays() -> None:
    """The app's own files, through our writer and reader: the same plays, fingerprints and
    all (the app's uuids are kept, so the import would find every play again)."""
    for name in ("BGStatsExport.json", "BGStatsExport-old.json", "serata-azul.bgsplay"):
        plays = read((FILES / name).read_bytes()).plays
        doc = bgstats.export_document(plays, modified=MODIFIED)
        back = read(json.dumps(doc).encode())
        assert back.skipped == []
        assert back.plays == plays


def test_plays_from_boardgamegeek_exported_and_read_back() -> None:
    """A BoardGameGeek play has no uuids: the writer makes them from its refs, the read gives
    them back, and everything the play holds is the same; noon is its time."""
    plays = read((FILES / "bgg-plays.xml").read_bytes()).plays
    back = read(json.dumps(bgstats.export_document(plays, modified=MODIFIED)).encode()).plays
    assert len(back) == len(plays) == 5
    for before, after in zip(plays, back, strict=True):
        assert after.external_id == made("play/bgg", f"ref/{before.external_id}")
        assert after.game == replace(before.game, ref=made("game", f"ref/{before.game.ref}"))
        assert after.played_on == before.played_on and after.played_time == datetime.time(12)
        refs = [
            made("player", f"ref/{p.ref}" if p.ref else f"name/{p.name.casefold()}")
            for p in before.players
        ]
        assert after.players == tuple(
            replace(p, ref=ref) for p, ref in zip(before.players, refs, strict=True)
        )
        assert (after.duration, after.location, after.comments, after.incomplete) == (
            before.duration,
            before.location,
            before.comments,
            before.incomplete,
        )
    # The one problem of the file that is no score's (quantity) stays with BoardGameGeek.
    assert [p.code for p in plays[1].problems] == ["quantity"]
    assert back[1].problems == ()


def decoded(url: str) -> dict[str, object]:
    base, _, query = url.partition("?")
    assert base == "https://app.bgstatsapp.com/createPlay.html"
    params = urllib.parse.parse_qs(query, strict_parsing=True)
    assert list(params) == ["data"] and len(params["data"]) == 1
    data: dict[str, object] = json.loads(params["data"][0])
    return data


def test_create_play_url_decoded_is_the_push_format_written_by_hand() -> None:
    url = bgstats.create_play_url(two_plays()[0], source_name="potdevin", source_play_id="g-42")
    assert " " not in url and "{" not in url and "&" not in url
    assert decoded(url) == {
        "sourceName": "potdevin",
        "sourcePlayId": "g-42",
        "playDate": "2023-03-04 20:15:00",
        "durationMin": 75,
        "location": "Casa di Anna",
        "comments": "Prima partita",
        "game": {
            "name": "Wingspan",
            "bggId": 266192,
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": GAME,
        },
        "players": [
            {
                "name": "Anna",
                "sourcePlayerId": ANNA,
                "score": 87,
                "winner": True,
                "startPlayer": True,
                "rank": 1,
            },
            {
                "name": "Bruno",
                "sourcePlayerId": BRUNO,
                "winner": False,
                "startPlayer": False,
                "rank": 2,
                "role": "Gufi",
            },
        ],
    }


def test_create_play_url_of_a_game_with_no_ids_names_them() -> None:
    play = replace(
        two_plays()[1],
        comments="Partita & rivincita? 100% \u00e8 \U0001f3b2",
        board="Mappa #2",
    )
    data = decoded(bgstats.create_play_url(play, source_name="potdevin", source_play_id="17"))
    assert data == {
        "sourceName": "potdevin",
        "sourcePlayId": "17",
        "playDate": "2023-03-05 12:00:00",
        "comments": "Partita & rivincita? 100% \u00e8 \U0001f3b2",
        "board": "Mappa #2",
        "game": {
            "name": "Complots",
            "bggId": 131357,
            "highestWins": True,
            "noPoints": True,
            "sourceGameId": "bgg:131357",
        },
        "players": [
            {
                "name": "Anna",
                "sourcePlayerId": ANNA,
                "winner": False,
                "startPlayer": False,
                "rank": 2,
                "team": "1",
            },
            {
                "name": "Chiara",
                "sourcePlayerId": "name:chiara",
                "winner": True,
                "startPlayer": False,
                "rank": 1,
                "team": "2",
            },
        ],
    }
