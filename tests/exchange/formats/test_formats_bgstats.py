"""BG Stats' export and shared play, read from realistic files built by hand
(tests/exchange/formats/files/) into the plays written out here by hand."""

from __future__ import annotations

import copy
import datetime
import hashlib
import io
import json
import zipfile
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation

from games.exchange.formats import bgstats
from games.exchange.formats.detect import read_play_file
from games.exchange.formats.plays import (
    ForeignGame,
    ForeignPlay,
    ForeignPlayer,
    FormatError,
    PlayFile,
    Problem,
    Skipped,
    play_fingerprint,
)

FILES = Path(__file__).parent / "files"

ANNA = "5c6d7e8f-0a1b-4c2d-9e3f-4a5b6c7d8e01"
BRUNO = "5c6d7e8f-0a1b-4c2d-9e3f-4a5b6c7d8e02"
CHIARA = "5c6d7e8f-0a1b-4c2d-9e3f-4a5b6c7d8e03"
DARIO = "5c6d7e8f-0a1b-4c2d-9e3f-4a5b6c7d8e04"
ANONYMOUS = "5c6d7e8f-0a1b-4c2d-9e3f-4a5b6c7d8e05"
CASA = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c01"
LUDOTECA = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c02"

WINGSPAN = ForeignGame("0b3f4c2e-6d1a-4a57-9c1e-2f8b7d6a5e01", "Wingspan", 266192, "highest")
PANDEMIC = ForeignGame("0b3f4c2e-6d1a-4a57-9c1e-2f8b7d6a5e02", "Pandemic", 30549, "cooperative")
CODENAMES = ForeignGame(
    "0b3f4c2e-6d1a-4a57-9c1e-2f8b7d6a5e03", "Codenames", 178900, "manual", uses_teams=True
)
HEARTS = ForeignGame("0b3f4c2e-6d1a-4a57-9c1e-2f8b7d6a5e04", "Hearts", 6887, "lowest")
COUP = ForeignGame("0b3f4c2e-6d1a-4a57-9c1e-2f8b7d6a5e05", "Coup", 131357, "manual")
BRUGES = ForeignGame("0b3f4c2e-6d1a-4a57-9c1e-2f8b7d6a5e06", "Bruges", 136888, "highest")


def seat(
    ref: str,
    name: str,
    score: int | None = None,
    text: str = "",
    rank: int | None = None,
    winner: bool | None = False,
    **more: Any,
) -> ForeignPlayer:
    return ForeignPlayer(ref, name, score, text, rank, winner, **more)


def play(uuid_end: str, game: ForeignGame, when: str, players: tuple, **more: Any) -> ForeignPlay:
    moment = datetime.datetime.strptime(when, "%Y-%m-%d %H:%M")
    return ForeignPlay(
        app="bgstats",
        external_id=f"e1d2c3b4-a596-4877-8899-aabbccdd{uuid_end}",
        game=game,
        played_on=moment.date(),
        played_time=moment.time(),
        players=players,
        **more,
    )


