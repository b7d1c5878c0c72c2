"""Reading a Complots log: the header checks, the game state and the checked turn.

Every check raises ``LogError`` before the log is accepted; nothing here draws chance (hidden
cards are never known: the log says only which cards were turned face up). Characters and
actions are small integers (see ``rules``), because replaying whole stored archives is a hot
path. For the same reason list items are updated as ``a[i] = a[i] + x`` (compiled,
``a[i] += x`` is a generic operation) and a turn is read once, its shape checked as it is read,
before the rules are checked in the order docs/complots-engine.md gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from scoring.engine.complots.rules import (
    ACTION_CLAIMS,
    ACTION_CODES,
    ACTION_NAMES,
    ASSASSIN_COST,
    ASSASSINATE,
    BLOCK_BY_TARGET_ONLY,
    BLOCKABLE,
    BLOCKED,
    BLOCKERS,
    CANCELLED,
    CAPTAIN_STEAL,
    CHARACTER_CODES,
    CHARACTER_COUNT,
    CHARACTER_NAMES,
    COUP,
    COUP_COST,
    DONE,
    DUCHESS_COINS,
    DUCHESS_TAX,
    FORCED_COUP_COINS,
    FOREIGN_AID,
    FOREIGN_AID_COINS,
    INCOME,
    INCOME_COINS,
    INFLUENCES,
    INQUIRE,
    LOG_FORMAT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START_COINS,
    STEAL,
    TARGETED,
    TREASURY_TOTAL,
    TWO_PLAYER_FIRST_COINS,
    VARIANT_AMBASSADOR,
    VARIANT_CARDS,
    VARIANT_CODES,
    VARIANT_NAMES,
    copies_for,
)
from scoring.engine.errors import (
    Code,
    LogError,
    Said,
    Seat,
    check_first_player,
    check_header,
    check_no_teams,
    check_player_names,
    said,
)

# RINGS[n][s]: the seats of an n-player table clockwise after s, s last (shared, never changed).
RINGS: Final = {
    n: tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n))
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


class State:
    """The game after some turns. Mutable for speed inside the engine; the public
    ``apply_entry`` works on a copy, so a state handed out is never changed."""

    __slots__ = (
        "names",
        "players",
        "variant",
        "first_player",
        "copies",
        "rings",
        "coins",
        "hidden",
        "face_up",
        "up",
        "treasury",
        "turn_no",
        "current",
        "alive",
        "eliminated_on",
        "elim_order",
        "coins_gained",
        "coins_lost_to_captains",
        "claims_made",
        "bluffs_caught",
        "challenges_made",
        "challenges_won",
        "blocks_made",
        "blocks_standing",
        "influences_taken",
        "players_eliminated",
        "turns",
    )

    names: list[str]
    players: int
    variant: int  # rules.VARIANT_AMBASSADOR or rules.VARIANT_INQUISITOR
    first_player: int
    copies: int  # copies of each character in the game
    rings: tuple[tuple[int, ...], ...]  # rings[s]: every seat clockwise after s, s last
    coins: list[int]
    hidden: list[int]  # hidden influences left per seat (0: eliminated)
    face_up: list[list[int]]  # per seat, the characters it turned up, in order
    up: list[int]  # per character, the copies face up at the table
    treasury: int  # K1
    turn_no: int  # turns played so far
    current: int  # the seat whose turn comes next
    alive: int  # players still in the game
    eliminated_on: list[int]  # per seat, the turn it was eliminated in (0: alive)
    elim_order: list[int]  # seats in the order they were eliminated
    # K4/K5 counts, per seat.
    coins_gained: list[int]
    coins_lost_to_captains: list[int]
    claims_made: list[int]
    bluffs_caught: list[int]
    challenges_made: list[int]
    challenges_won: list[int]
    blocks_made: list[int]
    blocks_standing: list[int]
    influences_taken: list[int]
    players_eliminated: list[int]
    turns: list[dict[str, Any]]  # one summary per turn played (never changed once made)

    def copy(self) -> State:
        new = State()
        # Never changed after the header: shared.
        new.names = self.names
        new.players = self.players
        new.variant = self.variant
        new.first_player = self.first_player
        new.copies = self.copies
        new.rings = self.rings
        # Changed by turns: copied.
        new.coins = list(self.coins)
        new.hidden = list(self.hidden)
        new.face_up = [list(cards) for cards in self.face_up]
        new.up = list(self.up)
        new.treasury = self.treasury
        new.turn_no = self.turn_no
        new.current = self.current
        new.alive = self.alive
        new.eliminated_on = list(self.eliminated_on)
        new.elim_order = list(self.elim_order)
        new.coins_gained = list(self.coins_gained)
        new.coins_lost_to_captains = list(self.coins_lost_to_captains)
        new.claims_made = list(self.claims_made)
        new.bluffs_caught = list(self.bluffs_caught)
        new.challenges_made = list(self.challenges_made)
        new.challenges_won = list(self.challenges_won)
        new.blocks_made = list(self.blocks_made)
        new.blocks_standing = list(self.blocks_standing)
        new.influences_taken = list(self.influences_taken)
        new.players_eliminated = list(self.players_eliminated)
        new.turns = list(self.turns)  # turn summaries are never changed once made
        return new

    @property
    def player_count(self) -> int:
        return self.players

    @property
    def finished(self) -> bool:
        """The game is won: one player is left (K5)."""
        return self.alive <= 1

    @property
    def variant_name(self) -> str:
        return VARIANT_NAMES[self.variant]


def _malformed(
    message: str | Said, *, turn: int | None = None, seat: int | None = None
) -> LogError:
    return LogError("malformed", message, round=turn, seat=seat, turn=turn)


def _error(code: str, message: str | Said, turn: int, seat: int | None) -> LogError:
    return LogError(code, message, round=turn, seat=seat, turn=turn)


# --- the header ---------------------------------------------------------------------------


def check_players(names: Any) -> list[str]:
    """The player names in seat order."""
    return check_player_names(names, game="Complots", fewest=MIN_PLAYERS, most=MAX_PLAYERS)


def check_variant(variant: Any) -> int:
    """The variant: which fifth character is in play. Missing or null: the base game."""
    if variant is None:
        return VARIANT_AMBASSADOR
    code = VARIANT_CODES.get(variant, -1) if isinstance(variant, str) else -1
    if code < 0:
        raise LogError(
            "bad_variant",
            said(
                "{variant} is {ambassador} or {inquisitor} (or null), not {value!r}",
                variant=Code("variant"),
                ambassador=Code("ambassador"),
                inquisitor=Code("inquisitor"),
                value=variant,
            ),
        )
    return code


def start_state(log: Any) -> State:
    """Check a log header and build the state before turn 1 (``log["turns"]`` is not read).

    Raises ``LogError``: malformed, unsupported_format, bad_player_count, bad_variant,
    bad_first_player, bad_teams.
    """
    header = check_header(log, LOG_FORMAT)
    names = check_players(header.get("players"))
    n = len(names)
    variant = check_variant(header.get("variant"))
    first = check_first_player(header.get("first_player"), n)
    check_no_teams(header.get("teams"), game="Complots")
    st = State()
    st.names = names
    st.players = n
    st.variant = variant
    st.first_player = first
    st.copies = copies_for(n)
    st.rings = RINGS[n]
    coins = [START_COINS] * n
    if n == 2:
        coins[first] = TWO_PLAYER_FIRST_COINS
    st.coins = coins
    st.hidden = [INFLUENCES] * n
    st.face_up = [[] for _ in range(n)]
    st.up = [0] * CHARACTER_COUNT
    st.treasury = TREASURY_TOTAL - sum(coins)
    st.turn_no = 0
    st.current = first
    st.alive = n
    st.eliminated_on = [0] * n
    st.elim_order = []
    st.coins_gained = [0] * n
    st.coins_lost_to_captains = [0] * n
    st.claims_made = [0] * n
    st.bluffs_caught = [0] * n
    st.challenges_made = [0] * n
    st.challenges_won = [0] * n
    st.blocks_made = [0] * n
    st.blocks_standing = [0] * n
    st.influences_taken = [0] * n
    st.players_eliminated = [0] * n
    st.turns = []
    return st


# --- a turn ---------------------------------------------------------------------------------


def _as_dict(value: Any) -> dict[str, Any] | None:
    """``value`` as a dict if it is a JSON object (or any mapping), else None."""
    if type(value) is dict:
        return value
    if isinstance(value, Mapping):
        return dict(value)
    return None


def _read_challenge(value: Any, of_block: bool, tno: int) -> tuple[int, bool]:
    """A challenge object (the claim's, or the block's when ``of_block``): (challenger seat,
    truthful)."""
    challenge = _as_dict(value)
    if challenge is None:
        if of_block:
            message = said(
                "the block's {challenge} is an object {{'by': seat, 'truthful': true|false}}",
                challenge=Code("challenge"),
            )
        else:
            message = said(
                "{challenge} is an object {{'by': seat, 'truthful': true|false}}",
                challenge=Code("challenge"),
            )
        raise _malformed(message, turn=tno)
    by = challenge.get("by")
    if type(by) is not int:
        if of_block:
            message = said(
                "the block's {challenge}: {by_key} is the challenger's seat number",
                challenge=Code("challenge"),
                by_key=Code("by"),
            )
        else:
            message = said(
                "{challenge}: {by_key} is the challenger's seat number",
                challenge=Code("challenge"),
                by_key=Code("by"),
            )
        raise _malformed(message, turn=tno)
    truthful = challenge.get("truthful")
    if type(truthful) is not bool:
        if of_block:
            message = said(
                "the block's {challenge}: {truthful} is true or false (was the claim true?)",
                challenge=Code("challenge"),
                truthful=Code("truthful"),
            )
        else:
            message = said(
                "{challenge}: {truthful} is true or false (was the claim true?)",
                challenge=Code("challenge"),
                truthful=Code("truthful"),
            )
        raise _malformed(message, turn=tno, seat=by)
    return by, truthful


def _read_losses(value: Any, tno: int) -> list[dict[str, Any]]:
    """The listed losses, each an object with an int ``seat`` and a str ``card``."""
    if value is None:
        return []
    if type(value) is not list:
        raise _malformed(
            said(
                "{losses} is a list of {{'seat': seat, 'card': character}}", losses=Code("losses")
            ),
            turn=tno,
        )
    listed: list[Any] = value
    for item in listed:
        if type(item) is not dict or type(item.get("seat")) is not int:
            break
        if type(item.get("card")) is not str:
            break
    else:
        return listed  # the usual case: JSON objects, kept as they are
    losses: list[dict[str, Any]] = []
    for item in listed:
        loss = _as_dict(item)
        if loss is None:
            raise _malformed(
                said("a loss is an object {{'seat': seat, 'card': character}}"), turn=tno
            )
        seat = loss.get("seat")
        if type(seat) is not int:
            raise _malformed(
                said("a loss's {seat_key} is a seat number", seat_key=Code("seat")), turn=tno
            )
        if type(loss.get("card")) is not str:
            raise _malformed(
                said("a loss's {card_key} is a character name", card_key=Code("card")),
                turn=tno,
                seat=seat,
            )
        losses.append(loss)
    return losses


def play_turn(st: State, entry: Any) -> None:
    """Check one turn and apply it to ``st`` in place.

    A failed check may leave ``st`` part-changed: callers that keep the state work on a copy.
    Raises ``LogError``: malformed, game_over, out_of_turn, unknown_action,
    action_not_in_variant, forced_coup, not_enough_coins, bad_target, not_challengeable,
    bad_challenger, action_cancelled, not_blockable, bad_blocker, bad_block_character,
    unknown_card, no_copy_left, missing_loss, unexpected_loss, claimed_card_lost,
    card_not_hidden.
    """
    tno = st.turn_no + 1
    # The turn's shape first (malformed), read once into locals.
    t = _as_dict(entry)
    if t is None:
        raise _malformed(
            said(
                "a turn is an object with {actor_key} and {action_key}",
                actor_key=Code("actor"),
                action_key=Code("action"),
            ),
            turn=tno,
        )
    actor = t.get("actor")
    if type(actor) is not int:
        raise _malformed(
            said("a turn's {actor_key} is a seat number", actor_key=Code("actor")), turn=tno
        )
    action_value = t.get("action")
    target_value = t.get("target")
    has_target = target_value is not None
    target = -1
    if has_target:
        if type(target_value) is not int:
            raise _malformed(
                said("{target_key} is a seat number", target_key=Code("target")),
                turn=tno,
                seat=actor,
            )
        target = target_value
    challenge = t.get("challenge")
    has_challenge = challenge is not None
    challenger = -1
    truthful = False
    if has_challenge:
        challenger, truthful = _read_challenge(challenge, False, tno)
    block_value = t.get("block")
    has_block = block_value is not None
    blocker = -1
    block_as = ""
    has_block_challenge = False
    block_challenger = -1
    block_truthful = False
    if has_block:
        block = _as_dict(block_value)
        if block is None:
            raise _malformed(
                said(
                    "{block} is an object {{'by': seat, 'as': character, 'challenge': ...}}",
                    block=Code("block"),
                ),
                turn=tno,
            )
        by = block.get("by")
        if type(by) is not int:
            raise _malformed(
                said(
                    "{block}: {by_key} is the blocker's seat number",
                    block=Code("block"),
                    by_key=Code("by"),
                ),
                turn=tno,
            )
        blocker = by
        as_value = block.get("as")
        if type(as_value) is not str:
            raise _malformed(
                said(
                    "{block}: {as_key} is the character the blocker claims",
                    block=Code("block"),
                    as_key=Code("as"),
                ),
                turn=tno,
                seat=blocker,
            )
        block_as = as_value
        inner = block.get("challenge")
        if inner is not None:
            has_block_challenge = True
            block_challenger, block_truthful = _read_challenge(inner, True, tno)
    losses = _read_losses(t.get("losses"), tno)
    forced_swap = t.get("forced_swap")
    if forced_swap is not None:
        if type(forced_swap) is not bool:
            raise _malformed(
                said("{forced_swap} is true or false", forced_swap=Code("forced_swap")),
                turn=tno,
                seat=actor,
            )
        if action_value != "inquire":
            raise _malformed(
                said(
                    "{forced_swap} belongs to an {inquire} only",
                    forced_swap=Code("forced_swap"),
                    inquire=Code("inquire"),
                ),
                turn=tno,
                seat=actor,
            )

    n = st.players
    hidden = st.hidden
    coins = st.coins
    if st.alive <= 1:  # K5: nothing comes after the game is won
        raise _error(
            "game_over",
            said("the game was won on turn {turn}; no turn comes after", turn=st.turn_no),
            tno,
            actor,
        )
    if actor != st.current:
        raise _error(
            "out_of_turn",
            said(
                "{current} plays turn {turn}, not {actor}",
                current=Seat(st.current),
                turn=tno,
                actor=Seat(actor),
            ),
            tno,
            actor,
        )
    action = ACTION_CODES.get(action_value, -1) if type(action_value) is str else -1
    if action < 0:
        raise _error(
            "unknown_action",
            said(
                "{action!r} is not an action (one of {actions})",
                action=action_value,
                actions=", ".join(ACTION_NAMES),
            ),
            tno,
            actor,
        )
    variant = st.variant
    if action == INQUIRE and variant == VARIANT_AMBASSADOR:
        raise _error(
            "action_not_in_variant",
            said("{inquire} needs the inquisitor variant", inquire=Code("inquire")),
            tno,
            actor,
        )
    start_coins = coins[actor]
    if start_coins >= FORCED_COUP_COINS and action != COUP:
        raise _error(
            "forced_coup",
            said(
                "{seat} starts the turn with {coins} coins and must coup",
                seat=Seat(actor),
                coins=start_coins,
            ),
            tno,
            actor,
        )
    if (action == COUP and start_coins < COUP_COST) or (
        action == ASSASSINATE and start_coins < ASSASSIN_COST
    ):
        cost = COUP_COST if action == COUP else ASSASSIN_COST
        raise _error(
            "not_enough_coins",
            said(
                "{action} costs {cost} coins; {seat} has {coins}",
                action=Code(ACTION_NAMES[action], quoted=False),
                cost=cost,
                seat=Seat(actor),
                coins=start_coins,
            ),
            tno,
            actor,
        )
    if TARGETED[action]:
        if not has_target:
            raise _error(
                "bad_target",
                said(
                    "{action} needs a {target_key}",
                    action=Code(ACTION_NAMES[action]),
                    target_key=Code("target"),
                ),
                tno,
                actor,
            )
        if target == actor or not 0 <= target < n or not hidden[target]:
            raise _error(
                "bad_target",
                said(
                    "the target is a live player other than the actor, not {target}",
                    target=Seat(target),
                ),
                tno,
                actor,
            )
    elif has_target:
        raise _error(
            "bad_target",
            said("{action} has no target", action=Code(ACTION_NAMES[action])),
            tno,
            actor,
        )

    # Who may challenge and block (the losses themselves are read afterwards).
    claim = ACTION_CLAIMS[variant][action]
    cancelled = False
    dead = -1  # a seat the claim's challenge eliminates (it had one influence left)
    if has_challenge:
        if claim < 0:
            raise _error(
                "not_challengeable",
                said(
                    "{action} claims no character and cannot be challenged",
                    action=Code(ACTION_NAMES[action]),
                ),
                tno,
                challenger,
            )
        if challenger == actor or not 0 <= challenger < n or not hidden[challenger]:
            raise _error(
                "bad_challenger",
                said(
                    "the challenger is a live player other than the actor, not {challenger}",
                    challenger=Seat(challenger),
                ),
                tno,
                challenger,
            )
        loser = challenger if truthful else actor
        cancelled = not truthful
        if hidden[loser] == 1:
            dead = loser
    block_char = -1
    if has_block:
        if has_block_challenge and (
            block_challenger in (blocker, dead)
            or not 0 <= block_challenger < n
            or not hidden[block_challenger]
        ):
            raise _error(
                "bad_challenger",
                said(
                    "the block's challenger is a live player other than the blocker, "
                    "not {challenger}",
                    challenger=Seat(block_challenger),
                ),
                tno,
                block_challenger,
            )
        if cancelled:
            raise _error(
                "action_cancelled",
                said("the claim was a bluff: the action is cancelled and cannot be blocked"),
                tno,
                blocker,
            )
        if not BLOCKABLE[action]:
            raise _error(
                "not_blockable",
                said("{action} cannot be blocked", action=Code(ACTION_NAMES[action])),
                tno,
                blocker,
            )
        if BLOCK_BY_TARGET_ONLY[action]:
            if blocker != target or blocker == dead:
                raise _error(
                    "bad_blocker",
                    said(
                        "only the live target ({target}) may block {action}",
                        target=Seat(target),
                        action=Code(ACTION_NAMES[action]),
                    ),
                    tno,
                    blocker,
                )
        elif blocker == actor or not 0 <= blocker < n or not hidden[blocker]:
            raise _error(
                "bad_blocker",
                said(
                    "a block comes from a live player other than the actor, not {blocker}",
                    blocker=Seat(blocker),
                ),
                tno,
                blocker,
            )
        block_char = CHARACTER_CODES.get(block_as, -1)
        if block_char < 0 or not BLOCKERS[variant][action] >> block_char & 1:
            raise _error(
                "bad_block_character",
                said(
                    "{character!r} does not block {action}",
                    character=block_as,
                    action=Code(ACTION_NAMES[action]),
                ),
                tno,
                blocker,
            )

    # The cards named by the losses, then whether a truthful show was possible at all.
    in_game = VARIANT_CARDS[variant]
    for loss in losses:
        code = CHARACTER_CODES.get(loss["card"], -1)
        if code < 0 or not in_game >> code & 1:
            raise _error(
                "unknown_card",
                said("{card!r} is not one of this game's characters", card=loss["card"]),
                tno,
                loss["seat"],
            )
    up = st.up
    copies = st.copies
    if has_challenge and truthful and up[claim] >= copies:
        raise _no_copy_left(claim, tno, actor)
    if has_block_challenge and block_truthful and up[block_char] >= copies:
        raise _no_copy_left(block_char, tno, blocker)

    # The turn as it happens, losses in order (K3): the claim's challenge, the block's
    # challenge, then the coup or assassination.
    out = _Losses(losses)
    if claim >= 0:
        st.claims_made[actor] = st.claims_made[actor] + 1
    if has_challenge:
        st.challenges_made[challenger] = st.challenges_made[challenger] + 1
        if truthful:
            _lose(st, out, challenger, -1, actor, tno)
        else:
            st.bluffs_caught[actor] = st.bluffs_caught[actor] + 1
            st.challenges_won[challenger] = st.challenges_won[challenger] + 1
            _lose(st, out, actor, claim, challenger, tno)
    outcome = DONE
    if cancelled:
        outcome = CANCELLED
    else:
        if action == ASSASSINATE:  # K5: paid once the claim stands, before any block
            coins[actor] = coins[actor] - ASSASSIN_COST
            st.treasury = st.treasury + ASSASSIN_COST
        elif action == COUP:
            coins[actor] = coins[actor] - COUP_COST
            st.treasury = st.treasury + COUP_COST
        blocked = False
        if has_block:
            st.blocks_made[blocker] = st.blocks_made[blocker] + 1
            blocked = True
            if has_block_challenge:
                st.challenges_made[block_challenger] = st.challenges_made[block_challenger] + 1
                if block_truthful:
                    if up[block_char] >= copies:  # turned up earlier in this turn
                        raise _no_copy_left(block_char, tno, blocker)
                    _lose(st, out, block_challenger, -1, blocker, tno)
                else:
                    blocked = False
                    st.bluffs_caught[blocker] = st.bluffs_caught[blocker] + 1
                    st.challenges_won[block_challenger] = st.challenges_won[block_challenger] + 1
                    _lose(st, out, blocker, block_char, block_challenger, tno)
            if blocked:
                st.blocks_standing[blocker] = st.blocks_standing[blocker] + 1
                outcome = BLOCKED
        if not blocked:
            if action in (COUP, ASSASSINATE):
                if hidden[target]:  # a player already eliminated loses nothing more
                    st.influences_taken[actor] = st.influences_taken[actor] + 1
                    _lose(st, out, target, -1, actor, tno)
            elif action == STEAL:
                taken = min(CAPTAIN_STEAL, coins[target])
                coins[target] = coins[target] - taken
                coins[actor] = coins[actor] + taken
                st.coins_gained[actor] = st.coins_gained[actor] + taken
                st.coins_lost_to_captains[target] = st.coins_lost_to_captains[target] + taken
            elif action in (INCOME, FOREIGN_AID, DUCHESS_TAX):
                if action == INCOME:
                    amount = INCOME_COINS
                elif action == FOREIGN_AID:
                    amount = FOREIGN_AID_COINS
                else:
                    amount = DUCHESS_COINS
                if amount > st.treasury:  # K1: takes what is there
                    amount = st.treasury
                st.treasury = st.treasury - amount
                coins[actor] = coins[actor] + amount
                st.coins_gained[actor] = st.coins_gained[actor] + amount
    if out.k < len(losses):
        extra = losses[out.k]["seat"]
        raise _error(
            "unexpected_loss",
            said(
                "no more loss is required in turn {turn}; {seat} loses nothing more",
                turn=tno,
                seat=Seat(extra),
            ),
            tno,
            extra,
        )

    st.turn_no = tno
    if st.alive > 1:
        for s in st.rings[actor]:  # the next live seat clockwise after the actor
            if hidden[s]:
                st.current = s
                break
    st.turns.append(
        {
            "turn": tno,
            "actor": actor,
            "action": ACTION_NAMES[action],
            "target": target if has_target else None,
            "outcome": outcome,
            "losses": out.done,
            "eliminated": out.eliminated,
        }
    )


class _Losses:
    """The turn's listed losses as they are matched to the ones the rules require."""

    __slots__ = ("listed", "k", "done", "eliminated")

    def __init__(self, listed: list[dict[str, Any]]) -> None:
        self.listed = listed
        self.k = 0  # listed[k] is the next loss to match
        self.done: list[dict[str, Any]] = []  # matched so far, for the turn's summary
        self.eliminated: list[int] = []


