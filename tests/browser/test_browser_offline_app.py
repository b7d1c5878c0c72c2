"""The project's own pages in the browser (a spike: games/web/offline_app.py,
static/js/app-worker.js): a Pot de Vin game's page, its review, its refusal and its Save,
rendered in a Web Worker by the same views under Pyodide from the game's snapshot, say what the
server's say. The worker's times go to artifacts/offline-app.json (with the page's CPU slowed 4
times in the slow test: a worker's own thread is not slowed by Chromium, so that is a lower
bound of a slow phone's wait)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.urls import reverse

from games.records import services
from games.records.models import Game, Round
from tests.accounts import first_club, make_user
from tests.browser.pages import ARTIFACTS, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

READY_TIMEOUT_MS = 180_000
ROUND = {"number": "1", "trump": "E5", "play_0": "A7", "play_1": "pass", "play_2": "A10"}
# Three times the A7: a card is played once.
IMPOSSIBLE = {**ROUND, "play_1": "A7", "play_2": "A7"}

# The worker, started from the game's page; window.offlineApp(method, path, fields) asks it.
START = """async ([manifest, snapshot]) => {
  const url = `/static/js/app-worker.js?manifest=${encodeURIComponent(manifest)}`
    + `&snapshot=${encodeURIComponent(snapshot)}`;
  const worker = new Worker(url, {type: "module"});
  const waiting = new Map();
  let next = 0;
  const started = performance.now();
  const ready = new Promise((resolve, reject) => {
    worker.onmessage = ({data}) => {
      if (data.type === "ready") resolve({...data.timings, wall_ms: performance.now() - started});
      else if (data.type === "failed") reject(new Error(data.failure));
      else { waiting.get(data.id)(data); waiting.delete(data.id); }
    };
  });
  window.offlineApp = (method, path, fields) => new Promise((resolve) => {
    const id = ++next;
    waiting.set(id, resolve);
    worker.postMessage({id, method, path, body: new URLSearchParams(fields || {}).toString()});
  });
  return ready;
}"""
# The server's answer to the same request, with the cookies and CSRF token of the page.
SERVER = """async ([method, path, fields]) => {
  const body = new URLSearchParams(fields || {});
  if (method === "POST") {
    body.set("csrfmiddlewaretoken", document.querySelector("[name=csrfmiddlewaretoken]").value);
  }
  const response = await fetch(path, method === "POST" ? {method, body} : {});
  return {status: response.status, html: await response.text(), location: response.url};
}"""
# What a person sees and sends of a page: the entry form's fields and button, the review's
# lines, the refusals, the notices.
DESCRIBE = """(html) => {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const text = (el) => (el ? el.textContent.replace(/\\s+/g, " ").trim() : null);
  const button = doc.querySelector("#save-round");
  const fields = button ? [...new Set([...button.form.elements].map((e) => e.name))] : [];
  return {
    title: text(doc.querySelector("h1")),
    button: text(button),
    fields: fields.filter((name) => name).sort(),
    review: [...doc.querySelectorAll("#review-lines li")].map(text),
    after: text(doc.querySelector("#review-after")),
    save: text(doc.querySelector("#review-save")),
    errors: [...doc.querySelectorAll("#error-summary li")].map(text),
    messages: [...doc.querySelectorAll(".messages li")].map(text),
  };
}"""


def _game() -> Game:
    user = make_user("alice")
    services.editions_ensure_builtin()
    return services.game_create(
        club=first_club(),
        owner=user,
        players=services.players_resolve(
            club=first_club(), refs=["Ada", "Bea", "Cy"], created_by=user
        ),
        game_type="pot-de-vin",
        first_player=1,
    )


def _record(name: str, value: Any) -> None:
    path = ARTIFACTS / "offline-app.json"
    try:
        found = json.loads(path.read_text())
    except (OSError, ValueError):
        found = {}
    found[name] = value
    path.write_text(json.dumps(found, indent=1, sort_keys=True))


def _start(page: Any, game: Game) -> dict[str, Any]:
    page.set_default_timeout(READY_TIMEOUT_MS)
    manifest = reverse("web:engine-manifest")
    snapshot = reverse("web:game-offline", args=[game.pk])
    timings: dict[str, Any] = page.evaluate(START, [manifest, snapshot])
    return timings


def _both(page: Any, method: str, path: str, fields: dict[str, str] | None = None) -> Any:
    """What the server and the worker answer to one request, described alike."""
    server = page.evaluate(SERVER, [method, path, fields])
    started = time.perf_counter()
    worker = page.evaluate("([m, p, f]) => offlineApp(m, p, f)", [method, path, fields])
    took = time.perf_counter() - started
    assert "failure" not in worker, worker.get("failure")
    return (
        (server["status"], page.evaluate(DESCRIBE, server["html"])),
        (worker["status"], page.evaluate(DESCRIBE, worker["html"])),
        worker,
        took,
    )


def test_the_worker_renders_reviews_refuses_and_saves_as_the_server(
    live_server: Any, browser: Any
) -> None:
    game = _game()
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    timings = _start(page, game)
    rounds = f"/games/{game.pk}/rounds/"
    times = {}

    server, worker, _raw, times["page_s"] = _both(page, "GET", f"/games/{game.pk}/")
    assert server == worker
    assert worker[1]["button"] == "Review round 1"
    assert worker[1]["fields"] == [
        "csrfmiddlewaretoken", "idempotency_key", "number", "play_0", "play_1", "play_2", "trump"
    ]  # fmt: skip

    server, worker, _raw, times["review_s"] = _both(page, "POST", rounds, ROUND)
    assert server == worker
    assert worker[1]["review"][0] == "Trump revealed: E5 (Enzo is trump)."
    assert worker[1]["save"] == "Save round 1"

    server, worker, _raw, times["refusal_s"] = _both(page, "POST", rounds, IMPOSSIBLE)
    assert server == worker
    assert worker[0] == 400 and worker[1]["errors"], worker

    started = time.perf_counter()
    saved = page.evaluate(
        "([p, f]) => offlineApp('POST', p, f)", [rounds, {**ROUND, "review": "save"}]
    )
    times["save_s"] = time.perf_counter() - started
    assert saved["location"] == f"/games/{game.pk}/#entry"
    after = page.evaluate(DESCRIBE, saved["html"])
    assert after["button"] == "Review round 2"
    assert after["messages"] == ["Round 1 saved: Ada wins it with A10."]
    assert not Round.objects.filter(game=game).exists()  # the server's game is untouched
    _record("chromium", {"ready": timings, "requests": times})


@pytest.mark.measure
def test_the_worker_loads_with_the_page_cpu_slowed_4_times(live_server: Any, browser: Any) -> None:
    game = _game()
    page = browser.new_page()
    sign_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    cdp = browser.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    timings = _start(page, game)
    started = time.perf_counter()
    answer = page.evaluate("(p) => offlineApp('GET', p)", f"/games/{game.pk}/")
    assert answer["status"] == 200
    _record("chromium_cpu_4x", {"ready": timings, "first_page_s": time.perf_counter() - started})
