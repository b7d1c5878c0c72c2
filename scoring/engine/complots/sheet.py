"""A finished Complots game known by its result only: the order in which the players were
eliminated, and optionally the K4 counts a player kept (scorepad mode, ``info.scorepad``).

The sheet is ``{"players": [...], "teams": null, "variant": "inquisitor", "sheet":
{"eliminated": [2, 0], "counts": null | [{"claims_made": 3, ...} | null, ...]}}``:
``eliminated`` lists every seat but the winner's, first out first; ``counts`` holds, per seat,
the counts that were kept (a count not given is unknown: null in the result, never 0). The
ranking is the one a replayed finished game gets (K4, K5); what a real game cannot leave is
refused (docs/complots-engine.md, "The result sheet").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from scoring.engine.complots.play import check_players, check_variant
from scoring.engine.complots.rules import (
    ENGINE_VERSION,
    GAME_ID,
    INFLUENCES,
    RESULT_FORMAT,
    STAT_NAMES,
    VARIANT_NAMES,
)
from scoring.engine.errors import Code, LogError, Said, Seat, check_no_teams, said

SHEET_KEY: Final = "sheet"
SHEET_FIELDS: Final[tuple[str, ...]] = ("eliminated", "counts")
# A count kept by hand is at most this: far above any real game (a simulated 8-player game's
# largest count is under 30), far below what a database column or a JSON reader could mind.
MAX_COUNT: Final = 99_999
# K4 counts that are parts of another (or of two others): never more than the whole.
PARTS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("challenges_won", ("challenges_made",)),  # won challenges are challenges made
    ("blocks_standing", ("blocks_made",)),  # standing blocks are blocks made
    ("bluffs_caught", ("claims_made", "blocks_made")),  # a caught bluff is a claim or a block
)


def _malformed(message: Said, seat: int | None = None) -> LogError:
    return LogError("malformed", message, seat=seat)


def _read_eliminated(raw: Any, n: int) -> list[int]:
    """The seats in elimination order: every seat but one, each once (K4, K5)."""
    if not isinstance(raw, list):
        raise _malformed(
            said(
                "{eliminated} is the list of seats in the order they were eliminated",
                eliminated=Code("eliminated"),
            )
        )
    last = n - 1
    seen: dict[int, int] = {}
    order: list[int] = []
    for position, seat in enumerate(raw, start=1):
        if type(seat) is not int:  # a bool, a float, a string or null is no seat
            raise _malformed(
                said(
                    "{eliminated} lists {value!r} at position {position}: a seat is a whole number",
                    eliminated=Code("eliminated"),
                    value=seat,
                    position=position,
                )
            )
        if not 0 <= seat <= last:
            raise LogError(
                "bad_seat",
                said(
                    "{eliminated} lists {value} at position {position}: the seats are 0 to {last}",
                    eliminated=Code("eliminated"),
                    value=seat,
                    position=position,
                    last=last,
                ),
            )
        if seat in seen:
            raise LogError(
                "eliminated_twice",
                said(
                    "{seat} is listed twice in {eliminated}, at positions {first} and {second}",
                    seat=Seat(seat),
                    eliminated=Code("eliminated"),
                    first=seen[seat],
                    second=position,
                ),
                seat=seat,
            )
        seen[seat] = position
        order.append(seat)
    if len(order) == n:
        # The last one listed was never eliminated: nobody was left to eliminate them.
        raise LogError(
            "no_winner",
            said(
                "{seat} is listed last in {eliminated}, after every other seat: the winner, "
                "the last one standing, is left out",
                eliminated=Code("eliminated"),
                seat=Seat(order[-1]),
            ),
            seat=order[-1],
        )
    missing = [s for s in range(n) if s not in seen]
    if len(missing) == 2:
        # Which of the two won is what the sheet does not say, so the refusal names both and
        # its seat is neither.
        raise LogError(
            "missing_seat",
            said(
                "{first} and {second} are both left out of {eliminated}: only the winner is",
                first=Seat(missing[0]),
                second=Seat(missing[1]),
                eliminated=Code("eliminated"),
            ),
        )
    if len(missing) > 2:
        raise LogError(
            "missing_seat",
            said(
                "{count} seats are left out of {eliminated}, {first} and {second} among them: "
                "only the winner is",
                count=len(missing),
                first=Seat(missing[0]),
                second=Seat(missing[1]),
                eliminated=Code("eliminated"),
            ),
        )
    return order


def _read_counts(raw: Any, n: int) -> list[dict[str, int | None]]:
    """Per seat, each K4 count as kept, None where it was not."""
    unknown: list[dict[str, int | None]] = [dict.fromkeys(STAT_NAMES) for _ in range(n)]
    if raw is None:
        return unknown
    if not isinstance(raw, list) or len(raw) != n:
        raise _malformed(
            said(
                "{counts} is null or a list of {count} entries, one per seat (each null or "
                "an object)",
                counts=Code("counts"),
                count=n,
            )
        )
    for seat, entry in enumerate(raw):
        if entry is None:
            continue
        if not isinstance(entry, Mapping):
            raise _malformed(
                said("the counts of {seat} are an object or null", seat=Seat(seat)),
                seat,
            )
        extra = sorted(str(k) for k in entry if k not in STAT_NAMES)
        if extra:
            raise LogError(
                "unknown_count",
                said(
                    "{seat} has counts that are not kept here: {names} (the counts are {known})",
                    seat=Seat(seat),
                    names=", ".join(extra),
                    known=", ".join(STAT_NAMES),
                ),
                seat=seat,
            )
        for name in STAT_NAMES:
            value = entry.get(name)
            if value is None:
                continue
            if type(value) is not int:
                raise _malformed(
                    said(
                        "{seat} has {value!r} {count}: a count is a whole number or null",
                        count=Code(name),
                        seat=Seat(seat),
                        value=value,
                    ),
                    seat,
                )
            if not 0 <= value <= MAX_COUNT:
                raise LogError(
                    "bad_count",
                    said(
                        "{seat} has {value} {count}: a count is 0 to {most}",
                        count=Code(name),
                        seat=Seat(seat),
                        value=value,
                        most=MAX_COUNT,
                    ),
                    seat=seat,
                )
            unknown[seat][name] = value
    return unknown


def _check_counts(counts: list[dict[str, int | None]], n: int) -> None:
    """What the rules say of the K4 counts of a finished game, where the counts it needs are
    known (an unknown count allows anything)."""
    for seat, c in enumerate(counts):
        for part, wholes in PARTS:
            got = c[part]
            known = [c[w] for w in wholes]
            if got is None or any(w is None for w in known):
                continue
            whole = 0
            for w in known:
                whole += w or 0
            if got <= whole:
                continue
            if len(wholes) == 1:
                words = said(
                    "{seat} has {value} {part}, more than its {whole} {whole_name}",
                    seat=Seat(seat),
                    value=got,
                    part=Code(part),
                    whole=whole,
                    whole_name=Code(wholes[0]),
                )
            else:
                words = said(
                    "{seat} has {value} {part}, more than its {first} {first_name} and {second} "
                    "{second_name} together",
                    seat=Seat(seat),
                    value=got,
                    part=Code(part),
                    first=c[wholes[0]],
                    first_name=Code(wholes[0]),
                    second=c[wholes[1]],
                    second_name=Code(wholes[1]),
                )
            raise LogError("inconsistent_counts", words, seat=seat)
        took = c["players_eliminated"]
        if took is not None and took > n - 1:
            raise LogError(
                "inconsistent_counts",
                said(
                    "{seat} has {value} {count}: {players} players leave {most} to eliminate",
                    count=Code("players_eliminated"),
                    seat=Seat(seat),
                    value=took,
                    players=n,
                    most=n - 1,
                ),
                seat=seat,
            )
    # K5: every eliminated player is credited to exactly one other (the challenge's winner, or
    # the coup's or assassination's actor), so a finished game's credits add up to n - 1.
    credits: list[int] = []
    for c in counts:
        value = c["players_eliminated"]
        if value is not None:
            credits.append(value)
    total = sum(credits)
    if total > n - 1 or (len(credits) == n and total != n - 1):
        raise LogError(
            "inconsistent_counts",
            said(
                "the {count} add up to {total}: a finished game of {players} players has {out} "
                "eliminated players, each credited to one player",
                count=Code("players_eliminated"),
                total=total,
                players=n,
                out=n - 1,
            ),
        )
    # A player turns up at most its 2 influences, and the winner keeps one hidden.
    taken = sum(c["influences_taken"] or 0 for c in counts)
    most = INFLUENCES * n - 1
    if taken > most:
        raise LogError(
            "inconsistent_counts",
            said(
                "the {count} add up to {total}: {players} players turn up at most {most} "
                "influences in a game",
                count=Code("influences_taken"),
                total=taken,
                players=n,
                most=most,
            ),
        )


def sheet_from_places(places: Sequence[int]) -> dict[str, Any]:
    """The result sheet of a game whose every seat's place is known (1 the winner, all apart):
    the seats first out first (K5 ranks the last survivor first, the last eliminated next).
    The sheet is checked when scored, like any other."""
    order = sorted(range(len(places)), key=lambda seat: -places[seat])
    return {"eliminated": order[:-1], "counts": None}


def score_sheet(body: Mapping[str, Any]) -> dict[str, Any]:
    """The ``complots-result/1`` document of a game known by its result sheet: ranked as a
    replayed finished game is (K4: the winner 1, the one eliminated last 2, ...; no ties),
    with what the sheet does not tell (turns, coins, cards, unkept counts) null.

    Raises ``LogError``: malformed, bad_player_count, bad_teams, bad_variant, bad_seat,
    eliminated_twice, no_winner, missing_seat, unknown_count, bad_count, inconsistent_counts.
    """
    if not isinstance(body, Mapping):
        raise _malformed(said("a result sheet is a JSON object"))
    names = check_players(body.get("players"))
    n = len(names)
    check_no_teams(body.get("teams"), game="Complots")
    variant = check_variant(body.get("variant"))
    sheet = body.get(SHEET_KEY)
    if not isinstance(sheet, Mapping):
        raise _malformed(
            said(
                "{sheet} is an object with {eliminated} and, optionally, {counts}",
                sheet=Code(SHEET_KEY),
                eliminated=Code("eliminated"),
                counts=Code("counts"),
            )
        )
    extra = sorted(str(k) for k in sheet if k not in SHEET_FIELDS)
    if extra:
        raise _malformed(
            said(
                "{sheet} has no {names}: it holds {eliminated} and {counts}",
                sheet=Code(SHEET_KEY),
                names=", ".join(extra),
                eliminated=Code("eliminated"),
                counts=Code("counts"),
            )
        )
    order = _read_eliminated(sheet.get("eliminated"), n)
    counts = _read_counts(sheet.get("counts"), n)
    _check_counts(counts, n)
    ranks = [1] * n
    for i, seat in enumerate(order):
        ranks[seat] = n - i  # the first out last; the one eliminated last second (K4)
    winner = next(s for s in range(n) if s not in order)
    players: list[dict[str, Any]] = []
    for seat in range(n):
        won = seat == winner
        players.append(
            {
                "seat": seat,
                "name": names[seat],
                "team": None,
                "score": None,
                "rank": ranks[seat],
                # Who went out in the same turn is not on the sheet: no loss_order tie-break.
                "tiebreak": None,
                "alive": won,
                # The winner's hidden cards and coins are unknown; the eliminated have none
                # (K5: their coins went back to the Treasury).
                "influences": None if won else 0,
                "face_up": None,
                "coins": None if won else 0,
                "eliminated_on_turn": None,
                **counts[seat],
            }
        )
    return {
        "format": RESULT_FORMAT,
        "game": GAME_ID,
        "engine_version": ENGINE_VERSION,
        "variant": VARIANT_NAMES[variant],
        "complete": True,
        "turns_played": None,
        "treasury": None,
        "players": players,
        "winners": [winner],
        "turns": [],
    }
