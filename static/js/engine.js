/* The rules engine in the page: an entry checked where it is made, offline too, by the very
   sources the server runs (static/js/engine-worker.js, under Pyodide). Nothing is loaded until
   something asks, and never before the page is shown (its load event): a page that needs no
   check pays nothing, and the first paint never waits for 13 MB of runtime.

     <script src="{% static 'js/engine.js' %}" data-manifest="{% url 'web:engine-manifest' %}" defer></script>

   potdevinEngine.ready() -> a promise of the worker's load timings; rejected where the engine
     cannot run here (then the server checks, as without this script).
   potdevinEngine.replay(log, {names, language, gameType}) -> a promise of
     {ok: true, result} or {ok: false, error: {code, message, round, seat, turn?, sentence}},
     the sentence in the page's language (its <html lang>) unless ``language`` says another;
     rejected when no check could be made. */
(function () {
  "use strict";
  var script = document.currentScript;
  var worker = null;
  var started = null;
  var loaded = null;
  var pending = new Map();
  var lastId = 0;

  function shown() {
    if (document.readyState === "complete") return Promise.resolve();
    return new Promise(function (resolve) {
      window.addEventListener("load", resolve, { once: true });
    });
  }

  function failAll(error) {
    pending.forEach(function (waiting) {
      waiting.reject(error);
    });
    pending.clear();
  }

  // The worker, created once, when first asked for and the page is shown.
  function start() {
    if (started) return started;
    var url = new URL("engine-worker.js", script.src);
    url.searchParams.set("manifest", new URL(script.dataset.manifest, location.href).href);
    var ready = {};
    loaded = new Promise(function (resolve, reject) {
      ready.resolve = resolve;
      ready.reject = reject;
    });
    loaded.catch(function () {
      /* Said to whoever asks: replay() rejects too. */
    });
    started = shown().then(function () {
      worker = new Worker(url, { type: "module" });
      worker.addEventListener("message", function (event) {
        var data = event.data;
        if (data.type === "ready") return ready.resolve(data.timings);
        if (data.type === "failed") return ready.reject(new Error(data.failure));
        var waiting = pending.get(data.id);
        if (!waiting) return;
        pending.delete(data.id);
        if (data.failure) waiting.reject(new Error(data.failure));
        else waiting.resolve(data.ok ? { ok: true, result: data.result } : { ok: false, error: data.error });
      });
      // A worker that cannot even start (no module workers in this browser, a missing file).
      worker.addEventListener("error", function (event) {
        var error = new Error(event.message || "the engine's worker did not start");
        ready.reject(error);
        failAll(error);
      });
      return worker;
    });
    return started;
  }

  window.potdevinEngine = {
    ready: function () {
      return start().then(function () {
        return loaded;
      });
    },
    replay: function (log, options) {
      options = options || {};
      return start().then(function () {
        return new Promise(function (resolve, reject) {
          var id = ++lastId;
          pending.set(id, { resolve: resolve, reject: reject });
          worker.postMessage({
            id: id,
            log: log,
            names: options.names,
            language: options.language || document.documentElement.lang || undefined,
            game_type: options.gameType,
          });
        });
      });
    },
  };
})();
