"""BoardGameGeek's plays, as its XML API2 ``plays`` document gives them (a file the user
saved: asking the API needs a token the server does not hold).

    <plays username="..." userid="..." total="..." page="1" termsofuse="...">
      <play id="..." date="2015-12-27" quantity="1" length="45" incomplete="0"
            nowinstats="0" location="...">
        <item name="Coloretto" objecttype="thing" objectid="5782">
          <subtypes><subtype value="boardgame"/></subtypes>
        </item>
        <comments>...</comments>
        <players>
          <player username="..." userid="..." name="..." startposition="1" color="..."
                  score="41" new="0" rating="0" win="1"/>
        </players>
      </play>
    </plays>

Read as: the play's id is its ``external_id``; the game is ``bgg:<objectid>`` with its
BoardGameGeek id; a player's ref is their ``userid`` when it is not 0, else their
``username``, else none (a nameless seat is anonymous); the start player is the one at
``startposition`` 1; the colour is the seat's role. BoardGameGeek does not say how a game is
won: a play with no scores has its winners marked (``manual``); with scores, the highest wins,
unless every marked winner has the lowest score and not the highest (``lowest``), or the marked
winners follow neither (``manual``). A play logged with ``quantity`` N is N plays at the same
table: it is read as one, with a problem saying so. ``nowinstats`` and ``rating`` are not read.

The XML is parsed by ``defusedxml``: no DTD, no entity, no external reference, and a limit on
nesting, so that no file can expand or reach outside itself.
"""

from __future__ import annotations

import io
from xml.etree.ElementTree import Element, ParseError

import defusedxml  # type: ignore[import-untyped]
import defusedxml.ElementTree as SafeElementTree  # type: ignore[import-untyped]
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
    parse_date,
    player_twice,
    score_problems,
    shown,
    soft_text,
    text,
)
from games.exchange.formats.scores import parse_score

APP = "bgg"
KIND = "bgg-xml"
MAX_XML_DEPTH = 16  # a plays document is 5 elements deep


def is_xml(data: bytes) -> bool:
    """Whether ``data`` starts as XML in UTF-8 does (after a byte order mark and blanks)."""
    return data.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"<")


def parse(data: bytes) -> Element:
    """The root element of the XML ``data``. Raises ``FormatError``: ``forbidden_xml`` for a
    DTD, an entity or an external reference, ``too_deep`` past ``MAX_XML_DEPTH``,
    ``malformed`` for what is no XML."""
    depth = 0
    root: Element | None = None
    # Blanks before the declaration (a file saved from a browser) are no XML, and nothing else.
    data = data.removeprefix(b"\xef\xbb\xbf").lstrip()
    try:
        events = SafeElementTree.iterparse(
            io.BytesIO(data),
            events=("start", "end"),
            forbid_dtd=True,
            forbid_entities=True,
            forbid_external=True,
        )
        for event, element in events:
            if event == "start":
                depth += 1
                if root is None:
                    root = element
                if depth > MAX_XML_DEPTH:
                    raise FormatError(
                        "too_deep",
                        _("the XML is nested more than %(depth)s levels deep")
                        % {"depth": MAX_XML_DEPTH},
                    )
            else:
                depth -= 1
    except FormatError:
        raise
    except (
        defusedxml.DTDForbidden,
        defusedxml.EntitiesForbidden,
        defusedxml.ExternalReferenceForbidden,
        defusedxml.NotSupportedError,
    ):
        raise FormatError(
            "forbidden_xml",
            _("the XML declares a DTD, an entity or an external reference, which are refused"),
        ) from None
    except ParseError as error:
        line, column = getattr(error, "position", (0, 0))
        raise FormatError(
            "malformed",
            _("the XML cannot be read (line %(line)s, column %(column)s)")
            % {"line": line, "column": column},
        ) from None
    except (ValueError, LookupError, UnicodeError):  # an unknown or broken encoding
        raise FormatError("malformed", _("the XML cannot be read")) from None
    if root is None:
        raise FormatError("malformed", _("the XML cannot be read"))
    return root


def is_plays(root: Element) -> bool:
    return root.tag == "plays"


def read_xml(data: bytes) -> PlayFile:
    """The plays of a BoardGameGeek plays document, and the ones skipped (each with a code).
    Raises ``FormatError`` (see ``parse``; ``unknown_format`` for XML that is not a plays
    document)."""
    root = parse(data)
    if not is_plays(root):
        raise FormatError(
            "unknown_format",
            _("this XML is not a BoardGameGeek plays document (its root is <%(tag)s>)")
            % {"tag": shown(str(root.tag))},
        )
    return read_root(root)


