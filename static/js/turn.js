/* Complots turn entry, enhanced: the challenge's and the block's follow-up questions show only
   once someone challenged or blocked, and the loss rows are filled in as the answers come with
   the seats the rules require (the claim's challenge, the block's challenge, then the coup or
   assassination; a player out of influences loses nothing more). Without this script the form
   works as it is: every question shown, and the page fills in the loss rows when saved. Either
   way the turn is shown in words for review before it is saved. */
(function () {
  "use strict";
  if (document.getElementById("entry-review")) return; // the review's own script: review.js
  var form = document.getElementById("turn-entry");
  if (!form || !document.getElementById("save-turn")) return;
  var MAX_LOSSES = 3;

  function checked(name) {
    var c = form.querySelector("input[name=" + name + "]:checked");
    return c ? c.value : "";
  }
  function value(name) {
    var el = form.querySelector("[name=" + name + "]");
    return el ? el.value : "";
  }
  function hidden() {
    var counts = {};
    document.querySelectorAll("#seats-table tr[data-seat]").forEach(function (row) {
      counts[row.getAttribute("data-seat")] = Number(row.getAttribute("data-influences"));
    });
    return counts;
  }

  function required() {
    var left = hidden();
    var out = [];
    function lose(seat) {
      if (seat !== "" && left[seat] > 0) {
        left[seat] -= 1;
        out.push(seat);
      }
    }
    var challenger = checked("challenge_by");
    if (challenger !== "") {
      var truth = checked("challenge_truthful");
      if (truth === "") return null; // not answered yet
      if (truth === "yes") lose(challenger);
      else {
        lose(value("actor"));
        return out;
      }
    }
    var blocker = checked("block_by");
    var blocked = blocker !== "";
    if (blocked) {
      var blockChallenger = checked("block_challenge_by");
      if (blockChallenger !== "") {
        var blockTruth = checked("block_challenge_truthful");
        if (blockTruth === "") return null;
        if (blockTruth === "yes") lose(blockChallenger);
        else {
          lose(blocker);
          blocked = false;
        }
      }
    }
    var action = value("action");
    if (!blocked && (action === "coup" || action === "assassin")) lose(value("target"));
    return out;
  }

  function anyCard() {
    for (var i = 0; i < MAX_LOSSES; i++) {
      var select = document.getElementById("id_loss_" + i + "_card");
      if (select && select.value) return true;
    }
    return false;
  }

  // Rows changed by hand, or sent back by the page with cards, are left alone.
  var touched = false;
  function fillLosses() {
    if (touched || anyCard()) return;
    var seats = required();
    if (seats === null) return;
    for (var i = 0; i < MAX_LOSSES; i++) {
      var select = document.getElementById("id_loss_" + i + "_seat");
      if (select) select.value = i < seats.length ? seats[i] : "";
    }
  }

  function show(id, on) {
    var el = document.getElementById(id);
    if (el) el.hidden = !on;
  }
  function refresh() {
    show("f-challenge-truth", checked("challenge_by") !== "");
    var blocker = checked("block_by") !== "";
    show("f-block-as", blocker);
    show("f-block-challenge", blocker);
    show("f-block-truth", checked("block_challenge_by") !== "");
    fillLosses();
  }

  form.addEventListener("change", function (event) {
    var name = event.target.name || "";
    if (/^loss_/.test(name)) touched = true;
    else refresh();
  });
  refresh();
})();
