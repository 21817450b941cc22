"""lokal-latency on input at the edges of what it reads: sample rates no
logic analyzer has (from the command line or from a file's header), a
--trace asked of a file without a dump, timestamps beyond 2^53 ns, a
session channel outside its samples, and a channel that never changes."""
import os
import subprocess
import sys
import tempfile
import unittest
import zipfile

from test_latency import HERE, TOOL, dump, stats_of, stats_of_text

# Every way a rate can be absurd: infinite (also as a huge number), zero,
# sub-hertz, and far beyond any logic analyzer.
BAD_RATES = ["inf", "1e400", "0", "0.5", "1e15", "2000g"]


def run(*args):
    # An infinite rate used to hang the tool: a hang must fail, not stall.
    try:
        return subprocess.run([sys.executable, TOOL] + list(args), capture_output=True,
                              text=True, timeout=30)
    except subprocess.TimeoutExpired:
        raise AssertionError("lokal-latency %s hung" % " ".join(args))


def session(path, samplerate="1 MHz", probes=("switch", "wake"), total=8, unitsize=1,
            samples=b"\x00\x01\x01\x00\x02\x02\x00", chunks=None):
    """A minimal sigrok session file (.sr), as srzip.c writes it; chunks
    ({name: bytes}) replaces the one logic-1-1 chunk of samples."""
    meta = "[global]\nsigrok version=0.5.2\n\n[device 1]\ncapturefile=logic-1\n"
    meta += "total probes=%d\n" % total
    if samplerate is not None:
        meta += "samplerate=%s\n" % samplerate
    for n, name in enumerate(probes, 1):
        if name:
            meta += "probe%d=%s\n" % (n, name)
    meta += "unitsize=%d\n" % unitsize
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("version", "2")
        z.writestr("metadata", meta)
        for name, data in (chunks or {"logic-1-1": samples}).items():
            z.writestr(name, data)


class Checked(unittest.TestCase):
    def refused(self, r, needle):
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertNotIn("internal error", r.stderr)
        self.assertIn(needle, r.stderr)


def stats_of_text_path(path):
    """The first input's figures of the tool on path."""
    return stats_of(path)["inputs"][0]


