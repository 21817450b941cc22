"""Pulses and their statistics.

Percentiles are nearest-rank: the value at 1-based rank ceil(p/100 * n) of
the sorted samples, as the firmware's bench computes them.
"""
import math
from fractions import Fraction

# The summary entries that are widths (count is not).
WIDTH_KEYS = ("min", "median", "p90", "p99", "max")


def pulses(changes, counter_hz=None, samplerate=None):
    """High pulses of a 0/1 change list, as (start_ns, width_ns).

    With counter_hz (a Lokal trace), edge times were rounded to whole ns
    from counter ticks: recover the ticks and express widths as the
    firmware does, ticks * 1e9 / hz rounded down, so both agree exactly.
    With samplerate (a capture whose VCD timescale does not divide the
    sample period), widths are whole samples, as a CSV of it would give.
    A level high from the first entry on (a capture begun mid-pulse) has no
    known start: that pulse is left out, like one the capture cuts off.
    """
    out = []
    start = None
    for n, (t, v) in enumerate(changes):
        if n == 0 and v:
            start = "cut"
        elif start == "cut":
            start = t if v else None
        elif v and start is None:
            start = t
        elif not v and start is not None:
            out.append((start, _width(start, t, counter_hz, samplerate)))
            start = None
    return out


def _width(t0, t1, hz, samplerate):
    # Times may be integers beyond 2^53 or fractions of a ns (vcd.py):
    # subtract and scale them exactly, and round only the result.
    if samplerate and not hz:
        return round(Fraction(t1 - t0) * Fraction(samplerate) / 10**9) * 1e9 / samplerate
    if not hz:
        w = Fraction(t1 - t0)
        return int(w) if w.denominator == 1 else float(w)
    ticks = to_ticks(t1, hz) - to_ticks(t0, hz)
    return ticks * 10**9 // hz


def to_ticks(t_ns, hz):
    """The counter tick a trace dump's whole-ns time was rounded from."""
    return round(Fraction(t_ns) * hz / 10**9)


def rank(sorted_vals, pct):
    r = math.ceil(pct * len(sorted_vals) / 100)
    return sorted_vals[max(r, 1) - 1]


def summary(widths):
    """count, min, median, p90, p99, max of a list of widths (ns)."""
    if not widths:
        return {"count": 0}
    s = sorted(widths)
    return {"count": len(s), "min": s[0], "median": rank(s, 50), "p90": rank(s, 90),
            "p99": rank(s, 99), "max": s[-1]}


def value_at(changes, t):
    """The value a change list holds at time t (the last change at or before t)."""
    v = 0
    for ct, cv in changes:
        if ct > t:
            break
        v = cv
    return v


def resolution(counter_hz=None, samplerate=None, timescale_ns=None):
    """The shortest width (ns) an input can tell from none, as pulses()
    measures it: a counter tick (widths are whole ns, so at least 1 ns), a
    sample, or the VCD's time unit. None if unknown."""
    if counter_hz:
        return max(Fraction(10**9, counter_hz), Fraction(1))
    if samplerate:
        return Fraction(10**9) / Fraction(samplerate)
    return Fraction(timescale_ns) if timescale_ns else None


def below(res):
    """How a width of 0 is reported: the pulse was shorter than res ns."""
    return "<%s ns" % _short(res)


def honest(summary, res, widths=None):
    """The summary with each width of 0 given as below(res), never a 0 that
    reads as a measurement; with the widths, also how many were that short."""
    out = dict(summary)
    if not res:
        return out
    for key in WIDTH_KEYS:
        if key in out and out[key] == 0:
            out[key] = below(res)
    short = sum(1 for w in widths or () if w == 0)
    if short:
        out["below_resolution"] = short
    return out


def decimals(res):
    """Decimals of ns that show a width at resolution res ns: none for 1 ns
    or coarser, 1 for 100 ps, 3 for 1 ps."""
    if not res or res >= 1:
        return 0
    return math.ceil(-math.log10(res) - 1e-9)


def _short(res):
    r = float(res)
    return "%d" % r if r == int(r) else "%.4g" % r
