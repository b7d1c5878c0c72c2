"""Writes to game records. Every write that depends on the rounds runs the engine on the game
as it would stand afterwards, inside one transaction with the game row locked, and stores
nothing if the engine refuses it."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.errors import GameConflict, RecordError
from games.models import Deck, Game, Player, Round, Seat, name_key
from potdevin_site.memory import collector_paused
from scoring import adapters, stats
from scoring.engine import LogError, engine_for_log
from scoring.engine.potdevin import BUILTIN_DECKS, deck_from_dict

DEFAULT_DECK_KEY = "standard"


def player_create(*, name: str, created_by: AbstractBaseUser | None, user: Any = None) -> Player:
    name = name.strip()
    if Player.objects.filter(name_key=name_key(name)).exists():
        raise GameConflict("player_exists", f"a player called {name!r} already exists")
    try:
        with transaction.atomic():
            return Player.objects.create(name=name, created_by=created_by, user=user)
    except IntegrityError as exc:  # a concurrent create of the same name
        raise GameConflict("player_exists", f"a player called {name!r} already exists") from exc


def deck_create(
    *,
    key: str,
    cards: dict[str, list[str]],
    description: str = "",
    verified: bool = False,
    created_by: AbstractBaseUser | None,
) -> Deck:
    """A new deck version. Raises ``LogError`` (bad_deck) for a layout the engine refuses."""
    deck_from_dict({"id": key, "cards": cards})
    if Deck.objects.filter(key=key).exists():
        raise GameConflict("deck_exists", f"deck {key!r} exists; a correction is a new version")
    return Deck.objects.create(
        key=key, cards=cards, description=description, verified=verified, created_by=created_by
    )


def deck_mark_verified(*, deck: Deck, verified: bool = True) -> Deck:
    """Mark a deck version checked (or not) against the printed cards. Staff only: the caller
    checks who asks. The cards themselves never change (a correction is a new version)."""
    deck.verified = verified
    deck.save(update_fields=["verified"])
    return deck


def decks_by_key() -> dict[str, Deck]:
    """Every stored deck version by key, the engine's built-in ones (``standard``) stored on
    first use if they are missing."""
    decks = {d.key: d for d in Deck.objects.all()}
    for key, builtin in BUILTIN_DECKS.items():
        if key not in decks:
            data = builtin.as_dict()
            decks[key] = Deck.objects.get_or_create(
                key=key,
                defaults={"cards": data["cards"], "description": data["description"]},
            )[0]
    return decks


def deck_default() -> Deck:
    return decks_by_key()[DEFAULT_DECK_KEY]


def _players_by_name(names: Sequence[str], created_by: AbstractBaseUser | None) -> list[Player]:
    """The players with these names, creating the ones not met before (told apart by
    ``name_key``: case and Unicode forms folded)."""
    keys = [name_key(n) for n in names]
    wanted = {k: n.strip() for k, n in zip(keys, names, strict=True)}
    found = {p.name_key: p for p in Player.objects.filter(name_key__in=list(wanted))}
    missing = [
        Player(name=wanted[k], name_key=k, created_by=created_by) for k in wanted if k not in found
    ]
    if missing:
        # Another request may create the same names meanwhile: keep theirs, then read back.
        Player.objects.bulk_create(missing, ignore_conflicts=True)
        found.update(
            (p.name_key, p)
            for p in Player.objects.filter(name_key__in=[p.name_key for p in missing])
        )
    return [found[k] for k in keys]


def players_resolve(
    refs: Sequence[int | str], *, created_by: AbstractBaseUser | None
) -> list[Player]:
    """Players by id, or by name (a new name creates a player), in the order given."""
    ids = [r for r in refs if isinstance(r, int)]
    by_id = Player.objects.in_bulk(ids)
    names = [r for r in refs if isinstance(r, str)]
    by_name = iter(_players_by_name(names, created_by)) if names else iter(())
    players = []
    for seat, ref in enumerate(refs):
        if isinstance(ref, int):
            if ref not in by_id:
                raise RecordError("unknown_player", f"there is no player {ref}", seat=seat)
            players.append(by_id[ref])
        else:
            players.append(next(by_name))
    return players


def _check_distinct(players: Sequence[Player]) -> None:
    seen: set[int] = set()
    for seat, player in enumerate(players):
        if player.pk in seen:
            raise RecordError(
                "player_twice", f"{player.name} cannot sit at two seats of one game", seat=seat
            )
        seen.add(player.pk)


def game_create(
    *,
    owner: AbstractBaseUser,
    players: Sequence[Player],
    deck: Deck,
    first_player: int,
    teams: list[list[int]] | None = None,
    hands: dict[str, list[str]] | None = None,
    trump_pile: list[str] | None = None,
    played_on: datetime.date | None = None,
    location: str = "",
    notes: str = "",
    game_type: str = "pot-de-vin",
) -> Game:
    """A game in progress with no round yet. Raises ``LogError`` for an impossible header."""
    _check_distinct(players)
    game = Game(
        game_type=game_type,
        deck=deck,
        owner=owner,
        player_count=len(players),
        first_player=first_player,
        teams=teams,
        hands=hands,
        trump_pile=trump_pile,
        played_on=played_on or timezone.localdate(),
        location=location,
        notes=notes,
    )
    seats = _seats_for(game, players)
    result = adapters.replay(game, seats, [])
    with transaction.atomic():
        adapters.store_result(game, seats, result, final=False)
        game.save()
        for seat in seats:
            seat.game = game
        Seat.objects.bulk_create(seats)
    return game


def _seats_for(game: Game, players: Sequence[Player]) -> list[Seat]:
    team_of = {s: i for i, t in enumerate(game.teams or ()) for s in t if isinstance(s, int)}
    return [Seat(game=game, seat=i, player=p, team=team_of.get(i)) for i, p in enumerate(players)]


def scorepad_game_create(
    *,
    owner: AbstractBaseUser,
    players: Sequence[Player],
    deck: Deck,
    tableaux: list[dict[str, Any]],
    teams: list[list[int]] | None = None,
    jokers: dict[str, list[str]] | None = None,
    played_on: datetime.date | None = None,
    location: str = "",
    notes: str = "",
    game_type: str = "pot-de-vin",
) -> Game:
    """A finished game known by its final tableaux only, scored like a replayed one.

    Raises ``LogError`` for tableaux a real game cannot leave."""
    _check_distinct(players)
    game = Game(
        game_type=game_type,
        deck=deck,
        owner=owner,
        mode=Game.Mode.SCOREPAD,
        status=Game.Status.FINISHED,
        player_count=len(players),
        teams=teams,
        tableaux=tableaux,
        jokers=jokers,
        played_on=played_on or timezone.localdate(),
        location=location,
        notes=notes,
        finished_at=timezone.now(),
    )
    seats = _seats_for(game, players)
    result = adapters.score_sheet(game, [p.name for p in players], tableaux, jokers)
    with transaction.atomic():
        adapters.store_result(game, seats, result, final=True)
        game.save()
        Seat.objects.bulk_create(seats)
        stats.game_results_changed(game_ids=[game.pk])
    return game


def _locked_game(game: Game) -> Game:
    """The game re-read under ``select_for_update`` (callers are inside ``atomic``). Writers
    of one game queue here, so each sees the rounds the last one stored."""
    return (
        Game.objects.select_for_update(of=("self",))  # not the deck row other games share
        .select_related("deck")
        .defer("result", "tableaux", "deck__cards")
        .get(pk=game.pk)
    )


def _locked(game: Game) -> tuple[Game, list[Seat]]:
    """The locked game and its seats."""
    locked = _locked_game(game)
    return locked, list(locked.seats.select_related("player").order_by("seat"))


def _require_rounds_mode(game: Game) -> None:
    if game.mode != Game.Mode.ROUNDS:
        raise GameConflict("scorepad_game", "this game was entered by final tableaux, not rounds")


def _require_open(game: Game) -> None:
    _require_rounds_mode(game)
    if game.status == Game.Status.FINISHED:
        raise GameConflict("game_finished", "the game is finished: reopen it to change it")


def round_append(
    *, game: Game, round_data: dict[str, Any], number: int | None = None
) -> tuple[Game, Round]:
    """Append the next round. ``number``, when given, must be the next round's number: a client
    that appends on a stale view gets ``round_conflict`` instead of a round it did not mean.

    Runs under ``select_for_update`` of the game. Raises ``LogError`` for an impossible round
    (nothing stored) and ``GameConflict``."""
    try:
        with transaction.atomic():
            game = _locked_game(game)
            _require_open(game)
            # Names and rounds as plain rows: appending is the hot path of a game at the table.
            stored_game = adapters.stored_games([game.pk])[game.pk]
            names = [name for _, _, name in stored_game.seats]
            rounds = stored_game.rounds
            expected = len(rounds) + 1
            if number is not None and number != expected:
                raise GameConflict(
                    "round_conflict",
                    f"round {number} cannot be appended: the game has {len(rounds)} rounds, so "
                    f"the next is {expected}",
                    round=number,
                )
            result = adapters.replay(game, names, [*rounds, round_data])
            stored = Round.objects.create(
                game=game, number=expected, trump=round_data["trump"], plays=round_data["plays"]
            )
            adapters.store_result(game, [], result, final=False)  # seat scores stay unset
            game.save(update_fields=["result", "engine_version", "updated_at"])
    except IntegrityError as exc:  # the row lock makes this unreachable; the constraint is a guard
        raise GameConflict("round_conflict", "that round was stored meanwhile") from exc
    return game, stored


def round_undo(*, game: Game) -> Game:
    """Remove the last round. Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_open(game)
        stored = list(Round.objects.filter(game=game).order_by("number"))
        if not stored:
            raise GameConflict("no_rounds", "the game has no round to undo")
        result = adapters.replay(game, seats, [r.as_log() for r in stored[:-1]])
        stored[-1].delete()
        adapters.store_result(game, seats, result, final=False)
        game.save(update_fields=["result", "engine_version", "updated_at"])
    return game


