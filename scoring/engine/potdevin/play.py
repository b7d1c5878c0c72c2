"""Reading a Pot de Vin log: the header checks, the game state and the checked round.

Every check raises ``LogError`` before the log is accepted; nothing here draws chance (the deal
and the trump order are data in the log). Cards are small integers (see ``cards``) and sets of
cards are bit masks, because replaying whole stored archives is a hot path. For the same reason
list items are updated as ``a[i] = a[i] + x``: compiled, ``a[i] += x`` is a generic operation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeGuard

from scoring.engine.errors import (
    Code,
    LogError,
    Said,
    Seat,
    check_first_player,
    check_header,
    said,
)
from scoring.engine.potdevin.cards import (
    ALL_CARDS_MASK,
    CARD_BIT,
    CARD_INDEX,
    CARD_NAMES,
    CHARACTER_MASKS,
    CHARACTERS,
    GUILD_INDEX,
)
from scoring.engine.potdevin.decks import BUILTIN_DECKS, Deck
from scoring.engine.potdevin.rules import (
    LOG_FORMAT,
    SETUPS,
    SIX_PLAYER_CYCLE,
    TEAM_COUNTS,
    TEAM_SIZE,
    Setup,
)

DEFAULT_DECK_ID: Final = "standard"
SEAT_KEYS: Final[tuple[str, ...]] = tuple(str(s) for s in range(max(SETUPS) + 1))  # JSON keys
# RINGS[n][s]: the seats of an n-player table clockwise from s (shared, never changed).
RINGS: Final = {n: tuple(tuple((s + k) % n for k in range(n)) for s in range(n)) for n in SETUPS}


class State:
    """The game after some rounds. Mutable for speed inside the engine; the public
    ``apply_round`` works on a copy, so a state handed out is never changed."""

    __slots__ = (
        "setup",
        "names",
        "first_player",
        "teams",
        "deck",
        "jokers",
        "rings",
        "dealt",
        "counts",
        "emptied",
        "gems",
        "gems_won",
        "gems_paid",
        "gems_removed",
        "tally",
        "rounds_won",
        "played",
        "trumps",
        "cycle",
        "pile",
        "pile_order",
        "starter",
        "round_no",
        "finished",
        "failures",
        "violations",
        "rounds",
    )

    setup: Setup
    names: list[str]
    first_player: int
    teams: list[list[int]] | None
    deck: Deck
    jokers: dict[int, list[str]] | None
    rings: tuple[tuple[int, ...], ...]  # rings[s]: every seat clockwise starting at s
    dealt: list[int] | None  # each seat's hand as dealt (bit mask), when the log records it
    counts: list[int]  # cards in hand per seat
    emptied: int  # mask of the seats that have played their last card
    gems: list[int]  # gems in hand
    gems_won: list[int]
    gems_paid: list[int]
    gems_removed: list[int]  # rules D2: gems left in a hand that ran out of cards
    tally: list[int]  # cards won per seat, tallied by column (see cards.card_tally)
    rounds_won: list[int]
    played: int  # mask of cards played
    trumps: int  # mask of cards revealed as trump
    cycle: int  # 6 players: mask of trumps revealed in the current cycle of 4 rounds
    pile: int  # mask of the trump pile when the log lets us know it, else 0
    pile_order: list[int] | None  # 3-5 players: the recorded pile in reveal order
    starter: int
    round_no: int  # rounds played so far
    finished: bool
    # rules D4 without the deal: per seat, lead character -> [(round, card)] not followed yet
    # (empty when the deal is recorded)
    failures: list[dict[int, list[tuple[int, int]]]]
    violations: list[dict[str, Any]]
    rounds: list[dict[str, Any]]  # one summary per round played (never changed once made)

    def copy(self) -> State:
        new = State()
        # Immutable or never changed after the header: shared.
        new.setup = self.setup
        new.names = self.names
        new.first_player = self.first_player
        new.teams = self.teams
        new.deck = self.deck
        new.jokers = self.jokers
        new.rings = self.rings
        new.dealt = self.dealt
        new.pile = self.pile
        new.pile_order = self.pile_order
        # Changed by rounds: copied.
        new.counts = list(self.counts)
        new.emptied = self.emptied
        new.gems = list(self.gems)
        new.gems_won = list(self.gems_won)
        new.gems_paid = list(self.gems_paid)
        new.gems_removed = list(self.gems_removed)
        new.tally = list(self.tally)
        new.rounds_won = list(self.rounds_won)
        new.played = self.played
        new.trumps = self.trumps
        new.cycle = self.cycle
        new.starter = self.starter
        new.round_no = self.round_no
        new.finished = self.finished
        new.failures = [{ch: list(v) for ch, v in f.items()} for f in self.failures]
        new.violations = list(self.violations)
        new.rounds = list(self.rounds)  # round summaries are never changed once made
        return new

    @property
    def hands(self) -> list[int] | None:
        """Each seat's hand now (bit mask), when the deal is recorded."""
        if self.dealt is None:
            return None
        unplayed = ALL_CARDS_MASK ^ self.played
        return [hand & unplayed for hand in self.dealt]

    @property
    def player_count(self) -> int:
        return self.setup.players


