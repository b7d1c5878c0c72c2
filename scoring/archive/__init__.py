r"""Backup and restore: every record in one JSON Lines archive, written and read as a stream.

``archive_write`` writes one JSON object per line, in an order a restore can follow (users,
clubs, their memberships and invitations, players, the clubs' named games, editions, games
with their seats and entries, the games' histories (deleted games' included), what imports
learnt (other apps' ids of players, locations, games and plays), jobs with their keys, items
and inputs), reading the games a chunk at a time, so an archive of 100,000 games never holds them
all in memory. ``archive_restore`` reads it back into an empty database with every id kept (a job's
keys name game ids; a player, a game, a job name their club's), then rebuilds the statistics
and ratings, which are derived from the games and so are not archived.

The archive, line by line (each line ends with a newline, ``\n``)::

    {"archive": "potdevin-archive/1", "written_at": "2025-01-31T02:00:00+00:00"}
    {"kind": "user", ...}          every user, then every club, membership, invitation,
    ...                            player, edition, game, event and job
    {"trailer": "potdevin-archive/1",
     "counts": {"user": 3, "club": 2, "membership": 4, "invitation": 1, "player": 40,
                "board_game": 5, "edition": 2, "game": 1200, "event": 9000,
                "source_ref": 45, "play_source": 300, "job": 1},
     "sha256": "<hex>"}

The trailer, on one line and always last, counts the records of each kind (every kind
appears, 0 included; an archive written before histories were kept counts no event, one
written before clubs no club, membership or invitation, one written before imports from other
apps no board_game, source_ref or play_source) and holds the SHA-256 digest of every
byte of the archive before the trailer line (the header and every record line, newlines
included). An archive whose trailer is missing (an export that stopped, a file cut short),
whose counts differ from the records read or whose digest differs from the bytes read is
refused whole: the restore writes its rows inside one transaction and checks the trailer
before it commits.

An archive written before clubs restores into one club, as ``games`` migration 0011 made it:
every account a member, staff its owners, whoever created a game or a player a recorder.

Every line is JSON that ``json.loads`` reads back to the very value stored: orjson writes it
when it can, and the standard library's ``json`` (ASCII only: a lone surrogate such as
``"\ud800"`` is written as its escape) when orjson refuses a value the database can hold (an
integer beyond 64 bits, a lone surrogate) or would write it otherwise (orjson writes an
infinite float as ``null``). A record neither can write faithfully stops the export with an
``ArchiveError`` naming it: no archive that looks complete is ever written without it.

Modules: ``lines`` (the format: kinds of record, a record as one line of JSON), ``export``
(``archive_write``), ``reader`` (an archive read back and checked), ``restore``
(``archive_restore``).
"""

from scoring.archive.export import _jobs, archive_write
from scoring.archive.lines import ARCHIVE_FORMAT, CHUNK, KINDS, LATER_KINDS, ArchiveError, _encode
from scoring.archive.restore import FIRST_CLUB, archive_restore

__all__ = [
    "ARCHIVE_FORMAT",
    "CHUNK",
    "FIRST_CLUB",
    "KINDS",
    "LATER_KINDS",
    "ArchiveError",
    "archive_restore",
    "archive_write",
    # What the archive's tests look at.
    "_encode",
    "_jobs",
]
