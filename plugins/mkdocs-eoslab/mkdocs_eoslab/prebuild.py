"""The bridge to eoslab's build-time pre-building: one `node <dist>/prebuild.mjs` process, fed one
JSON line per fence on its standard input, answering one JSON line per fence, in order (see the
header of prebuild.mjs in dist/eoslab)."""

import json
import queue
import subprocess
import tempfile
import threading


class PrebuildError(Exception):
    """The process could not be started, died, or answered something else than one JSON line."""


class Prebuild:
    def __init__(self, node, script, timeout=120.0):
        self.node = node
        self.script = script
        self.timeout = timeout
        self._proc = None
        self._lines = None
        self._stderr = None

    def _start(self):
        self._stderr = tempfile.TemporaryFile()
        try:
            self._proc = subprocess.Popen(
                [self.node, self.script],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                encoding="utf-8",
                bufsize=1,
            )
        except OSError as err:
            raise PrebuildError(f"could not run `{self.node} {self.script}`: {err} (the plugin's `node` option names the Node.js executable)") from err
        self._lines = queue.Queue()
        proc = self._proc

        def read():
            for line in proc.stdout:
                self._lines.put(line)
            self._lines.put(None)

        threading.Thread(target=read, daemon=True).start()

    def _died(self, what):
        try:
            code = self._proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        self._stderr.seek(0)
        err = self._stderr.read().decode("utf-8", "replace").strip()
        self.close()
        return PrebuildError(f"`node {self.script}` {what}" + (f" (exit {code})" if code is not None else "") + (f": {err}" if err else ""))

    def run(self, fence, text):
        """One fence through prebuild.mjs: its answer {tag, attributes, load, run, error}."""
        if self._proc is None:
            self._start()
        request = json.dumps({"id": 0, "fence": fence, "text": text}, ensure_ascii=True) + "\n"
        try:
            self._proc.stdin.write(request)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died("stopped") from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._died(f"gave no answer in {self.timeout:g} s") from None
        if line is None:
            raise self._died("stopped")
        try:
            answer = json.loads(line)
        except ValueError:
            raise self._died(f"answered something else than JSON: {line[:200]!r}") from None
        if not isinstance(answer, dict) or not {"tag", "attributes", "load", "run", "error"} <= answer.keys():
            raise self._died(f"answered a line without tag, attributes, load, run and error: {line[:200]!r}")
        return answer

    def close(self):
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()
        if self._stderr:
            self._stderr.close()
            self._stderr = None
