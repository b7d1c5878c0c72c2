"""A Pot de Vin log's header: its players, teams, deal, trump pile and Jokers checked, and the
state they give before round 1."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scoring.engine.errors import Code, LogError, Seat, check_first_player, check_header, said
from scoring.engine.potdevin.cards import ALL_CARDS_MASK, CARD_BIT, GUILD_INDEX
from scoring.engine.potdevin.decks import BUILTIN_DECKS, Deck
from scoring.engine.potdevin.reading import _card, _is_int, _malformed
from scoring.engine.potdevin.rules import LOG_FORMAT, SETUPS, TEAM_COUNTS, TEAM_SIZE, Setup
from scoring.engine.potdevin.state import State

DEFAULT_DECK_ID: Final = "standard"
SEAT_KEYS: Final[tuple[str, ...]] = tuple(str(s) for s in range(max(SETUPS) + 1))  # JSON keys
# RINGS[n][s]: the seats of an n-player table clockwise from s (shared, never changed).
RINGS: Final = {n: tuple(tuple((s + k) % n for k in range(n)) for s in range(n)) for n in SETUPS}


def check_players(names: Any) -> tuple[list[str], Setup]:
    """The player names in seat order and the setup for that many players."""
    if not isinstance(names, list):
        raise _players_malformed()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise _players_malformed()
    setup = SETUPS.get(len(names))
    if setup is None:
        raise LogError(
            "bad_player_count",
            said(
                "{game} is for {fewest} to {most} players, not {count}",
                game="Pot de Vin",
                fewest=min(SETUPS),
                most=max(SETUPS),
                count=len(names),
            ),
        )
    return list(names), setup


def _players_malformed() -> LogError:
    return _malformed(
        said("{players} is the list of player names in seat order", players=Code("players"))
    )


def _teams_malformed() -> LogError:
    return _malformed(
        said(
            "{teams} is null or a list of lists of seats, like [[0, 2], [1, 3]]",
            teams=Code("teams"),
        )
    )


def check_teams(teams: Any, n: int) -> list[list[int]] | None:
    """Teams are pairs that share no side (rules: team play; D9 makes 6-player teams optional)."""
    if teams is None:
        return None
    if n not in TEAM_COUNTS:
        raise LogError("bad_teams", said("team play needs 4 or 6 players, not {count}", count=n))
    if not isinstance(teams, list):
        raise _teams_malformed()
    checked: list[list[int]] = []
    for team in teams:
        if not isinstance(team, list):
            raise _teams_malformed()
        for s in team:
            if not _is_int(s):
                raise _teams_malformed()
        checked.append(list(team))
    sizes_ok = len(checked) == TEAM_COUNTS[n]
    for team in checked:
        sizes_ok = sizes_ok and len(team) == TEAM_SIZE
    if not sizes_ok:
        raise LogError(
            "bad_teams",
            said(
                "{players} players play in {teams} teams of {size}",
                players=n,
                teams=TEAM_COUNTS[n],
                size=TEAM_SIZE,
            ),
        )
    # n seats in all, so covering every seat means each seat exactly once.
    seen = 0
    for team in checked:
        for s in team:
            seen |= 1 << s if 0 <= s < n else 1 << n
    if seen != (1 << n) - 1:
        raise LogError(
            "bad_teams", said("every seat 0 to {last} must be in exactly one team", last=n - 1)
        )
    for a, b in checked:
        if (a - b) % n in (1, n - 1):
            raise LogError(
                "bad_teams",
                said("teammates {a} and {b} sit side by side", a=Seat(a), b=Seat(b)),
                seat=max(a, b),
            )
    return checked


def _check_hands(hands: Any, setup: Setup) -> list[int] | None:
    if hands is None:
        return None
    if type(hands) is dict and len(hands) == setup.players:
        masks = _well_formed_deal(hands, setup)
        if masks is not None:
            return masks
    # Anything odd: find the first thing wrong, for the error.
    if not isinstance(hands, Mapping):
        raise _malformed(
            said("{hands} is null or an object from seat to its cards", hands=Code("hands"))
        )
    by_seat: dict[int, Any] = {}
    for key, cards in hands.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() else key
        if not _is_int(seat) or not 0 <= seat < setup.players:
            raise LogError(
                "bad_hands",
                said("{hands} names {key!r}, which is not a seat", hands=Code("hands"), key=key),
            )
        if seat in by_seat:
            raise LogError(
                "bad_hands",
                said("{hands} gives {seat} twice", hands=Code("hands"), seat=Seat(seat)),
                seat=seat,
            )
        by_seat[seat] = cards
    masks = []
    dealt = 0
    for seat in range(setup.players):
        cards = by_seat.get(seat)
        if cards is None:
            raise LogError(
                "bad_hands",
                said("{hands} has no hand for {seat}", hands=Code("hands"), seat=Seat(seat)),
                seat=seat,
            )
        if not isinstance(cards, list):
            raise _malformed(
                said("the hand of {seat} is a list of cards", seat=Seat(seat)), seat=seat
            )
        if len(cards) != setup.hand:
            raise LogError(
                "bad_hands",
                said(
                    "{seat} holds {count} cards; with {players} players a hand is {hand}",
                    seat=Seat(seat),
                    count=len(cards),
                    players=setup.players,
                    hand=setup.hand,
                ),
                seat=seat,
            )
        mask = 0
        for name in cards:
            bit = 1 << _card(name, seat=seat)
            if dealt & bit or mask & bit:
                raise LogError(
                    "duplicate_card", said("{card} is dealt twice", card=name), seat=seat
                )
            mask |= bit
        dealt |= mask
        masks.append(mask)
    return masks


def _well_formed_deal(hands: dict[Any, Any], setup: Setup) -> list[int] | None:
    """The hands as bit masks if they are a well-formed deal keyed "0", "1", ... as JSON has
    them, else None (``_check_hands`` then explains what is wrong)."""
    masks: list[int] = []
    dealt = 0
    for seat in range(setup.players):
        cards = hands.get(SEAT_KEYS[seat])
        if type(cards) is not list or len(cards) != setup.hand:
            return None
        hand: list[Any] = cards
        mask = 0
        for name in hand:
            bit = CARD_BIT.get(name, 0) if type(name) is str else 0
            if not bit or mask & bit:
                return None
            mask |= bit
        if dealt & mask:
            return None
        dealt |= mask
        masks.append(mask)
    return masks


def _check_trump_pile(pile: Any, setup: Setup, dealt: int) -> list[int] | None:
    if pile is None:
        return None
    if not isinstance(pile, list):
        raise _malformed(
            said("{trump_pile} is null or a list of cards", trump_pile=Code("trump_pile"))
        )
    if len(pile) != setup.trump_pile:
        raise LogError(
            "bad_trump_pile",
            said(
                "with {players} players the trump pile has {size} cards, not {count}",
                players=setup.players,
                size=setup.trump_pile,
                count=len(pile),
            ),
        )
    order: list[int] = []
    seen = 0
    for name in pile:
        ci = _card(name)
        bit = 1 << ci
        if seen & bit:
            raise LogError("duplicate_card", said("{card} is twice in the trump pile", card=name))
        if dealt & bit:
            raise LogError(
                "duplicate_card", said("{card} is both dealt and in the trump pile", card=name)
            )
        seen |= bit
        order.append(ci)
    return order


def parse_jokers(jokers: Any, n: int) -> dict[int, list[str]] | None:
    """Shape only: whether a placement obeys the Joker rules depends on the tableaux (D5)."""
    if jokers is None:
        return None
    if not isinstance(jokers, Mapping):
        raise _malformed(
            said(
                "{jokers} is null or an object from seat to a list of guilds",
                jokers=Code("jokers"),
            )
        )
    placement: dict[int, list[str]] = {}
    for key, guilds in jokers.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() else key
        if not _is_int(seat) or not 0 <= seat < n:
            raise LogError(
                "bad_joker_placement",
                said("{jokers} names {key!r}, which is not a seat", jokers=Code("jokers"), key=key),
            )
        if not isinstance(guilds, list) or not all(isinstance(g, str) for g in guilds):
            raise _malformed(
                said("the Jokers of {seat} are a list of guild names", seat=Seat(seat)), seat=seat
            )
        for g in guilds:
            if g not in GUILD_INDEX:
                raise LogError(
                    "bad_joker_placement", said("{guild!r} is not a guild", guild=g), seat=seat
                )
        placement[seat] = list(guilds)
    return placement


def check_jokers(jokers: Any, state: State) -> dict[int, list[str]] | None:
    """Check the shape of an explicit Joker placement given after the log (e.g. at finish)."""
    return parse_jokers(jokers, state.setup.players)


def start_state(log: Any, deck: Deck | None = None) -> State:
    """Check a log header and build the state before round 1 (``log["rounds"]`` is not read).

    Raises ``LogError``: malformed, unsupported_format, bad_player_count, bad_first_player,
    unknown_deck, bad_teams, bad_hands, bad_trump_pile, unknown_card, duplicate_card,
    bad_joker_placement.
    """
    return _start_state(check_header(log, LOG_FORMAT), deck)


def _start_state(log: dict[str, Any], deck: Deck | None) -> State:
    names, setup = check_players(log.get("players"))
    n = setup.players
    first = check_first_player(log.get("first_player"), n)
    if deck is None:
        deck_id = log.get("deck", DEFAULT_DECK_ID)
        if deck_id is None:
            deck_id = DEFAULT_DECK_ID
        if not isinstance(deck_id, str):
            raise _malformed(said("{deck} is the id of a deck version", deck=Code("deck")))
        found = BUILTIN_DECKS.get(deck_id)
        if found is None:
            raise LogError(
                "unknown_deck", said("no deck {deck!r} is known to the engine", deck=deck_id)
            )
        deck = found
    teams = check_teams(log.get("teams"), n)
    hands = _check_hands(log.get("hands"), setup)
    dealt = 0
    for mask in hands or ():
        dealt |= mask
    pile_order = _check_trump_pile(log.get("trump_pile"), setup, dealt)
    if pile_order is not None:
        pile = 0
        for i in pile_order:
            pile |= 1 << i
    elif hands is not None:
        pile = ALL_CARDS_MASK ^ dealt  # every card not dealt lies in the trump pile
    else:
        pile = 0
    if setup.players == 6:
        pile_order = None  # 6 players: the pile's order changes every cycle; only its set counts
    st = State()
    st.setup = setup
    st.names = names
    st.first_player = first
    st.teams = teams
    st.deck = deck
    st.jokers = parse_jokers(log.get("jokers"), n)
    st.rings = RINGS[n]
    st.dealt = hands
    st.counts = [setup.hand] * n
    st.emptied = 0
    st.gems = [setup.gems] * n
    st.gems_won = [0] * n
    st.gems_paid = [0] * n
    st.gems_removed = [0] * n
    st.tally = [0] * n
    st.rounds_won = [0] * n
    st.played = 0
    st.trumps = 0
    st.cycle = 0
    st.pile = pile
    st.pile_order = pile_order
    st.starter = first
    st.round_no = 0
    st.finished = False
    st.failures = [{} for _ in range(n)] if hands is None else []  # only read without the deal
    st.violations = []
    st.rounds = []
    return st
