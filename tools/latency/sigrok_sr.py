"""sigrok session files (.sr), what `sigrok-cli -o capture.sr` and PulseView
save (libsigrok src/output/srzip.c, session format version 2):

    a zip archive holding
      version        "2"
      metadata       an ini file:  [device 1]
                                   capturefile=logic-1
                                   total probes=8
                                   samplerate=24 MHz
                                   probe1=D0          (bit 0 of a sample)
                                   probe2=D1          (bit 1)
                                   unitsize=1         (bytes per sample)
      logic-1-1, logic-1-2, ...    the samples, unitsize bytes each,
                                   little-endian, in chunk-number order

Only enabled channels have a probeN line; N-1 is the bit. Analog channels
(analog-1-N-M files) are not read.
"""
import configparser
import re
import zipfile
import zlib

import sigrok_csv

ZIP_MAGIC = b"PK\x03\x04"
# For each byte value, a search for any other byte.
_OTHER_BYTE = [re.compile(b"[^" + re.escape(bytes([v])) + b"]") for v in range(256)]


class SrError(ValueError):
    pass


def parse(path, samplerate=None):
    """Read a .sr file; returns a sigrok_csv.Capture (times in ns from the
    first sample). samplerate is the user's, for a file that lacks one."""
    try:
        with zipfile.ZipFile(path) as z:
            return _parse(z, samplerate)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as e:
        raise SrError("a damaged zip archive, so not a readable sigrok session file (.sr): %s" % e)


def _parse(z, samplerate):
    """The session in an open zip archive."""
    names = set(z.namelist())
    if "metadata" not in names:
        raise SrError("a zip archive without 'metadata': not a sigrok session file (.sr)")
    meta = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        meta.read_string(z.read("metadata").decode("utf-8", "replace"))
    except configparser.Error as e:
        raise SrError("unreadable session metadata: %s" % str(e).splitlines()[0])
    dev = next((s for s in meta.sections() if s.startswith("device ")), None)
    if dev is None:
        raise SrError("session metadata names no device")
    sec = meta[dev]
    base = sec.get("capturefile", "logic-1")
    channels = {}
    for key, name in sec.items():
        m = re.fullmatch(r"probe(\d+)", key)
        if m:
            channels[int(m.group(1)) - 1] = name.strip()
    if not channels:
        raise SrError("the session has no logic channels (only analog ones?)")
    try:
        unitsize = int(sec.get("unitsize", "1"))
    except ValueError:
        raise SrError("bad unitsize %r in the session metadata" % sec.get("unitsize"))
    if unitsize < 1 or unitsize > 8:
        raise SrError("bad unitsize %d in the session metadata" % unitsize)
    total = sec.get("total probes", "").strip()
    for bit, name in sorted(channels.items()):
        # A channel outside the samples would read as a flat line: refuse it.
        if bit >= unitsize * 8 or (total.isdigit() and bit >= int(total)):
            raise SrError("channel %s is probe%d, not in the capture (%s-byte samples%s)"
                          % (name, bit + 1, unitsize,
                             ", %s probes" % total if total.isdigit() else ""))
    file_rate = (sigrok_csv.parse_rate(sec["samplerate"], "the session's samplerate")
                 if "samplerate" in sec else None)
    rate = sigrok_csv.agree_rate(file_rate, samplerate, "samplerate=%s" % sec.get("samplerate"))
    chunks = sorted((n for n in names if re.fullmatch(re.escape(base) + r"-\d+", n)),
                    key=lambda n: int(n.rsplit("-", 1)[1]))
    if not chunks:
        raise SrError("the session holds no '%s-N' sample chunks" % base)
    # Chunks are numbered from 1 without gaps: a missing one would shift
    # every later edge, so name it rather than read on.
    for want, chunk in enumerate(chunks, 1):
        if chunk != "%s-%d" % (base, want):
            raise SrError("sample chunk %s-%d is missing (the session holds %s): a damaged "
                          "or incomplete session file" % (base, want, _listing(chunks)))
    cap = sigrok_csv.Capture()
    cap.samplerate = rate
    sample = 0
    prev = None
    leftover = b""
    for chunk in chunks:
        data = leftover + z.read(chunk)
        whole = len(data) - len(data) % unitsize
        leftover = data[whole:]
        for start, value in _runs(data[:whole], unitsize):
            if value != prev:
                _record(cap, channels, prev, value, (sample + start) * 1e9 / rate)
                prev = value
        sample += whole // unitsize
    if leftover:
        # A sample cut short means the data and the unitsize disagree:
        # every level read from it would be a guess.
        raise SrError("the sample data is %d bytes, not a whole number of %d-byte samples "
                      "(unitsize=%d): a damaged or incomplete session file"
                      % (sample * unitsize + len(leftover), unitsize, unitsize))
    if sample == 0:
        raise SrError("the session holds no samples")
    return cap


def _listing(chunks):
    """A short list of chunk names for an error line."""
    return ", ".join(chunks) if len(chunks) <= 4 else "%s ... %s, %d chunks" % (
        ", ".join(chunks[:2]), chunks[-1], len(chunks))


def _runs(data, unitsize):
    """(sample index, value) at the start of each run of equal samples."""
    if unitsize == 1:
        # Captures are mostly long runs (a 1 GHz one from a VCD, millions of
        # samples): search for the next byte unlike the run's at C speed.
        pos = 0
        while pos < len(data):
            v = data[pos]
            yield pos, v
            m = _OTHER_BYTE[v].search(data, pos + 1)
            pos = m.start() if m else len(data)
        return
    prev = None
    for i in range(0, len(data), unitsize):
        v = int.from_bytes(data[i:i + unitsize], "little")
        if v != prev:
            yield i // unitsize, v
            prev = v


def _record(cap, channels, prev, value, t_ns):
    for bit, name in channels.items():
        level = (value >> bit) & 1
        if prev is None or ((prev >> bit) & 1) != level:
            cap.signals.setdefault(name, []).append((t_ns, level))
