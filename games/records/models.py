"""Game records of any game: people, editions, games with their seats and entries.

Only services (games/services.py) write these; the stored result is what the engine computed
from the rounds, never typed by a client.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable
from typing import Any

import orjson
from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import pgettext_lazy

from games.records.names import KEY_GROWTH, MAX_NAME_LENGTH

# The most entries one game may have. The longest real games are far shorter: Pot de Vin has
# at most 16 rounds (its rules), Bruges ends when a draw pile runs out (9 rounds at most in its
# simulator), and a Complots game, the only one the rules do not bound, runs a few dozen turns
# (63 at most in 3,000 simulated 8-player games; tests/records/test_stored_json.py). 1,000 is 15
# times that, and a game at the limit still reads in milliseconds (make bench).
MAX_ENTRIES = 1000
MAX_LOCATION_LENGTH = 120
MAX_NOTES_LENGTH = 5000
MAX_GAME_NAME_LENGTH = 120  # BoardGameGeek's longest titles are about 100 characters


def name_key(name: str) -> str:
    """How player names are told apart: case and Unicode forms folded ("Úna", "úna" and "ÚNA"
    are one player), the same on every database (SQLite's LOWER() folds ASCII only)."""
    return unicodedata.normalize("NFKC", name.strip()).casefold()


class Club(models.Model):
    """A group that plays together: the unit of ownership and privacy. Its players, games,
    statistics, ratings and jobs are its own; another club's are as if they did not exist
    (``games.records.access``). Editions are the site's (printed material)."""

    name = models.CharField(max_length=MAX_NAME_LENGTH)  # the rule of player names
    slug = models.SlugField(max_length=50, unique=True)
    public_results = models.BooleanField(
        default=False,
        help_text="Anyone, signed in or not, reads the club's finished games and leaderboards.",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user's place in a club. Each role may do what the ones below it do."""

    class Role(models.TextChoices):
        # Everything, deleting the club and handing it over included.
        OWNER = "owner", pgettext_lazy("club role", "Owner")
        # Members, invitations, the club's settings, re-scoring the club's games.
        ADMIN = "admin", pgettext_lazy("club role", "Admin")
        # Creates games and enters, corrects, undoes and finishes any game of the club.
        RECORDER = "recorder", pgettext_lazy("club role", "Recorder")
        # Reads the club's games, players and statistics.
        MEMBER = "member", pgettext_lazy("club role", "Member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "user"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} of {self.club_id}"


def _maker_may(club: str, roles: tuple[str, ...]) -> models.Q:
    """Whether a link's maker (``created_by``) may still do what made it, now: staff (who act
    in every club, ``games.records.access.level``), or a member of the club (``club``: the
    path to it from the link) with one of ``roles``. A maker deleted (``created_by`` null),
    deactivated, demoted or removed since may not: a role counts when its action happens."""
    role_now = Membership.objects.filter(
        user_id=models.OuterRef("created_by_id"), club_id=models.OuterRef(club), role__in=roles
    )
    active = models.Q(created_by__is_active=True)
    return active & (models.Q(created_by__is_staff=True) | models.Exists(role_now))


class InvitationQuerySet(models.QuerySet["Invitation"]):
    def open(self) -> InvitationQuerySet:
        """The invitations that can still be taken: not used, not revoked, not expired, and
        made by someone who is still an admin or owner of the club (or staff). An invitation
        of an admin since demoted, removed or deleted opens nothing, like a revoked one."""
        return self.filter(
            _maker_may("club_id", (Membership.Role.OWNER, Membership.Role.ADMIN)),
            used_at__isnull=True,
            revoked_at__isnull=True,
            expires_at__gt=timezone.now(),
        )


class Invitation(models.Model):
    """A single-use link into a club with a role, made by an admin. The token is the link's
    secret (192 random bits); a used, revoked or expired link answers like one that never
    existed."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(
        max_length=16, choices=Membership.Role.choices, default=Membership.Role.MEMBER
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = InvitationQuerySet.as_manager()

    class Meta:
        ordering = ["club", "-created_at", "-id"]

    def __str__(self) -> str:
        return f"invitation to {self.club_id} as {self.role}"

    def get_absolute_url(self) -> str:
        return reverse("web:invitation", args=[self.token])


class KeyedByName(models.Model):
    """A record told apart from its club's others by ``name_key`` (its name folded), kept in
    step with its name on every save."""

    name: str
    name_key: str

    class Meta:
        abstract = True

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)


class Player(KeyedByName):
    """A person who plays, in one club's roster; may be linked to the member account that is
    that person."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    # Logs name players; two people called "ada" and "Ada" would be one in a log. Folding can
    # lengthen a name ("ß" is "ss"): room for the most it can (games.records.names). Unique per
    # club.
    name_key = models.CharField(max_length=KEY_GROWTH * MAX_NAME_LENGTH, editable=False)
    # The member account that is this person: one player per account in each club.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name_key"], name="player_name_per_club"),
            models.UniqueConstraint(fields=["club", "user"], name="player_account_per_club"),
        ]


class BoardGame(KeyedByName):
    """A game the club plays that has no engine here (an "other game"): named by the club,
    with an optional BoardGameGeek id and how its winner is found. Its plays are recorded by
    their scores (``Game.Mode.RESULT``), with no rules check beyond consistency."""

    class Win(models.TextChoices):
        HIGHEST = "highest", pgettext_lazy("how a game is won", "Highest score wins")
        LOWEST = "lowest", pgettext_lazy("how a game is won", "Lowest score wins")
        MANUAL = "manual", pgettext_lazy("how a game is won", "Winners marked by hand")
        COOPERATIVE = "cooperative", pgettext_lazy("how a game is won", "Cooperative")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="board_games")
    name = models.CharField(max_length=MAX_GAME_NAME_LENGTH)
    name_key = models.CharField(max_length=KEY_GROWTH * MAX_GAME_NAME_LENGTH, editable=False)
    bgg_id = models.PositiveIntegerField(null=True, blank=True, help_text="BoardGameGeek id.")
    win = models.CharField(max_length=16, choices=Win.choices, default=Win.HIGHEST)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name_key"], name="board_game_name_per_club"),
        ]


