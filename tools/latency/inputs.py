"""Open any input the tool takes and tell its kind from its content: a
sigrok session file (.sr, a zip), a console log holding framed trace dumps,
a VCD (trace dump or sigrok-cli -O vcd), or a sigrok CSV (sigrok-cli -O csv).
Anything else (empty, binary) is named as the format problem it is."""
import mmap
import os
import re
import shutil
import sys
import tempfile

import sigrok_csv
import sigrok_sr
import stats
import vcd

READS = ("lokal-latency reads sigrok session files (.sr), VCD, sigrok CSV "
         "and console logs holding trace dumps")


# "-" as an input is standard input, called STDIN_NAME in messages.
STDIN, STDIN_NAME = "-", "<stdin>"


class InputError(Exception):
    pass


class Input:
    def __init__(self, signals, desc, counter_hz=None, samplerate=None,
                 overflowed=False, invalid=None, timescale_ns=None):
        self.signals = signals          # name -> [(time_ns, value)]
        self.desc = desc
        self.counter_hz = counter_hz    # trace dumps: the firmware's counter rate
        self.samplerate = samplerate    # captures: the logic analyzer's rate
        self.overflowed = overflowed
        self.invalid = invalid or {}    # CSV columns that are not logic levels
        # The shortest time the input can tell from none (ns): a width of 0
        # is a pulse shorter than this, not a measured 0.
        self.resolution_ns = stats.resolution(counter_hz, samplerate, timescale_ns)

    def channel(self, want, default):
        """The change list of channel `want` (an option) or `default` (by
        name); None if neither was asked for by option and none is there."""
        name = want or default
        if name in self.invalid:
            raise InputError("%s: channel %r: %s" % (self.desc, name, self.invalid[name]))
        if name in self.signals:
            return self.signals[name]
        if want:
            raise InputError("%s: no channel %r (has %s)"
                             % (self.desc, want, ", ".join(self.signals) or "none"))
        return None


def load(path, trace_label=None, samplerate=None):
    """Read one input: a file, or standard input for "-" (its format told
    from its content, as for a file). Raises InputError with one line."""
    if path == STDIN:
        return _load_stdin(trace_label, samplerate)
    return _load(path, path, trace_label, samplerate)


