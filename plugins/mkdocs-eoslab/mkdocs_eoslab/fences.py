"""Finding eoslab's code fences in a page's Markdown, and putting something else in their place.

Pure Python, no MkDocs: `find_fences(markdown)` lists the fences whose language is one of the five
eoslab kinds, `replace_fences(markdown, fences, blocks)` swaps them for other lines.

A fence is three or more backticks or tildes, the language as the first word of its info string,
and a closing run of the same character at least as long, as CommonMark has it. Other fences are
skipped whole, so a ```kafka-timeline shown inside a ````markdown fence stays an example. A fence
may sit in a list item or a block quote: the text before its opening run (spaces, tabs, `>`) is its
prefix, and is taken off each line of its body.
"""

import re
from dataclasses import dataclass

KINDS = ("kafka-batch", "kafka-scenario", "kafka-ladder", "kafka-timeline", "kafka-config")

# prefix (indentation, block quote markers), the run of ` or ~, the info string.
_OPEN = re.compile(r"^(?P<prefix>[ \t>]*?)(?P<run>`{3,}|~{3,})(?P<info>.*)$")


class FenceError(Exception):
    """A fence the page cannot be built with (one never closed). `line`: 1-based, in the Markdown."""

    def __init__(self, line, message):
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class Fence:
    kind: str  # one of KINDS
    text: str  # the body, prefix taken off each line, with a final newline ("" when empty)
    start: int  # 0-based index of the opening line
    end: int  # 0-based index of the closing line
    prefix: str  # what stood before the opening run (indentation, "> ")

    @property
    def line(self):
        """The 1-based line of the opening run: body line N is at line + N."""
        return self.start + 1


def _language(run, info):
    if run[0] == "`" and "`" in info:
        return None  # not a fence: a backtick info string cannot hold a backtick
    words = info.split()
    return words[0] if words else ""


def _strip_prefix(line, prefix):
    """`line` with `prefix` taken off, or None when the line is not inside the fence's container."""
    if line.startswith(prefix):
        return line[len(prefix):]
    if not line.strip() or (line.strip(" \t>") == "" and prefix.startswith(line.rstrip())):
        return ""  # a blank line (or a bare "> " of the same quote) inside the fence
    # A fence indented by one to three spaces (not in a container) takes off what a line has of them.
    if len(prefix) <= 3 and not prefix.strip(" "):
        return line.lstrip(" ")  # (it has fewer than the prefix's: it does not start with it)
    return None


def find_fences(markdown):
    """The eoslab fences of `markdown`, in order. Raises FenceError on one that is never closed."""
    lines = markdown.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        lang = _language(m.group("run"), m.group("info")) if m else None
        if lang is None:
            i += 1
            continue
        prefix, run = m.group("prefix"), m.group("run")
        close = re.compile(r"^[ \t]{0,3}" + re.escape(run[0]) + "{" + str(len(run)) + r",}[ \t]*$")
        body = []
        j = i + 1
        closed = False
        while j < len(lines):
            rest = _strip_prefix(lines[j], prefix)
            if rest is None:
                break  # the container (list item, quote) ended: so did the fence
            if close.match(rest):
                closed = True
                break
            body.append(rest)
            j += 1
        if lang in KINDS:
            if not closed:
                raise FenceError(i + 1, f"the {lang} fence opened here is never closed (a closing {run} on a line of its own)")
            out.append(Fence(kind=lang, text="\n".join(body) + ("\n" if body else ""), start=i, end=j, prefix=prefix))
        # Whatever the language, the lines up to the closing run are the fence's, not fences.
        i = j + 1 if closed else j
    return out


def replace_fences(markdown, fences, blocks):
    """`markdown` with each fence's lines replaced by the one line in `blocks` (same order), a
    blank line before and after (in the fence's container), so the line is a block of its own."""
    lines = markdown.split("\n")
    for fence, block in sorted(zip(fences, blocks), key=lambda fb: fb[0].start, reverse=True):
        blank = fence.prefix.rstrip(" \t")
        lines[fence.start : fence.end + 1] = [blank, fence.prefix + block, blank]
    return "\n".join(lines)