def _malformed(
    message: str | Said, *, round: int | None = None, seat: int | None = None
) -> LogError:
    return LogError("malformed", message, round=round, seat=seat)


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int  # bool is an int subclass, and True is no seat


def _card(name: Any, *, round: int | None = None, seat: int | None = None) -> int:
    if type(name) is str and name in CARD_INDEX:
        return CARD_INDEX[name]
    if not isinstance(name, str):
        raise _malformed(
            said("a card is written like 'A7', not {value!r}", value=name), round=round, seat=seat
        )
    index = CARD_INDEX.get(name)
    if index is None:
        raise LogError(
            "unknown_card",
            said("{name!r} is not a card (A1 to U13)", name=name),
            round=round,
            seat=seat,
        )
    return index


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


def _check_trump(st: State, trump: int, rno: int) -> None:
    bit = 1 << trump
    name = CARD_NAMES[trump]
    if st.played & bit:
        raise LogError(
            "duplicate_card", said("the trump {card} was already played", card=name), round=rno
        )
    if st.setup.players == 6:
        if rno > SIX_PLAYER_CYCLE and not st.trumps & bit:
            raise LogError(
                "wrong_trump",
                said(
                    "round {round} reveals {card}, which is not one of the 4 trump cards of "
                    "rounds 1-4",
                    round=rno,
                    card=name,
                ),
                round=rno,
            )
        if st.cycle & bit:
            raise LogError(
                "trump_reused",
                said("{card} was already revealed in this cycle of 4", card=name),
                round=rno,
            )
    elif st.trumps & bit:
        raise LogError(
            "trump_reused", said("{card} was already revealed as trump", card=name), round=rno
        )
    if st.pile_order is not None:
        if st.pile_order[rno - 1] != trump:
            raise LogError(
                "wrong_trump",
                said(
                    "the recorded trump pile reveals {expected} in round {round}, not {card}",
                    expected=CARD_NAMES[st.pile_order[rno - 1]],
                    round=rno,
                    card=name,
                ),
                round=rno,
            )
    elif st.pile and not st.pile & bit:
        raise LogError("wrong_trump", said("{card} is not in the trump pile", card=name), round=rno)


class _Plays:
    """What one round's plays come to, once checked: applied to the state by ``_commit``."""

    __slots__ = ("lead", "winner", "winning_card", "played", "passed", "pot", "tally", "cards")

    def __init__(self) -> None:
        self.lead = -1
        self.winner = -1
        self.winning_card = -1
        self.played = 0  # mask of the cards played
        self.passed = 0  # mask of the seats that passed
        self.pot = 0  # gems paid by those passes
        self.tally = 0  # what the cards played add to the winner's tally
        self.cards: list[str] = []  # the cards played, in turn order


