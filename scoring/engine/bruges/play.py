"""Reading a Bruges log's rounds: each round's shape, then its phases checked and applied in
order (draw, dice and prestige, the turns, the majorities).

Every check raises ``LogError`` before the log is accepted; nothing here draws chance (the dice
are in the log, the hands are hidden). Colours, actions and icons are small integers (see
``rules``); a seat's counts are the fields of a ``Seat`` and a person's those of a ``Person``
(compiled classes, in ``state``), because replaying whole stored archives is a hot path. For the
same reason a round is read once, its shape checked as it is read, in the order
docs/bruges-engine.md gives. The header checks are in ``header``, and importable from here.
"""

from __future__ import annotations

from typing import Any

from scoring.engine.bruges.effects import _effect
from scoring.engine.bruges.header import check_final, check_players, choose_edition, start_state
from scoring.engine.bruges.penalties import _missing_penalty, _read_penalty, _suffer, _take_pending
from scoring.engine.bruges.reading import _as_dict, _as_list, _error, _malformed
from scoring.engine.bruges.rules import (
    AT_CODES,
    AT_DICE,
    AT_DRAW,
    AT_PRESTIGE,
    COLORS,
    MAJ_CANALS,
    MAJ_PERSONS,
    MAJ_PRESTIGE,
    MAJORITIES,
    NCOLORS,
    PENALTY_AT,
    PRESTIGE_MAX,
    THREAT_MIN,
    TOP_STEP,
    TURNS_PER_PLAYER,
)
from scoring.engine.bruges.state import State, _Round
from scoring.engine.bruges.turns import _pay, _turn
from scoring.engine.errors import Code, said
from scoring.engine.errors import Seat as SeatNo

__all__ = [
    "State",
    "check_final",
    "check_players",
    "choose_edition",
    "play_round",
    "start_state",
]


def _upkeep(st: State, entries: list[dict[str, Any]], rnd: _Round) -> None:
    pending = rnd.pending
    for entry in entries:
        pen_value = entry.get("penalty")
        if pen_value is not None:
            pen, seat, color = _read_penalty(pen_value, st.players, rnd)
            _take_pending(pending, seat, color, rnd)
            _suffer(st, pen, seat, color, rnd)
            continue
        if pending:
            raise _missing_penalty(pending, rnd)
        pid = entry.get("effect")
        if pid is None:
            raise _malformed(said("an upkeep entry is an effect or a penalty"), rnd)
        _effect(st, entry, pid, -1, rnd, -1, pending)
    if pending:
        raise _missing_penalty(pending, rnd)


def _read_upkeep(value: Any, rnd: _Round) -> list[list[dict[str, Any]]]:
    """The upkeep entries by moment (draw, dice, prestige), each in list order."""
    moments: list[list[dict[str, Any]]] = [[], [], []]
    for item in _as_list(value, "upkeep", rnd):
        entry = item if type(item) is dict else _as_dict(item)
        if entry is None:
            raise _malformed(said("an upkeep entry is an object"), rnd)
        at_name = entry.get("at")
        if at_name is None:
            at = AT_DICE
        else:
            at = AT_CODES.get(at_name, -1) if type(at_name) is str else -1
            if at < 0:
                raise _malformed(
                    said(
                        "an upkeep entry's {key} is {draw}, {dice} or {prestige}",
                        key=Code("at"),
                        draw=Code("draw"),
                        dice=Code("dice"),
                        prestige=Code("prestige"),
                    ),
                    rnd,
                )
        moments[at].append(entry)
    return moments


