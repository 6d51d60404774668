#!/usr/bin/env python3
"""Static server for the eoslab page: no bundler, no framework.

Serves the repository root on 127.0.0.1 only, but exposes just /www/ (the page), /pkg/ (the
wasm-bindgen output) and /scenarios/ (the built-in scenario scripts that <kafka-ladder
scenario="..."> loads), so www/index.html can import ../pkg/eoslab.js exactly as it sits in the
repo, and /docs/ (the documentation site, built by `make docs` into target/docs/site). / redirects to /www/. .wasm is served as application/wasm (needed by
WebAssembly.instantiateStreaming) and nothing is cached, so a rebuilt pkg/ shows on reload.

/runs/ holds the pre-built runs of the built-in scenarios, as make dist writes them into
dist/eoslab/runs/ (www/prebuild.mjs --scenarios, the very pkg/ and code the elements run), and
the idempotence page's producer config (runs/kafka-producer-config/idempotence.json), so the lab
pages (www/idempotence.html, www/transactions.html) draw a shipped scenario with no wasm loaded.
The server makes them itself, in the background, into target/runs/<key>/, where the key hashes
what a run depends on (pkg/, scenarios/, www/prebuild.mjs, www/lib/); a rebuilt pkg/ or an edited
scenario gets new runs (made on the next request for /runs/index.json), and until they are made
/runs/index.json lists none, so the pages run the model as before. /runs/index.json:
{"eoslab": "runs-index", "runs": {"kafka-ladder": [NAME, …], "kafka-timeline": […], …}}.

Usage: python3 scripts/serve.py [PORT] [-v]     (PORT 0 picks a free port)
Prints "eoslab: serving http://127.0.0.1:PORT/" once listening.
"""

import functools
import hashlib
import http.server
import json
import os
import posixpath
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse

HOST = "127.0.0.1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALLOWED = ("/www/", "/pkg/", "/scenarios/", "/docs/", "/runs/")
# The docs site (`make docs`) is built into target/docs/site and served at /docs/.
DOCS_SITE = os.path.join(ROOT, "target", "docs", "site")
RUNS_CACHE = os.path.join(ROOT, "target", "runs")
# The idempotence page's <kafka-producer-config properties="acks=1"> (www/idempotence.html).
CONFIG_RUNS = {"idempotence": ("acks=1", "4.x")}
# Writes the config runs with www/prebuild.mjs's configRun (environment: EOSLAB_PREBUILD, its path;
# EOSLAB_RUNS, the directory; EOSLAB_CONFIGS, JSON {name: [properties, client]}). No arguments:
# prebuild.mjs runs its command line when process.argv[1] is its own path.
CONFIG_JS = """
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [prebuild, dir, wanted] = [process.env.EOSLAB_PREBUILD, process.env.EOSLAB_RUNS, process.env.EOSLAB_CONFIGS];
const { configRun } = await import(pathToFileURL(prebuild).href);
mkdirSync(join(dir, "kafka-producer-config"), { recursive: true });
for (const [name, [properties, client]] of Object.entries(JSON.parse(wanted))) {
  writeFileSync(join(dir, "kafka-producer-config", name + ".json"), JSON.stringify(configRun(properties, client)));
}
"""


