"""BoardGameGeek's plays XML, read from a realistic document built by hand
(tests/exchange/formats/files/bgg-plays.xml), and XML that must be refused."""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path

import pytest
from django.utils import translation

from games.exchange.formats import bggxml
from games.exchange.formats.detect import read_play_file
from games.exchange.formats.plays import (
    ForeignGame,
    ForeignPlay,
    ForeignPlayer,
    FormatError,
    PlayFile,
    Problem,
    Skipped,
)

FILES = Path(__file__).parent / "files"


def seat(ref: str | None, name: str, score: int | None, text: str, winner: bool, **more: object):
    return ForeignPlayer(ref, name, score, text, None, winner, **more)  # type: ignore[arg-type]


def bgg_play(play_id: str, game: ForeignGame, day: str, players: tuple, **more: object):
    return ForeignPlay(
        app="bgg",
        external_id=play_id,
        game=game,
        played_on=datetime.date.fromisoformat(day),
        players=players,
        **more,  # type: ignore[arg-type]
    )


EXPECTED = [
    # userid when not 0 (Anna, Chiara), else none for a seat with a name only (Bruno).
    bgg_play(
        "70234511",
        ForeignGame("bgg:266192", "Wingspan", 266192, "highest"),
        "2023-03-04",
        (
            seat("1204577", "Anna", 87, "87", True),
            seat(None, "Bruno", 72, "72", False, start_player=True),
            seat("2255130", "Chiara", 69, "69", False),
        ),
        duration=75,
        location="Casa di Anna",
        comments="Prima partita con l'espansione europea\n#bgstats",
    ),
    # quantity 2: one play, reported; no scores: the winner as marked.
    bgg_play(
        "70234987",
        ForeignGame("bgg:129622", "Love Letter", 129622, "manual"),
        "2023-03-11",
        (
            seat("1204577", "Anna", None, "", False, start_player=True),
            seat(None, "Bruno", None, "", True),
        ),
        location="Ludoteca Centrale",
        problems=(Problem("quantity", "logged as 2 plays at BoardGameGeek: imported as one"),),
    ),
    # The marked winner has the lowest score: lowest wins.
    bgg_play(
        "70301266",
        ForeignGame("bgg:6887", "Hearts", 6887, "lowest"),
        "2023-04-01",
        (
            seat("1204577", "Anna", 23, "23", False),
            seat(None, "Bruno", 12, "12", True),
            seat(None, "Dario", 45, "45", False, new_player=True),
        ),
        duration=90,
    ),
    # Incomplete, nobody won; colours are roles; 28.5 is no whole number.
    bgg_play(
        "70455120",
        ForeignGame("bgg:136888", "Bruges", 136888, "highest"),
        "2023-04-15",
        (
            seat("1204577", "Anna", 31, "31", False, role="blu"),
            seat(None, "Dario", None, "28.5", False, start_player=True, role="rosso"),
        ),
        duration=120,
        location="Casa di Anna",
        comments="Interrotta: Dario doveva andare",
        incomplete=True,
        problems=(
            Problem(
                "score_not_integer",
                "the score of Dario, “28.5”, is not a whole number: left out",
                seat=1,
            ),
        ),
    ),
    # A seat with no name and no user: anonymous.
    bgg_play(
        "70612345",
        ForeignGame("bgg:230802", "Azul", 230802, "highest"),
        "2023-05-06",
        (
            seat(None, "", 58, "58", False, start_player=True, anonymous=True, new_player=True),
            seat("1204577", "Anna", 64, "64", True),
        ),
        duration=35,
        location="Bar Sport",
    ),
]


def read(data: bytes) -> PlayFile:
    with translation.override("en"):
        found = read_play_file(data)
    assert isinstance(found, PlayFile)
    return found


def test_plays_document_reads_to_the_plays_written_by_hand() -> None:
    found = read((FILES / "bgg-plays.xml").read_bytes())
    assert (found.app, found.kind) == ("bgg", "bgg-xml")
    assert [replace(p, fingerprint="") for p in found.plays] == EXPECTED
    assert found.skipped == [
        Skipped("70501002", "no_players", "the play has no players"),
        Skipped("70612399", "bad_date", "play[6].date, 0000-00-00, is not a date"),
    ]
    assert all(len(p.fingerprint) == 64 for p in found.plays)


def document(*plays: str) -> bytes:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<plays username="x" userid="1" total="1" '
        'page="1" termsofuse="https://boardgamegeek.com/xmlapi/termsofuse">'
        + "".join(plays)
        + "</plays>"
    ).encode()


