"""What the scale bench runs with: its services, its sizes (POTDEVIN_BENCH_SCALE_GAMES and the
others) and its targets."""

from __future__ import annotations

import datetime
import os
from fractions import Fraction

REDIS_URL = "redis://127.0.0.1:6379/13"
DATABASE = "potdevin_bench_scale"
GAMES = int(os.environ.get("POTDEVIN_BENCH_SCALE_GAMES", "1000000"))
BATCH_SIZE = os.environ.get("POTDEVIN_JOB_BATCH_SIZE", "1000")
POOL = int(os.environ.get("POTDEVIN_BENCH_SCALE_POOL", "1000"))  # simulated logs per game type
GAMES_PER_CLUB = 1000
PLAYERS_PER_CLUB = 30
SHARES = (("pot-de-vin", 4), ("complots", 3), ("bruges", 3))  # in tenths of a club's games
FIRST_DAY = datetime.date(2022, 1, 1)
DAYS = 3 * 365
CHECKPOINT = 10_000  # the first latency is measured with this many games stored
STALE_EVERY = 10  # one game in ten gets a stale result before the re-score
SAMPLE_CLUBS = 10
SAMPLE_PLAYERS = 3  # per sampled club
ROUNDS = 5  # of reads of every sampled player at every game type
REPLAYED = 100  # stale games replayed afresh after the re-score
FLOOR_GAMES = 1000  # games the database stores again, for its own cost alone
WORKERS = 2
# The load's target: this share of the most games a second the database alone could store
# (``floor``), measured in the same run, so it holds on any machine.
LOAD_SHARE = Fraction(2, 3)
RESCORE_TARGET = 3300.0
GROWTH_TARGET = 1.5
FLAT_TOLERANCE = 0.10
# A wait that lasts longer than this has met a stuck job or a dead worker.
DEADLINE = max(1800.0, GAMES / 100)