# The export's eight plays it can read, as a person reads them in the file.
EXPECTED_PLAYS = [
    # Seats listed 2, 3, 1 in the file: read in seat order. Chiara's 10+25+30+4 is 69.
    play(
        "0001",
        WINGSPAN,
        "2023-03-04 20:15",
        (
            seat(ANNA, "Anna", 87, "87", 1, True),
            seat(BRUNO, "Bruno", 72, "72", 2, False, start_player=True),
            seat(CHIARA, "Chiara", 69, "10+25+30+4", 3, False),
        ),
        duration=75,
        location_ref=CASA,
        location="Casa di Anna",
        comments="Prima partita con l'espansione europea",
    ),
    # A tie: two winners, both ranked first; Dario's first play.
    play(
        "0002",
        WINGSPAN,
        "2023-03-04 22:50",
        (
            seat(ANNA, "Anna", 80, "80", 1, True, start_player=True),
            seat(BRUNO, "Bruno", 80, "80", 1, True),
            seat(DARIO, "Dario", 61, "61", 3, False, new_player=True),
        ),
        duration=60,
        location_ref=CASA,
        location="Casa di Anna",
        comments="Pareggio!",
    ),
    # Cooperative, won: every seat a winner; roles kept; rank 0 is no rank.
    play(
        "0003",
        PANDEMIC,
        "2023-03-11 21:00",
        (
            seat(ANNA, "Anna", winner=True, start_player=True, role="Medico"),
            seat(BRUNO, "Bruno", winner=True, role="Scienziata"),
            seat(CHIARA, "Chiara", winner=True, role="Ricercatrice"),
        ),
        duration=50,
        location_ref=LUDOTECA,
        location="Ludoteca Centrale",
        cooperative_won=True,
    ),
    # Cooperative, lost; durationMin 0 is no duration.
    play(
        "0004",
        PANDEMIC,
        "2023-03-11 22:10",
        (seat(ANNA, "Anna"), seat(CHIARA, "Chiara", start_player=True)),
        location_ref=LUDOTECA,
        location="Ludoteca Centrale",
        comments="Epidemia a Milano",
        cooperative_won=False,
    ),
    # Teams, winners marked by hand; teamRole read as the role.
    play(
        "0005",
        CODENAMES,
        "2023-03-18 20:45",
        (
            seat(ANNA, "Anna", winner=True, start_player=True, team="Rossi", role="Capo spia"),
            seat(BRUNO, "Bruno", team="Blu", role="Capo spia"),
            seat(CHIARA, "Chiara", winner=True, team="Rossi"),
            seat(DARIO, "Dario", team="Blu"),
        ),
        duration=20,
        location_ref=CASA,
        location="Casa di Anna",
        manual_winner=True,
    ),
    # Lowest wins; a decimal and a word are no scores, each reported with its seat.
    play(
        "0006",
        HEARTS,
        "2023-04-01 21:30",
        (
            seat(ANNA, "Anna", 23, "23", 2, False, start_player=True),
            seat(BRUNO, "Bruno", None, "12.5", 1, True),
            seat(CHIARA, "Chiara", None, "quindici", None, False),
            seat(DARIO, "Dario", 45, "45", 4, False),
        ),
        duration=90,
        location_ref=CASA,
        location="Casa di Anna",
        problems=(
            Problem(
                "score_not_integer",
                "the score of Bruno, “12.5”, is not a whole number: left out",
                seat=1,
            ),
            Problem(
                "score_unreadable",
                "the score of Chiara, “quindici”, cannot be read: left out",
                seat=2,
            ),
        ),
    ),
    # The anonymous player at two seats (one person-less entry of the app, used twice).
    play(
        "0007",
        COUP,
        "2023-04-08 19:30",
        (
            seat(ANNA, "Anna", start_player=True),
            seat(ANONYMOUS, "Anonymous", winner=True, anonymous=True, new_player=True),
            seat(ANONYMOUS, "Anonymous", anonymous=True, new_player=True),
        ),
        duration=15,
        location_ref=LUDOTECA,
        location="Ludoteca Centrale",
        comments="Con due ospiti della ludoteca",
    ),
    # Ignored for statistics (read as incomplete), a board, a winner marked by hand.
    play(
        "0014",
        BRUGES,
        "2023-04-15 20:00",
        (
            seat(ANNA, "Anna", 31, "31"),
            seat(DARIO, "Dario", 28, "28", winner=True, start_player=True),
        ),
        duration=120,
        location_ref=CASA,
        location="Casa di Anna",
        comments="Interrotta: Dario doveva andare",
        incomplete=True,
        board="Plancia invernale",
        manual_winner=True,
    ),
]

EXPECTED_SKIPPED = [
    Skipped("e1d2c3b4-a596-4877-8899-aabbccdd0008", "deleted", "its game was deleted in the app"),
    Skipped(
        "e1d2c3b4-a596-4877-8899-aabbccdd0009",
        "deleted",
        "one of its players was deleted in the app",
    ),
    Skipped(
        "e1d2c3b4-a596-4877-8899-aabbccdd0010",
        "unknown_game_ref",
        "its game (id 99) is not in the file",
    ),
    Skipped("e1d2c3b4-a596-4877-8899-aabbccdd0011", "no_players", "the play has no players"),
    Skipped(
        "e1d2c3b4-a596-4877-8899-aabbccdd0012",
        "bad_date",
        "plays[11].playDate, 2023-02-30 21:00:00, is not a date",
    ),
    Skipped("e1d2c3b4-a596-4877-8899-aabbccdd0013", "deleted", "the play was deleted in the app"),
    Skipped(
        "e1d2c3b4-a596-4877-8899-aabbccdd0015",
        "unknown_player_ref",
        "its player at seat 2 (id 42) is not in the file",
    ),
]


