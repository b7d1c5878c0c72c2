"""``python -m loadtest --watch``: a table of phones following its games on the production
server (gunicorn's sync workers), as ``static/js/live.js`` follows a game's page.

Four games, one phone per game entering a round every few seconds (the API), run twice for the
same time: first alone, then with 40 phones watching (10 per game: half on the members' page,
half on the share link's), each asking its page again 1.5 s after its last answer with
``If-None-Match``. Reported per run: requests per second, the share of 304s, p50/p95 of the
polls and of the entries, the CPU time of the web workers and of PostgreSQL; then the watchers'
extra CPU, and how soon a watching phone had each saved round (checked: within 3 s). Every
server is the test's own (loadtest/services.py)."""

from __future__ import annotations

import contextlib
import http.client
import os
import random
import statistics
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from loadtest.run import (
    Calls,
    Client,
    Report,
    append_entry,
    create_from,
    percentile,
    setup_django,
    site_env,
)
from loadtest.services import Postgres, Redis, Site
from scoring.engine.potdevin.simulate import simulate

GAMES = 4
WATCHERS = 40
ENTRY_EVERY = 3.0  # s between two rounds of one game
POLL_EVERY = 1.5  # s after an answer, as static/js/live.js waits
SEEN_WITHIN = 3.0  # s: every watching phone has a saved round this soon
POLLS = ("GET live page", "GET live share")
ENTRIES = ("POST rounds", "DELETE last round")


class Phone:
    """One phone following a game's page: its own connection, the page's tag as the script
    keeps it, the session cookie of a signed-in member (none on a share link)."""

    def __init__(self, base: str, path: str, route: str, calls: Calls, cookie: str = "") -> None:
        parts = urlsplit(base)
        self.address = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.path, self.route, self.calls = path, route, calls
        self.headers = {"Cookie": f"sessionid={cookie}"} if cookie else {}
        self.tag = ""
        self.conn = http.client.HTTPConnection(*self.address, timeout=60)

    def ask(self) -> int | None:
        headers = {**self.headers, **({"If-None-Match": self.tag} if self.tag else {})}
        start = time.monotonic()
        try:
            self.conn.request("GET", self.path, headers=headers)
            response = self.conn.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(*self.address, timeout=60)
            self.calls.record(self.route, None, time.monotonic() - start, "connection_lost")
            return None
        self.calls.record(self.route, response.status, time.monotonic() - start, "")
        if response.status == 200:
            self.tag = response.getheader("ETag") or ""
        return response.status


@dataclass
class Run:
    """One run's figures: every call, the CPU seconds of the servers, and for each game the
    times its rounds were saved and the times each of its phones had a new page."""

    watchers: int
    calls: Calls = field(default_factory=Calls)
    elapsed: float = 0.0
    cpu_web: float = 0.0
    cpu_db: float = 0.0
    saved: dict[int, list[float]] = field(default_factory=dict)
    fresh: dict[int, list[list[float]]] = field(default_factory=dict)


def _cpu_seconds(pid: int) -> float:
    """CPU time of a process, of its children that ended (cutime, cstime) and of those alive
    (gunicorn's workers, PostgreSQL's backends)."""
    tick = os.sysconf("SC_CLK_TCK")

    def times(p: int) -> list[int]:
        # The fields after the command's ")": utime, stime, cutime, cstime are the 12th to 15th.
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        return [int(f) for f in fields[11:15]]

    total = sum(times(pid))
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        with contextlib.suppress(FileNotFoundError):  # ended meanwhile: in cutime next time
            total += sum(times(int(child)))
    return total / tick


def _postmaster(pg: Postgres) -> int:
    return int((pg.data / "postmaster.pid").read_text().split()[0])


def _session_cookie(username: str) -> str:
    """A signed-in session of ``username`` (the members' page needs one), as a browser has it."""
    # Imported here: Django is set up by ``setup_django``, once the database exists.
    from django.contrib.auth import get_user_model
    from django.test import Client as DjangoClient

    browser = DjangoClient()
    browser.force_login(get_user_model().objects.get(username=username))
    return browser.cookies["sessionid"].value


def _entering(
    client: Client, game: int, rounds: list[Any], deadline: float, saved: list[float]
) -> None:
    """A round every ENTRY_EVERY seconds; past the log's last, the last undone and entered
    again, so that the game changes as often to the end."""
    tick = time.monotonic()
    number = 0
    while tick < deadline:
        if number < len(rounds):
            number += 1
            append_entry(client, game, number, rounds[number - 1])
        else:
            status, body = client.call("DELETE", f"/api/games/{game}/rounds/last/", ENTRIES[1])
            assert status == 200, (status, body)
            append_entry(client, game, number, rounds[number - 1])
        saved.append(time.monotonic())
        tick += ENTRY_EVERY
        time.sleep(max(0.0, tick - time.monotonic()))


def _watching(phone: Phone, deadline: float, seed: int, fresh: list[float]) -> None:
    time.sleep(random.Random(seed).uniform(0, POLL_EVERY))  # the phones were not in step
    while time.monotonic() < deadline:
        if phone.ask() == 200:
            fresh.append(time.monotonic())
        time.sleep(POLL_EVERY)


