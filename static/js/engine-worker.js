/* The rules engine in a Web Worker (a module worker, started by static/js/engine.js): Pyodide
   loaded once from the project (games/web/engine_files.py; its manifest's URL in this script's
   ?manifest=), the engine's plain sources and the pages' refusal words unpacked into its file
   system and put on sys.path, then each message answered by games/web/browser_check.py, the
   very code the server runs.

   In:  {id, log, names, language, game_type}   log: JSON text (as the server would parse it) or
        a plain object; names: the players by seat (default: the log's); language: "en", "it",
        "pt-br" (default English); game_type: default the log's engine.
   Out: {type: "ready", timings: {manifest_ms, pyodide_ms, unpack_ms}}   once, when loaded
        {type: "failed", failure}                                       once, if it cannot load
        {id, ok: true, result}            the replay's result, as the server's replay gives it
        {id, ok: false, error: {code, message, round, seat, turn?, sentence}}   a refusal
        {id, ok: false, failure}          no check was made (no engine here, a crash): not a
                                          refusal, the server decides */

const ROOT = "/home/pyodide/potdevin";
const manifestUrl = new URL(new URL(self.location.href).searchParams.get("manifest"), self.location.href);

async function fetched(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response;
}

const engine = (async () => {
  const start = performance.now();
  const manifest = await (await fetched(manifestUrl)).json();
  if (!manifest.pyodide) throw new Error("no Pyodide on the server (make pyodide)");
  const at = (path) => new URL(path, manifestUrl).href;
  // The zips come while Pyodide starts.
  const zips = Promise.all(
    [manifest["engine.zip"], manifest["words.zip"]].map(async (path) => (await fetched(at(path))).arrayBuffer()),
  );
  const listed = performance.now();
  const { loadPyodide } = await import(at(manifest.pyodide) + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: at(manifest.pyodide) });
  const loaded = performance.now();
  for (const zip of await zips) pyodide.unpackArchive(zip, "zip", { extractDir: ROOT });
  pyodide.runPython(`import sys; sys.path.insert(0, ${JSON.stringify(ROOT)})`);
  const answer = pyodide.pyimport("games.web.browser_check").answer;
  const timings = { manifest_ms: listed - start, pyodide_ms: loaded - listed, unpack_ms: performance.now() - loaded };
  self.postMessage({ type: "ready", timings });
  return answer;
})();
engine.catch((error) => self.postMessage({ type: "failed", failure: String(error) }));

self.onmessage = async ({ data }) => {
  const { id } = data;
  try {
    const answer = await engine;
    const log = typeof data.log === "string" ? data.log : JSON.stringify(data.log);
    const request = JSON.stringify({
      names: data.names ?? null,
      language: data.language ?? null,
      game_type: data.game_type ?? null,
    });
    self.postMessage({ id, ...JSON.parse(answer(log, request)) });
  } catch (error) {
    self.postMessage({ id, ok: false, failure: String(error) });
  }
};
