"""MkDocs plugin `eoslab`: eoslab's code fences pre-built into its elements at `mkdocs build`.

For every page, each ```kafka-batch / kafka-scenario / kafka-ladder / kafka-timeline / kafka-config
fence goes through eoslab's own pre-building (`node <dist>/prebuild.mjs`, the same wasm package the
elements load), and the page gets the element in its place: a timeline or a ladder with `run`
naming a run file written beside the page (eoslab-runs/<hash>.json), which the element draws with
no WebAssembly downloaded. A script error in a fence fails the build at its line in the .md file.
dist/eoslab is copied into the site (as `path`) and the page loads its eoslab-fences.js, which
imports the modules of the elements the page has (and upgrades a fence kept as a code block).
"""

import hashlib
import html
import json
import os
import re
import secrets
import shutil

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, get_plugin_logger
from mkdocs.utils import get_relative_url

from .fences import FenceError, find_fences, replace_fences
from .prebuild import Prebuild, PrebuildError

log = get_plugin_logger(__name__)

RUNS = "eoslab-runs"
_NAME = re.compile(r"^[a-z][a-z0-9-]*$")


class EoslabConfig(Config):
    dist = c.Optional(c.Type(str))  # required: checked in on_config, with a message that says what to give
    path = c.Type(str, default="eoslab")
    node = c.Type(str, default="node")
    timeout = c.Type((int, float), default=120)


def _attr(value):
    """An attribute value as HTML: escaped, quotes included, on one line."""
    return html.escape(str(value), quote=True).replace("\r", "&#13;").replace("\n", "&#10;").replace("\t", "&#9;")


def _element(tag, attributes):
    if not _NAME.match(str(tag)):
        raise PluginError(f"eoslab: prebuild.mjs named an element {tag!r}, not a tag name")
    parts = [tag]
    for name, value in attributes.items():
        if not _NAME.match(str(name)):
            raise PluginError(f"eoslab: prebuild.mjs named an attribute {name!r} of <{tag}>, not an attribute name")
        parts.append(name if value == "" else f'{name}="{_attr(value)}"')
    return f"<{' '.join(parts)}></{tag}>"


def _source_offset(page):
    """How many lines of the .md file come before page.markdown (its YAML front matter), or 0."""
    try:
        source = page.file.content_string
    except (OSError, UnicodeDecodeError, AttributeError):
        return 0
    markdown = page.markdown or ""
    if markdown and source.endswith(markdown):
        return source[: len(source) - len(markdown)].count("\n")
    return 0


def _where(page):
    path = page.file.abs_src_path or page.file.src_uri
    if page.file.abs_src_path:
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            path = rel
    return path.replace(os.sep, "/")