def play_round(st: State, rnd: Any) -> None:
    """Check one round and apply it to ``st`` in place.

    A failed check may leave ``st`` part-changed: callers that keep the state work on a copy.
    Raises ``LogError``: too_many_rounds, malformed, unknown_card, duplicate_card, wrong_trump,
    trump_reused, unknown_seat, out_of_turn, starter_passed, pass_without_gems, not_in_hand,
    card_in_trump_pile, revoke.
    """
    rno = st.round_no + 1
    if st.finished:
        raise LogError(
            "too_many_rounds",
            said(
                "the game ended after round {last}; round {round} cannot be played",
                last=st.round_no,
                round=rno,
            ),
            round=rno,
        )
    if type(rnd) is not dict:
        if not isinstance(rnd, Mapping):
            raise _malformed(
                said(
                    "a round is an object with {trump} and {plays}",
                    trump=Code("trump"),
                    plays=Code("plays"),
                ),
                round=rno,
            )
        rnd = dict(rnd)
    round_: dict[str, Any] = rnd
    plays = round_.get("plays")
    if type(plays) is not list:
        raise _malformed(
            said("{plays} is the list of actions in turn order", plays=Code("plays")), round=rno
        )
    trump = _card(round_.get("trump"), round=rno)
    if st.setup.players == 6 and (rno - 1) % SIX_PLAYER_CYCLE == 0:
        st.cycle = 0  # a new cycle: the 4 cards are shuffled into a new pile
    _check_trump(st, trump, rno)
    counts = st.counts
    ring = st.rings[st.starter]
    # rules D2: a seat without cards is skipped.
    expected = tuple(s for s in ring if counts[s]) if st.emptied else ring
    # The fast check accepts only rounds it can prove legal; anything else goes to the careful
    # check, which finds the first broken rule in rule order for the error.
    done = _fast_plays(st, plays, trump, expected, rno) or _checked_plays(
        st, plays, trump, expected, rno
    )
    _commit(st, rno, trump, expected, done)


def _fast_plays(
    st: State, plays: list[Any], trump: int, expected: tuple[int, ...], rno: int
) -> _Plays | None:
    n = len(expected)
    if len(plays) != n:
        return None
    dealt = st.dealt
    unplayed = ALL_CARDS_MASK ^ st.played
    gems = st.gems
    tallies = st.deck.tallies
    blocked = st.pile | st.trumps | st.played | 1 << trump
    trump_char = trump // 13
    done = _Plays()
    names = done.cards
    lead = -1
    best_trump = best_lead = -1
    trump_seat = lead_seat = -1
    played = passed = pot = tally = 0
    offs: list[tuple[int, int]] | None = None
    for i in range(n):
        item = plays[i]
        if type(item) is not dict:
            return None
        p: dict[str, Any] = item
        seat_value = p.get("seat")
        if type(seat_value) is not int:
            return None
        seat: int = seat_value
        if seat != expected[i]:
            return None
        card = p.get("card")
        if card is None:
            if not i or p.get("pass") is not True or not gems[seat]:
                return None
            passed |= 1 << seat
            pot += 1
            continue
        if type(card) is not str or (len(p) != 2 and p.get("pass")):
            return None
        ci = CARD_INDEX.get(card, -1)
        if ci < 0:
            return None
        bit = 1 << ci
        if blocked & bit:
            return None
        blocked |= bit
        ch = ci // 13
        if i == 0:
            lead = ch
        if dealt is None:
            if ch != lead:
                if offs is None:
                    offs = []
                offs.append((seat, ci))
        else:
            held = dealt[seat] & unplayed
            if not held & bit or (ch != lead and held & CHARACTER_MASKS[lead]):
                return None
        played |= bit
        tally += tallies[ci]
        names.append(CARD_NAMES[ci])
        if ch == trump_char:
            if ci > best_trump:
                best_trump, trump_seat = ci, seat
        elif ch == lead and ci > best_lead:
            best_lead, lead_seat = ci, seat
    if offs is not None:
        _note_offs(st, offs, lead, rno)
    done.lead = lead
    done.played = played
    done.passed = passed
    done.pot = pot
    done.tally = tally
    if best_trump >= 0:
        done.winner, done.winning_card = trump_seat, best_trump
    else:
        done.winner, done.winning_card = lead_seat, best_lead
    return done


