"""MkDocs hook: the site works under a strict Content-Security-Policy (script-src 'self').

Material writes a few small inline scripts into every page (its storage scope, the palette's
first paint, the consent and search bootstraps). A page served with `script-src 'self'` blocks
them. This hook moves each inline script into a file of its own under
assets/javascripts/inline/, named by its content's hash, and points the page at it: external
classic scripts run in document order, exactly where the inline ones did. JSON data blocks
(`<script type="application/json">`) are not executed and stay where they are.
"""

import hashlib
import os
import re
from urllib.parse import urlparse

INLINE = re.compile(r"<script(?P<attrs>(?:\s+(?!src\b)[^>]*)?)>(?P<body>.*?)</script>", re.S)
FOLDER = "assets/javascripts/inline"
_scripts = {}


def _executable(attrs):
    m = re.search(r"\btype\s*=\s*[\"']?([^\"'\s>]+)", attrs)
    return m is None or m.group(1) in ("text/javascript", "application/javascript", "module")


def on_post_page(output, page, config):
    base = urlparse(config.get("site_url") or "/").path or "/"
    if not base.endswith("/"):
        base += "/"

    def move(m):
        attrs, body = m.group("attrs") or "", m.group("body")
        if "src=" in attrs or not body.strip() or not _executable(attrs):
            return m.group(0)
        name = hashlib.sha256(body.encode()).hexdigest()[:16] + ".js"
        _scripts[name] = body
        return f'<script{attrs} src="{base}{FOLDER}/{name}"></script>'

    return INLINE.sub(move, output)


def on_post_build(config):
    folder = os.path.join(config["site_dir"], *FOLDER.split("/"))
    os.makedirs(folder, exist_ok=True)
    for name, body in _scripts.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(body)


def on_post_template(output_content, template_name, config):
    # The pages built from a template alone (404.html).
    if template_name.endswith(".html"):
        return on_post_page(output_content, None, config)
    return output_content