def _load_stdin(trace_label, samplerate):
    """Standard input, copied to a temporary file: a session is a zip read
    by seeking, and a CSV can be larger than memory."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError("%s: there is no standard input to read" % STDIN_NAME)
    if stream.isatty():
        raise InputError("%s: standard input is a terminal: pipe a capture in (e.g. "
                         "sigrok-cli ... -O vcd | lokal-latency -)" % STDIN_NAME)
    with tempfile.TemporaryDirectory(prefix="lokal-latency-") as tmp:
        copy = os.path.join(tmp, "stdin")
        with open(copy, "wb") as f:
            shutil.copyfileobj(stream, f, 1 << 20)
        if os.path.getsize(copy) == 0:
            raise InputError("%s: standard input is empty, no capture in it (%s)"
                             % (STDIN_NAME, READS))
        return _load(copy, STDIN_NAME, trace_label, samplerate)


def _load(path, name, trace_label, samplerate):
    """Read the file at path, called name in every message and in the report."""
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
        if not head:
            raise InputError("%s: empty file, no capture in it (%s)" % (name, READS))
        if head.startswith(sigrok_sr.ZIP_MAGIC):
            if trace_label:
                raise InputError("%s: a sigrok session holds no trace dump, so no trace %r to "
                                 "pick: --trace is for console logs holding trace dumps"
                                 % (name, trace_label))
            cap = sigrok_sr.parse(path, samplerate)
            return Input(cap.signals, name, samplerate=cap.samplerate)
        if _binary(head):
            raise InputError("%s: binary data, and not a sigrok session (.sr is a zip archive): "
                             "not a format this tool reads (%s)" % (name, READS))
        with open(path, errors="replace") as f:
            head = f.read(1 << 16)
            if ("$enddefinitions" in head or "$timescale" in head
                    or _contains(f, vcd.BEGIN.encode())):
                f.seek(0)
                return _from_text(name, f.read(), trace_label, samplerate)
            if trace_label:
                raise InputError("%s: no trace dump in this file (no %r line), so no trace %r "
                                 "to pick: --trace is for console logs holding trace dumps"
                                 % (name, vcd.BEGIN, trace_label))
            f.seek(0)
            # A CSV can be millions of rows: read it as a stream.
            try:
                cap = sigrok_csv.parse(f, samplerate)
            except sigrok_csv.CsvError as e:
                # CSV is the last guess: text that is none of the formats ends here.
                if sigrok_csv.NO_SAMPLES in str(e):
                    raise InputError("%s: %s, nor any other format this tool reads (%s)"
                                     % (name, e, READS))
                raise
    except OSError as e:
        raise InputError(str(e))
    except (vcd.VcdError, sigrok_csv.CsvError, sigrok_sr.SrError) as e:
        raise InputError("%s: %s" % (name, e))
    return Input(cap.signals, name, samplerate=cap.samplerate, invalid=cap.invalid)


def _binary(head):
    """NUL bytes, or bytes that are not UTF-8 text (a multi-byte character
    cut at the end of the sample is fine)."""
    if b"\0" in head:
        return True
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as e:
        return e.start < len(head) - 3
    return False


def _contains(f, needle):
    """Whether the file holds needle anywhere (a console log may print a
    long way before its dump), without reading it into memory."""
    try:
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
            return m.find(needle) >= 0
    except ValueError:          # an empty file cannot be mapped
        return False


def _pick(path, dumps, labels, twice, want):
    """The dump --trace names: a label the log holds once, or LABEL#N, the
    Nth of the dumps labelled alike (never one of them picked silently)."""
    picked = [d for d in dumps if d[0] == want]
    if len(picked) == 1:
        return picked[0]
    if len(picked) > 1:
        raise InputError("%s holds %d trace dumps labelled %r: say which with --trace %s#1 "
                         "... %s#%d (in the order the log prints them)"
                         % (path, len(picked), want, want, want, len(picked)))
    m = re.fullmatch(r"(.*)#([0-9]+)", want)
    if m and m.group(1) in labels:
        same = [d for d in dumps if d[0] == m.group(1)]
        n = int(m.group(2))
        if 1 <= n <= len(same):
            return (want, same[n - 1][1])
        raise InputError("%s holds %d trace dump%s labelled %r, so no %r"
                         % (path, len(same), "s" if len(same) > 1 else "", m.group(1), want))
    raise InputError("%s: no trace dump labelled %r (it holds %s)"
                     % (path, want, ", ".join(labels)))


def _numbered(twice):
    """How --trace picks among dumps labelled alike, for an error line."""
    if not twice:
        return ""
    return " (more than one is labelled %s: --trace LABEL#N picks the Nth of those)" % (
        " and ".join(repr(t) for t in twice))


def _from_text(path, text, trace_label, samplerate=None):
    desc = path
    framed = vcd.BEGIN in text
    if framed:
        dumps = vcd.extract_dumps(text)
        if not dumps:
            raise InputError("%s: a trace dump begins but never ends (%r missing)"
                             % (path, vcd.END))
        labels = [d[0] for d in dumps]
        twice = sorted({lab for lab in labels if labels.count(lab) > 1})
        if trace_label:
            dumps = [_pick(path, dumps, labels, twice, trace_label)]
        elif len(dumps) > 1:
            raise InputError("%s holds %d trace dumps (%s): pick one with --trace%s"
                             % (path, len(dumps), ", ".join(labels), _numbered(twice)))
        desc = "%s [%s]" % (path, dumps[0][0])
        text = dumps[0][1]
    try:
        tr = vcd.parse(text)
    except vcd.VcdError as e:
        raise InputError("%s: %s" % (desc, e))
    if trace_label and not framed and tr.label != trace_label:
        # A VCD on its own is one trace: --trace may only name its label.
        raise InputError("%s: a VCD %s, so no trace %r to pick: --trace is for console logs "
                         "holding trace dumps" % (path, "of trace %r" % tr.label if tr.label
                                                  else "that is no trace dump", trace_label))
    if samplerate:
        if not tr.samplerate:
            raise InputError("%s: --samplerate is for CSV and .sr captures that do not say their "
                             "rate; a VCD times its own edges: leave it out" % desc)
        try:
            sigrok_csv.agree_rate(tr.samplerate, samplerate,
                                  "rate comment (%s)" % sigrok_csv.rate_string(tr.samplerate))
        except sigrok_csv.CsvError as e:
            raise InputError("%s: %s" % (desc, e))
    return Input(tr.signals, desc, counter_hz=tr.counter_hz, samplerate=tr.samplerate,
                 timescale_ns=tr.timescale_ns,
                 overflowed=tr.overflowed)