def without_fingerprints(plays: list[ForeignPlay]) -> list[ForeignPlay]:
    return [replace(p, fingerprint="") for p in plays]


def read(name: str) -> PlayFile:
    with translation.override("en"):
        found = read_play_file((FILES / name).read_bytes(), filename=name)
    assert isinstance(found, PlayFile)
    return found


def test_export_reads_to_the_plays_written_by_hand() -> None:
    found = read("BGStatsExport.json")
    assert (found.app, found.kind) == ("bgstats", "bgstats-export")
    assert without_fingerprints(found.plays) == EXPECTED_PLAYS
    assert found.skipped == EXPECTED_SKIPPED


def test_every_play_has_a_fingerprint_of_what_it_holds() -> None:
    found = read("BGStatsExport.json")
    for play in found.plays:
        assert len(play.fingerprint) == 64 and int(play.fingerprint, 16) >= 0
    assert len({p.fingerprint for p in found.plays}) == len(found.plays)


def test_old_export_with_metadata_as_json_strings_reads_the_same() -> None:
    old = read("BGStatsExport-old.json")
    new = read("BGStatsExport.json")
    # The file was built from the new one with every metaData object written as a JSON string.
    text = (FILES / "BGStatsExport-old.json").read_text()
    assert '"metaData": "{\\"AcquiredFrom\\"' in text
    assert old.plays == new.plays  # fingerprints too: the same plays
    assert old.skipped == new.skipped


def test_zipped_export_reads_the_same() -> None:
    assert zipfile.is_zipfile(FILES / "BGStatsExport.zip")
    zipped = read("BGStatsExport.zip")
    assert zipped.plays == read("BGStatsExport.json").plays
    assert zipped.kind == "bgstats-export"


def test_shared_play_reads_to_its_one_play() -> None:
    found = read("serata-azul.bgsplay")
    assert (found.app, found.kind) == ("bgstats", "bgsplay")
    assert found.skipped == []
    assert without_fingerprints(found.plays) == [
        ForeignPlay(
            app="bgstats",
            external_id="f0e1d2c3-b4a5-4697-8899-aabbccdd0101",
            game=ForeignGame("2c1b0a9f-8e7d-4c6b-a5f4-e3d2c1b0a912", "Azul", 230802),
            played_on=datetime.date(2023, 5, 6),
            played_time=datetime.time(21, 40),
            players=(
                seat(
                    "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f08",
                    "Elena",
                    58,
                    "58",
                    2,
                    False,
                    start_player=True,
                    new_player=True,
                ),
                seat(ANNA, "Anna", 64, "64", 1, True),
            ),
            duration=35,
            location_ref="9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c03",
            location="Bar Sport",
            comments="Rivincita la prossima settimana",
        )
    ]


def test_zipped_shared_play_reads_the_same() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("serata-azul.bgsplay", (FILES / "serata-azul.bgsplay").read_bytes())
    found = read_play_file(buffer.getvalue())
    assert isinstance(found, PlayFile)
    assert found.kind == "bgsplay"
    assert found.plays == read("serata-azul.bgsplay").plays


# --- fingerprints ----------------------------------------------------------------------------


def export() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((FILES / "BGStatsExport.json").read_text())
    return doc


def read_doc(doc: Any) -> PlayFile:
    return read_play_file(json.dumps(doc).encode())  # type: ignore[return-value]


def test_an_edited_play_has_another_fingerprint_and_the_others_keep_theirs() -> None:
    before = read_doc(export())
    doc = export()
    doc["plays"][0]["playerScores"][0]["score"] = "73"  # Bruno's 72, corrected in the app
    doc["plays"][0]["modificationDate"] = "2023-03-05 09:00:00"
    after = read_doc(doc)
    assert after.plays[0].players[1].score == 73
    assert after.plays[0].fingerprint != before.plays[0].fingerprint
    assert [p.fingerprint for p in after.plays[1:]] == [p.fingerprint for p in before.plays[1:]]


def test_only_a_modification_date_changed_keeps_the_fingerprint() -> None:
    doc = export()
    for play in doc["plays"]:
        play["modificationDate"] = "2024-01-01 00:00:00"
    assert read_doc(doc).plays == read_doc(export()).plays


