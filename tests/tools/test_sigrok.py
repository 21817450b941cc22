"""lokal-latency on the shapes sigrok-cli really writes (libsigrok's
src/output/csv.c and vcd.c): hand-made files with hand-computed answers."""
import os
import unittest

from test_latency import HERE, run, stats_of, stats_of_text

NS_24M = 1e9 / 24e6


class SigrokCsv(unittest.TestCase):
    def test_default_options_names_from_channels_comment(self):
        # "nanoseconds,logic,logic": names come from "; Channels", times from
        # the row number at 10 MHz. switch high for samples 1-2, 6, 9-11;
        # wake for 3-6.
        r = stats_of(os.path.join(HERE, "sigrok-default.csv"))["inputs"][0]
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
