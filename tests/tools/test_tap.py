"""The Python TAP writer (tests/lib/tap.py): one line per result, whether
TAP names a file or the terminal itself (TAP=/dev/stdout)."""
import os
import subprocess
import sys
import tempfile
import unittest

LIB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib")
ROOT = os.path.normpath(os.path.join(LIB, "..", ".."))
PROG = ("import sys; sys.path.insert(0, %r); from tap import Tap; t = Tap(sys.argv[1]); "
        "t.result(True, 'one'); t.result(False, 'two'); t.close('x')" % LIB)


class TapLines(unittest.TestCase):
    def run_tap(self, path, stdout):
        subprocess.run([sys.executable, "-c", PROG, path], stdout=stdout, check=True)

    def test_tap_to_dev_stdout_writes_each_line_once(self):
        with tempfile.TemporaryFile("w+") as out:
            self.run_tap("/dev/stdout", out)
            out.seek(0)
            lines = out.read().splitlines()
        self.assertEqual(lines, ["ok 1 - one", "not ok 2 - two"])

    def test_tap_to_a_file_writes_the_file_and_the_terminal(self):
        with tempfile.TemporaryDirectory() as d, tempfile.TemporaryFile("w+") as out:
            path = os.path.join(d, "t.tap")
            self.run_tap(path, out)
            out.seek(0)
            self.assertEqual(out.read().splitlines(), ["ok 1 - one", "not ok 2 - two"])
            with open(path) as f:
                self.assertEqual(f.read().splitlines(), ["ok 1 - one", "not ok 2 - two"])


if __name__ == "__main__":
    unittest.main()


class MutantRestore(unittest.TestCase):
    """tests/lib/mutants.sh: a restored source is newer than what make built from
    its mutant, so the next image is rebuilt from the restored source."""

    def test_restored_source_is_newer_than_the_mutants_object(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "a.c")
            with open(src, "w") as f:
                f.write("int x = 1;\n")
            os.utime(src, (1000, 1000))
            script = ('. "%s/tests/lib/mutants.sh" && mutant_source "%s" a.c "s/1/2/" && '
                      'touch "%s/a.o" && sleep 0.01 && mutant_restore "%s" a.c'
                      % (ROOT, d, d, d))
            r = subprocess.run(["bash", "-c", script], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(open(src).read(), "int x = 1;\n")
            self.assertGreaterEqual(os.stat(src).st_mtime, os.stat(os.path.join(d, "a.o")).st_mtime,
                                    "make would keep the mutant's object")
