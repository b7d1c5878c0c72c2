/* What is being entered is kept for this tab: a language switch, a club switch, a reload or
   Back never loses it. Every form that posts (but a form marked data-keep="off": signing in
   and out, passwords, the switches) has its fields kept in sessionStorage as they change
   (never a password, a file, the CSRF token or a hidden field), under a key made of the page's
   address, the form's action and its hidden fields' values (but the form's idempotency key,
   new with each render): a draft of round 4's step 2 never fills round 5, nor another game's
   form. A page showing a form of the same key brings the
   draft back, before the page's own scripts start (they read the fields as they are), then
   tells them with input and change events and says so in words. A form sent drops its draft:
   what the server shows back (a refusal with what it was sent, the next step) is what shows.

   A page that is the server's answer to a form (a refusal, a step of an entry, the review)
   cannot be asked for again by its address: the language switch there sets the language, then
   sends that form's fields again, so the same step comes back in the new language (with what
   was entered on it since). Without this script every form works as it is. */
(function () {
  "use strict";
  var PREFIX = "keep:";
  var SENT = "keep-sent"; // the last form sent from this tab, to send again
  var MOST = 40; // drafts kept at most, the oldest dropped first
  var SKIPPED = ["hidden", "password", "file", "submit", "button", "reset", "image"];
  var store;
  try {
    store = window.sessionStorage;
    store.setItem("keep-test", "1");
    store.removeItem("keep-test");
  } catch (e) {
    return; // no storage: the pages work as they are
  }

  function off(form) {
    return form.getAttribute("data-keep") === "off";
  }
  function posts(form) {
    return (form.getAttribute("method") || "").toLowerCase() === "post";
  }
  function action(form) {
    var url = new URL(form.getAttribute("action") || "", location.href);
    url.hash = "";
    return url.href;
  }
  function here() {
    var url = new URL(location.href);
    url.hash = "";
    return url.href;
  }
  // The fields kept: what the user enters, never a password, a file or a hidden field.
  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken") return false;
      if (el.tagName === "SELECT" || el.tagName === "TEXTAREA") return true;
      return el.tagName === "INPUT" && SKIPPED.indexOf((el.type || "").toLowerCase()) < 0;
    });
  }
  function hasSecrets(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      return el.tagName === "INPUT" && (el.type === "password" || el.type === "file");
    });
  }
  function kept(form) {
    return !!form && posts(form) && !off(form) && !hasSecrets(form) && fields(form).length > 0;
  }

  // The club the pages are of (its switch's choice as the server rendered it): a draft of one
  // club's new game never fills another club's.
  function club() {
    var chosen = document.querySelector("#club-switch option[selected]");
    return chosen ? chosen.value : "";
  }
  function hash(text) {
    var h = 5381;
    for (var i = 0; i < text.length; i++) h = ((h << 5) + h + text.charCodeAt(i)) | 0;
    return (h >>> 0).toString(36);
  }
  // Each form's key, as the server rendered it (scripts may change hidden fields later).
  var keys = new Map();
  var seen = {};
  Array.prototype.forEach.call(document.forms, function (form) {
    if (!kept(form)) return;
    var hidden = Array.prototype.filter
      .call(form.elements, function (el) {
        // Not the token, nor the form's idempotency key: both are new with every render.
        return el.type === "hidden" && el.name && el.name !== "csrfmiddlewaretoken" &&
          el.name !== "idempotency_key";
      })
      .map(function (el) {
        return [el.name, el.defaultValue];
      });
    var key = JSON.stringify([location.pathname + location.search, action(form), form.id || "",
      hidden, club()]);
    seen[key] = (seen[key] || 0) + 1; // two forms alike on a page: each its own draft
    key += "#" + seen[key];
    keys.set(form, { full: key, name: PREFIX + hash(key) });
  });

  function read(form) {
    var values = {};
    fields(form).forEach(function (el) {
      var list = values[el.name] || (values[el.name] = []);
      if (el.type === "radio" || el.type === "checkbox") {
        if (el.checked) list.push(el.value);
      } else if (el.tagName === "SELECT") {
        Array.prototype.forEach.call(el.options, function (o) {
          if (o.selected) list.push(o.value);
        });
      } else {
        list.push(el.value);
      }
    });
    return values;
  }

  function prune() {
    var drafts = [];
    for (var i = 0; i < store.length; i++) {
      var name = store.key(i);
      if (name && name.indexOf(PREFIX) === 0) {
        try {
          drafts.push([JSON.parse(store.getItem(name)).t || 0, name]);
        } catch (e) {
          drafts.push([0, name]);
        }
      }
    }
    drafts.sort(function (a, b) { return a[0] - b[0]; });
    drafts.slice(0, Math.max(0, drafts.length - MOST)).forEach(function (d) {
      store.removeItem(d[1]);
    });
  }

  var dirty = new Set();
  function save(form) {
    var key = keys.get(form);
    if (!key) return;
    try {
      store.setItem(key.name, JSON.stringify({ k: key.full, t: Date.now(), v: read(form) }));
      prune();
    } catch (e) { /* storage full: nothing kept */ }
  }
  function drop(form) {
    var key = keys.get(form);
    if (key) store.removeItem(key.name);
    dirty.delete(form);
  }

  // A draft back in its form, where the server rendered the same form (same key).
  function restore(form) {
    var key = keys.get(form);
    var draft;
    try {
      draft = JSON.parse(store.getItem(key.name) || "null");
    } catch (e) {
      draft = null;
    }
    if (!draft || draft.k !== key.full || !draft.v) return [];
    var changed = [];
    var count = {};
    fields(form).forEach(function (el) {
      var values = draft.v[el.name];
      if (!values || el.disabled) return;
      if (el.type === "radio" || el.type === "checkbox") {
        var on = values.indexOf(el.value) >= 0;
        if (el.checked !== on) {
          el.checked = on;
          changed.push(el);
        }
      } else if (el.tagName === "SELECT") {
        var differs = false;
        Array.prototype.forEach.call(el.options, function (o) {
          var on = values.indexOf(o.value) >= 0;
          if (o.selected !== on && (on || el.multiple)) {
            o.selected = on;
            differs = true;
          }
        });
        if (differs) changed.push(el);
      } else {
        var i = (count[el.name] = (count[el.name] || 0) + 1) - 1;
        if (i < values.length && el.value !== values[i]) {
          el.value = values[i];
          changed.push(el);
        }
      }
    });
    return changed;
  }

  var restored = [];
  keys.forEach(function (key, form) {
    var changed = restore(form);
    if (!changed.length) return;
    restored.push({ form: form, fields: changed });
    changed.forEach(function (el) {
      // A field brought back inside a folded part: the part unfolded.
      for (var d = el.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
    });
  });

  // Said once the page's scripts are listening (deferred scripts run before this event).
  function tell() {
    restored.forEach(function (r) {
      r.fields.forEach(function (el) {
        if (el.type === "radio" && !el.checked) return; // its group's checked one tells
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    if (!restored.length) return;
    var form = restored[0].form;
    var note = document.createElement("p");
    note.className = "keep-note muted small";
    note.id = "keep-note";
    note.setAttribute("role", "status");
    note.setAttribute("aria-live", "polite");
    form.parentNode.insertBefore(note, form);
    window.setTimeout(function () { // in a live region already there: read out
      note.textContent = gettext("What you were entering is back.");
    }, 50);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tell);
  else tell();

  function changed(event) {
    var form = event.target && event.target.form;
    if (!form || !keys.has(form)) return;
    dirty.add(form);
    save(form);
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);
  // What scripts changed without an event, kept as the page is left (a form sent is not).
  window.addEventListener("pagehide", function () {
    dirty.forEach(save);
  });

  // The last form sent, with what it sent (never a password or a file), to send again from
  // the page that answers it.
  var sent;
  try {
    sent = JSON.parse(store.getItem(SENT) || "null");
  } catch (e) {
    sent = null;
  }
  var nav = window.performance && performance.getEntriesByType
    ? performance.getEntriesByType("navigation")[0] : null;
  // This page is the server's answer to that form: its address, reached with no redirect (a
  // form saved answers with a redirect), just after (or reloaded, which sends it again).
  var answer = !!(sent && nav && sent.url === here() && nav.redirectCount === 0 &&
    (sent.fresh || nav.type === "reload"));
  if (answer && sent.fresh) {
    sent.fresh = false;
    store.setItem(SENT, JSON.stringify(sent));
  } else if (!answer) {
    store.removeItem(SENT);
  }

  window.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !form || !posts(form)) return;
    if (form.classList.contains("signout")) {
      // Signed out: the drafts go (another user may sign in on this tab).
      for (var i = store.length - 1; i >= 0; i--) {
        var name = store.key(i);
        if (name && (name.indexOf(PREFIX) === 0 || name === SENT)) store.removeItem(name);
      }
      return;
    }
    if (off(form)) return; // the switches: drafts kept for when the page comes back
    drop(form);
    store.removeItem(SENT);
    if (hasSecrets(form)) return;
    var data = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && typeof value === "string") data.push([name, value]);
    });
    var by = event.submitter;
    if (by && by.name) data.push([by.name, by.value]);
    var to = new URL(form.getAttribute("action") || "", location.href);
    var url = new URL(to.href);
    url.hash = "";
    try {
      store.setItem(SENT, JSON.stringify({ url: url.href, to: to.href, data: data, fresh: true }));
    } catch (e) { /* too big to keep: the switch goes back to the address */ }
  });

  // A form saved on the phone while offline (static/js/offline.js answers it there, so its
  // submit never reaches the listener above): its draft goes as a sent form's does.
  window.addEventListener("potdevin:kept", function (event) {
    if (event.target instanceof HTMLFormElement) drop(event.target);
  });

  // The language switch on a page answering a form: the language set, then the form sent
  // again (the same step comes back, in the new language).
  var languages = document.querySelector("form.languages");
  if (!languages || !answer || !window.fetch) return;
  languages.addEventListener("submit", function (event) {
    if (event.defaultPrevented) return;
    event.preventDefault();
    dirty.forEach(save);
    var body = new FormData(languages);
    var by = event.submitter;
    if (by && by.name) body.append(by.name, by.value);
    var token = body.get("csrfmiddlewaretoken");
    function plain() { // the switch as without this script
      if (by && by.name) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = by.name;
        input.value = by.value;
        languages.appendChild(input);
      }
      languages.submit();
    }
    fetch(languages.action, {
      method: "POST", body: body, credentials: "same-origin", redirect: "manual"
    }).then(function (response) {
      if (response.type !== "opaqueredirect" && !response.ok) return plain();
      var again = document.createElement("form");
      again.method = "post";
      again.action = sent.to;
      again.hidden = true;
      again.setAttribute("data-keep", "off");
      sent.data.concat([["csrfmiddlewaretoken", token]]).forEach(function (pair) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = pair[0];
        input.value = pair[1];
        again.appendChild(input);
      });
      sent.fresh = true;
      store.setItem(SENT, JSON.stringify(sent));
      document.body.appendChild(again);
      again.submit();
    }, plain);
  });
})();
