"""Arrows run one way: product <- tools <- tests. The product (firmware/,
arch/, drivers/, board/) names neither tools/ nor tests/ in what it
includes; tools/ (apart from the tests it carries, tools/*/tests/) does
not include, source or import anything under tests/. Comments may point
anywhere; only the lines that pull code in are read (a rule that builds a
tool's own unit test may give it tests/lib's TAP header with -I)."""
import os
import re
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
PRODUCT = ("firmware", "arch", "drivers", "board")

# A line that pulls another file in, per language, and the path it names.
PULLS = {
    ".c": re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]'),
    ".h": re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]'),
    ".S": re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]'),
    ".sh": re.compile(r'^\s*(?:\.|source)\s+(.+)$'),
    ".mk": re.compile(r'^\s*-?include\s+(.+)$|\s-f\s+(\S+)'),
    ".py": re.compile(r'(?:sys\.path\.(?:insert|append)\(.*?["\']([^"\']+)["\']|'
                      r'os\.path\.join\([^)]*["\'](tests)["\'])'),
}


def pulls(path):
    """(line number, the path it names) for every pulling line of path."""
    ext = os.path.splitext(path)[1]
    if path.endswith(".mk") or os.path.basename(path) == "Makefile":
        ext = ".mk"
    rx = PULLS.get(ext)
    if not rx:
        return []
    out = []
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = rx.search(line)
            if m:
                out.append((n, next(g for g in m.groups() if g) if m.groups() else m.group(0)))
    return out


def files(top, skip=()):
    for d, dirs, names in os.walk(os.path.join(ROOT, top)):
        rel = os.path.relpath(d, ROOT)
        dirs[:] = [x for x in dirs if not any(os.path.join(rel, x).startswith(s) for s in skip)
                   and x != "tests"]
        for name in names:
            yield os.path.join(d, name)


class Arrows(unittest.TestCase):
    def test_product_pulls_in_neither_tools_nor_tests(self):
        bad = []
        for top in PRODUCT:
            for path in files(top):
                for n, what in pulls(path):
                    if re.search(r"(^|/)(tools|tests)/", what):
                        bad.append("%s:%d: %s" % (os.path.relpath(path, ROOT), n, what))
        self.assertEqual(bad, [], "the product reaches up into tools/ or tests/")

    def test_tools_pull_in_no_tests(self):
        bad = []
        for path in files("tools"):
            for n, what in pulls(path):
                if re.search(r"(^|/)tests(/|$)", what):
                    bad.append("%s:%d: %s" % (os.path.relpath(path, ROOT), n, what))
        self.assertEqual(bad, [], "a tool reaches into tests/")

    def test_the_check_sees_a_wrong_arrow(self):
        # The reader must find the pattern it guards against, or the two
        # tests above could never fail.
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            for name, text in (("x.c", '#include "../../tools/vivt-emu/memsys/x.h"\n'),
                               ("x.sh", '. "$(dirname "$0")/../tests/lib/tap.sh"\n'),
                               ("x.mk", "include tests/tests.mk\n")):
                p = os.path.join(d, name)
                with open(p, "w") as f:
                    f.write(text)
                self.assertTrue(any(re.search(r"(^|/)(tools|tests)/", w) for _, w in pulls(p)), name)


if __name__ == "__main__":
    unittest.main()