def round_correct(*, game: Game, number: int, round_data: dict[str, Any]) -> Game:
    """Replace round ``number``; every later round is checked again. If that makes the log
    impossible nothing changes, and the ``LogError`` names the round that broke.

    Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_open(game)
        stored = {r.number: r for r in Round.objects.filter(game=game)}
        target = stored.get(number)
        if target is None:
            raise RecordError("no_such_round", f"the game has no round {number}", round=number)
        rounds = [stored[k].as_log() for k in sorted(stored)]
        rounds[number - 1] = {"trump": round_data["trump"], "plays": round_data["plays"]}
        result = adapters.replay(game, seats, rounds)
        target.trump = round_data["trump"]
        target.plays = round_data["plays"]
        target.save(update_fields=["trump", "plays"])
        adapters.store_result(game, seats, result, final=False)
        game.save(update_fields=["result", "engine_version", "updated_at"])
    return game


def game_finish(*, game: Game, jokers: dict[str, list[str]] | None = None) -> Game:
    """Finish a complete game, optionally with an explicit Joker placement (rules D5), which the
    engine validates. A finished game is read-only until reopened.

    Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_open(game)
        rounds = adapters.round_logs(game)
        result = adapters.replay(game, seats, rounds, jokers=jokers)
        if not result["complete"]:
            raise GameConflict(
                "game_incomplete",
                f"the game is not over: {result['rounds_played']} of {result['rounds_total']} "
                f"rounds played and cards still in hand",
            )
        if jokers is not None:
            game.jokers = jokers
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        adapters.store_result(game, seats, result, final=True)
        game.save()
        Seat.objects.bulk_update(seats, ["score", "rank"])
        stats.game_results_changed(game_ids=[game.pk])
    return game


