"""The rules engine in the browser (static/js/engine.js, engine-worker.js, under Pyodide) says
what the server says: every log the engines' error tests have refused (tests/engine/<game>/
test_<game>_errors.py, their logs watched as they run) is refused in Chromium with the same
code, round, seat and turn, and the same sentence as the pages' ``refusals.sentence`` in
English, Italian and Portuguese; every golden log replays to the server's result. Pyodide loads
once for the module (one page, every check through ``page.evaluate``); the first visit's
download and times, and the time to the first check with the CPU slowed 4 times, go to
artifacts/engine-browser.json."""

from __future__ import annotations

import copy
import importlib
import inspect
import itertools
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games.web import refusals
from scoring.engine import LogError, engine_for_log
from tests.browser.pages import ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, LANGUAGES, PHONE
from tests.engine.golden import golden_files, load

pytestmark = pytest.mark.django_db(transaction=True)

# The error tests of each game, by the game type of its pages.
ERROR_TESTS = {
    "pot-de-vin": "tests.engine.potdevin.test_potdevin_errors",
    "complots": "tests.engine.complots.test_complots_errors",
    "bruges": "tests.engine.bruges.test_bruges_errors",
}
GOLDEN = {"pot-de-vin": "potdevin", "complots": "complots", "bruges": "bruges"}
# The players as a page names them (a seat past them is "a player not at this table").
NAMES = ["Ada", "Bea", "Cy", "Dom", "Eve", "Flo", "Gus", "Hal"]
LOAD_TIMEOUT_MS = 120_000
PARAM = type(pytest.param(None))

# A script element for engine.js, as a page has it.
ADD_ENGINE = """([src, manifest]) => new Promise((resolve, reject) => {
  const script = document.createElement("script");
  script.src = src;
  script.dataset.manifest = manifest;
  script.onload = resolve;
  script.onerror = () => reject(new Error("engine.js did not load"));
  document.head.append(script);
})"""
# Many checks in one call: each answer, or its failure's words.
REPLAY_ALL = """async (checks) => Promise.all(checks.map(({log, names, language, gameType}) =>
  potdevinEngine.replay(log, {names, language, gameType})
    .catch((error) => ({failure: String(error)}))))"""
# The first check from a fresh page: how long until Pyodide is there and the answer comes.
FIRST_CHECK = """async (log) => {
  const start = performance.now();
  const timings = await potdevinEngine.ready();
  const ready = performance.now();
  const answer = await potdevinEngine.replay(log);
  return {timings, ready_ms: ready - start, first_check_ms: performance.now() - start,
          check_ms: performance.now() - ready, ok: answer.ok};
}"""


# --- the refused logs, as the error tests give them ----------------------------------------------


class Watched:
    """An engine whose refused logs are kept (a copy as given, before the replay)."""

    def __init__(self, engine: Any, refused: list[Any]) -> None:
        self._engine, self._refused = engine, refused

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def replay(self, log: Any, **options: Any) -> Any:
        given = copy.deepcopy(log)
        try:
            return self._engine.replay(log, **options)
        except LogError:
            if not options:  # an edition given aside: not what a page sends
                self._refused.append(given)
            raise


