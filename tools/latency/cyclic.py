"""The cyclic test's figures: from the firmware's report on its console, and
from a capture of the pins (a `timer` wire at the one-shot timer's
interrupt line, and the `wake` marker: up in the handler, down when the
measuring thread runs).

    lokal-latency cyclic LOG [--pin CAPTURE] [--plot OUT.png] [--json OUT]

A capture with a timer wire is what vivt-emu --vcd writes; on a board,
wire the timer's output pin (where it has one) to the analyzer's D2.
"""
import bisect
import re

import stats
from inputs import InputError, load

HIST_RE = re.compile(r"^cyclic-hist:\s+(\d+)\s+(\d+)\s+(\d+)\s*$")
SUMMARY_RE = re.compile(r"^cyclic: (handler|thread|wake)\s+min\s+(\d+) avg\s+(\d+) max\s+(\d+) ns "
                        r"over (\d+) periods$")
CALIB_RE = re.compile(r"^cyclic: counter (\d+) Hz; one counter read, (\d+) ns")


def read_report(path):
    """The last cyclic report in a console log: its histogram rows, the
    summaries, the bucket width, the counter rate and the calibration."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror))
    rep = None
    for ln in lines:
        ln = ln.rstrip("\r")
        m = CALIB_RE.match(ln)
        if m:
            rep = {"counter_hz": int(m.group(1)), "calib_ns": int(m.group(2)),
                   "rows": [], "summary": {}}
            continue
        if rep is None:
            continue
        m = HIST_RE.match(ln)
        if m:
            rep["rows"].append(tuple(int(g) for g in m.groups()))
        m = SUMMARY_RE.match(ln)
        if m:
            rep["summary"][m.group(1)] = {
                "min": int(m.group(2)), "avg": int(m.group(3)), "max": int(m.group(4)),
                "count": int(m.group(5))}
    if rep is None or not {"handler", "thread"} <= set(rep["summary"]) or not rep["counter_hz"]:
        raise InputError("%s: no complete cyclic report (the lines make cyclic prints, from "
                         "'cyclic: counter' to 'cyclic: thread ... max')" % path)
    for sig, col in (("handler", 1), ("thread", 2)):
        if sum(r[col] for r in rep["rows"]) != rep["summary"][sig]["count"]:
            raise InputError("%s: the %s histogram's rows do not add up to its %d periods"
                             % (path, sig, rep["summary"][sig]["count"]))
    return rep


def pin_periods(inp, timer, wake):
    """Per timer interrupt (a rise of `timer`): its time, and when the wake
    pin rose (the handler) and fell (the thread), in ns of the capture. A
    period the capture cuts off, or whose pulse is the next period's, is
    left out."""
    rises = [t for i, (t, v) in enumerate(timer) if v and (i == 0 or not timer[i - 1][1])]
    ups = [t for i, (t, v) in enumerate(wake) if i > 0 and v and not wake[i - 1][1]]
    downs = [t for i, (t, v) in enumerate(wake) if i > 0 and not v and wake[i - 1][1]]
    periods = []
    for k, t0 in enumerate(rises):
        t_next = rises[k + 1] if k + 1 < len(rises) else None
        i = bisect.bisect_left(ups, t0)
        if i == len(ups):
            break
        j = bisect.bisect_left(downs, ups[i])
        if j == len(downs) or (t_next is not None and downs[j] > t_next):
            continue
        periods.append((t0, ups[i], downs[j]))
    return periods


def pin_channels(path, timer_ch, wake_ch):
    """The capture, its wake channel and its timer channel (None for a
    capture without one: a board whose timer drives no pin)."""
    inp = load(path)
    wake = inp.channel(wake_ch, "wake")
    timer = inp.channel(timer_ch, "timer") if wake is not None else None
    if wake is None:
        raise InputError("%s: a cyclic capture needs a 'wake' channel, and a 'timer' one for the "
                         "delays from the timer (has %s); name them with --wake/--timer"
                         % (inp.desc, ", ".join(inp.signals)))
    return inp, wake, timer


def pin_delays(path, timer_ch, wake_ch):
    """Per timer interrupt: how long until the wake pin rose (the handler)
    and until it fell (the thread), in ns of the capture; and each wake
    pulse (handler to thread). A capture without a timer wire (a board
    whose timer drives no pin) has the wake pulses only: handler and
    thread are then None."""
    inp, wake, timer = pin_channels(path, timer_ch, wake_ch)
    pulses = [w for _, w in stats.pulses(wake)]
    if timer is None:
        if not pulses:
            raise InputError("%s: no wake pulse" % inp.desc)
        return inp, None, None, pulses
    periods = pin_periods(inp, timer, wake)
    if not periods:
        raise InputError("%s: no timer interrupt followed by a wake pulse" % inp.desc)
    return inp, [u - t0 for t0, u, _ in periods], [d - t0 for t0, _, d in periods], pulses


def summary(widths):
    return {"count": len(widths), "min": min(widths), "avg": sum(widths) // len(widths),
            "max": max(widths)}


def pin_channel_options(ap):
    """The capture's channel names, as every pin reader takes them."""
    ap.add_argument("--timer", metavar="CH", help="the capture's timer channel (default 'timer')")
    ap.add_argument("--wake", metavar="CH", help="the capture's wake channel (default 'wake')")