def play_round(st: State, value: Any) -> None:
    """Check one round against ``st`` and apply it (``st`` is changed; on ``LogError`` it is
    left half-applied, so callers work on a copy)."""
    n = st.players
    seats = st.seats
    rnd = st.scratch
    if rnd is None:
        rnd = _Round()
        rnd.dice = [0] * NCOLORS
        rnd.pending = []
        st.scratch = rnd
    else:
        rnd.pending.clear()
    rnd.rno = st.round_no + 1
    rnd.tno = 0
    first = st.current_first
    rnd.first = first
    for ps in seats:
        ps.played = 0
        ps.gained_workers = 0
        ps.built_houses = 0
        ps.hires = 0
        ps.tiles = 0
        ps.start_points = ps.points
        ps.start_florins = ps.florins
        ps.start_step = ps.step
    entry = _as_dict(value)
    if entry is None:
        raise _malformed(
            said(
                "round {round} is an object with {dice_key} and {turns_key}",
                round=rnd.rno,
                dice_key=Code("dice"),
                turns_key=Code("turns"),
            ),
            rnd,
        )
    # The round's shape first.
    turns_value = entry.get("turns")
    if type(turns_value) is not list:
        raise _malformed(said("a round's {key} is a list", key=Code("turns")), rnd)
    turns: list[Any] = turns_value
    penalties = _as_list(entry.get("penalties"), "penalties", rnd)
    climbers = _as_list(entry.get("prestige"), "prestige", rnd)
    upkeep_value = entry.get("upkeep")
    upkeep = _read_upkeep(upkeep_value, rnd) if upkeep_value is not None else None
    dice = _read_dice(entry.get("dice"), rnd)
    rnd.taken = []
    rnd.suffered = []
    rnd.flipped = []
    # Phase 1: draw (not logged); the automatic effects at the draw.
    if upkeep is not None and upkeep[AT_DRAW]:
        _upkeep(st, upkeep[AT_DRAW], rnd)
    # Phase 2: threat tokens, penalties (B2), prestige.
    # Tokens rest below 3 between steps, so only a colour just rolled can trigger.
    pending = rnd.pending
    for c in range(NCOLORS):
        if dice[c] >= THREAT_MIN:
            for s in range(n):
                threats = seats[s].threats
                t = threats[c] + 1
                threats[c] = t
                if t >= PENALTY_AT:
                    pending.append(s * NCOLORS + c)
    for item in penalties:
        pen, seat, color = _read_penalty(item, n, rnd)
        _take_pending(pending, seat, color, rnd)
        _suffer(st, pen, seat, color, rnd)
    if pending:
        raise _missing_penalty(pending, rnd)
    if upkeep is not None and upkeep[AT_DICE]:
        _upkeep(st, upkeep[AT_DICE], rnd)
    cost = 0
    for c in range(NCOLORS):
        if dice[c] <= PRESTIGE_MAX:
            cost += dice[c]
    if climbers:
        _prestige(st, climbers, cost, rnd)
    if upkeep is not None and upkeep[AT_PRESTIGE]:
        _upkeep(st, upkeep[AT_PRESTIGE], rnd)
    # Phase 3: 4 turns per player, clockwise from the first player.
    total = TURNS_PER_PLAYER * n
    due = first
    for k in range(len(turns)):
        rnd.tno = k + 1
        if k >= total:
            seat_value = turns[k].get("seat") if type(turns[k]) is dict else None
            raise _error(
                "extra_turn",
                said(
                    "a round has {total} turns ({per_player} per player)",
                    total=total,
                    per_player=TURNS_PER_PLAYER,
                ),
                rnd,
                seat_value if type(seat_value) is int else None,
            )
        _turn(st, turns[k], due, rnd)
        due = due + 1 if due + 1 < n else 0
    if len(turns) < total:
        rnd.tno = len(turns) + 1
        due = (first + len(turns)) % n
        raise _error(
            "missing_turn",
            said(
                "a round has {total} turns ({per_player} per player); turn {turn} ({seat}) is "
                "missing",
                total=total,
                per_player=TURNS_PER_PLAYER,
                turn=rnd.tno,
                seat=SeatNo(due),
            ),
            rnd,
            due,
        )
    rnd.tno = 0
    # Phase 4: majorities (B5), then the first player token passes clockwise.
    _majorities(st, rnd)
    st.round_no = rnd.rno
    st.current_first = (first + 1) % n
    for ps in seats:
        ps.cards_played += ps.played
    # Per round, what each seat gained: counts in lists indexed by seat, events as [seat, x].
    st.rounds.append(
        {
            "round": rnd.rno,
            "first_player": first,
            "prestige_cost": cost,
            "points": [ps.points - ps.start_points for ps in seats],
            "florins": [ps.florins - ps.start_florins for ps in seats],
            "workers": [ps.gained_workers for ps in seats],
            "prestige": [ps.step - ps.start_step for ps in seats],
            "houses": [ps.built_houses for ps in seats],
            "persons": [ps.hires for ps in seats],
            "tiles": [ps.tiles for ps in seats],
            "statues": rnd.taken,
            "penalties": rnd.suffered,
            "flipped": rnd.flipped,
        }
    )