def read_root(root: Element) -> PlayFile:
    found = PlayFile(app=APP, kind=KIND)
    seen: set[str] = set()
    for index, element in enumerate(root.findall("play")):
        external_id = _play_id(element)
        try:
            if external_id is None:
                raise Refused(
                    "no_id",
                    _("play %(index)s has no id the import can keep") % {"index": index + 1},
                )
            if external_id in seen:
                raise Refused(
                    "duplicate",
                    _("another play of the file has the id %(id)s") % {"id": external_id},
                )
            seen.add(external_id)
            play = _read_play(element, f"play[{index}]", external_id)
        except Refused as refused:
            found.skipped.append(Skipped(external_id, refused.code, refused.message))
            continue
        found.plays.append(play)
    return found


def _play_id(element: Element) -> str | None:
    value = (element.get("id") or "").strip()
    if value.isascii() and value.isdigit() and len(value) <= MAX_ID_LENGTH and int(value) > 0:
        return value
    return None


def _number(value: str | None) -> int | None:
    """An attribute that holds a whole number of digits (BoardGameGeek writes no sign)."""
    value = (value or "").strip()
    if value.isascii() and value.isdigit() and len(value) <= 18:
        return int(value)
    return None


def _read_play(element: Element, where: str, external_id: str) -> ForeignPlay:
    played_on, _time = parse_date(element.get("date"), f"{where}.date")
    problems: list[Problem] = []
    item = element.find("item")
    object_id = _number(item.get("objectid")) if item is not None else None
    if item is None or object_id is None or object_id == 0:
        raise Refused("malformed", _("%(where)s names no game") % {"where": where})
    name = text(item.get("name"), f"{where}.item.name").strip()
    if not name:
        raise Refused("malformed", _("%(where)s names no game") % {"where": where})
    players_element = element.find("players")
    seats = players_element.findall("player") if players_element is not None else []
    if not seats:
        raise Refused("no_players", _("the play has no players"))
    if len(seats) > MAX_PLAYERS:
        raise Refused(
            "too_many_players",
            _("the play has %(count)s players; at most %(most)s")
            % {"count": len(seats), "most": MAX_PLAYERS},
        )
    players = tuple(
        _read_player(seat, f"{where}.players.player[{i}]", problems, i)
        for i, seat in enumerate(seats)
    )
    player_twice(players)
    problems.extend(score_problems(players))
    quantity = _number(element.get("quantity"))
    if quantity is not None and quantity > 1:
        problems.append(
            Problem(
                "quantity",
                _("logged as %(count)s plays at BoardGameGeek: imported as one")
                % {"count": quantity},
            )
        )
    duration = _number(element.get("length"))
    if duration is not None and duration > MAX_DURATION:
        problems.append(
            Problem(
                "bad_duration",
                _("the duration %(minutes)s is not a number of minutes: left out")
                % {"minutes": duration},
            )
        )
        duration = None
    comments_element = element.find("comments")
    comments = ""
    if comments_element is not None:
        comments = soft_text(comments_element.text, f"{where}.comments", problems).strip()
    play = ForeignPlay(
        app=APP,
        external_id=external_id,
        game=ForeignGame(
            ref=f"bgg:{object_id}",
            name=name,
            bgg_id=object_id if object_id <= MAX_BGG_ID else None,
            win=_win(players),
        ),
        played_on=played_on,
        players=players,
        duration=duration or None,
        location=soft_text(element.get("location"), f"{where}.location", problems).strip(),
        comments=comments,
        incomplete=(element.get("incomplete") or "").strip() == "1",
        problems=tuple(problems),
    )
    return fingerprinted(play)


def _read_player(element: Element, where: str, problems: list[Problem], seat: int) -> ForeignPlayer:
    username = text(element.get("username"), f"{where}.username").strip()
    name = text(element.get("name"), f"{where}.name").strip() or username
    user_id = _number(element.get("userid"))
    ref: str | None = str(user_id) if user_id else (username or None)
    if ref is not None and len(ref) > MAX_ID_LENGTH:
        ref = None
    score_text = soft_text(element.get("score"), f"{where}.score", problems, seat).strip()
    return ForeignPlayer(
        ref=ref,
        name=name,
        score=parse_score(score_text).value,
        score_text=score_text,
        rank=None,
        winner=(element.get("win") or "").strip() == "1",
        start_player=(element.get("startposition") or "").strip() == "1",
        anonymous=not name,
        new_player=(element.get("new") or "").strip() == "1",
        role=soft_text(element.get("color"), f"{where}.color", problems, seat).strip(),
    )


def _win(players: tuple[ForeignPlayer, ...]) -> str:
    """How the play's game is won, as far as the play shows (see the module's docstring)."""
    if all(p.score is None and not p.score_text for p in players):
        return "manual"
    scores = [p.score for p in players]
    winners = [p.score for p in players if p.winner]
    if not winners or any(s is None for s in scores):
        return "highest"
    known = [s for s in scores if s is not None]
    if all(w == max(known) for w in winners):
        return "highest"
    if all(w == min(known) for w in winners):
        return "lowest"
    return "manual"
