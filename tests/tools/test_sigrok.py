"""lokal-latency on the shapes sigrok-cli really writes (libsigrok's
src/output/csv.c, vcd.c and srzip.c): real sigrok-cli 0.7.2 output (the
committed fixtures, and fresh captures of its demo device when sigrok-cli
is installed), and hand-made files in the optional shapes."""
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile

from test_latency import HERE, run, stats_of, stats_of_text

NS_24M = 1e9 / 24e6
SIGROK_CLI = shutil.which("sigrok-cli")

# sigrok-cli -d demo --channels D0=switch,D1=wake --config samplerate=1m
# --samples 64: the demo's default pattern, identical on every run. Its
# pulses, read off the rows by hand (1 us per row; pulses high at the first
# row or the last are left out): switch 3,3,4,4,4,4,11 us; wake 2,2,3,3,3,3,
# 3,4,4,5,12 us.
DEMO_ARGS = ["-d", "demo", "--config", "samplerate=1m", "--samples", "64"]
DEMO_SWITCH = {"count": 7, "min": 3000, "median": 4000, "p90": 11000, "p99": 11000,
               "max": 11000}
DEMO_WAKE = {"count": 11, "min": 2000, "median": 3000, "p90": 5000, "p99": 12000,
             "max": 12000}


def sigrok_cli(*args):
    p = subprocess.run([SIGROK_CLI] + list(args), capture_output=True)
    if p.returncode != 0:
        raise AssertionError("sigrok-cli %s failed: %s" % (" ".join(args), p.stderr))
    return p.stdout


def stripped(csv_bytes):
    """A CSV without its '; from <driver> on <date>' line."""
    return [ln for ln in csv_bytes.splitlines() if not ln.startswith(b"; from ")]


class RealSigrokOutput(unittest.TestCase):
    def assert_demo_figures(self, r):
        for sig, want in (("switch", DEMO_SWITCH), ("wake", DEMO_WAKE)):
            for key, val in want.items():
                self.assertAlmostEqual(r[sig][key], val, places=6, msg="%s %s" % (sig, key))

    def test_default_csv_fixture_figures(self):
        # "logic,logic", no time column: names from "; Channels", times from rows.
        r = stats_of(os.path.join(HERE, "sigrok-default.csv"))["inputs"][0]
        self.assertEqual(r["samplerate_hz"], 1e6)
        self.assert_demo_figures(r)

    def test_session_file_fixture_same_as_csv(self):
        r = stats_of(os.path.join(HERE, "sigrok-default.sr"))["inputs"][0]
        self.assertEqual(r["samplerate_hz"], 1e6)
        self.assert_demo_figures(r)

    def test_marker_pins_unnamed_read_as_d0_switch_d1_wake(self):
        p = os.path.join(HERE, "sigrok-pins.sr")
        out = run(p)
        self.assertEqual(out.returncode, 0, out.stderr)
        first = out.stdout.splitlines()[0]
        self.assertIn("no channel named switch or wake", first)
        self.assertIn("D0 as switch and D1 as wake", first)
        self.assert_demo_figures(stats_of(p)["inputs"][0])
        # named channels or explicit options: no note
        self.assertNotIn("note:", run(os.path.join(HERE, "sigrok-default.sr")).stdout)
        self.assertNotIn("note:", run(p, "--switch", "D1").stdout)

    @unittest.skipUnless(SIGROK_CLI, "sigrok-cli is not installed (tools/bootstrap.sh installs it)")
    def test_default_csv_fixture_is_what_sigrok_cli_writes(self):
        fresh = sigrok_cli(*DEMO_ARGS, "--channels", "D0=switch,D1=wake", "-O", "csv")
        self.assertIn(b"\nlogic,logic\n", fresh)
        self.assertEqual(stripped(fresh),
                         stripped(open(os.path.join(HERE, "sigrok-default.csv"), "rb").read()))

    @unittest.skipUnless(SIGROK_CLI, "sigrok-cli is not installed (tools/bootstrap.sh installs it)")
    def test_fresh_captures_in_every_format_agree(self):
        with tempfile.TemporaryDirectory() as d:
            for chans in ("D0=switch,D1=wake", "D0,D1"):
                sr = os.path.join(d, "c.sr")
                sigrok_cli(*DEMO_ARGS, "--channels", chans, "-o", sr)
                self.assertTrue(zipfile.is_zipfile(sr))
                paths = [sr]
                for fmt in ("csv", "vcd"):
                    paths.append(os.path.join(d, "c." + fmt))
                    open(paths[-1], "wb").write(sigrok_cli("-i", sr, "-O", fmt))
                for path in paths:
                    self.assert_demo_figures(stats_of(path)["inputs"][0])