def game_reopen(*, game: Game) -> Game:
    """Make a finished game editable again. Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        game, seats = _locked(game)
        _require_rounds_mode(game)
        if game.status != Game.Status.FINISHED:
            raise GameConflict("game_not_finished", "the game is already in progress")
        game.status = Game.Status.IN_PROGRESS
        game.finished_at = None
        for seat in seats:
            seat.score = seat.rank = None
        game.save(update_fields=["status", "finished_at", "updated_at"])
        Seat.objects.bulk_update(seats, ["score", "rank"])
        stats.game_results_changed(game_ids=[game.pk])
    return game


def game_update(*, game: Game, **fields: Any) -> Game:
    """Change what the engine does not read: date, location, notes."""
    allowed = {"played_on", "location", "notes"}
    for name, value in fields.items():
        if name not in allowed:
            raise ValueError(f"{name} cannot be changed here")
        setattr(game, name, value)
    with transaction.atomic():
        game.save(update_fields=[*fields, "updated_at"])
        if "played_on" in fields:  # the order of games, which streaks and ratings follow
            stats.game_results_changed(game_ids=[game.pk])
    return game


def game_delete(*, game: Game) -> None:
    """Delete a game with its seats and rounds; statistics and ratings follow.

    Runs under ``select_for_update`` of the game."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().only("id").get(pk=game.pk)
        game_id = locked.pk
        locked.delete()
        stats.game_results_changed(game_ids=[game_id])


