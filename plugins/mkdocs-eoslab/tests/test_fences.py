"""The fence scanner and the element writer (no MkDocs build, no Node).

Run: python -m unittest discover -s plugins/mkdocs-eoslab/tests
"""

import os
import sys
import unittest
from html.parser import HTMLParser

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from mkdocs_eoslab.fences import FenceError, find_fences, replace_fences  # noqa: E402


class FindFences(unittest.TestCase):
    def test_backticks_tildes_and_longer_runs(self):
        md = "# T\n\n```kafka-timeline\na\nb\n```\n\n~~~kafka-ladder\nc\n~~~\n\n`````kafka-config title=x\nacks=1\n```\nstill in\n`````\n"
        fences = find_fences(md)
        self.assertEqual([(f.kind, f.text, f.line) for f in fences], [
            ("kafka-timeline", "a\nb\n", 3),
            ("kafka-ladder", "c\n", 8),
            ("kafka-config", "acks=1\n```\nstill in\n", 12),
        ])

    def test_a_fence_inside_another_fence_is_not_one(self):
        md = "````markdown\n```kafka-ladder\nx\n```\n````\n\n~~~\n```kafka-batch\n00\n```\n~~~\n```kafka-batch\n01\n```\n"
        self.assertEqual([(f.kind, f.text) for f in find_fences(md)], [("kafka-batch", "01\n")])

    def test_other_languages_and_near_names_are_left(self):
        md = "```python\nx\n```\n```kafka-timelines\nx\n```\n``` kafka-scenario\nname\n```\n"
        self.assertEqual([(f.kind, f.text) for f in find_fences(md)], [("kafka-scenario", "name\n")])

    def test_a_backtick_info_string_with_a_backtick_is_no_fence(self):
        self.assertEqual(find_fences("```kafka-batch `x`\n00\n```\n"), [])

    def test_in_a_list_item_and_a_block_quote(self):
        md = "1. item\n\n    ```kafka-timeline\n    a\n\n      b\n    ```\n\n> ```kafka-ladder\n> c\n>\n> d\n> ```\n"
        fences = find_fences(md)
        self.assertEqual([(f.kind, f.text, f.prefix) for f in fences], [
            ("kafka-timeline", "a\n\n  b\n", "    "),
            ("kafka-ladder", "c\n\nd\n", "> "),
        ])

    def test_a_fence_never_closed_is_an_error_at_its_line(self):
        with self.assertRaises(FenceError) as ctx:
            find_fences("text\n\n```kafka-ladder\nx\n")
        self.assertEqual(ctx.exception.line, 3)
        # Its container ends before a closing run: not closed either.
        with self.assertRaises(FenceError) as ctx:
            find_fences("- item\n\n    ```kafka-ladder\n    x\nout of the list\n    ```\n")
        self.assertEqual(ctx.exception.line, 3)

    def test_an_indented_top_level_fence_takes_off_what_a_line_has(self):
        self.assertEqual([f.text for f in find_fences("  ```kafka-ladder\n    a\n b\nc\n  ```\n")], ["  a\nb\nc\n"])

    def test_an_unclosed_other_fence_swallows_the_rest(self):
        self.assertEqual(find_fences("```text\n```kafka-ladder\nx\n"), [])

    def test_crlf_is_not_expected_but_a_closing_run_may_have_spaces(self):
        self.assertEqual([f.text for f in find_fences("```kafka-ladder\nx\n```   \n")], ["x\n"])


class ReplaceFences(unittest.TestCase):
    def test_each_fence_becomes_one_line_between_blank_lines(self):
        md = "para\n```kafka-timeline\na\n```\nafter\n\n1. item\n\n    ~~~kafka-ladder\n    b\n    ~~~\n"
        fences = find_fences(md)
        out = replace_fences(md, fences, ["TOKEN1", "TOKEN2"])
        self.assertEqual(out, "para\n\nTOKEN1\n\nafter\n\n1. item\n\n\n    TOKEN2\n\n")

    def test_in_a_block_quote_the_blank_lines_stay_in_it(self):
        md = "> ```kafka-ladder\n> c\n> ```\n"
        self.assertEqual(replace_fences(md, find_fences(md), ["T"]), ">\n> T\n>\n")


class Element(unittest.TestCase):
    def setUp(self):
        try:
            from mkdocs_eoslab import plugin
        except ImportError as err:  # MkDocs not installed here
            self.skipTest(f"mkdocs not importable: {err}")
        self.plugin = plugin

    def test_attribute_values_are_escaped_and_on_one_line(self):
        text = 'a="1" <b>&amp;\'\nline 2\r\n\tx'
        out = self.plugin._element("kafka-producer-config", {"properties": text, "readonly": ""})
        self.assertNotIn("\n", out)
        self.assertNotIn("<b>", out)

        class P(HTMLParser):
            def handle_starttag(self, tag, attrs):
                self.seen = (tag, dict(attrs))

        p = P()
        p.feed(out)
        self.assertEqual(p.seen, ("kafka-producer-config", {"properties": text, "readonly": None}))
        self.assertTrue(out.endswith("></kafka-producer-config>"))

    def test_names_that_are_not_tag_or_attribute_names_are_refused(self):
        from mkdocs.exceptions import PluginError

        with self.assertRaises(PluginError):
            self.plugin._element("kafka-ladder onload=x", {})
        with self.assertRaises(PluginError):
            self.plugin._element("kafka-ladder", {'x onload="y"': ""})


if __name__ == "__main__":
    unittest.main()