class SampleRates(Checked):
    def test_command_line_rates(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.csv")
            open(p, "w").write("switch\n0\n1\n1\n0\n")
            for rate in BAD_RATES:
                with self.subTest(rate=rate):
                    r = run(p, "--samplerate", rate)
                    self.refused(r, "--samplerate")
                    self.assertIn("sample rate", r.stderr)

    def test_csv_header_rates(self):
        for rate in ("inf Hz", "1e400 Hz", "0 Hz", "0.5 Hz", "1000 GHz"):
            with self.subTest(rate=rate), tempfile.TemporaryDirectory() as d:
                p = os.path.join(d, "c.csv")
                open(p, "w").write("; Samplerate: %s\nswitch\n0\n1\n1\n0\n" % rate)
                self.refused(run(p), "Samplerate")

    def test_session_rates(self):
        for rate in ("1e400 Hz", "0 Hz", "0.5 Hz", "1000 GHz"):
            with self.subTest(rate=rate), tempfile.TemporaryDirectory() as d:
                p = os.path.join(d, "c.sr")
                session(p, samplerate=rate)
                self.refused(run(p), "samplerate")

    def test_vcd_comment_rates(self):
        for rate in ("9" * 400 + " Hz", "0 Hz", "0.5 Hz", "1000 GHz"):
            with self.subTest(rate=rate[:8]):
                text = ("$comment\n  Acquisition with 1/8 channels at %s\n$end\n"
                        "$timescale 1 ns $end $var wire 1 ! switch $end $enddefinitions $end\n"
                        "#0 0! #10 1! #20 0!\n" % rate)
                with tempfile.TemporaryDirectory() as d:
                    p = os.path.join(d, "c.vcd")
                    open(p, "w").write(text)
                    self.refused(run(p), "rate")

    def test_trace_counter_rates(self):
        for hz in (0, 10**400):
            with self.subTest(hz=str(hz)[:8]), tempfile.TemporaryDirectory() as d:
                p = os.path.join(d, "t.log")
                open(p, "w").write(dump("t", [(0, "w", 1), (7, "w", 0)], hz=24000000)
                                   .replace("counter 24000000 Hz", "counter %d Hz" % hz))
                self.refused(run(p), "counter")

    def test_gen_capture_rates(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "o.vcd")
            for rate in BAD_RATES:
                with self.subTest(rate=rate):
                    self.refused(run("gen-capture", os.path.join(HERE, "handmade.vcd"),
                                     "--samplerate", rate, "-o", out), "--samplerate")
            self.assertFalse(os.path.exists(out))

    def test_rates_at_the_limits_are_fine(self):
        for rate in ("1", "10g"):
            r = stats_of_text("switch\n0\n1\n1\n0\n", "--samplerate", rate, name="c.csv")
            self.assertEqual(r["inputs"][0]["switch"]["count"], 1)


class GenCaptureSize(Checked):
    def test_csv_that_would_be_huge_refused_up_front(self):
        # 10 ms of trace at 10 GHz: 10^8 rows, 400 MB; 100 ms would be 4 GB.
        with tempfile.TemporaryDirectory() as d:
            src, out = os.path.join(d, "t.vcd"), os.path.join(d, "c.csv")
            open(src, "w").write(dump("t", [(0, "w", 1), (24, "w", 0),
                                            (2400000, "w", 1), (2400024, "w", 0)]))
            r = run("gen-capture", src, "--samplerate", "10g", "-o", out)
            self.refused(r, "the CSV would be 4 GB (1000010003 samples at 10 GHz, one row each)")
            self.assertIn("write a VCD instead (-o %s.vcd)" % out[:-4], r.stderr)
            self.assertFalse(os.path.exists(out))
            vcd = os.path.join(d, "c.vcd")
            self.assertEqual(run("gen-capture", src, "--samplerate", "10g", "-o", vcd).returncode, 0)
            self.assertLess(os.path.getsize(vcd), 1000)
            self.assertEqual(run("gen-capture", src, "--samplerate", "10k", "-o", out).returncode, 0)
            self.assertLess(os.path.getsize(out), 10**4)

    def test_trace_without_edges(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "t.vcd")
            open(src, "w").write("$timescale 1 ns $end $var wire 1 ! wake $end "
                                 "$enddefinitions $end\n")
            self.refused(run("gen-capture", src, "--samplerate", "1m", "-o",
                             os.path.join(d, "c.vcd")), "no switch or wake signal to capture")


class TraceOption(Checked):
    def test_log_without_a_dump(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "console.log")
            open(p, "w").write("lokal: boot\nlokal> bench wakeup\nwakeup: done\n")
            r = run(p, "--trace", "kmap_local")
        self.refused(r, "no trace dump in this file")
        self.assertNotIn("sample rate", r.stderr)

    def test_plain_vcd_is_not_a_log(self):
        # --trace on a VCD on its own used to be ignored without a word
        self.refused(run(os.path.join(HERE, "handmade.vcd"), "--trace", "kmap_local"),
                     "a VCD that is no trace dump, so no trace 'kmap_local' to pick")
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "t.vcd")
            text = dump("t", [(0, "w", 1), (7, "w", 0)]).splitlines()
            open(p, "w").write("\n".join(text[1:-1]) + "\n")     # unframed
            self.refused(run(p, "--trace", "u"), "a VCD of trace 't', so no trace 'u' to pick")
            self.assertEqual(stats_of(p, "--trace", "t")["inputs"][0]["wake"]["max"], 291)

    def test_unknown_label_lists_the_dumps(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "console.log")
            open(p, "w").write(dump("no-map", [(0, "w", 1), (7, "w", 0)]))
            self.refused(run(p, "--trace", "kmap_local"), "it holds no-map")


