"""A Bruges log's header: its players, edition and ``final`` checked, and the state they give
before round 1."""

from __future__ import annotations

from typing import Any

from scoring.engine.bruges.editions import (
    BUILTIN_EDITIONS,
    STANDARD_EDITION,
    Edition,
    edition_from_dict,
)
from scoring.engine.bruges.reading import _as_dict, _malformed
from scoring.engine.bruges.rules import LOG_FORMAT, MAX_PLAYERS, MIN_PLAYERS
from scoring.engine.bruges.state import State, _new_seat
from scoring.engine.errors import (
    Code,
    LogError,
    check_first_player,
    check_header,
    check_no_teams,
    check_player_names,
    said,
)


def check_players(names: Any) -> list[str]:
    """The player names in seat order."""
    return check_player_names(names, game="Bruges", fewest=MIN_PLAYERS, most=MAX_PLAYERS)


def choose_edition(log_edition: Any, edition: Any) -> Edition:
    """The edition: ``edition=`` when given, else the built-in one the log names (B1)."""
    if edition is not None:
        if isinstance(edition, Edition):
            return edition
        return edition_from_dict(edition)
    if log_edition is None:
        return STANDARD_EDITION
    if isinstance(log_edition, str) and log_edition in BUILTIN_EDITIONS:
        return BUILTIN_EDITIONS[log_edition]
    known = ", ".join(sorted(BUILTIN_EDITIONS))
    raise LogError(
        "unknown_edition",
        said("no built-in edition {edition!r}; known: {known}", edition=log_edition, known=known),
    )


def check_final(final: Any) -> dict[str, Any] | None:
    """The shape of a ``final`` object, normalised: ``{"laurels": [{"seat", "person",
    "points"}]}`` or None. Its content is checked when scored (``laurel_points``)."""
    if final is None:
        return None
    obj = _as_dict(final)
    if obj is None:
        raise _malformed(
            said(
                "{final_key} is an object {{{laurels_key}: [...]}} or null",
                final_key=Code("final"),
                laurels_key=Code("laurels"),
            )
        )
    raw = obj.get("laurels")
    if raw is None:
        raw = []
    if type(raw) is not list:
        raise _malformed(
            said(
                "{key} is a list of {{{seat_key}, {person_key}, {points_key}}}",
                key=Code("final.laurels"),
                seat_key=Code("seat"),
                person_key=Code("person"),
                points_key=Code("points"),
            )
        )
    laurels: list[dict[str, Any]] = []
    for item in raw:
        entry = _as_dict(item)
        if entry is None:
            raise _malformed(
                said(
                    "a laurel entry is an object {{{seat_key}, {person_key}, {points_key}}}",
                    seat_key=Code("seat"),
                    person_key=Code("person"),
                    points_key=Code("points"),
                )
            )
        seat = entry.get("seat")
        if type(seat) is not int:
            raise _malformed(said("a laurel entry's {key} is a seat number", key=Code("seat")))
        person = entry.get("person")
        if type(person) is not str:
            raise _malformed(
                said("a laurel entry's {key} is a person id", key=Code("person")), seat=seat
            )
        points = entry.get("points")
        if type(points) is not int:
            raise _malformed(
                said("a laurel entry's {key} is an integer", key=Code("points")), seat=seat
            )
        laurels.append({"seat": seat, "person": person, "points": points})
    return {"laurels": laurels}


def start_state(log: Any, edition: Any = None) -> State:
    """Check a log header and build the state before round 1 (``log["rounds"]`` is not read).

    Raises ``LogError``: malformed, unsupported_format, bad_player_count, bad_first_player,
    bad_teams, unknown_edition, bad_edition.
    """
    header = check_header(log, LOG_FORMAT)
    names = check_players(header.get("players"))
    n = len(names)
    first = check_first_player(header.get("first_player"), n)
    check_no_teams(header.get("teams"), game="Bruges")
    ed = choose_edition(header.get("edition"), edition)
    final = check_final(header.get("final"))
    st = State()
    st.names = names
    st.players = n
    st.first_player = first
    st.edition = ed
    st.final = final
    st.seats = [_new_seat() for _ in range(n)]
    st.persons = []
    st.person_index = {}
    st.pile = 0
    st.statues_taken = []
    st.round_no = 0
    st.current_first = first
    st.rounds = []
    st.scratch = None
    return st