class Edition(models.Model):
    """A version of a game's printed data that can be wrong (Pot de Vin: which guild symbols
    each card carries, rules D1). Its data never changes once created: a correction is a new
    version, and stored games can be re-scored with it. What ``data`` holds is the game's
    engine's to say (``GameInfo.edition_from_data``)."""

    game_type = models.CharField(max_length=32)
    key = models.SlugField(max_length=64)
    description = models.TextField(blank=True)
    verified = models.BooleanField(
        default=False, help_text="Checked against the printed material by a person."
    )
    data = models.JSONField(help_text='Pot de Vin: card to guild symbols, {"A4": ["nobles"]}.')
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_type", "key"]
        constraints = [
            models.UniqueConstraint(fields=["game_type", "key"], name="edition_key_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_type}/{self.key}"


# A result's canonical JSON: keys sorted, no spaces, an integer key as the string a database
# gives back for it (orjson writes compact JSON, and sorts keys as the strings it writes).
_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def result_digest(result: Any) -> str | None:
    """The SHA-256 (hex) of ``result`` as canonical JSON: the same for the same JSON whichever
    database stored it and in whatever order it gave the keys back, so a re-score compares a
    result computed again with the stored one without reading it. None for no result, and for
    a value orjson cannot write (a re-score then compares the stored result itself)."""
    if result is None:
        return None
    try:
        return hashlib.sha256(orjson.dumps(result, option=_CANONICAL)).hexdigest()
    except orjson.JSONEncodeError:
        return None


class ResultDigestField(models.CharField):
    """``Game.result_digest``: set from the game's ``result`` whenever the row is written by the
    ORM (``save``, ``bulk_create``, ``games.records.bulk``), like a date ``auto_now`` sets: no
    write path can leave it behind its result. ``Game.save`` adds it to ``update_fields`` that
    name the result, ``GameQuerySet.update`` to an update of the result; SQL written by hand sets
    it itself (``scoring.jobs.writes.store_results``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("null", True)
        kwargs.setdefault("blank", True)
        kwargs["editable"] = False
        super().__init__(*args, **kwargs)

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        values = model_instance.__dict__
        if "result" not in values:  # deferred, so not written now: its digest stays as stored
            return values.get(self.attname)
        digest = result_digest(values["result"])
        setattr(model_instance, self.attname, digest)
        return digest

    def deconstruct(self) -> Any:
        # A CharField in migrations, which import no project code (their models write no
        # results: a data migration that did would set the digest itself).
        name, _, args, kwargs = super().deconstruct()
        return name, "django.db.models.CharField", args, kwargs


class GameQuerySet(models.QuerySet["Game"]):
    def update(self, **kwargs: Any) -> int:
        """An update of the result updates its digest (None, unknown, for an expression: a
        re-score then reads the stored result)."""
        if "result" in kwargs and "result_digest" not in kwargs:
            result = kwargs["result"]
            expression = hasattr(result, "resolve_expression")
            kwargs["result_digest"] = None if expression else result_digest(result)
        return super().update(**kwargs)

    def bulk_update(
        self, objs: Iterable[Game], fields: Iterable[str], batch_size: int | None = None
    ) -> int:
        fields = list(fields)
        if "result" in fields and "result_digest" not in fields:
            objs = list(objs)
            for game in objs:
                game.result_digest = result_digest(game.result)
            fields.append("result_digest")
        return super().bulk_update(objs, fields, batch_size=batch_size)


class Game(models.Model):
    """One game of any type. ``setup`` is the log header its engine checks at start besides
    players, teams and first player (Pot de Vin: the deal), ``finish`` the end-of-game choices
    (Pot de Vin: the Jokers), ``sheet`` a scorepad-mode game's final sheet; ``result`` is what
    the engine computed, never typed by a client."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", pgettext_lazy("game status", "In progress")
        FINISHED = "finished", pgettext_lazy("game status", "Finished")

    class Mode(models.TextChoices):
        ROUNDS = "rounds", pgettext_lazy("game mode", "Entry by entry")
        SCOREPAD = "scorepad", pgettext_lazy("game mode", "Final sheet only")
        # Scores, ranks or winners only, checked for consistency, not by a game's rules: every
        # play of an "other game", and a play of ours brought in from another app.
        RESULT = "result", pgettext_lazy("game mode", "Final scores only")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="games")
    game_type = models.CharField(max_length=32)
    edition = models.ForeignKey(
        Edition, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    variant = models.CharField(max_length=32, blank=True)
    # The club's named game, for game type "other" only.
    board_game = models.ForeignKey(
        BoardGame, null=True, blank=True, on_delete=models.PROTECT, related_name="games"
    )
    played_on = models.DateField(default=timezone.localdate)
    location = models.CharField(max_length=MAX_LOCATION_LENGTH, blank=True)
    notes = models.TextField(blank=True)
    duration = models.PositiveIntegerField(null=True, blank=True, help_text="Minutes played.")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="games"
    )
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.ROUNDS)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.IN_PROGRESS)
    player_count = models.PositiveSmallIntegerField()
    first_player = models.PositiveSmallIntegerField(null=True, blank=True)
    teams = models.JSONField(null=True, blank=True)
    setup = models.JSONField(default=dict, blank=True)
    finish = models.JSONField(null=True, blank=True)
    sheet = models.JSONField(null=True, blank=True, help_text="Scorepad mode only.")
    result = models.JSONField(null=True, blank=True)
    # The result's digest (``result_digest``), kept with it by every write: a re-score compares
    # it, never reading the result itself.
    result_digest = ResultDigestField()
    engine_version = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["-played_on", "-id"]
        indexes = [
            models.Index(fields=["played_on", "id"]),
            models.Index(fields=["club", "played_on", "id"]),
            models.Index(fields=["status"]),
            models.Index(fields=["game_type", "player_count"]),
        ]

    def __str__(self) -> str:
        return f"{self.game_type} #{self.pk} ({self.played_on})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A save of the result is one of its digest too, whichever fields the caller names.
        fields = kwargs.get("update_fields")
        if fields is not None and "result" in fields and "result_digest" not in fields:
            kwargs["update_fields"] = [*fields, "result_digest"]
        super().save(*args, **kwargs)


