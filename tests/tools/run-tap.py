#!/usr/bin/env python3
"""Run the tool tests and write one TAP line per test to argv[1]."""
import io
import sys
import unittest

sys.path.insert(0, __import__("os").path.dirname(__file__))
sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__file__), "..", "lib"))
from tap import Tap  # noqa: E402
import test_latency  # noqa: E402
import test_rates    # noqa: E402
import test_docs     # noqa: E402
import test_decoder  # noqa: E402
import test_sigrok   # noqa: E402
import test_howto   # noqa: E402
import test_tap     # noqa: E402
import test_arrows  # noqa: E402
import test_cyclic  # noqa: E402
import test_irqsoff  # noqa: E402


class TapResult(unittest.TextTestResult):
    lines = []

    def addSuccess(self, test):
        super().addSuccess(test)
        self.lines.append(("ok", test.id()))

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self.lines.append(("not ok", test.id()))

    def addError(self, test, err):
        super().addError(test, err)
        self.lines.append(("not ok", test.id()))


load = unittest.defaultTestLoader.loadTestsFromModule
suite = unittest.TestSuite([load(test_latency), load(test_rates), load(test_sigrok),
                            load(test_docs), load(test_decoder), load(test_howto), load(test_tap),
                            load(test_arrows), load(test_cyclic), load(test_irqsoff)])
# The runner's own report is kept, and shown only for what failed: the TAP
# lines below are the one line per test.
report = io.StringIO()
res = unittest.TextTestRunner(resultclass=TapResult, verbosity=1, stream=report).run(suite)
if not res.wasSuccessful():
    sys.stderr.write(report.getvalue())
open(sys.argv[1], "w").close()
tap = Tap(sys.argv[1])
for r, name in TapResult.lines:
    tap.result(r == "ok", name.replace("test_latency.", "latency: ").replace("test_sigrok.", "latency sigrok: ")
               .replace("test_rates.", "latency input: ").replace("test_docs.", "docs: ")
               .replace("test_howto.", "how to add: ").replace("test_arrows.", "arrows: ").replace("test_tap.", "tap writer: ").replace("test_decoder.", "sigrok decoder: ")
               .replace("test_cyclic.", "latency cyclic: ").replace("test_irqsoff.", "irqsoff summary: "))
sys.exit(0 if tap.close("check-tools") and res.wasSuccessful() else 1)
