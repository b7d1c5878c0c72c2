// A refused form: the error summary (first in <main>) takes the focus, so it is read first and
// seen without scrolling; a link in it focuses its field, with the field's label in view.
(function () {
  "use strict";
  function start() {
    var summary = document.getElementById("error-summary");
    if (!summary) return;
    summary.focus();
    summary.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a[href^='#']") : null;
      if (!link) return;
      var target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
      if (!target) return;
      var folded = target.closest ? target.closest("details:not([open])") : null;
      if (folded) folded.open = true;
      event.preventDefault();
      var label = target.id && document.querySelector("label[for='" + CSS.escape(target.id) + "']");
      (label || target).scrollIntoView();
      target.focus({ preventScroll: true });
      if (history.replaceState) history.replaceState(null, "", link.hash);
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
