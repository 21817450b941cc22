"""tools/vivt-emu/scripts/irqsoff-summary.py's bounds, on stats files made here:
a window above its bound fails the check and is named, one at it passes."""
import os
import subprocess
import sys
import tempfile
import unittest

from test_latency import HERE

SCRIPT = os.path.normpath(os.path.join(HERE, "..", "..", "tools", "vivt-emu", "scripts", "irqsoff-summary.py"))


def stats(handler_kernel):
    return ("irqsoff.thread_max=50\nirqsoff.thread.insns=50\nirqsoff.thread.cycles=90\n"
            "irqsoff.thread.opened=f+0x4 (f.c:1)\nirqsoff.thread.closed=f+0x8 (f.c:2)\n"
            "irqsoff.handler_kernel.insns=%d\nirqsoff.handler_kernel.line=4\n"
            "irqsoff.handler_kernel.window=%d\nirqsoff.handler_kernel.own=10\n"
            "irqsoff.handler_kernel.closed=g+0x10 (g.c:3)\n" % (handler_kernel, handler_kernel + 10))


class HandlerKernelBound(unittest.TestCase):
    def run_summary(self, bound, over):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "run.stats")
            with open(path, "w") as f:
                f.write(stats(400))
            r = subprocess.run([sys.executable, SCRIPT, "t", "200", "--stats", path,
                                "--handler-kernel-bound", str(bound), "--over", over],
                               capture_output=True, text=True)
            return r.returncode, open(over).read() if os.path.exists(over) else ""

    def test_a_kernel_part_above_the_bound_fails_and_is_named(self):
        with tempfile.TemporaryDirectory() as d:
            rc, over = self.run_summary(399, os.path.join(d, "over.txt"))
        self.assertEqual(rc, 1)
        self.assertIn("handler window's kernel part above 399 instructions", over)
        self.assertIn("IRQ line 4", over)

    def test_a_kernel_part_at_the_bound_passes(self):
        with tempfile.TemporaryDirectory() as d:
            rc, over = self.run_summary(400, os.path.join(d, "over.txt"))
        self.assertEqual(rc, 0)
        self.assertEqual(over, "")

    def test_the_check_bounds_are_three_numbers(self):
        out = subprocess.run([sys.executable, SCRIPT, "--bounds"], capture_output=True, text=True).stdout.split()
        self.assertEqual(len(out), 3)
        self.assertTrue(all(x.isdigit() for x in out))