def _calls(test: Callable[..., Any]) -> Iterator[dict[str, Any]]:
    """Each set of arguments pytest would call ``test`` with (its parametrize marks)."""
    choices = []
    for mark in getattr(test, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = []
        for value in values:
            if isinstance(value, PARAM):
                value = value.values
            elif len(names) == 1:
                value = (value,)
            rows.append(dict(zip(names, value, strict=True)))
        choices.append(rows)
    for combination in itertools.product(*choices):
        yield {k: v for row in combination for k, v in row.items()}


def _is_json(log: Any) -> bool:
    """A log that JSON carries as it is (no tuple, no number as a key, no NaN)."""
    try:
        return repr(json.loads(json.dumps(log, allow_nan=False))) == repr(log)
    except (TypeError, ValueError):
        return False


def refused_logs(module_name: str) -> list[Any]:
    """Every log the module's tests have their engine refuse, once each."""
    module = importlib.import_module(module_name)
    refused: list[Any] = []
    engine = module.ENGINE
    module.ENGINE = Watched(engine, refused)
    try:
        for name, test in sorted(vars(module).items()):
            if not (name.startswith("test_") and callable(test)):
                continue
            wanted = set(inspect.signature(test).parameters)
            for arguments in _calls(test):
                if wanted - set(arguments):
                    break  # a fixture: not run here
                try:
                    test(**arguments)
                except Exception:  # their own run says why; only the logs matter here
                    continue
    finally:
        module.ENGINE = engine
    unique = {json.dumps(log, sort_keys=True): log for log in refused if _is_json(log)}
    return list(unique.values())


def names_for(log: Any) -> list[str]:
    players = log.get("players") if isinstance(log, dict) else None
    count = len(players) if isinstance(players, list) and 1 < len(players) <= 8 else 3
    return NAMES[:count]


def server_says(log: Any, names: list[str], game_type: str, language: str) -> dict[str, Any]:
    """What the server says of ``log``: the replay's result as JSON carries it, or the
    refusal's code, round, seat and turn and its sentence on the pages."""
    try:
        result = engine_for_log(log).replay(log)
    except LogError as exc:
        with translation.override(language):
            sentence = refusals.sentence(exc, names, refusals.for_game(game_type))
        return {"ok": False, "error": {**exc.as_dict(), "sentence": sentence}}
    return {"ok": True, "result": json.loads(json.dumps(result))}


# --- one page for the module ----------------------------------------------------------------------


def _fresh_context(browser: Any) -> Any:
    """A context of its own: nothing cached, as on a phone's first visit."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    return context


def _engine_page(context: Any, base: str) -> tuple[Any, list[Any]]:
    """A page of the site with engine.js (its engine not started), and the responses it gets."""
    page = context.new_page()
    responses: list[Any] = []
    page.on("response", lambda response: responses.append(response))
    page.goto(f"{base}{reverse('web:login')}")
    page.evaluate(ADD_ENGINE, [f"{base}/static/js/engine.js", reverse("web:engine-manifest")])
    return page, responses


@pytest.fixture(scope="module")
def chromium_once(live_server: Any) -> Iterator[Any]:
    """Chromium for the whole module, or None where it cannot run (each test then skips, or
    fails where services are required)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        yield None
        return
    if not Path(CHROMIUM).exists():
        yield None
        return
    ARTIFACTS.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as monkeypatch, sync_playwright() as pw:
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


# The first visit's download and times, measured by the page the module shares.
FIRST_VISIT: dict[str, Any] = {}


@pytest.fixture(scope="module")
def engine_page(chromium_once: Any, live_server: Any) -> Iterator[Any]:
    """One page with the engine loaded, its first visit measured (``FIRST_VISIT``)."""
    if chromium_once is None:
        yield None
        return
    context = _fresh_context(chromium_once)
    page, responses = _engine_page(context, live_server.url)
    FIRST_VISIT.update(page.evaluate(FIRST_CHECK, json.dumps(_golden_logs()[0][1])))
    FIRST_VISIT["downloads"] = _downloads(responses)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def page(engine_page: Any, skip_or_fail: Callable[[str], None]) -> Any:
    if engine_page is None:
        skip_or_fail(f"Chromium (at {CHROMIUM}) and Playwright are needed")
    return engine_page


def _downloads(responses: list[Any]) -> dict[str, Any]:
    """What each response weighed on the wire (its body as sent: gzipped where it was)."""
    files = {}
    for response in responses:
        headers = response.headers
        length = headers.get("content-length")
        files[response.url.split("/", 3)[-1]] = {
            "bytes": int(length) if length is not None else len(response.body()),
            "encoding": headers.get("content-encoding", ""),
            "type": headers.get("content-type", ""),
        }
    return files


def _golden_logs() -> list[tuple[str, Any]]:
    return [
        (game_type, load(path)["log"])
        for game_type, folder in GOLDEN.items()
        for path in golden_files(folder)
    ]


def _record(key: str, value: Any) -> None:
    path = ARTIFACTS / "engine-browser.json"
    found = json.loads(path.read_text()) if path.exists() else {}
    found[key] = value
    path.write_text(json.dumps(found, indent=2, sort_keys=True))


# --- the checks ---------------------------------------------------------------------------------


@pytest.mark.parametrize("game_type", list(ERROR_TESTS))
def test_the_browser_refuses_as_the_server_does(page: Any, game_type: str) -> None:
    logs = refused_logs(ERROR_TESTS[game_type])
    assert len(logs) >= 20, f"only {len(logs)} refused logs found in {ERROR_TESTS[game_type]}"
    checks, expected = [], []
    for log in logs:
        names = names_for(log)
        for language in LANGUAGES:
            # As JSON text, as the server would read it: an object would lose 1.0 against 1.
            checks.append(
                {
                    "log": json.dumps(log),
                    "names": names,
                    "language": language,
                    "gameType": game_type,
                }
            )
            expected.append(server_says(log, names, game_type, language))
    answers = page.evaluate(REPLAY_ALL, checks)
    differ = [
        f"{check['language']} {check['log'][:300]}\n    browser: {answer}\n    server:  {want}"
        for check, answer, want in zip(checks, answers, expected, strict=True)
        if answer != want
    ]
    refusals_seen = sum(1 for want in expected if not want["ok"])
    assert refusals_seen >= len(expected) * 0.9, "the error tests' logs are mostly refused"
    assert not differ, f"{len(differ)} of {len(checks)} differ:\n" + "\n".join(differ[:20])


def test_a_valid_log_replays_to_the_servers_result(page: Any) -> None:
    logs = _golden_logs()
    checks = [{"log": json.dumps(log), "gameType": game_type} for game_type, log in logs]
    # A page may pass the log as an object too.
    checks.append({"log": logs[0][1], "gameType": logs[0][0]})
    answers = page.evaluate(REPLAY_ALL, checks)
    for check, answer in zip(checks, answers, strict=True):
        log = json.loads(check["log"]) if isinstance(check["log"], str) else check["log"]
        assert answer == server_says(log, [], check["gameType"], "en")
        assert answer["ok"], answer


def test_a_check_that_cannot_be_made_is_no_refusal(page: Any) -> None:
    """Text that is no JSON: the promise is rejected (the server decides), not a refusal."""
    (answer,) = page.evaluate(REPLAY_ALL, [{"log": "{not json"}])
    assert set(answer) == {"failure"}, answer
    assert "JSONDecodeError" in answer["failure"]


def test_the_first_visit_is_measured(page: Any) -> None:
    first = FIRST_VISIT
    downloads = first["downloads"]
    engine = {url: facts for url, facts in downloads.items() if url.startswith("engine/")}
    names = {url.rsplit("/", 1)[-1] for url in engine}
    assert names >= {
        "manifest.json",
        "pyodide.mjs",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
        "engine.zip",
        "words.zip",
    }, names
    wasm = next(facts for url, facts in engine.items() if url.endswith(".wasm"))
    assert wasm["type"] == "application/wasm"
    assert wasm["encoding"] == "gzip"
    first["engine_bytes"] = sum(facts["bytes"] for facts in engine.values())
    _record("first_visit", first)
    assert first["ok"]


def test_a_page_that_asks_nothing_loads_nothing(page: Any, live_server: Any) -> None:
    """Then, asked, it loads the engine as a later visit does (the browser's cache warm)."""
    later, responses = _engine_page(page.context, live_server.url)
    try:
        later.wait_for_timeout(500)
        assert not [r.url for r in responses if "/engine/" in r.url], "no check asked: no engine"
        visit = later.evaluate(FIRST_CHECK, json.dumps(_golden_logs()[0][1]))
        _record("later_visit", visit)
        assert visit["ok"]
    finally:
        later.close()


@pytest.mark.measure
def test_the_first_check_with_the_cpu_slowed_4_times(
    chromium_once: Any, live_server: Any, skip_or_fail: Callable[[str], None]
) -> None:
    """Chromium slows the page's own thread (a worker's target refuses the rate): the worker's
    load is slowed only in part, so this is a lower bound of a slow phone's wait."""
    if chromium_once is None:
        skip_or_fail(f"Chromium (at {CHROMIUM}) and Playwright are needed")
    context = _fresh_context(chromium_once)
    page, _responses = _engine_page(context, live_server.url)
    try:
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
        started = time.perf_counter()
        first = page.evaluate(FIRST_CHECK, json.dumps(_golden_logs()[0][1]))
        first["wall_s"] = time.perf_counter() - started
        first["cpu"] = os.cpu_count()
        _record("first_visit_cpu_4x", first)
        assert first["ok"]
    finally:
        context.close()
