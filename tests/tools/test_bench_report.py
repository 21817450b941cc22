"""tools/bench-report.py's figures per board: each board's console named in
boards.txt (tools/bench.sh writes it) gives the same keys as the default
board's runs, read from the bench's own JSON block."""
import importlib.util
import json
import os
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
_spec = importlib.util.spec_from_file_location("bench_report", os.path.join(ROOT, "tools", "bench-report.py"))
report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(report)


def console(results):
    block = json.dumps({"results": results})
    return "bench: noise\n--- lokal-bench-json begin ---\n%s\n--- lokal-bench-json end ---\n" % block


class Boards(unittest.TestCase):
    def test_each_listed_board_gives_its_figures(self):
        with tempfile.TemporaryDirectory() as d:
            for board, scheme, irq in (("b1", "eager", 300.0), ("b1", "defer", 290.0)):
                with open(os.path.join(d, "console-%s-%s.log" % (board, scheme)), "w") as f:
                    f.write(console([{"group": "switch", "name": "irq round trip, low 0 high 0", "ns": irq},
                                     {"group": "switch", "name": "yield, both hold 0", "ns": 45.0}]))
            with open(os.path.join(d, "boards.txt"), "w") as f:
                f.write("b1 eager console-b1-eager.log\nb1 defer console-b1-defer.log\n")
            got = report.other_boards(d)
        self.assertEqual(set(got), {"b1"})
        self.assertEqual(got["b1"]["eager"]["irq_round_trip_ns"], 300.0)
        self.assertEqual(got["b1"]["defer"]["irq_round_trip_ns"], 290.0)
        self.assertEqual(got["b1"]["defer"]["yield_no_maps_ns"], 45.0)
        self.assertIsNone(got["b1"]["defer"]["wakeup_p99_dma_ns"])   # not in that run
        self.assertEqual(set(got["b1"]["eager"]), {k for k, _, _ in report.BOARD_FIGURES})

    def test_no_list_no_other_boards(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(report.other_boards(d), {})


class WakeupPins(unittest.TestCase):
    def test_each_scheme_that_ran_on_the_pins(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(report.wakeup_pins(d), {})
            fig = {"from": "timer line", "modes": {"dma": {"count": 2, "p99": 410}}, "ratios": {"dma/local": 1.2}}
            with open(os.path.join(d, "wakeup-pins-defer.json"), "w") as f:
                json.dump(fig, f)
            self.assertEqual(report.wakeup_pins(d), {"defer": fig})


if __name__ == "__main__":
    unittest.main()