def _checked_plays(
    st: State, plays: list[Any], trump: int, expected: tuple[int, ...], rno: int
) -> _Plays:
    counts = st.counts
    gems = st.gems
    hands = st.hands
    tallies = st.deck.tallies
    n_expected = len(expected)
    in_pile = st.pile | st.trumps | 1 << trump
    seen = st.played
    n = st.setup.players
    trump_char = trump // 13
    done = _Plays()
    lead = -1
    best_trump = best_lead = -1
    trump_seat = lead_seat = -1
    offs: list[tuple[int, int]] = []  # (seat, card) off the lead, deal not recorded
    for i, p in enumerate(plays):
        if not isinstance(p, Mapping):
            raise _malformed(
                said(
                    "a play is an object with {seat_key} and {card_key} or {pass_key}",
                    seat_key=Code("seat"),
                    card_key=Code("card"),
                    pass_key=Code("pass"),
                ),
                round=rno,
            )
        seat = p.get("seat")
        if not _is_int(seat):
            raise _malformed(
                said("a play's {seat_key} is a seat number", seat_key=Code("seat")), round=rno
            )
        if not 0 <= seat < n:
            # Not a seat of this table: the number as written, not a player.
            raise LogError(
                "unknown_seat",
                said("there is no seat {number} at this table", number=seat),
                round=rno,
                seat=seat,
            )
        card = p.get("card")
        if card is None:
            if p.get("pass") is not True:
                raise _malformed(
                    said('a play has either a {card_key} or "pass": true', card_key=Code("card")),
                    round=rno,
                    seat=seat,
                )
            if i >= n_expected or expected[i] != seat:
                raise _out_of_turn(expected, i, seat, rno)
            if i == 0:
                raise LogError(
                    "starter_passed",
                    said(
                        "{seat} starts round {round} and must play a card",
                        seat=Seat(seat),
                        round=rno,
                    ),
                    round=rno,
                    seat=seat,
                )
            if not gems[seat]:
                raise LogError(
                    "pass_without_gems",
                    said("{seat} has no gem left to pay for a pass", seat=Seat(seat)),
                    round=rno,
                    seat=seat,
                )
            done.passed |= 1 << seat
            done.pot += 1
            continue
        if p.get("pass"):
            raise _malformed(said("a play cannot both play a card and pass"), round=rno, seat=seat)
        ci = _card(card, round=rno, seat=seat)
        if not counts[seat]:
            raise LogError(
                "not_in_hand",
                said(
                    "{seat} has played every card of their hand; {card} cannot be theirs",
                    seat=Seat(seat),
                    card=card,
                ),
                round=rno,
                seat=seat,
            )
        if i >= n_expected or expected[i] != seat:
            raise _out_of_turn(expected, i, seat, rno)
        bit = 1 << ci
        if in_pile & bit:
            raise LogError(
                "card_in_trump_pile",
                said("{card} lies in the trump pile", card=card),
                round=rno,
                seat=seat,
            )
        if seen & bit:
            raise LogError(
                "duplicate_card",
                said("{card} was already played", card=card),
                round=rno,
                seat=seat,
            )
        if hands is not None and not hands[seat] & bit:
            raise LogError(
                "not_in_hand",
                said("{card} is not in the hand of {seat}", card=card, seat=Seat(seat)),
                round=rno,
                seat=seat,
            )
        ch = ci // 13
        if i == 0:
            lead = ch
        elif ch != lead:
            if hands is None:
                offs.append((seat, ci))
            elif hands[seat] & CHARACTER_MASKS[lead]:
                raise LogError(
                    "revoke",
                    said(
                        "{seat} played {card} while holding a {character} card, the lead character",
                        seat=Seat(seat),
                        card=card,
                        character=Code(CHARACTERS[lead], quoted=False),
                    ),
                    round=rno,
                    seat=seat,
                )
        seen |= bit
        done.played |= bit
        done.tally += tallies[ci]
        done.cards.append(CARD_NAMES[ci])
        if ch == trump_char:
            if ci > best_trump:
                best_trump, trump_seat = ci, seat
        elif ch == lead and ci > best_lead:
            best_lead, lead_seat = ci, seat
    if len(plays) < n_expected:
        missing = expected[len(plays)]
        raise LogError(
            "out_of_turn",
            said("{seat} did not act in round {round}", seat=Seat(missing), round=rno),
            round=rno,
            seat=missing,
        )
    _note_offs(st, offs, lead, rno)
    done.lead = lead
    # rules: the highest trump wins if any trump was played, else the highest lead card.
    if best_trump >= 0:
        done.winner, done.winning_card = trump_seat, best_trump
    else:
        done.winner, done.winning_card = lead_seat, best_lead
    return done