class LargeTimes(unittest.TestCase):
    def test_ns_timestamps_beyond_2_to_the_53(self):
        t = 2**53 + 1           # the first integer a float cannot hold
        r = stats_of_text("$timescale 1 ns $end $var wire 1 ! switch $end $enddefinitions $end\n"
                          "#0 0! #%d 1! #%d 0! #%d 1! #%d 0!\n" % (t, t + 7, 2**60, 2**60 + 3),
                          name="big.vcd")["inputs"][0]
        self.assertEqual((r["switch"]["min"], r["switch"]["max"]), (3, 7))

    def test_ps_timestamps_beyond_2_to_the_53_ns(self):
        t = (2**53 + 1) * 1000 + 1
        r = stats_of_text("$timescale 1 ps $end $var wire 1 ! wake $end $enddefinitions $end\n"
                          "#0 0! #%d 1! #%d 0!\n" % (t, t + 1500), name="big.vcd")["inputs"][0]
        self.assertEqual(r["wake"]["max"], 1.5)

    def test_trace_dump_ticks_beyond_2_to_the_53_ns(self):
        # 7 ticks of 24 MHz, 2^56 ticks (about 95 years) after the first event
        base = 2**56
        r = stats_of_text(dump("t", [(0, "w", 1), (1, "w", 0), (base, "w", 1),
                                     (base + 7, "w", 0)]), name="t.log")["inputs"][0]
        self.assertEqual((r["wake"]["min"], r["wake"]["max"]), (41, 291))


def table_row(stdout, signal):
    """The ns and us rows of signal in the printed report, as cells."""
    lines = stdout.splitlines()
    i = next(n for n, ln in enumerate(lines) if ln.split()[:1] == [signal])
    return lines[i].split()[2:], lines[i + 1].split()[:-1]


class ShortPulses(Checked):
    """A pulse shorter than the input can time is never reported as 0."""
    VCD_1NS = ("$timescale 1 ns $end $var wire 1 ! wake $end $enddefinitions $end\n"
               "#0 0! #100 1! 0! #200 1! #205 0! #300 1! #305 0!\n")

    def tool(self, text, *args, name="in.vcd"):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, name)
            open(p, "w").write(text)
            r = run(p, *args)
            self.assertEqual(r.returncode, 0, r.stderr)
            return r, stats_of(p)["inputs"][0]

    def test_both_edges_in_one_1ns_step(self):
        r, js = self.tool(self.VCD_1NS)
        ns, us = table_row(r.stdout, "wake")
        self.assertEqual(ns, ["<1", "5", "5", "5", "5"])
        self.assertEqual(us, ["<0.001", "0.005", "0.005", "0.005", "0.005"])
        self.assertIn("1 pulse shorter than the input can time, shown as <1", r.stdout)
        self.assertEqual(js["wake"]["min"], "<1 ns")
        self.assertEqual((js["wake"]["median"], js["wake"]["below_resolution"]), (5, 1))
        self.assertEqual(js["resolution_ns"], 1)

    def test_sub_ns_widths_of_a_ps_vcd_keep_their_decimals(self):
        r, js = self.tool("$timescale 1 ps $end $var wire 1 ! wake $end $enddefinitions $end\n"
                          "#0 0! #100 1! #400 0! #2000 1! #3500 0!\n")
        ns, us = table_row(r.stdout, "wake")
        self.assertEqual(ns, ["0.300", "0.300", "1.500", "1.500", "1.500"])
        self.assertEqual(us[0], "0.000300")
        self.assertEqual(js["wake"]["min"], 0.3)
        self.assertNotIn("below_resolution", js["wake"])

    def test_trace_dump_pulse_within_one_tick(self):
        # rise and fall printed at one time: within one 24 MHz tick
        text = dump("t", [(10, "w", 1), (17, "w", 0)]).replace(
            "--- lokal-trace-vcd end", "#2000\n1w\n0w\n--- lokal-trace-vcd end")
        r, js = self.tool(text, name="t.log")
        self.assertEqual(table_row(r.stdout, "wake")[0][0], "<41.67")
        self.assertEqual(js["wake"]["min"], "<41.67 ns")
        self.assertEqual(js["wake"]["max"], 291)

    def test_counter_faster_than_1ghz(self):
        # one tick of a 4 GHz counter is 0.25 ns: whole ns, as the firmware
        # computes them, make it 0, which is below 1 ns and said so
        r, js = self.tool(dump("t", [(0, "w", 1), (1, "w", 0), (100, "w", 1), (108, "w", 0)],
                               hz=4 * 10**9), name="t.log")
        self.assertEqual(js["wake"]["min"], "<1 ns")
        self.assertEqual(js["wake"]["max"], 2)

    def test_compare_and_plot_say_why_there_is_no_figure(self):
        with tempfile.TemporaryDirectory() as d:
            a, b = os.path.join(d, "a.vcd"), os.path.join(d, "b.vcd")
            open(a, "w").write(self.VCD_1NS)
            open(b, "w").write("$timescale 1 ns $end $var wire 1 ! wake $end $enddefinitions $end"
                               "\n#0 0! #100 1! 0! #200 1! 0!\n")
            r = run("--compare", a, b)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("wake p99 b.vcd/a.vcd: no ratio, the p99 of b.vcd is shorter than the "
                          "input can time (<1 ns)", r.stdout)
            self.refused(run(b, "--plot", os.path.join(d, "x.png")),
                         "every wake pulse is shorter than the input can time (<1 ns)")
            r = run(a, "--plot", os.path.join(d, "x.png"))
            self.assertEqual(r.returncode, 0, r.stderr)