class Seat(models.Model):
    """A player's place at one game, clockwise from 0, with the stored score and rank."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_per_game"),
            models.UniqueConstraint(fields=["game", "player"], name="player_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seat} {self.player_id}"


class Round(models.Model):
    """One entry of a game's log as logged: a Pot de Vin round, a Complots turn. ``data`` is the
    entry exactly as its engine reads it (``GameInfo.entry_schema``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            # The last guard against two clients appending the same entry at once.
            models.UniqueConstraint(fields=["game", "number"], name="round_unique_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id} entry {self.number}"


class PlaySource(models.Model):
    """Where an imported game came from: the other app's id of the play (BG Stats' uuid, a
    BoardGameGeek play id), so that importing the same file again finds it, and a fingerprint
    of what the play held, so that a play edited there updates ours."""

    class App(models.TextChoices):
        BGSTATS = "bgstats", "BG Stats"
        BGG = "bgg", "BoardGameGeek"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    app = models.CharField(max_length=16, choices=App.choices)
    external_id = models.CharField(max_length=64)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="source")
    fingerprint = models.CharField(max_length=64)
    imported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["club", "app", "external_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "app", "external_id"], name="play_source_once_per_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.app} play {self.external_id} in {self.club_id}"


class SourceRef(models.Model):
    """What another app's id of a player, a location or a game means in this club, learnt at
    import: matching by these ids comes before matching by name, so that a player renamed in
    the app is still the same player here."""

    class Kind(models.TextChoices):
        PLAYER = "player", "player"
        LOCATION = "location", "location"
        GAME = "game", "game"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    app = models.CharField(max_length=16, choices=PlaySource.App.choices)
    kind = models.CharField(max_length=16, choices=Kind.choices)
    external_id = models.CharField(max_length=64)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE)
    board_game = models.ForeignKey(BoardGame, null=True, blank=True, on_delete=models.CASCADE)
    location = models.CharField(max_length=MAX_LOCATION_LENGTH, blank=True)

    class Meta:
        ordering = ["club", "app", "kind", "external_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "app", "kind", "external_id"], name="source_ref_once_per_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.app} {self.kind} {self.external_id} in {self.club_id}"