class EoslabPlugin(BasePlugin[EoslabConfig]):
    def __init__(self):
        self._prebuild = None
        self._cache = {}  # (fence, text) -> prebuild.mjs's answer; kept across `mkdocs serve` rebuilds
        self._fingerprint = None
        self._runs = {}  # site path (posix) -> JSON text
        self._pages = {}  # page src_uri -> [(token, element HTML, line)]

    # -- configuration -------------------------------------------------------------------------

    def on_config(self, config):
        dist = self.config.dist
        if not dist:
            raise PluginError("eoslab: the plugin needs `dist`, the path of a built dist/eoslab (relative to mkdocs.yml), e.g.\n  plugins:\n    - eoslab:\n        dist: ../dist/eoslab")
        base = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
        # Its real path: prebuild.mjs runs only when it is the script Node was given, and Node
        # compares its own real path (a symlinked dist would start it and do nothing).
        self.dist = os.path.realpath(os.path.join(base, dist))
        for need in ("eoslab-fences.js", "prebuild.mjs"):
            if not os.path.isfile(os.path.join(self.dist, need)):
                raise PluginError(f"eoslab: `dist: {dist}` is not a built dist/eoslab: {os.path.join(self.dist, need)} is missing (make dist)")
        path = self.config.path.strip("/")
        if not path or ".." in path.split("/"):
            raise PluginError(f"eoslab: `path: {self.config.path}` must be a folder inside the site")
        self.path = path
        # A new dist (make dist while `mkdocs serve` runs) makes new runs.
        stamp = []
        for root, _, names in os.walk(self.dist):
            for n in sorted(names):
                if n.endswith((".mjs", ".wasm")) or root == self.dist:
                    st = os.stat(os.path.join(root, n))
                    stamp.append((os.path.relpath(os.path.join(root, n), self.dist), st.st_mtime_ns, st.st_size))
        fingerprint = tuple(sorted(stamp))
        if fingerprint != self._fingerprint:
            self._cache = {}
            self._fingerprint = fingerprint
        return config

    def on_pre_build(self, config):
        self._runs = {}
        self._pages = {}

    # -- pages ---------------------------------------------------------------------------------

    def _answer(self, kind, text):
        key = (kind, text)
        if key not in self._cache:
            if self._prebuild is None:
                self._prebuild = Prebuild(self.config.node, os.path.join(self.dist, "prebuild.mjs"), float(self.config.timeout))
            try:
                self._cache[key] = self._prebuild.run(kind, text)
            except PrebuildError as err:
                raise PluginError(f"eoslab: {err}") from None
        return self._cache[key]

    def on_page_markdown(self, markdown, page, config, files):
        where = _where(page)
        offset = _source_offset(page)
        try:
            fences = find_fences(markdown)
        except FenceError as err:
            raise PluginError(f"{where}:{err.line + offset}: {err.message}") from None
        if not fences:
            return markdown
        errors = []
        blocks = []
        made = []
        page_dir = os.path.dirname(page.file.dest_uri)
        for fence in fences:
            answer = self._answer(fence.kind, fence.text)
            error = answer.get("error")
            if error:
                line = int(error.get("line") or 1)
                message = str(error.get("message") or "error")
                message = re.sub(r"^line \d+:\s*", "", message)
                errors.append(f"{where}:{fence.line + line + offset}: {fence.kind} fence, line {line}: {message}")
                continue
            if answer.get("load") is not None:
                # A dump only the paste detector reads (an xxd or hexdump -C layout): no attribute
                # holds it, so the fence stays a code block, written as eoslab-fences.js upgrades
                # it on the page (what pymdownx.superfences' custom fence would have made).
                element = f'<pre class="{_attr(fence.kind)}"><code>{html.escape(fence.text, quote=False)}</code></pre>'
            else:
                attributes = dict(answer.get("attributes") or {})
                run = answer.get("run")
                if run is not None:
                    data = json.dumps(run, ensure_ascii=False, separators=(",", ":"))
                    name = hashlib.sha256(data.encode("utf-8")).hexdigest()[:16] + ".json"
                    self._runs["/".join(p for p in (page_dir, RUNS, name) if p)] = data
                    attributes["run"] = f"{RUNS}/{name}"
                attributes["data-eoslab-fence"] = fence.kind
                element = _element(answer["tag"], attributes)
            token = f"eoslab{secrets.token_hex(8)}x{len(made)}"
            blocks.append(token)
            made.append((token, element, fence.line + offset))
        if errors:
            raise PluginError("\n".join(errors))
        self._pages[page.file.src_uri] = made
        return replace_fences(markdown, fences, blocks)

    def on_page_content(self, html_text, page, config, files):
        made = self._pages.get(page.file.src_uri)
        if not made:
            return html_text
        for token, element, line in made:
            # The token stood alone in its block: Markdown made it a paragraph (or a tight list item's text).
            html_text, n = re.subn(r"<p>\s*" + token + r"\s*</p>|" + token, lambda _m, e=element: e, html_text, count=1)
            if n != 1:
                raise PluginError(f"eoslab: {_where(page)}:{line}: the fence's element could not be put in its place (another extension changed the placeholder `{token}`)")
        # eoslab-fences.js, not eoslab.js (every element's module): it imports the modules of the
        # elements on the page only, and those of the pages swapped in later (its MutationObserver),
        # and upgrades a fence kept as a code block. In the page's content: MkDocs Material's
        # navigation.instant runs the scripts of the content it swaps in.
        script = get_relative_url(f"{self.path}/eoslab-fences.js", page.url)
        return html_text + f'\n<script type="module" src="{_attr(script)}"></script>\n'

    # -- the site ------------------------------------------------------------------------------

    def on_post_build(self, config):
        self._close()
        site = config.site_dir
        shutil.copytree(self.dist, os.path.join(site, *self.path.split("/")), dirs_exist_ok=True)
        for rel, data in self._runs.items():
            dest = os.path.join(site, *rel.split("/"))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "w", encoding="utf-8") as f:
                f.write(data)
        log.info(f"{sum(len(m) for m in self._pages.values())} elements on {len(self._pages)} pages, {len(self._runs)} run files; dist/eoslab copied as {self.path}/")

    def on_build_error(self, error):
        self._close()

    def on_shutdown(self):
        self._close()

    def _close(self):
        if self._prebuild is not None:
            self._prebuild.close()
            self._prebuild = None
