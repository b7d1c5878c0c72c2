"""Plays from other apps into a club's records: every play a file holds (``games.exchange.formats``)
is matched to the club's games, players and locations, planned (what would be created, updated,
left as it is or skipped, and why) and stored.

Matching, the first rule that finds something winning:

- **The game.** One of ours (an engine) by its BoardGameGeek id (``GameInfo.bgg_ids``), or by its
  name where the play gives no BGG id, or where we know no BGG id for the game
  (``GameInfo.known_names``); else a named game of the club (an "other game") by the app's id of the
  game learnt at an earlier import (``SourceRef``), then by BGG id, then by name; else a new
  named game.
- **A player.** By the app's id learnt at an earlier import (``SourceRef``), then by name
  (``name_key``: case and Unicode forms folded); else a new player of the club.
- **A location.** By the app's id learnt earlier, then by the name of a location the club's
  games already have (its spelling kept); else the file's name.

**Seats with no person** (BG Stats' anonymous player) are left out of the game: the players
known keep their own scores, ranks and winners as the file gives them. Counting an anonymous
seat as a player would put one "Anonymous" in every game's statistics, head-to-head and
ratings as if they were one person, and skipping every such play would lose the known players'
games; leaving it out keeps every number about a real person true (each known player's games,
wins, scores, and who beat whom), and the plan reports it (``anonymous_seats``). Unless an
anonymous seat finished ahead of a known player: left out, it would move that player up a
place they did not take, so that play is skipped (``anonymous_ahead``).

**Winners marked by hand** against the scores (BG Stats' ``manualWinner``) are the app's word on
who won: where the scores say otherwise, the play is kept with its winners and ranks and
without its scores (``scores_left_out``), rather than refused.

**Plays of our own games** (Complots, Bruges, Pot de Vin) have no entry log in another app:
they become games known by their result (``Game.Mode.RESULT``), or, for Complots when the file
ranks every player apart, the Complots result sheet (the elimination order, scorepad mode).
Never an entry log.

**Idempotent** by (club, app, the app's id of the play), kept in ``PlaySource`` with the play's
fingerprint: the same play read again leaves its game unchanged; a play edited in the app (another
fingerprint) updates its game in place (seats, scores, result, date, location...), with an
"edited" line in its history, and statistics follow. A play whose game was deleted here is
created again.

``plays_plan`` writes nothing; ``plays_store`` stores a whole file in one transaction (all or
nothing); an import job stores each play alone (``play_store``), a refused play reported
with its reason.

Modules: ``plans`` (what a plan holds, and its summary and details), ``matching`` (the plan of a
file's plays), ``build`` (a play's game checked as the store would build it), ``store``,
``play_json`` (plays as JSON, fingerprints, a file prepared), ``logs`` (our own game logs, and
``file_import`` for every file).
"""

from games.exchange.imports.build import check_play
from games.exchange.imports.logs import LOG_FORMAT, file_import, logs_plan
from games.exchange.imports.matching import engine_game_type, play_plan, plays_plan
from games.exchange.imports.plans import (
    BY_BGG,
    BY_NAME,
    BY_REF,
    CREATE,
    ENGINE,
    NEW,
    OTHER,
    OUTCOMES,
    PLAYS_INPUT,
    SKIP,
    UNCHANGED,
    UPDATE,
    GameMatch,
    ImportPlan,
    PlayPlan,
    SeatPlan,
    plan_details,
    plan_summary,
)
from games.exchange.imports.play_json import (
    fingerprint,
    play_file_prepared,
    play_from_json,
    play_to_json,
    safe_text,
)
from games.exchange.imports.store import play_store, plays_store

__all__ = [
    "BY_BGG",
    "BY_NAME",
    "BY_REF",
    "CREATE",
    "ENGINE",
    "GameMatch",
    "ImportPlan",
    "LOG_FORMAT",
    "NEW",
    "OTHER",
    "OUTCOMES",
    "PLAYS_INPUT",
    "PlayPlan",
    "SKIP",
    "SeatPlan",
    "UNCHANGED",
    "UPDATE",
    "check_play",
    "engine_game_type",
    "file_import",
    "fingerprint",
    "logs_plan",
    "plan_details",
    "plan_summary",
    "play_file_prepared",
    "play_from_json",
    "play_plan",
    "play_store",
    "play_to_json",
    "plays_plan",
    "plays_store",
    "safe_text",
]