def test_a_player_renamed_in_the_app_changes_the_fingerprint_of_their_plays() -> None:
    doc = export()
    doc["players"][3]["name"] = "Dario R."  # Dario plays in 0002, 0005, 0006, 0014
    before = {p.external_id[-4:]: p.fingerprint for p in read_doc(export()).plays}
    after = {p.external_id[-4:]: p.fingerprint for p in read_doc(doc).plays}
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"0002", "0005", "0006", "0014"}


def test_the_fingerprint_does_not_depend_on_the_readers_language() -> None:
    with translation.override("it"):
        italian = read_play_file((FILES / "BGStatsExport.json").read_bytes())
    assert isinstance(italian, PlayFile)
    english = read("BGStatsExport.json")
    assert [p.fingerprint for p in italian.plays] == [p.fingerprint for p in english.plays]


def test_fingerprint_is_the_sha256_of_the_canonical_json_of_the_play() -> None:
    one = ForeignPlay(
        app="bgstats",
        external_id="p1",
        game=ForeignGame("g", "Azul", None),
        played_on=datetime.date(2023, 5, 6),
        players=(ForeignPlayer("a", "Anna", 5, "5", 1, True),),
        problems=(Problem("quantity", "words in any language"),),
    )
    # Written out by hand: keys sorted, no spaces, a problem as [code, seat].
    canonical = (
        '{"app":"bgstats","board":"","comments":"","cooperative_won":null,"duration":null,'
        '"external_id":"p1","game":{"bgg_id":null,"name":"Azul","ref":"g","uses_teams":false,'
        '"win":"highest"},"incomplete":false,"location":"","location_ref":null,'
        '"manual_winner":false,"played_on":"2023-05-06","played_time":null,'
        '"players":[{"anonymous":false,"name":"Anna","new_player":false,"rank":1,"ref":"a",'
        '"role":"","score":5,"score_text":"5","start_player":false,"team":null,"winner":true}],'
        '"problems":[["quantity",null]]}'
    )
    assert play_fingerprint(one) == hashlib.sha256(canonical.encode()).hexdigest()


# --- what a play cannot do without, and what it can ----------------------------------------------


def one_play(**changes: Any) -> dict[str, Any]:
    """The export with its first play changed (``changes`` on the play)."""
    doc = export()
    doc["plays"] = [dict(doc["plays"][0], **changes)]
    return doc


def skipped_code(doc: Any) -> str:
    found = read_doc(doc)
    assert found.plays == [] and len(found.skipped) == 1
    return found.skipped[0].code


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        ({"uuid": None}, "no_id"),
        ({"uuid": ""}, "no_id"),
        ({"uuid": "x" * 65}, "no_id"),
        ({"playDate": None}, "bad_date"),
        ({"playDate": "04/03/2023"}, "bad_date"),
        ({"playDate": 20230304}, "bad_date"),
        ({"gameRefId": None}, "unknown_game_ref"),
        ({"gameRefId": "1"}, "unknown_game_ref"),
        ({"playerScores": None}, "no_players"),
        ({"playerScores": {"0": {}}}, "malformed"),
        ({"playerScores": [None]}, "malformed"),
        ({"playerScores": [{"playerRefId": 1, "winner": "yes"}]}, "malformed"),
        ({"playerScores": [{"playerRefId": 1, "seatOrder": 2**64 + 1}]}, "out_of_range"),
        ({"playerScores": [{"playerRefId": 1}] * 101}, "too_many_players"),
        ({"playerScores": [{"playerRefId": 1}, {"playerRefId": 1}]}, "player_twice"),
        ({"durationMin": "75"}, "malformed"),
        ({"ignored": "no"}, "malformed"),
        ({"isDeleted": True}, "deleted"),
    ],
)
def test_a_play_it_cannot_read_is_skipped_with_its_code(changes: dict[str, Any], code: str) -> None:
    assert skipped_code(one_play(**changes)) == code


def test_two_plays_with_one_uuid_keep_the_first() -> None:
    doc = export()
    doc["plays"] = [doc["plays"][0], dict(doc["plays"][1], uuid=doc["plays"][0]["uuid"])]
    found = read_doc(doc)
    assert [p.external_id[-4:] for p in found.plays] == ["0001"]
    assert [s.code for s in found.skipped] == ["duplicate"]


