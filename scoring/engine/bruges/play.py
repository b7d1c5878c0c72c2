"""Reading a Bruges log: the header checks, the game state and the checked round.

Every check raises ``LogError`` before the log is accepted; nothing here draws chance (the dice
are in the log, the hands are hidden). Colours, actions and icons are small integers (see
``rules``); a seat's counts are the fields of a ``Seat`` and a person's those of a ``Person``
(compiled classes), because replaying whole stored archives is a hot path. For the same reason
a round is read once, its shape checked as it is read, in the order docs/bruges-engine.md gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scoring.engine.bruges.editions import (
    BUILTIN_EDITIONS,
    STANDARD_EDITION,
    Edition,
    edition_from_dict,
)
from scoring.engine.bruges.rules import (
    ACTIONS,
    ARROW,
    AT_CODES,
    AT_DICE,
    AT_DRAW,
    AT_PRESTIGE,
    BLUE,
    BROWN,
    CANAL,
    COLOR_CODES,
    COLORS,
    DISCARDED,
    FLORINS,
    GROUP_CODES,
    GROUPS,
    HAND,
    HOUSE,
    ICON_CODES,
    ICONS,
    IN_HAND,
    IN_PLAY,
    INFINITY,
    LAUREL,
    LOG_FORMAT,
    MAJ_CANALS,
    MAJ_PERSONS,
    MAJ_PRESTIGE,
    MAJORITIES,
    MAX_PLAYERS,
    MAX_PRICE,
    MAX_STATUES,
    MIN_PLAYERS,
    NCOLORS,
    NGROUPS,
    PENALTY_AT,
    PERSON,
    PRESTIGE_MAX,
    PRICE_PER_POINT,
    PURPLE,
    PURPLE_LOSS,
    RED,
    SECTION_CODES,
    SECTIONS,
    SPACES,
    START_FLORINS,
    START_POINTS,
    START_WORKERS,
    STATUES,
    THREAT,
    THREAT_MIN,
    TOP_STEP,
    TURNS_PER_PLAYER,
    WORKER,
    WORKERS,
    WORKERS_PER_ACTION,
    YELLOW,
)
from scoring.engine.errors import (
    Code,
    LogError,
    Said,
    check_first_player,
    check_header,
    check_no_teams,
    check_player_names,
    said,
)
from scoring.engine.errors import Seat as SeatNo


class Seat:
    """One seat's counts, as native fields: a seat's hot counters are read and written once or
    more per step, and a field of a compiled class is far cheaper than an item of a list."""

    florins: int
    points: int  # the score track
    step: int  # prestige: 0 = the Town Hall
    workers: list[int]  # per colour
    threats: list[int]  # per colour
    houses: list[int]  # the colour of each house, in the order built
    tenants: list[int]  # per house, the index of the person in it, -1 empty
    in_play: int  # persons in play
    canal: list[int]  # tiles per section
    completed: int  # a bit per section completed once (B3)
    statues: list[int]  # values, in the order taken
    flipped: int  # a bit per majority tile
    # Statistics.
    penalties: list[int]  # suffered, per colour
    hired: list[int]  # per group
    cards_played: int
    # The round being played: what it changed so far, and the counts it started from.
    played: int  # cards played (for passes)
    gained_workers: int  # net
    built_houses: int
    hires: int
    tiles: int
    start_points: int
    start_florins: int
    start_step: int

    def clone(self) -> Seat:
        new = Seat()
        new.florins = self.florins
        new.points = self.points
        new.step = self.step
        new.workers = list(self.workers)
        new.threats = list(self.threats)
        new.houses = list(self.houses)
        new.tenants = list(self.tenants)
        new.in_play = self.in_play
        new.canal = list(self.canal)
        new.completed = self.completed
        new.statues = list(self.statues)
        new.flipped = self.flipped
        new.penalties = list(self.penalties)
        new.hired = list(self.hired)
        new.cards_played = self.cards_played
        new.played = self.played
        new.gained_workers = self.gained_workers
        new.built_houses = self.built_houses
        new.hires = self.hires
        new.tiles = self.tiles
        new.start_points = self.start_points
        new.start_florins = self.start_florins
        new.start_step = self.start_step
        return new


def _new_seat() -> Seat:
    ps = Seat()
    ps.florins = START_FLORINS
    ps.points = START_POINTS
    ps.step = 0
    ps.workers = [START_WORKERS] * NCOLORS
    ps.threats = [0] * NCOLORS
    ps.houses = []
    ps.tenants = []
    ps.in_play = 0
    ps.canal = [0, 0]
    ps.completed = 0
    ps.statues = []
    ps.flipped = 0
    ps.penalties = [0] * NCOLORS
    ps.hired = [0] * NGROUPS
    ps.cards_played = 0
    ps.played = 0
    ps.gained_workers = 0
    ps.built_houses = 0
    ps.hires = 0
    ps.tiles = 0
    ps.start_points = START_POINTS
    ps.start_florins = START_FLORINS
    ps.start_step = 0
    return ps


class Person:
    """A person met in the game (B4, B6): what the log gave the first time, and where it is."""

    id: str
    name: str
    price: int
    group: int
    icon: int
    worker: int  # the worker colour of a `worker` person, else -1
    owner: int
    status: int  # IN_PLAY, IN_HAND, DISCARDED
    used: int  # the round a `worker` person last acted in (0: never)

    def clone(self) -> Person:
        new = Person()
        new.id = self.id
        new.name = self.name
        new.price = self.price
        new.group = self.group
        new.icon = self.icon
        new.worker = self.worker
        new.owner = self.owner
        new.status = self.status
        new.used = self.used
        return new


class State:
    """The game after some rounds. Mutable for speed inside the engine; the public
    ``apply_entry`` works on a copy, so a state handed out is never changed."""

    # Never changed after the header (shared between copies).
    names: list[str]
    players: int
    first_player: int
    edition: Edition
    final: dict[str, Any] | None  # the log's `final`, its shape checked (normalised)
    seats: list[Seat]
    # Persons met, in the order first hired; ``person_index`` maps an id to its index.
    persons: list[Person]
    person_index: dict[str, int]
    # The game.
    pile: int  # statues taken from the pile (STATUES[pile] is its top)
    statues_taken: list[dict[str, Any]]
    round_no: int  # rounds played
    current_first: int  # the first player of the next round
    rounds: list[dict[str, Any]]  # one summary per round played (never changed once made)
    scratch: _Round | None  # reused by each round (not part of the game; a copy gets its own)

    def copy(self) -> State:
        new = State()
        new.names = self.names
        new.players = self.players
        new.first_player = self.first_player
        new.edition = self.edition
        new.final = self.final
        new.seats = [ps.clone() for ps in self.seats]
        new.persons = [p.clone() for p in self.persons]
        new.person_index = dict(self.person_index)
        new.pile = self.pile
        new.statues_taken = list(self.statues_taken)
        new.round_no = self.round_no
        new.current_first = self.current_first
        new.rounds = list(self.rounds)
        new.scratch = None
        return new


class _Round:
    """What one round tracks besides the seats: where the error is, and its events."""

    rno: int
    tno: int  # 0 outside the turns
    dice: list[int]
    first: int
    taken: list[list[int]]  # [seat, statue value]
    suffered: list[list[Any]]  # [seat, colour]
    flipped: list[list[Any]]  # [seat, majority tile]
    pending: list[int]  # penalties triggered by a gain and not suffered yet (seat * 5 + colour)


def _malformed(message: str | Said, rnd: _Round | None = None, seat: int | None = None) -> LogError:
    if rnd is None:
        return LogError("malformed", message, seat=seat)
    return LogError(
        "malformed", message, round=rnd.rno, seat=seat, turn=rnd.tno if rnd.tno else None
    )


def _error(code: str, message: str | Said, rnd: _Round, seat: int | None) -> LogError:
    return LogError(code, message, round=rnd.rno, seat=seat, turn=rnd.tno if rnd.tno else None)


def _as_dict(value: Any) -> dict[str, Any] | None:
    """``value`` as a dict if it is a JSON object (or any mapping), else None."""
    if type(value) is dict:
        return value
    if isinstance(value, Mapping):
        return dict(value)
    return None


def _as_list(value: Any, what: str, rnd: _Round) -> list[Any]:
    """An optional list: missing or null is empty."""
    if value is None:
        return []
    if type(value) is not list:
        raise _malformed(said("{key} is a list", key=Code(what)), rnd)
    items: list[Any] = value
    return items


# --- the header ---------------------------------------------------------------------------


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


# --- penalties (B2, B8) ---------------------------------------------------------------------


def _read_penalty(value: Any, n: int, rnd: _Round) -> tuple[dict[str, Any], int, int]:
    """A penalty entry's (object, seat, colour)."""
    pen = _as_dict(value)
    if pen is None:
        raise _malformed(
            said(
                "a penalty is an object {{{seat_key}, {color_key}, ...choice}}",
                seat_key=Code("seat"),
                color_key=Code("color"),
            ),
            rnd,
        )
    seat = pen.get("seat")
    if type(seat) is not int:
        raise _malformed(said("a penalty's {key} is a seat number", key=Code("seat")), rnd)
    if not 0 <= seat < n:
        raise _error(
            "bad_seat", said("a penalty names {seat}, not a seat", seat=SeatNo(seat)), rnd, seat
        )
    color = pen.get("color")
    code = _color_code(color)
    if code < 0:
        raise _error(
            "bad_color",
            said("{value!r} is not a colour ({colors})", value=color, colors=", ".join(COLORS)),
            rnd,
            seat,
        )
    return pen, seat, code


