// potdevin's service worker (games/web/pwa.py), version {{ version }}.
// Static files: from the cache first (their cache is this version's). The engine's files (their
// URLs are versioned): from the cache first, kept across versions. Pages: from the network first;
// a game's page (a member's or a share link's) and the pages of a new play (the quick score
// sheets, another game's play) are kept as last seen, and shown again offline or while the server
// does not answer. A form sent while the server does not answer stays on its page, as typed.
"use strict";
const VERSION = "{{ version }}";
const STATIC = "static-" + VERSION;
const ENGINE = "engine";
const PAGES = "pages";
const STATIC_URLS = {{ static_urls|safe }};
const ENGINE_MANIFEST = "{{ engine_manifest }}";
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const GAME_PAGE = /^\/(games\/\d+|shared\/[A-Za-z0-9_-]{32}|games\/scorepad(\/[a-z0-9-]+)?|plays\/new)\/$/;
// What the phone's own copy of the pages loads: a game, or what a new play reads
// (games/web/offline_app.py).
const SNAPSHOT = /^\/(games\/\d+|plays)\/offline\.json$/;
const OFFLINE_TEXT = "{{ offline_text|escapejs }}";
// No answer in this time is no answer: the form is kept on the phone (its key makes a late
// first answer harmless: the entry is stored once).
const SEND_TIMEOUT_MS = 15000;

async function precacheEngine() {
  try {
    const response = await fetch(ENGINE_MANIFEST, { cache: "no-cache" });
    if (!response.ok) return;
    const files = await response.json();
    const urls = [];
    if (files.pyodide) {
      const base = files.pyodide.endsWith("/") ? files.pyodide : files.pyodide + "/";
      for (const name of PYODIDE_FILES) urls.push(base + name);
    }
    for (const [name, url] of Object.entries(files)) {
      if (name !== "pyodide" && typeof url === "string" && url.startsWith("/")) urls.push(url);
    }
    const cache = await caches.open(ENGINE);
    for (const url of urls) {
      if (!(await cache.match(url))) await cache.add(url);
    }
    await (await caches.open(STATIC)).put(ENGINE_MANIFEST, new Response(JSON.stringify(files), { headers: { "Content-Type": "application/json" } }));
  } catch (error) {
    // Offline or not installed: the pages check entries online only, until the next visit.
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    await (await caches.open(STATIC)).addAll(STATIC_URLS);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("static-") && name !== STATIC) await caches.delete(name);
    }
    await self.clients.claim();
    precacheEngine();
  })());
});

async function fromCacheFirst(request, cacheName) {
  const cached = await caches.match(request, { ignoreVary: true });
  if (cached) return cached;
  // A worker's script is asked for with its parameters (?manifest=...): the file is the same,
  // answered as a new response so that the worker's address keeps them.
  if (cacheName === STATIC && new URL(request.url).search) {
    const same = await caches.match(request, { ignoreVary: true, ignoreSearch: true });
    if (same) return new Response(same.body, { status: same.status, headers: same.headers });
  }
  const response = await fetch(request);
  if (response.ok) {
    const copy = response.clone();
    await (await caches.open(cacheName)).put(request, copy);
  }
  return response;
}

async function page(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && GAME_PAGE.test(url.pathname)) {
      const copy = response.clone();
      await (await caches.open(PAGES)).put(url.pathname, copy);
    }
    if (response.status < 500) return response;
    // A 5xx (the server down behind a proxy): the page as last seen, if the phone has it.
    return (await caches.match(url.pathname, { cacheName: PAGES, ignoreVary: true })) || response;
  } catch (error) {
    const cached = await caches.match(url.pathname, { cacheName: PAGES, ignoreVary: true });
    if (cached) return cached;
    return new Response(
      "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'><title>potdevin</title><main><h1>potdevin</h1><p role=status>" + OFFLINE_TEXT + "</p></main>",
      { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } },
    );
  }
}

// A form sent while the phone believes it is online (the Wi-Fi is up) but the server does not
// answer: stopped, unreachable, a 5xx, or nothing within SEND_TIMEOUT_MS. Instead of the
// browser's error page (and what was typed, gone), the page stays as it is (a 204 navigates
// nowhere) and is told, and keeps the entry as it would offline (static/js/offline.js).
async function formSent(request) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
  try {
    const response = await fetch(request, { signal: controller.signal });
    if (response.status < 500) return response;
  } catch (error) {
    // No answer: as offline.
  } finally {
    clearTimeout(timer);
  }
  for (const client of await self.clients.matchAll({ type: "window" })) {
    client.postMessage({ type: "potdevin-unanswered", url: request.url });
  }
  return new Response(null, { status: 204 });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    event.respondWith(formSent(request));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(fromCacheFirst(request, STATIC));
  } else if (url.pathname.startsWith("/engine/") && url.pathname !== ENGINE_MANIFEST) {
    event.respondWith(fromCacheFirst(request, ENGINE));
  } else if (url.pathname === ENGINE_MANIFEST) {
    event.respondWith(fetch(request).catch(() => caches.match(ENGINE_MANIFEST, { cacheName: STATIC })));
  } else if (SNAPSHOT.test(url.pathname)) {
    event.respondWith(fetch(request).then(async (response) => {
      if (response.ok) {
        const copy = response.clone();
        await (await caches.open(PAGES)).put(url.pathname, copy);
      }
      return response;
    }).catch(() => caches.match(url.pathname, { cacheName: PAGES, ignoreVary: true })
      .then((cached) => cached || Response.error())));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (url.pathname.startsWith("/jsi18n/")) {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(PAGES).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => caches.match(request, { cacheName: PAGES, ignoreVary: true })));
  }
});

// Background Sync, where the browser has it: the pages' queue is sent by the pages themselves
// (static/js/offline.js); a sync only wakes a page that is open to do it.
self.addEventListener("sync", (event) => {
  if (event.tag !== "potdevin-send") return;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then((clients) => {
    for (const client of clients) client.postMessage({ type: "potdevin-send" });
  }));
});
