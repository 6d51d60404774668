"""Real `mkdocs build`s of small sites with the plugin: the elements, their run files and script
where the pages' URLs say (with and without use_directory_urls), attribute values escaped, and a
fence's script error failing the build at its line in the .md file.

Needs MkDocs with this plugin installed (pip install ./plugins/mkdocs-eoslab), Node, and a built
dist/eoslab holding prebuild.mjs: EOSLAB_DIST, else the repository's dist/eoslab (make dist).
Run: EOSLAB_DIST=dist/eoslab python -m unittest discover -s plugins/mkdocs-eoslab/tests
"""

import json
import os
import posixpath
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from html.parser import HTMLParser
from urllib.parse import urljoin, urlparse

HERE = os.path.dirname(os.path.abspath(__file__))
DIST = os.path.abspath(os.environ.get("EOSLAB_DIST") or os.path.join(HERE, "..", "..", "..", "dist", "eoslab"))

INDEX = """\
# Home

```kafka-config
client.id="quoted" <b>not bold</b> & more
acks=1
```

- a list, whose item has a fence:

    ~~~kafka-timeline
    partition orders-0
    producer app
    send app orders-0 a
    ~~~

````markdown
```kafka-ladder
partition shown-0
```
````
"""

NESTED = """\
---
title: Nested
---

# A page in a folder

```kafka-scenario
txn-zombie-fenced
```
"""

BAD = """\
# Bad

Text.

```kafka-timeline
partition orders-0
producer app
send app orders-0 a
bogus line
```
"""


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements = []
        self.scripts = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag.startswith("kafka-"):
            self.elements.append((tag, a))
        if tag == "script" and a.get("type") == "module":
            self.scripts.append(a["src"])


def build(tmp, pages, directory_urls=True, extra="", dist=DIST):
    for name, text in pages.items():
        path = os.path.join(tmp, "docs", *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    with open(os.path.join(tmp, "mkdocs.yml"), "w", encoding="utf-8") as f:
        f.write(textwrap.dedent(f"""\
            site_name: t
            site_url: http://example.invalid/prefix/
            use_directory_urls: {"true" if directory_urls else "false"}
            markdown_extensions: [pymdownx.superfences]
            plugins:
              - eoslab:
                  dist: {json.dumps(os.path.relpath(dist, tmp))}
            """) + extra)
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=tmp, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"}, timeout=300)


@unittest.skipUnless(os.path.isfile(os.path.join(DIST, "prebuild.mjs")), f"no built dist/eoslab with prebuild.mjs at {DIST} (make dist, or set EOSLAB_DIST)")
@unittest.skipUnless(shutil.which("node"), "no node on PATH")
class Build(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mkdocs-eoslab-")
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def check_site(self, directory_urls):
        r = build(self.tmp, {"index.md": INDEX, "sub/nested.md": NESTED}, directory_urls)
        self.assertEqual(r.returncode, 0, r.stderr)
        site = os.path.join(self.tmp, "site")
        pages = {"": "index.html", "sub/nested/": "sub/nested/index.html"} if directory_urls else {"": "index.html", "sub/nested.html": "sub/nested.html"}
        seen = {}
        for url_path, file in pages.items():
            with open(os.path.join(site, *file.split("/")), encoding="utf-8") as f:
                html = f.read()
            p = Elements()
            p.feed(html)
            seen[file] = p.elements
            page_url = "http://example.invalid/prefix/" + url_path

            def in_site(rel):
                path = urlparse(urljoin(page_url, rel)).path
                self.assertTrue(path.startswith("/prefix/"), f"{rel} from {page_url} leaves the site")
                return os.path.join(site, *posixpath.normpath(path[len("/prefix/"):]).split("/"))

            # One module script, the site's eoslab/eoslab-fences.js, as the page's URL resolves it.
            self.assertEqual(len(p.scripts), 1, p.scripts)
            self.assertEqual(in_site(p.scripts[0]), os.path.join(site, "eoslab", "eoslab-fences.js"))
            self.assertTrue(os.path.isfile(in_site(p.scripts[0])), p.scripts[0])
            for tag, attrs in p.elements:
                if "run" in attrs:
                    with open(in_site(attrs["run"]), encoding="utf-8") as f:
                        run = json.load(f)
                    self.assertEqual((run["eoslab"], run["element"]), ("run", tag))
                    if tag in ("kafka-timeline", "kafka-ladder"):
                        self.assertIsNone(run["run"]["partial"])
                    elif tag == "kafka-producer-config":
                        self.assertEqual(run["input"]["properties"], attrs["properties"])
                        self.assertIn("ok", run["run"]["result"])
            # The fences' text is not on the page; the fence inside a fence is, as code.
            self.assertNotIn("send app orders-0 a", html)
            self.assertNotIn("kafka-scenario", html.replace('data-eoslab-fence="kafka-scenario"', ""))
        index = seen["index.html"]
        self.assertEqual([t for t, _ in index], ["kafka-producer-config", "kafka-timeline"])
        # The attribute's value is the fence's text, whatever it holds (the parser unescapes it).
        self.assertEqual(index[0][1]["properties"], 'client.id="quoted" <b>not bold</b> & more\nacks=1\n')
        self.assertRegex(index[1][1]["run"], r"^eoslab-runs/[0-9a-f]{16}\.json$")
        self.assertNotIn("script", index[1][1])
        nested = seen[pages["sub/nested/" if directory_urls else "sub/nested.html"]]
        self.assertEqual([(t, a.get("scenario")) for t, a in nested], [("kafka-timeline", "txn-zombie-fenced")])
        self.assertTrue(os.path.isfile(os.path.join(site, "eoslab", "pkg", "eoslab_bg.wasm")))
        with open(os.path.join(site, "index.html"), encoding="utf-8") as f:
            self.assertIn("partition shown-0", f.read())

    def test_directory_urls(self):
        self.check_site(True)

    def test_no_directory_urls(self):
        self.check_site(False)

    def test_a_symlinked_dist(self):
        # prebuild.mjs runs only as the script Node was given, by its real path.
        os.symlink(DIST, os.path.join(self.tmp, "linked-dist"))
        r = build(self.tmp, {"index.md": NESTED}, dist=os.path.join(self.tmp, "linked-dist"))
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(self.tmp, "site", "index.html"), encoding="utf-8") as f:
            self.assertRegex(f.read(), r'<kafka-timeline [^>]*run="eoslab-runs/[0-9a-f]{16}\.json"')

    def test_a_script_error_fails_the_build_at_its_line(self):
        r = build(self.tmp, {"index.md": "# Home\n", "guide/bad.md": BAD})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("docs/guide/bad.md:9: kafka-timeline fence, line 4: unknown step `bogus`", r.stderr)

    def test_a_fence_never_closed_fails_the_build(self):
        r = build(self.tmp, {"index.md": "# Home\n\n```kafka-ladder\npartition p\n"})
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("docs/index.md:3: the kafka-ladder fence opened here is never closed", r.stderr)

    def test_without_dist_the_error_says_what_to_give(self):
        os.makedirs(os.path.join(self.tmp, "docs"))
        with open(os.path.join(self.tmp, "docs", "index.md"), "w") as f:
            f.write("# x\n")
        with open(os.path.join(self.tmp, "mkdocs.yml"), "w") as f:
            f.write("site_name: t\nplugins:\n  - eoslab\n")
        r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q"], cwd=self.tmp, capture_output=True, text=True, timeout=120)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("the plugin needs `dist`", r.stderr)


if __name__ == "__main__":
    unittest.main()