def _take_pending(pending: list[int], seat: int, color: int, rnd: _Round) -> None:
    key = seat * NCOLORS + color
    for i in range(len(pending)):
        if pending[i] == key:
            pending.pop(i)
            return
    raise _error(
        "unexpected_penalty",
        said(
            "{seat} has no {color} penalty to suffer here",
            seat=SeatNo(seat),
            color=Code(COLORS[color], quoted=False),
        ),
        rnd,
        seat,
    )


def _missing_penalty(pending: list[int], rnd: _Round) -> LogError:
    key = min(pending)
    seat = key // NCOLORS
    return _error(
        "missing_penalty",
        said(
            "{seat} must suffer its {color} penalty here",
            seat=SeatNo(seat),
            color=Code(COLORS[key % NCOLORS], quoted=False),
        ),
        rnd,
        seat,
    )


def _choice_error(message: str | Said, rnd: _Round, seat: int) -> LogError:
    return _error("bad_penalty_choice", message, rnd, seat)


def _suffer(st: State, pen: dict[str, Any], seat: int, color: int, rnd: _Round) -> None:
    """Apply a triggered penalty with its choice, then return 3 tokens (no points)."""
    ps = st.seats[seat]
    house = pen.get("house")
    section = pen.get("section")
    person = pen.get("person")
    if color == BROWN:
        if house is not None or section is not None:
            raise _choice_error(
                said("a brown penalty's choice is a {key}", key=Code("person")), rnd, seat
            )
        if ps.in_play == 0:
            if person is not None:
                raise _choice_error(
                    said("{seat} has no person in play to lose", seat=SeatNo(seat)), rnd, seat
                )
        else:
            p = st.person_index.get(person, -1) if type(person) is str else -1
            if p < 0 or st.persons[p].owner != seat or st.persons[p].status != IN_PLAY:
                raise _choice_error(
                    said(
                        "a brown penalty names one of {seat}'s persons in play ({key}), "
                        "not {pid!r}",
                        seat=SeatNo(seat),
                        key=Code("person"),
                        pid=person,
                    ),
                    rnd,
                    seat,
                )
            tenants = ps.tenants
            for h in range(len(tenants)):
                if tenants[h] == p:
                    tenants[h] = -1
                    break
            st.persons[p].status = DISCARDED
            ps.in_play -= 1
    elif color == RED:
        if person is not None:
            raise _choice_error(
                said(
                    "a red penalty's choice is a {house_key} or a {section_key}",
                    house_key=Code("house"),
                    section_key=Code("section"),
                ),
                rnd,
                seat,
            )
        colors = ps.houses
        canal = ps.canal
        if not colors and canal[0] == 0 and canal[1] == 0:
            if house is not None or section is not None:
                raise _choice_error(
                    said("{seat} has no house and no tile to lose", seat=SeatNo(seat)), rnd, seat
                )
        elif (house is None) == (section is None):
            raise _choice_error(
                said(
                    "a red penalty names one {house_key} (0-based) or one canal {section_key}",
                    house_key=Code("house"),
                    section_key=Code("section"),
                ),
                rnd,
                seat,
            )
        elif house is not None:
            if type(house) is not int or not 0 <= house < len(colors):
                raise _choice_error(
                    said("{seat} has no house {house!r}", seat=SeatNo(seat), house=house),
                    rnd,
                    seat,
                )
            colors.pop(house)
            p = ps.tenants.pop(house)
            if p >= 0:
                st.persons[p].status = IN_HAND
                ps.in_play -= 1
        else:
            k = SECTION_CODES.get(section, -1) if type(section) is str else -1
            if k < 0 or canal[k] == 0:
                raise _choice_error(
                    said(
                        "{seat} has no tile in canal section {section!r}",
                        seat=SeatNo(seat),
                        section=section,
                    ),
                    rnd,
                    seat,
                )
            canal[k] = canal[k] - 1
    else:
        if house is not None or section is not None or person is not None:
            raise _choice_error(
                said("a {color} penalty takes no choice", color=Code(COLORS[color], quoted=False)),
                rnd,
                seat,
            )
        if color == BLUE:
            workers = ps.workers
            lost = 0
            for c in range(NCOLORS):
                lost += workers[c]
                workers[c] = 0
            ps.gained_workers -= lost
        elif color == YELLOW:
            ps.florins = 0
        else:  # PURPLE
            left = ps.points - PURPLE_LOSS
            ps.points = left if left > 0 else 0
    ps.threats[color] = ps.threats[color] - PENALTY_AT
    ps.penalties[color] = ps.penalties[color] + 1
    rnd.suffered.append([seat, COLORS[color]])


