// At the table, whatever the network: the service worker (/sw.js, games/web/pwa.py) keeps the
// app and the game pages opened; this script keeps on the phone what is saved while offline,
// and lets the game go on.
//
// Online, a game's page keeps the game for later (games/<pk>/offline.json, through the service
// worker's cache, with the app's own pages: app.zip). Offline, a form of that page is answered by
// the project's own pages running on the phone (static/js/app-worker.js: the same views, forms,
// words and rules engine, under Pyodide, on a copy of the game), and the answer is shown as the
// server's would be: the same steps, Review and Save, the same refusals. What a Save stores is
// kept in IndexedDB (it survives a reload, closing the browser, a restart, a new version of the
// site) with its key, listed as "saved on this phone, not sent yet", and the next entry builds
// on it. The entries are sent in order, each with its key (idempotency_key), when the
// connection returns: on "online", on opening a page, and from "Send now". The server answers a
// key it has seen with its first answer, so an entry sent twice is stored once. A 5xx, a
// timeout or no network is "still offline"; a refusal (another phone saved that entry first,
// say) is kept and shown with the server's words, and the entries behind it wait, until the
// person drops it. A new play (a quick score sheet, another game's play) is checked offline by
// the same pages on a copy of what they read (the club's players, editions and named games),
// then kept and sent alike; any other form that writes is kept as it is. Without JavaScript the
// forms post as always, online only.
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) { return f.replace(/%\((\w+)\)s/g, function (_, k) { return o[k]; }); };
  var DB_NAME = "potdevin";
  var STORE = "pending";
  var SEND_TIMEOUT_MS = 15000;
  var ENGINE_MANIFEST = "/engine/manifest.json";
  var GAME = /^\/games\/\d+\/$/.test(location.pathname) ? location.pathname : null;
  // The pages of a new play, and the copy of what they read (games/web/offline_app.py).
  var NEW_PLAY_PAGE = /^\/(games\/scorepad(\/[a-z0-9-]+)?|plays\/new)\/$/;
  var NEW_PLAY = NEW_PLAY_PAGE.test(location.pathname) ? "/plays/offline.json" : null;

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "potdevin-send") sendAll();
      if (event.data && event.data.type === "potdevin-unanswered") unanswered(event.data.url);
    });
  }

  // --- the queue, in IndexedDB -------------------------------------------------------------
  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { db.close(); resolve(result && result.result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function all() {
    return run("readonly", function (store) { return store.getAll(); }).then(function (rows) {
      return (rows || []).sort(function (a, b) { return a.seq - b.seq; });
    });
  }
  function put(entry) { return run("readwrite", function (store) { return store.put(entry); }); }
  function drop(key) { return run("readwrite", function (store) { return store.delete(key); }); }
  // Written only if it is still kept, in one transaction: an entry the person drops while its
  // answer is on the way never comes back.
  function putIfKept(entry) {
    return run("readwrite", function (store) {
      var found = store.get(entry.key);
      found.onsuccess = function () { if (found.result) store.put(entry); };
      return found;
    });
  }

  // The entries of a game the phone's copy builds on: those waiting, up to a refused one.
  function chain(entries, game) {
    var out = [];
    for (var i = 0; i < entries.length; i += 1) {
      if (entries[i].game !== game) continue;
      if (entries[i].state !== "waiting") break;
      out.push(entries[i]);
    }
    return out;
  }

  // --- a form, as it is sent ---------------------------------------------------------------
  function fieldsOf(form, submitter) {
    var data = new FormData(form);
    if (submitter && submitter.name) data.append(submitter.name, submitter.value);
    var fields = [];
    data.forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    return fields;
  }

  function pathOf(form) {
    return new URL(form.getAttribute("action") || location.href, location.href).pathname;
  }

  function numberOf(fields) {
    for (var i = 0; i < fields.length; i += 1) if (fields[i][0] === "number") return Number(fields[i][1]) || null;
    return null;
  }

  function keyOf(fields) {
    for (var i = 0; i < fields.length; i += 1) if (fields[i][0] === "idempotency_key") return fields[i][1];
    return null;
  }

  // An entry kept on the phone, waiting to be sent to ``url``; ``number``: the round or turn
  // it was made for (a game's entry only).
  function pendingEntry(fields, url, game, label, number) {
    var entry = {
      key: keyOf(fields),
      url: url,
      game: game,
      fields: fields,
      label: label,
      savedAt: new Date().toISOString(),
      seq: Date.now() + Math.random(),
      state: "waiting",
      refusal: "",
    };
    if (number !== undefined) entry.number = number;
    return entry;
  }

  function keep(entry) {
    return put(entry).then(function () {
      if ("serviceWorker" in navigator && "SyncManager" in window) {
        navigator.serviceWorker.ready.then(function (reg) { return reg.sync.register("potdevin-send"); }).catch(function () {});
      }
    });
  }

  // --- the game on the phone: the project's pages in a worker ------------------------------
  function phoneCopy() {
    if (window.potdevinPhoneCopy) return window.potdevinPhoneCopy;
    var worker = new Worker(
      "/static/js/app-worker.js?manifest=" + encodeURIComponent(ENGINE_MANIFEST) +
        "&snapshot=" + encodeURIComponent(GAME ? GAME + "offline.json" : NEW_PLAY),
      { type: "module" }
    );
    var waiting = new Map();
    var next = 1;
    var ready = new Promise(function (resolve, reject) {
      worker.addEventListener("message", function (event) {
        var data = event.data || {};
        if (data.type === "ready") resolve(data.timings);
        else if (data.type === "failed") reject(new Error(data.failure));
        else if (waiting.has(data.id)) { waiting.get(data.id)(data); waiting.delete(data.id); }
      });
    });
    function ask(method, path, body) {
      return ready.then(function () {
        return new Promise(function (resolve) {
          var id = next++;
          waiting.set(id, resolve);
          worker.postMessage({ id: id, method: method, path: path, body: body || "", language: document.documentElement.lang });
        });
      });
    }
    // The copy is the game as last seen online: the entries kept on the phone go in first (a
    // new play builds on nothing: each is checked alone).
    var caughtUp = !GAME ? ready : ready.then(all).then(function (entries) {
      return chain(entries, GAME).reduce(function (done, entry) {
        return done.then(function () { return ask("POST", entry.url, new URLSearchParams(entry.fields).toString()); });
      }, Promise.resolve());
    });
    window.potdevinPhoneCopy = { ask: function (method, path, body) {
      return caughtUp.then(function () { return ask(method, path, body); });
    } };
    return window.potdevinPhoneCopy;
  }

  // The page the phone's copy answered, shown as the server's would be (its scripts run again).
  function show_page(html) {
    document.open();
    document.write(html);
    document.close();
  }

  function busy(on) {
    var note = document.getElementById("offline-busy");
    if (note) note.hidden = !on;
  }

  function answeredOffline(form, submitter) {
    var fields = fieldsOf(form, submitter);
    var path = pathOf(form);
    var key = keyOf(fields);
    busy(true);
    return phoneCopy().ask("POST", path, new URLSearchParams(fields).toString()).then(function (answer) {
      busy(false);
      if (answer.failure) throw new Error(answer.failure);
      var doc = new DOMParser().parseFromString(answer.html, "text/html");
      var saved = doc.querySelector(".messages .success");
      var stored = answer.location && answer.status === 200 && saved &&
        !doc.querySelector(".messages .warning, .messages .error");
      var kept = stored && key ?
        keep(pendingEntry(fields, path, GAME, saved.textContent.trim(), numberOf(fields))) :
        Promise.resolve();
      return kept.then(function () {
        if (stored) form.dispatchEvent(new CustomEvent("potdevin:kept", { bubbles: true }));
        if (answer.location) history.replaceState(null, "", answer.location);
        window.potdevinShown = location.href;
        show_page(answer.html);
      });
    });
  }

  // A new play offline: checked by the phone's copy of the pages; refused, the page comes back
  // with its errors as the server's would; accepted, it is kept to be sent, and the form is
  // ready for the next play (under a key of its own).
  function playCheckedOffline(form, submitter) {
    var fields = fieldsOf(form, submitter);
    var path = pathOf(form);
    busy(true);
    return phoneCopy().ask("POST", path, new URLSearchParams(fields).toString()).then(function (answer) {
      busy(false);
      if (answer.failure) throw new Error(answer.failure);
      var doc = new DOMParser().parseFromString(answer.html, "text/html");
      if (!answer.location || answer.status !== 200) {
        window.potdevinShown = location.href;
        show_page(answer.html);
        return;
      }
      var saved = doc.querySelector(".messages .success") || doc.querySelector("h1");
      var entry = pendingEntry(fields, path, location.pathname, saved ? saved.textContent.trim() : document.title);
      var said = interpolate(gettext("Saved on this phone, not sent yet: %(entry)s."), { entry: entry.label }, true);
      return keep(entry).then(function () {
        form.dispatchEvent(new CustomEvent("potdevin:kept", { bubbles: true }));  // its draft goes (keep.js)
        // A blank form for the next play, made by the phone's pages (keys of its own); the
        // page's scripts say what was kept once it is shown.
        sessionStorage.setItem("potdevin-announce", said);
        return phoneCopy().ask("GET", location.pathname + location.search);
      }).then(function (blank) {
        if (blank && !blank.failure && blank.status === 200) {
          window.potdevinShown = location.href;
          show_page(blank.html);
          return;
        }
        sessionStorage.removeItem("potdevin-announce");
        form.reset();
        renewKeys();
        announce(said);
        show();
      });
    });
  }

  // A page shown again from the phone's cache holds the keys it was made with: each form
  // offline gets a key of its own, so that two plays saved from it are two plays.
  function renewKeys() {
    document.querySelectorAll("form input[name=idempotency_key]").forEach(function (input) {
      input.value = window.crypto && crypto.randomUUID ? crypto.randomUUID() :
        Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
    });
  }

  function keptAsItIs(form, submitter) {
    var fields = fieldsOf(form, submitter);
    var heading = form.querySelector("h2, legend");
    var entry = pendingEntry(fields, pathOf(form), location.pathname,
      (heading && heading.textContent.trim()) || document.title);
    return keep(entry).then(function () {
      form.reset();
      announce(interpolate(gettext("Saved on this phone, not sent yet: %(entry)s."), { entry: entry.label }, true));
      show();
    });
  }

  // A form sent online whose answer never came (the service worker says so: the server is
  // stopped or unreachable, a 5xx, a timeout): the page is still here, the form as typed.
  var lastSent = null;
  var UNANSWERED_WINDOW_MS = SEND_TIMEOUT_MS + 5000;

  function unanswered(url) {
    var sent = lastSent;
    lastSent = null;
    if (!sent || Date.now() - sent.at > UNANSWERED_WINDOW_MS) return;
    if (new URL(url, location.href).pathname !== pathOf(sent.form)) return;
    document.dispatchEvent(new CustomEvent("potdevin:unanswered"));  // the page's busy buttons
    if (!sent.form.querySelector("input[name=idempotency_key]")) {
      announce(gettext("This needs the connection: try again when it is back."));
      return;
    }
    keepOffline(sent.form, sent.submitter);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    if (navigator.onLine) {
      if ((form.getAttribute("method") || "").toLowerCase() === "post") {
        lastSent = { form: form, submitter: event.submitter || null, at: Date.now() };
      }
      return;
    }
    if (!form.querySelector("input[name=idempotency_key]")) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    keepOffline(form, event.submitter || null);
  }, true);

  // A form that cannot reach the server, kept on the phone: a game's entry and a new play
  // checked by the phone's copy of the pages, anything else kept as it is.
  function keepOffline(form, submitter) {
    var fields = fieldsOf(form, submitter);
    var key = keyOf(fields);
    return all().then(function (entries) {
      var same = entries.filter(function (e) { return e.key === key; })[0];
      if (same && sameFields(same.fields, fields)) {
        // The same Save tapped again: it is kept once.
        announce(interpolate(gettext("Saved on this phone, not sent yet: %(entry)s."), { entry: same.label }, true));
        return;
      }
      // A page shown again from the phone's cache holds a key already used for another entry.
      if (same) renewKeys();
      checkedAndKept(form, submitter);
    });
  }

  function sameFields(one, other) {
    var what = function (fields) {
      return JSON.stringify(fields.filter(function (f) { return f[0] !== "csrfmiddlewaretoken"; }));
    };
    return what(one) === what(other);
  }

  function checkedAndKept(form, submitter) {
    if (GAME && pathOf(form).indexOf(GAME) === 0 && window.Worker) {
      answeredOffline(form, submitter).catch(function (error) {
        if (window.console) console.error("potdevin: the phone's copy did not answer:", error && error.message);
        busy(false);
        announce(gettext("This needs the connection: try again when it is back."));
      });
    } else if (NEW_PLAY && NEW_PLAY_PAGE.test(pathOf(form)) && window.Worker) {
      // Without the copy (never opened online on this phone), kept unchecked: the server checks.
      playCheckedOffline(form, submitter).catch(function () {
        busy(false);
        keptAsItIs(form, submitter);
      });
    } else {
      keptAsItIs(form, submitter);
    }
  }

  // Online: keep what the game's page needs offline (the copy and the app's pages, cached by
  // the service worker); offline with entries kept: the game as the phone has it.
  function prepare() {
    if (!(GAME || NEW_PLAY) || !document.querySelector("form input[name=idempotency_key]")) return;
    if (navigator.onLine) {
      fetch(GAME ? GAME + "offline.json" : NEW_PLAY, { credentials: "same-origin" }).then(function (response) {
        return response.ok ? response.json() : null;
      }).then(function (snapshot) {
        if (snapshot && snapshot.app) return fetch(snapshot.app);
      }).catch(function () {});
      return;
    }
    if (!GAME) {
      renewKeys();
      return;
    }
    asOnThePhone();
  }

  // The game as the phone has it (the entries kept on it, in), when the server cannot say.
  function asOnThePhone() {
    all().then(function (entries) {
      if (!chain(entries, GAME).length || window.potdevinShown === location.href) return;
      busy(true);
      return phoneCopy().ask("GET", GAME).then(function (answer) {
        busy(false);
        if (answer.failure || answer.status !== 200) return;
        window.potdevinShown = location.href;
        show_page(answer.html);
      });
    }).catch(function () { busy(false); });
  }

  // --- sending -----------------------------------------------------------------------------
  function refusalOf(doc) {
    var found = doc.querySelector(".error-summary li, .errorlist li, .messages .error, .messages .warning");
    return found ? found.textContent.trim() : gettext("The server refused this entry.");
  }

  // The server's CSRF token, from one of its pages (the kept fields may hold the phone's).
  function serverToken(path) {
    return fetch(path, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var input = doc.querySelector("input[name=csrfmiddlewaretoken]");
        return input ? input.value : null;
      });
    });
  }

  function sendOne(entry, token) {
    var fields = entry.fields.map(function (f) {
      return f[0] === "csrfmiddlewaretoken" && token ? [f[0], token] : f;
    });
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS);
    return fetch(entry.url, {
      method: "POST",
      body: new URLSearchParams(fields),
      credentials: "same-origin",
      signal: controller.signal,
    }).then(function (response) {
      clearTimeout(timer);
      if (response.status >= 500) return "offline";
      return response.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var refused = !response.ok || !response.redirected ||
          doc.querySelector(".messages .warning, .messages .error");
        if (!refused) return "sent";
        entry.state = "refused";
        entry.refusal = refusalOf(doc);
        return putIfKept(entry).then(function () { return "refused"; });
      });
    }, function () {
      clearTimeout(timer);
      return "offline";
    });
  }

  // One sending at a time: the page's scripts run again in the same window when the phone's
  // copy shows a page, and two sendings of one entry would be two requests with its key, the
  // second answered with the first's redirect, whose words (a refusal) the first has read.
  // Other tabs wait too, where the browser has Web Locks.
  function sendAll() {
    if (window.potdevinSending) return window.potdevinSending;
    if (!navigator.onLine || !window.indexedDB) return Promise.resolve();
    var run = navigator.locks ? navigator.locks.request("potdevin-send", sendEach) : sendEach();
    window.potdevinSending = run.then(function () { window.potdevinSending = null; }, function () { window.potdevinSending = null; });
    return window.potdevinSending;
  }

  function sendEach() {
    var sent = 0;
    var unreached = false;
    return all().then(function (entries) {
      var waiting = entries.filter(function (e) { return e.state === "waiting"; });
      if (!waiting.length) return null;
      return serverToken(waiting[0].game || "/").then(function (token) {
        var blocked = {};  // a game with a refused entry: the ones behind it wait for the person
        return entries.reduce(function (done, entry) {
          return done.then(function (state) {
            if (state === "offline") return "offline";
            if (entry.state === "refused" || blocked[entry.game]) {
              blocked[entry.game] = true;
              return "go";
            }
            return sendOne(entry, token).then(function (result) {
              if (result === "sent") { sent += 1; return drop(entry.key).then(function () { return "go"; }); }
              if (result === "refused") blocked[entry.game] = true;
              if (result === "offline") unreached = true;
              return result;
            });
          });
        }, Promise.resolve("go"));
      });
    }).catch(function () { unreached = true; }).then(function () {
      if (sent && location.pathname.indexOf("/games/") === 0) {
        location.reload();
        return;
      }
      show();
      // Online, but the server does not answer: this page may be its last copy, without the
      // entries kept since; the game goes on as the phone has it.
      if (unreached && GAME && document.querySelector("form input[name=idempotency_key]")) asOnThePhone();
    });
  }

  // --- what the person sees ----------------------------------------------------------------
  // When the phone went offline, kept across reloads of this tab.
  function offlineSince() {
    var since = sessionStorage.getItem("potdevin-offline-since");
    if (!since) {
      since = new Date().toISOString();
      sessionStorage.setItem("potdevin-offline-since", since);
    }
    return new Date(since);
  }

  function announce(text) {
    var region = document.getElementById("offline-announce");
    if (region) region.textContent = text;
  }

  function show() {
    var banner = document.getElementById("offline-banner");
    if (!banner || !window.indexedDB) return Promise.resolve();
    return all().then(function (entries) {
      var waiting = entries.filter(function (e) { return e.state === "waiting"; }).length;
      var words = [];
      if (!navigator.onLine) {
        var since = offlineSince().toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
        words.push(interpolate(gettext("Offline since %(time)s."), { time: since }, true));
      }
      if (waiting) {
        words.push(interpolate(ngettext("%(count)s entry waits to be sent.", "%(count)s entries wait to be sent.", waiting), { count: waiting }, true));
      }
      banner.querySelector(".offline-text").textContent = words.join(" ");
      banner.querySelector("#send-now").hidden = !waiting || !navigator.onLine;
      banner.hidden = !words.length;
      showPending(entries.filter(function (e) { return e.game === location.pathname; }));
    }).catch(function () {});
  }

  function button(text, onClick) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = "link";
    made.textContent = text;
    made.addEventListener("click", onClick);
    return made;
  }

  // Another phone saved this entry's number first: the person keeps this one instead. The
  // other's entry is undone (as "Undo" would, naming it; refused if more came after it), and
  // this one sent again.
  function instead(entry) {
    serverToken(entry.game).then(function (token) {
      var body = new URLSearchParams([
        ["csrfmiddlewaretoken", token || ""], ["number", String(entry.number)], ["confirmed", "yes"],
      ]);
      return fetch(entry.game + "rounds/undo/", { method: "POST", body: body, credentials: "same-origin" });
    }).then(function (response) {
      return response.text().then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        if (!response.ok || doc.querySelector(".messages .warning, .messages .error")) {
          entry.refusal = refusalOf(doc);
          return put(entry);
        }
        entry.state = "waiting";
        entry.refusal = "";
        return put(entry).then(sendAll);
      });
    }).then(show, show);
  }

  function showPending(entries) {
    var main = document.getElementById("main");
    var section = document.getElementById("pending");
    if (!entries.length) { if (section) section.remove(); return; }
    if (!section) {
      section = document.createElement("section");
      section.id = "pending";
      section.className = "callout";
      section.setAttribute("aria-labelledby", "h-pending");
      var heading = document.createElement("h2");
      heading.id = "h-pending";
      heading.textContent = gettext("Saved on this phone, not sent yet");
      section.appendChild(heading);
      section.appendChild(document.createElement("ul"));
      main.insertBefore(section, main.firstChild);
    }
    var list = section.querySelector("ul");
    list.textContent = "";
    entries.forEach(function (entry) {
      var item = document.createElement("li");
      var what = document.createElement("span");
      what.textContent = entry.label;
      item.appendChild(what);
      if (entry.state === "refused") {
        var why = document.createElement("p");
        why.className = "error";
        why.textContent = interpolate(gettext("Not saved: %(reason)s"), { reason: entry.refusal }, true);
        item.appendChild(why);
        item.appendChild(button(gettext("Keep the other: drop this one"), function () {
          drop(entry.key).then(function () { return window.potdevinSending; }).then(sendAll).then(function () {
            // The game as the server has it, kept for the next time offline.
            if (GAME && navigator.onLine) location.reload();
            else show();
          });
        }));
        if (entry.number) {
          item.appendChild(button(gettext("Keep this one instead"), function () {
            instead(entry);
          }));
        }
      }
      list.appendChild(item);
    });
  }

  // The game changed on another phone (static/js/live.js): what is kept for offline follows,
  // so that an entry made offline next builds on the game as it is now.
  document.addEventListener("potdevin:game-changed", function () {
    if (!GAME || !navigator.onLine) return;
    prepare();
    if (window.caches) caches.open("pages").then(function (cache) { return cache.add(GAME); }).catch(function () {});
  });

  var sendNow = document.getElementById("send-now");
  if (sendNow) sendNow.addEventListener("click", function () { sendAll(); });
  window.addEventListener("online", function () {
    sessionStorage.removeItem("potdevin-offline-since");
    show();
    sendAll();
  });
  window.addEventListener("offline", function () {
    show();
    if ((GAME || NEW_PLAY) && window.Worker && document.querySelector("form input[name=idempotency_key]")) phoneCopy();
  });
  var kept = sessionStorage.getItem("potdevin-announce");
  if (kept) {
    sessionStorage.removeItem("potdevin-announce");
    announce(kept);
  }
  if (window.indexedDB) {
    show();
    prepare();
    sendAll();
  }
})();
