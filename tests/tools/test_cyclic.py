"""Tests of `lokal-latency cyclic`: the firmware's report read back, the
pins' figures from a capture with known answers, whether the two agree,
and every bad input stopped with one line."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "tools", "latency", "lokal-latency")
HZ = 24000000


def run(*args):
    p = subprocess.run([sys.executable, TOOL, "cyclic"] + list(args), capture_output=True,
                       input=b"", timeout=120)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def load(path):
    with open(path) as f:
        return json.load(f)


def ns(ticks):
    return ticks * 10**9 // HZ


def report(handler, thread, calib_ticks=0):
    """The console lines make cyclic prints for samples in counter ticks."""
    lines = ["boot noise", "cyclic: 3 periods of 200 us (armed 200..300 us ahead), load: none",
             "cyclic: counter %d Hz; one counter read, %d ns, is subtracted from each sample"
             % (HZ, ns(calib_ticks)),
             "cyclic: histogram: a bucket per counter tick, 41.66 ns; the last is every sample "
             "from 3958 ns on",
             "cyclic-hist: %8s %10s %10s" % ("ns", "handler", "thread")]
    for b in sorted(set(handler) | set(thread)):
        lines.append("cyclic-hist: %8d %10d %10d" % (ns(b), handler.count(b), thread.count(b)))
    wake = [t - h for h, t in zip(handler, thread)]
    for name, s in (("handler", handler), ("thread", thread), ("wake", wake)):
        lines.append("cyclic: %-8s min %6d avg %6d max %6d ns over %d periods"
                     % (name, ns(min(s)), ns(sum(s)) // len(s), ns(max(s)), len(s)))
    return "\n".join(lines) + "\nmain: exit status 0\n"


def capture(periods, timer=True):
    """A VCD of the timer line and the wake pin: (timer rise, handler, thread) in ns."""
    head = ["$timescale 1 ns $end", "$scope module vivt_emu $end",
            "$var wire 1 ! switch $end", "$var wire 1 \" wake $end"] + \
        (["$var wire 1 # timer $end"] if timer else []) + \
        ["$upscope $end", "$enddefinitions $end", "#0", "$dumpvars", "0!", "0\""] + \
        (["0#"] if timer else []) + ["$end"]
    edges = []
    for t0, h, t in periods:
        edges += [(t0, "1#"), (t0 + h, "1\""), (t0 + h + 5, "0#"), (t0 + t, "0\"")]
    if not timer:
        edges = [e for e in edges if not e[1].endswith("#")]
    for when, what in sorted(edges):
        head += ["#%d" % when, what]
    return "\n".join(head) + "\n"


class Cyclic(unittest.TestCase):
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

    def test_firmware_report_read_back(self):
        log = self.write("log", report([2, 1, 5], [5, 4, 9]))
        out = os.path.join(self.d, "r.json")
        rc, so, se = run(log, "--json", out)
        self.assertEqual(rc, 0, se)
        r = load(out)["firmware"]
        self.assertEqual(r["handler"], {"min": 41, "avg": 111, "max": 208, "count": 3})
        self.assertEqual(r["thread"]["max"], ns(9))
        self.assertIn("firmware thread", so)

    def test_pins_known_answers_and_agreement(self):
        log = self.write("log", report([2, 1, 5], [5, 4, 9]))
        vcd = self.write("pins.vcd", capture([(1000, 90, 210), (5000, 50, 170), (9000, 210, 380)]))
        out = os.path.join(self.d, "r.json")
        rc, so, se = run(log, "--pin", vcd, "--json", out)
        self.assertEqual(rc, 0, so + se)
        r = load(out)
        self.assertEqual(r["pin"]["handler"], {"count": 3, "min": 50, "avg": 116, "max": 210})
        self.assertEqual(r["pin"]["thread"], {"count": 3, "min": 170, "avg": 253, "max": 380})
        self.assertEqual(r["pin"]["wake"], {"count": 3, "min": 120, "avg": 136, "max": 170})
        self.assertEqual(r["agree"], {"handler": True, "thread": True, "wake": True})

    def test_wake_pin_alone_a_board_capture(self):
        # No timer wire: the wake pulses (handler to thread) against the firmware's.
        log = self.write("log", report([2, 1, 5], [5, 4, 9]))
        vcd = self.write("pins.vcd", capture([(1000, 90, 210), (5000, 50, 170), (9000, 210, 380)],
                                             timer=False))
        out = os.path.join(self.d, "r.json")
        rc, so, se = run(log, "--pin", vcd, "--json", out)
        self.assertEqual(rc, 0, so + se)
        self.assertIn("no timer wire", so)
        self.assertEqual(load(out)["agree"], {"wake": True})
        vcd = self.write("pins.vcd", capture([(1000, 90, 210), (5000, 50, 170), (9000, 210, 780)],
                                             timer=False))
        rc, so, se = run(log, "--pin", vcd)
        self.assertEqual(rc, 1, so + se)
        self.assertIn("wake max: firmware - pin = -404 ns (DISAGREE", so)

    def test_disagreement_fails(self):
        # The pin's thread maximum 300 ns beyond the firmware's: status 1, named.
        log = self.write("log", report([2, 1, 5], [5, 4, 9]))
        vcd = self.write("pins.vcd", capture([(1000, 90, 210), (5000, 50, 170), (9000, 210, 680)]))
        rc, so, se = run(log, "--pin", vcd)
        self.assertEqual(rc, 1, so + se)
        self.assertIn("thread max: firmware - pin = -305 ns (DISAGREE", so)

    def test_period_count_must_match(self):
        log = self.write("log", report([2, 1, 5], [5, 4, 9]))
        vcd = self.write("pins.vcd", capture([(1000, 90, 210), (5000, 50, 170)]))
        rc, so, se = run(log, "--pin", vcd)
        self.assertEqual(rc, 1)
        self.assertIn("the periods differ: firmware 3", so)

    def test_a_pulse_past_the_next_expiry_is_not_that_period(self):
        # The second period's wake pulse never falls before the third
        # expiry: only two periods are closed by the pins.
        vcd = self.write("pins.vcd", capture([(1000, 90, 210), (5000, 50, 4500), (9000, 10, 20)])
                         .replace("#9500\n0\"\n", ""))
        log = self.write("log", report([2, 1], [5, 4]))
        out = os.path.join(self.d, "r.json")
        rc, so, se = run(log, "--pin", vcd, "--json", out)
        self.assertEqual(rc, 1, se)             # two periods logged, one closed
        self.assertEqual(load(out)["pin"]["handler"], {"count": 1, "min": 90, "avg": 90, "max": 90})

    def test_bad_inputs_one_line_status_2(self):
        good = report([2, 1, 5], [5, 4, 9])
        cases = {
            "no report": "boot\nmain: exit status 0\n",
            "cut off": good.split("cyclic: thread")[0],
            "rows that do not add up": good.replace("cyclic: handler  min", "cyclic-hist: 9999 7 0\ncyclic: handler  min", 1),
        }
        for what, text in cases.items():
            rc, so, se = run(self.write("log", text))
            self.assertEqual(rc, 2, what)
            self.assertEqual(len(se.strip().splitlines()), 1, (what, se))
        log = self.write("log", good)
        for args, says in (((log, "--pin", self.write("x.vcd", "$timescale 1 ns $end\n$scope module m $end\n$var wire 1 ! sw $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n#5\n1!\n")), "needs a 'wake'"),
                           ((log, "--pin", self.write("y.vcd", "$timescale 1 ns $end\n$scope module m $end\n$var wire 1 ! wake $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n#5\n1!\n")), "no wake pulse"),
                           ((log, "--plot", os.path.join(self.d, "no", "x.png")), "does not exist"),
                           ((os.path.join(self.d, "missing.log"),), "missing.log"),
                           ((log, "--bogus"), "unrecognized")):
            rc, so, se = run(*args)
            self.assertEqual(rc, 2, args)
            self.assertIn(says, se)
            self.assertEqual(len(se.strip().splitlines()), 1, se)


if __name__ == "__main__":
    unittest.main()