# --- effects (B6, B8) -----------------------------------------------------------------------


def _gain_error(message: str | Said, rnd: _Round, seat: int) -> LogError:
    return _error("bad_gain", message, rnd, seat)


def _colour_gain(
    counts: list[int], value: Any, what: str, seat: int, rnd: _Round, tokens: bool
) -> int:
    """Add a per-colour gain to ``counts`` (a seat's workers or threats); returns the tokens
    returned (``tokens``) or the net number added, and checks nothing below zero yet."""
    parts = value if type(value) is dict else _as_dict(value)
    if parts is None:
        raise _gain_error(
            said("a gain's {key} is an object from colour to integer", key=Code(what)), rnd, seat
        )
    returned = 0
    net = 0
    for name, k in parts.items():
        c = _color_code(name)
        if c < 0:
            raise _gain_error(
                said("{value!r} in a gain's {key} is not a colour", value=name, key=Code(what)),
                rnd,
                seat,
            )
        if type(k) is not int:
            raise _gain_error(said("a gain's {key} values are integers", key=Code(what)), rnd, seat)
        counts[c] = counts[c] + k
        net += k
        if k < 0:
            returned -= k
    return returned if tokens else net


def _apply_gain(
    st: State, gain: dict[str, Any], owner: int, rnd: _Round, plays_ok: bool, pending: list[int]
) -> int:
    """Apply a gain to ``owner`` (all parts at once, B8) and return the extra plays. Adds the
    penalties it triggers to ``pending``."""
    ps = st.seats[owner]
    plays = 0
    touched_threats = False
    touched_workers = False
    touched = False  # florins, points or step
    for key, value in gain.items():
        if key == "florins":
            if type(value) is not int:
                raise _gain_error(
                    said("a gain's {key} is an integer", key=Code("florins")), rnd, owner
                )
            ps.florins += value
            touched = touched or value < 0
        elif key == "points":
            if type(value) is not int:
                raise _gain_error(
                    said("a gain's {key} is an integer", key=Code("points")), rnd, owner
                )
            ps.points += value
            touched = touched or value < 0
        elif key == "prestige":
            if type(value) is not int:
                raise _gain_error(
                    said("a gain's {key} is an integer", key=Code("prestige")), rnd, owner
                )
            climbed = ps.step + value
            ps.step = climbed if climbed < TOP_STEP else TOP_STEP
            touched = touched or value < 0
        elif key == "workers":
            ps.gained_workers += _colour_gain(ps.workers, value, key, owner, rnd, False)
            touched_workers = True
        elif key == "threats":
            ps.points += _colour_gain(ps.threats, value, key, owner, rnd, True)
            touched_threats = True
        elif key == "plays":
            if type(value) is not int or value < 0:
                raise _gain_error(
                    said("a gain's {key} is an integer >= 0", key=Code("plays")), rnd, owner
                )
            if value and not plays_ok:
                raise _gain_error(
                    said("only the turn's own seat gets extra plays, in its turn"), rnd, owner
                )
            plays = value
        else:
            raise _gain_error(
                said("{value!r} is not a gain ({gains})", value=key, gains=", ".join(GAIN_NAMES)),
                rnd,
                owner,
            )
    if touched and (ps.florins < 0 or ps.points < 0 or ps.step < 0):
        raise _error(
            "below_zero",
            said("the gain leaves {seat} below zero", seat=SeatNo(owner)),
            rnd,
            owner,
        )
    if touched_workers:
        workers = ps.workers
        for c in range(NCOLORS):
            if workers[c] < 0:
                raise _error(
                    "below_zero",
                    said("the gain leaves {seat} below zero workers", seat=SeatNo(owner)),
                    rnd,
                    owner,
                )
    if touched_threats:
        threats = ps.threats
        for c in range(NCOLORS):
            t = threats[c]
            if t < 0:
                raise _error(
                    "below_zero",
                    said("the gain leaves {seat} below zero tokens", seat=SeatNo(owner)),
                    rnd,
                    owner,
                )
            if t >= PENALTY_AT:
                pending.append(owner * NCOLORS + c)
    return plays


