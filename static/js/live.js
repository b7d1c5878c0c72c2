/* A game's page follows the game (templates/web/game.html), for every phone at the table.
   While the page is seen it asks every 1.5 s whether the game changed (If-None-Match with the
   page's tag: an unchanged game is a 304 costing one query) and, when it did, swaps in the
   parts showing the game (data-live) from the page as it is now, without reloading. A part
   holding a form (data-live-form) is never swapped, so what is being typed stays; when the form
   is no longer for what comes next (its key, such as the entry's number, changed), a notice
   offers the form as it is now. A part following a form part (data-live-with) is swapped only
   with it. What changed is said in a polite live region. A hidden page asks nothing, and asks
   at once when seen again. Without this script the page stays as it was shown (the share
   link's page reloads itself every 30 seconds). */
(function () {
  "use strict";
  var EVERY = 1500; // ms between two questions while the page is seen
  var news = document.getElementById("live-news");
  if (!news || !window.fetch || !window.DOMParser) return;
  var url = news.getAttribute("data-live-url");
  var tag = news.getAttribute("data-live-tag");
  var notice = document.getElementById("live-stale");
  var timer = null;
  var asking = false;
  var stopped = false;

  function each(list, fn) {
    Array.prototype.forEach.call(list, fn);
  }
  function seen() {
    return document.visibilityState === "visible";
  }

  function later() {
    window.clearTimeout(timer);
    timer = null;
    if (!stopped && seen()) timer = window.setTimeout(ask, EVERY);
  }

  function ask() {
    timer = null;
    if (stopped || asking || !seen()) return;
    asking = true;
    fetch(url, { headers: { "If-None-Match": tag }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        // Unchanged; or the server busy or restarting a moment: asked again later.
        var status = response.status;
        if (status === 304 || status === 429 || status >= 500) return null;
        // The game deleted, the link stopped, the person signed out: nothing more to follow.
        if (!response.ok || response.redirected) {
          stopped = true;
          return null;
        }
        var fresh = response.headers.get("ETag");
        return response.text().then(function (html) {
          follow(new DOMParser().parseFromString(html, "text/html"), fresh);
        });
      })
      .catch(function () {}) // no network for a moment: asked again later
      .then(function () {
        asking = false;
        later();
      });
  }

  function say(words) {
    // Emptied first, so that the same words said again are announced again.
    news.textContent = "";
    window.setTimeout(function () {
      news.textContent = words;
    }, 50);
  }

  // The page as it is now (``fresh``): its game parts swapped in, its forms' parts kept.
  function follow(fresh, freshTag) {
    var now = fresh.getElementById("live-news");
    if (!now || fresh.documentElement.lang !== document.documentElement.lang) {
      stopped = true; // another language chosen meanwhile: this page is left as it is
      return;
    }
    tag = freshTag || now.getAttribute("data-live-tag");
    var kept = {};
    var stale = null;
    each(document.querySelectorAll("[data-live-form]"), function (part) {
      var theirs = fresh.getElementById(part.id);
      var key = theirs ? theirs.getAttribute("data-live-form") : null;
      kept[part.id] = !!part.querySelector("form");
      if (kept[part.id] && !stale && key !== part.getAttribute("data-live-form")) stale = part;
    });
    each(document.querySelectorAll("[data-live], [data-live-form]"), function (part) {
      if (kept[part.id] || kept[part.getAttribute("data-live-with")]) return;
      var theirs = fresh.getElementById(part.id);
      if (theirs) swap(part, document.adoptNode(theirs));
    });
    var words = now.getAttribute("data-live-news");
    if (notice) {
      notice.hidden = !stale;
      if (stale) {
        stale.parentNode.insertBefore(notice, stale);
        words += " " + notice.querySelector("p").textContent;
      }
    }
    say(words);
    // For what keeps the game on the phone (static/js/offline.js): the game changed.
    document.dispatchEvent(new CustomEvent("potdevin:game-changed"));
  }

  // ``part`` replaced by ``theirs`` (parts are never nested): open folds stay open, and the
  // focus stays where it was.
  function swap(part, theirs) {
    each(part.querySelectorAll("details[open][id]"), function (fold) {
      var again = theirs.querySelector("#" + CSS.escape(fold.id));
      if (again) again.open = true;
    });
    var focused = document.activeElement;
    var refocus = focused && focused.id && part.contains(focused) ? focused.id : null;
    part.replaceWith(theirs);
    var back = refocus && document.getElementById(refocus);
    if (back) back.focus({ preventScroll: true });
  }

  if (notice) {
    document.getElementById("live-refresh").addEventListener("click", function () {
      // A navigation, not a reload: the browser fills nothing of the old form in again.
      window.location.replace(news.getAttribute("data-live-page"));
    });
  }
  document.addEventListener("visibilitychange", function () {
    if (seen()) ask();
    else later();
  });
  later();
})();
