/* Bruges round entry, enhanced. Without this script the form works as it is: every field shown,
   and the page checks each step with the engine. With it: the person's fields show only when a
   person is hired (the worker colour only for a worker icon), the actions a card's colour cannot
   make are disabled (a threat token or a worker of that colour, a canal space of another
   colour), a person met before in this game fills in its details when its name is typed, a
   tapped die moves on to the next one, and the round being entered (from its first effect at
   the draw or its dice) is kept for the tab, so that a reload can bring it back. */
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var form = document.getElementById("bruges-entry");
  if (!form) return;

  // The round being entered travels in the form; a reload would lose it. It is kept for this
  // tab, and a page that starts the round again offers it back.
  var draft = document.getElementById("id_draft");
  var number = form.querySelector("input[name=number]");
  var key = "bruges-draft:" + location.pathname.replace(/rounds\/?$/, "");
  try {
    var kept = JSON.parse(sessionStorage.getItem(key) || "null");
    var now = draft && draft.value ? JSON.parse(draft.value) : null;
    var stage = form.getAttribute("data-stage");
    var started = !!(now && (now.dice || now.drawn || (now.upkeep && now.upkeep.length)));
    if (started) {
      sessionStorage.setItem(key, JSON.stringify({ number: number.value, draft: draft.value }));
    } else if (kept && kept.number === number.value && (stage === "dice" || stage === "draw")) {
      var resume = document.createElement("button");
      resume.type = "submit";
      resume.name = "step";
      resume.value = "resume";
      resume.id = "resume-round";
      resume.className = "wide";
      resume.textContent = interpolate(
        gettext("Resume round %(number)s as it was being entered"), { number: kept.number }, true);
      resume.addEventListener("click", function () { draft.value = kept.draft; });
      var next = document.getElementById(stage === "draw" ? "draw-next" : "dice-next");
      var row = next ? next.parentNode : null;
      if (row) row.parentNode.insertBefore(resume, row.nextSibling); // after Next: Enter keeps its meaning
    } else if (kept && kept.number !== number.value) {
      sessionStorage.removeItem(key);
    }
    var restart = document.getElementById("restart-round");
    if (restart) restart.addEventListener("click", function () { sessionStorage.removeItem(key); });
  } catch (e) { /* no storage: the form works as it is */ }

  function checked(name) {
    var c = form.querySelector("input[name=" + name + "]:checked");
    return c ? c.value : "";
  }

  // The dice: a tap moves on to the next die.
  var rows = Array.prototype.slice.call(form.querySelectorAll(".dice-row"));
  rows.forEach(function (row, i) {
    row.addEventListener("change", function () {
      var next = rows[i + 1];
      var target = next
        ? next.querySelector("input:checked") || next.querySelector("input")
        : document.getElementById("dice-next");
      if (target) target.focus();
    });
  });

  // A turn: the card's colour and the actions it can make.
  var person = document.getElementById("f-person");
  var worker = document.getElementById("f-person-worker");
  var icon = document.getElementById("id_p_icon");

  function refresh() {
    var card = checked("card");
    form.querySelectorAll("input[name=action]").forEach(function (input) {
      var colors = input.getAttribute("data-colors");
      var off = !!(card && colors && colors.split(" ").indexOf(card) < 0);
      input.disabled = off;
      if (off && input.checked) input.checked = false;
    });
    var action = form.querySelector("input[name=action]:checked");
    var hiring = !!(action && action.hasAttribute("data-person"));
    if (person) person.hidden = !hiring && !person.classList.contains("has-error");
    if (worker && icon) worker.hidden = icon.value !== "worker";
  }

  // A person met before: its details where they are left blank.
  var name = document.getElementById("id_p_name");
  function remember() {
    if (!name) return;
    var typed = name.value.trim().toLowerCase();
    var options = document.querySelectorAll("#known-persons option");
    for (var i = 0; i < options.length; i++) {
      var o = options[i];
      if (o.value.trim().toLowerCase() !== typed) continue;
      [["id_p_price", "data-price"], ["id_p_group", "data-group"], ["id_p_icon", "data-icon"],
       ["id_p_worker", "data-worker"]].forEach(function (pair) {
        var field = document.getElementById(pair[0]);
        var value = o.getAttribute(pair[1]);
        if (field && !field.value && value) field.value = value;
      });
      refresh();
      return;
    }
  }

  form.addEventListener("change", function (event) {
    if (event.target === name) remember();
    refresh();
  });
  if (name) name.addEventListener("input", remember);
  refresh();
})();
