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


def app_include_faults(name, path, uses):
    """What an application's file includes past the kernel's API: an arch
    or driver header, an -internal one, a path out of its folder, or a
    quoted header neither its folder nor a used application's holds."""
    bad = []
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    for n, what in pulls(path):
        quoted = re.search(r'#\s*include\s*"', lines[n - 1])
        if what.startswith(("asm/", "drivers/", "board")) or "-internal" in what or ".." in what:
            bad.append((n, what))
        elif quoted and not any(os.path.exists(os.path.join(ROOT, "firmware", "apps", a, what))
                                for a in [name] + uses):
            bad.append((n, what))
    return bad


def app_uses(name):
    """APP_USES.NAME from the application's app.mk."""
    with open(os.path.join(ROOT, "firmware", "apps", name, "app.mk")) as f:
        m = re.search(r"^APP_USES\.%s\s*:?=\s*(.*)$" % re.escape(name), f.read(), re.M)
    return m.group(1).split() if m else []


class AppsUseTheApi(unittest.TestCase):
    def test_apps_include_only_the_api_and_what_they_use(self):
        bad = []
        apps = os.path.join(ROOT, "firmware", "apps")
        for name in sorted(os.listdir(apps)):
            if not os.path.exists(os.path.join(apps, name, "app.mk")):
                continue
            for f in sorted(os.listdir(os.path.join(apps, name))):
                if f.endswith((".c", ".h")):
                    for n, what in app_include_faults(name, os.path.join(apps, name, f), app_uses(name)):
                        bad.append("firmware/apps/%s/%s:%d: %s" % (name, f, n, what))
        self.assertEqual(bad, [], "an application reaches past the kernel's API or another's folder")

    def test_the_check_sees_an_app_reaching_past_the_api(self):
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
            f.write('#include <lokal/thread.h>\n#include <asm/cacheflush.h>\n'
                    '#include <lokal/highmem-internal.h>\n#include "../bench/bench.h"\n'
                    '#include "bench.h"\n#include "cyclic.h"\n')
        try:
            self.assertEqual([n for n, _ in app_include_faults("shell", f.name, ["cyclic"])], [2, 3, 4, 5])
        finally:
            os.unlink(f.name)


if __name__ == "__main__":
    unittest.main()
