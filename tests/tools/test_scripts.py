"""A shell script under pipefail never tests a pipeline whose last reader
stops early (grep -q, head): the writer then dies of SIGPIPE when it writes
after the reader has gone, so the pipeline's status, and the test's
verdict, depend on which process the host runs first. `grep -c PATTERN >
/dev/null` reads to the end and answers the same; a file argument needs no
pipe at all. Command substitutions are left alone: their status is not
tested unless the script says so."""
import os
import re
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
EARLY_READER = re.compile(r"\|\s*(grep\s+(-\w*q\w*|--quiet)\b|head\b)")


def early_readers(text):
    """(line number, line) of each pipeline ending in a reader that stops early, outside $(...)."""
    if not re.search(r"set\s+-\w*o\s+pipefail|set\s+-o\s+pipefail|-o\s+pipefail", text):
        return []
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split("#", 1)[0] if not line.lstrip().startswith("#") else ""
        code = re.sub(r"\$\((?:[^()]|\([^()]*\))*\)", "", code)
        if EARLY_READER.search(code):
            out.append((n, line.strip()))
    return out


def scripts():
    for top in ("tests", "tools", ".ci", "board"):
        for d, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                path = os.path.join(d, name)
                if name.endswith(".sh") or name == "run":
                    yield path


class Pipefail(unittest.TestCase):
    def test_the_rule_sees_an_early_reader(self):
        bad = "set -uo pipefail\nif tool --help | grep -q foo; then :; fi\nx=$(a | head -1)\nb | head -3\n"
        self.assertEqual([n for n, _ in early_readers(bad)], [2, 4])
        self.assertEqual(early_readers(bad.replace("pipefail", "nounset")), [])
        self.assertEqual(early_readers("set -o pipefail\nb | grep -c foo > /dev/null\n"), [])

    def test_no_script_tests_an_early_reader_under_pipefail(self):
        bad = []
        for path in scripts():
            with open(path, errors="replace") as f:
                for n, line in early_readers(f.read()):
                    bad.append("%s:%d: %s" % (os.path.relpath(path, ROOT), n, line))
        self.assertEqual(bad, [], "a pipeline's verdict that depends on scheduling")


if __name__ == "__main__":
    unittest.main()