class UserSettings(models.Model):
    """A user's own settings: the language of the pages (blank: the browser's)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    # One of settings.LANGUAGES, checked by the form (no choices here: a language added later
    # needs no migration).
    language = models.CharField(max_length=8, blank=True)

    def __str__(self) -> str:
        return f"settings of user {self.user_id}"


class GameEvent(models.Model):
    """Who did what to a game, and when: stored with the change, in its transaction, so that it
    survives restarts and backups. An event outlives its game (a deletion is an event too):
    ``game`` is a plain reference, not a constraint."""

    class Action(models.TextChoices):
        CREATED = "created", pgettext_lazy("game event", "Created")
        EDITED = "edited", pgettext_lazy("game event", "Edited")
        ADDED = "added", pgettext_lazy("game event", "Entry added")
        CORRECTED = "corrected", pgettext_lazy("game event", "Entry corrected")
        UNDONE = "undone", pgettext_lazy("game event", "Entry undone")
        FINISHED = "finished", pgettext_lazy("game event", "Finished")
        REOPENED = "reopened", pgettext_lazy("game event", "Reopened")
        DELETED = "deleted", pgettext_lazy("game event", "Deleted")

    game = models.ForeignKey(
        Game, on_delete=models.DO_NOTHING, db_constraint=False, related_name="events"
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    # The entry's number (a round, a turn) for added, corrected and undone.
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # The user's name as it was, kept if the account goes ("" when nobody is known: a change
    # made before history was kept, or by a script).
    username = models.CharField(max_length=150, blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        # By the column, not the relation: ordering by "game" would join the games and drop
        # the events of deleted ones.
        ordering = ["game_id", "at", "id"]
        indexes = [models.Index(fields=["game", "at", "id"])]

    def __str__(self) -> str:
        return f"{self.game_id} {self.action} {self.number or ''} by {self.username or '?'}"


class GameShareQuerySet(models.QuerySet["GameShare"]):
    def active(self) -> GameShareQuerySet:
        """The links not stopped whose maker may still change the games of the game's club
        (a recorder, admin or owner of it, or staff): a link of a recorder since demoted,
        removed or deleted shows nothing, like a stopped one."""
        return self.filter(
            _maker_may(
                "game__club_id",
                (Membership.Role.OWNER, Membership.Role.ADMIN, Membership.Role.RECORDER),
            ),
            revoked_at__isnull=True,
        )


class GameShare(models.Model):
    """A read-only link to one game for the people at the table without an account: the game's
    page, nothing else. The token is the link's secret (unguessable: 192 random bits); a
    revoked link answers like one that never existed."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="shares")
    token = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = GameShareQuerySet.as_manager()

    class Meta:
        ordering = ["game", "created_at", "id"]

    def __str__(self) -> str:
        return f"share of game {self.game_id}"

    def get_absolute_url(self) -> str:
        """The page the link opens (made absolute with the request's host where it is shown)."""
        return reverse("web:shared", args=[self.token])


class IdempotencyKey(models.Model):
    """A write sent with an idempotency key (the API's ``Idempotency-Key`` header, a page's
    hidden ``idempotency_key`` field), and the answer it got: the same key and request again
    are answered with that answer instead of writing twice (``games.api.idempotency``). Kept
    per user (and the club of the game written to, where the address names one) for
    ``IDEMPOTENCY_DAYS`` at least: a phone that was offline may send again days later."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(max_length=255)
    # What the request was (method, address, body), as a SHA-256: the same key with another
    # request is refused.
    fingerprint = models.CharField(max_length=64)
    # Null while the first request is being answered.
    status = models.PositiveSmallIntegerField(null=True, blank=True)
    content_type = models.CharField(max_length=255, blank=True)
    location = models.CharField(max_length=2000, blank=True)
    body = models.BinaryField(blank=True, default=b"")
    # A page's notices ("Round 4 saved: ..."), shown again with the answer: [level, text, tags].
    notices = models.JSONField(default=list, blank=True)
    # A page's answer is given again only while its game is as the answer left it (its version,
    # ``selectors.version_of``): a form sent again after other changes is checked as any other.
    game_version = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_per_user")
        ]

    def __str__(self) -> str:
        return f"idempotency key of user {self.user_id}"
