/* Import job page: while the import runs, read the page again every two seconds (its report
   is rendered by the server), until the job is done. */
(function () {
  "use strict";
  var box = document.getElementById("import");
  if (!box || box.getAttribute("data-status") !== "running" || !window.fetch) return;
  var url = box.getAttribute("data-api");
  function poll() {
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : Promise.reject(r.status); })
      .then(function (job) {
        if (job.status !== "running" || job.done !== Number(box.getAttribute("data-done"))) {
          window.location.reload();
        } else {
          window.setTimeout(poll, 2000);
        }
      })
      .catch(function () { window.setTimeout(poll, 5000); });
  }
  window.setTimeout(poll, 2000);
})();