def _read_dice(value: Any, rnd: _Round) -> list[int]:
    dice = _as_dict(value)
    if dice is None:
        raise _error(
            "bad_dice",
            said("{key} is an object from colour to a value 1..6", key=Code("dice")),
            rnd,
            None,
        )
    out = rnd.dice
    for c in range(NCOLORS):
        v = dice.get(COLORS[c])
        if type(v) is not int or not 1 <= v <= 6:
            raise _error(
                "bad_dice",
                said(
                    "the {color} die is a value 1..6, not {value!r}",
                    color=Code(COLORS[c], quoted=False),
                    value=v,
                ),
                rnd,
                None,
            )
        out[c] = v
    return out


def _prestige(st: State, climbers: list[Any], cost: int, rnd: _Round) -> None:
    """Each listed seat pays the cost and climbs one step, clockwise from the first player."""
    n = st.players
    last = -1
    for seat in climbers:
        if type(seat) is not int:
            raise _malformed(said("{key} lists seat numbers", key=Code("prestige")), rnd)
        if not 0 <= seat < n:
            raise _error(
                "bad_seat",
                said("{key} names {seat}, not a seat", key=Code("prestige"), seat=SeatNo(seat)),
                rnd,
                seat,
            )
        if cost == 0:
            raise _error(
                "prestige_not_allowed",
                said("no die shows 1 or 2: no one may advance"),
                rnd,
                seat,
            )
        pos = (seat - rnd.first) % n
        if pos <= last:
            raise _error(
                "prestige_out_of_order",
                said(
                    "{key} lists seats once each, clockwise from the round's first player",
                    key=Code("prestige"),
                ),
                rnd,
                seat,
            )
        last = pos
        ps = st.seats[seat]
        if ps.step >= TOP_STEP:
            raise _error(
                "prestige_at_top", said("{seat} is on the top step", seat=SeatNo(seat)), rnd, seat
            )
        _pay(ps, cost, seat, rnd)
        ps.step += 1


def _majorities(st: State, rnd: _Round) -> None:
    """Phase 4 (B5): a seat that alone leads flips the tile for good (noted in the round)."""
    best_step = 0
    step_leader = -1
    best_persons = 0
    persons_leader = -1
    best_tiles = 0
    tiles_leader = -1
    seats = st.seats
    for s in range(st.players):
        ps = seats[s]
        v = ps.step
        if v > best_step:
            best_step = v
            step_leader = s
        elif v == best_step:
            step_leader = -1
        v = ps.in_play
        if v > best_persons:
            best_persons = v
            persons_leader = s
        elif v == best_persons:
            persons_leader = -1
        v = ps.canal[0] + ps.canal[1]
        if v > best_tiles:
            best_tiles = v
            tiles_leader = s
        elif v == best_tiles:
            tiles_leader = -1
    # In the order prestige, persons, canals.
    if step_leader >= 0:
        _flip(st, rnd, step_leader, MAJ_PRESTIGE)
    if persons_leader >= 0:
        _flip(st, rnd, persons_leader, MAJ_PERSONS)
    if tiles_leader >= 0:
        _flip(st, rnd, tiles_leader, MAJ_CANALS)


def _flip(st: State, rnd: _Round, seat: int, tile: int) -> None:
    ps = st.seats[seat]
    bit = 1 << tile
    if not ps.flipped & bit:
        ps.flipped |= bit
        rnd.flipped.append([seat, MAJORITIES[tile]])