GAIN_NAMES: Final = ("florins", "points", "prestige", "workers", "threats", "plays")


def _effect(
    st: State,
    step: dict[str, Any],
    pid: Any,
    turn_seat: int,
    rnd: _Round,
    arrow_ready: int,
    pending: list[int],
) -> int:
    """An effect step in a turn (``turn_seat`` >= 0) or in upkeep (-1). Returns the extra
    plays it grants."""
    if type(pid) is not str:
        raise _malformed(said("an effect's {key} is a person id", key=Code("effect")), rnd)
    owner_value = step.get("seat")
    if owner_value is None:
        if turn_seat < 0:
            raise _malformed(said("an upkeep entry names its {key}", key=Code("seat")), rnd)
        owner = turn_seat
    elif type(owner_value) is not int:
        raise _malformed(said("an effect's {key} is a seat number", key=Code("seat")), rnd)
    else:
        owner = owner_value
        if not 0 <= owner < st.players:
            raise _error(
                "bad_seat",
                said("an effect names {seat}, not a seat", seat=SeatNo(owner)),
                rnd,
                owner,
            )
    p = st.person_index.get(pid, -1)
    if p < 0:
        raise _error(
            "unknown_person", said("no person {pid!r} was hired in this game", pid=pid), rnd, owner
        )
    person = st.persons[p]
    if person.status != IN_PLAY:
        raise _error("person_gone", said("person {pid!r} is not in play", pid=pid), rnd, owner)
    if person.owner != owner:
        raise _error(
            "effect_not_allowed",
            said("person {pid!r} is not {seat}'s", pid=pid, seat=SeatNo(owner)),
            rnd,
            owner,
        )
    icon = person.icon
    if icon != INFINITY:
        if turn_seat < 0:
            raise _error(
                "effect_not_allowed",
                said(
                    "only infinity persons act outside the turns, not {pid!r} ({icon})",
                    pid=pid,
                    icon=Code(ICONS[icon], quoted=False),
                ),
                rnd,
                owner,
            )
        if owner != turn_seat:
            raise _error(
                "effect_not_allowed",
                said("only an infinity person acts in another seat's turn, not {pid!r}", pid=pid),
                rnd,
                owner,
            )
        if icon == LAUREL:
            raise _error(
                "effect_not_allowed",
                said("laurel person {pid!r} acts only at the end", pid=pid),
                rnd,
                owner,
            )
        if icon == ARROW:
            if arrow_ready != p:
                raise _error(
                    "effect_not_allowed",
                    said(
                        "arrow person {pid!r} acts only in the step right after its hire", pid=pid
                    ),
                    rnd,
                    owner,
                )
        else:  # WORKER
            if person.used == rnd.rno:
                raise _error(
                    "effect_not_allowed",
                    said("worker person {pid!r} already acted this round", pid=pid),
                    rnd,
                    owner,
                )
            person.used = rnd.rno
            ps = st.seats[owner]
            workers = ps.workers
            w = person.worker
            if workers[w] < 1:
                raise _error(
                    "not_enough_workers",
                    said(
                        "{seat} has no {color} worker to activate {pid!r}",
                        seat=SeatNo(owner),
                        color=Code(COLORS[w], quoted=False),
                        pid=pid,
                    ),
                    rnd,
                    owner,
                )
            workers[w] = workers[w] - 1
            ps.gained_workers -= 1
    gain_value = step.get("gain")
    if gain_value is None:
        return 0
    gain = gain_value if type(gain_value) is dict else _as_dict(gain_value)
    if gain is None:
        raise _gain_error(said("{key} is an object", key=Code("gain")), rnd, owner)
    return _apply_gain(st, gain, owner, rnd, owner == turn_seat, pending)


