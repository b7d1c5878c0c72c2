/* Re-score job page: poll the API for progress until the job is done. */
(function () {
  "use strict";
  var box = document.getElementById("job");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-api");
  var bar = document.getElementById("job-progress");
  var count = document.getElementById("job-count");
  var status = document.getElementById("job-status");
  var progressed = document.getElementById("job-progressed");
  // The status codes stay codes (data-status, the API); the page shows them in words.
  var statusWords = {
    running: pgettext("job status", "running"),
    done: pgettext("job status", "done"),
    failed: pgettext("job status", "failed")
  };

  function ofTotal(job) {
    return interpolate(gettext("%(done)s of %(total)s"), { done: job.done, total: job.total }, true);
  }

  function list(id, items, render) {
    var ul = document.getElementById(id);
    ul.textContent = "";
    if (!items.length) {
      var li = document.createElement("li");
      li.className = "muted";
      li.textContent = pgettext("list", "None.");
      ul.appendChild(li);
      return;
    }
    items.forEach(function (item) {
      var li = document.createElement("li");
      render(li, item);
      ul.appendChild(li);
    });
  }

  function show(job) {
    bar.max = Math.max(job.total, 1);
    bar.value = job.total ? job.done : 1;
    bar.textContent = ofTotal(job);
    count.textContent = ofTotal(job);
    status.textContent = statusWords[job.status] || job.status;
    box.setAttribute("data-status", job.status);
    if (job.progressed_at) {
      // The page is rendered in UTC; keep the clock the same while polling.
      progressed.setAttribute("datetime", job.progressed_at);
      progressed.textContent = interpolate(gettext("%(time)s UTC"), {
        time: new Date(job.progressed_at).toISOString().slice(11, 19)
      }, true);
    }
    var resume = document.getElementById("job-resume");
    if (resume && job.status === "done") resume.hidden = true;
    list("job-changed", job.winners_changed, function (li, c) {
      var a = document.createElement("a");
      a.href = "/games/" + c.game + "/";
      a.textContent = interpolate(gettext("Game #%(number)s"), { number: c.game }, true);
      li.appendChild(a);
      li.appendChild(document.createTextNode(interpolate(gettext(": seats %(before)s → %(after)s"), {
        before: c.winners_before.join(", "),
        after: c.winners_after.join(", ")
      }, true)));
    });
    list("job-failures", job.failures, function (li, f) {
      li.textContent = interpolate(gettext("Game #%(number)s: %(message)s"), {
        number: f.key,
        message: f.message
      }, true) + " (" + f.code + ")";
    });
  }

  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (job) {
        show(job);
        if (job.status === "running") window.setTimeout(poll, 1000);
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  if (box.getAttribute("data-status") === "running") poll();
})();