def _commit(st: State, rno: int, trump: int, expected: tuple[int, ...], done: _Plays) -> None:
    """Apply a checked round: the winner takes the cards, gems and (3-5 players) the trump."""
    counts = st.counts
    gems = st.gems
    recorded = st.dealt is not None
    passed = done.passed
    cards = done.cards
    k = 0  # cards[k] is the card of the next seat that did not pass
    for s in expected:
        if passed >> s & 1:
            gems[s] = gems[s] - 1
            st.gems_paid[s] = st.gems_paid[s] + 1
            continue
        counts[s] = counts[s] - 1
        if not recorded and st.failures[s]:
            _prove_revokes(st, s, CARD_INDEX[cards[k]], rno)
        k += 1
        if not counts[s]:
            st.emptied |= 1 << s
            if gems[s]:
                st.gems_removed[s] = st.gems_removed[s] + gems[s]  # rules D2
                gems[s] = 0
    st.played |= done.played
    tbit = 1 << trump
    st.trumps |= tbit
    st.cycle |= tbit
    winner = done.winner
    tally = done.tally
    if st.setup.winner_takes_trump:
        cards.append(CARD_NAMES[trump])
        tally += st.deck.tallies[trump]
    st.tally[winner] = st.tally[winner] + tally
    st.gems_won[winner] = st.gems_won[winner] + done.pot
    st.rounds_won[winner] = st.rounds_won[winner] + 1
    st.round_no = rno
    st.rounds.append(
        {
            "round": rno,
            "trump": CARD_NAMES[trump],
            "starter": expected[0],
            "lead": CHARACTERS[done.lead],
            "winner": winner,
            "winning_card": CARD_NAMES[done.winning_card],
            "cards": cards,
            "gems": done.pot,
        }
    )
    # rules D2: the winner starts, or the next seat clockwise that still holds a card.
    for s in st.rings[winner]:
        if counts[s]:
            st.starter = s
            break
    else:
        st.finished = True  # rules D3: nobody holds a card
    if rno == st.setup.rounds:
        st.finished = True  # rules D3: the last trump card was used


def _note_offs(st: State, offs: list[tuple[int, int]], lead: int, rno: int) -> None:
    """rules D4 without the deal: a card off the lead is legal only if the seat held none of the
    lead character, which a later card of that character disproves (``_prove_revokes``)."""
    for seat, ci in offs:
        st.failures[seat].setdefault(lead, []).append((rno, ci))


def _prove_revokes(st: State, seat: int, ci: int, rno: int) -> None:
    """rules D4: hands are never drawn, so a card of a character the seat did not follow
    earlier was held all along: each such earlier round was a revoke."""
    missed = st.failures[seat].pop(ci // 13, None)
    for at, off in missed or ():
        st.violations.append(
            {
                "code": "revoke",
                "round": at,
                "seat": seat,
                "card": CARD_NAMES[off],
                "lead": CHARACTERS[ci // 13],
                "proof": {"round": rno, "card": CARD_NAMES[ci]},
            }
        )


def _out_of_turn(expected: tuple[int, ...], i: int, seat: int, rno: int) -> LogError:
    if i < len(expected):
        message = said(
            "{expected} acts at this point of round {round}, not {seat}",
            expected=Seat(expected[i]),
            round=rno,
            seat=Seat(seat),
        )
    else:
        message = said(
            "every seat holding cards has acted in round {round}; {seat} cannot",
            round=rno,
            seat=Seat(seat),
        )
    return LogError("out_of_turn", message, round=rno, seat=seat)