# --- the actions (phase 3) ------------------------------------------------------------------


def _pay(ps: Seat, cost: int, seat: int, rnd: _Round) -> None:
    """A hire, a canal tile or a prestige step: the seat pays ``cost`` florins, or the log is
    refused."""
    if ps.florins < cost:
        raise _error(
            "not_enough_florins",
            said(
                "{seat} has {florins} florins, {cost} needed",
                seat=SeatNo(seat),
                florins=ps.florins,
                cost=cost,
            ),
            rnd,
            seat,
        )
    ps.florins -= cost


def _hire(st: State, ps: Seat, step: dict[str, Any], seat: int, rnd: _Round) -> int:
    """A ``person`` action; returns the index of the person hired."""
    house = step.get("house")
    tenants = ps.tenants
    if type(house) is not int or not 0 <= house < len(tenants) or tenants[house] >= 0:
        raise _error(
            "no_empty_house",
            said(
                "{seat} has no empty house {house!r} to hire into", seat=SeatNo(seat), house=house
            ),
            rnd,
            seat,
        )
    given = step.get("person")
    if type(given) is str:
        p = st.person_index.get(given, -1)
        if p < 0:
            raise _error(
                "unknown_person",
                said(
                    "no person {pid!r} was met in this game (give it whole the first time)",
                    pid=given,
                ),
                rnd,
                seat,
            )
        person = st.persons[p]
        if person.status != IN_HAND or person.owner != seat:
            raise _error(
                "person_gone",
                said("person {pid!r} is not back in {seat}'s hand", pid=given, seat=SeatNo(seat)),
                rnd,
                seat,
            )
    else:
        p = len(st.persons)
        person = _new_person(st, given, seat, rnd)
    price = person.price
    _pay(ps, price, seat, rnd)
    tenants[house] = p
    person.owner = seat
    person.status = IN_PLAY
    ps.in_play += 1
    ps.hired[person.group] = ps.hired[person.group] + 1
    ps.hires += 1
    return p


