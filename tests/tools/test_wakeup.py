"""Tests of `lokal-latency wakeup`: a capture of the whole bench run cut
into its modes by the counts the console prints, each mode's figures and
the ratios from known answers, and every bad input stopped with one line."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from test_cyclic import capture as cyclic_capture

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "latency", "lokal-latency")


def run(*args):
    p = subprocess.run([sys.executable, TOOL, "wakeup"] + list(args), capture_output=True,
                       input=b"", timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def console(runs, p99=None):
    """The bench's lines: one 'wakeup run' after each mode, then the results."""
    lines = ["bench: wake-up latency"]
    lines += ["  wakeup run %s: %d wake-ups" % (m, n) for m, n in runs]
    for m, v in (p99 or {}).items():
        lines.append("  wakeup       %-40s %12.2f ns" % (m + " p99", v))
    return "\n".join(lines) + "\nmain: exit status 0\n"


def capture(delays, timer=True, gap=10000):
    """A VCD (test_cyclic's): for each (handler, thread) delay pair, a timer
    rise, the wake pin up at +handler and down at +thread; one every `gap` ns."""
    return cyclic_capture([(1000 + k * gap, h, t) for k, (h, t) in enumerate(delays)], timer)


class Wakeup(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        p = os.path.join(self.d, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_modes_cut_in_order_known_answers(self):
        # local: thread delays 300, 310, 400; dma: 300, 500; nomap: 290, 290.
        local = [(50, 300), (50, 310), (50, 400)]
        dma = [(200, 300), (60, 500)]
        nomap = [(50, 290), (50, 290)]
        log = self.write("log", console([("local", 3), ("dma", 2), ("nomap", 2)],
                                        {"local": 416.0, "dma": 500.0}))
        vcd = self.write("pins.vcd", capture(local + dma + nomap))
        out = os.path.join(self.d, "o.json")
        rc, so, se = run(log, "--pin", vcd, "--json", out)
        self.assertEqual(rc, 0, so + se)
        with open(out) as f:
            r = json.load(f)
        self.assertEqual(r["from"], "timer line")
        self.assertEqual([m for m in r["modes"]], ["local", "dma", "nomap"])
        self.assertEqual(r["modes"]["local"]["p99"], 400)
        self.assertEqual(r["modes"]["local"]["min"], 300)
        self.assertEqual(r["modes"]["local"]["firmware_p99"], 416.0)
        self.assertEqual(r["modes"]["dma"]["max"], 500)
        self.assertEqual(r["modes"]["nomap"]["count"], 2)
        self.assertEqual(r["ratios"]["dma/local"], 1.25)
        self.assertAlmostEqual(r["ratios"]["local/nomap"], 400 / 290, places=4)
        self.assertNotIn("atomic/local", r["ratios"])
        self.assertIn("p99 dma/local: 1.250", so)

    def test_the_delay_counts_the_wait_before_the_handler(self):
        # Same thread-side pulses, but the second mode's handler ran late:
        # timed from the timer line the difference shows.
        log = self.write("log", console([("local", 2), ("dma", 2)]))
        vcd = self.write("pins.vcd", capture([(50, 300), (50, 300), (250, 500), (250, 500)]))
        out = os.path.join(self.d, "o.json")
        rc, so, se = run(log, "--pin", vcd, "--json", out)
        self.assertEqual(rc, 0, so + se)
        with open(out) as f:
            self.assertEqual(json.load(f)["ratios"]["dma/local"], round(500 / 300, 4))

    def test_a_board_capture_without_a_timer_wire(self):
        log = self.write("log", console([("local", 2), ("dma", 2)]))
        vcd = self.write("pins.vcd", capture([(50, 300), (50, 300), (250, 500), (250, 550)], timer=False))
        out = os.path.join(self.d, "o.json")
        rc, so, se = run(log, "--pin", vcd, "--json", out)
        self.assertEqual(rc, 0, so + se)
        with open(out) as f:
            r = json.load(f)
        self.assertEqual(r["from"], "wake pulse")
        self.assertEqual(r["modes"]["dma"]["max"], 300)
        self.assertIn("the wake marker's rise", so)

    def test_what_the_slowest_waited_behind(self):
        # 300 wake-ups: 297 at 300 ns, three at 500; the p99 is 300. A dma
        # line rises 50 ns before the timer of the first slow one (its
        # handler still running), during the second's wake path, and 1000
        # ns (over one median) before the third's and just after it ran: that
        # one waited alone.
        delays = [(50, 300)] * 297 + [(50, 500)] * 3
        vcd = capture(delays)
        t0 = [1000 + k * 10000 for k in (297, 298, 299)]
        extra = [(t0[0] - 50, 1), (t0[0] + 20, 0), (t0[1] + 100, 1), (t0[1] + 120, 0),
                 (t0[2] - 1000, 1), (t0[2] - 980, 0), (t0[2] + 600, 1), (t0[2] + 620, 0)]
        head, body = vcd.split("$upscope $end\n", 1)
        head += "$var wire 1 $ dma $end\n$upscope $end\n"
        body = body.replace("$dumpvars\n", "$dumpvars\n0$\n", 1)
        changes, now = {}, None
        for ln in body.split("\n"):
            if ln.startswith("#"):
                now = int(ln[1:])
            elif now is not None and ln and ln[0] in "01":
                changes.setdefault(now, []).append(ln)
        for when, v in extra:
            changes.setdefault(when, []).append("%d$" % v)
        pre = body.split("$end\n", 2)
        text = head + pre[0] + "$end\n" + pre[1] + "$end\n" + "".join(
            "#%d\n%s\n" % (when, "\n".join(changes[when])) for when in sorted(changes))
        log = self.write("log", console([("dma", 300)]))
        out = os.path.join(self.d, "o.json")
        rc, so, se = run(log, "--pin", self.write("pins.vcd", text), "--json", out)
        self.assertEqual(rc, 0, so + se)
        with open(out) as f:
            tail = json.load(f)["modes"]["dma"]["above_p99"]
        self.assertEqual(tail, {"count": 3, "behind": {"dma": 2}, "alone": 1})
        self.assertIn("dma: 3 above its p99, behind dma 2, no other line 1; of all 300, dma beside 2", so)
        with open(out) as f:
            self.assertEqual(json.load(f)["modes"]["dma"]["beside"], {"dma": 2})

    def test_counts_that_do_not_match_the_capture(self):
        log = self.write("log", console([("local", 2), ("dma", 2)]))
        vcd = self.write("pins.vcd", capture([(50, 300)] * 3))
        rc, so, se = run(log, "--pin", vcd)
        self.assertEqual(rc, 2, so + se)
        self.assertEqual(len(se.strip().splitlines()), 1, se)
        self.assertIn("3 wake-ups", se)
        self.assertIn("add up to 4", se)

    def test_bad_inputs_one_line_status_2(self):
        good_vcd = self.write("pins.vcd", capture([(50, 300)] * 2))
        good_log = self.write("log", console([("local", 2)]))
        cases = [
            ("no run lines", [self.write("l1", "bench: nothing here\n"), "--pin", good_vcd], "no 'wakeup run"),
            ("a mode twice", [self.write("l2", console([("local", 1), ("local", 1)])), "--pin", good_vcd],
             "ran twice"),
            ("no such log", [os.path.join(self.d, "missing"), "--pin", good_vcd], "missing"),
            ("no --pin", [good_log], "--pin"),
            ("not a capture", [good_log, "--pin", self.write("junk", "\x00\x01garbage\n")], ""),
            ("no wake channel", [good_log, "--pin", self.write("nowake.vcd", capture([(50, 300)]).replace(
                "\" wake", "\" other"))], "wake"),
            ("json into a missing directory", [good_log, "--pin", good_vcd, "--json",
                                               os.path.join(self.d, "no", "dir.json")], "--json"),
        ]
        for what, args, says in cases:
            rc, so, se = run(*args)
            self.assertEqual(rc, 2, (what, so, se))
            self.assertEqual(len(se.strip().splitlines()), 1, (what, se))
            self.assertIn(says, se, what)


if __name__ == "__main__":
    unittest.main()
