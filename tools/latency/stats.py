"""Pulses and their statistics.

Percentiles are nearest-rank: the value at 1-based rank ceil(p/100 * n) of
the sorted samples, as the firmware's bench computes them.
"""
import math
from fractions import Fraction


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
