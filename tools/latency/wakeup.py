"""The bench's wake-up figures read from a capture of the pins, one set per
mode, at the capture's resolution instead of the firmware counter's.

    lokal-latency wakeup LOG --pin CAPTURE [--json OUT]

LOG is the bench's console: after each mode it prints `wakeup run MODE: N
wake-ups`, in the order the modes ran, so the capture's wake-ups are cut
into the modes by counting. With a `timer` wire (vivt-emu --vcd) each
wake-up is timed from the timer's interrupt line, which the firmware
cannot see: the time an interrupt waits behind another's handler counts.
Without one, from the wake marker's rise in the handler.

Other interrupt lines in the capture (vivt-emu's `tick`, `uart`, `dma`)
tell what the slowest wake-ups of each mode, those above its p99, waited
behind: a line that rose from one median wake-up before the timer to the
woken thread's run.
"""
import bisect
import re

import cyclic
import stats
from inputs import InputError

RUN_RE = re.compile(r"^  wakeup run ([a-z]+): (\d+) wake-ups$")
P99_RE = re.compile(r"^  wakeup +([a-z]+) p99 +(\d+(?:\.\d+)?) ns$")
# What each ratio says: numerator, denominator (the bench's own pairs).
RATIOS = (("dma", "local"), ("local", "nomap"), ("atomic", "local"))


def read_runs(path):
    """The modes in the order they ran, each with its wake-up count, and
    the firmware's own p99 of each (ns, counter resolution)."""
    try:
        with open(path, errors="replace") as f:
            lines = [ln.rstrip("\r\n") for ln in f]
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror))
    runs, p99 = [], {}
    for ln in lines:
        m = RUN_RE.match(ln)
        if m:
            runs.append((m.group(1), int(m.group(2))))
        m = P99_RE.match(ln)
        if m:
            p99[m.group(1)] = float(m.group(2))
    if not runs:
        raise InputError("%s: no 'wakeup run MODE: N wake-ups' line (the bench's wake-up "
                         "part prints one after each mode)" % path)
    names = [n for n, _ in runs]
    if len(set(names)) != len(names):
        raise InputError("%s: a mode ran twice (%s): one bench run per log" % (path, ", ".join(names)))
    return runs, p99


def lines_beside(t0, done, median, lines):
    """The other interrupt lines that may have delayed one wake-up: each
    rose between one median wake-up before the timer (an earlier handler
    still running) and the woken thread's run."""
    hit = []
    for name, rises in lines.items():
        i = bisect.bisect_left(rises, t0 - median)
        if i < len(rises) and rises[i] <= done:
            hit.append(name)
    return hit


def behind(periods, s, lines):
    """For each other interrupt line, how many of the mode's wake-ups it
    came beside, of all of them and of those above the mode's p99 (with
    how many of those had none)."""
    every = {name: 0 for name in lines}
    slow = {name: 0 for name in lines}
    count = alone = 0
    for t0, _, d in periods:
        hit = lines_beside(t0, d, s["median"], lines)
        for name in hit:
            every[name] += 1
        if d - t0 > s["p99"]:
            count += 1
            alone += not hit
            for name in hit:
                slow[name] += 1
    return {"beside": {k: v for k, v in every.items() if v}}, \
        {"count": count, "behind": {k: v for k, v in slow.items() if v}, "alone": alone}


def main(argv, parser):
    ap = parser(prog="lokal-latency wakeup",
                description="The bench's wake-up latency per mode (atomic, local, dma, nomap) "
                            "from a capture of the pins made over the whole bench run, cut "
                            "into the modes by the counts its console log prints.")
    ap.add_argument("log", metavar="LOG", help="the bench's console log")
    ap.add_argument("--pin", metavar="CAPTURE", required=True,
                    help="a capture with the 'wake' marker and, for delays from the "
                         "interrupt line, a 'timer' wire (vivt-emu --vcd)")
    cyclic.pin_channel_options(ap)
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON to OUT")
    return ap.parse_args(argv)


def report(a, check_output):
    if a.json is not None:
        check_output("--json", a.json)
    runs, fw_p99 = read_runs(a.log)
    inp, wake, timer = cyclic.pin_channels(a.pin, a.timer, a.wake)
    if timer is not None:
        periods = cyclic.pin_periods(inp, timer, wake)
        widths = [d - t0 for t0, _, d in periods]
    else:
        periods = None
        widths = [w for _, w in stats.pulses(wake)]
    want = sum(n for _, n in runs)
    if len(widths) != want:
        raise InputError("%s: %d wake-ups %s, but %s's runs add up to %d (%s): not the same run"
                         % (inp.desc, len(widths), "after a timer interrupt" if timer is not None
                            else "pulses", a.log, want,
                            ", ".join("%s %d" % r for r in runs)))
    mine = {a.wake or "wake", a.timer or "timer", "switch"}
    lines = {name: [t for i, (t, v) in enumerate(ch) if v and (i == 0 or not ch[i - 1][1])]
             for name, ch in inp.signals.items() if name not in mine}
    out = {"from": "timer line" if timer is not None else "wake pulse", "modes": {}, "ratios": {}}
    print("wake-up latency from the pins, %s to the woken thread (ns)"
          % ("the timer's interrupt line" if timer is not None else "the wake marker's rise"))
    print("%-8s %8s %8s %8s %8s %8s %14s" % ("mode", "count", "min", "median", "p99", "max",
                                             "firmware p99"))
    at = 0
    for mode, n in runs:
        s = stats.summary(widths[at:at + n])
        at += n
        out["modes"][mode] = s
        if mode in fw_p99:
            s["firmware_p99"] = fw_p99[mode]
        if n == 0:
            print("%-8s %8d" % (mode, 0))
            continue
        print("%-8s %8d %8d %8d %8d %8d %14s" % (mode, n, s["min"], s["median"], s["p99"], s["max"],
                                                 "%g" % fw_p99[mode] if mode in fw_p99 else "-"))
        if periods is not None and lines:
            every, s["above_p99"] = behind(periods[at - n:at], s, lines)
            s.update(every)
    for mode, s in out["modes"].items():
        t = s.get("above_p99")
        if t and t["count"]:
            print("%s: %d above its p99, behind %s; of all %d, %s" % (
                mode, t["count"], ", ".join(["%s %d" % kv for kv in t["behind"].items()]
                                            + ["no other line %d" % t["alone"]]),
                s["count"], ", ".join("%s beside %d" % kv for kv in s["beside"].items()) or
                "no other line beside any"))
    for num, den in RATIOS:
        a_, b_ = out["modes"].get(num, {}), out["modes"].get(den, {})
        if a_.get("count") and b_.get("count"):
            r = a_["p99"] / b_["p99"]
            out["ratios"]["%s/%s" % (num, den)] = round(r, 4)
            print("p99 %s/%s: %.3f" % (num, den, r))
    if a.json:
        import json
        with open(a.json, "w") as f:
            json.dump(out, f, indent=2)
    return 0
