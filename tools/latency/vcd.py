"""Value change dumps: read any VCD (sigrok's, GTKWave's, Lokal's trace
dump) into per-signal change lists.

A change list is [(time_ns, value), ...] in time order; wires carry 0/1,
integers their value; x and z read as 0. Times are exact: whole ns as
integers (a float would round them from 2^53 ns on), finer timescales as
fractions of a ns.
"""
import re
from fractions import Fraction

import sigrok_csv

UNITS_NS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1,
            "ps": Fraction(1, 10**3), "fs": Fraction(1, 10**6)}

BEGIN = "--- lokal-trace-vcd begin ---"
END = "--- lokal-trace-vcd end ---"


class VcdError(ValueError):
    pass


class Trace:
    """Signals by name, the time unit, and what the header said."""

    def __init__(self):
        self.signals = {}       # name -> [(time_ns, value)]
        self.widths = {}        # name -> bit width
        self.counter_hz = None  # Lokal dumps: the firmware's counter rate
        self.samplerate = None  # sigrok captures: the logic analyzer's rate
        self.timescale_ns = None  # the time unit, in ns (an int or a Fraction)
        self.label = None
        self.overflowed = False


def extract_dumps(text):
    """Lokal trace dumps framed in a console log, as (label, vcd text)."""
    dumps = []
    for m in re.finditer(re.escape(BEGIN) + r"\r?\n(.*?)" + re.escape(END), text, re.S):
        body = m.group(1).replace("\r", "")
        lab = re.search(r'\$comment lokal trace "([^"]*)"', body)
        dumps.append((lab.group(1) if lab else "trace%d" % len(dumps), body))
    return dumps


def parse(text):
    """Parse VCD text; raises VcdError with a reason on malformed input."""
    toks = text.split()
    tr = Trace()
    ids = {}                    # id code -> signal name
    scale = None
    i, n = 0, len(toks)
    while i < n:
        t = toks[i]
        if t == "$enddefinitions":
            i = _skip_end(toks, i)
            break
        if t in ("$timescale", "$comment", "$var", "$date", "$version", "$scope",
                 "$upscope"):
            j = _skip_end(toks, i)
            body = toks[i + 1:j - 1]
            if t == "$timescale":
                scale = _timescale(" ".join(body))
            elif t == "$comment":
                _header_comment(tr, " ".join(body))
            elif t == "$var":
                if len(body) < 4:
                    raise VcdError("bad $var: %s" % " ".join(body))
                if not body[1].isdigit():
                    raise VcdError("bad $var width %r" % body[1])
                width, code, name = int(body[1]), body[2], body[3]
                ids[code] = name
                tr.signals.setdefault(name, [])
                tr.widths[name] = width
            i = j
            continue
        if t.startswith("$"):
            i = _skip_end(toks, i)
            continue
        raise VcdError("unexpected %r before $enddefinitions" % t)
    else:
        raise VcdError("no $enddefinitions: not a VCD")
    if scale is None:
        raise VcdError("no $timescale")
    tr.timescale_ns = scale
    if not ids:
        raise VcdError("no $var: the dump has no signals")

    now = 0
    while i < n:
        t = toks[i]
        i += 1
        c = t[0]
        if c == "#":
            try:
                now = int(t[1:]) * scale
                if now.denominator == 1:
                    now = int(now)
            except ValueError:
                raise VcdError("bad timestamp %r" % t)
        elif t == "$comment":
            i = _skip_end(toks, i - 1)
        elif c == "$":
            continue            # $dumpvars, $end, $dumpall ... : values follow as usual
        elif c in "01xzXZ":
            _change(tr, ids, t[1:], now, 1 if c == "1" else 0)
        elif c in "bB":
            if i >= n:
                raise VcdError("vector value %r without an id" % t)
            bits = t[1:].lower().replace("x", "0").replace("z", "0")
            try:
                v = int(bits, 2)
            except ValueError:
                raise VcdError("bad vector value %r" % t)
            _change(tr, ids, toks[i], now, v)
            i += 1
        elif c in "rR":
            i += 1              # real values: not used by latency signals
        else:
            raise VcdError("unexpected token %r" % t)
    return tr


def _skip_end(toks, i):
    j = i + 1
    while j < len(toks) and toks[j] != "$end":
        j += 1
    if j == len(toks):
        raise VcdError("%s without $end" % toks[i])
    return j + 1


def _timescale(s):
    m = re.fullmatch(r"\s*(1|10|100)\s*(s|ms|us|ns|ps|fs)\s*", s)
    if not m:
        raise VcdError("bad $timescale %r" % s)
    return int(m.group(1)) * UNITS_NS[m.group(2)]


def _header_comment(tr, s):
    m = re.search(r"counter (\d+) Hz", s)
    if m:
        tr.counter_hz = int(m.group(1))
        try:
            sigrok_csv.check_rate(tr.counter_hz, "the trace's counter")
        except sigrok_csv.CsvError as e:
            raise VcdError(str(e))
    m = re.search(r'lokal trace "([^"]*)"', s)
    if m:
        tr.label = m.group(1)
    if "overflowed" in s:
        tr.overflowed = True
    # sigrok-cli: "Acquisition with 2/8 channels at 24 MHz"
    m = re.search(r"Acquisition with .* at ([0-9.]+ *[kMG]?Hz)", s)
    if m:
        tr.samplerate = _rate(m.group(1))


def _rate(s):
    try:
        return sigrok_csv.parse_rate(s, "the capture's rate")
    except sigrok_csv.CsvError as e:
        raise VcdError(str(e))


def _change(tr, ids, code, now, v):
    if code not in ids:
        raise VcdError("value for undeclared id %r" % code)
    lst = tr.signals[ids[code]]
    if lst and now < lst[-1][0]:
        raise VcdError("time goes backwards at %s" % now)
    lst.append((now, v))