def game_import(*, owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]) -> list[Game]:
    """Create one game per log document: finished when the log is complete, else in progress.
    All or nothing: an impossible document stores nothing, and the ``RecordError`` says which
    document (``index``) broke."""
    with collector_paused():
        return _import_all(owner, documents)


def _import_all(owner: AbstractBaseUser, documents: Sequence[dict[str, Any]]) -> list[Game]:
    decks = decks_by_key()
    planned = []
    for index, doc in enumerate(documents):
        try:
            planned.append(import_plan(owner=owner, document=doc, decks=decks))
        except LogError as exc:
            raise RecordError(
                exc.code, exc.message, round=exc.round, seat=exc.seat, index=index
            ) from exc
    with transaction.atomic():
        return import_store(owner=owner, planned=planned)


PlannedGame = tuple[Game, list[str], list[dict[str, Any]]]


def import_store(*, owner: AbstractBaseUser, planned: Sequence[PlannedGame]) -> list[Game]:
    """Store games checked by ``import_plan``. The caller holds the transaction."""
    players = _players_by_name([n for _, names, _ in planned for n in names], owner)
    games = Game.objects.bulk_create([g for g, _, _ in planned])
    seats: list[Seat] = []
    rounds: list[Round] = []
    at = 0
    for game, names, logged in planned:
        game_players = players[at : at + len(names)]
        at += len(names)
        game_seats = _seats_for(game, game_players)
        final = game.status == Game.Status.FINISHED
        adapters.store_result(game, game_seats, game.result or {}, final=final)
        seats.extend(game_seats)
        rounds.extend(
            Round(game=game, number=i, trump=r["trump"], plays=r["plays"])
            for i, r in enumerate(logged, start=1)
        )
    Seat.objects.bulk_create(seats)
    Round.objects.bulk_create(rounds)
    stats.game_results_changed(game_ids=[g.pk for g in games if g.status == Game.Status.FINISHED])
    return games


def import_plan(
    *, owner: AbstractBaseUser, document: dict[str, Any], decks: dict[str, Deck]
) -> PlannedGame:
    """Replay one log document into an unsaved game. Raises ``LogError`` for an impossible
    document."""
    doc = document
    engine = engine_for_log(doc)
    key = doc.get("deck") or "standard"
    deck = decks.get(key) if isinstance(key, str) else None
    if deck is None:
        raise LogError("unknown_deck", f"no deck {key!r} is stored")
    names = doc.get("players")
    if isinstance(names, list) and len({name_key(str(n)) for n in names}) != len(names):
        raise LogError("player_twice", "a player cannot sit at two seats of one game")
    longest = Player._meta.get_field("name").max_length or 0
    for seat, name in enumerate(names if isinstance(names, list) else ()):
        if isinstance(name, str) and len(name.strip()) > longest:
            # The engine takes any name; the record keeps at most this many characters.
            message = f"a player name has at most {longest} characters"
            raise LogError("malformed", message, seat=seat)
    result = engine.replay(doc, deck=adapters.engine_deck(deck))
    played_on = _date_or_none(doc.get("played_on"))
    game = Game(
        game_type=engine.game_id,
        deck=deck,
        owner=owner,
        player_count=len(result["players"]),
        first_player=doc["first_player"],
        teams=doc.get("teams"),
        hands=doc.get("hands"),
        trump_pile=doc.get("trump_pile"),
        jokers=doc.get("jokers"),
        played_on=played_on or timezone.localdate(),
        location=str(doc.get("location") or "")[:120],
        notes=str(doc.get("notes") or ""),
        result=result,
        engine_version=result["engine_version"],
    )
    if result["complete"]:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
    return game, [p["name"] for p in result["players"]], list(doc.get("rounds") or [])


def _date_or_none(value: Any) -> datetime.date | None:
    if value in (None, ""):
        return None
    try:
        return datetime.date.fromisoformat(value)
    except (TypeError, ValueError) as exc:
        raise LogError(
            "malformed", f"'played_on' is a date like 2026-11-22, not {value!r}"
        ) from exc


def game_export_log(*, game: Game) -> dict[str, Any]:
    """The game as a ``potdevin-log/1`` document that re-imports to the same result."""
    _require_rounds_mode(game)
    seats = list(game.seats.select_related("player").order_by("seat"))
    return adapters.game_log(game, seats, adapters.round_logs(game))