def bucketed(widths, hz, nbuckets):
    """Counts per counter tick, as the firmware's histogram keeps them."""
    rows = [0] * nbuckets
    for w in widths:
        rows[min(int(w * hz // 10**9), nbuckets - 1)] += 1
    return rows


def main(argv, parser):
    ap = parser(prog="lokal-latency cyclic",
                description="The cyclic test's histogram and maxima from the firmware's report "
                            "on its console, and, with --pin, the same figures read from a "
                            "capture of the pins, and whether the two agree.")
    ap.add_argument("log", metavar="LOG", help="a console log holding make cyclic's report")
    ap.add_argument("--pin", metavar="CAPTURE",
                    help="a capture with a 'timer' wire and the 'wake' marker (vivt-emu --vcd)")
    pin_channel_options(ap)
    ap.add_argument("--plot", metavar="OUT.png", help="PNG: the histograms, log-scale counts")
    ap.add_argument("--json", metavar="OUT", help="also write the figures as JSON to OUT")
    return ap.parse_args(argv)


def report(a, check_output, plot):
    for option, path in (("--json", a.json), ("--plot", a.plot)):
        if path is not None:
            check_output(option, path)
    rep = read_report(a.log)
    hz = rep["counter_hz"]
    tick = 10**9 / hz
    nb = max(round(r[0] / tick) for r in rep["rows"]) + 1 if rep["rows"] else 1
    out = {"firmware": rep["summary"], "calib_ns": rep["calib_ns"], "counter_hz": rep["counter_hz"]}
    print("%-16s %8s %8s %8s %8s (ns)" % ("", "periods", "min", "avg", "max"))
    for sig in ("handler", "thread", "wake"):
        s = rep["summary"].get(sig)
        if s:
            print("firmware %-7s %8d %8d %8d %8d" % (sig, s["count"], s["min"], s["avg"], s["max"]))
    series = [("firmware: timer to handler", [(r[0], r[1]) for r in rep["rows"]]),
              ("firmware: timer to thread", [(r[0], r[2]) for r in rep["rows"]])]
    status = 0
    if a.pin:
        inp, handler, thread, pulses = pin_delays(a.pin, a.timer, a.wake)
        allowed = int(2 * tick + rep["calib_ns"])
        out["pin"] = {"wake": summary(pulses)}
        if handler is not None:
            out["pin"].update(handler=summary(handler), thread=summary(thread))
            nb = max(nb, int(max(thread) * hz // 10**9) + 1)
            starts = [b * tick for b in range(nb)]
            series += [("pin: timer to handler", list(zip(starts, bucketed(handler, hz, nb)))),
                       ("pin: timer to thread", list(zip(starts, bucketed(thread, hz, nb))))]
        else:
            print("note: %s has no timer wire: the pins show the handler-to-thread part only "
                  "(the wake pulse)" % inp.desc)
        for sig in ("handler", "thread", "wake"):
            s = out["pin"].get(sig)
            if s:
                print("pin      %-7s %8d %8d %8d %8d" % (sig, s["count"], s["min"], s["avg"], s["max"]))
        out["agree"] = {}
        for sig in [g for g in ("handler", "thread", "wake") if g in out["pin"]]:
            if sig not in rep["summary"]:
                continue
            d = rep["summary"][sig]["max"] - out["pin"][sig]["max"]
            ok = abs(d) <= allowed and rep["summary"][sig]["count"] == out["pin"][sig]["count"]
            out["agree"][sig] = ok
            print("%s max: firmware - pin = %+d ns (%s: within two counter ticks and one read, "
                  "%d ns, over %d periods each)%s" % (
                      sig, d, "agree" if ok else "DISAGREE", allowed, out["pin"][sig]["count"],
                      "" if rep["summary"][sig]["count"] == out["pin"][sig]["count"] else
                      "; the periods differ: firmware %d" % rep["summary"][sig]["count"]))
            status = status if ok else 1
    if a.json:
        import json
        with open(a.json, "w") as f:
            json.dump(out, f, indent=2)
    if a.plot:
        plot.histogram(a.plot, series, "cyclic: latency from the timer expiry", tick)
    return status
