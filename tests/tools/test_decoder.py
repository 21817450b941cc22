"""The sigrok protocol decoder tools/latency/sigrok/lokal against
lokal-latency on the same captures: every pulse the decoder annotates is a
pulse lokal-latency counts (the same samples, the same width), and its
last statistics annotation is lokal-latency's count, min, median, p99 and
max. Captures: fresh ones from sigrok-cli's demo device, the emulator's
VCD (tests/tools/vivt-emu-switch.vcd, from vivt-emu --vcd on
test_kmap_sched) converted by sigrok-cli, and a hand-made session full of
glitches."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from test_latency import HERE, stats_of
from test_rates import session

LATENCY = os.path.join(HERE, "..", "..", "tools", "latency")
DECODERS = os.path.join(LATENCY, "sigrok")
sys.path.insert(0, LATENCY)
import inputs  # noqa: E402
import stats   # noqa: E402

SIGROK_CLI = shutil.which("sigrok-cli")


def sigrok(*args):
    if not SIGROK_CLI:
        raise AssertionError("sigrok-cli is not installed: tools/bootstrap.sh installs it")
    env = dict(os.environ, SIGROKDECODE_DIR=DECODERS)
    p = subprocess.run([SIGROK_CLI] + list(args), capture_output=True, text=True, env=env,
                       timeout=120)
    if p.returncode != 0 or "rror" in p.stderr:
        raise AssertionError("sigrok-cli %s: %s" % (" ".join(args), p.stderr.strip()))
    return p.stdout


def decode(path, switch="switch", wake="wake"):
    """The decoder's annotations: {'switch': [(ss, es, text)], 'wake': [...],
    'switch-stats': [text], 'wake-stats': [text]}."""
    out = sigrok("-i", path, "-P", "lokal:switch=%s:wake=%s" % (switch, wake),
                 "--protocol-decoder-samplenum")
    got = {"switch": [], "wake": [], "switch-stats": [], "wake-stats": []}
    for line in out.splitlines():
        m = re.match(r"^(\d+)-(\d+) lokal-1: (switch|wake-to-run|wake) (n=.*|[0-9.]+ ns)$", line)
        if not m:
            raise AssertionError("not a lokal annotation: %r" % line)
        ss, es, what, text = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
        if text.startswith("n="):
            got[what + "-stats"].append(text)
        else:
            got["wake" if what == "wake-to-run" else "switch"].append((ss, es, text))
    return got


def reference(path, switch="switch", wake="wake"):
    """The same from lokal-latency: its pulses (tools/latency/stats.py) in
    samples, and its summary as the tool prints it (--json)."""
    inp = inputs.load(path)
    rate = inp.samplerate
    summary = stats_of(path, "--switch", switch, "--wake", wake)["inputs"][0]
    ref = {}
    for key, name in (("switch", switch), ("wake", wake)):
        pulses = stats.pulses(inp.signals[name], None, rate)
        ref[key] = [(round(t * rate / 1e9), round(t * rate / 1e9) + round(w * rate / 1e9),
                     "%.3f ns" % w) for t, w in pulses]
        s = summary[key]
        ref[key + "-stats"] = (["n=%d min %.3f median %.3f p99 %.3f max %.3f ns" % (
            s["count"], s["min"], s["median"], s["p99"], s["max"])] if s["count"] else [])
    return ref


class Agreement(unittest.TestCase):
    def assert_agrees(self, path, switch="switch", wake="wake", least=1):
        got, ref = decode(path, switch, wake), reference(path, switch, wake)
        self.assertGreaterEqual(len(ref["switch"]) + len(ref["wake"]), least)
        for key in ("switch", "wake"):
            self.assertEqual(sorted(got[key]), sorted(ref[key]), key)
            self.assertEqual(got[key + "-stats"][-1:], ref[key + "-stats"], key + " stats")
            self.assertEqual(len(got[key + "-stats"]), len(ref[key]))
        return got

    def test_demo_device_named_channels(self):
        with tempfile.TemporaryDirectory() as d:
            sr = os.path.join(d, "demo.sr")
            sigrok("-d", "demo", "--config", "samplerate=1m", "--samples", "5000",
                   "--channels", "D0=switch,D1=wake", "-o", sr)
            self.assert_agrees(sr, least=100)

    def test_demo_device_pins_d0_d1(self):
        with tempfile.TemporaryDirectory() as d:
            sr = os.path.join(d, "demo.sr")
            sigrok("-d", "demo", "--config", "samplerate=24m", "--samples", "3000",
                   "--channels", "D0,D1,D2", "-o", sr)
            self.assert_agrees(sr, "D0", "D1", least=50)
            # and the other way round: channels are picked by the option
            self.assert_agrees(sr, "D2", "D0", least=50)

    def test_emulator_vcd_converted_by_sigrok_cli(self):
        with tempfile.TemporaryDirectory() as d:
            sr = os.path.join(d, "emu.sr")
            sigrok("-I", "vcd", "-i", os.path.join(HERE, "vivt-emu-switch.vcd"), "-o", sr)
            got = self.assert_agrees(sr, least=80)
        self.assertEqual(got["wake"], [])       # test_kmap_sched has no wake-up benchmark

    def test_hand_made_glitches(self):
        # bit 0 switch, bit 1 wake, 1 MHz: a pulse high from the first
        # sample (cut), one-sample glitches, both pins rising and falling on
        # the same sample, back-to-back pulses, a pulse still high at the end.
        samples = bytes([3, 3, 0, 1, 0, 2, 0, 3, 3, 0, 1, 3, 2, 0, 1, 0, 1, 0, 0, 2, 2, 2, 0,
                         1, 1, 1, 1, 0, 2, 1, 2, 1, 0, 3, 3])
        with tempfile.TemporaryDirectory() as d:
            sr = os.path.join(d, "glitch.sr")
            session(sr, samples=samples)
            got = self.assert_agrees(sr, least=10)
        self.assertEqual(got["switch"][0], (3, 4, "1000.000 ns"))
        self.assertNotIn(0, [ss for ss, _, _ in got["switch"] + got["wake"]])

    def test_decoder_api(self):
        # What sigrok-cli -P lokal:switch=D0:wake=D1 and PulseView rely on.
        out = sigrok("--show", "-P", "lokal")
        self.assertIn("ID: lokal", out)
        self.assertRegex(out, r"switch \(switch\)")
        self.assertRegex(out, r"wake \(wake\)")
        with open(os.path.join(DECODERS, "lokal", "pd.py")) as f:
            src = f.read()
        self.assertIn("api_version = 3", src)
        self.assertIn("class Decoder(srd.Decoder)", src)


if __name__ == "__main__":
    unittest.main()