@pytest.mark.parametrize(
    ("where", "value", "code"),
    [
        (("players", 0, "name"), "An\x00na", "invalid_text"),
        (("players", 0, "name"), "\ud800nna", "invalid_text"),
        (("players", 0, "name"), 7, "malformed"),
        (("players", 0, "uuid"), "u" * 65, "malformed"),
        (("games", 0, "name"), "", "malformed"),
        (("games", 0, "name"), None, "malformed"),
        (("games", 0, "cooperative"), "false", "malformed"),
        (("games", 0, "bggId"), 2**64 + 1, "out_of_range"),
        (("games", 0, "isDeleted"), True, "deleted"),
    ],
)
def test_a_game_or_player_it_cannot_read_skips_its_plays(
    where: tuple[Any, ...], value: Any, code: str
) -> None:
    doc = one_play()
    *path, key = where
    target = doc
    for step in path:
        target = target[step]
    target[key] = value
    assert skipped_code(doc) == code


def test_what_a_play_can_do_without_is_left_out_and_reported() -> None:
    doc = export()
    first = doc["plays"][0]
    first["comments"] = "bad\x00comment"
    first["durationMin"] = -5
    first["locationRefId"] = 77
    first["playerScores"][2]["rank"] = -1  # Anna's, read at seat 0
    first["playerScores"][0]["score"] = "9" * 20  # Bruno's, seat 1
    doc["games"][0]["bggId"] = 2**40
    doc["plays"] = [first]
    found = read_doc(doc)
    play = found.plays[0]
    assert (play.comments, play.duration, play.location, play.location_ref) == ("", None, "", None)
    assert play.game.bgg_id is None
    assert (play.players[0].rank, play.players[1].score) == (None, None)
    assert [(p.code, p.seat) for p in play.problems] == [
        ("bad_bgg_id", None),
        ("bad_rank", 0),
        ("score_out_of_range", 1),
        ("bad_duration", None),
        ("unknown_location_ref", None),
        ("invalid_text", None),
    ]


def test_a_deleted_location_is_left_out_and_reported() -> None:
    doc = one_play()
    doc["locations"][0]["deleted"] = True
    play = read_doc(doc).plays[0]
    assert (play.location, play.location_ref) == ("", None)
    assert [p.code for p in play.problems] == ["location_deleted"]


def test_scores_written_as_numbers_are_read_as_their_text() -> None:
    doc = one_play()
    scores = doc["plays"][0]["playerScores"]
    scores[0]["score"], scores[1]["score"], scores[2]["score"] = 72, 69.0, None
    players = read_doc(doc).plays[0].players  # in seat order: Anna, Bruno, Chiara
    assert [(p.score, p.score_text) for p in players] == [(None, ""), (72, "72"), (69, "69.0")]


def test_seat_order_with_gaps_or_zeros_keeps_the_files_order() -> None:
    doc = one_play()
    for entry in doc["plays"][0]["playerScores"]:
        entry["seatOrder"] = 0
    names = [p.name for p in read_doc(doc).plays[0].players]
    assert names == ["Bruno", "Chiara", "Anna"]


def test_team_fields_are_read_only_in_a_team_play() -> None:
    doc = one_play()
    doc["plays"][0]["playerScores"][0]["team"] = "Rossi"  # usesTeams is false
    assert all(p.team is None for p in read_doc(doc).plays[0].players)
    doc["plays"][0]["usesTeams"] = True
    doc["plays"][0]["playerScores"][1]["team"] = 2  # a number is its text
    teams = [p.team for p in read_doc(doc).plays[0].players]
    assert teams == [None, "Rossi", "2"]


@pytest.mark.parametrize("key", ["plays", "games", "players", "locations"])
@pytest.mark.parametrize("value", [{}, "x", 3, True])
def test_a_list_of_the_wrong_type_refuses_the_file_naming_the_key(key: str, value: Any) -> None:
    doc = export()
    doc[key] = value
    with pytest.raises(FormatError) as refused:
        bgstats.read_document(doc)
    assert refused.value.code == "malformed"
    assert key in refused.value.message


def test_entries_that_are_no_objects_are_passed_over() -> None:
    doc = export()
    doc["games"] = [None, 3, "x", [], *doc["games"]]
    doc["players"].insert(0, {"id": None, "name": "no id"})
    assert read_doc(doc).plays == read_doc(export()).plays


def test_kind_of_a_single_play_without_the_exports_lists() -> None:
    doc = export()
    assert bgstats.kind_of(doc) == "bgstats-export"
    single = {k: copy.deepcopy(doc[k]) for k in ("games", "players", "locations")}
    single["plays"] = doc["plays"][:1]
    assert bgstats.kind_of(single) == "bgsplay"
