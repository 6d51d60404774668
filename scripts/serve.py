#!/usr/bin/env python3
"""Static server for the eoslab page: no bundler, no framework.

Serves the repository root on 127.0.0.1 only, but exposes just /www/ (the page), /pkg/ (the
wasm-bindgen output) and /scenarios/ (the built-in scenario scripts that <kafka-ladder
scenario="..."> loads), so www/index.html can import ../pkg/eoslab.js exactly as it sits in the
repo, and /docs/ (the documentation site, built by `make docs` into target/docs/site). / redirects to /www/. .wasm is served as application/wasm (needed by
WebAssembly.instantiateStreaming) and nothing is cached, so a rebuilt pkg/ shows on reload.

Usage: python3 scripts/serve.py [PORT] [-v]     (PORT 0 picks a free port)
Prints "eoslab: serving http://127.0.0.1:PORT/" once listening.
"""

import functools
import http.server
import os
import posixpath
import sys
import urllib.parse

HOST = "127.0.0.1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ALLOWED = ("/www/", "/pkg/", "/scenarios/", "/docs/")
# The docs site (`make docs`) is built into target/docs/site and served at /docs/.
DOCS_SITE = os.path.join(ROOT, "target", "docs", "site")


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

    def translate_path(self, path):
        clean = self._path_only()
        if clean == "/docs" or clean.startswith("/docs/"):
            rel = clean[len("/docs"):].lstrip("/")
            return os.path.join(DOCS_SITE, *[p for p in rel.split("/") if p and p != ".."])
        return super().translate_path(path)

    def do_GET(self):
        if self._route():
            super().do_GET()

    def do_HEAD(self):
        if self._route():
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
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main(sys.argv[1:])
