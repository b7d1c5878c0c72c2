/* The project's own pages in a Web Worker (a module worker; a spike): Pyodide loaded as
   engine-worker.js loads it (the engine manifest's URL in ?manifest=), one game's snapshot
   (?snapshot=, games/<pk>/offline.json) and app.zip (the snapshot's "app": the project's
   packages, templates, catalogues and the pure-Python packages they import) unpacked into its
   file system; Django set up with potdevin_site.settings_browser, the snapshot loaded into an
   in-memory SQLite database and its user signed in (games/web/offline_app.py). Each message is
   then answered by the same views the server runs, through django.test.Client.

   In:  {id, method, path, body, language}   body: form-encoded text (a POST's fields);
        language: "en", "it", "pt-br" (default: the user's setting, else English).
   Out: {type: "ready", timings}       once, when loaded (manifest, Pyodide, unpack, setup, start)
        {type: "failed", failure}      once, if it cannot load
        {id, status, location, html}   the answer (a redirect followed once: location is where
                                       it went, html that page's)
        {id, failure}                  no answer (a crash): the server decides */

const ROOT = "/home/pyodide/offline";
const params = new URL(self.location.href).searchParams;
const at = (path) => new URL(path, self.location.href).href;

async function fetched(url) {
  const response = await fetch(url, { credentials: "same-origin" }).catch((error) => {
    throw new Error(`${url}: ${error.message}`);
  });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response;
}

const app = (async () => {
  const times = {};
  let mark = performance.now();
  const lap = (name) => {
    const now = performance.now();
    times[name] = Math.round(now - mark);
    mark = now;
  };
  const [manifest, snapshot] = await Promise.all([
    fetched(at(params.get("manifest"))).then((r) => r.json()),
    fetched(at(params.get("snapshot"))).then((r) => r.text()),
  ]);
  if (!manifest.pyodide) throw new Error("no Pyodide on the server (make pyodide)");
  // The zip comes while Pyodide starts.
  const zip = fetched(at(JSON.parse(snapshot).app)).then((r) => r.arrayBuffer());
  lap("manifest_ms");
  const index = at(manifest.pyodide);
  const { loadPyodide } = await import(index + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: index });
  lap("pyodide_ms");
  pyodide.unpackArchive(await zip, "zip", { extractDir: ROOT });
  lap("unpack_ms");
  pyodide.runPython(`
import os, sys
sys.path[:0] = [${JSON.stringify(ROOT + "/app")}, ${JSON.stringify(ROOT + "/site")}]
os.environ["DJANGO_SETTINGS_MODULE"] = "potdevin_site.settings_browser"
import django
django.setup()
`);
  lap("setup_ms");
  const offline = pyodide.pyimport("games.web.offline_app");
  const started = JSON.parse(offline.start(snapshot, self.location.host));
  lap("start_ms");
  self.postMessage({ type: "ready", timings: { ...times, ...started } });
  return offline;
})();
app.catch((error) => self.postMessage({ type: "failed", failure: String(error) }));

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    const offline = await app;
    const request = JSON.stringify({
      method: data.method || "GET",
      path: data.path,
      body: data.body || "",
      language: data.language || null,
    });
    self.postMessage({ id, ...JSON.parse(offline.answer(request)) });
  } catch (error) {
    self.postMessage({ id, failure: String(error) });
  }
};
