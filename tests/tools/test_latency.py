"""Tests of tools/latency/lokal-latency: hand-made captures with known
answers, trace dumps inside console logs, generated captures, errors."""
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "latency", "lokal-latency")


def run(*args, stdin=None):
    """The tool's status and output; stdin (bytes) is piped in, else none."""
    p = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True,
                       input=stdin if stdin is not None else b"", timeout=120)
    p.stdout, p.stderr = p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")
    return p


def stats_of(*args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        p = run(*args, "--json", out)
        if p.returncode != 0:
            raise AssertionError("tool failed: %s" % p.stderr)
        return json.load(open(out))


def stats_of_text(text, *args, name="input"):
    """stats_of() on a file holding text."""
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, name)
        open(p, "w").write(text)
        return stats_of(p, *args)


def dump(label, edges, hz=24000000):
    """A firmware-style framed trace dump from (ticks, signal, value) edges."""
    lines = ["--- lokal-trace-vcd begin ---",
             '$comment lokal trace "%s": %d events; counter %d Hz $end' % (label, len(edges), hz),
             "$timescale 1 ns $end", "$scope module lokal $end",
             "$var wire 1 s switch $end", "$var wire 1 w wake $end",
             "$var integer 8 k kmaps $end", "$upscope $end", "$enddefinitions $end",
             "#0", "$dumpvars", "0s", "0w", "b0 k", "$end"]
    for ticks, sig, val in sorted(edges):
        lines.append("#%d" % ((ticks * 10**9 + hz // 2) // hz))
        lines.append("b%s k" % bin(val)[2:] if sig == "k" else "%d%s" % (val, sig))
    lines.append("--- lokal-trace-vcd end ---")
    return "\n".join(lines) + "\n"


class HandMade(unittest.TestCase):
    def test_vcd_known_pulses(self):
        r = stats_of(os.path.join(HERE, "handmade.vcd"))["inputs"][0]
        self.assertEqual(r["switch"], {"count": 3, "min": 100, "median": 200, "p90": 300,
                                       "p99": 300, "max": 300})
        self.assertEqual(r["wake"], {"count": 2, "min": 1000, "median": 1000, "p90": 3000,
                                     "p99": 3000, "max": 3000})

    def test_sigrok_csv_by_channel_option(self):
        r = stats_of(os.path.join(HERE, "handmade.csv"), "--switch", "D0", "--wake", "D1")
        r = r["inputs"][0]
        self.assertEqual(r["switch"]["count"], 2)
        self.assertAlmostEqual(r["switch"]["min"], 100, places=6)
        self.assertAlmostEqual(r["switch"]["max"], 300, places=6)
        self.assertEqual(r["wake"]["count"], 1)
        self.assertAlmostEqual(r["wake"]["max"], 500, places=6)

    def test_pulses_cut_by_the_capture_are_left_out(self):
        # high at the first sample (start unknown) and at the last (no end)
        r = stats_of_text("switch\n1\n1\n0\n1\n0\n0\n1\n", "--samplerate", "1m")
        self.assertEqual(r["inputs"][0]["switch"]["count"], 1)
        self.assertAlmostEqual(r["inputs"][0]["switch"]["max"], 1000, places=6)

    def test_csv_samplerate_option_when_header_lacks_it(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.csv")
            open(p, "w").write("switch\n0\n1\n1\n0\n")
            r = stats_of(p, "--samplerate", "1m")["inputs"][0]
            self.assertAlmostEqual(r["switch"]["max"], 2000, places=6)
            self.assertNotEqual(run(p).returncode, 0)   # no rate at all: refused


class TraceDumps(unittest.TestCase):
    def test_widths_come_back_as_firmware_ticks(self):
        # 7 ticks = 291.67 ns: edges print as 0 and 292 ns, the width is
        # reported as the firmware computes it, floor(7 * 1e9 / 24e6) = 291.
        text = dump("t", [(0, "w", 1), (7, "w", 0), (100, "w", 1), (133, "w", 0)])
        r = stats_of_text(text)["inputs"][0]
        self.assertEqual(r["wake"]["min"], 291)
        self.assertEqual(r["wake"]["max"], 1375)

    def test_console_log_with_two_dumps(self):
        log = ("boot banner\nsome output\n" + dump("kmap_atomic", [(0, "w", 1), (2400, "w", 0)])
               + "between\n" + dump("kmap_local", [(0, "w", 1), (24, "w", 0)]) + "main: exit status 0\n")
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "console.log")
            open(p, "w").write(log)
            self.assertEqual(stats_of(p, "--trace", "kmap_local")["inputs"][0]["wake"]["max"], 1000)
            self.assertEqual(stats_of(p, "--trace", "kmap_atomic")["inputs"][0]["wake"]["max"], 100000)
            amb = run(p)
            self.assertEqual(amb.returncode, 2)
            self.assertIn("--trace", amb.stderr)

    def test_two_dumps_with_the_same_label(self):
        # Two runs of the same command print two dumps labelled alike:
        # neither is picked silently; LABEL#N says which one.
        log = (dump("shell", [(0, "w", 1), (24, "w", 0)]) + "lokal> trace dump\n"
               + dump("shell", [(0, "w", 1), (48, "w", 0)])
               + dump("other", [(0, "w", 1), (72, "w", 0)]))
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "console.log")
            open(p, "w").write(log)
            r = run(p, "--trace", "shell")
            self.assertEqual(r.returncode, 2)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
            self.assertIn("holds 2 trace dumps labelled 'shell': say which with --trace "
                          "shell#1 ... shell#2", r.stderr)
            r = run(p)
            self.assertEqual(r.returncode, 2)
            self.assertIn("more than one is labelled 'shell'", r.stderr)
            self.assertIn("no 'shell#3'", run(p, "--trace", "shell#3").stderr)
            for label, width in (("shell#1", 1000), ("shell#2", 2000), ("other", 3000)):
                r = stats_of(p, "--trace", label)["inputs"][0]
                self.assertEqual(r["wake"]["max"], width, label)
                self.assertTrue(r["input"].endswith("[%s]" % label), r["input"])

    def test_dump_after_a_long_log(self):
        # The tool tells a log from a CSV by content; the dump may come late.
        log = "boot line\n" * 20000 + dump("late", [(0, "w", 1), (48, "w", 0)])
        self.assertEqual(stats_of_text(log)["inputs"][0]["wake"]["max"], 2000)

    def test_switch_width_by_kmaps(self):
        edges = []
        for n, k in enumerate([0, 2, 2, 4]):
            t = 1000 * n
            edges += [(t, "s", 1), (t + 10 + 5 * k, "k", k), (t + 10 + 5 * k, "s", 0)]
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.vcd")
            open(p, "w").write(dump("t", edges))
            r = stats_of(p)["inputs"][0]
            png = os.path.join(d, "sw.png")
            self.assertEqual(run(p, "--plot-switch-vs-maps", png).returncode, 0)
            self.assertEqual(open(png, "rb").read(8), b"\x89PNG\r\n\x1a\n")
        self.assertEqual(sorted(r["switch_by_kmaps"]), ["0", "2", "4"])
        self.assertEqual(r["switch_by_kmaps"]["2"]["count"], 2)
        self.assertEqual(r["switch_by_kmaps"]["4"]["max"], 30 * 10**9 // 24000000)


class GeneratedCapture(unittest.TestCase):
    def test_round_trip_within_one_sample(self):
        edges = []
        t = 0
        for n in range(200):                    # assorted widths, 11..1011 ticks
            w = 11 + (n * 37) % 1000
            edges += [(t, "w", 1), (t + w, "w", 0), (t + 5, "s", 1), (t + 9 + n % 7, "s", 0)]
            t += 2000
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "trace.vcd")
            open(src, "w").write(dump("t", edges))
            ref = stats_of(src)["inputs"][0]
            for ext, rate, period in (("vcd", "24m", 1e9 / 24e6), ("csv", "12m", 1e9 / 12e6)):
                out = os.path.join(d, "cap." + ext)
                p = run("gen-capture", src, "--samplerate", rate, "-o", out)
                self.assertEqual(p.returncode, 0, p.stderr)
                got = stats_of(out)["inputs"][0]
                for sig in ("wake", "switch"):
                    self.assertEqual(got[sig]["count"], ref[sig]["count"])
                    for key in ("min", "median", "p99", "max"):
                        # one sample, plus whole-ns rounding of the capture's times
                        self.assertLessEqual(abs(got[sig][key] - ref[sig][key]), period + 1,
                                             "%s %s %s" % (ext, sig, key))


class Compare(unittest.TestCase):
    def test_p99_ratio_and_cdf_plot(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.vcd"), os.path.join(d, "b.vcd")
            open(a, "w").write(dump("a", [e for n in range(100) for e in
                                          ((n * 5000, "w", 1), (n * 5000 + 2400, "w", 0))]))
            open(b, "w").write(dump("b", [e for n in range(100) for e in
                                          ((n * 5000, "w", 1), (n * 5000 + 120, "w", 0))]))
            png, js = os.path.join(d, "cdf.png"), os.path.join(d, "c.json")
            p = run("--compare", a, b, "--labels", "atomic,local", "--json", js, "--plot", png)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertAlmostEqual(json.load(open(js))["p99_ratio_b_over_a"], 0.05)
            self.assertIn("1/20.00", p.stdout)
            self.assertEqual(open(png, "rb").read(8), b"\x89PNG\r\n\x1a\n")

    def test_inputs_with_the_same_label_refused(self):
        # Same file names in two folders, or --labels naming both alike:
        # the legend and the ratio line could not tell them apart.
        with tempfile.TemporaryDirectory() as d:
            for sub in ("x", "y"):
                os.mkdir(os.path.join(d, sub))
                open(os.path.join(d, sub, "t.vcd"), "w").write(
                    dump(sub, [(0, "w", 1), (24, "w", 0)]))
            a, b = os.path.join(d, "x", "t.vcd"), os.path.join(d, "y", "t.vcd")
            png = os.path.join(d, "cdf.png")
            for args in ([], ["--labels", "one,one"]):
                r = run("--compare", a, b, "--plot", png, *args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
                self.assertIn("both inputs are labelled %r" % ("one" if args else "t.vcd"),
                              r.stderr)
                self.assertEqual(r.stdout, "")
            self.assertFalse(os.path.exists(png))
            self.assertEqual(run("--compare", a, b, "--labels", "x,y").returncode, 0)


def undocumented(help_text):
    """The arguments argparse's --help lists without a help line."""
    lines = help_text.splitlines()
    bare, listing = [], False
    for i, line in enumerate(lines):
        if line and not line.startswith(" "):
            listing = line in ("positional arguments:", "options:", "optional arguments:")
            continue
        if not listing or not re.match(r"  \S", line):
            continue
        entry = line.strip()
        # help on the same line, after two or more spaces, or on the next, indented
        if not re.search(r"\S {2,}\S", entry) and not (
                i + 1 < len(lines) and re.match(r" {6,}\S", lines[i + 1])):
            bare.append(entry)
    return bare


class CommandLine(unittest.TestCase):
    def one_line_error(self, r, needle):
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertNotIn("internal error", r.stderr)
        self.assertIn(needle, r.stderr)

    def test_dash_reads_standard_input(self):
        for f, args in (("handmade.vcd", []), ("sigrok-default.sr", []),
                        ("sigrok-default.csv", []), ("handmade.csv", ["--switch", "D0"])):
            with self.subTest(f=f):
                path = os.path.join(HERE, f)
                data = open(path, "rb").read()
                r = run("-", *args, stdin=data)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout.splitlines()[0], "<stdin>")
                self.assertEqual(r.stdout.splitlines()[1:], run(path, *args).stdout.splitlines()[1:])
        log = "boot\n" + dump("t", [(0, "w", 1), (24, "w", 0)])
        r = run("-", "--trace", "t", stdin=log.encode())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("<stdin> [t]", r.stdout)

    def test_dash_in_compare_and_gen_capture(self):
        vcd = open(os.path.join(HERE, "handmade.vcd"), "rb").read()
        r = run("--compare", "-", os.path.join(HERE, "handmade.vcd"), stdin=vcd)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("wake p99 handmade.vcd/stdin = 1.0000", r.stdout)
        self.one_line_error(run("--compare", "-", "-", stdin=vcd), "can be read only once")
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "c.vcd")
            r = run("gen-capture", "-", "--samplerate", "1g", "-o", out, stdin=vcd)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(stats_of(out)["inputs"][0]["wake"]["max"], 3000)

    def test_dash_with_undeterminable_input(self):
        self.one_line_error(run("-", stdin=b""), "<stdin>: standard input is empty")
        r = run("-", stdin=b"hello world\n")
        self.one_line_error(r, "<stdin>: no samples")
        self.assertIn("nor any other format this tool reads", r.stderr)
        self.one_line_error(run("-", stdin=bytes(range(256)) * 4), "<stdin>: binary data")

    def test_help_names_every_argument_and_subcommand(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(undocumented(r.stdout), [])
        self.assertRegex(r.stdout, r"\n  gen-capture IN --samplerate RATE -o OUT\n +write what")
        for option in ("FILE", "--compare", "--json", "--labels", "--plot"):
            self.assertIn(option, r.stdout)
        r = run("gen-capture", "--help")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(undocumented(r.stdout), [])
        self.assertIn("--samplerate RATE", r.stdout)

    def test_undocumented_finds_a_bare_argument(self):
        # the check above must be able to fail
        self.assertEqual(undocumented("usage: x\n\npositional arguments:\n  input\n\n"
                                      "options:\n  -h, --help  show this\n  --json JSON\n"
                                      "  --plot PLOT\n                 PNG\n"),
                         ["input", "--json JSON"])

    def test_output_in_a_missing_folder_refused_before_any_work(self):
        vcd = os.path.join(HERE, "handmade.vcd")
        with tempfile.TemporaryDirectory() as d:
            gone = os.path.join(d, "no-such-folder")
            for option in ("--plot", "--json", "--plot-switch-vs-maps"):
                with self.subTest(option=option):
                    r = run(vcd, option, os.path.join(gone, "x.png"))
                    self.one_line_error(r, "%s %s/x.png: folder %s does not exist"
                                        % (option, gone, gone))
                    self.assertEqual(r.stdout, "")      # no report: nothing was read
            r = run("gen-capture", vcd, "--samplerate", "1m", "-o", os.path.join(gone, "c.vcd"))
            self.one_line_error(r, "folder %s does not exist" % gone)
            self.one_line_error(run(vcd, "--plot", d), "that is a folder")
            self.one_line_error(run(vcd, "--json", ""), "--json: an empty file name")
            self.assertFalse(os.path.exists(gone))

    def test_gnuplot_failure_is_one_line(self):
        # gnuplot's own error is three lines, and a PNG it cannot place goes
        # to stdout: neither reaches the user, the gist does.
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "gnuplot")
            open(fake, "w").write("#!/bin/sh\necho 'PNG bytes'\necho >&2\necho 'gnuplot> set "
                                  "output' >&2\necho '   line 0: cannot open file' >&2\nexit 1\n")
            os.chmod(fake, 0o755)
            env = dict(os.environ, PATH=d + os.pathsep + os.environ["PATH"])
            r = subprocess.run([sys.executable, TOOL, os.path.join(HERE, "handmade.vcd"), "--plot",
                                os.path.join(d, "x.png")], capture_output=True, text=True, env=env)
        self.one_line_error(r, "gnuplot failed (status 1): line 0: cannot open file")
        self.assertNotIn("PNG bytes", r.stdout)


class Malformed(unittest.TestCase):
    def check_refused(self, text, needle, *args):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "bad")
            open(p, "w").write(text)
            r = run(p, *args)
        self.assertEqual(r.returncode, 2)
        self.assertIn(needle, r.stderr)

    def test_garbage(self):
        self.check_refused("hello world\n", "no samples: not a sigrok CSV")

    def test_vcd_time_going_backwards(self):
        self.check_refused("$timescale 1 ns $end $var wire 1 ! switch $end $enddefinitions $end "
                           "#10 1! #5 0!\n", "time goes backwards")

    def test_vcd_undeclared_id(self):
        self.check_refused("$timescale 1 ns $end $var wire 1 ! switch $end $enddefinitions $end "
                           "#10 1?\n", "undeclared id")

    def test_csv_bad_value(self):
        self.check_refused("; Samplerate: 1 MHz\nD0\n0\n2\n", "not 0 or 1", "--switch", "D0")

    def test_missing_channel(self):
        # neither a name nor the marker pins' D0 (D0 alone is read as switch)
        self.check_refused("; Samplerate: 1 MHz\nD3\n0\n1\n", "neither")

    def test_dump_cut_short(self):
        text = dump("t", [(0, "w", 1), (7, "w", 0)]).replace("--- lokal-trace-vcd end ---\n", "")
        self.check_refused("boot\n" + text, "never ends")

    def test_missing_file(self):
        r = run("/nonexistent/capture.vcd")
        self.assertEqual(r.returncode, 2)
        self.assertIn("No such file", r.stderr)


if __name__ == "__main__":
    unittest.main()
