## Lokal's switch and wake marker pulses, for sigrok-cli and PulseView.
## Widths and statistics follow tools/latency/stats.py (the same figures
## on the same capture); kept self-contained so the directory can be
## copied into a user's decoder directory alone.

import bisect
import math
import sigrokdecode as srd

PIN_SWITCH, PIN_WAKE = range(2)
ANN_SWITCH, ANN_WAKE, ANN_SWITCH_STATS, ANN_WAKE_STATS = range(4)


def rank(sorted_vals, pct):
    '''Nearest rank: the value at 1-based rank ceil(pct/100 * n).'''
    r = math.ceil(pct * len(sorted_vals) / 100)
    return sorted_vals[max(r, 1) - 1]


class Decoder(srd.Decoder):
    api_version = 3
    id = 'lokal'
    name = 'Lokal'
    longname = 'Lokal switch and wake markers'
    desc = 'Context-switch and wake-up latency from the Lokal marker pins.'
    license = 'gplv2+'
    inputs = ['logic']
    outputs = []
    tags = ['Util']
    channels = (
        {'id': 'switch', 'name': 'switch', 'desc': 'High while a context switch runs'},
        {'id': 'wake', 'name': 'wake', 'desc': 'High from a wake-up until the woken thread runs'},
    )
    annotations = (
        ('switch', 'Switch pulse width'),
        ('wake', 'Wake-to-run interval'),
        ('switch-stats', 'Switch statistics so far'),
        ('wake-stats', 'Wake statistics so far'),
    )
    annotation_rows = (
        ('switches', 'Switches', (ANN_SWITCH,)),
        ('wakes', 'Wake-ups', (ANN_WAKE,)),
        ('switch-stats-row', 'Switch stats', (ANN_SWITCH_STATS,)),
        ('wake-stats-row', 'Wake stats', (ANN_WAKE_STATS,)),
    )

    def __init__(self):
        self.reset()

    def reset(self):
        self.samplerate = None
        self.widths = ([], [])          # sorted, per pin

    def metadata(self, key, value):
        if key == srd.SRD_CONF_SAMPLERATE:
            self.samplerate = value

    def start(self):
        self.out_ann = self.register(srd.OUTPUT_ANN)

    def width_text(self, samples):
        if not self.samplerate:
            return '%d samples' % samples, samples
        ns = samples * 1e9 / self.samplerate
        return '%.3f ns' % ns, ns

    def pulse(self, pin, start, end):
        text, width = self.width_text(end - start)
        what = ('switch', 'wake-to-run')[pin]
        self.put(start, end, self.out_ann,
                 [(ANN_SWITCH, ANN_WAKE)[pin], ['%s %s' % (what, text), text]])
        vals = self.widths[pin]
        bisect.insort(vals, width)
        unit = ' ns' if self.samplerate else ' samples'
        stats = 'n=%d min %.3f median %.3f p99 %.3f max %.3f%s' % (
            len(vals), vals[0], rank(vals, 50), rank(vals, 99), vals[-1], unit)
        self.put(start, end, self.out_ann,
                 [(ANN_SWITCH_STATS, ANN_WAKE_STATS)[pin],
                  ['%s %s' % (('switch', 'wake')[pin], stats), stats]])

    def decode(self):
        # The levels at the first sample: a pin high there has a pulse whose
        # start the capture missed, left out like lokal-latency does.
        pins = self.wait()
        start = [None, None]
        cut = [pins[PIN_SWITCH] == 1, pins[PIN_WAKE] == 1]
        while True:
            pins = self.wait([{PIN_SWITCH: 'e'}, {PIN_WAKE: 'e'}])
            for pin in (PIN_SWITCH, PIN_WAKE):
                if not self.matched[pin]:
                    continue
                if pins[pin]:
                    start[pin] = self.samplenum
                elif cut[pin]:
                    cut[pin] = False
                elif start[pin] is not None:
                    self.pulse(pin, start[pin], self.samplenum)
                    start[pin] = None