class Refused(unittest.TestCase):
    """Bad input: one line on stderr naming the problem, status 2, no traceback."""
    def refused(self, args, needle, content=None, name="input"):
        with tempfile.TemporaryDirectory() as d:
            if content is not None:
                p = os.path.join(d, name)
                open(p, "wb").write(content)
                args = [a.replace("@", p) for a in args]
            r = run(*args)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn(needle, r.stderr)

    def test_empty_file(self):
        self.refused(["@"], "empty file", b"")

    def test_binary_garbage(self):
        self.refused(["@"], "binary data", bytes(range(256)) * 4)

    def test_zip_that_is_no_session(self):
        with tempfile.TemporaryDirectory() as d:
            z = os.path.join(d, "x.zip")
            with zipfile.ZipFile(z, "w") as f:
                f.writestr("hello.txt", "hi")
            data = open(z, "rb").read()
        self.refused(["@"], "without 'metadata': not a sigrok session", data)

    def test_truncated_session(self):
        data = open(os.path.join(HERE, "sigrok-default.sr"), "rb").read()
        self.refused(["@"], "not a readable sigrok session", data[:200])

    def test_bogus_samplerate(self):
        csv = os.path.join(HERE, "sigrok-default.csv")
        self.refused([csv, "--samplerate", "bogus"], "'bogus' is not a sample rate")

    def test_bogus_samplerate_in_gen_capture(self):
        self.refused(["gen-capture", os.path.join(HERE, "handmade.vcd"), "--samplerate", "bogus",
                      "-o", "/nonexistent/x.vcd"], "'bogus' is not a sample rate")

    def test_samplerate_disagreeing_with_the_file(self):
        for f in ("sigrok-default.csv", "sigrok-default.sr"):
            self.refused([os.path.join(HERE, f), "--samplerate", "2m"],
                         "--samplerate 2 MHz disagrees with the file's")

    def test_samplerate_agreeing_with_the_file_is_fine(self):
        r = stats_of(os.path.join(HERE, "sigrok-default.csv"), "--samplerate", "1m")
        self.assertEqual(r["inputs"][0]["switch"]["count"], DEMO_SWITCH["count"])

    def test_unknown_option_one_line(self):
        self.refused(["--bogus"], "unrecognized arguments: --bogus")


class SigrokCsv(unittest.TestCase):
    def test_time_column_names_from_channels_comment(self):
        # Hand-made in the time=true shape, "nanoseconds,logic,logic": names
        # come from "; Channels", times from the row number at 10 MHz.
        # switch high for samples 1-2, 6, 9-11; wake for 3-6.
        r = stats_of(os.path.join(HERE, "sigrok-time.csv"))["inputs"][0]
        self.assertEqual(r["samplerate_hz"], 10e6)
        self.assertEqual(r["switch"]["count"], 3)
        for key, want in (("min", 100), ("median", 200), ("p90", 300), ("max", 300)):
            self.assertAlmostEqual(r["switch"][key], want, places=6, msg=key)
        self.assertEqual(r["wake"]["count"], 1)
        self.assertAlmostEqual(r["wake"]["max"], 400, places=6)

    def test_default_options_one_channel_and_trigger_column(self):
        # "logic" alone is unique, yet not a name; -O csv:trigger=true adds a column.
        r = stats_of_text("; Channels (1/8): wake\n; Samplerate: 1 MHz\n"
                          "microseconds,logic,Trigger\n1,0,0\n2,1,1\n3,0,0\n")["inputs"][0]
        self.assertAlmostEqual(r["wake"]["max"], 1000, places=6)

    def test_dedup_rows_timed_by_time_column(self):
        # dedup=true drops repeated rows, so the Time column (us at 1 MHz)
        # gives the sample: D0 high 5..10 us, D1 high 8..30 us. A0 is analog.
        p = os.path.join(HERE, "sigrok-dedup.csv")
        r = stats_of(p, "--switch", "D0", "--wake", "D1")["inputs"][0]
        self.assertAlmostEqual(r["switch"]["max"], 5000, places=6)
        self.assertAlmostEqual(r["wake"]["max"], 22000, places=6)
        bad = run(p, "--switch", "A0")
        self.assertEqual(bad.returncode, 2)
        self.assertIn("'0.125', not 0 or 1", bad.stderr)

    def test_label_off_time_column_found_by_channel_count(self):
        r = stats_of_text("; Channels (1/8): switch\n; Samplerate: 1 MHz\n"
                          "1,0\n2,1\n3,1\n4,1\n5,0\n")["inputs"][0]
        self.assertAlmostEqual(r["switch"]["max"], 3000, places=6)


class SigrokVcd(unittest.TestCase):
    def test_100ps_timescale_widths_in_whole_samples(self):
        # 24 MHz: sigrok picks a 100 ps timescale and rounds each sample's
        # time, so edges sit up to 50 ps off; the samplerate in the comment
        # puts widths back on whole samples (7, 1 and 100 of them).
        r = stats_of(os.path.join(HERE, "sigrok.vcd"), "--switch", "D0", "--wake", "D1")
        r = r["inputs"][0]
        self.assertEqual(r["samplerate_hz"], 24e6)
        self.assertEqual(r["switch"]["count"], 2)
        self.assertAlmostEqual(r["switch"]["min"], 1 * NS_24M, places=6)
        self.assertAlmostEqual(r["switch"]["max"], 7 * NS_24M, places=6)
        self.assertAlmostEqual(r["wake"]["max"], 100 * NS_24M, places=6)

    def test_comment_among_value_changes(self):
        r = stats_of_text("$timescale 1 ns $end $var wire 1 ! wake $end $enddefinitions $end\n"
                          "#0 0! #100 1! $comment 1 wake edge, 0 others $end #350 0!\n")
        r = r["inputs"][0]
        self.assertEqual(r["wake"]["count"], 1)
        self.assertEqual(r["wake"]["max"], 250)


if __name__ == "__main__":
    unittest.main()
