"""The user documentation against what the tree does: each claim here is
read from the code or the build files, so a doc that drifts fails."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

from test_latency import HERE

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


class BoardFlow(unittest.TestCase):
    doc = read("docs/board-flow.md")

    def test_make_load_names_the_image_it_loads(self):
        image = re.search(r"^BOARD_ELF\s*:=\s*\$\(O\)/(\S+)", read("tools/board-flow.mk"), re.M)
        line = next(ln for ln in self.doc.splitlines() if ln.startswith("make load"))
        self.assertIn("/" + image.group(1), line)
        self.assertNotIn("lokal.elf", line)

    def test_sigrok_cli_comes_from_bootstrap(self):
        self.assertIn("sigrok-cli", read("tools/bootstrap.sh"))
        self.assertFalse("apt install sigrok-cli" in self.doc, "board-flow.md asks for apt install sigrok-cli")

    def test_trace_after_bench_wakeup_is_the_last_run(self):
        # bench_wakeup() starts the trace afresh in each run_mode(); the
        # buffer keeps the last one, whose name and third argument say nomap.
        src = read("firmware/apps/bench/wakeup.c")
        body = src[src.index("void bench_wakeup("):]
        last = re.findall(r"run_mode\(\"\w+\", (true|false), (true|false),", body)[-1]
        self.assertIn("trace_start();", src)
        mode = "nomap" if last[1] == "true" else "kmap_atomic" if last[0] == "true" else "kmap_local"
        self.assertTrue("the buffer holds the `%s` run" % mode in self.doc, "board-flow.md does not say the buffer holds the %s run" % mode)


# The README and the pages under docs/ it links to.
DOCS = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs"))
                              if f.endswith(".md"))


class Readme(unittest.TestCase):
    # The README and the pages it links to, read as one document.
    doc = "\n".join(read(d) for d in DOCS)

    def test_readme_is_short_and_links_its_pages(self):
        readme = read("README.md")
        self.assertLessEqual(len(readme.splitlines()), 300, "README is over 300 lines")
        for page in re.findall(r"\]\((docs/[\w.-]+\.md)\)", readme):
            self.assertTrue(os.path.isfile(os.path.join(ROOT, page)), "README links %s" % page)
        self.assertIn("make run", readme.split("\n## ", 1)[0])
        self.assertIn("make check", readme.split("\n## ", 1)[0])

    def test_phase_table_is_the_list_of_phases(self):
        phases = [line.split("|")[0].strip() for line in read("tests/phases.txt").splitlines()
                  if line.strip() and not line.startswith("#")]
        table = self.doc.split("`make check` runs these phases", 1)[1].split("\n\n", 2)[1]
        rows = re.findall(r"^\| `check-([A-Za-z0-9-]+)` \|", table, re.M)
        self.assertGreater(len(phases), 5)
        self.assertEqual(rows, phases, "README's phase table against tests/phases.txt")

    def test_layout_shows_every_test_folder(self):
        layout = self.doc.split("## Layout", 1)[1].split("\n## ", 1)[0]
        tests = os.path.join(ROOT, "tests")
        for d in sorted(os.listdir(tests)):
            if os.path.isdir(os.path.join(tests, d)):
                self.assertTrue("tests/%s/" % d in layout, "README's layout does not show tests/%s/" % d)

    def test_make_examples_write_into_build(self):
        # A README example a user copies must not leave files in the tree:
        # what a `make ...` line writes goes under build/ (ignored by git).
        outs = re.findall(r"^make .*?--(?:vcd|json|plot|stats-file|sweep-dir)[ =](\S+?)\"?$", self.doc, re.M)
        self.assertTrue(outs, "no README make example writes a file: the check reads nothing")
        for path in outs:
            self.assertTrue(path.startswith("build/"), "README example writes %s into the tree" % path)

    def test_emulator_binary_and_its_target(self):
        self.assertIn("build/vivt-emu/vivt-emu", read("tools/vivt-emu/vivt-emu.mk").replace(
            "$(VEMU_OUT)", "build/vivt-emu"))
        self.assertIn("`make vivt-emu` builds the emulator, `build/vivt-emu/vivt-emu`", self.doc)

    def test_ctrl_c_list_names_every_command_it_stops(self):
        keys = re.search(r"Ctrl-C \(abandons the line, stops (.*?);", self.doc, re.S).group(1)
        for cmd in ("bench wakeup", "marker test", "trace dump"):
            self.assertIn("`%s`" % cmd, keys)

    def test_shell_bench_figures_say_how_they_were_made(self):
        # The transcript's exact figures come from QEMU_ICOUNT=1 make shell,
        # and its bench shows the first line the firmware prints.
        shell = self.doc[self.doc.index("## Console shell"):]
        self.assertIn("`QEMU_ICOUNT=1 make shell`", shell)
        src = read("firmware/apps/shell/cmd_bench.c")
        self.assertIn("host-paced", src)
        self.assertRegex(shell, r"bench wakeup: times from the \d+ Hz counter: exact on a board "
                                r"and under QEMU_ICOUNT=1 make shell; host-paced")

    def test_usage_lines_match_the_command_table(self):
        table = read("firmware/apps/shell/commands.c")
        hdr = read("firmware/apps/shell/shell.h")
        wakes = re.search(r"#define SHELL_WAKES_MAX\s+(\d+)", hdr).group(1)
        self.assertIn("wakeup [1..\" SHELL_STR(SHELL_WAKES_MAX)", table)
        self.assertIn("usage: bench switch|kmap|wakeup [1..%s]" % wakes, self.doc)


def shown(value, text):
    """Whether text (a figure as a document writes it) is value, to the digits shown."""
    digits = len(text.split(".")[1]) if "." in text else 0
    return isinstance(value, (int, float)) and abs(float(text) - value) <= 0.5 * 10 ** -digits + 1e-9


class DocFigures(unittest.TestCase):
    """A figure a document ties to a results.json goal by its key is the
    last published run's: a goal's row of a table (`key` ... ≤ target |
    **measured**), "target `key` (T)", and "N (`results.json`, `key`)"."""

    def test_figures_named_by_key_are_the_published_ones(self):
        targets = json.loads(read("docs/bench/results.json"))["targets"]
        bad, seen = [], 0
        for doc in DOCS:
            text = read(doc)
            flat = re.sub(r"\s+", " ", text)
            for key, goal, got in re.findall(r"\(`(\w+)`\)[^\n]*?≤ ([\d.]+) \| \*\*([\d.]+)\*\*", text):
                if key in targets:
                    seen += 1
                    if not shown(targets[key]["target"], goal) or not shown(targets[key]["measured"], got):
                        bad.append("%s: %s: goal %s, measured %s; results.json: %s, %s" % (
                            doc, key, goal, got, targets[key]["target"], targets[key]["measured"]))
            for key, goal in re.findall(r"target `(\w+)` \(([\d.]+)\)", flat):
                if key in targets:
                    seen += 1
                    if not shown(targets[key]["target"], goal):
                        bad.append("%s: target %s (%s); results.json: %s" % (doc, key, goal,
                                                                           targets[key]["target"]))
            for got, key in re.findall(r"([\d.]+) \(`results\.json`, `(\w+)`\)", flat):
                if key in targets:
                    seen += 1
                    if not shown(targets[key]["measured"], got):
                        bad.append("%s: %s for %s; results.json measured %s" % (
                            doc, got, key, targets[key]["measured"]))
        self.assertGreater(seen, 5, "the patterns found almost no figure: the test reads nothing")
        self.assertEqual(bad, [], "figures that are not the last published run's")

    def test_a_stale_figure_is_seen(self):
        self.assertFalse(shown(163, "173"))
        self.assertTrue(shown(45.02, "45"))
        self.assertTrue(shown(1.0441, "1.04"))
        self.assertFalse(shown(1.0441, "1.05"))


class BenchResults(unittest.TestCase):
    def test_bench_doc_shows_the_published_run(self):
        # docs/bench.md's run output and event-shape table are written by
        # tools/bench-docs.py, never by hand: --check fails on any cell that differs.
        r = subprocess.run([sys.executable, "tools/bench-docs.py", "--check", "docs/bench/results.json",
                            "docs/bench.md", "README.md"], cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_events_table_check_sees_a_changed_cell(self):
        with tempfile.TemporaryDirectory() as d:
            doc = os.path.join(d, "bench.md")
            with open(doc, "w") as f:
                f.write(read("docs/bench.md").replace("(`events_memory`) |", "(`events_memory`) | 1", 1))
            r = subprocess.run([sys.executable, "tools/bench-docs.py", "--check", "docs/bench/results.json",
                                doc, "README.md"], cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("events table", r.stderr)

    def test_speed_tricks_name_figures_that_exist(self):
        # A trick's comment names the results.json figure it buys ("... in
        # results.json"): each name must be a target of the published run.
        targets = json.loads(read("docs/bench/results.json"))["targets"]
        seen = 0
        for top in ("firmware", "arch", "board", "drivers"):
            for d, _, files in os.walk(os.path.join(ROOT, top)):
                for name in files:
                    if not name.endswith((".c", ".h", ".S")):
                        continue
                    path = os.path.join(d, name)
                    text = re.sub(r"\s*\n\s*\*?\s*", " ", read(os.path.relpath(path, ROOT)))
                    for m in re.finditer(r"in results\.json", text):
                        before = text[max(0, m.start() - 120):m.start()]
                        before = before[before.rfind("(") + 1:] if "(" in before else before[-60:]
                        for key in re.findall(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b", before):
                            seen += 1
                            self.assertTrue(key in targets, "%s names %s, which results.json has no "
                                            "target for" % (os.path.relpath(path, ROOT), key))
        self.assertGreater(seen, 10)

    def test_latency_table_check_sees_a_changed_cell(self):
        with tempfile.TemporaryDirectory() as d:
            doc = os.path.join(d, "README.md")
            with open(doc, "w") as f:
                f.write(read("README.md").replace("(`cyclic_thread_max_insns`) | ≤ 1000 | **", "(`cyclic_thread_max_insns`) | ≤ 1000 | **1", 1))
            r = subprocess.run([sys.executable, "tools/bench-docs.py", "--check", "docs/bench/results.json",
                                "docs/bench.md", doc], cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("latency table", r.stderr)

    def test_every_goal_is_a_target_and_a_measurement(self):
        # Reviewers read results.json's targets without the report script:
        # each goal says what it aims at and what was measured, by those names.
        targets = json.loads(read("docs/bench/results.json"))["targets"]
        for key, entry in targets.items():
            self.assertIn("target", entry, "results.json target %s has no 'target'" % key)
            self.assertIn("measured", entry, "results.json target %s has no 'measured'" % key)


if __name__ == "__main__":
    unittest.main()


class ApiReference(unittest.TestCase):
    """docs/api.md is the public headers' comments, and every public function has one."""

    def test_api_md_is_the_headers(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "api-doc.py"), "--check",
                            os.path.join(ROOT, "docs", "api.md")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_an_undocumented_function_is_named(self):
        sys.path.insert(0, os.path.join(ROOT, "tools"))
        import importlib
        api = importlib.import_module("api-doc")
        with tempfile.NamedTemporaryFile("w", suffix=".h", delete=False) as f:
            f.write("/* A header. */\n#ifndef X_H\n#define X_H\n\n"
                    "/* Says what it promises. */\nint documented(int a);\n\n"
                    "unsigned long bare(void);\nstatic inline int helper_kept(void)\n{\n\treturn 0;\n}\n"
                    "static inline void __private(void) {}\n#endif\n")
        try:
            head, funcs = api.parse(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(head, "A header.")
        documented = {name: comment for name, _, comment, _ in funcs}
        self.assertEqual(documented["documented"], "Says what it promises.")
        self.assertIsNone(documented["bare"])
        self.assertIsNone(documented["helper_kept"])
        self.assertIn("__private", documented)


class UserGuideModelFigures(unittest.TestCase):
    """The user guide's figures of the emulator's PL080 are the model's constants."""

    def test_pl080_timing_is_the_models(self):
        src = read("tools/vivt-emu/hw/arm/pl080.c")
        setup = re.search(r"#define SETUP_NS\s+(\d+)", src).group(1)
        word = re.search(r"#define NS_PER_WORD\s+(\d+)", src).group(1)
        guide = re.sub(r"\s+", " ", read("docs/user-guide.md"))
        self.assertIn("(%s ns plus %s ns a word)" % (setup, word), guide)
