#!/usr/bin/env python3
"""Run the tool tests and write one TAP line per test to argv[1]."""
import importlib
import io
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import Tap  # noqa: E402

# Every test_*.py beside this file, each under the prefix its TAP lines
# carry (a module without one is named by its file): a new test file runs
# without an edit here.
HERE = os.path.dirname(os.path.abspath(__file__))
PREFIX = {"test_latency": "latency", "test_sigrok": "latency sigrok", "test_rates": "latency input",
          "test_docs": "docs", "test_howto": "how to add", "test_arrows": "arrows",
          "test_tap": "tap writer", "test_decoder": "sigrok decoder", "test_cyclic": "latency cyclic",
          "test_irqsoff": "irqsoff summary", "test_scripts": "scripts",
          "test_bench_report": "bench report", "test_wakeup": "latency wakeup"}
MODULES = [importlib.import_module(n[:-3]) for n in sorted(os.listdir(HERE))
           if n.startswith("test_") and n.endswith(".py")]

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
suite = unittest.TestSuite([load(m) for m in MODULES])
# The runner's own report is kept, and shown only for what failed: the TAP
# lines below are the one line per test.
report = io.StringIO()
res = unittest.TextTestRunner(resultclass=TapResult, verbosity=1, stream=report).run(suite)
if not res.wasSuccessful():
    sys.stderr.write(report.getvalue())
open(sys.argv[1], "w").close()
tap = Tap(sys.argv[1])
for r, name in TapResult.lines:
    module, _, rest = name.partition(".")
    tap.result(r == "ok", "%s: %s" % (PREFIX.get(module, module[len("test_"):]), rest))
sys.exit(0 if tap.close("check-tools") and res.wasSuccessful() else 1)