def _new_person(st: State, given: Any, seat: int, rnd: _Round) -> Person:
    """A person given whole, added to the persons met (in hand until the hire is paid)."""
    obj = _as_dict(given)
    if obj is None:
        raise _error(
            "bad_person",
            said("{key} is a person object, or the id of one met before", key=Code("person")),
            rnd,
            seat,
        )
    pid = obj.get("id")
    if type(pid) is not str or not pid:
        raise _error(
            "bad_person", said("a person's {key} is a non-empty string", key=Code("id")), rnd, seat
        )
    p = len(st.persons)
    if st.person_index.setdefault(pid, p) != p:
        raise _error(
            "bad_person",
            said("person {pid!r} was met before: hire it again by its id", pid=pid),
            rnd,
            seat,
        )
    name = obj.get("name")
    if type(name) is not str:
        raise _error(
            "bad_person", said("person {pid!r} needs a {key}", pid=pid, key=Code("name")), rnd, seat
        )
    price = obj.get("price")
    if type(price) is not int or not 0 <= price <= MAX_PRICE or price % PRICE_PER_POINT:
        raise _error(
            "bad_person",
            said("person {pid!r}: {key} is 0, 3, 6, 9 or 12 (B4)", pid=pid, key=Code("price")),
            rnd,
            seat,
        )
    group_name = obj.get("group")
    group = GROUP_CODES.get(group_name, -1) if type(group_name) is str else -1
    if group < 0:
        raise _error(
            "bad_person",
            said(
                "person {pid!r}: {key} is one of {groups}",
                pid=pid,
                key=Code("group"),
                groups=", ".join(GROUPS),
            ),
            rnd,
            seat,
        )
    icon_name = obj.get("icon")
    icon = ICON_CODES.get(icon_name, -1) if type(icon_name) is str else -1
    if icon < 0:
        raise _error(
            "bad_person",
            said(
                "person {pid!r}: {key} is one of {icons}",
                pid=pid,
                key=Code("icon"),
                icons=", ".join(ICONS),
            ),
            rnd,
            seat,
        )
    worker = -1
    if icon == WORKER:
        worker_name = obj.get("worker")
        worker = COLOR_CODES.get(worker_name, -1) if type(worker_name) is str else -1
        if worker < 0:
            raise _error(
                "bad_person",
                said(
                    "worker person {pid!r}: {key} is the colour its activation costs",
                    pid=pid,
                    key=Code("worker"),
                ),
                rnd,
                seat,
            )
    person = Person()
    person.id = pid
    person.name = name
    person.price = price
    person.group = group
    person.icon = icon
    person.worker = worker
    person.owner = seat
    person.status = IN_HAND
    person.used = 0
    st.persons.append(person)
    return person