def _run(site: Site, pg: Postgres, token: str, cookie: str, watchers: int, seconds: float) -> Run:
    run = Run(watchers)
    admin = Client(site.base, token, Calls())  # setting up: not counted
    logs = []
    for g in range(GAMES):
        log = simulate(3, seed=3000 + g, record_deal=False, names=[f"g{g}-{i}" for i in range(3)])
        game = create_from(admin, log, "pot-de-vin")
        status, share = admin.call("POST", f"/api/games/{game}/shares/", "POST share")
        assert status == 201, (status, share)
        logs.append((game, log["rounds"], share["url"]))
    threads = []
    phones: list[tuple[Phone, int, list[float]]] = []
    for game, _, share_url in logs:
        run.saved[game] = []
        run.fresh[game] = []
        for w in range(watchers // GAMES):
            on_share = w % 2 == 1
            phone = Phone(
                site.base,
                urlsplit(share_url).path + "live/" if on_share else f"/games/{game}/live/",
                POLLS[on_share],
                Calls(),
                cookie="" if on_share else cookie,
            )
            phone.ask()  # the page opened, before the run (not counted)
            phone.calls = run.calls
            run.fresh[game].append([])
            phones.append((phone, game * 100 + w, run.fresh[game][-1]))
    deadline = time.monotonic() + seconds
    for game, rounds, _ in logs:
        client = Client(site.base, token, run.calls)
        args = (client, game, rounds, deadline, run.saved[game])
        threads.append(threading.Thread(target=_entering, args=args))
    for phone, seed, fresh in phones:
        threads.append(threading.Thread(target=_watching, args=(phone, deadline, seed, fresh)))
    web, db = _cpu_seconds(site.web.pid), _cpu_seconds(_postmaster(pg))
    start = time.monotonic()
    for t in threads:
        t.daemon = True
        t.start()
    for t in threads:
        t.join(timeout=seconds + 120)
    run.elapsed = time.monotonic() - start
    run.cpu_web = _cpu_seconds(site.web.pid) - web
    run.cpu_db = _cpu_seconds(_postmaster(pg)) - db
    return run


def _lags(run: Run) -> list[float]:
    """For each saved round and each phone of its game: how soon the phone had a new page."""
    lags = []
    for game, saved in run.saved.items():
        for fresh in run.fresh[game]:
            for moment in saved:
                later = [f for f in fresh if f >= moment]
                if later:
                    lags.append(later[0] - moment)
    return lags


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    return f"{1000 * (statistics.median(values) if q == 0.5 else percentile(values, q)):.0f}"


def _describe(report: Report, name: str, run: Run) -> None:
    statuses = run.calls.statuses
    total = sum(statuses.values())
    polls = [s for s in run.calls.latencies.items() if s[0] in POLLS]
    poll_times = [t for _, times in polls for t in times]
    entry_times = [t for r in ENTRIES for t in run.calls.latencies.get(r, [])]
    unchanged = sum(
        n for (route, status), n in statuses.items() if route in POLLS and status == 304
    )
    share = f"{100 * unchanged / len(poll_times):.0f}%" if poll_times else "-"
    report.lines.append(
        f"{name:<24} {total:>6} {total / run.elapsed:>6.1f} {share:>5}"
        f" {_ms(poll_times, 0.5):>5}/{_ms(poll_times, 0.95):<5}"
        f" {_ms(entry_times, 0.5):>5}/{_ms(entry_times, 0.95):<5}"
        f" {run.cpu_web:>7.1f} {run.cpu_db:>6.1f}"
    )
    errors = run.calls.server_errors
    if errors:
        report.failures.append(f"{name}: {len(errors)} 5xx answers: {errors[:5]}")
    lost = sum(n for (route, status), n in statuses.items() if status is None)
    if lost:
        report.failures.append(f"{name}: {lost} connections lost")
    other = {k: n for k, n in statuses.items() if k[0] in POLLS and k[1] not in (200, 304)}
    if other:
        report.failures.append(f"{name}: polls answered otherwise than 200 or 304: {other}")


def run_watch(*, seconds: float, watchers: int, web_workers: int, log_dir: Path) -> Report:
    report = Report()
    pg = Postgres()
    redis = Redis()
    site = None
    try:
        token, username = setup_django(pg.url, redis.url)
        cookie = _session_cookie(username)
        site = Site(site_env(pg, redis), web_workers=web_workers, log_dir=log_dir)
        _run(site, pg, token, cookie, 2 * GAMES, 3)  # the workers warmed up, not counted
        alone = _run(site, pg, token, cookie, 0, seconds)
        watched = _run(site, pg, token, cookie, watchers, seconds)
    finally:
        if site is not None:
            site.stop()
        redis.stop()
        pg.stop()
    report.lines.append(
        f"{GAMES} games, a round entered in each every {ENTRY_EVERY:.0f} s, {seconds:.0f} s"
        f" per run, {web_workers} sync workers; {watchers} phones watching ask"
        f" {POLL_EVERY} s after each answer"
    )
    report.lines.append(
        f"{'run':<24} {'reqs':>6} {'req/s':>6} {'304s':>5} {'poll p50/p95 ms':>15}"
        f" {'entry p50/p95 ms':>16} {'web cpu s':>9} {'db s':>6}"
    )
    _describe(report, "entries alone", alone)
    _describe(report, f"entries + {watchers} watching", watched)
    extra_web, extra_db = watched.cpu_web - alone.cpu_web, watched.cpu_db - alone.cpu_db
    report.lines.append(
        f"the watchers' extra CPU: web {extra_web:+.1f} s ({100 * extra_web / seconds:+.0f}% of"
        f" a core), database {extra_db:+.1f} s ({100 * extra_db / seconds:+.0f}% of a core)"
    )
    lags = _lags(watched)
    if lags:
        report.lines.append(
            f"a saved round on a watching phone after: p50 {_ms(lags, 0.5)} ms,"
            f" p95 {_ms(lags, 0.95)} ms, max {1000 * max(lags):.0f} ms ({len(lags)} times)"
        )
    if not lags:
        report.failures.append("no watching phone had a new page")
    elif max(lags) > SEEN_WITHIN:
        report.failures.append(f"a watching phone had a saved round after {max(lags):.1f} s")
    return report
