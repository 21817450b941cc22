#!/usr/bin/env python3
"""Wake-up latency with and without console input (`make bench`).

Runs `bench wakeup N` in the shell image on vivt-emu twice: once with an
idle console, once while a host sends at 115200 baud all through the job
(vivt-emu --input-line: a byte every character time of emulated time,
whatever the firmware does). Both runs' wake-ups are read from the pins
(lokal-latency wakeup: the timer's line to the woken thread, exact), so
the figures repeat exactly from run to run and do not depend on the host.
Writes OUT.json with the p99 ratio of the kmap_local mode (target <= 1.05)
and what the firmware counted of the input.
    tools/shell/bench-input.py SHELL.elf WAKES OUT.json
"""
import fcntl
import json
import os
import re
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
EMU = os.path.join(ROOT, "build", "vivt-emu", "vivt-emu")
LATENCY = os.path.join(ROOT, "tools", "latency", "lokal-latency")
BAUD_BYTES = 11520          # 115200 baud, 8N1: 10 bits a byte
TARGET = 1.05
DONE = re.compile(rb"bench wakeup: done in (\d+) ms")
F_SETPIPE_SZ = 1031         # Linux fcntl: a pipe's capacity


class BenchError(Exception):
    pass


def expect(proc, out, pattern, timeout):
    """Read the emulator's console until pattern shows; returns the match."""
    end = time.monotonic() + timeout
    while True:
        m = pattern.search(out)
        if m:
            return m
        left = end - time.monotonic()
        if left <= 0 or proc.poll() is not None:
            raise BenchError("no %r on the console (%s)" % (pattern.pattern.decode(),
                             "timed out" if left <= 0 else "the emulator ended"))
        r, _, _ = select.select([proc.stdout], [], [], min(left, 1.0))
        if r:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                continue
            out.extend(chunk)


def send(proc, data):
    proc.stdin.write(data)
    proc.stdin.flush()


def run(elf, wakes, flood, work):
    """One `bench wakeup` in the shell; flood: bytes sent behind the command
    at the line's rate (0: none). The closing `stats` and `exit` are sent
    once the job is done, so they land after it."""
    name = "with" if flood else "without"
    vcd = os.path.join(work, "shell-input-%s.vcd" % name)
    log = os.path.join(work, "shell-input-%s.log" % name)
    args = [EMU, "--no-model", "--vcd", vcd] + (["--input-line"] if flood else []) + [elf]
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=open(log + ".err", "wb"))
    out = bytearray()
    try:
        # Everything up to the job's end is in the pipe before the emulator
        # boots, so each byte's arrival is set by emulated time alone: sent
        # once the prompt shows, the command would land at a tick that
        # depends on how fast the host ran the idle shell, and a pipe that
        # runs dry for a moment would hold the line back. The flood is
        # carriage returns: the shell ignores them while the job runs, and
        # afterwards each is an empty line.
        data = b"stats reset\rbench wakeup %d\r" % wakes + b"\r" * flood
        room = fcntl.fcntl(proc.stdin.fileno(), F_SETPIPE_SZ, max(len(data), 1 << 16))
        if room < len(data):
            raise BenchError("the input (%d bytes) does not fit the pipe (%d bytes; "
                             "/proc/sys/fs/pipe-max-size)" % (len(data), room))
        send(proc, data)
        done = expect(proc, out, DONE, 1800)
        send(proc, b"stats\rexit\r")
        expect(proc, out, re.compile(rb"input ignored\s+(\d+)"), 600)
        proc.stdin.close()
        if proc.wait(timeout=600) != 0:
            raise BenchError("the emulator ended with status %d (see %s.err)" % (proc.returncode, log))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        with open(log, "wb") as f:
            f.write(out)
    text = out.decode(errors="replace")
    ignored = int(re.findall(r"^input ignored\s+(\d+)", text, re.M)[-1])
    dropped = int(re.findall(r"^console rx dropped\s+(\d+)", text, re.M)[-1])
    pins_json = os.path.join(work, "shell-input-%s-pins.json" % name)
    p = subprocess.run([sys.executable, LATENCY, "wakeup", log, "--pin", vcd, "--json", pins_json],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise BenchError("lokal-latency wakeup: %s" % (p.stderr.strip() or p.stdout.strip()))
    os.remove(vcd)          # tens of MB of switch edges; the JSON keeps the figures
    with open(pins_json) as f:
        pins = json.load(f)
    return {"virtual_s": int(done.group(1)) / 1000, "ignored": ignored, "dropped": dropped,
            "pins": pins["modes"]}


def main():
    if len(sys.argv) != 4 or not os.path.isfile(sys.argv[1]):
        sys.exit(__doc__)
    elf, wakes, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if not os.access(EMU, os.X_OK):
        sys.exit("bench-input: %s: no emulator (make vivt-emu)" % EMU)
    try:
        measure(elf, wakes, out)
    except (BenchError, OSError, subprocess.TimeoutExpired) as e:
        sys.exit("bench-input: %s: %s" % (elf, e))


def measure(elf, wakes, out):
    work = os.path.dirname(os.path.abspath(out))
    quiet = run(elf, wakes, 0, work)
    # Enough to last the job a fifth longer than it took without input.
    typed = run(elf, wakes, int(quiet["virtual_s"] * BAUD_BYTES * 1.2) + BAUD_BYTES // 10, work)
    rate = typed["ignored"] / typed["virtual_s"] if typed["virtual_s"] else 0
    with_, without = typed["pins"]["local"], quiet["pins"]["local"]
    ratio = with_["p99"] / without["p99"]
    result = {
        "target": TARGET,
        "measured": round(ratio, 4),
        "what": "wake-up p99 (kmap_local workers) with console input at 115200 baud / without: "
                "the shell image on vivt-emu, a host sending all through the job at the line's "
                "rate (--input-line), the pins' figures (timer's line to the woken thread, exact)",
        "wakes_per_mode": wakes,
        "p99_local_ns": {"without": without["p99"], "with": with_["p99"]},
        "max_local_ns": {"without": without["max"], "with": with_["max"]},
        "p99_atomic_ns": {"without": quiet["pins"]["atomic"]["p99"], "with": typed["pins"]["atomic"]["p99"]},
        "firmware_p99_local_ns": {"without": without.get("firmware_p99"), "with": with_.get("firmware_p99")},
        # The wake-ups above each run's p99 and the interrupt lines they waited
        # behind (lokal-latency wakeup): how many the console's input delayed.
        "local_above_p99": {"without": without.get("above_p99"), "with": with_.get("above_p99")},
        "local_beside": {"without": without.get("beside"), "with": with_.get("beside")},
        "input_bytes_during_job": typed["ignored"],
        "input_bytes_per_s": round(rate),
        "rx_dropped": typed["dropped"],
        # At least 98 %: the first and last character times of the job are cut.
        "input_at_least_115200_baud": rate >= 0.98 * BAUD_BYTES,
    }
    with open(out, "w") as f:
        json.dump(result, f, indent=2)
    print("shell input: wake-up p99 local %d ns with input (%d bytes/s, %d bytes) / %d ns without "
          "= %.3f (target <= %.2f)" % (with_["p99"], rate, typed["ignored"], without["p99"], ratio,
                                       TARGET))
    if not result["input_at_least_115200_baud"]:
        raise BenchError("the firmware counted %d bytes/s of input during the job, not 115200 baud"
                         % rate)


if __name__ == "__main__":
    main()