def _canal(st: State, ps: Seat, step: dict[str, Any], seat: int, color: int, rnd: _Round) -> None:
    name = step.get("section")
    s = SECTION_CODES.get(name, -1) if type(name) is str else -1
    if s < 0:
        raise _error(
            "bad_section",
            said(
                "{key} is {left} or {right}, not {value!r}",
                key=Code("section"),
                left=Code("left"),
                right=Code("right"),
                value=name,
            ),
            rnd,
            seat,
        )
    canal = ps.canal
    k = canal[s]
    if k >= SPACES:
        raise _error(
            "canal_full",
            said(
                "{seat}'s {section} section is complete",
                seat=SeatNo(seat),
                section=Code(SECTIONS[s], quoted=False),
            ),
            rnd,
            seat,
        )
    ed = st.edition
    space = s * SPACES + k
    want = ed.canal_color[space]
    if want >= 0 and want != color:
        raise _error(
            "wrong_space_color",
            said(
                "space {space} of the {section} section takes a {color} card",
                space=k + 1,
                section=Code(SECTIONS[s], quoted=False),
                color=Code(COLORS[want], quoted=False),
            ),
            rnd,
            seat,
        )
    cost = ed.canal_cost[space]
    _pay(ps, cost, seat, rnd)
    canal[s] = k + 1
    ps.tiles += 1
    bit = 1 << s
    if k + 1 == SPACES and not ps.completed & bit:
        # B3: the first completion takes the top statue, if any is left and the seat has
        # fewer than two; a section completed again takes none.
        ps.completed |= bit
        if st.pile < len(STATUES) and len(ps.statues) < MAX_STATUES:
            value = STATUES[st.pile]
            st.pile += 1
            ps.statues.append(value)
            rnd.taken.append([seat, value])
            st.statues_taken.append(
                {"seat": seat, "section": SECTIONS[s], "value": value, "round": rnd.rno}
            )


def _color_code(name: Any) -> int:
    """A colour's code, -1 for anything else (a length switch and one string compare beat a
    dict lookup here)."""
    if type(name) is not str:
        return -1
    size = len(name)
    if size == 3:
        return RED if name == "red" else -1
    if size == 4:
        return BLUE if name == "blue" else -1
    if size == 5:
        return BROWN if name == "brown" else -1
    if size == 6:
        if name == "yellow":
            return YELLOW
        return PURPLE if name == "purple" else -1
    return -1


def _action_code(name: Any) -> int:
    if type(name) is not str:
        return -1
    size = len(name)
    if size == 7:
        if name == "workers":
            return WORKERS
        return FLORINS if name == "florins" else -1
    if size == 5:
        if name == "house":
            return HOUSE
        return CANAL if name == "canal" else -1
    if size == 6:
        if name == "person":
            return PERSON
        return THREAT if name == "threat" else -1
    return -1


def _card(
    st: State, ps: Seat, step: dict[str, Any], color_name: Any, seat: int, rnd: _Round
) -> int:
    """A card played for an action; returns the index of an arrow person it hired, else -1
    (an arrow person may act in the very next step, B6)."""
    color = _color_code(color_name)
    if color < 0:
        raise _error(
            "bad_card",
            said(
                "a card is one of {colors}, not {value!r}",
                colors=", ".join(COLORS),
                value=color_name,
            ),
            rnd,
            seat,
        )
    action_name = step.get("action")
    action = _action_code(action_name)
    if action < 0:
        raise _error(
            "unknown_action",
            said(
                "{key} is one of {actions}, not {value!r}",
                key=Code("action"),
                actions=", ".join(ACTIONS),
                value=action_name,
            ),
            rnd,
            seat,
        )
    ps.played += 1
    if action == WORKERS:
        workers = ps.workers
        workers[color] = workers[color] + WORKERS_PER_ACTION
        ps.gained_workers += WORKERS_PER_ACTION
    elif action == FLORINS:
        ps.florins += rnd.dice[color]
    elif action == THREAT:
        threats = ps.threats
        if threats[color] < 1:
            raise _error(
                "no_threat_token",
                said(
                    "{seat} has no {color} threat token",
                    seat=SeatNo(seat),
                    color=Code(COLORS[color], quoted=False),
                ),
                rnd,
                seat,
            )
        threats[color] = threats[color] - 1
        ps.points += 1
    elif action == CANAL:
        _canal(st, ps, step, seat, color, rnd)
    elif action == HOUSE:
        workers = ps.workers
        if workers[color] < 1:
            raise _error(
                "not_enough_workers",
                said(
                    "{seat} has no {color} worker to build a house",
                    seat=SeatNo(seat),
                    color=Code(COLORS[color], quoted=False),
                ),
                rnd,
                seat,
            )
        workers[color] = workers[color] - 1
        ps.gained_workers -= 1
        ps.houses.append(color)
        ps.tenants.append(-1)
        ps.built_houses += 1
    else:  # PERSON
        p = _hire(st, ps, step, seat, rnd)
        if st.persons[p].icon == ARROW:
            return p
    return -1