class Runs:
    """The pre-built runs for the current pkg/ and scenarios/, made in the background."""

    lock = threading.Lock()
    building = None  # the key being built
    failed = set()  # keys whose build failed (not tried again by this server)

    @staticmethod
    def inputs():
        paths = []
        for d in ("pkg", "scenarios", os.path.join("www", "lib")):
            full = os.path.join(ROOT, d)
            if os.path.isdir(full):
                paths += [os.path.join(d, f) for f in sorted(os.listdir(full)) if not f.startswith(".")]
        paths.append(os.path.join("www", "prebuild.mjs"))
        return paths

    @classmethod
    def key(cls):
        h = hashlib.sha256()
        for rel in cls.inputs():
            try:
                st = os.stat(os.path.join(ROOT, rel))
            except OSError:
                continue
            h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        return h.hexdigest()[:16]

    @classmethod
    def current(cls):
        """The directory of the runs for today's inputs, or None (a build is started when missing)."""
        key = cls.key()
        final = os.path.join(RUNS_CACHE, key)
        if os.path.isdir(final):
            return final
        with cls.lock:
            if cls.building is None and key not in cls.failed and shutil.which("node"):
                cls.building = key
                threading.Thread(target=cls.build, args=(key,), daemon=True).start()
        return None

    @classmethod
    def build(cls, key):
        tmp = os.path.join(RUNS_CACHE, f"{key}.tmp-{os.getpid()}")
        final = os.path.join(RUNS_CACHE, key)
        try:
            shutil.rmtree(tmp, ignore_errors=True)
            os.makedirs(tmp)
            prebuild = os.path.join(ROOT, "www", "prebuild.mjs")
            env = {**os.environ, "EOSLAB_PREBUILD": prebuild, "EOSLAB_RUNS": tmp, "EOSLAB_CONFIGS": json.dumps(CONFIG_RUNS)}
            for cmd in (["node", prebuild, "--scenarios", tmp], ["node", "--input-type=module", "-e", CONFIG_JS]):
                r = subprocess.run(cmd, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
                if r.returncode != 0:
                    raise RuntimeError(r.stderr.decode(errors="replace").strip()[-2000:])
            # Other servers on this tree may have made them meanwhile: the first one stays.
            try:
                os.rename(tmp, final)
            except OSError:
                shutil.rmtree(tmp, ignore_errors=True)
            # Older keys' runs are of a pkg/ or scenarios/ that is gone; a build a stopped server
            # left half done (older than 15 minutes) is rubbish.
            for old in os.listdir(RUNS_CACHE):
                path = os.path.join(RUNS_CACHE, old)
                stale = ".tmp-" in old and time.time() - os.path.getmtime(path) > 900
                if old != key and (".tmp-" not in old or stale):
                    shutil.rmtree(path, ignore_errors=True)
        except Exception as err:  # noqa: BLE001 — a page without runs still works: it runs the model
            shutil.rmtree(tmp, ignore_errors=True)
            with cls.lock:
                cls.failed.add(key)
            print(f"eoslab: pre-built runs not made ({err}); the lab pages run the model", file=sys.stderr, flush=True)
        finally:
            with cls.lock:
                cls.building = None

    @classmethod
    def index(cls):
        found = {}
        d = cls.current()
        if d:
            for element in sorted(os.listdir(d)):
                sub = os.path.join(d, element)
                if os.path.isdir(sub):
                    found[element] = sorted(f[:-5] for f in os.listdir(sub) if f.endswith(".json"))
        return {"eoslab": "runs-index", "runs": found}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".css": "text/css",
        ".html": "text/html; charset=utf-8",
        ".ts": "text/plain; charset=utf-8",
        ".eos": "text/plain; charset=utf-8",
    }
    verbose = False

    def _path_only(self):
        """The decoded, normalized path, as the file handler will resolve it."""
        path = urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0])
        trailing = "/" if path.endswith("/") and path != "/" else ""
        return posixpath.normpath(path) + trailing

    def _route(self):
        """Returns True when the request may go on to the file handler."""
        path = self._path_only()
        if path in ("/", "/www", "/index.html"):
            self.send_response(302)
            self.send_header("Location", "/www/")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return False
        if path == "/favicon.ico":
            # No favicon: answer 204 so browsers log no 404 for it.
            self.send_response(204)
            self.end_headers()
            return False
        if not path.startswith(ALLOWED) or "/." in path:
            self.send_error(404)
            return False
        return True

    def _runs_index(self, head=False):
        body = json.dumps(Runs.index()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def translate_path(self, path):
        clean = self._path_only()
        if clean.startswith("/runs/"):
            d = Runs.current()
            if d is None:
                return os.path.join(RUNS_CACHE, "none", "missing")
            rel = clean[len("/runs/"):]
            return os.path.join(d, *[p for p in rel.split("/") if p and p != ".."])
        if clean == "/docs" or clean.startswith("/docs/"):
            rel = clean[len("/docs"):].lstrip("/")
            return os.path.join(DOCS_SITE, *[p for p in rel.split("/") if p and p != ".."])
        return super().translate_path(path)

    def do_GET(self):
        if self._route():
            if self._path_only() == "/runs/index.json":
                self._runs_index()
            else:
                super().do_GET()

    def do_HEAD(self):
        if self._route():
            if self._path_only() == "/runs/index.json":
                self._runs_index(head=True)
            else:
                super().do_HEAD()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, fmt, *args):
        if self.verbose:
            super().log_message(fmt, *args)


def main(argv):
    args = [a for a in argv if not a.startswith("-")]
    Handler.verbose = "-v" in argv
    port = int(args[0]) if args else 8080
    handler = functools.partial(Handler, directory=ROOT)
    server = http.server.ThreadingHTTPServer((HOST, port), handler)
    server.daemon_threads = True
    print(f"eoslab: serving http://{HOST}:{server.server_address[1]}/", flush=True)
    Runs.current()  # start making the pre-built runs now, if they are not made yet
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main(sys.argv[1:])
