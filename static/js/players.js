/* New game and scorepad entry: show the typed names in the seat-numbered choices. */
(function () {
  "use strict";
  var inputs = document.querySelectorAll("input.player-name");
  if (!inputs.length) return;
  var first = document.getElementById("id_first_player");
  // Any other seat-numbered choice (class seat-choice): its blank choice stays blank.
  var seatChoices = document.querySelectorAll("select.seat-choice");
  var teams = document.getElementById("id_teams");

  function name(i) {
    var el = document.getElementById("id_player_" + i);
    return el ? el.value.trim() : "";
  }
  function seat(i) {
    return name(i) || interpolate(gettext("seat %(number)s"), { number: i + 1 }, true);
  }
  function update() {
    if (first) {
      Array.prototype.forEach.call(first.options, function (o) {
        var i = Number(o.value);
        var label = interpolate(gettext("Seat %(number)s"), { number: i }, true);
        o.textContent = label + (name(i) ? " — " + name(i) : "");
      });
    }
    Array.prototype.forEach.call(seatChoices, function (select) {
      Array.prototype.forEach.call(select.options, function (o) {
        if (o.value === "") return;
        var i = Number(o.value);
        var label = interpolate(gettext("Seat %(number)s"), { number: i }, true);
        o.textContent = label + (name(i) ? " — " + name(i) : "");
      });
    });
    if (teams) {
      Array.prototype.forEach.call(teams.options, function (o) {
        if (!o.value) return;
        var pairs = o.value.split(";").map(function (p) {
          return p.split(",").map(function (s) { return seat(Number(s)); }).join(" & ");
        });
        o.textContent = interpolate(gettext("%(count)s players: %(teams)s"), {
          count: pairs.length * 2,
          teams: pairs.join(" / ")
        }, true);
      });
    }
    document.querySelectorAll(".seat-name").forEach(function (el) {
      var i = el.closest("[data-seat]").getAttribute("data-seat");
      el.textContent = name(i) ? "— " + name(i) : "";
    });
    // Scorepad entry: a tableau for each seat named (at least three).
    document.querySelectorAll("fieldset.tableau-entry").forEach(function (box) {
      var i = Number(box.getAttribute("data-seat"));
      box.hidden = i >= 3 && !name(i) && !box.querySelector(".has-error");
    });
  }
  Array.prototype.forEach.call(inputs, function (i) {
    i.addEventListener("input", update);
  });
  update();
})();