def one(
    players: str = '<player name="Anna" userid="5" score="3" win="1"/>',
    attributes: str = 'id="9" date="2024-01-02"',
    item: str = '<item name="Azul" objecttype="thing" objectid="230802"/>',
) -> str:
    return f"<play {attributes}>{item}<players>{players}</players></play>"


@pytest.mark.parametrize(
    ("play", "code"),
    [
        (one(attributes='date="2024-01-02"'), "no_id"),
        (one(attributes='id="abc" date="2024-01-02"'), "no_id"),
        (one(attributes='id="0" date="2024-01-02"'), "no_id"),
        (one(attributes='id="9"'), "bad_date"),
        (one(item=""), "malformed"),
        (one(item='<item name="Azul" objectid="x"/>'), "malformed"),
        (one(item='<item name="" objectid="5"/>'), "malformed"),
        (one(players=""), "no_players"),
        (one(players='<player name="A" userid="5"/><player name="B" userid="5"/>'), "player_twice"),
        (one(players='<player name="A"/>' * 101), "too_many_players"),
    ],
)
def test_a_play_it_cannot_read_is_skipped_with_its_code(play: str, code: str) -> None:
    found = read(document(play))
    assert found.plays == []
    assert [s.code for s in found.skipped] == [code]


def test_two_plays_with_one_id_keep_the_first() -> None:
    found = read(document(one(), one()))
    assert [p.external_id for p in found.plays] == ["9"]
    assert [s.code for s in found.skipped] == ["duplicate"]


def test_username_is_the_ref_when_there_is_no_user_id() -> None:
    players = '<player username="bruno_b" userid="0" name="" score="" win="0"/>'
    (play,) = read(document(one(players=players))).plays
    assert (play.players[0].ref, play.players[0].name, play.players[0].anonymous) == (
        "bruno_b",
        "bruno_b",
        False,
    )


@pytest.mark.parametrize(
    ("scores", "wins", "win"),
    [
        (("10", "7"), ("1", "0"), "highest"),
        (("10", "7"), ("0", "1"), "lowest"),
        (("10", "7", "8"), ("0", "0", "1"), "manual"),  # neither the highest nor the lowest
        (("10", "10"), ("1", "1"), "highest"),
        (("10", "7"), ("0", "0"), "highest"),  # nobody marked
        (("10", ""), ("0", "1"), "highest"),  # not every seat scored
        (("", ""), ("0", "1"), "manual"),
    ],
)
def test_how_the_game_is_won_as_far_as_the_play_shows(
    scores: tuple[str, ...], wins: tuple[str, ...], win: str
) -> None:
    players = "".join(
        f'<player name="P{i}" userid="{i + 1}" score="{s}" win="{w}"/>'
        for i, (s, w) in enumerate(zip(scores, wins, strict=True))
    )
    (play,) = read(document(one(players=players))).plays
    assert play.game.win == win


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE plays [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<plays><play id="1" date="2024-01-01"><comments>&lol3;</comments></play></plays>"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<plays><play id="1" date="2024-01-01"><comments>&secret;</comments></play></plays>"""

EXTERNAL_DTD = b"""<?xml version="1.0"?>
<!DOCTYPE plays SYSTEM "http://example.invalid/plays.dtd">
<plays/>"""


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (BILLION_LAUGHS, "forbidden_xml"),
        (EXTERNAL_ENTITY, "forbidden_xml"),
        (EXTERNAL_DTD, "forbidden_xml"),
        (b"<plays><play id='1'></plays>", "malformed"),
        (b"<plays>" + b"<a>" * 20 + b"</a>" * 20 + b"</plays>", "too_deep"),
        (b"<plays>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</plays>", "too_deep"),
        (b'<?xml version="1.0" encoding="no-such"?><plays/>', "malformed"),
        (b"<plays>\x00</plays>", "malformed"),
        (b"<plays><play id='1' date='&#xD800;'/></plays>", "malformed"),
        (
            b"<errors><error><message>Invalid object or user</message></error></errors>",
            "unknown_format",
        ),
    ],
)
def test_xml_it_must_not_read_is_refused(data: bytes, code: str) -> None:
    with pytest.raises(FormatError) as refused:
        read_play_file(data)
    assert refused.value.code == code


def test_an_empty_plays_document_has_no_plays() -> None:
    found = bggxml.read_xml(document())
    assert (found.plays, found.skipped) == ([], [])