def _lose(st: State, out: _Losses, seat: int, forbidden: int, credit: int, tno: int) -> None:
    """Seat ``seat`` must lose one influence now: match it to the next listed loss and apply it.

    ``forbidden`` is the character a caught bluffer claimed (-1: any); ``credit`` is the seat
    credited if the loss eliminates ``seat`` (K5).
    """
    listed = out.listed
    k = out.k
    if k >= len(listed):
        raise _error(
            "missing_loss",
            said(
                "{seat} must lose an influence here, and {losses} lists no more",
                seat=Seat(seat),
                losses=Code("losses"),
            ),
            tno,
            seat,
        )
    loss = listed[k]
    by: int = loss["seat"]
    if by != seat:
        raise _error(
            "unexpected_loss",
            said(
                "the loss at position {position} must be by {seat}, not {by}",
                position=k + 1,
                seat=Seat(seat),
                by=Seat(by),
            ),
            tno,
            by,
        )
    name: str = loss["card"]
    card = CHARACTER_CODES[name]
    if card == forbidden:
        raise _error(
            "claimed_card_lost",
            said(
                "{seat} was caught bluffing the {character}: it cannot turn one up",
                seat=Seat(seat),
                character=Code(name, quoted=False),
            ),
            tno,
            seat,
        )
    up = st.up
    if up[card] >= st.copies:
        raise _error(
            "card_not_hidden",
            said(
                "every {character} is already face up; {seat} cannot hold one",
                character=Code(name, quoted=False),
                seat=Seat(seat),
            ),
            tno,
            seat,
        )
    out.k = k + 1
    up[card] = up[card] + 1
    st.face_up[seat].append(card)
    out.done.append({"seat": seat, "card": CHARACTER_NAMES[card]})
    left = st.hidden[seat] - 1
    st.hidden[seat] = left
    if not left:  # eliminated at once: coins back to the Treasury (K1)
        st.treasury = st.treasury + st.coins[seat]
        st.coins[seat] = 0
        st.alive = st.alive - 1
        st.eliminated_on[seat] = tno
        st.elim_order.append(seat)
        out.eliminated.append(seat)
        st.players_eliminated[credit] = st.players_eliminated[credit] + 1


def _no_copy_left(card: int, tno: int, seat: int) -> LogError:
    return _error(
        "no_copy_left",
        said(
            "every {character} is already face up: {seat} cannot show one",
            character=Code(CHARACTER_NAMES[card], quoted=False),
            seat=Seat(seat),
        ),
        tno,
        seat,
    )