class Channels(Checked):
    def test_session_channel_outside_the_samples(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.sr")
            # probe9 would be bit 8 of 1-byte samples: always 0.
            session(p, probes=("D0",) + ("",) * 7 + ("wake",), total=16)
            self.refused(run(p, "--switch", "D0"), "channel wake is probe9, not in the capture")
            session(p, probes=("switch", "", "", "wake"), total=2)
            self.refused(run(p), "channel wake is probe4, not in the capture")

    def test_session_missing_its_first_chunk(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.sr")
            session(p, chunks={"logic-1-2": b"\x00\x01\x00", "logic-1-3": b"\x01\x00"})
            r = run(p)
        self.refused(r, "sample chunk logic-1-1 is missing")
        self.assertIn("logic-1-2, logic-1-3", r.stderr)

    def test_session_missing_a_middle_chunk(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.sr")
            session(p, chunks={"logic-1-1": b"\x00\x01\x00", "logic-1-3": b"\x01\x00"})
            self.refused(run(p), "sample chunk logic-1-2 is missing")

    def test_session_chunks_read_in_number_order(self):
        # logic-1-10 comes after logic-1-9, not after logic-1-1
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.sr")
            chunks = {"logic-1-%d" % n: b"\x00" for n in range(1, 11)}
            chunks["logic-1-2"] = b"\x01"
            chunks["logic-1-10"] = b"\x01\x01\x00"
            session(p, chunks=chunks)
            r = stats_of_text_path(p)
        self.assertEqual(r["switch"]["count"], 2)
        self.assertEqual((r["switch"]["min"], r["switch"]["max"]), (1000, 2000))

    def test_session_data_not_whole_samples(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.sr")
            session(p, unitsize=2, samples=b"\x00\x00\x01\x00\x00")
            r = run(p)
            self.refused(r, "5 bytes, not a whole number of 2-byte samples")
            # a sample split across two chunks is whole: read
            session(p, unitsize=2, chunks={"logic-1-1": b"\x00\x00\x01",
                                           "logic-1-2": b"\x00\x01\x00\x00\x00"})
            self.assertEqual(stats_of_text_path(p)["switch"]["count"], 1)

    def test_flat_channel_gets_a_wiring_hint(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "c.csv")
            open(p, "w").write("; Samplerate: 1 MHz\nD0,D1\n0,0\n0,1\n0,0\n")
            r = run(p)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("no edges on D0: check the wiring and the sample rate", r.stderr)
        self.assertNotIn("no edges on D1", r.stderr)


if __name__ == "__main__":
    unittest.main()
