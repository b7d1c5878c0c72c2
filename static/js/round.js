/* Round entry, enhanced: one card picker open at a time, in turn order; a card chosen for one
   action is disabled for the others; the seat to act is highlighted. Without this script the
   form works as it is (every picker shown). Either way the round is shown in words for review
   before it is saved. */
(function () {
  "use strict";
  if (document.getElementById("entry-review")) return; // the review's own script: review.js
  var form = document.getElementById("round-entry");
  if (!form) return;
  form.classList.add("js");
  var slots = Array.prototype.slice.call(form.querySelectorAll(".slot"));
  var submit = document.getElementById("save-round");

  function radios(slot) {
    return Array.prototype.slice.call(slot.querySelectorAll("input[type=radio]"));
  }
  function chosen(slot) {
    var c = slot.querySelector("input[type=radio]:checked");
    return c ? c.value : null;
  }

  function refresh() {
    var used = {};
    slots.forEach(function (s) {
      var v = chosen(s);
      if (v && v !== "pass") used[v] = s;
    });
    slots.forEach(function (s) {
      radios(s).forEach(function (input) {
        if (input.hasAttribute("data-blocked")) return;
        var other = used[input.value];
        input.disabled = !!other && other !== s;
      });
      var v = chosen(s);
      s.querySelector(".slot-choice").textContent =
        v === null ? "" : v === "pass" ? pgettext("a player's choice", "passes") : v;
      s.classList.toggle("done", v !== null);
      var word = s.querySelector(".slot-toggle .word");
      if (word) word.textContent = v === null ? gettext("Choose") : gettext("Change");
    });
  }

  function open(slot, focus) {
    slots.forEach(function (s) {
      var on = s === slot;
      s.classList.toggle("open", on);
      s.classList.toggle("current", on);
      var toggle = s.querySelector(".slot-toggle");
      if (toggle) toggle.setAttribute("aria-expanded", on ? "true" : "false");
    });
    if (slot && focus) {
      var target =
        slot.querySelector("input[type=radio]:checked") ||
        slot.querySelector("input[type=radio]:not(:disabled)");
      if (target) target.focus({ preventScroll: true });
      slot.scrollIntoView({ block: "nearest" });
    }
  }

  function nextOpen(after) {
    var i = slots.indexOf(after);
    var k;
    for (k = i + 1; k < slots.length; k++) if (chosen(slots[k]) === null) return slots[k];
    for (k = 0; k < slots.length; k++) if (chosen(slots[k]) === null) return slots[k];
    return null;
  }

  function advance(slot) {
    var next = nextOpen(slot);
    if (next) {
      open(next, true);
    } else {
      open(null, false);
      if (submit) submit.focus();
    }
  }

  slots.forEach(function (s) {
    var legend = s.querySelector("legend");
    var toggle = document.createElement("button");
    toggle.type = "button";
    toggle.className = "slot-toggle";
    var word = document.createElement("span");
    word.className = "word";
    var who = document.createElement("span");
    who.className = "vh";
    who.textContent = " (" + s.querySelector(".slot-name").textContent + ")";
    toggle.appendChild(word);
    toggle.appendChild(who);
    toggle.addEventListener("click", function () {
      open(s.classList.contains("open") ? null : s, true);
    });
    legend.appendChild(toggle);
  });

  form.addEventListener("change", refresh);
  // A tap on a card or on Pass moves on to the next action in turn order.
  form.addEventListener("click", function (e) {
    var label = e.target.closest ? e.target.closest("label") : null;
    if (!label || !label.htmlFor) return;
    var input = document.getElementById(label.htmlFor);
    var slot = label.closest(".slot");
    if (!input || input.disabled || !slot) return;
    window.setTimeout(function () {
      refresh();
      if (input.checked) advance(slot);
    }, 0);
  });
  // Enter on a card confirms it and moves on (instead of sending a half-entered round).
  form.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !e.target.matches("input[type=radio]")) return;
    var slot = e.target.closest(".slot");
    e.preventDefault();
    if (chosen(slot) === null) return;
    if (nextOpen(slot)) advance(slot);
    else if (form.requestSubmit) form.requestSubmit(submit);
    else form.submit();
  });

  refresh();
  var first = form.querySelector(".slot.has-error") || slots.filter(function (s) {
    return chosen(s) === null;
  })[0];
  open(first || null, !!form.querySelector(".has-error"));
})();