def _turn(st: State, value: Any, due: int, rnd: _Round) -> None:
    t = value if type(value) is dict else _as_dict(value)
    if t is None:
        raise _malformed(
            said(
                "a turn is an object {{{seat_key}, {steps_key}}} or "
                "{{{seat_key}, {pass_key}: true}}",
                seat_key=Code("seat"),
                steps_key=Code("steps"),
                pass_key=Code("pass"),
            ),
            rnd,
        )
    seat = t.get("seat")
    if type(seat) is not int:
        raise _malformed(said("a turn's {key} is a seat number", key=Code("seat")), rnd)
    if seat != due:
        raise _error(
            "out_of_turn",
            said(
                "turn {turn} is {due}'s, not {seat}'s",
                turn=rnd.tno,
                due=SeatNo(due),
                seat=SeatNo(seat),
            ),
            rnd,
            seat,
        )
    ps = st.seats[due]
    steps_value = t.get("steps")
    # The usual turn is {"seat", "steps"}: no other key to look at.
    if len(t) != 2 or type(steps_value) is not list:
        passed = t.get("pass")
        if passed is not None and passed is not False:
            if passed is not True:
                raise _malformed(said("{key} is true (or missing)", key=Code("pass")), rnd, seat)
            if steps_value is not None and steps_value != []:
                raise _malformed(said("a pass has no steps"), rnd, seat)
            if ps.played < HAND:
                raise _error(
                    "early_pass",
                    said(
                        "{seat} has played {played} cards this round: it cannot be out of "
                        "cards yet",
                        seat=SeatNo(seat),
                        played=ps.played,
                    ),
                    rnd,
                    seat,
                )
            return
        if type(steps_value) is not list:
            raise _malformed(said("a turn's {key} is a list", key=Code("steps")), rnd, seat)
    steps: list[Any] = steps_value
    plays = 1
    cards = 0
    arrow = -1
    pending = rnd.pending
    for item in steps:
        step = item if type(item) is dict else _as_dict(item)
        if step is None:
            raise _malformed(said("a step is an object: a card, an effect or a penalty"), rnd, seat)
        ready = arrow
        arrow = -1
        card = step.get("card")
        if card is not None:
            if pending:
                raise _missing_penalty(pending, rnd)
            if cards >= plays:
                raise _error(
                    "wrong_play_count",
                    said(
                        "{seat} may play {plays} card(s) in this turn",
                        seat=SeatNo(seat),
                        plays=plays,
                    ),
                    rnd,
                    seat,
                )
            cards += 1
            arrow = _card(st, ps, step, card, due, rnd)
            continue
        pid = step.get("effect")
        if pid is not None:
            if pending:
                raise _missing_penalty(pending, rnd)
            plays += _effect(st, step, pid, due, rnd, ready, pending)
            continue
        pen_value = step.get("penalty")
        if pen_value is None:
            if pending:
                raise _missing_penalty(pending, rnd)
            raise _malformed(said("a step is a card, an effect or a penalty"), rnd, seat)
        pen, pseat, color = _read_penalty(pen_value, st.players, rnd)
        _take_pending(pending, pseat, color, rnd)
        _suffer(st, pen, pseat, color, rnd)
    if pending:
        raise _missing_penalty(pending, rnd)
    if cards != plays:
        raise _error(
            "wrong_play_count",
            said(
                "{seat} played {cards} card(s) in a turn of {plays}",
                seat=SeatNo(seat),
                cards=cards,
                plays=plays,
            ),
            rnd,
            seat,
        )


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


# --- a round --------------------------------------------------------------------------------


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
