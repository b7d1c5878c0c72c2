/* The review before saving an entry (the page's own step, the same with or without this script,
   for every game): the "Save" button is focused, so one tap or Enter saves, and a second tap
   sends nothing; after Back, or a Save the server never answered, the buttons work again. */
(function () {
  "use strict";
  var review = document.getElementById("entry-review");
  if (!review) return;
  var save = document.getElementById("review-save");
  // After the page's own scroll to #entry, which would take the focus back to the page.
  var focusSave = function () {
    review.scrollIntoView({ block: "start" });
    if (save) save.focus({ preventScroll: true });
  };
  // A page the phone wrote itself (static/js/offline.js) may say "complete" before its load.
  if (document.readyState === "complete") focusSave();
  window.addEventListener("load", function () { window.setTimeout(focusSave, 0); });
  review.addEventListener("submit", function () {
    window.setTimeout(function () {
      review.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
    }, 0);
  });
  // Back to this page after it was sent (the browser keeps pages as they were left): its
  // buttons work again; the server answers a review the game has left with the game as it is
  // now.
  function enable() {
    review.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
  }
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) enable();
  });
  // Sent, but the server never answered (static/js/offline.js keeps the entry): still here.
  document.addEventListener("potdevin:unanswered", enable);
})();
